//! `arbiter.validate`: the checks of `arbiter validate`, with the diagnostics as an Arrow
//! table holding the fields of `--format json`.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::builder::{StringBuilder, UInt32Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use pdn::chunk::{batched, map_ordered, Chunk, Chunker};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use referee::{GameReport, Referee, Settings, Severity};

use crate::stream::ArrowStream;
use archive::Source;

/// Bytes per piece of work (as the CLI): one large file keeps every core busy.
pub const CHUNK_BYTES: usize = 4 << 20;
/// Pieces of work under way at once.
pub const IN_FLIGHT: usize = 8;
/// Input bytes of small files' chunks checked as one piece of work (as the CLI).
const BATCH_BYTES: usize = 1 << 20;

/// What `validate` found.
#[pyclass(module = "arbiter._arbiter", frozen)]
pub struct Report {
    /// Inputs read.
    #[pyo3(get)]
    files: u64,
    /// Games read.
    #[pyo3(get)]
    games: u64,
    /// Plies written in the main lines.
    #[pyo3(get)]
    plies: u64,
    /// Games recognised and replayed against the rules.
    #[pyo3(get)]
    replayed: u64,
    /// Games among `replayed` whose tags named no game, identified from their moves.
    #[pyo3(get)]
    identified: u64,
    /// Games whose game could not be identified (their moves were not checked).
    #[pyo3(get)]
    unchecked: u64,
    /// Diagnostics of severity error in the records (an unreadable input is in `unreadable`).
    #[pyo3(get)]
    errors: u64,
    /// Diagnostics of severity warning.
    #[pyo3(get)]
    warnings: u64,
    /// Diagnostics of severity note (e.g. how an untagged record's game was identified).
    #[pyo3(get)]
    notes: u64,
    /// Games with at least one error.
    #[pyo3(get)]
    games_with_errors: u64,
    /// Inputs that could not be read.
    #[pyo3(get)]
    unreadable: u64,
    stream: Py<ArrowStream>,
}

#[pymethods]
impl Report {
    /// The diagnostics as an Arrow stream (the package wraps it as a `pyarrow.Table`).
    #[getter]
    fn _diagnostics(&self, py: Python<'_>) -> Py<ArrowStream> {
        self.stream.clone_ref(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "Report(files={}, games={}, plies={}, errors={}, warnings={}, unchecked={})",
            self.files, self.games, self.plies, self.errors, self.warnings, self.unchecked
        )
    }
}

/// The counts and diagnostics of a run.
#[derive(Default)]
struct Run {
    files: u64,
    games: u64,
    plies: u64,
    replayed: u64,
    identified: u64,
    unchecked: u64,
    errors: u64,
    warnings: u64,
    notes: u64,
    games_with_errors: u64,
    unreadable: u64,
    rows: Rows,
}

/// Diagnostics rows in column builders.
#[derive(Default)]
struct Rows {
    file: StringBuilder,
    game: UInt64Builder,
    line: UInt64Builder,
    column: UInt64Builder,
    ply: UInt32Builder,
    move_number: UInt32Builder,
    ludii_move: UInt32Builder,
    code: StringBuilder,
    severity: StringBuilder,
    message: StringBuilder,
}

/// The schema of the diagnostics table: the fields of `arbiter validate --format json`.
pub fn diagnostics_schema() -> SchemaRef {
    let f = |name: &str, t: DataType, null: bool| Field::new(name, t, null);
    Arc::new(Schema::new(vec![
        f("file", DataType::Utf8, false),
        f("game", DataType::UInt64, true),
        f("line", DataType::UInt64, true),
        f("column", DataType::UInt64, true),
        f("ply", DataType::UInt32, true),
        f("move", DataType::UInt32, true),
        f("ludii_move", DataType::UInt32, true),
        f("code", DataType::Utf8, false),
        f("severity", DataType::Utf8, false),
        f("message", DataType::Utf8, false),
    ]))
}

impl Rows {
    fn push(&mut self, file: &str, game: u64, d: &Found) {
        self.file.append_value(file);
        self.game.append_value(game);
        self.line.append_value(d.line);
        self.column.append_value(d.column);
        self.ply.append_option(d.ply);
        self.move_number.append_option(d.move_number);
        self.ludii_move.append_null();
        self.code.append_value(&d.code);
        self.severity.append_value(d.severity);
        self.message.append_value(&d.message);
    }

