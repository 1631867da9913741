//! `arbiter man`: the manual pages.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::exit::{Outcome, Stop, CLEAN};

#[derive(Args)]
pub struct ManArgs {
    /// The folder to write the pages to.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
}

/// Writes the pages of `cli`, the whole command line: arbiter.1 and one per subcommand.
pub fn run(args: ManArgs, cli: clap::Command) -> Outcome {
    let dir = &args.output;
    std::fs::create_dir_all(dir).map_err(|e| Stop::Usage(format!("{}: {e}", dir.display())))?;
    write_page(dir, "arbiter", cli.clone())?;
    let mut pages = 1;
    for sub in cli.get_subcommands() {
        let name: &'static str = Box::leak(format!("arbiter-{}", sub.get_name()).into_boxed_str());
        write_page(dir, name, sub.clone().name(name))?;
        pages += 1;
    }
    eprintln!("wrote {pages} manual pages to {}", dir.display());
    Ok(CLEAN)
}

fn write_page(dir: &Path, name: &str, cmd: clap::Command) -> Result<(), Stop> {
    let path = dir.join(format!("{name}.1"));
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut buf)
        .map_err(|e| Stop::Usage(e.to_string()))?;
    let mut out = crate::output::Output::create(Some(&path))?;
    out.write_all(&buf)
        .and_then(|()| out.commit())
        .map_err(|e| Stop::Usage(e.to_string()))
}
