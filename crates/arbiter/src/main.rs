//! `arbiter`: validate, convert and analyse archives of recorded draughts-family games.
//! This binary only parses arguments and wires the library crates together; the games come
//! from the registry (`games`), and no game is named here.

mod archive;
mod cli;
mod convert;
mod output;
mod printer;
mod report;
mod show;
mod trials;
mod validate;
mod view;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use cli::{CapturesArg, Cli, ColorArg, Command, Format, GameChoice, PositionArgs, SquaresArg};
use game::{GameInfo, Options};
use referee::{Rewrite, Settings};

/// Exit code: records are clean.
const CLEAN: u8 = 0;
/// Exit code: problems were found in the records.
const PROBLEMS: u8 = 1;
/// Exit code: usage or I/O error.
const FAILURE: u8 = 2;

/// Why a command stopped: a message for the user (exit code 2), or a closed output pipe
/// (a quiet exit, as the part written was wanted).
enum Stop {
    Usage(String),
    ClosedPipe,
}

impl From<String> for Stop {
    fn from(message: String) -> Self {
        Stop::Usage(message)
    }
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Stop::ClosedPipe
        } else {
            Stop::Usage(e.to_string())
        }
    }
}

type Outcome = Result<u8, Stop>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => ExitCode::from(code),
        Err(Stop::ClosedPipe) => ExitCode::from(CLEAN),
        Err(Stop::Usage(message)) => {
            eprintln!("arbiter: {message}");
            ExitCode::from(FAILURE)
        }
    }
}

fn run(command: Command) -> Outcome {
    match command {
        Command::Validate {
            inputs,
            game,
            format,
            color,
            report,
            quiet,
            max_errors,
            severity,
            strict,
        } => {
            let print = validate::Print {
                format: (!quiet).then_some(format),
                color: use_color(color, format),
                max_errors,
                severity: severity.least(),
                strict,
                summary_on_stdout: format == Format::Human,
            };
            validate_cmd(&inputs.paths, &game, print, report.as_deref())
        }
        Command::Stats {
            inputs,
            output,
            game,
        } => stats_cmd(&inputs.paths, &game, &output),
        Command::Convert {
            inputs,
            output,
            to,
            squares,
            captures,
            game,
            archive: edits,
        } => convert_cmd(
            &inputs,
            output.as_deref(),
            to,
            squares,
            captures,
            &game,
            &edits,
        ),
        Command::Select {
            inputs,
            filters,
            game,
        } => Ok(archive::select_cmd(
            &inputs.paths,
            *filters,
            settings(&game)?,
        )?),
        Command::Split {
            inputs,
            games,
            by,
            output,
        } => Ok(archive::split_cmd(&inputs.paths, games, by, &output)?),
        Command::Moves {
            position,
            throws,
            squares,
        } => moves_cmd(&position, throws.as_deref(), squares),
        Command::Perft { position, depth } => perft_cmd(&position, depth),
        Command::Show {
            file,
            index,
            ply,
            game,
            output,
        } => show_cmd(file, index, ply, &game, output),
        Command::Selfplay {
            game,
            games,
            seed,
            players,
            agent,
            max_plies,
            depth,
            event,
            output,
        } => {
            let mut config = selfplay::Config::new(selfplay_game(game)?);
            config.games = games;
            config.seed = seed;
            config.players = players;
            config.agent = agent.map(|a| match a {
                cli::AgentArg::Random => selfplay::Agent::Random,
                cli::AgentArg::Greedy => selfplay::Agent::Greedy,
                cli::AgentArg::Search => selfplay::Agent::Search,
            });
            config.max_plies = max_plies;
            config.search_depth = depth;
            if let Some(event) = event {
                config.event = event;
            }
            selfplay_cmd(&config, output.as_deref())
        }
        Command::Export {
            inputs,
            to: cli::TableFormat::Parquet,
            output,
            positions,
            partition_by,
            game,
        } => export_cmd(&inputs.paths, &game, &output, positions, &partition_by),
        Command::View {
            inputs,
            output,
            game,
        } => {
            let settings = settings(&game)?;
            Ok(view::view_cmd(&inputs.paths, &settings, &output)?)
        }
        Command::Games { format } => games_cmd(format),
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            clap_complete::generate(shell, &mut cmd, "arbiter", &mut io::stdout().lock());
            Ok(CLEAN)
        }
        Command::Man { output } => man_cmd(&output),
    }
}

