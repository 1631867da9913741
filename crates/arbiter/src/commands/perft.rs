//! `arbiter perft`: count the move sequences of 1..N plies from a position.

use std::io::{self, Write};

use clap::Args;

use crate::args::PositionArgs;
use crate::exit::{Outcome, Stop, CLEAN};
use crate::report::Format;

#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// The deepest depth to count.
    #[arg(long, value_name = "N")]
    pub depth: u32,
}

pub fn run(args: PerftArgs) -> Outcome {
    let position = &args.position;
    let counts = position
        .explorer()?
        .perft(position.fen.as_deref(), args.depth)
        .map_err(|e| Stop::Usage(e.to_string()))?;
    let mut out = io::stdout().lock();
    for (d, nodes) in (1..).zip(counts) {
        match position.format {
            Format::Human => writeln!(out, "{d} {nodes}")?,
            Format::Json => writeln!(out, "{}", serde_json::json!({"depth": d, "nodes": nodes}))?,
        }
    }
    Ok(CLEAN)
}
