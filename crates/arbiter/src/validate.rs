//! The main pipeline: read every game, replay it, report what is wrong, and (for reports)
//! accumulate statistics. Used by `arbiter validate` and `arbiter stats`.

use std::io::{self, IsTerminal, Write};

use ::report::{ArrowStyle, Diagram, ProblemExample, ReportExtras};
use referee::{Diagnostic, GameReport, Referee, Settings, Severity};
use stats::{GameInput, Stats, Tags};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::printer::{Print, Printer};

use crate::report::{self, Format};
use crate::view;
use ::archive::{Source, Trial};

/// Counts over one or more inputs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Inputs read.
    pub files: u64,
    /// Games read.
    pub games: u64,
    /// Games whose game was recognised and replayed.
    pub replayed: u64,
    /// Games whose game could not be identified, so their moves were not checked.
    pub unchecked: u64,
    /// Games whose game was found from their moves (no tag named it).
    pub inferred: u64,
    /// Games with warnings but no error.
    pub games_with_warnings: u64,
    /// Plies written in the main lines.
    pub plies: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Errors found.
    pub errors: u64,
    /// Warnings found.
    pub warnings: u64,
    /// Notes given.
    pub notes: u64,
    /// Inputs that could not be read.
    pub io_errors: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.files += other.files;
        self.games += other.games;
        self.replayed += other.replayed;
        self.unchecked += other.unchecked;
        self.inferred += other.inferred;
        self.games_with_warnings += other.games_with_warnings;
        self.plies += other.plies;
        self.games_with_errors += other.games_with_errors;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.notes += other.notes;
        self.io_errors += other.io_errors;
    }
}

/// What a run produces besides the tally.
pub struct Job<'a> {
    /// Replay settings.
    pub settings: &'a Settings,
    /// What is printed.
    pub print: Print,
    /// Accumulate statistics.
    pub stats: bool,
    /// Hand these games to the viewer (see [`crate::view`]).
    pub viewer: Option<view::Scope>,
}

/// Reports an input that cannot be read: a JSON object with `--format json`, else a line on
/// standard error.
pub fn unreadable(json: bool, name: &str, e: &dyn std::fmt::Display) -> io::Result<()> {
    if json {
        let line = serde_json::json!({
            "file": name,
            "severity": "error",
            "code": "unreadable",
            "message": format!("cannot read: {e}"),
        });
        // A closed standard output does not stop the run (its exit code tells the verdict).
        match writeln!(io::stdout().lock(), "{line}") {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    } else {
        let e = e.to_string();
        let (name, e) = (crate::report::escape(name), crate::report::escape(&e));
        eprintln!("arbiter: {name}: cannot read: {e}");
        Ok(())
    }
}

/// Bytes per piece of work: large files are cut into chunks of about this size at game
/// boundaries, so one large file keeps both cores busy.
const CHUNK_BYTES: usize = 4 << 20;

/// Pieces of work under way at once.
const IN_FLIGHT: usize = 8;

/// Input bytes of small files' chunks checked as one piece of work: a folder of small files
/// costs a hand-over between threads for every file otherwise, and the pool's threads idle
/// in those hand-overs.
const BATCH_BYTES: usize = 1 << 20;

/// One piece of work: a chunk of one input, or the reason an input cannot be read.
enum Piece {
    Chunk {
        file: usize,
        chunk: pdn::chunk::Chunk,
        trial: Option<Arc<Trial>>,
    },
    Failed {
        file: usize,
        error: String,
        kind: io::ErrorKind,
    },
}

impl Piece {
    /// The input bytes the piece holds.
    fn len(&self) -> usize {
        match self {
            Piece::Chunk { chunk, .. } => chunk.bytes.len(),
            Piece::Failed { .. } => 0,
        }
    }
}

/// A diagnostic to print, with its place, and the game it belongs to (counted from 1 in its
/// chunk; the run renumbers games within the file).
struct Found {
    game: u64,
    label: &'static str,
    diagnostic: Diagnostic,
    place: report::Place,
}

/// What checking one piece gives.
struct Checked {
    file: usize,
    tally: Tally,
    stats: Stats,
    /// Diagnostics to print (with a print format) and those that carry a snapshot (with
    /// `snapshots`), in file order.
    found: Vec<Found>,
    /// Games for the viewer, each with its number in the chunk.
    viewed: Vec<(u64, ::report::EncodedGame)>,
    failure: Option<io::Error>,
}

/// The referees a batch's chunks are checked with: one for the run's settings and, for a
/// report's viewer, one that keeps boards.
struct Referees<'a> {
    first: Referee<'a>,
    second: Option<Referee<'a>>,
}

