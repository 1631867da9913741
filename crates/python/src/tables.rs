//! `arbiter.read_tables` and `arbiter.record_batches`: the tables of `arbiter export`, as
//! Arrow data with the very schema of its Parquet files (built by the export crate).
//!
//! Inputs are read in chunks; a round of chunks (one per core) is checked in parallel and
//! its rows handed out in input order, so memory holds one round of rows and the batch being
//! built, whatever the size of the input.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::path::PathBuf;

use arrow_array::RecordBatch;
use arrow_schema::ArrowError;
use arrow_schema::SchemaRef;
use export::convert::{rows_of_chunk, GameRows};
use export::{Counts, TableBatches};
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

/// An input that cannot be read: its name and the error.
type Unreadable = (String, io::Error);

/// The rows of every game of every input, a round of chunks at a time.
struct RowSource {
    inputs: Vec<Source>,
    next_input: usize,
    current: Option<(String, Chunker<Box<dyn Read + Send>>)>,
    /// Games of the current input so far (for `index`).
    index: u64,
    settings: Settings,
}

impl RowSource {
    fn new(inputs: Vec<Source>, settings: Settings) -> Self {
        RowSource {
            inputs,
            next_input: 0,
            current: None,
            index: 0,
            settings,
        }
    }

    /// The next chunks (up to one per core) of the current input, opening the next input
    /// when one ends; `None` at the end of the inputs.
    fn next_chunks(&mut self) -> Option<Result<(String, Vec<Chunk>), Unreadable>> {
        loop {
            if self.current.is_none() {
                let input = self.inputs.get(self.next_input)?;
                self.next_input += 1;
                self.index = 0;
                let name = input.name();
                match input.open(games::games()).map_err(io::Error::from) {
                    Ok(reader) => {
                        self.current = Some((name, Chunker::with_target(reader, CHUNK_BYTES)))
                    }
                    Err(e) => return Some(Err((name, e))),
                }
            }
            let (name, chunker) = self.current.as_mut()?;
            let mut chunks = Vec::new();
            for c in chunker.by_ref().take(rayon::current_num_threads().max(1)) {
                match c {
                    Ok(chunk) => chunks.push(chunk),
                    Err(e) => {
                        let name = name.clone();
                        self.current = None;
                        return Some(Err((name, e)));
                    }
                }
            }
            let name = name.clone();
            if chunks.is_empty() {
                self.current = None;
                continue;
            }
            return Some(Ok((name, chunks)));
        }
    }

    /// The rows of the next round, in input order; `None` at the end.
    fn next_round(&mut self) -> Option<Result<Vec<GameRows>, Unreadable>> {
        let (name, chunks) = match self.next_chunks()? {
            Ok(next) => next,
            Err(e) => return Some(Err(e)),
        };
        let settings = &self.settings;
        let per_chunk: Vec<Vec<GameRows>> = chunks
            .par_iter()
            .map(|chunk| rows_of_chunk(games::games(), &name, chunk, settings))
            .collect();
        let mut rows = Vec::new();
        for mut game in per_chunk.into_iter().flatten() {
            self.index += 1;
            game.0.index = self.index;
            rows.push(game);
        }
        Some(Ok(rows))
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

    fn rows(self, counts: Counts) -> u64 {
        [counts.games, counts.plies, counts.diagnostics][self as usize]
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
    batches: TableBatches,
    ready: VecDeque<RecordBatch>,
    done: bool,
}

impl OneTable {
    /// Moves the rows of the wanted table into `ready` when there are `batch_size` of them
    /// (all of them with `flush`); the other tables' rows are dropped (only `games` gets
    /// any: the game rows number the games).
    fn cut(&mut self, flush: bool) -> Result<(), ArrowError> {
        let pending = self.batches.pending();
        let rows = self.table.rows(pending) as usize;
        let games_full = pending.games as usize >= self.batch_size;
        if !(flush || rows >= self.batch_size || games_full) {
            return Ok(());
        }
        let taken = self
            .batches
            .take()
            .map_err(|e| ArrowError::ExternalError(Box::new(e)))?;
        let batch = &taken[self.table as usize];
        let mut at = 0;
        while at < batch.num_rows() {
            let n = self.batch_size.min(batch.num_rows() - at);
            self.ready.push_back(batch.slice(at, n));
            at += n;
        }
        Ok(())
    }

    fn fill(&mut self) -> Result<(), ArrowError> {
        while self.ready.is_empty() && !self.done {
            match self.source.next_round() {
                None => {
                    self.done = true;
                    self.cut(true)?;
                }
                Some(Err((name, e))) => {
                    self.done = true;
                    return Err(unreadable(&name, &e));
                }
                Some(Ok(rows)) => {
                    for (game, plies, diags) in &rows {
                        let plies = if self.table == Table::Plies {
                            &plies[..]
                        } else {
                            &[]
                        };
                        let diags = if self.table == Table::Diagnostics {
                            &diags[..]
                        } else {
                            &[]
                        };
                        self.batches.push_game(game, plies, diags);
                        self.cut(false)?;
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
        batches: TableBatches::new(positions),
        ready: VecDeque::new(),
        done: false,
    };
    let reader = BatchReader { schema, batches };
    Ok(ArrowStream::new(Box::new(reader)))
}

/// The rows of `inputs`, replayed with the settings of `arbiter export [--positions]`.
fn source(
    inputs: Vec<Source>,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
    positions: bool,
) -> PyResult<RowSource> {
    let mut settings = crate::settings(game, default_game, rules)?;
    settings.positions = positions;
    Ok(RowSource::new(inputs, settings))
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
    let source = source(inputs, game, default_game, rules, positions)?;
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
    let source = source(inputs, game, default_game, rules, positions)?;
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
    let mut source = source(inputs, game, default_game, rules, positions)?;
    let tables = py.detach(|| -> PyResult<Vec<Vec<RecordBatch>>> {
        let mut batches = TableBatches::new(positions);
        let mut out = vec![Vec::new(), Vec::new(), Vec::new()];
        while let Some(round) = source.next_round() {
            Python::attach(|py| py.check_signals())?;
            let rows = round.map_err(|(name, e)| crate::io_error(&name, &e))?;
            for (game, plies, diags) in &rows {
                batches.push_game(game, plies, diags);
            }
            let pending = batches.pending();
            if Table::ALL.iter().any(|t| t.rows(pending) >= 1 << 16) {
                for (i, batch) in batches.take().map_err(arrow)?.into_iter().enumerate() {
                    out[i].push(batch);
                }
            }
        }
        for (i, batch) in batches.take().map_err(arrow)?.into_iter().enumerate() {
            out[i].push(batch);
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