    /// An input that cannot be read: a row as the CLI's JSON output gives it.
    fn push_unreadable(&mut self, file: &str, e: &io::Error) {
        self.file.append_value(file);
        for b in [&mut self.game, &mut self.line, &mut self.column] {
            b.append_null();
        }
        for b in [&mut self.ply, &mut self.move_number, &mut self.ludii_move] {
            b.append_null();
        }
        self.code.append_value("unreadable");
        self.severity.append_value("error");
        self.message.append_value(format!("cannot read: {e}"));
    }

    fn finish(mut self) -> RecordBatch {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.game.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.column.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.move_number.finish()),
            Arc::new(self.ludii_move.finish()),
            Arc::new(self.code.finish()),
            Arc::new(self.severity.finish()),
            Arc::new(self.message.finish()),
        ];
        RecordBatch::try_new(diagnostics_schema(), columns).expect("the columns follow the schema")
    }
}

/// One diagnostic with its place.
struct Found {
    game: u64,
    line: u64,
    column: u64,
    ply: Option<u32>,
    move_number: Option<u32>,
    code: String,
    severity: &'static str,
    message: String,
}

/// What checking one chunk gives.
#[derive(Default)]
struct Checked {
    games: u64,
    plies: u64,
    replayed: u64,
    identified: u64,
    unchecked: u64,
    games_with_errors: u64,
    found: Vec<Found>,
}

/// A piece of work: a chunk of input `file`, or why that input cannot be read.
enum Piece {
    Chunk(usize, Chunk),
    Failed(usize, io::Error),
}

impl Piece {
    /// The input bytes the piece holds.
    fn len(&self) -> usize {
        match self {
            Piece::Chunk(_, chunk) => chunk.bytes.len(),
            Piece::Failed(..) => 0,
        }
    }
}

fn check(piece: &Piece, referee: &mut Referee<'_>) -> Checked {
    let Piece::Chunk(_, chunk) = piece else {
        return Checked::default();
    };
    let mut out = Checked::default();
    let mut reader = chunk.reader();
    while let Ok(Some(game)) = reader.read_game(referee) {
        out.games += 1;
        count(&mut out, &game);
        let source = reader.source();
        for d in &game.diagnostics {
            let (line, column) = place(&source, d.span.start);
            out.found.push(Found {
                game: out.games,
                line: line + chunk.first_line - 1,
                column,
                ply: d.ply,
                move_number: d.move_number,
                code: d.code.as_str().to_string(),
                severity: match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Note => "note",
                },
                message: d.message.clone(),
            });
        }
    }
    out
}

fn count(out: &mut Checked, game: &GameReport) {
    out.plies += u64::from(game.plies_written);
    if game.game.is_some() {
        out.replayed += 1;
    } else if game.diagnostics.iter().any(|d| d.code == "unknown-game") {
        out.unchecked += 1;
    }
    if game.diagnostics.iter().any(|d| d.code == "game-inferred") {
        out.identified += 1;
    }
    if !game.is_clean() {
        out.games_with_errors += 1;
    }
}

/// Line and column (in decoded characters) of byte `at` in the source of the game just
/// read, as the CLI reports them.
fn place(source: &pdn::Source<'_>, at: u64) -> (u64, u64) {
    let text = source.text;
    let rel = (at.saturating_sub(source.offset) as usize).min(text.len());
    let line_start = text[..rel]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = source.line + text[..line_start].iter().filter(|&&b| b == b'\n').count() as u64;
    let prefix = pdn::decode(&text[line_start..rel]);
    let shift = if line_start == 0 {
        source.column.saturating_sub(1)
    } else {
        0
    };
    (line, prefix.chars().count() as u64 + 1 + shift)
}

/// Every chunk of every input, in order; an input that cannot be read gives one failure.
fn pieces(inputs: &[Source]) -> impl Iterator<Item = Result<Piece, io::Error>> + '_ {
    inputs.iter().enumerate().flat_map(|(file, input)| {
        let chunks: Box<dyn Iterator<Item = Piece>> =
            match input.open(games::games()).map_err(io::Error::from) {
                Ok(reader) => {
                    let mut stopped = false;
                    Box::new(
                        Chunker::with_target(reader, CHUNK_BYTES).map_while(move |c| {
                            if stopped {
                                return None;
                            }
                            Some(match c {
                                Ok(chunk) => Piece::Chunk(file, chunk),
                                // A stretch refused for its length is skipped, the games
                                // after it read; an error of the input ends it.
                                Err(e) => {
                                    stopped = pdn::chunk::refused(&e).is_none();
                                    Piece::Failed(file, e)
                                }
                            })
                        }),
                    )
                }
                Err(e) => Box::new(std::iter::once(Piece::Failed(file, e))),
            };
        chunks.map(Ok)
    })
}

