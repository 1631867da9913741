//! `arbiter completions`: a shell completion script.

use std::io;

use clap::Args;

use crate::exit::{Outcome, CLEAN};

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

/// Prints the completion script of `cli`, the whole command line.
pub fn run(args: CompletionsArgs, mut cli: clap::Command) -> Outcome {
    clap_complete::generate(args.shell, &mut cli, "arbiter", &mut io::stdout().lock());
    Ok(CLEAN)
}
