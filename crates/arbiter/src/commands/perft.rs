//! `arbiter perft`: count the move sequences of 1..N plies from a position.

use std::io::{self, Write};
use std::time::Instant;

use clap::{Args, ValueEnum};
use game::PerftOptions;
use games::{PerftRun, MAX_PERFT_DEPTH};

use crate::args::PositionArgs;
use crate::exit::{Outcome, Stop, CLEAN};
use crate::report::Format;

/// How identical captures are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Duplicates {
    /// Apart: one count per route (English tables).
    Keep,
    /// Once (the tables of the other variants).
    Drop,
}

#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The deepest depth to count (at most 64). Every depth from 1 is counted and printed as
    /// it finishes, unless --divide is given.
    #[arg(long, value_name = "N")]
    pub depth: u32,
    /// Threads to count on (default: one per core); the counts are those of one thread.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Count the moves of the last ply without playing them (bulk counting). By default every
    /// leaf is played, so that nodes/s measures the move generator as a search uses it.
    #[arg(long)]
    pub bulk: bool,
    /// Identical captures (the same pieces taken from the same start to the same end along
    /// different routes, which only kings can do): counted apart (`keep`) or once (`drop`).
    /// Default: the variant's published convention, `keep` for English and `drop` for the
    /// others. Draughts variants only; other games have no such captures.
    #[arg(long, value_enum, value_name = "keep|drop")]
    pub duplicates: Option<Duplicates>,
    /// Count depth N alone, and print the count below every root move.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: PerftArgs) -> Outcome {
    if args.depth > MAX_PERFT_DEPTH {
        return Err(Stop::Usage(format!(
            "--depth {} is too deep: perft counts at most {MAX_PERFT_DEPTH} plies (a count \
             that deep would never finish)",
            args.depth
        )));
    }
    if args.threads == Some(0) {
        return Err(Stop::Usage("--threads must be at least 1".into()));
    }
    let position = &args.position;
    let explorer = position.explorer()?;
    let threads = args.threads.unwrap_or(0);
    let run = PerftRun {
        options: PerftOptions {
            bulk: args.bulk,
            keep_duplicates: args.duplicates.map(|d| d == Duplicates::Keep),
        },
        divide: args.divide,
        threads,
    };
    let shown_threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let fen = position.fen.as_deref();
    let first = if args.divide { args.depth } else { 1 };
    let mut out = io::stdout().lock();
    let mut last = None;
    for d in first..=args.depth {
        let started = Instant::now();
        let count = explorer
            .perft_count(fen, d, &run)
            .map_err(|e| Stop::Usage(e.to_string()))?;
        let seconds = started.elapsed().as_secs_f64();
        let rate = count.nodes as f64 / seconds.max(1e-9);
        match position.format {
            Format::Human => {
                for (mv, n) in &count.divide {
                    writeln!(out, "{mv} {n}")?;
                }
                writeln!(out, "{d} {}", count.nodes)?;
            }
            Format::Json => {
                for (mv, n) in &count.divide {
                    writeln!(out, "{}", serde_json::json!({"move": mv, "nodes": n}))?;
                }
                writeln!(
                    out,
                    "{}",
                    serde_json::json!({
                        "depth": d,
                        "nodes": count.nodes,
                        "seconds": seconds,
                        "nodes_per_second": rate.round() as u64,
                    })
                )?;
            }
        }
        // Each depth is out as soon as it is counted: an interrupted run keeps them.
        out.flush()?;
        last = Some((d, count.nodes, seconds, rate));
    }
    if let (Format::Human, Some((d, nodes, seconds, rate))) = (position.format, last) {
        let dups = match args.duplicates {
            Some(Duplicates::Keep) => "; identical captures apart",
            Some(Duplicates::Drop) => "; identical captures once",
            None => "; identical captures as the variant's tables count them",
        };
        let bulk = if args.bulk {
            "bulk counting"
        } else {
            "every leaf played"
        };
        let (bulk, dups) = if explorer.perft_has_options() {
            (bulk, dups)
        } else {
            ("the game's own counting (bulk)", "")
        };
        writeln!(
            out,
            "nodes/s: {} (depth {d}: {nodes} nodes in {seconds:.3} s; {shown_threads} \
             thread{}; {bulk}{dups})",
            millions(rate),
            if shown_threads == 1 { "" } else { "s" },
        )?;
    }
    Ok(CLEAN)
}

/// A rate written in millions (`48.2 M`), or as a whole number below a million.
fn millions(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1} M", rate / 1e6)
    } else {
        format!("{rate:.0}")
    }
}
