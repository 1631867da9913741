//! `arbiter validate`: replay every game against the rules and report every problem.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use referee::Settings;

use crate::args::{ColorArg, GameChoice, Inputs, SeverityArg};
use crate::exit::{Outcome, CLEAN, FAILURE, PROBLEMS};
use crate::printer::Print;
use crate::report::Format;
use crate::{validate, view};

#[derive(Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub inputs: Inputs,
    #[command(flatten)]
    pub game: GameChoice,
    /// Output format of the diagnostics.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Colour in human output (NO_COLOR in the environment turns `auto` off).
    #[arg(long, value_enum, default_value = "auto")]
    pub color: ColorArg,
    /// Also write the statistics report (report.html, charts, stats.json) to this folder.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Print only the summary line.
    #[arg(short, long)]
    pub quiet: bool,
    /// Stop printing errors after this many (they are still counted; warnings and notes
    /// do not count).
    #[arg(long, value_name = "N")]
    pub max_errors: Option<u64>,
    /// Print diagnostics of this severity and above.
    #[arg(long, value_enum, default_value = "note")]
    pub severity: SeverityArg,
    /// Every record must name its game: a game found from its moves alone is an error.
    #[arg(long)]
    pub strict: bool,
}

pub fn run(args: ValidateArgs) -> Outcome {
    let print = Print {
        format: (!args.quiet).then_some(args.format),
        color: args.color.use_color(args.format),
        max_errors: args.max_errors,
        severity: args.severity.least(),
        strict: args.strict,
        summary_on_stdout: args.format == Format::Human,
    };
    let report_dir = args.report.as_deref();
    let mut settings = args.game.settings()?;
    settings.collect_facts = report_dir.is_some();
    settings.opening_plies = crate::args::DEFAULT_TREE_PLIES;
    settings.snapshots = report_dir.is_some();
    settings.keep_tags = report_dir.is_some();
    corpus_run(&args.inputs.paths, &settings, print, report_dir)
}

/// The chart files of the report already in `dir`, as its `stats.json` lists them: a new
/// report replaces them all, so no chart of an earlier run is left beside it. Only files the
/// earlier report itself names are listed.
fn previous_charts(dir: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(dir.join("stats.json")) else {
        return Vec::new();
    };
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let ids = doc["charts"].as_array().into_iter().flatten();
    ids.filter_map(|c| c["id"].as_str())
        // A chart id is a plain name, never a path.
        .filter(|id| !id.is_empty() && !id.contains(['/', '\\']) && !id.starts_with('.'))
        .flat_map(|id| [format!("{id}.svg"), format!("{id}.png")])
        .collect()
}

/// Validates a corpus, optionally writing the statistics report; returns the exit code.
pub fn corpus_run(
    paths: &[PathBuf],
    settings: &Settings,
    print: Print,
    report_dir: Option<&Path>,
) -> Outcome {
    let (inputs, missing) = ::archive::collect(paths, ::archive::Dash::Stdin);
    let json = print.format == Some(Format::Json);
    for (path, e) in &missing {
        validate::unreadable(json, &path.display().to_string(), e)?;
    }
    let job = validate::Job {
        settings,
        print,
        stats: report_dir.is_some(),
        viewer: report_dir.map(|_| view::Scope::Problems),
    };
    let (mut tally, stats, extras) = validate::run(&inputs, &job, true)?;
    tally.io_errors += missing.len() as u64;
    let line = validate::summary(&tally);
    if print.summary_on_stdout {
        // A closed pipe does not change the verdict the exit code gives.
        match writeln!(io::stdout().lock(), "{line}") {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            other => other?,
        }
    } else {
        eprintln!("{line}");
    }
    if let Some(dir) = report_dir {
        // Built in a staging folder inside DIR, then moved into place file by file under a
        // lock: an interrupted or failed run leaves the previous report as it was.
        let cannot = |e: io::Error| format!("{}: cannot write the report: {e}", dir.display());
        let staging = outfile::Staging::create(dir).map_err(cannot)?;
        let files = ::report::write_report(&stats, staging.path(), &extras).map_err(cannot)?;
        let stale = previous_charts(dir);
        let stale: Vec<&str> = stale.iter().map(String::as_str).collect();
        staging.commit(&stale).map_err(cannot)?;
        eprintln!(
            "report written to {} ({} charts, numbers in {})",
            dir.join("report.html").display(),
            files.charts.len(),
            dir.join("stats.json").display()
        );
    }
    Ok(if tally.io_errors > 0 {
        FAILURE
    } else if tally.errors > 0 {
        PROBLEMS
    } else {
        CLEAN
    })
}
