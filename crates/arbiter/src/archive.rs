//! The archivist's commands: `select`, `split`, and the `--strip`, `--fix` and
//! `--positions` options of `convert`. The logic lives in the `archive` crate; this module
//! reads the arguments and prints the summaries.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use ::archive::{Filter, Fixes, Input, SelectTally, Selector, Source, SplitBy, Splitter, Strip};
use clap::Args;
use game::GameInfo;

use crate::args::Target;

use crate::exit::Stop;
use crate::output::Output;

/// `--problems`: the codes the referee, the games and the reader give.
fn parse_problems(text: &str) -> Result<Filter, ::archive::FilterError> {
    let codes = games::games().registry().codes();
    let mut known: Vec<&str> = codes.iter().map(|c| c.as_str()).collect();
    known.extend(pdn::PROBLEM_KINDS);
    Filter::problems(text, &known)
}

/// The filters and outputs of `select`. Every filter must pass; a filter given twice must
/// pass twice.
#[derive(Args, Debug, Clone)]
pub struct FilterArgs {
    /// A tag test: NAME=VALUE (exact) or NAME~REGEX (a regular expression).
    #[arg(long = "tag", value_name = "TEST", value_parser = Filter::tag)]
    tags: Vec<Filter>,
    /// White or Black (or a seat: South, West, North, East) contains TEXT, ignoring case.
    #[arg(long = "player", value_name = "TEXT", value_parser = Filter::player)]
    players: Vec<Filter>,
    /// The result, in the game's own notation (1-0, 2-0, S+, N+ ...), compared as outcomes.
    #[arg(long = "result", value_name = "R")]
    results: Vec<String>,
    /// Games dated on or after DATE (YYYY.MM.DD, ?? for unknown parts, DD.MM.YYYY or
    /// YYYY-MM-DD; a partial date counts if it may be in range).
    #[arg(long, value_name = "DATE", value_parser = Filter::date_from)]
    date_from: Vec<Filter>,
    /// Games dated on or before DATE.
    #[arg(long, value_name = "DATE", value_parser = Filter::date_to)]
    date_to: Vec<Filter>,
    /// Plies in the main line: MIN..MAX, MIN.., ..MAX or N (replays the games).
    #[arg(long, value_name = "RANGE", value_parser = Filter::plies)]
    plies: Vec<Filter>,
    /// Games of this game, as their Variant and GameType tags say, else `--default-game`
    /// (`--game` makes every game one; see `arbiter games`).
    #[arg(long, value_name = "GAME", value_parser = crate::args::parse_game)]
    only_game: Vec<&'static GameInfo>,
    /// any (some error), none (no error), or problem codes such as illegal-move,bad-tag
    /// (replays the games).
    #[arg(long, value_name = "WHICH", value_parser = parse_problems)]
    problems: Vec<Filter>,
    /// The main line reaches this position (in the game's FEN dialect; replays the games).
    #[arg(long, value_name = "FEN")]
    position: Vec<String>,
    /// Keep only the first of games whose main line from the same start goes through the
    /// same positions (replays the games).
    #[arg(long)]
    dedupe: bool,
    /// Swap OUT and REST: write the games that fail a filter to OUT.
    #[arg(long)]
    invert: bool,
    /// Where the selected games go (`-`: standard output).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Where the other games go (without it they are not written).
    #[arg(long, value_name = "REST")]
    rest: Option<PathBuf>,
}

impl FilterArgs {
    fn selector(self, settings: referee::Settings) -> Selector {
        let mut filters = self.tags;
        filters.extend(self.players);
        filters.extend(self.results.into_iter().map(Filter::Result));
        filters.extend(self.date_from);
        filters.extend(self.date_to);
        filters.extend(self.only_game.into_iter().map(Filter::Game));
        filters.extend(self.plies);
        filters.extend(self.problems);
        filters.extend(self.position.into_iter().map(Filter::Position));
        Selector {
            games: games::games(),
            filters,
            dedupe: self.dedupe,
            invert: self.invert,
            settings,
        }
    }
}

