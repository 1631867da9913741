//! `arbiter.read_tables` and `arbiter.record_batches`: the tables of `arbiter export`, as
//! Arrow data with the very schema of its Parquet files (built by the export crate).
//!
//! Inputs are read in chunks, and consecutive small inputs' chunks gathered into batches of
//! at least a megabyte; a round of batches (one per core) is checked in parallel, each batch
//! built into the three tables on its thread, and the tables handed out in input order, so
//! memory holds one round of tables, whatever the size of the input.

use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::ArrowError;
use arrow_schema::SchemaRef;
use export::run::BATCH_BYTES;
use export::{Numbering, TableBatches, Wanted};
use pdn::chunk::{Chunk, Chunker};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use referee::Settings;

use crate::stream::{ArrowStream, Batches as BatchReader};
use archive::Source;

/// Bytes per chunk: small enough that a round of chunks' rows stays well under the memory
/// bound (a megabyte of draughts records is about 100,000 plies).
const CHUNK_BYTES: usize = 1 << 20;

/// Why a round could not be handed out.
enum Failure {
    /// An input that cannot be read: its name and the error.
    Unreadable(String, io::Error),
    /// The tables could not be built.
    Tables(export::ExportError),
}

impl Failure {
    fn arrow(self) -> ArrowError {
        match self {
            Failure::Unreadable(name, e) => unreadable(&name, &e),
            Failure::Tables(e) => ArrowError::ExternalError(Box::new(e)),
        }
    }

    fn py(self) -> PyErr {
        match self {
            Failure::Unreadable(name, e) => crate::io_error(&name, &e),
            Failure::Tables(e) => arrow(e),
        }
    }
}

/// A chunk to check, with its input's number and name.
type Piece = (usize, Arc<str>, Chunk);

/// Batches of consecutive chunks holding at least [`BATCH_BYTES`] each (or the rest of the
/// inputs, or what comes before an unreadable one), or an input that cannot be read.
type Batches = Box<dyn Iterator<Item = Result<Vec<Piece>, Failure>> + Send>;

/// The tables of every game of every input, a round of batches at a time.
struct RowSource {
    batches: Batches,
    /// An input found unreadable, told once the rows before it are handed out.
    failed: Option<Failure>,
    numbering: Numbering,
    settings: Settings,
    wanted: Wanted,
}

/// Every input's chunks in order; an input that cannot be opened or read gives an error in
/// its place (which ends the stream).
fn chunks(inputs: Vec<Source>) -> impl Iterator<Item = Result<Piece, Failure>> + Send {
    inputs.into_iter().enumerate().flat_map(|(file, input)| {
        let name = input.name();
        let chunks: Box<dyn Iterator<Item = Result<Piece, Failure>> + Send> =
            match input.open(games::games()).map_err(io::Error::from) {
                Ok(reader) => {
                    let name: Arc<str> = name.into();
                    let chunker = Chunker::with_target(reader, CHUNK_BYTES);
                    Box::new(chunker.map(move |c| match c {
                        Ok(chunk) => Ok((file, Arc::clone(&name), chunk)),
                        Err(e) => Err(Failure::Unreadable(name.to_string(), e)),
                    }))
                }
                Err(e) => Box::new(std::iter::once(Err(Failure::Unreadable(name, e)))),
            };
        chunks
    })
}

impl RowSource {
    fn new(inputs: Vec<Source>, settings: Settings, wanted: Wanted) -> Self {
        let size = |piece: &Piece| piece.2.bytes.len();
        RowSource {
            batches: Box::new(pdn::chunk::batched(chunks(inputs), BATCH_BYTES, size)),
            failed: None,
            numbering: Numbering::default(),
            settings,
            wanted,
        }
    }