impl Referees<'_> {
    fn new(job: &Job<'_>) -> Self {
        Referees {
            first: Referee::new(games::games(), job.settings.clone()),
            // A report's replay keeps no boards: games with problems are replayed again for them.
            second: (job.viewer.is_some() && !job.settings.boards)
                .then(|| Referee::new(games::games(), view::settings(job.settings))),
        }
    }
}

/// Checks a batch of pieces in order with one pair of referees.
fn check_batch(batch: &[Piece], job: &Job<'_>, moves_wanted: &AtomicBool) -> Vec<Checked> {
    let mut referees = Referees::new(job);
    batch
        .iter()
        .map(|piece| check(piece, &mut referees, job, moves_wanted))
        .collect()
}

/// Checks the games of one chunk; games for the viewer are encoded with their moves while
/// `moves_wanted` holds.
fn check(
    piece: &Piece,
    referees: &mut Referees<'_>,
    job: &Job<'_>,
    moves_wanted: &AtomicBool,
) -> Checked {
    let (file, chunk, trial) = match piece {
        Piece::Chunk { file, chunk, trial } => (*file, chunk, trial),
        Piece::Failed { file, error, kind } => {
            return Checked {
                file: *file,
                tally: Tally {
                    io_errors: 1,
                    ..Tally::default()
                },
                stats: Stats::default(),
                found: Vec::new(),
                viewed: Vec::new(),
                failure: Some(io::Error::new(*kind, error.clone())),
            }
        }
    };
    let mut tally = Tally::default();
    let mut stats = Stats::default();
    let mut found = Vec::new();
    let mut viewed = Vec::new();
    let Referees {
        first: referee,
        second,
    } = referees;
    let mut reader = chunk.reader();
    // Reading from memory cannot fail.
    while let Ok(Some(mut game)) = reader.read_game(referee) {
        tally.games += 1;
        count(&mut tally, &mut game, job.print.strict);
        let wanted = match job.viewer {
            Some(view::Scope::All) => true,
            Some(view::Scope::Problems) => !game.diagnostics.is_empty(),
            None => false,
        };
        if wanted {
            let source = reader.source();
            let origin = view::Origin {
                source: &source,
                first_line: chunk.first_line,
                trial: trial.as_deref(),
            };
            let moves = moves_wanted.load(Ordering::Relaxed);
            // Without its moves, a game's boards only tell whether it has any to show, which
            // its movetext tells as well unless it has none.
            let boards = moves || !job.settings.keep_tags || !view::has_movetext(&source);
            let again = second
                .as_mut()
                .filter(|_| boards)
                .and_then(|r| view::replay(r, &source));
            let positions = again.as_ref().unwrap_or(&game);
            viewed.push((
                tally.games,
                view::encode(&origin, &game.diagnostics, positions, moves),
            ));
        }
        if job.stats {
            add_to_stats(&mut stats, &game);
            referee.recycle_facts(std::mem::take(&mut game.facts));
            referee.recycle_line(std::mem::take(&mut game.line));
        }
        let label = game.game.map_or("Unknown game", |g| g.label);
        let printing = job.print.format.is_some();
        let least = job.print.severity;
        let wanted = |d: &Diagnostic| d.snapshot.is_some() || (printing && d.severity >= least);
        if !game.diagnostics.iter().any(wanted) {
            continue;
        }
        let source = reader.source();
        let mut locator = report::Locator::new(&source);
        for d in game.diagnostics {
            if !wanted(&d) {
                continue;
            }
            let place = match trial {
                Some(t) => report::trial_place(t, d.span),
                None => {
                    let mut place = locator.place(d.span);
                    place.line += chunk.first_line - 1;
                    place
                }
            };
            found.push(Found {
                game: tally.games,
                label,
                diagnostic: d,
                place,
            });
        }
    }
    Checked {
        file,
        tally,
        stats,
        found,
        viewed,
        failure: None,
    }
}

