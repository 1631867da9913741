//! `arbiter export`: every game, main-line ply and diagnostic as Parquet tables.

use std::path::{Path, PathBuf};

use clap::Args;
use referee::Settings;

use crate::args::{GameChoice, Inputs, TableFormat};
use crate::exit::{Outcome, Stop, CLEAN, FAILURE, PROBLEMS};

#[derive(Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub inputs: Inputs,
    /// The table format.
    #[arg(long, value_enum, default_value = "parquet")]
    pub to: TableFormat,
    /// The folder to write the three files to.
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// Also write the position string after every ply (plies.fen_after); every ply has
    /// its 64-bit position_key either way.
    #[arg(long)]
    pub positions: bool,
    /// Write each table as Hive-style partition folders (games/variant=international/...)
    /// by these columns: variant, year, or variant,year.
    #[arg(long, value_name = "COLUMNS", value_delimiter = ',', value_parser = ["variant", "year"])]
    pub partition_by: Vec<String>,
    #[command(flatten)]
    pub game: GameChoice,
}

/// Bytes per chunk of a large input read by `export`: one row group of plies each (about
/// 400,000 rows for draughts).
const EXPORT_CHUNK_BYTES: usize = 4 << 20;

/// Chunks of `export` checked or waiting to be written at a time: enough to keep every core
/// busy while the sink writes, few enough to keep memory small (a finished chunk holds its
/// plies compressed).
const EXPORT_IN_FLIGHT: usize = 3;

/// Test hook: the bytes the partitioned writer may hold for all partitions together
/// ([`export::PartitionedSink::set_budget`]), so that tests reach it with small inputs.
const BUDGET_ENV: &str = "ARBITER_TEST_PARTITION_BUDGET";

/// Where `export` writes: one folder of three files, or partition folders.
enum TableSink {
    Plain(Box<export::ParquetSink>),
    Partitioned(Box<export::PartitionedSink>),
}

/// What `export` writes into its folder, in either form: the entries a run replaces.
const TABLE_ENTRIES: [&str; 6] = [
    "games.parquet",
    "plies.parquet",
    "diagnostics.parquet",
    "games",
    "plies",
    "diagnostics",
];

impl TableSink {
    /// The sink, writing into `staging` (see [`outfile::Staging`]).
    fn create(
        staging: &Path,
        by: Vec<export::PartitionColumn>,
        options: export::SinkOptions,
        dir: &Path,
    ) -> Result<Self, Stop> {
        match by.is_empty() {
            true => export::ParquetSink::with_options(staging, options)
                .map(|s| TableSink::Plain(Box::new(s))),
            false => export::PartitionedSink::create(staging, by, options).map(|mut sink| {
                if let Some(bytes) = std::env::var(BUDGET_ENV).ok().and_then(|v| v.parse().ok()) {
                    sink.set_budget(bytes);
                }
                TableSink::Partitioned(Box::new(sink))
            }),
        }
        .map_err(|e| failed(dir, e))
    }

    /// Replays the records of every input into the tables, in order; returns the inputs
    /// that could not be read (each told on standard error in its turn).
    fn write(
        &mut self,
        inputs: &[::archive::Source],
        settings: &Settings,
        dir: &Path,
    ) -> Result<usize, Stop> {
        let catalog = games::games();
        let opened = inputs.iter().map(|source| {
            let name = source.name();
            match source.open(catalog) {
                Ok(reader) => export::Input::Open(name, reader),
                Err(e) => export::Input::Unreadable(name, e.to_string()),
            }
        });
        let mut unreadable = 0;
        let tell = |name: &str, reason: &str| {
            unreadable += 1;
            crate::validate::unreadable(false, name, &reason).map_err(|source| {
                export::ExportError::Io {
                    context: "writing to standard error".into(),
                    source,
                }
            })
        };
        let limits = (EXPORT_CHUNK_BYTES, EXPORT_IN_FLIGHT);
        match self {
            TableSink::Plain(sink) => {
                export::export_inputs(sink, catalog, opened, settings, limits, tell).map(drop)
            }
            // Half the chunk: its games wait packed as bytes, which take more room than the
            // compressed plies of the plain export.
            TableSink::Partitioned(sink) => {
                let limits = (EXPORT_CHUNK_BYTES / 2, EXPORT_IN_FLIGHT);
                export::export_inputs_partitioned(sink, catalog, opened, settings, limits, tell)
            }
        }
        .map_err(|e| failed(dir, e))?;
        Ok(unreadable)
    }

    fn finish(self, dir: &Path) -> Result<export::Counts, Stop> {
        match self {
            TableSink::Plain(sink) => sink.finish(),
            TableSink::Partitioned(sink) => (*sink).finish(),
        }
        .map_err(|e| failed(dir, e))
    }
}

/// An error of the export as the user is told it: one of writing the tables names the output
/// folder (`out: writing games.parquet: No space left on device`); one of reading names its
/// input already.
fn failed(dir: &Path, e: export::ExportError) -> Stop {
    match e {
        export::ExportError::Parquet { .. } | export::ExportError::Arrow { .. } => {
            Stop::Usage(format!("{}: {e}", dir.display()))
        }
        other => Stop::Usage(other.to_string()),
    }
}

/// The `--partition-by` columns, each once.
fn partition_columns(names: &[String]) -> Result<Vec<export::PartitionColumn>, Stop> {
    let mut by = Vec::new();
    for name in names {
        let column = export::PartitionColumn::parse(name).ok_or_else(|| {
            Stop::Usage(format!("--partition-by: `{name}` is not variant or year"))
        })?;
        if by.contains(&column) {
            return Err(Stop::Usage(format!(
                "--partition-by: `{name}` is given twice"
            )));
        }
        by.push(column);
    }
    Ok(by)
}

pub fn run(args: ExportArgs) -> Outcome {
    let TableFormat::Parquet = args.to;
    let dir = &args.output;
    let mut settings = args.game.settings()?;
    settings.positions = args.positions;
    let options = export::SinkOptions {
        positions: args.positions,
        ..export::SinkOptions::default()
    };
    let by = partition_columns(&args.partition_by)?;
    let (inputs, missing) = ::archive::collect(&args.inputs.paths, ::archive::Dash::Stdin);
    for (path, e) in &missing {
        crate::validate::unreadable(false, &path.display().to_string(), e)?;
    }
    // The tables are built in a staging folder inside DIR and replace the earlier ones (in
    // either form: a partitioned run leaves no stale partition) only when complete.
    let staging = outfile::Staging::create(dir).map_err(|e| Stop::Usage(e.to_string()))?;
    let mut sink = TableSink::create(staging.path(), by, options, dir)?;
    let unreadable = missing.len() + sink.write(&inputs, &settings, dir)?;
    let counts = sink.finish(dir)?;
    staging
        .commit(&TABLE_ENTRIES)
        .map_err(|e| Stop::Usage(e.to_string()))?;
    eprintln!(
        "wrote {}, {} and {} to {}",
        crate::archive::plural(counts.games, "game"),
        crate::archive::plural(counts.plies, "ply"),
        crate::archive::plural(counts.diagnostics, "diagnostic"),
        dir.display()
    );
    // As validate and stats: 2 for an input not read, else 1 for records with errors.
    Ok(if unreadable > 0 {
        FAILURE
    } else if counts.games_with_errors > 0 {
        PROBLEMS
    } else {
        CLEAN
    })
}
