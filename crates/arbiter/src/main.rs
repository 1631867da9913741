//! `arbiter`: validate, convert and analyse archives of recorded draughts-family games.
//! This binary only parses arguments and hands them to the subcommand's module (under
//! `commands`), which wires the library crates together; the games come from the registry
//! (`games`), and no game is named here.

mod analyse;
mod analysis_page;
mod archive;
mod args;
mod cli;
mod commands;
mod convert;
mod exit;
mod output;
mod printer;
mod report;
mod show;
mod trials;
mod validate;
mod view;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use cli::{Cli, Command};
use exit::{Outcome, Stop};

fn main() -> ExitCode {
    // Before any thread starts: an interrupt removes the temporaries of every output.
    outfile::cleanup_on_signals();
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => ExitCode::from(code),
        Err(Stop::ClosedPipe) => ExitCode::from(exit::CLEAN),
        Err(Stop::Usage(message)) => {
            // Messages name paths and values: control characters are shown escaped.
            eprintln!("arbiter: {}", report::escape(&message));
            ExitCode::from(exit::FAILURE)
        }
    }
}

fn run(command: Command) -> Outcome {
    use commands::*;
    match command {
        Command::Validate(args) => validate::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Stats(args) => stats::run(args),
        Command::View(args) => view::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Select(args) => select::run(args),
        Command::Split(args) => split::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Show(args) => show::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::Export(args) => export::run(args),
        Command::Games(args) => games::run(args),
        Command::Hub(args) => commands::hub::run(args),
        Command::Completions(args) => completions::run(args, Cli::command()),
        Command::Man(args) => man::run(args, Cli::command()),
    }
}