/// Counts one game's outcome; with `strict`, a game found from its moves is an error.
fn count(tally: &mut Tally, game: &mut GameReport, strict: bool) {
    tally.plies += u64::from(game.plies_written);
    if game.game.is_some() {
        tally.replayed += 1;
    } else if game.diagnostics.iter().any(|d| d.code == "unknown-game") {
        tally.unchecked += 1;
    }
    for d in game.diagnostics.iter_mut() {
        if d.code == "game-inferred" {
            tally.inferred += 1;
            if strict {
                d.severity = Severity::Error;
            }
        }
    }
    if !game.is_clean() {
        tally.games_with_errors += 1;
    } else if game
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Warning)
    {
        tally.games_with_warnings += 1;
    }
    for d in &game.diagnostics {
        match d.severity {
            Severity::Error => tally.errors += 1,
            Severity::Warning => tally.warnings += 1,
            Severity::Note => tally.notes += 1,
        }
    }
}

/// The pieces of every input, in order: each input cut into chunks, or its read error.
fn pieces(inputs: &[Source]) -> impl Iterator<Item = Result<Piece, io::Error>> + '_ {
    inputs.iter().enumerate().flat_map(|(file, input)| {
        let failed = move |e: io::Error| Piece::Failed {
            file,
            error: e.to_string(),
            kind: e.kind(),
        };
        let chunks: Box<dyn Iterator<Item = Piece>> =
            match input.open_records(games::games()).map_err(io::Error::from) {
                Ok((reader, trial)) => {
                    let trial = trial.map(Arc::new);
                    let mut stopped = false;
                    Box::new(
                        pdn::chunk::Chunker::with_target(reader, CHUNK_BYTES).map_while(move |c| {
                            if stopped {
                                return None;
                            }
                            Some(match c {
                                Ok(chunk) => Piece::Chunk {
                                    file,
                                    chunk,
                                    trial: trial.clone(),
                                },
                                // A stretch refused for its length is skipped, the games
                                // after it read; an error of the input ends it.
                                Err(e) => {
                                    stopped = pdn::chunk::refused(&e).is_none();
                                    failed(e)
                                }
                            })
                        }),
                    )
                }
                Err(e) => Box::new(std::iter::once(failed(e))),
            };
        chunks.map(Ok)
    })
}

/// The report's example of a diagnostic that carries a snapshot of its position: the board
/// before the faulty ply, the move as written (solid blue) and what the rules accept instead
/// (dashed green), with a caption that says so.
pub fn example(file: &str, game: u64, label: &str, d: &Diagnostic) -> Option<ProblemExample> {
    let snap = d.snapshot.as_deref()?;
    let title = match (d.move_number, d.ply) {
        (Some(m), Some(p)) => format!("{file}, game {game}, move {m} (ply {p})"),
        (None, Some(p)) => format!("{file}, game {game}, ply {p}"),
        _ => format!("{file}, game {game}, end of the game"),
    };
    let mut diagram = Diagram::from_board(&snap.board, "");
    // The suggestion first, so the move as written is drawn over it where they share a way.
    diagram.add_paths(&snap.suggested, ArrowStyle::Suggested);
    diagram.add_paths(&snap.played, ArrowStyle::Played);
    let mut legend = Vec::new();
    let ambiguous = d.code.rules() == Some(game::Code::AmbiguousMove) && snap.played.len() > 1;
    if ambiguous {
        legend.push("Solid blue: each move the notation fits, through its squares.".to_string());
    } else if snap.played.iter().any(|p| p.len() > 1) {
        legend.push("Solid blue: the move as written.".to_string());
    }
    if snap.suggested.iter().any(|p| p.len() > 1) {
        let shows = d.code.rules().and_then(game::Code::suggested);
        legend.push(format!(
            "Dashed green: {}.",
            shows.unwrap_or("what the rules accept instead")
        ));
    }
    if snap
        .played
        .iter()
        .chain(&snap.suggested)
        .any(|p| p.len() == 1)
    {
        legend.push(
            "Yellow square: a piece entered there, or the unit a faulty action names.".to_string(),
        );
    }
    if !legend.is_empty() {
        diagram.captions.push(legend.join(" "));
    }
    Some(ProblemExample {
        game: label.to_string(),
        title,
        code: d.code.to_string(),
        message: d.message.clone(),
        diagram: Some(diagram),
    })
}