/// Colour for human output: `auto` means a terminal and no `NO_COLOR` in the environment.
fn use_color(color: ColorArg, format: Format) -> bool {
    match color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            format == Format::Human
                && io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// Replay settings for the records, with `--game` and `--rules` checked first: an unknown
/// ruleset option is a usage error that lists the valid ones.
fn settings(choice: &GameChoice) -> Result<Settings, String> {
    if let Some(rules) = &choice.rules {
        games::games()
            .registry()
            .check_rules(choice.game.or(choice.default_game), rules)?;
    }
    Ok(Settings {
        game: choice.game,
        default_game: choice.default_game,
        rules: choice.rules.clone(),
        ..Settings::default()
    })
}

fn validate_cmd(
    paths: &[PathBuf],
    game: &GameChoice,
    print: validate::Print,
    report_dir: Option<&Path>,
) -> Outcome {
    let mut settings = settings(game)?;
    settings.collect_facts = report_dir.is_some();
    settings.snapshots = report_dir.is_some();
    settings.keep_tags = report_dir.is_some();
    corpus_run(paths, &settings, print, report_dir)
}

fn stats_cmd(paths: &[PathBuf], game: &GameChoice, output: &Path) -> Outcome {
    let mut settings = settings(game)?;
    settings.collect_facts = true;
    settings.snapshots = true;
    settings.keep_tags = true;
    let print = validate::Print {
        format: None,
        color: false,
        max_errors: None,
        severity: referee::Severity::Note,
        strict: false,
        summary_on_stdout: false,
    };
    corpus_run(paths, &settings, print, Some(output))
}

/// Validates a corpus, optionally writing the statistics report; returns the exit code.
fn corpus_run(
    paths: &[PathBuf],
    settings: &Settings,
    print: validate::Print,
    report_dir: Option<&Path>,
) -> Outcome {
    let (inputs, missing) = ::archive::collect(paths, ::archive::Dash::Stdin);
    let json = print.format == Some(Format::Json);
    for (path, e) in &missing {
        validate::unreadable(json, &path.display().to_string(), e)?;
    }
    let job = validate::Job {
        settings,
        print,
        stats: report_dir.is_some(),
        viewer: report_dir.map(|_| view::Scope::Problems),
    };
    let (mut tally, stats, extras) = validate::run(&inputs, &job, true)?;
    tally.io_errors += missing.len() as u64;
    let line = validate::summary(&tally);
    if print.summary_on_stdout {
        writeln!(io::stdout().lock(), "{line}")?;
    } else {
        eprintln!("{line}");
    }
    if let Some(dir) = report_dir {
        let files = stats
            .write_report_with(dir, &extras)
            .map_err(|e| format!("{}: cannot write the report: {e}", dir.display()))?;
        eprintln!(
            "report written to {} ({} charts, numbers in {})",
            files.html.display(),
            files.charts.len(),
            files.json.display()
        );
    }
    Ok(if tally.io_errors > 0 {
        FAILURE
    } else if tally.errors > 0 {
        PROBLEMS
    } else {
        CLEAN
    })
}

fn convert_cmd(
    paths: &[PathBuf],
    output: Option<&Path>,
    to: cli::Target,
    squares: Option<SquaresArg>,
    captures: Option<CapturesArg>,
    game: &GameChoice,
    edits: &archive::ConvertEdits,
) -> Outcome {
    let rewrite = (squares.is_some() || captures.is_some()).then(|| Rewrite {
        numeric: squares.map(|s| s == SquaresArg::Numeric),
        full_captures: captures.map(|c| c == CapturesArg::Full),
    });
    let mut settings = settings(game)?;
    if let (Some(SquaresArg::Numeric), Some(info)) = (squares, game.game) {
        if !info.numeric_squares {
            return Err(format!("{} squares have no numeric form", info.label).into());
        }
    }
    settings.rewrite = rewrite;
    let edits = edits.check(to)?;
    settings.details = edits.positions;
    settings.positions = edits.positions;
    let (inputs, missing) = ::archive::collect(paths, ::archive::Dash::Stdin);
    if let Some((path, e)) = missing.first() {
        return Err(format!("{}: cannot read: {e}", path.display()).into());
    }
    if to == cli::Target::Trl {
        let total = trials::convert_all(&inputs, output, &settings, &edits, &mut io::stderr())?;
        eprintln!("{}", total.summary(rewrite.is_some()));
        return Ok(if total.problems > 0 { PROBLEMS } else { CLEAN });
    }
    let mut out = pdn::Writer::new(output::Output::create(output)?);
    let mut total = convert::ConvertTally::default();
    for source in &inputs {
        let tally = convert::convert(source, to, &settings, &edits, &mut out, &mut io::stderr())
            .map_err(|e| match e.kind() {
                io::ErrorKind::BrokenPipe => Stop::ClosedPipe,
                _ => Stop::Usage(format!("{}: {e}", source.name())),
            })?;
        total.add(&tally);
    }
    out.finish()?.commit()?;
    eprintln!("{}", total.summary(rewrite.is_some()));
    Ok(if total.problems > 0 { PROBLEMS } else { CLEAN })
}

/// The rules of `--game` under `--rules`, for looking at positions.
fn explorer(position: &PositionArgs) -> Result<Box<dyn games::Explorer>, String> {
    let options = match &position.rules {
        Some(r) => position.game.parse_options(r).map_err(|e| e.to_string())?,
        None => Options::default(),
    };
    games::games()
        .explorer(position.game, &options)
        .ok_or_else(|| format!("{} cannot be explored", position.game.label))
}

fn moves_cmd(
    position: &PositionArgs,
    throws: Option<&str>,
    squares: Option<SquaresArg>,
) -> Outcome {
    let explorer = explorer(position)?;
    let chance = match (explorer.needs_chance(), throws) {
        (true, Some(t)) => parse_throws(t)?,
        (true, None) => {
            return Err(format!(
                "{} moves depend on the throws: give them with --throws, e.g. --throws \"1 4 2\"",
                position.game.label
            )
            .into())
        }
        (false, Some(_)) => {
            return Err(format!(
                "--throws is for games of chance; {} has none",
                position.game.label
            )
            .into())
        }
        (false, None) => Vec::new(),
    };
    let numeric = squares.map(|s| s == SquaresArg::Numeric);
    if numeric == Some(true) && !position.game.numeric_squares {
        return Err(format!("{} squares have no numeric form", position.game.label).into());
    }
    let moves = explorer.moves(position.fen.as_deref(), &chance, numeric)?;
    let mut out = io::stdout().lock();
    for m in &moves {
        match position.format {
            Format::Human => writeln!(out, "{}", m.notation)?,
            Format::Json => writeln!(out, "{}", move_json(m))?,
        }
    }
    Ok(CLEAN)
}

fn move_json(m: &game::MoveInfo) -> serde_json::Value {
    serde_json::json!({
        "move": m.notation,
        "from": m.from,
        "to": m.to,
        "path": m.path,
        "captured": m.captured,
    })
}

/// Reads `"1 4 2"` (spaces or commas) into throw values.
fn parse_throws(text: &str) -> Result<Vec<u8>, String> {
    text.split([' ', ',', '\t'])
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u8>()
                .map_err(|_| format!("`{s}` is not a throw (a whole number, such as 1 or 4)"))
        })
        .collect()
}

