//! `arbiter.analyse`: the engine analysis of every game of some inputs, as the two tables of
//! `arbiter analyse --export` (built by the export crate, so the schemas are the files').
//!
//! The games run through [`analysis::pipeline`], the CLI's own pipeline, on every core with
//! the GIL released; between games the calling thread checks for a pending signal.

use std::io::{self, BufReader};
use std::path::PathBuf;
use std::time::Duration;

use arrow_array::RecordBatch;
use export::AnalysisBatches;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use search::Limits;

use crate::stream::ArrowStream;
use archive::Source;

/// How deep to look, as the CLI's `--nodes`, `--depth`, `--movetime` and `--hash` say.
struct Depth {
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    hash_mb: usize,
}

impl Depth {
    /// The analysis settings, checked as the CLI checks its flags.
    fn settings(&self) -> PyResult<analysis::Settings> {
        if self.nodes == Some(0) || self.movetime == Some(0) {
            return Err(PyValueError::new_err(
                "nodes and movetime must be at least 1",
            ));
        }
        if matches!(self.depth, Some(d) if !(1..=60).contains(&d)) {
            return Err(PyValueError::new_err("depth must be 1 to 60"));
        }
        if !(1..=4096).contains(&self.hash_mb) {
            return Err(PyValueError::new_err("hash_mb must be 1 to 4096"));
        }
        let nodes = self.nodes.or(match (self.depth, self.movetime) {
            (None, None) => Some(analysis::Settings::DEFAULT_NODES),
            _ => None,
        });
        Ok(analysis::Settings {
            limits: Limits {
                nodes,
                depth: self.depth,
                time: self.movetime.map(Duration::from_millis),
            },
            hash_mb: self.hash_mb,
            ..analysis::Settings::default()
        })
    }
}

/// Why a run stopped.
enum Stop {
    Python(PyErr),
    Io(String, io::Error),
}

/// Analyses every game of `inputs` into batches of the two tables.
fn run(
    inputs: &[Source],
    settings: &referee::Settings,
    asettings: analysis::Settings,
) -> Result<(Vec<RecordBatch>, RecordBatch), Stop> {
    let arrow = |e: export::ExportError| Stop::Python(PyValueError::new_err(e.to_string()));
    let mut tables = AnalysisBatches::default();
    let mut batches = Vec::new();
    for source in inputs {
        let name = source.name();
        let opened = source
            .open(games::games())
            .map_err(|e| Stop::Io(name.clone(), e.into()))?;
        let mut reader = pdn::Reader::new(BufReader::with_capacity(1 << 16, opened));
        let games = std::iter::from_fn(|| analysis::pipeline::read_game(&mut reader).transpose());
        let mut interrupted = None;
        let mut failed = None;
        let result = analysis::pipeline::analyse_games(
            games,
            games::games(),
            settings,
            asettings,
            &mut |game| {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    interrupted = Some(e);
                    return Err(io::Error::other("interrupted"));
                }
                tables.push_game(&name, &game, None);
                if tables.pending() >= 1 << 16 {
                    match tables.take() {
                        Ok(b) => batches.push(b),
                        Err(e) => {
                            failed = Some(e);
                            return Err(io::Error::other("the table could not be built"));
                        }
                    }
                }
                Ok(())
            },
        );
        if let Some(e) = interrupted {
            return Err(Stop::Python(e));
        }
        if let Some(e) = failed {
            return Err(arrow(e));
        }
        result.map_err(|e| Stop::Io(name, e))?;
    }
    batches.push(tables.take().map_err(arrow)?);
    let players = tables.players_batch().map_err(arrow)?;
    Ok((batches, players))
}

/// Runs the analysis with the GIL released and hands the tables over as two streams.
fn tables(
    py: Python<'_>,
    inputs: Vec<Source>,
    settings: referee::Settings,
    depth: Depth,
) -> PyResult<(ArrowStream, ArrowStream)> {
    let asettings = depth.settings()?;
    let mut settings = settings;
    settings.details = true;
    settings.positions = true;
    settings.keep_tags = true;
    let (plies, players) = py
        .detach(|| run(&inputs, &settings, asettings))
        .map_err(|stop| match stop {
            Stop::Python(e) => e,
            Stop::Io(name, e) => crate::io_error(&name, &e),
        })?;
    let schema = |b: &RecordBatch| b.schema();
    let plies_schema = plies.last().map(schema).unwrap_or_else(|| schema(&players));
    Ok((
        ArrowStream::from_batches(plies_schema, plies),
        ArrowStream::from_batches(players.schema(), vec![players]),
    ))
}

/// The analysis of every game of `paths`: the `analysis` and `players` tables.
#[pyfunction]
#[pyo3(signature = (paths, nodes=None, depth=None, movetime=None, hash_mb=16, game=None, default_game=None, rules=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    hash_mb: usize,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<(ArrowStream, ArrowStream)> {
    let settings = crate::settings(game, default_game, rules)?;
    let depth = Depth {
        nodes,
        depth,
        movetime,
        hash_mb,
    };
    depth.settings()?;
    let inputs = crate::collect(&paths)?;
    tables(py, inputs, settings, depth)
}

/// Like [`analyse`], over PDN texts held in memory, each named by `names`.
#[pyfunction]
#[pyo3(signature = (texts, names, nodes=None, depth=None, movetime=None, hash_mb=16, game=None, default_game=None, rules=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_texts(
    py: Python<'_>,
    texts: Vec<String>,
    names: Vec<String>,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    hash_mb: usize,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<(ArrowStream, ArrowStream)> {
    let settings = crate::settings(game, default_game, rules)?;
    let inputs = texts
        .into_iter()
        .zip(names)
        .map(|(text, name)| Source::Text { name, text })
        .collect();
    let depth = Depth {
        nodes,
        depth,
        movetime,
        hash_mb,
    };
    tables(py, inputs, settings, depth)
}
