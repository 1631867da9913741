//! `arbiter moves`: every legal move of a position.

use std::io::{self, Write};

use clap::Args;

use crate::args::{PositionArgs, SquaresArg};
use crate::exit::{Outcome, Stop, CLEAN};
use crate::report::Format;

#[derive(Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Games of chance: the throws of the series, e.g. \"1 4 2\".
    #[arg(long, value_name = "THROWS")]
    pub throws: Option<String>,
    /// Write squares as names or numbers (default: as the game's records do).
    #[arg(long, value_enum)]
    pub squares: Option<SquaresArg>,
}

pub fn run(args: MovesArgs) -> Outcome {
    let position = &args.position;
    let explorer = position.explorer()?;
    let chance = match (explorer.needs_chance(), args.throws.as_deref()) {
        (true, Some(t)) => parse_throws(t)?,
        (true, None) => {
            return Err(Stop::Usage(format!(
                "{} moves depend on the throws: give them with --throws, e.g. --throws \"1 4 2\"",
                position.game.label
            )))
        }
        (false, Some(_)) => {
            return Err(Stop::Usage(format!(
                "--throws is for games of chance; {} has none",
                position.game.label
            )))
        }
        (false, None) => Vec::new(),
    };
    let numeric = args.squares.map(|s| s == SquaresArg::Numeric);
    if numeric == Some(true) && !position.game.numeric_squares {
        return Err(Stop::Usage(format!(
            "{} squares have no numeric form",
            position.game.label
        )));
    }
    let moves = explorer
        .moves(position.fen.as_deref(), &chance, numeric)
        .map_err(|e| Stop::Usage(e.to_string()))?;
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
fn parse_throws(text: &str) -> Result<Vec<u8>, Stop> {
    text.split([' ', ',', '\t'])
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u8>().map_err(|_| {
                Stop::Usage(format!(
                    "`{s}` is not a throw (a whole number, such as 1 or 4)"
                ))
            })
        })
        .collect()
}