fn perft_cmd(position: &PositionArgs, depth: u32) -> Outcome {
    let counts = explorer(position)?.perft(position.fen.as_deref(), depth)?;
    let mut out = io::stdout().lock();
    for (d, nodes) in (1..).zip(counts) {
        match position.format {
            Format::Human => writeln!(out, "{d} {nodes}")?,
            Format::Json => writeln!(out, "{}", serde_json::json!({"depth": d, "nodes": nodes}))?,
        }
    }
    Ok(CLEAN)
}

fn show_cmd(
    file: PathBuf,
    index: u64,
    ply: Option<u32>,
    game: &GameChoice,
    output: PathBuf,
) -> Outcome {
    let settings = settings(game)?;
    let request = show::Request {
        input: if file.as_os_str() == "-" {
            ::archive::Source::Stdin
        } else {
            ::archive::Source::File(file)
        },
        index,
        ply,
        game: settings.game,
        default_game: settings.default_game,
        rules: settings.rules,
        output,
    };
    let shown = show::show(&request)?;
    for note in &shown.notes {
        eprintln!("arbiter: {note}");
    }
    let place = if output::is_stdout(&request.output) {
        "standard output".to_string()
    } else {
        request.output.display().to_string()
    };
    eprintln!("wrote {place}: {}", shown.title);
    Ok(CLEAN)
}