    /// The next round: up to one batch per core.
    fn next_batches(&mut self) -> Vec<Vec<Piece>> {
        let threads = rayon::current_num_threads().max(1);
        let mut batches = Vec::new();
        while batches.len() < threads && self.failed.is_none() {
            match self.batches.next() {
                Some(Ok(batch)) => batches.push(batch),
                Some(Err(e)) => self.failed = Some(e),
                None => break,
            }
        }
        batches
    }

    /// The tables of the next round's batches, in input order and numbered for the whole
    /// run; `None` at the end. An unreadable input ends the stream once the rows before it
    /// are handed out.
    fn next_round(&mut self) -> Option<Result<Vec<[RecordBatch; 3]>, Failure>> {
        let batches = self.next_batches();
        if batches.is_empty() {
            return self.failed.take().map(Err);
        }
        let (settings, wanted) = (&self.settings, self.wanted);
        let built: Vec<_> = batches
            .par_iter()
            .map(|batch| {
                let chunks: Vec<_> = batch.iter().map(|(f, n, c)| (*f, &**n, c)).collect();
                export::tables_of_chunks(games::games(), &chunks, settings, wanted)
            })
            .collect();
        let mut round = Vec::with_capacity(built.len());
        for (batch, tables) in batches.iter().zip(built) {
            let (tables, games) = match tables {
                Ok(built) => built,
                Err(e) => return Some(Err(Failure::Tables(e))),
            };
            let files = batch.iter().map(|(file, _, _)| *file);
            let (first, continued) = self.numbering.place(files.zip(games));
            match export::renumber(tables, first, continued) {
                Ok(tables) => round.push(tables),
                Err(e) => return Some(Err(Failure::Tables(e))),
            }
        }
        Some(Ok(round))
    }
}

fn unreadable(name: &str, e: &io::Error) -> ArrowError {
    ArrowError::IoError(
        format!("{name}: cannot read: {e}"),
        io::Error::new(e.kind(), e.to_string()),
    )
}

/// One of the three tables, numbered as [`TableBatches::take`] returns them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    Games = 0,
    Plies = 1,
    Diagnostics = 2,
}

impl Table {
    const ALL: [Table; 3] = [Table::Games, Table::Plies, Table::Diagnostics];

    fn name(self) -> &'static str {
        ["games", "plies", "diagnostics"][self as usize]
    }

    fn named(name: &str) -> PyResult<Table> {
        Table::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "`{name}` is not a table (tables: games, plies, diagnostics)"
                ))
            })
    }

    /// The tables to build besides games for this one.
    fn wanted(self) -> Wanted {
        Wanted {
            plies: self == Table::Plies,
            diagnostics: self == Table::Diagnostics,
        }
    }

    /// The table's Arrow schema, as `arbiter export [--positions]` writes it.
    fn schema(self, positions: bool) -> PyResult<SchemaRef> {
        let empty = TableBatches::new(positions).take().map_err(arrow)?;
        Ok(empty[self as usize].schema())
    }
}

