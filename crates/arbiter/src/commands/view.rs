//! `arbiter view`: every game of the inputs in one self-contained HTML page.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use referee::{Settings, Severity};

use crate::args::{GameChoice, Inputs};
use crate::exit::{self, Outcome, Stop, FAILURE};
use crate::printer::Print;
use crate::{validate, view};

#[derive(Args)]
pub struct ViewArgs {
    #[command(flatten)]
    pub inputs: Inputs,
    /// The page to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    #[command(flatten)]
    pub game: GameChoice,
}

pub fn run(args: ViewArgs) -> Outcome {
    let settings = args.game.settings()?;
    write_page(&args.inputs.paths, &settings, &args.output)
}

/// `arbiter view PATH... -o FILE`: the page with every game of the inputs.
fn write_page(paths: &[PathBuf], base: &Settings, output: &Path) -> Result<u8, Stop> {
    let (inputs, missing) = ::archive::collect(paths, ::archive::Dash::Stdin);
    for (path, e) in &missing {
        validate::unreadable(false, &path.display().to_string(), e)
            .map_err(|e| Stop::Usage(e.to_string()))?;
    }
    crate::archive::refuse_overwrite(&inputs, &[output])?;
    let settings = view::settings(base);
    let job = validate::Job {
        settings: &settings,
        print: Print {
            format: None,
            color: false,
            max_errors: None,
            severity: Severity::Error,
            strict: false,
            summary_on_stdout: false,
        },
        stats: false,
        viewer: Some(view::Scope::All),
    };
    let (mut tally, _, mut extras) =
        validate::run(&inputs, &job, true).map_err(|e| Stop::Usage(e.to_string()))?;
    tally.io_errors += missing.len() as u64;
    eprintln!("{}", validate::summary(&tally));
    let viewer = extras
        .take_viewer()
        .unwrap_or_else(|| ::report::Viewer::new(usize::MAX));
    let title = match paths {
        [one] => format!("Games of {}", one.display()),
        _ => format!("Games of {} inputs", paths.len()),
    };
    let cannot_write =
        |e: std::io::Error| Stop::Usage(format!("{}: cannot write: {e}", output.display()));
    let mut out = crate::output::Output::create(Some(output))?;
    out.write_all(viewer.page_html(&title).as_bytes())
        .map_err(cannot_write)?;
    out.commit().map_err(cannot_write)?;
    eprintln!(
        "viewer written to {} ({}, {})",
        output.display(),
        crate::archive::plural(viewer.games(), "game"),
        viewer.problems_in_words()
    );
    // The same exit codes as `validate`: the page is written either way.
    Ok(if tally.io_errors > 0 {
        FAILURE
    } else {
        exit::problems(tally.errors)
    })
}