/// Reports an input that cannot be read; the run goes on with the others.
fn report_unreadable(name: &str, e: &dyn std::fmt::Display) {
    let (name, e) = (crate::report::escape(name), e.to_string());
    eprintln!("arbiter: {name}: {}", crate::report::escape(&e));
}

/// The inputs as the `archive` crate opens them, refusing an input that is also an output.
/// Paths that cannot be read are reported here and counted in the second value.
fn archive_inputs(paths: &[PathBuf], outputs: &[&Path]) -> Result<(Vec<Input>, u64), Stop> {
    let (found, missing) = ::archive::collect(paths, ::archive::Dash::Stdin);
    for (path, e) in &missing {
        crate::validate::unreadable(false, &path.display().to_string(), e)?;
    }
    refuse_overwrite(&found, outputs)?;
    let mut inputs = Vec::new();
    for i in found {
        inputs.push(Input {
            name: i.name(),
            open: Box::new(move || i.open(games::games()).map_err(io::Error::from)),
        });
    }
    Ok((inputs, missing.len() as u64))
}

/// Refuses an output that is one of the inputs (exit 2): it would replace a record being
/// read, in every command alike.
pub fn refuse_overwrite(inputs: &[Source], outputs: &[&Path]) -> Result<(), Stop> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    for i in inputs {
        if let Source::File(p) = i {
            if let Some(o) = outputs.iter().find(|o| same(p, o)) {
                return Err(Stop::Usage(format!(
                    "{} is both an input and an output; write to another file",
                    crate::report::escape(&o.display().to_string())
                )));
            }
        }
    }
    Ok(())
}

/// The exit code of a run that copied games: 2 when some input could not be read.
fn copied(unreadable: u64) -> u8 {
    if unreadable > 0 {
        crate::exit::FAILURE
    } else {
        crate::exit::CLEAN
    }
}

/// A progress bar over the bytes of the inputs, on a terminal only.
fn progress_bar(paths: &[PathBuf]) -> Option<indicatif::ProgressBar> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let (inputs, _) = ::archive::collect(paths, ::archive::Dash::Stdin);
    let plain = inputs.iter().all(|i| match i {
        Source::File(p) => !p.to_string_lossy().ends_with(".gz"),
        Source::Stdin | Source::Text { .. } => false,
    });
    let bar = if plain {
        let total = inputs
            .iter()
            .filter_map(|i| match i {
                Source::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
                Source::Stdin | Source::Text { .. } => None,
            })
            .sum();
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bytes}/{total_bytes} [{elapsed_precise}] {wide_bar} {bytes_per_sec}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {bytes} read [{elapsed_precise}]")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar
    };
    Some(bar)
}

