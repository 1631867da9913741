//! `arbiter games`: the games arbiter knows.

use std::io::{self, Write};

use clap::Args;
use game::GameInfo;

use crate::exit::{Outcome, CLEAN};
use crate::report::Format;

#[derive(Args)]
pub struct GamesArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
}

pub fn run(args: GamesArgs) -> Outcome {
    let mut out = io::stdout().lock();
    for g in games::games().registry().games() {
        match args.format {
            Format::Human => human(&mut out, g)?,
            Format::Json => writeln!(out, "{}", json(g))?,
        }
    }
    Ok(CLEAN)
}

/// A game's lines in the human listing.
fn human(out: &mut impl Write, g: &GameInfo) -> io::Result<()> {
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
    Ok(())
}

/// A game as one JSON line.
fn json(g: &GameInfo) -> serde_json::Value {
    let options: Vec<&str> = g.options.iter().map(|o| o.name).collect();
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
}
