//! The main pipeline: read every game, replay it, report what is wrong, and (for reports)
//! accumulate statistics. Used by `arbiter validate` and `arbiter stats`.

use std::io::{self, IsTerminal, Write};

use codespan_reporting::term::termcolor::Buffer;
use rayon::prelude::*;
use referee::{GameKind, GameReport, Referee, Settings, Severity};
use stats::{GameInput, GameName, Stats};

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
        self.plies += other.plies;
        self.games_with_errors += other.games_with_errors;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.io_errors += other.io_errors;
    }
}

/// What a run produces besides the tally.
pub struct Job<'a> {
    /// Replay settings.
    pub settings: &'a Settings,
    /// Print every diagnostic in this format (`None`: print nothing per diagnostic).
    pub format: Option<Format>,
    /// Accumulate statistics.
    pub stats: bool,
}

/// The result of one input.
pub struct Outcome {
    /// Counts.
    pub tally: Tally,
    /// Printed diagnostics.
    pub output: Buffer,
    /// Statistics, when asked for.
    pub stats: Stats,
}

/// Processes one input.
pub fn process(input: &Input, job: &Job<'_>, color: bool) -> Outcome {
    let name = input.name();
    let mut out = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let mut stats = Stats::default();
    let mut tally = Tally {
        files: 1,
        ..Tally::default()
    };
    let mut referee = Referee::new(job.settings.clone());
    let result = (|| -> io::Result<()> {
        let mut reader = pdn::Reader::new(input.open()?);
        while let Some(game) = reader.read_game(&mut referee)? {
            tally.games += 1;
            tally.plies += u64::from(game.plies_written);
            if game.kind.is_some() {
                tally.replayed += 1;
            }
            if !game.is_clean() {
                tally.games_with_errors += 1;
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
            if let Some(format) = job.format {
                if !game.diagnostics.is_empty() {
                    let source = reader.source();
                    for d in &game.diagnostics {
                        let place = report::place(&source, d.span);
                        report::write(&mut out, format, &name, tally.games, d, &place)?;
                    }
                }
            }
        }
        Ok(())
    })();
    if let Err(e) = result {
        tally.io_errors += 1;
        let _ = writeln!(out, "{name}: error: cannot read: {e}");
    }
    Outcome {
        tally,
        output: out,
        stats,
    }
}

/// Feeds one game's report to the statistics.
pub fn add_to_stats(stats: &mut Stats, game: &GameReport) {
    let diagnostics: Vec<(&str, bool)> = game
        .diagnostics
        .iter()
        .map(|d| (d.code, d.severity == Severity::Error))
        .collect();
    stats.add(&GameInput {
        game: match game.kind {
            Some(GameKind::Tama) => GameName::Tama,
            Some(GameKind::Odnocvetnie) => GameName::Odnocvetnie,
            Some(GameKind::Thaayam) => GameName::Thaayam,
            None => GameName::Other,
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

/// Runs the job over every input, in parallel across inputs; output comes in input order.
pub fn run(inputs: &[Input], job: &Job<'_>, color: bool, progress: bool) -> (Tally, Stats) {
    let stdout = io::stdout();
    let mut total = Tally::default();
    let mut stats = Stats::default();
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
                let outcome = process(input, job, color);
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                outcome
            })
            .collect();
        let mut lock = stdout.lock();
        for outcome in results {
            total.add(&outcome.tally);
            stats.merge(outcome.stats);
            let _ = lock.write_all(outcome.output.as_slice());
        }
        if let Some(bar) = &bar {
            bar.set_message(format!("{} games", total.games));
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    (total, stats)
}

/// The closing line of a run.
pub fn summary(t: &Tally) -> String {
    let mut s = format!(
        "checked {} file{}, {} game{} ({} plies; {} game{} replayed against the rules): ",
        t.files,
        plural(t.files),
        t.games,
        plural(t.games),
        t.plies,
        t.replayed,
        plural(t.replayed)
    );
    if t.errors == 0 && t.warnings == 0 && t.io_errors == 0 {
        s.push_str("no problems found");
    } else {
        s.push_str(&format!(
            "{} error{} in {} game{}, {} warning{}",
            t.errors,
            plural(t.errors),
            t.games_with_errors,
            plural(t.games_with_errors),
            t.warnings,
            plural(t.warnings)
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
