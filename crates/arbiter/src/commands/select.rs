//! `arbiter select`: the games that pass every filter, each exactly as read.

use clap::Args;

use crate::archive::FilterArgs;
use crate::args::{GameChoice, Inputs};
use crate::exit::Outcome;

#[derive(Args)]
pub struct SelectArgs {
    #[command(flatten)]
    pub inputs: Inputs,
    #[command(flatten)]
    pub filters: Box<FilterArgs>,
    #[command(flatten)]
    pub game: GameChoice,
}

pub fn run(args: SelectArgs) -> Outcome {
    let settings = args.game.settings()?;
    crate::archive::select_cmd(&args.inputs.paths, *args.filters, settings)
}
