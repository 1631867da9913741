//! `arbiter show`: draw the position of one game after some plies.

use std::path::PathBuf;

use ::archive::Source;
use clap::Args;

use crate::args::GameChoice;
use crate::exit::{Outcome, CLEAN};
use crate::{output, show};

#[derive(Args)]
pub struct ShowArgs {
    /// A PDN file (plain or .gz), or `-` for standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Which game of the file, counting from 1.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub index: u64,
    /// Draw the position after this many plies of the main line (0: the start
    /// position; default: where the main line ends).
    #[arg(long, value_name = "P")]
    pub ply: Option<u32>,
    #[command(flatten)]
    pub game: GameChoice,
    /// The picture to write: a name ending in .svg or .png, or `-` for SVG on standard
    /// output.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
}

pub fn run(args: ShowArgs) -> Outcome {
    let settings = args.game.settings()?;
    let request = show::Request {
        input: if args.file.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::File(args.file)
        },
        index: args.index,
        ply: args.ply,
        game: settings.game,
        default_game: settings.default_game,
        rules: settings.rules,
        output: args.output,
    };
    let shown = show::show(&request)?;
    for note in &shown.notes {
        eprintln!("arbiter: {}", crate::report::escape(note));
    }
    let place = if output::is_stdout(&request.output) {
        "standard output".to_string()
    } else {
        request.output.display().to_string()
    };
    let place = crate::report::escape(&place);
    eprintln!("wrote {place}: {}", crate::report::escape(&shown.title));
    Ok(CLEAN)
}
