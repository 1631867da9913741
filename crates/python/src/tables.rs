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
use export::convert::{rows_of_chunk, GameRows};
use export::{Batches, TableKind};
use pdn::chunk::{Chunk, Chunker};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use referee::Settings;

use crate::default_game::WithDefault;
use crate::inputs::{self, Input};
use crate::stream::{ArrowStream, Batches as BatchReader};

/// Bytes per chunk: small enough that a round of chunks' rows stays well under the memory
/// bound (a megabyte of draughts records is about 100,000 plies).
const CHUNK_BYTES: usize = 1 << 20;

/// An input that cannot be read: its name and the error.
type Unreadable = (String, io::Error);

/// The rows of every game of every input, a round of chunks at a time.
struct RowSource {
    inputs: Vec<Input>,
    next_input: usize,
    current: Option<(String, Chunker<Box<dyn Read + Send>>)>,
    /// Games of the current input so far (for `index`).
    index: u64,
    settings: Settings,
    default: Option<&'static game::GameInfo>,
}

impl RowSource {
    fn new(
        inputs: Vec<Input>,
        settings: Settings,
        default: Option<&'static game::GameInfo>,
    ) -> Self {
        RowSource {
            inputs,
            next_input: 0,
            current: None,
            index: 0,
            settings,
            default,
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
                match input.open() {
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
        let (settings, default) = (&self.settings, self.default);
        let per_chunk: Vec<Vec<GameRows>> = chunks
            .par_iter()
            .map(|chunk| rows_with_default(&name, chunk, settings, default))
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

/// The rows of a chunk, with `default` as the game of records whose tags name none.
fn rows_with_default(
    file: &str,
    chunk: &Chunk,
    settings: &Settings,
    default: Option<&'static game::GameInfo>,
) -> Vec<GameRows> {
    if default.is_none() {
        return rows_of_chunk(games::games(), file, chunk, settings);
    }
    let recorder = export::Recorder::new(games::games(), settings.clone());
    let mut visitor = WithDefault::new(recorder, default);
    let mut reader = chunk.reader();
    let mut out = Vec::new();
    while let Ok(Some(mut rec)) = reader.read_game(&mut visitor) {
        if visitor.injected {
            // The tag handed to the referee is not the record's: keep it out of the row.
            rec.tags.pop();
        }
        let offset = chunk.absolute_offset(rec.offset);
        let game = export::convert::game_row(file, out.len() as u64 + 1, offset, &rec);
        let plies = export::convert::ply_rows(&rec);
        let diags =
            export::convert::diagnostic_rows(file, &rec, |b| chunk.absolute(reader.locate(b)));
        out.push((game, plies, diags));
    }
    out
}

fn unreadable(name: &str, e: &io::Error) -> ArrowError {
    ArrowError::IoError(
        format!("{name}: cannot read: {e}"),
        io::Error::new(e.kind(), e.to_string()),
    )
}

/// The batches of one table, `batch_size` rows at most each.
struct TableBatches {
    source: RowSource,
    table: TableKind,
    batch_size: usize,
    batches: Batches,
    ready: VecDeque<RecordBatch>,
    done: bool,
}

impl TableBatches {
    /// Moves the rows of the wanted table into `ready` when there are `batch_size` of them
    /// (all of them with `flush`); the other tables' rows are dropped.
    fn cut(&mut self, flush: bool) -> Result<(), ArrowError> {
        let pending = self.batches.pending();
        let rows = match self.table {
            TableKind::Games => pending.games,
            TableKind::Plies => pending.plies,
            TableKind::Diagnostics => pending.diagnostics,
        } as usize;
        if self.table != TableKind::Games && pending.games as usize >= self.batch_size {
            self.batches.take(TableKind::Games)?;
        }
        if rows == 0 || (!flush && rows < self.batch_size) {
            return Ok(());
        }
        let batch = self.batches.take(self.table)?;
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
                        let plies = if self.table == TableKind::Plies {
                            &plies[..]
                        } else {
                            &[]
                        };
                        let diags = if self.table == TableKind::Diagnostics {
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

impl Iterator for TableBatches {
    type Item = Result<RecordBatch, ArrowError>;
    fn next(&mut self) -> Option<Self::Item> {
        if let Err(e) = self.fill() {
            return Some(Err(e));
        }
        self.ready.pop_front().map(Ok)
    }
}

fn table_named(name: &str) -> PyResult<TableKind> {
    TableKind::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "`{name}` is not a table (tables: games, plies, diagnostics)"
        ))
    })
}

fn stream(source: RowSource, table: TableKind, batch_size: usize) -> PyResult<ArrowStream> {
    if batch_size == 0 {
        return Err(PyValueError::new_err("batch_size must be at least 1"));
    }
    let batches = TableBatches {
        source,
        table,
        batch_size,
        batches: Batches::new(),
        ready: VecDeque::new(),
        done: false,
    };
    let reader = BatchReader {
        schema: table.schema(),
        batches,
    };
    Ok(ArrowStream::new(Box::new(reader)))
}

fn source(
    inputs: Vec<Input>,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<RowSource> {
    let settings = crate::settings(game, rules)?;
    let default = default_game.map(crate::game_named).transpose()?;
    Ok(RowSource::new(inputs, settings, default))
}

/// A stream of one table of `arbiter export` over the records at `paths`.
#[pyfunction]
#[pyo3(signature = (paths, table, batch_size, game=None, default_game=None, rules=None))]
pub fn record_batches(
    paths: Vec<PathBuf>,
    table: &str,
    batch_size: usize,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<ArrowStream> {
    let table = table_named(table)?;
    let inputs = inputs::collect(&paths).map_err(|(name, e)| crate::io_error(&name, &e))?;
    stream(
        source(inputs, game, default_game, rules)?,
        table,
        batch_size,
    )
}

/// Like [`record_batches`], over PDN texts held in memory, each named by `names`.
#[pyfunction]
#[pyo3(signature = (texts, names, table, batch_size, game=None, default_game=None, rules=None))]
#[allow(clippy::too_many_arguments)]
pub fn text_batches(
    texts: Vec<String>,
    names: Vec<String>,
    table: &str,
    batch_size: usize,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<ArrowStream> {
    let table = table_named(table)?;
    let inputs = texts
        .into_iter()
        .zip(names)
        .map(|(text, name)| Input::Text { name, text })
        .collect();
    stream(
        source(inputs, game, default_game, rules)?,
        table,
        batch_size,
    )
}

/// The three tables in one pass, as streams over batches held in memory.
#[pyfunction]
#[pyo3(signature = (paths, game=None, default_game=None, rules=None))]
pub fn read_tables<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let inputs = inputs::collect(&paths).map_err(|(name, e)| crate::io_error(&name, &e))?;
    let mut source = source(inputs, game, default_game, rules)?;
    let tables = py.detach(|| -> PyResult<Vec<Vec<RecordBatch>>> {
        let mut batches = Batches::new();
        let mut out = vec![Vec::new(), Vec::new(), Vec::new()];
        let arrow = |e: ArrowError| PyValueError::new_err(e.to_string());
        while let Some(round) = source.next_round() {
            Python::attach(|py| py.check_signals())?;
            let rows = round.map_err(|(name, e)| crate::io_error(&name, &e))?;
            for (game, plies, diags) in &rows {
                batches.push_game(game, plies, diags);
            }
            let pending = batches.pending();
            let counts = [pending.games, pending.plies, pending.diagnostics];
            for (i, table) in TableKind::ALL.into_iter().enumerate() {
                if counts[i] >= 1 << 16 {
                    out[i].push(batches.take(table).map_err(arrow)?);
                }
            }
        }
        for (i, table) in TableKind::ALL.into_iter().enumerate() {
            out[i].push(batches.take(table).map_err(arrow)?);
        }
        Ok(out)
    })?;
    let dict = PyDict::new(py);
    for (table, batches) in TableKind::ALL.into_iter().zip(tables) {
        let stream = ArrowStream::from_batches(table.schema(), batches);
        dict.set_item(table.name(), Py::new(py, stream)?)?;
    }
    Ok(dict)
}

/// The schema of a table, as an empty stream.
#[pyfunction]
pub fn schema(table: &str) -> PyResult<ArrowStream> {
    let table = table_named(table)?;
    Ok(ArrowStream::from_batches(table.schema(), Vec::new()))
}