fn arrow(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The batches of one table, `batch_size` rows at most each.
struct OneTable {
    source: RowSource,
    table: Table,
    batch_size: usize,
    ready: VecDeque<RecordBatch>,
    done: bool,
}

impl OneTable {
    fn fill(&mut self) -> Result<(), ArrowError> {
        while self.ready.is_empty() && !self.done {
            match self.source.next_round() {
                None => self.done = true,
                Some(Err(e)) => {
                    self.done = true;
                    return Err(e.arrow());
                }
                Some(Ok(round)) => {
                    for tables in round {
                        let batch = &tables[self.table as usize];
                        let mut at = 0;
                        while at < batch.num_rows() {
                            let n = self.batch_size.min(batch.num_rows() - at);
                            self.ready.push_back(batch.slice(at, n));
                            at += n;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl Iterator for OneTable {
    type Item = Result<RecordBatch, ArrowError>;
    fn next(&mut self) -> Option<Self::Item> {
        if let Err(e) = self.fill() {
            return Some(Err(e));
        }
        self.ready.pop_front().map(Ok)
    }
}

fn stream(
    source: RowSource,
    table: Table,
    batch_size: usize,
    positions: bool,
) -> PyResult<ArrowStream> {
    if batch_size == 0 {
        return Err(PyValueError::new_err("batch_size must be at least 1"));
    }
    let schema = table.schema(positions)?;
    let batches = OneTable {
        source,
        table,
        batch_size,
        ready: VecDeque::new(),
        done: false,
    };
    let reader = BatchReader { schema, batches };
    Ok(ArrowStream::new(Box::new(reader)))
}

/// The rows of `inputs`, replayed with the settings of `arbiter export [--positions]`; the
/// games table and the `wanted` others are built.
fn source(
    inputs: Vec<Source>,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
    positions: bool,
    wanted: Wanted,
) -> PyResult<RowSource> {
    let mut settings = crate::settings(game, default_game, rules)?;
    settings.positions = positions;
    Ok(RowSource::new(inputs, settings, wanted))
}

/// A stream of one table of `arbiter export` over the records at `paths`.
#[pyfunction]
#[pyo3(signature = (paths, table, batch_size, game=None, default_game=None, rules=None, positions=false))]
#[allow(clippy::too_many_arguments)]
pub fn record_batches(
    paths: Vec<PathBuf>,
    table: &str,
    batch_size: usize,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
    positions: bool,
) -> PyResult<ArrowStream> {
    let table = Table::named(table)?;
    let inputs = crate::collect(&paths)?;
    let source = source(inputs, game, default_game, rules, positions, table.wanted())?;
    stream(source, table, batch_size, positions)
}

/// Like [`record_batches`], over PDN texts held in memory, each named by `names`.
#[pyfunction]
#[pyo3(signature = (texts, names, table, batch_size, game=None, default_game=None, rules=None, positions=false))]
#[allow(clippy::too_many_arguments)]
pub fn text_batches(
    texts: Vec<String>,
    names: Vec<String>,
    table: &str,
    batch_size: usize,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
    positions: bool,
) -> PyResult<ArrowStream> {
    let table = Table::named(table)?;
    let inputs = texts
        .into_iter()
        .zip(names)
        .map(|(text, name)| Source::Text { name, text })
        .collect();
    let source = source(inputs, game, default_game, rules, positions, table.wanted())?;
    stream(source, table, batch_size, positions)
}

/// The three tables in one pass, as streams over batches held in memory.
#[pyfunction]
#[pyo3(signature = (paths, game=None, default_game=None, rules=None, positions=false))]
pub fn read_tables<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
    positions: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let inputs = crate::collect(&paths)?;
    let all = Wanted {
        plies: true,
        diagnostics: true,
    };
    let mut source = source(inputs, game, default_game, rules, positions, all)?;
    let tables = py.detach(|| -> PyResult<Vec<Vec<RecordBatch>>> {
        let mut out = vec![Vec::new(), Vec::new(), Vec::new()];
        while let Some(round) = source.next_round() {
            Python::attach(|py| py.check_signals())?;
            for tables in round.map_err(Failure::py)? {
                for (i, batch) in tables.into_iter().enumerate() {
                    if batch.num_rows() > 0 {
                        out[i].push(batch);
                    }
                }
            }
        }
        Ok(out)
    })?;
    let dict = PyDict::new(py);
    for (table, batches) in Table::ALL.into_iter().zip(tables) {
        let stream = ArrowStream::from_batches(table.schema(positions)?, batches);
        dict.set_item(table.name(), Py::new(py, stream)?)?;
    }
    Ok(dict)
}

/// The schema of a table (`positions`: with `fen_after`), as an empty stream.
#[pyfunction]
#[pyo3(signature = (table, positions=false))]
pub fn schema(table: &str, positions: bool) -> PyResult<ArrowStream> {
    let table = Table::named(table)?;
    Ok(ArrowStream::from_batches(
        table.schema(positions)?,
        Vec::new(),
    ))
}
