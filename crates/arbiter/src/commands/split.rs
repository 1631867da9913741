//! `arbiter split`: share the games out between files.

use std::path::PathBuf;

use clap::Args;

use crate::args::Inputs;
use crate::exit::Outcome;

#[derive(Args)]
pub struct SplitArgs {
    #[command(flatten)]
    pub inputs: Inputs,
    /// Files of this many games.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "by",
        required_unless_present = "by"
    )]
    pub games: Option<u64>,
    /// One file per value of this tag (games without it go to untagged.pdn).
    #[arg(long, value_name = "TAG")]
    pub by: Option<String>,
    /// The folder to write the files to (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
}

pub fn run(args: SplitArgs) -> Outcome {
    crate::archive::split_cmd(&args.inputs.paths, args.games, args.by, &args.output)
}