/// Feeds one game's report to the statistics.
pub fn add_to_stats(stats: &mut Stats, game: &GameReport) {
    let diagnostics: Vec<(&str, bool)> = game
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.severity == Severity::Error))
        .collect();
    let [event, date, white, black, result] =
        ["Event", "Date", "White", "Black", "Result"].map(|name| game.tag(name));
    stats.add(&GameInput {
        game: game.game,
        tags: Tags {
            event: event.as_deref(),
            date: date.as_deref(),
            white: white.as_deref(),
            black: black.as_deref(),
            result: result.as_deref(),
        },
        seats: &game.seats,
        recorded: game.recorded,
        terminal: game.terminal,
        plies: game.plies_written,
        facts: &game.facts,
        opening: &game.opening,
        line: stats::OpeningLine {
            start: game.line.start,
            plies: &game.line.plies,
            text: &game.line.text,
        },
        diagnostics: &diagnostics,
    });
}

/// Runs the job over every input: inputs are cut into chunks at game boundaries and checked
/// on every core, and output (and the problem examples) come in input order.
pub fn run(
    inputs: &[Source],
    job: &Job<'_>,
    progress: bool,
) -> io::Result<(Tally, Stats, ReportExtras)> {
    let json = job.print.format == Some(Format::Json);
    let mut printer = Printer::new(&job.print);
    let mut total = Tally::default();
    let mut stats = Stats::default();
    let mut extras = ReportExtras::new();
    let mut viewer = job.viewer.map(|scope| {
        ::report::Viewer::new(match scope {
            view::Scope::Problems => ::report::VIEWER_BUDGET,
            view::Scope::All => usize::MAX,
        })
    });
    let mut file_index = 0u32;
    let bar = (progress && io::stderr().is_terminal() && inputs.len() > 1)
        .then(|| files_bar(inputs.len()));
    // Cleared once the viewer keeps no more moves: the chunks checked after that (all later
    // in input order) encode their games without them.
    let moves_wanted = AtomicBool::new(true);
    // The file being written, and how many of its games came before the current chunk.
    let mut current: Option<usize> = None;
    let mut games_before = 0u64;
    pdn::chunk::map_ordered(
        pdn::chunk::batched(pieces(inputs), BATCH_BYTES, Piece::len),
        IN_FLIGHT,
        |batch| check_batch(batch, job, &moves_wanted),
        |batch: Vec<Checked>| -> io::Result<()> {
            for checked in batch {
                if current != Some(checked.file) {
                    if let (Some(printer), Some(previous)) = (printer.as_mut(), current) {
                        printer.end_file(&inputs[previous].name())?;
                    }
                    if current.is_some() {
                        if let Some(bar) = &bar {
                            bar.inc(1);
                            bar.set_message(format!("{} games", total.games));
                        }
                    }
                    current = Some(checked.file);
                    games_before = 0;
                    total.files += 1;
                    if let Some(v) = viewer.as_mut() {
                        file_index = v.add_file(&inputs[checked.file].name());
                    }
                }
                let name = inputs[checked.file].name();
                if let Some(v) = viewer.as_mut() {
                    add_to_viewer(v, file_index, games_before, &checked, &moves_wanted);
                }
                total.add(&checked.tally);
                stats.merge(checked.stats);
                for f in &checked.found {
                    let game = games_before + f.game;
                    if f.diagnostic.snapshot.is_some() {
                        let code = f.diagnostic.code.as_str();
                        if !extras.accepts(f.label, code) {
                            extras.skip_example(f.label, code);
                        } else if let Some(ex) = example(&name, game, f.label, &f.diagnostic) {
                            extras.add_example(ex);
                        }
                    }
                    if let Some(printer) = printer.as_mut() {
                        printer.diagnostic(&name, game, &f.diagnostic, &f.place)?;
                    }
                }
                games_before += checked.tally.games;
                if let Some(e) = &checked.failure {
                    unreadable(json, &name, e)?;
                }
            }
            Ok(())
        },
    )?;
    if let (Some(printer), Some(last)) = (printer.as_mut(), current) {
        printer.end_file(&inputs[last].name())?;
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(v) = viewer {
        extras.set_viewer(v);
    }
    Ok((total, stats, extras))
}

/// A progress bar over the input files.
fn files_bar(files: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(files as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {pos}/{len} files [{elapsed_precise}] {wide_bar} {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Hands a chunk's games to the viewer (file `file`, after `games_before` of its games) and
/// counts them in the file's row; clears `moves_wanted` once the viewer keeps no more moves.
fn add_to_viewer(
    v: &mut ::report::Viewer,
    file: u32,
    games_before: u64,
    checked: &Checked,
    moves_wanted: &AtomicBool,
) {
    for (n, game) in &checked.viewed {
        v.add(file, games_before + n, game);
    }
    if !v.wants_moves() {
        moves_wanted.store(false, Ordering::Relaxed);
    }
    if let Some(row) = v.file_row(file) {
        let t = &checked.tally;
        row.games += t.games;
        row.games_with_errors += t.games_with_errors;
        row.errors += t.errors;
        row.warnings += t.warnings;
    }
}

/// The closing line of a run.
pub fn summary(t: &Tally) -> String {
    let mut s = format!(
        "checked {} file{}, {} game{} ({} plies; {} game{} replayed against the rules",
        t.files,
        plural(t.files),
        t.games,
        plural(t.games),
        t.plies,
        t.replayed,
        plural(t.replayed)
    );
    if t.inferred > 0 {
        s.push_str(&format!(
            ", {} of them identified from their moves",
            t.inferred
        ));
    }
    if t.unchecked > 0 {
        s.push_str(&format!(", {} not checked: game unknown", t.unchecked));
    }
    s.push_str("): ");
    if t.errors == 0 && t.warnings == 0 && t.io_errors == 0 {
        s.push_str("no problems found");
    } else {
        s.push_str(&format!(
            "{} error{} in {} game{}, {} warning{} ({} game{} with warnings only)",
            t.errors,
            plural(t.errors),
            t.games_with_errors,
            plural(t.games_with_errors),
            t.warnings,
            plural(t.warnings),
            t.games_with_warnings,
            plural(t.games_with_warnings)
        ));
        if t.io_errors > 0 {
            s.push_str(&format!(
                ", {} unreadable input{}",
                t.io_errors,
                plural(t.io_errors)
            ));
        }
    }
    s
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::report::Mark;

    const TAMA: &str = "[Variant \"Tama\"]\n[FEN \"W:Wc3,e2:Bc4,d5,d3,f5\"]\n\n1. c3xe3 *\n\n\
                        [Variant \"Tama\"]\n\n1. c3-c4 *\n";
    const OTHERS: &str = "[Variant \"Odnocvetnie\"]\n[FEN \"W:M28,33:L28\"]\n\n1. 28-23 *\n\n\
                          [Variant \"Thaayam\"]\n[FEN \"S:S=c1,h3/N=h4\"]\n\n1. S [4 2] c1+4 *\n";

    fn corpus(tag: &str) -> (PathBuf, Vec<Source>) {
        let dir = std::env::temp_dir().join(format!(
            "arbiter-validate-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.pdn"), dir.join("b.pdn"));
        std::fs::write(&a, TAMA).unwrap();
        std::fs::write(&b, OTHERS).unwrap();
        (dir, vec![Source::File(a), Source::File(b)])
    }

    use std::path::PathBuf;

    const QUIET: Print = Print {
        format: None,
        color: false,
        max_errors: None,
        severity: Severity::Note,
        strict: false,
        summary_on_stdout: false,
    };

    #[test]
    fn report_examples_come_with_diagrams() {
        let (dir, inputs) = corpus("examples");
        let settings = Settings {
            collect_facts: true,
            snapshots: true,
            ..Settings::default()
        };
        let job = Job {
            settings: &settings,
            print: QUIET,
            stats: true,
            viewer: None,
        };
        let (tally, stats, extras) = run(&inputs, &job, false).unwrap();
        assert_eq!((tally.games, tally.errors), (4, 3));
        assert_eq!(stats.games(), 4);
        // One example per code of each game, grouped by game.
        let all = extras.examples();
        let by = |code: &str| *all.iter().find(|e| e.code == code).unwrap();
        let mut found: Vec<(&str, &str)> = all
            .iter()
            .map(|e| (e.game.as_str(), e.code.as_str()))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                ("Odnocvetnie Shashki", "locked-piece"),
                ("Tama", "non-maximal-capture"),
                ("Thaayam", "unused-throw")
            ]
        );
        let ex = [
            by("non-maximal-capture"),
            by("locked-piece"),
            by("unused-throw"),
        ];
        assert!(
            ex[0].title.ends_with("a.pdn, game 1, move 1 (ply 1)"),
            "{}",
            ex[0].title
        );
        assert!(
            ex[1].title.ends_with("b.pdn, game 1, move 1 (ply 1)"),
            "{}",
            ex[1].title
        );
        assert!(
            ex[2].title.ends_with("b.pdn, game 2, move 1 (ply 1)"),
            "{}",
            ex[2].title
        );
        // Tama: the move as written and the maximal chain c3xc5xe5xg5.
        let d = ex[0].diagram.as_ref().unwrap();
        assert_eq!(d.pieces.len(), 6);
        let arrows: Vec<(ArrowStyle, &[(u8, u8)])> = d
            .arrows
            .iter()
            .map(|a| (a.style, a.squares.as_slice()))
            .collect();
        assert_eq!(
            arrows,
            [
                (ArrowStyle::Suggested, &[(2, 2), (2, 4), (4, 4), (6, 4)][..]),
                (ArrowStyle::Played, &[(2, 2), (4, 2)][..]),
            ]
        );
        assert!(d
            .captions
            .iter()
            .any(|c| c.contains("as many pieces as the rules demand")));
        // Odnocvetnie: the locked man is highlighted and explained.
        let d = ex[1].diagram.as_ref().unwrap();
        assert_eq!(d.marks, [(4, 4, Mark::Highlight)]);
        assert!(d.captions.iter().any(|c| c.contains("is locked")));
        assert_eq!(d.arrows.len(), 1);
        // Thaayam: the advance played and one using both throws.
        let d = ex[2].diagram.as_ref().unwrap();
        assert_eq!(d.arrows.len(), 2);
        assert!(d
            .captions
            .iter()
            .any(|c| c.contains("uses more of the throws")));
        // The report shows them.
        let out = dir.join("report");
        ::report::write_report(&stats, &out, &extras).unwrap();
        let html = std::fs::read_to_string(out.join("report.html")).unwrap();
        assert_eq!(html.matches("class=\"example\"").count(), 3);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn no_examples_without_snapshots() {
        let (dir, inputs) = corpus("plain");
        let settings = Settings::default();
        let job = Job {
            settings: &settings,
            print: QUIET,
            stats: false,
            viewer: None,
        };
        let (tally, _, extras) = run(&inputs, &job, false).unwrap();
        assert_eq!(tally.errors, 3);
        assert!(extras.examples().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