/// `arbiter select`: returns the exit code (0, or 2 when an input could not be read or a
/// game was refused).
pub fn select_cmd(
    paths: &[PathBuf],
    args: FilterArgs,
    settings: referee::Settings,
) -> Result<u8, Stop> {
    let out_path = args.output.clone();
    let rest_path = args.rest.clone();
    let mut outputs = vec![out_path.as_path()];
    outputs.extend(rest_path.as_deref());
    let (inputs, missing) = archive_inputs(paths, &outputs)?;
    let selector = args.selector(settings);
    // A closed pipe stops the writing, not the reading: the exit code stays the verdict.
    let mut out = Output::create(Some(&out_path))?.read_on_when_closed();
    let mut rest = rest_path
        .as_deref()
        .map(|p| Output::create(Some(p)).map(Output::read_on_when_closed))
        .transpose()?;
    // Inputs read in parallel wait in temporary files beside OUT.
    let spool = match out_path.parent() {
        Some(p) if out_path.as_os_str() != "-" && !p.as_os_str().is_empty() => p.to_path_buf(),
        Some(_) if out_path.as_os_str() != "-" => PathBuf::from("."),
        _ => std::env::temp_dir(),
    };
    let bar = progress_bar(paths);
    let progress = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let tally = match ::archive::select(
        &selector,
        &inputs,
        &mut out,
        rest.as_mut().map(|r| r as &mut dyn Write),
        &spool,
        &progress,
        &mut |name, e| report_unreadable(name, &e),
    ) {
        Ok(mut tally) => {
            tally.unreadable += missing;
            tally
        }
        // A closed pipe (`-o - | head`): the part written was what was wanted.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(0),
        Err(e) => return Err(Stop::Usage(e.to_string())),
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    // Nothing read at all: no file (an existing one is left as it was).
    let nothing = tally.read == 0 && tally.unreadable > 0;
    let committed = if nothing {
        Ok(())
    } else {
        out.commit()
            .and_then(|()| rest.map_or(Ok(()), Output::commit))
    };
    match committed {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(0),
        other => other.map_err(|e| Stop::Usage(e.to_string()))?,
    }
    eprintln!(
        "{}",
        select_summary(&tally, &out_path, rest_path.as_deref(), &selector)
    );
    // A refused game leaves the output incomplete: exit 2, as for an unreadable input.
    Ok(copied(tally.unreadable + tally.truncated))
}

/// `1 game`, `2 games`; `ply` and `diagnosis`-like words are not needed: `1 ply`, `2 plies`.
pub(crate) fn plural(n: u64, one: &str) -> String {
    match (n, one) {
        (1, _) => format!("1 {one}"),
        (_, "ply") => format!("{n} plies"),
        _ => format!("{n} {one}s"),
    }
}

/// `read 3368 games: 120 to wins.pdn, 3248 to others.pdn, 2 dropped as duplicates`.
fn select_summary(t: &SelectTally, out: &Path, rest: Option<&Path>, selector: &Selector) -> String {
    let mut line = format!(
        "read {}: {} to {}",
        plural(t.read, "game"),
        t.selected,
        out.display()
    );
    match rest {
        Some(r) => line.push_str(&format!(", {} to {}", t.rest, r.display())),
        None => line.push_str(&format!(", {} not selected (not written)", t.rest)),
    }
    if selector.dedupe {
        line.push_str(&format!(", {} dropped as duplicates", t.duplicates));
    }
    if t.unreadable > 0 {
        line.push_str(&format!(", {}", plural(t.unreadable, "unreadable input")));
    }
    if t.open > 0 {
        line.push_str(&format!(
            "\nnote: {} without a result token, written as read with `*` after them",
            plural(t.open, "game")
        ));
    }
    if t.truncated > 0 {
        line.push_str(&format!(
            "\nerror: {} longer than the reader's limit of {} MiB refused (not written)",
            plural(t.truncated, "game"),
            pdn::DEFAULT_MAX_CAPACITY >> 20
        ));
    }
    line
}

/// `arbiter split`: returns the exit code (0, or 2 when an input could not be read or a
/// game was refused).
pub fn split_cmd(
    paths: &[PathBuf],
    games: Option<u64>,
    by: Option<String>,
    dir: &Path,
) -> Result<u8, Stop> {
    let (inputs, mut unreadable) = archive_inputs(paths, &[])?;
    let mut refused = 0u64;
    let by = match (games, by) {
        (Some(n), None) => SplitBy::Games(n),
        (None, Some(tag)) => SplitBy::Tag(tag),
        _ => return Err(Stop::Usage("give either --games N or --by TAG".to_string())),
    };
    let stem = match paths {
        [one] if one.is_file() => file_stem(one),
        _ => "games".to_string(),
    };
    let mut splitter = Splitter::new(dir, by, &stem)
        .map_err(|e| Stop::Usage(format!("{}: {e}", dir.display())))?;
    let (files, _) = ::archive::collect(paths, ::archive::Dash::Stdin);
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter_map(|s| match s {
            Source::File(p) => Some(p),
            _ => None,
        })
        .collect();
    splitter.protect(&files);
    let bar = progress_bar(paths);
    let progress = |n: u64| {
        if let Some(b) = &bar {
            b.inc(n);
        }
    };
    let mut read = 0;
    for input in &inputs {
        let name = &input.name;
        let tag = splitter.tag().map(str::to_string);
        let mut games = 0;
        let split = (input.open)()
            .map_err(::archive::read_error)
            .and_then(|source| {
                ::archive::each_game(source, &progress, &mut |tags, text| {
                    games += 1;
                    let Some(text) = text else {
                        refused += 1;
                        eprintln!(
                            "arbiter: {}: game {games}: longer than the reader's limit of {} MiB; refused (not written)",
                            crate::report::escape(name),
                            pdn::DEFAULT_MAX_CAPACITY >> 20
                        );
                        return Ok(());
                    };
                    let value = tag.as_deref().and_then(|t| tags.get(t));
                    splitter.put(value.as_deref(), text, tags.open())
                })
            });
        read += games;
        match split {
            Ok(_) => {}
            Err(e) if ::archive::is_read_error(&e) => {
                unreadable += 1;
                report_unreadable(name, &e);
            }
            // An error writing names the output it failed on.
            Err(e) => return Err(Stop::Usage(e.to_string())),
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let files = splitter
        .finish()
        .map_err(|e| Stop::Usage(format!("{}: {e}", dir.display())))?;
    let mut line = format!(
        "read {}: wrote {} to {}",
        plural(read, "game"),
        plural(files.len() as u64, "file"),
        dir.display()
    );
    if unreadable > 0 {
        line.push_str(&format!(", {}", plural(unreadable, "unreadable input")));
    }
    if refused > 0 {
        line.push_str(&format!(", {} refused", plural(refused, "game")));
    }
    eprintln!("{line}");
    Ok(copied(unreadable + refused))
}

/// `tama-random` for `corpus/tama/tama-random.pdn.gz`.
fn file_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    let cut = [".pdn.gz", ".pdn", ".gz"]
        .iter()
        .find(|s| lower.ends_with(*s))
        .map_or(name.len(), |s| name.len() - s.len());
    name[..cut].to_string()
}

/// The archivist's options of `convert`.
#[derive(Args, Debug, Clone, Default)]
pub struct ConvertEdits {
    /// Remove comments, variations and/or nags (glyphs and !/? marks), comma-separated.
    #[arg(long, value_name = "WHAT", value_parser = Strip::parse)]
    strip: Option<Strip>,
    /// Correct results (where the game ended by rule) and/or PlyCount, comma-separated;
    /// each change is reported.
    #[arg(long, value_name = "WHAT", value_parser = Fixes::parse)]
    fix: Option<Fixes>,
    /// With --to json: give every ply of the main line with the position after it, the move
    /// in standard notation, from, to, captured squares and the mover.
    #[arg(long)]
    positions: bool,
}

/// What `convert` does to each game besides converting it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Edits {
    /// What to remove.
    pub strip: Strip,
    /// What to correct.
    pub fix: Fixes,
    /// Add the ply table to the JSON form.
    pub positions: bool,
}

impl Edits {
    /// True when the games must be replayed for these edits.
    pub fn needs_replay(&self) -> bool {
        self.positions || !self.fix.is_empty()
    }
}

impl ConvertEdits {
    /// The edits, checked against the output form.
    pub fn check(&self, to: Target) -> Result<Edits, Stop> {
        if self.positions && to != Target::Json {
            return Err(Stop::Usage(
                "--positions adds the plies to the JSON form: give --to json".to_string(),
            ));
        }
        Ok(Edits {
            strip: self.strip.unwrap_or_default(),
            fix: self.fix.unwrap_or_default(),
            positions: self.positions,
        })
    }
}
