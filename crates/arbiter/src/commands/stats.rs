//! `arbiter stats`: replay a corpus and write a statistics report with charts.

use std::path::PathBuf;

use clap::Args;

use crate::args::{GameChoice, Inputs};
use crate::exit::Outcome;
use crate::printer::Print;

#[derive(Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub inputs: Inputs,
    /// Folder for report.html, the charts and stats.json.
    #[arg(short, long, alias = "out", value_name = "DIR")]
    pub output: PathBuf,
    /// Plies the opening tree follows (by position key; 0 leaves it out).
    #[arg(long, value_name = "N", default_value_t = crate::args::DEFAULT_TREE_PLIES,
          value_parser = clap::value_parser!(u32).range(0..=16))]
    pub tree_plies: u32,
    #[command(flatten)]
    pub game: GameChoice,
}

pub fn run(args: StatsArgs) -> Outcome {
    let mut settings = args.game.settings()?;
    settings.collect_facts = true;
    settings.opening_plies = args.tree_plies;
    settings.snapshots = true;
    settings.keep_tags = true;
    let print = Print {
        format: None,
        color: false,
        max_errors: None,
        severity: referee::Severity::Note,
        strict: false,
        summary_on_stdout: false,
    };
    super::validate::corpus_run(&args.inputs.paths, &settings, print, Some(&args.output))
}
