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
/// Every page is written in full under a temporary name before any replaces an earlier one,
/// so a full disk leaves the earlier pages as they were.
pub fn run(args: ManArgs, cli: clap::Command) -> Outcome {
    let dir = &args.output;
    std::fs::create_dir_all(dir).map_err(|e| Stop::Usage(format!("{}: {e}", dir.display())))?;
    let mut written = vec![write_page(dir, "arbiter", cli.clone())?];
    for sub in cli.get_subcommands() {
        let name: &'static str = Box::leak(format!("arbiter-{}", sub.get_name()).into_boxed_str());
        written.push(write_page(dir, name, sub.clone().name(name))?);
    }
    let pages = written.len();
    for out in written {
        out.commit().map_err(|e| Stop::Usage(e.to_string()))?;
    }
    eprintln!("wrote {pages} manual pages to {}", dir.display());
    Ok(CLEAN)
}

/// One page, written under its temporary name: committed by the caller.
fn write_page(dir: &Path, name: &str, cmd: clap::Command) -> Result<crate::output::Output, Stop> {
    let path = dir.join(format!("{name}.1"));
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut buf)
        .map_err(|e| Stop::Usage(e.to_string()))?;
    let mut out = crate::output::Output::create(Some(&path))?;
    out.write_all(&buf)
        .and_then(|()| out.flush())
        .map_err(|e| Stop::Usage(e.to_string()))?;
    Ok(out)
}
