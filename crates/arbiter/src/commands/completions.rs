//! `arbiter completions`: a shell completion script.

use std::io::{self, Write};

use clap::Args;

use crate::exit::{Outcome, CLEAN};

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell.
    pub shell: clap_complete::Shell,
}

/// Prints the completion script of `cli`, the whole command line.
pub fn run(args: CompletionsArgs, mut cli: clap::Command) -> Outcome {
    // Generated into memory first: clap_complete panics when its writer fails (a closed
    // pipe, `arbiter completions bash | head -1`).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cli, "arbiter", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(CLEAN)
}
