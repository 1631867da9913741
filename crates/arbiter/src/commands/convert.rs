//! `arbiter convert`: write the games again as PDN, JSON or Ludii trials.

use std::io;
use std::path::PathBuf;

use clap::Args;
use referee::Rewrite;

use crate::archive::ConvertEdits;
use crate::args::Target;
use crate::args::{CapturesArg, GameChoice, SquaresArg};
use crate::convert::{self, ConvertTally};
use crate::exit::{Outcome, Stop};
use crate::{output, trials};

#[derive(Args)]
pub struct ConvertArgs {
    /// PDN files (plain or .gz), JSON-lines files of games, folders (searched for *.pdn,
    /// *.pdn.gz and *.trl), or `-` for standard input.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Output file, written whole or not at all (default or `-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output form.
    #[arg(long, value_enum, default_value = "pdn")]
    pub to: Target,
    /// Write squares as names (c3) or numbers.
    #[arg(long, value_enum)]
    pub squares: Option<SquaresArg>,
    /// Write captures short (c3xe5) or with every landing square (c3xc5xe5).
    #[arg(long, value_enum)]
    pub captures: Option<CapturesArg>,
    #[command(flatten)]
    pub game: GameChoice,
    #[command(flatten)]
    pub edits: ConvertEdits,
}

pub fn run(args: ConvertArgs) -> Outcome {
    let (squares, captures) = (args.squares, args.captures);
    let rewrite = (squares.is_some() || captures.is_some()).then(|| Rewrite {
        numeric: squares.map(|s| s == SquaresArg::Numeric),
        full_captures: captures.map(|c| c == CapturesArg::Full),
    });
    let mut settings = args.game.settings()?;
    if let (Some(SquaresArg::Numeric), Some(info)) = (squares, args.game.game) {
        if !info.numeric_squares {
            return Err(format!("{} squares have no numeric form", info.label).into());
        }
    }
    settings.rewrite = rewrite;
    let edits = args.edits.check(args.to)?;
    settings.details = edits.positions;
    settings.positions = edits.positions;
    let (inputs, missing) = ::archive::collect(&args.inputs, ::archive::Dash::Stdin);
    for (path, e) in &missing {
        crate::validate::unreadable(false, &path.display().to_string(), e)?;
    }
    let output = args.output.as_deref();
    if let Some(o) = output.filter(|o| !output::is_stdout(o)) {
        crate::archive::refuse_overwrite(&inputs, &[o])?;
    }
    if args.to == Target::Trl {
        let mut total = trials::convert_all(&inputs, output, &settings, &edits, &mut io::stderr())?;
        total.unreadable += missing.len() as u64;
        eprintln!("{}", total.summary(rewrite.is_some()));
        return Ok(total.exit_code());
    }
    // A closed pipe stops the writing, not the reading: the exit code stays the verdict.
    let mut out = pdn::Writer::new(output::Output::create(output)?.read_on_when_closed());
    let mut total = ConvertTally {
        unreadable: missing.len() as u64,
        ..ConvertTally::default()
    };
    for source in &inputs {
        let tally = convert::convert(
            source,
            args.to,
            &settings,
            &edits,
            &mut out,
            &mut io::stderr(),
        )
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => Stop::ClosedPipe,
            // Errors of reading are noted by `convert`: this one is of the output, and
            // names it.
            _ => Stop::Usage(e.to_string()),
        })?;
        total.add(&tally);
    }
    let out = out.finish()?;
    // Nothing read at all: no file (an existing one is left as it was).
    if total.games > 0 || total.unreadable == 0 {
        out.commit()?;
    }
    eprintln!("{}", total.summary(rewrite.is_some()));
    Ok(total.exit_code())
}
