//! The main pipeline: read every game, replay it, report what is wrong, and (for reports)
//! accumulate statistics. Used by `arbiter validate` and `arbiter stats`.

use std::io::{self, IsTerminal, Write};

use codespan_reporting::term::termcolor::Buffer;
use rayon::prelude::*;
use referee::{Diagnostic, GameReport, Referee, Settings, Severity};
use stats::{ArrowStyle, Diagram, GameInput, GameName, ProblemExample, ReportExtras, Stats};

use crate::input::Input;
use crate::report::{self, Format};

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
    /// Inputs that could not be read.
    pub io_errors: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.files += other.files;
        self.games += other.games;
        self.replayed += other.replayed;
        self.unchecked += other.unchecked;
        self.games_with_warnings += other.games_with_warnings;
        self.plies += other.plies;
        self.games_with_errors += other.games_with_errors;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.io_errors += other.io_errors;
    }
}

/// How diagnostics are printed.
#[derive(Debug, Clone, Copy)]
pub struct Print {
    /// Print every diagnostic in this format (`None`: print nothing per diagnostic).
    pub format: Option<Format>,
    /// Colour human output.
    pub color: bool,
    /// Print at most this many diagnostics (all are counted).
    pub max_errors: Option<u64>,
    /// A game that cannot be identified is an error, not a warning.
    pub strict: bool,
    /// The closing summary goes to standard output (else to standard error).
    pub summary_on_stdout: bool,
}

/// What a run produces besides the tally.
pub struct Job<'a> {
    /// Replay settings.
    pub settings: &'a Settings,
    /// What is printed.
    pub print: Print,
    /// Accumulate statistics.
    pub stats: bool,
}

/// Reports an input that cannot be read: a JSON object with `--format json`, else a line on
/// standard error.
pub fn unreadable(json: bool, name: &str, e: &io::Error) -> io::Result<()> {
    if json {
        let line = serde_json::json!({
            "file": name,
            "severity": "error",
            "code": "unreadable",
            "message": format!("cannot read: {e}"),
        });
        writeln!(io::stdout().lock(), "{line}")
    } else {
        eprintln!("arbiter: {name}: cannot read: {e}");
        Ok(())
    }
}

/// The result of one input.
pub struct Outcome {
    /// Counts.
    pub tally: Tally,
    /// Printed diagnostics.
    pub output: Buffer,
    /// Where each printed diagnostic ends in `output`, so a run can stop after N.
    pub ends: Vec<usize>,
    /// The input could not be read (from its start, or part way): the error.
    pub failure: Option<io::Error>,
    /// Statistics, when asked for.
    pub stats: Stats,
    /// Problem examples with their diagrams (with [`Settings::snapshots`]).
    pub extras: ReportExtras,
}

/// Processes one input.
pub fn process(input: &Input, job: &Job<'_>) -> Outcome {
    let name = input.name();
    let mut ends = Vec::new();
    let mut out = if job.print.color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let mut stats = Stats::default();
    let mut extras = ReportExtras::new();
    let mut tally = Tally {
        files: 1,
        ..Tally::default()
    };
    let mut referee = Referee::new(games::games(), job.settings.clone());
    let result = (|| -> io::Result<()> {
        let mut reader = pdn::Reader::new(input.open()?);
        while let Some(mut game) = reader.read_game(&mut referee)? {
            tally.games += 1;
            tally.plies += u64::from(game.plies_written);
            if game.game.is_some() {
                tally.replayed += 1;
            } else if game.diagnostics.iter().any(|d| d.code == "unknown-game") {
                tally.unchecked += 1;
                if job.print.strict {
                    for d in game
                        .diagnostics
                        .iter_mut()
                        .filter(|d| d.code == "unknown-game")
                    {
                        d.severity = Severity::Error;
                    }
                }
            }
            if !game.is_clean() {
                tally.games_with_errors += 1;
            } else if !game.diagnostics.is_empty() {
                tally.games_with_warnings += 1;
            }
            for d in &game.diagnostics {
                match d.severity {
                    Severity::Error => tally.errors += 1,
                    Severity::Warning => tally.warnings += 1,
                }
            }
            if job.stats {
                add_to_stats(&mut stats, &game);
            }
            for d in game.diagnostics.iter().filter(|d| d.snapshot.is_some()) {
                if !extras.accepts(d.code) {
                    extras.skip_example();
                } else if let Some(example) = example(&name, tally.games, d) {
                    extras.add_example(example);
                }
            }
            if let Some(format) = job.print.format {
                if !game.diagnostics.is_empty() {
                    let source = reader.source();
                    for d in &game.diagnostics {
                        let place = report::place(&source, d.span);
                        report::write(&mut out, format, &name, tally.games, d, &place)?;
                        ends.push(out.as_slice().len());
                    }
                }
            }
        }
        Ok(())
    })();
    let failure = result.err();
    if failure.is_some() {
        tally.io_errors += 1;
    }
    Outcome {
        tally,
        output: out,
        ends,
        failure,
        stats,
        extras,
    }
}