/// The registry's self-play of `game`.
fn selfplay_game(game: &'static GameInfo) -> Result<&'static dyn selfplay::Player, String> {
    games::games()
        .entry(game)
        .map(games::Entry::player)
        .ok_or_else(|| format!("{} is not in the registry", game.label))
}

fn selfplay_cmd(config: &selfplay::Config, output: Option<&Path>) -> Outcome {
    config.check()?;
    let mut out = output::Output::create(output)?;
    let summary = selfplay::generate(config, &mut out)?;
    out.commit()?;
    eprintln!(
        "wrote {} games ({} plies, {} ended by rule)",
        summary.games, summary.plies, summary.ended_by_rule
    );
    Ok(CLEAN)
}

/// Where `export` writes: one folder of three files, or partition folders.
enum TableSink {
    Plain(Box<export::ParquetSink>),
    Partitioned(export::PartitionedSink),
}

fn export_cmd(
    paths: &[PathBuf],
    game: &GameChoice,
    dir: &Path,
    positions: bool,
    partition_by: &[String],
) -> Outcome {
    let mut settings = settings(game)?;
    settings.positions = positions;
    let options = export::SinkOptions {
        positions,
        ..export::SinkOptions::default()
    };
    let mut by = Vec::new();
    for name in partition_by {
        let column = export::PartitionColumn::parse(name)
            .ok_or_else(|| format!("--partition-by: `{name}` is not variant or year"))?;
        if by.contains(&column) {
            return Err(format!("--partition-by: `{name}` is given twice").into());
        }
        by.push(column);
    }
    let (inputs, missing) = ::archive::collect(paths, ::archive::Dash::Stdin);
    for (path, e) in &missing {
        eprintln!("arbiter: {}: cannot read: {e}", path.display());
    }
    let mut sink = match by.is_empty() {
        true => {
            export::ParquetSink::with_options(dir, options).map(|s| TableSink::Plain(Box::new(s)))
        }
        false => export::PartitionedSink::create(dir, by, options).map(TableSink::Partitioned),
    }
    .map_err(|e| e.to_string())?;
    let mut unreadable = missing.len();
    for source in &inputs {
        let name = source.name();
        let opened = source.open_records(games::games());
        let Ok((reader, _)) = opened else {
            if let Err(e) = opened {
                eprintln!("arbiter: {name}: cannot read: {e}");
            }
            unreadable += 1;
            continue;
        };
        let written = match &mut sink {
            TableSink::Plain(sink) => export::export_chunked(
                sink,
                games::games(),
                &name,
                reader,
                &settings,
                EXPORT_CHUNK_BYTES,
                EXPORT_IN_FLIGHT,
            )
            .map(|_| ()),
            TableSink::Partitioned(sink) => export::export_partitioned(
                sink,
                games::games(),
                &name,
                reader,
                &settings,
                EXPORT_CHUNK_BYTES,
                EXPORT_IN_FLIGHT,
            ),
        };
        written.map_err(|e| e.to_string())?;
    }
    let counts = match sink {
        TableSink::Plain(sink) => sink.finish(),
        TableSink::Partitioned(sink) => sink.finish(),
    }
    .map_err(|e| e.to_string())?;
    eprintln!(
        "wrote {} games, {} plies and {} diagnostics to {}",
        counts.games,
        counts.plies,
        counts.diagnostics,
        dir.display()
    );
    Ok(if unreadable > 0 { FAILURE } else { CLEAN })
}

/// Bytes per chunk of a large input read by `export`: one row group of plies each (about
/// 400,000 rows for draughts).
const EXPORT_CHUNK_BYTES: usize = 4 << 20;

/// Chunks of `export` checked or waiting to be written at a time: enough to keep every core
/// busy while the sink writes, few enough to keep memory small (a finished chunk holds its
/// plies compressed).
const EXPORT_IN_FLIGHT: usize = 3;

fn games_cmd(format: Format) -> Outcome {
    let mut out = io::stdout().lock();
    for g in games::games().registry().games() {
        let options: Vec<&str> = g.options.iter().map(|o| o.name).collect();
        match format {
            Format::Human => {
                let types: Vec<String> = g.game_types.iter().map(u32::to_string).collect();
                writeln!(out, "{:<14} {}", g.id, g.label)?;
                if !g.aliases.is_empty() {
                    writeln!(out, "{:<14} Variant tags: {}", "", g.aliases.join(", "))?;
                }
                if !types.is_empty() {
                    writeln!(out, "{:<14} GameType: {}", "", types.join(", "))?;
                }
                for o in g.options {
                    writeln!(out, "{:<14} --rules {}: {}", "", o.name, o.help)?;
                }
                for c in g.claims {
                    writeln!(
                        out,
                        "{:<14} untagged records of {}: {}",
                        "",
                        g.describe_claim(c),
                        c.reason
                    )?;
                }
            }
            Format::Json => writeln!(
                out,
                "{}",
                serde_json::json!({
                    "id": g.id,
                    "label": g.label,
                    "variant_tag": g.variant_tag,
                    "aliases": g.aliases,
                    "game_types": g.game_types,
                    "options": options,
                    "seats": g.seat_names,
                    "claims": g.claims.iter().map(|c| g.describe_claim(c)).collect::<Vec<_>>(),
                })
            )?,
        }
    }
    Ok(CLEAN)
}

fn man_cmd(dir: &Path) -> Outcome {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let cmd = Cli::command();
    let write = |name: &str, cmd: clap::Command| -> Result<(), String> {
        let path = dir.join(format!("{name}.1"));
        let mut buf = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut buf)
            .map_err(|e| e.to_string())?;
        std::fs::write(&path, buf).map_err(|e| format!("{}: {e}", path.display()))
    };
    write("arbiter", cmd.clone())?;
    let mut pages = 1;
    for sub in cmd.get_subcommands() {
        let name: &'static str = Box::leak(format!("arbiter-{}", sub.get_name()).into_boxed_str());
        write(name, sub.clone().name(name))?;
        pages += 1;
    }
    eprintln!("wrote {pages} manual pages to {}", dir.display());
    Ok(CLEAN)
}