/// Why a run stopped early.
enum Stop {
    Interrupted(PyErr),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Interrupted(PyKeyboardInterrupt::new_err(e.to_string()))
    }
}

/// Checks every input on every core, games in input order; stops when Python has a signal
/// pending.
fn run(inputs: &[Source], settings: &Settings) -> Result<Run, PyErr> {
    let mut total = Run::default();
    let mut current: Option<usize> = None;
    let mut games_before = 0u64;
    let result = map_ordered(
        batched(pieces(inputs), BATCH_BYTES, Piece::len).map(|r| r.map_err(Stop::from)),
        IN_FLIGHT,
        |batch: &Vec<Piece>| {
            let mut referee = Referee::new(games::games(), settings.clone());
            batch
                .iter()
                .map(|piece| (check(piece, &mut referee), piece_meta(piece)))
                .collect::<Vec<_>>()
        },
        |batch: Vec<(Checked, Meta)>| -> Result<(), Stop> {
            Python::attach(|py| py.check_signals()).map_err(Stop::Interrupted)?;
            for (checked, meta) in batch {
                let (file, failure) = meta;
                if current != Some(file) {
                    current = Some(file);
                    games_before = 0;
                    total.files += 1;
                }
                let name = inputs[file].name();
                if let Some(e) = failure {
                    // Counted apart from the records' errors, as the CLI's closing line does.
                    total.unreadable += 1;
                    total.rows.push_unreadable(&name, &e);
                }
                total.games += checked.games;
                total.plies += checked.plies;
                total.replayed += checked.replayed;
                total.identified += checked.identified;
                total.unchecked += checked.unchecked;
                total.games_with_errors += checked.games_with_errors;
                for f in &checked.found {
                    match f.severity {
                        "error" => total.errors += 1,
                        "warning" => total.warnings += 1,
                        _ => total.notes += 1,
                    }
                    total.rows.push(&name, games_before + f.game, f);
                }
                games_before += checked.games;
            }
            Ok(())
        },
    );
    match result {
        Ok(()) => Ok(total),
        Err(Stop::Interrupted(e)) => Err(e),
    }
}

/// The input of a piece and, for a failed one, its error.
type Meta = (usize, Option<io::Error>);

fn piece_meta(piece: &Piece) -> Meta {
    match piece {
        Piece::Chunk(file, _) => (*file, None),
        Piece::Failed(file, e) => (*file, Some(io::Error::new(e.kind(), e.to_string()))),
    }
}

fn report(py: Python<'_>, run: Run) -> PyResult<Report> {
    let batch = run.rows.finish();
    let stream = ArrowStream::from_batches(batch.schema(), vec![batch]);
    Ok(Report {
        files: run.files,
        games: run.games,
        plies: run.plies,
        replayed: run.replayed,
        identified: run.identified,
        unchecked: run.unchecked,
        errors: run.errors,
        warnings: run.warnings,
        notes: run.notes,
        games_with_errors: run.games_with_errors,
        unreadable: run.unreadable,
        stream: Py::new(py, stream)?,
    })
}

/// The checks of `arbiter validate PATHS [--game G] [--rules R]` (see the package's
/// `validate` for the documentation).
#[pyfunction]
#[pyo3(signature = (paths, game=None, default_game=None, rules=None))]
pub fn validate(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<Report> {
    let settings = crate::settings(game, default_game, rules)?;
    let inputs = crate::collect(&paths)?;
    let run = py.detach(|| run(&inputs, &settings))?;
    report(py, run)
}

/// Like [`validate`], over PDN texts held in memory, each named by `names` (for Spark).
#[pyfunction]
#[pyo3(signature = (texts, names, game=None, default_game=None, rules=None))]
pub fn validate_texts(
    py: Python<'_>,
    texts: Vec<String>,
    names: Vec<String>,
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<Report> {
    let settings = crate::settings(game, default_game, rules)?;
    let inputs: Vec<Source> = texts
        .into_iter()
        .zip(names)
        .map(|(text, name)| Source::Text { name, text })
        .collect();
    let run = py.detach(|| run(&inputs, &settings))?;
    report(py, run)
}