/// The report's example of a diagnostic that carries a snapshot of its position: the board
/// before the faulty ply, the move as written (solid blue) and what the rules accept instead
/// (dashed green), with a caption that says so.
pub fn example(file: &str, game: u64, d: &Diagnostic) -> Option<ProblemExample> {
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
    if snap.played.iter().any(|p| p.len() > 1) {
        legend.push("Solid blue: the move as written.".to_string());
    }
    if snap.suggested.iter().any(|p| p.len() > 1) {
        legend.push(
            match d.code {
                "non-maximal-capture" | "missed-capture" => {
                    "Dashed green: a capture that takes as many pieces as the rules demand."
                }
                "unused-throw" => "Dashed green: a play that uses more of the throws.",
                _ => "Dashed green: what the rules accept instead.",
            }
            .to_string(),
        );
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
        .map(|d| (d.code, d.severity == Severity::Error))
        .collect();
    stats.add(&GameInput {
        // Until stats takes the registry's GameInfo (TEMPORARY).
        game: match game.game.map(|g| g.id) {
            Some("tama") => GameName::Tama,
            Some("odnocvetnie") => GameName::Odnocvetnie,
            Some("thaayam") => GameName::Thaayam,
            _ => GameName::Other,
        },
        seats: &game.seats,
        recorded: game.recorded,
        terminal: game.terminal,
        plies: game.plies_written,
        facts: &game.facts,
        opening: &game.opening,
        diagnostics: &diagnostics,
    });
}

/// Runs the job over every input, in parallel across inputs; output (and the problem
/// examples) come in input order.
pub fn run(
    inputs: &[Input],
    job: &Job<'_>,
    progress: bool,
) -> io::Result<(Tally, Stats, ReportExtras)> {
    let json = job.print.format == Some(Format::Json);
    let mut budget = job.print.max_errors.unwrap_or(u64::MAX);
    let stdout = io::stdout();
    let mut total = Tally::default();
    let mut stats = Stats::default();
    let mut extras = ReportExtras::new();
    let bar = (progress && io::stderr().is_terminal() && inputs.len() > 1).then(|| {
        let bar = indicatif::ProgressBar::new(inputs.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {pos}/{len} files [{elapsed_precise}] {wide_bar} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    // Work in chunks so output appears as it is ready and memory stays bounded.
    for chunk in inputs.chunks(64) {
        let results: Vec<Outcome> = chunk
            .par_iter()
            .map(|input| {
                let outcome = process(input, job);
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                outcome
            })
            .collect();
        for (input, outcome) in chunk.iter().zip(results) {
            total.add(&outcome.tally);
            stats.merge(outcome.stats);
            extras.merge(outcome.extras);
            let shown = outcome
                .ends
                .len()
                .min(budget.try_into().unwrap_or(usize::MAX));
            budget -= shown as u64;
            let end = shown.checked_sub(1).map_or(0, |i| outcome.ends[i]);
            stdout.lock().write_all(&outcome.output.as_slice()[..end])?;
            if let Some(e) = &outcome.failure {
                unreadable(json, &input.name(), e)?;
            }
        }
        if let Some(bar) = &bar {
            bar.set_message(format!("{} games", total.games));
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok((total, stats, extras))
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
    use stats::Mark;

    const TAMA: &str = "[Variant \"Tama\"]\n[FEN \"W:Wc3,e2:Bc4,d5,d3,f5\"]\n\n1. c3xe3 *\n\n\
                        [Variant \"Tama\"]\n\n1. c3-c4 *\n";
    const OTHERS: &str = "[Variant \"Odnocvetnie\"]\n[FEN \"W:M28,33:L28\"]\n\n1. 28-23 *\n\n\
                          [Variant \"Thaayam\"]\n[FEN \"S:S=c1,h3/N=h4\"]\n\n1. S [4 2] c1+4 *\n";

    fn corpus(tag: &str) -> (PathBuf, Vec<Input>) {
        let dir = std::env::temp_dir().join(format!(
            "arbiter-validate-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.pdn"), dir.join("b.pdn"));
        std::fs::write(&a, TAMA).unwrap();
        std::fs::write(&b, OTHERS).unwrap();
        (dir, vec![Input::File(a), Input::File(b)])
    }

    use std::path::PathBuf;

    const QUIET: Print = Print {
        format: None,
        color: false,
        max_errors: None,
        strict: false,
        summary_on_stdout: false,
    };

    #[test]
    fn report_examples_come_with_diagrams_in_input_order() {
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
        };
        let (tally, stats, extras) = run(&inputs, &job, false).unwrap();
        assert_eq!((tally.games, tally.errors), (4, 3));
        assert_eq!(stats.games(), 4);
        let ex = extras.examples();
        let codes: Vec<&str> = ex.iter().map(|e| e.code.as_str()).collect();
        assert_eq!(
            codes,
            ["non-maximal-capture", "locked-piece", "unused-throw"]
        );
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
        stats.write_report_with(&out, &extras).unwrap();
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
        };
        let (tally, _, extras) = run(&inputs, &job, false).unwrap();
        assert_eq!(tally.errors, 3);
        assert!(extras.examples().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
