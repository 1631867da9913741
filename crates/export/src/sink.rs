//! The streaming Parquet writer for the three tables.

use outfile::StagedFile;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Int32Builder, Int64Builder, ListBuilder, MapBuilder, StringBuilder,
    UInt32Builder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{ArrayRef, RecordBatch, UInt64Array};
use arrow_schema::{DataType, Field};
use parquet::arrow::arrow_writer::{
    compute_leaves, ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory,
};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;

use crate::convert::{each_ply, Recorded};
use crate::packed::{corrupt, Unpack};
use crate::run::Continued;
use crate::{DiagnosticRow, ExportError, GameRow, PlyRow, TAG_COLUMNS};

/// File name of the games table.
pub const GAMES_FILE: &str = "games.parquet";
/// File name of the plies table.
pub const PLIES_FILE: &str = "plies.parquet";
/// File name of the diagnostics table.
pub const DIAGNOSTICS_FILE: &str = "diagnostics.parquet";

/// How the sink writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SinkOptions {
    /// Rows per row group (at least 1): a row group is closed and written out when it holds
    /// this many rows. Default: 1,048,576 (for `games.parquet`, at most
    /// [`GAME_GROUP_ROWS`]).
    pub row_group_rows: usize,
    /// Rows gathered in memory before they are handed to the Parquet writer (at least 1).
    /// Default: 65,536.
    pub batch_rows: usize,
    /// zstd level (1 to 22). Default: 1 (on game records it compresses as well as 3, for
    /// less work).
    pub zstd_level: i32,
    /// Give `plies.parquet` its `fen_after` column (the position string after each ply).
    /// Default: no; every ply has its `position_key` either way.
    pub positions: bool,
}

/// Most rows a row group of `games.parquet` holds: a game row is wide (twenty tag columns and
/// a map of the others), so a million of them would keep over a hundred megabytes in memory
/// until the group is written.
pub const GAME_GROUP_ROWS: usize = 1 << 17;

impl SinkOptions {
    /// The options for `games.parquet`: row groups of at most [`GAME_GROUP_ROWS`] rows.
    fn for_games(self) -> SinkOptions {
        SinkOptions {
            row_group_rows: self.row_group_rows.min(GAME_GROUP_ROWS),
            ..self
        }
    }
}

impl Default for SinkOptions {
    fn default() -> Self {
        SinkOptions {
            row_group_rows: 1 << 20,
            batch_rows: 1 << 16,
            zstd_level: 1,
            positions: false,
        }
    }
}

/// Rows written to each file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Rows of `games.parquet`.
    pub games: u64,
    /// Rows of `plies.parquet`.
    pub plies: u64,
    /// Rows of `diagnostics.parquet`.
    pub diagnostics: u64,
    /// Games with at least one error (their `errors` column above 0).
    pub games_with_errors: u64,
}

/// Writes `games.parquet`, `plies.parquet` and `diagnostics.parquet` into a directory.
///
/// ```no_run
/// use export::{GameRow, ParquetSink, PlyRow};
/// let mut sink = ParquetSink::create("out").unwrap();
/// let game = GameRow { file: "a.pdn".into(), index: 1, ..GameRow::default() };
/// sink.push_game(&game, &[PlyRow { ply: 1, ..PlyRow::default() }], &[]).unwrap();
/// let counts = sink.finish().unwrap();
/// assert_eq!((counts.games, counts.plies), (1, 1));
/// ```
pub struct ParquetSink {
    games: Table<GameColumns>,
    plies: Table<PlyColumns>,
    diagnostics: Table<DiagnosticColumns>,
    next_id: u64,
    games_with_errors: u64,
    poisoned: bool,
}

impl ParquetSink {
    /// Creates the directory if needed and the three files in it, with default options.
    pub fn create(dir: impl AsRef<Path>) -> Result<Self, ExportError> {
        Self::with_options(dir, SinkOptions::default())
    }

    /// Like [`ParquetSink::create`], with options.
    pub fn with_options(dir: impl AsRef<Path>, options: SinkOptions) -> Result<Self, ExportError> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir).map_err(|source| ExportError::Io {
            context: format!("creating {}", dir.display()),
            source,
        })?;
        Self::with_paths(
            [
                dir.join(GAMES_FILE),
                dir.join(PLIES_FILE),
                dir.join(DIAGNOSTICS_FILE),
            ],
            options,
        )
    }

    /// Like [`ParquetSink::with_options`], writing the games, plies and diagnostics tables
    /// to these three paths (their folders must exist).
    pub fn with_paths(paths: [PathBuf; 3], options: SinkOptions) -> Result<Self, ExportError> {
        let [games, plies, diagnostics] = paths;
        Ok(ParquetSink {
            games: Table::create(
                &games,
                GAMES_FILE,
                options.for_games(),
                GameColumns::default(),
            )?,
            plies: Table::create(
                &plies,
                PLIES_FILE,
                options,
                PlyColumns::new(options.positions),
            )?,
            diagnostics: Table::create(
                &diagnostics,
                DIAGNOSTICS_FILE,
                options,
                DiagnosticColumns::default(),
            )?,
            next_id: 0,
            games_with_errors: 0,
            poisoned: false,
        })
    }

    /// Numbers the next game pushed `id` (and the ones after it `id + 1`, …): writers of
    /// several folders that share one numbering set it before each push.
    pub fn set_next_id(&mut self, id: u64) {
        self.next_id = id;
    }

    /// Adds one game with its main-line plies and its diagnostics; returns the `game_id` it
    /// was given.
    pub fn push_game(
        &mut self,
        game: &GameRow,
        plies: &[PlyRow],
        diagnostics: &[DiagnosticRow],
    ) -> Result<u64, ExportError> {
        if self.poisoned {
            return Err(ExportError::Poisoned);
        }
        let id = self.next_id;
        self.next_id += 1;
        self.games_with_errors += u64::from(game.errors > 0);
        self.games.cols.push(id, game);
        for p in plies {
            self.plies.cols.push(id, p);
        }
        for d in diagnostics {
            self.diagnostics.cols.push(id, d);
        }
        let r = self
            .games
            .rows_added(1)
            .and_then(|()| self.plies.rows_added(plies.len()))
            .and_then(|()| self.diagnostics.rows_added(diagnostics.len()));
        if r.is_err() {
            self.poisoned = true;
        }
        r.map(|()| id)
    }

    /// Adds the next game of `packed` (as [`crate::packed::pack_game`] wrote it) under
    /// `game_id` `id` with `index`, its plies pushed straight from the packed bytes; `game`
    /// and `diagnostics` are scratch rows, overwritten.
    pub(crate) fn push_packed(
        &mut self,
        packed: &mut Unpack<'_>,
        (id, index): (u64, u64),
        game: &mut GameRow,
        diagnostics: &mut Vec<DiagnosticRow>,
    ) -> Result<(), ExportError> {
        if self.poisoned {
            return Err(ExportError::Poisoned);
        }
        game.index = index;
        packed.game_fields(game).ok_or_else(corrupt)?;
        // From here rows are pushed: a game cut short leaves the columns uneven.
        self.poisoned = true;
        let plies = packed.u32().ok_or_else(corrupt)? as usize;
        for _ in 0..plies {
            let ply = packed.ply().ok_or_else(corrupt)?;
            self.plies.cols.push_fields(id, ply);
        }
        packed.diagnostics(diagnostics).ok_or_else(corrupt)?;
        self.games.cols.push(id, game);
        for d in diagnostics.iter() {
            self.diagnostics.cols.push(id, d);
        }
        self.next_id = id + 1;
        self.games_with_errors += u64::from(game.errors > 0);
        self.games
            .rows_added(1)
            .and_then(|()| self.plies.rows_added(plies))
            .and_then(|()| self.diagnostics.rows_added(diagnostics.len()))?;
        self.poisoned = false;
        Ok(())
    }

    /// What a worker thread needs to encode plies for this sink ([`PlyEncoder`]).
    pub fn ply_encoding(&self) -> PlyEncoding {
        PlyEncoding {
            factory: Arc::clone(&self.plies.factory),
            batch_rows: self.plies.batch_rows,
            group_rows: self.plies.group_rows,
            positions: self.plies.cols.positions,
        }
    }

    /// Adds a run of games as [`EncodedGames`] with their diagnostics (each with the number
    /// of its game in the run), and their plies as a [`PlyEncoder`] encoded them (game `i`
    /// of the encoder is game `i` of the run); the games that `continued` names continue an
    /// input of which `continued.before` games came earlier, and have that added to their
    /// `index`. Returns the `game_id` of the first game. The files hold the same rows as
    /// [`ParquetSink::push_game`] would write.
    pub fn push_encoded(
        &mut self,
        games: EncodedGames,
        continued: Continued,
        diagnostics: &[(u32, DiagnosticRow)],
        plies: EncodedPlies,
    ) -> Result<u64, ExportError> {
        if self.poisoned {
            return Err(ExportError::Poisoned);
        }
        let first = self.next_id;
        let r = self.push_encoded_inner(games, continued, diagnostics, plies);
        if r.is_err() {
            self.poisoned = true;
        }
        r.map(|()| first)
    }

    fn push_encoded_inner(
        &mut self,
        mut games: EncodedGames,
        continued: Continued,
        diagnostics: &[(u32, DiagnosticRow)],
        plies: EncodedPlies,
    ) -> Result<(), ExportError> {
        let first = self.next_id;
        let n = games.rows as u64;
        if diagnostics.iter().any(|&(g, _)| u64::from(g) >= n) {
            return Err(ExportError::Parquet {
                file: DIAGNOSTICS_FILE,
                source: ParquetError::General("diagnostics of a game not pushed".into()),
            });
        }
        // Rows pushed earlier go first, so the games stay in order.
        self.games.write_pending()?;
        let batch = games
            .cols
            .batch()
            .and_then(|b| shift_columns(b, &[("game_id", first, n as usize)]))
            .and_then(|b| {
                let index = ("index_in_file", continued.before, continued.games);
                shift_columns(b, &[index])
            })
            .map_err(|source| ExportError::Arrow {
                file: GAMES_FILE,
                source,
            })?;
        self.games.total += n;
        self.games_with_errors += games.with_errors;
        self.games.write_batch(batch)?;
        self.next_id += n;
        for (g, d) in diagnostics {
            self.diagnostics.cols.push(first + u64::from(*g), d);
            self.diagnostics.rows_added(1)?;
        }
        // Rows pushed earlier go first, so the plies stay in game order.
        self.plies.write_pending()?;
        self.plies.close_group()?;
        for group in plies.groups {
            if group.runs.iter().any(|&(g, _)| u64::from(g) >= n) {
                return Err(ExportError::Parquet {
                    file: PLIES_FILE,
                    source: ParquetError::General("plies of a game not pushed".into()),
                });
            }
            self.plies.append_with_game_ids(first, group)?;
        }
        Ok(())
    }

    /// Rows pushed so far.
    pub fn counts(&self) -> Counts {
        Counts {
            games: self.games.total,
            plies: self.plies.total,
            diagnostics: self.diagnostics.total,
            games_with_errors: self.games_with_errors,
        }
    }

    /// Writes the rows pushed so far out as a row group of each file (none for a file with
    /// no rows waiting), so that the sink holds no rows and no open column writers.
    pub(crate) fn end_row_groups(&mut self) -> Result<(), ExportError> {
        if self.poisoned {
            return Err(ExportError::Poisoned);
        }
        let r = self
            .games
            .end_group()
            .and_then(|()| self.plies.end_group())
            .and_then(|()| self.diagnostics.end_group());
        if r.is_err() {
            self.poisoned = true;
        }
        r
    }

    /// Writes what is left and closes the files.
    pub fn finish(mut self) -> Result<Counts, ExportError> {
        if self.poisoned {
            return Err(ExportError::Poisoned);
        }
        let counts = self.counts();
        self.games.close()?;
        self.plies.close()?;
        self.diagnostics.close()?;
        Ok(counts)
    }
}

/// The rows of the three tables as Arrow record batches, with exactly the schemas of the
/// Parquet files (the sink builds its batches with the same builders). For programs that
/// want the tables in memory (a Python binding handing them to pyarrow) instead of files.
pub struct TableBatches {
    games: GameColumns,
    plies: PlyColumns,
    diagnostics: DiagnosticColumns,
    next_id: u64,
    pending: Counts,
}

impl TableBatches {
    /// Empty tables; `positions` gives the plies their `fen_after` column.
    pub fn new(positions: bool) -> Self {
        TableBatches {
            games: GameColumns::default(),
            plies: PlyColumns::new(positions),
            diagnostics: DiagnosticColumns::default(),
            next_id: 0,
            pending: Counts::default(),
        }
    }

    /// Adds a game with its plies and diagnostics; returns its `game_id` (0, 1, 2, …).
    pub fn push_game(&mut self, game: &GameRow, plies: &[PlyRow], diags: &[DiagnosticRow]) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.games.push(id, game);
        for p in plies {
            self.plies.push(id, p);
        }
        for d in diags {
            self.diagnostics.push(id, d);
        }
        self.pending.games += 1;
        self.pending.games_with_errors += u64::from(game.errors > 0);
        self.pending.plies += plies.len() as u64;
        self.pending.diagnostics += diags.len() as u64;
        id
    }

    /// Adds a recorded game with its diagnostics, its plies (only with `plies`) straight from
    /// the referee's detail records; returns its `game_id`.
    pub fn push_recorded(
        &mut self,
        game: &GameRow,
        rec: &Recorded,
        diags: &[DiagnosticRow],
        plies: bool,
    ) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.games.push(id, game);
        if plies {
            let (cols, pending) = (&mut self.plies, &mut self.pending);
            each_ply(rec, |p| {
                cols.push_fields(id, p);
                pending.plies += 1;
            });
        }
        for d in diags {
            self.diagnostics.push(id, d);
        }
        self.pending.games += 1;
        self.pending.games_with_errors += u64::from(game.errors > 0);
        self.pending.diagnostics += diags.len() as u64;
        id
    }

    /// Rows gathered since the last [`TableBatches::take`], per table (a caller streaming
    /// batches of a bounded size decides from these when to take).
    pub fn pending(&self) -> Counts {
        self.pending
    }

    /// The rows gathered since the last call as three batches (games, plies, diagnostics);
    /// the builders are left empty and `game_id` goes on counting.
    pub fn take(&mut self) -> Result<[RecordBatch; 3], ExportError> {
        let arrow = |file| move |source| ExportError::Arrow { file, source };
        self.pending = Counts::default();
        Ok([
            self.games.batch().map_err(arrow(GAMES_FILE))?,
            self.plies.batch().map_err(arrow(PLIES_FILE))?,
            self.diagnostics.batch().map_err(arrow(DIAGNOSTICS_FILE))?,
        ])
    }
}

/// Column builders of one table.
pub(crate) trait Columns {
    type Row;
    fn push(&mut self, game_id: u64, row: &Self::Row);
    /// The rows gathered so far as a batch; the builders are left empty.
    fn batch(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError>;
}

/// The writer properties shared by the three files.
fn writer_properties(options: SinkOptions) -> Result<WriterProperties, ParquetError> {
    let level = ZstdLevel::try_new(options.zstd_level)?;
    // The position after a ply is nearly always new, and so is its key: a dictionary would
    // only be built to be thrown away (for the keys it also made the file 5% larger). The
    // other columns repeat a few values and keep their dictionaries.
    // The per-page minimum and maximum of the plies' text columns would cost string
    // comparisons on every row and help no query (every row group holds both seats and the
    // whole range of squares), so they are not kept.
    let fen = ColumnPath::from("fen_after");
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(level))
        .set_max_row_group_row_count(Some(options.row_group_rows.max(1)))
        .set_column_dictionary_enabled(fen, false)
        .set_column_dictionary_enabled("position_key".into(), false)
        .set_column_dictionary_enabled("start_key".into(), false);
    for column in ["fen_after", "notation", "from_square", "to_square", "mover"] {
        props = props.set_column_statistics_enabled(column.into(), EnabledStatistics::None);
    }
    Ok(props.build())
}

/// Writes the columns of `batch` into the column writers of a row group (one writer per leaf
/// column, in schema order), leaving out the first `skip` top-level columns.
fn encode_batch(
    batch: &RecordBatch,
    skip: usize,
    writers: &mut [ArrowColumnWriter],
) -> Result<(), ParquetError> {
    let mut writers = writers.iter_mut();
    let schema = batch.schema();
    for (field, column) in schema.fields().iter().zip(batch.columns()).skip(skip) {
        for leaf in compute_leaves(field, column)? {
            let writer = writers
                .next()
                .ok_or_else(|| ParquetError::General("more leaves than writers".into()))?;
            writer.write(&leaf)?;
        }
    }
    Ok(())
}

/// Closes the column writers of a row group.
fn close_writers(writers: Vec<ArrowColumnWriter>) -> Result<Vec<ArrowColumnChunk>, ParquetError> {
    writers.into_iter().map(ArrowColumnWriter::close).collect()
}

/// One output file.
///
/// Rows pushed one by one are gathered in the builders, encoded `batch_rows` at a time into
/// the row group being built, which is written out when it holds `row_group_rows` rows.
/// Row groups encoded elsewhere ([`EncodedPlies`]) are appended whole, after the rows pushed
/// before them, so the file keeps the order rows came in.
pub(crate) struct Table<C> {
    file: &'static str,
    writer: Option<SerializedFileWriter<StagedFile>>,
    factory: Arc<ArrowRowGroupWriterFactory>,
    pub(crate) cols: C,
    pending: usize,
    /// Column writers of the row group being built from pushed rows, and its rows so far.
    group: Option<(Vec<ArrowColumnWriter>, usize)>,
    batch_rows: usize,
    group_rows: usize,
    pub(crate) total: u64,
}

impl<C: Columns> Table<C> {
    pub(crate) fn create(
        path: &Path,
        file: &'static str,
        options: SinkOptions,
        mut cols: C,
    ) -> Result<Self, ExportError> {
        // Through outfile: its errors name the file as it will be once committed (not its
        // staging folder), and its test hook can make the writes fail as a full disk would.
        let out = StagedFile::create(path).map_err(|source| ExportError::Io {
            context: "creating the table".to_string(),
            source,
        })?;
        let parquet = |source| ExportError::Parquet { file, source };
        let props = writer_properties(options).map_err(parquet)?;
        let schema = cols
            .batch()
            .map_err(|source| ExportError::Arrow { file, source })?
            .schema();
        // The Arrow writer records the Arrow schema in the file's metadata; its lower-level
        // parts let row groups be encoded on other threads.
        let (writer, factory) = ArrowWriter::try_new(out, schema, Some(props))
            .and_then(ArrowWriter::into_serialized_writer)
            .map_err(parquet)?;
        Ok(Table {
            file,
            writer: Some(writer),
            factory: Arc::new(factory),
            cols,
            pending: 0,
            group: None,
            batch_rows: options.batch_rows.max(1),
            group_rows: options.row_group_rows.max(1),
            total: 0,
        })
    }

    fn parquet(&self) -> impl Fn(ParquetError) -> ExportError {
        let file = self.file;
        move |source| ExportError::Parquet { file, source }
    }

    pub(crate) fn rows_added(&mut self, n: usize) -> Result<(), ExportError> {
        self.pending += n;
        self.total += n as u64;
        if self.pending >= self.batch_rows {
            self.write_pending()?;
        }
        Ok(())
    }

    /// Encodes the rows in the builders into the row group being built, closing it (and
    /// starting another) each time it is full.
    fn write_pending(&mut self) -> Result<(), ExportError> {
        if self.pending == 0 {
            return Ok(());
        }
        let file = self.file;
        let batch = self
            .cols
            .batch()
            .map_err(|source| ExportError::Arrow { file, source })?;
        self.pending = 0;
        self.write_batch(batch)
    }

    /// Encodes a batch of rows (with the table's schema) into the row group being built,
    /// closing it (and starting another) each time it is full. The rows are counted by the
    /// caller.
    fn write_batch(&mut self, batch: RecordBatch) -> Result<(), ExportError> {
        let mut done = 0;
        while done < batch.num_rows() {
            let (mut writers, rows) = match self.group.take() {
                Some(group) => group,
                None => (
                    self.factory
                        .create_column_writers(0)
                        .map_err(self.parquet())?,
                    0,
                ),
            };
            let n = (self.group_rows - rows).min(batch.num_rows() - done);
            encode_batch(&batch.slice(done, n), 0, &mut writers).map_err(self.parquet())?;
            done += n;
            self.group = Some((writers, rows + n));
            if rows + n >= self.group_rows {
                self.close_group()?;
            }
        }
        Ok(())
    }

    /// Writes out the row group being built from pushed rows, if any.
    fn close_group(&mut self) -> Result<(), ExportError> {
        let Some((writers, _)) = self.group.take() else {
            return Ok(());
        };
        let chunks = close_writers(writers).map_err(self.parquet())?;
        self.append_group(chunks)
    }

    /// Writes one row group from its encoded column chunks (one per leaf, in schema order).
    fn append_group(&mut self, chunks: Vec<ArrowColumnChunk>) -> Result<(), ExportError> {
        let parquet = self.parquet();
        let writer = self.writer.as_mut().ok_or(ExportError::Poisoned)?;
        let mut group = writer.next_row_group().map_err(&parquet)?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut group).map_err(&parquet)?;
        }
        group.close().map_err(&parquet)?;
        Ok(())
    }

    /// Writes a row group encoded by a [`PlyEncoder`], with its `game_id` column: the
    /// encoder's game numbers plus `first`.
    fn append_with_game_ids(&mut self, first: u64, group: EncodedGroup) -> Result<(), ExportError> {
        let ids: ArrayRef =
            Arc::new(UInt64Array::from_iter_values(group.runs.iter().flat_map(
                |&(g, n)| std::iter::repeat_n(first + u64::from(g), n as usize),
            )));
        let mut writers = self
            .factory
            .create_column_writers(0)
            .map_err(self.parquet())?;
        writers.truncate(1);
        let mut id_writer = writers
            .pop()
            .ok_or_else(|| ParquetError::General("no column writer for game_id".into()))
            .map_err(self.parquet())?;
        let field = Field::new("game_id", DataType::UInt64, true);
        for leaf in compute_leaves(&field, &ids).map_err(self.parquet())? {
            id_writer.write(&leaf).map_err(self.parquet())?;
        }
        let mut chunks = vec![id_writer.close().map_err(self.parquet())?];
        chunks.extend(group.chunks);
        self.total += group.rows as u64;
        self.append_group(chunks)
    }

    /// Writes the rows waiting and the row group being built.
    fn end_group(&mut self) -> Result<(), ExportError> {
        self.write_pending()?;
        self.close_group()
    }

    pub(crate) fn close(&mut self) -> Result<(), ExportError> {
        self.write_pending()?;
        self.close_group()?;
        if let Some(w) = self.writer.take() {
            w.close().map_err(self.parquet())?;
        }
        Ok(())
    }
}

/// Games rows gathered on a worker thread as Arrow columns, for
/// [`ParquetSink::push_encoded`]: a game costs the bytes of its values, not a [`GameRow`] of
/// twenty optional strings, so a chunk of many small games stays small until it is written.
/// Game `i` (from 0, in push order) is given its `game_id` by the sink.
#[derive(Default)]
pub struct EncodedGames {
    cols: GameColumns,
    rows: usize,
    with_errors: u64,
}

impl EncodedGames {
    /// Adds a game; its `index` is shifted by [`ParquetSink::push_encoded`] if it continues
    /// an input.
    pub fn push(&mut self, game: &GameRow) {
        self.cols.push(self.rows as u64, game);
        self.rows += 1;
        self.with_errors += u64::from(game.errors > 0);
    }

    /// Games added.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no game was added.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }
}

/// The batch with `amount` added to the first `rows` values of each named `UInt64` column.
pub(crate) fn shift_columns(
    batch: RecordBatch,
    shifts: &[(&str, u64, usize)],
) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let schema = batch.schema();
    let mut columns = batch.columns().to_vec();
    for &(name, amount, rows) in shifts {
        if amount == 0 || rows == 0 {
            continue;
        }
        let i = schema.index_of(name)?;
        let values = columns[i].as_primitive::<UInt64Type>();
        let shifted: ArrayRef = Arc::new(UInt64Array::from_iter_values(
            values
                .values()
                .iter()
                .enumerate()
                .map(|(row, v)| if row < rows { v + amount } else { *v }),
        ));
        columns[i] = shifted;
    }
    RecordBatch::try_new(schema, columns)
}

/// Most plies a [`PlyEncoder`] gathers before encoding them: small enough for the builders
/// to stay in the processor's cache.
const ENCODER_BATCH_ROWS: usize = 8192;

/// What a [`PlyEncoder`] needs from the sink: shared by the worker threads.
#[derive(Debug, Clone)]
pub struct PlyEncoding {
    factory: Arc<ArrowRowGroupWriterFactory>,
    batch_rows: usize,
    group_rows: usize,
    positions: bool,
}

impl PlyEncoding {
    /// A new encoder for one run of games (typically one chunk of the input).
    pub fn encoder(&self) -> PlyEncoder {
        PlyEncoder {
            setup: self.clone(),
            cols: PlyColumns::new(self.positions),
            pending: 0,
            group: None,
            done: Vec::new(),
            error: None,
        }
    }
}

/// Encodes the plies of a run of games into Parquet row groups on the calling thread, so
/// that the sink only has to add the `game_id` column and write bytes
/// ([`ParquetSink::push_encoded`]). Rows are encoded `batch_rows` at a time; a row group
/// holds at most `row_group_rows` rows, like the ones the sink builds itself.
pub struct PlyEncoder {
    setup: PlyEncoding,
    cols: PlyColumns,
    pending: usize,
    group: Option<OpenGroup>,
    done: Vec<EncodedGroup>,
    error: Option<ParquetError>,
}

/// A row group being encoded: writers of every column but `game_id`.
struct OpenGroup {
    writers: Vec<ArrowColumnWriter>,
    runs: Vec<(u32, u32)>,
    rows: usize,
}

/// Plies encoded by a [`PlyEncoder`], ready for [`ParquetSink::push_encoded`].
#[derive(Default)]
pub struct EncodedPlies {
    groups: Vec<EncodedGroup>,
}

impl EncodedPlies {
    /// Plies encoded.
    pub fn rows(&self) -> usize {
        self.groups.iter().map(|g| g.rows).sum()
    }
}

/// One encoded row group of plies, without its `game_id` column.
struct EncodedGroup {
    /// Runs of rows of one game: (game number within the encoder, rows).
    runs: Vec<(u32, u32)>,
    chunks: Vec<ArrowColumnChunk>,
    rows: usize,
}

impl PlyEncoder {
    /// Adds one ply of game `game` (numbered from 0 within this encoder, in push order).
    pub(crate) fn push<'a>(
        &mut self,
        game: u32,
        ply: PlyFields<'a, impl Iterator<Item = &'a str>>,
    ) {
        self.cols.push_fields(u64::from(game), ply);
        self.pending += 1;
        if self.pending >= self.setup.batch_rows.min(ENCODER_BATCH_ROWS) {
            self.encode_pending();
        }
    }

    /// The encoded row groups, or the first error met.
    pub fn finish(mut self) -> Result<EncodedPlies, ExportError> {
        self.encode_pending();
        self.close_group();
        match self.error {
            Some(source) => Err(ExportError::Parquet {
                file: PLIES_FILE,
                source,
            }),
            None => Ok(EncodedPlies { groups: self.done }),
        }
    }

    fn encode_pending(&mut self) {
        if self.pending == 0 || self.error.is_some() {
            return;
        }
        self.pending = 0;
        if let Err(e) = self.try_encode_pending() {
            self.error = Some(e);
        }
    }

    fn try_encode_pending(&mut self) -> Result<(), ParquetError> {
        let batch = self.cols.batch()?;
        self.cols = PlyColumns::with_capacity(
            self.setup.batch_rows.min(ENCODER_BATCH_ROWS),
            self.setup.positions,
        );
        let games = batch.column(0).as_primitive::<UInt64Type>().clone();
        let mut done = 0;
        while done < batch.num_rows() {
            let mut group = match self.group.take() {
                Some(group) => group,
                None => {
                    let mut writers = self.setup.factory.create_column_writers(0)?;
                    writers.remove(0); // game_id: the sink writes it
                    OpenGroup {
                        writers,
                        runs: Vec::new(),
                        rows: 0,
                    }
                }
            };
            let n = (self.setup.group_rows - group.rows).min(batch.num_rows() - done);
            encode_batch(&batch.slice(done, n), 1, &mut group.writers)?;
            for &g in &games.values()[done..done + n] {
                let g = g as u32;
                match group.runs.last_mut() {
                    Some((last, count)) if *last == g => *count += 1,
                    _ => group.runs.push((g, 1)),
                }
            }
            group.rows += n;
            done += n;
            let full = group.rows >= self.setup.group_rows;
            self.group = Some(group);
            if full {
                self.close_group();
            }
        }
        Ok(())
    }

    fn close_group(&mut self) {
        let Some(group) = self.group.take() else {
            return;
        };
        if self.error.is_some() {
            return;
        }
        match close_writers(group.writers) {
            Ok(chunks) => self.done.push(EncodedGroup {
                runs: group.runs,
                chunks,
                rows: group.rows,
            }),
            Err(e) => self.error = Some(e),
        }
    }
}

/// A batch whose fields are all declared nullable, so every batch of a table has the same
/// schema whatever nulls it holds.
pub(crate) fn batch(
    columns: Vec<(&str, ArrayRef)>,
) -> Result<RecordBatch, arrow_schema::ArrowError> {
    RecordBatch::try_from_iter_with_nullable(columns.into_iter().map(|(n, a)| (n, a, true)))
}

pub(crate) fn list_of_strings() -> ListBuilder<StringBuilder> {
    ListBuilder::new(StringBuilder::new())
}

/// A position key as the tables store it: a signed 64-bit integer with the key's bits
/// (Parquet, DuckDB and Spark have no unsigned 64-bit type that all of them read alike).
pub fn key_bits(key: u64) -> i64 {
    key as i64
}

fn opt_str(b: &mut StringBuilder, v: Option<&str>) {
    b.append_option(v);
}

/// Builders of `games.parquet`.
struct GameColumns {
    game_id: UInt64Builder,
    file: StringBuilder,
    offset: UInt64Builder,
    index: UInt64Builder,
    variant: StringBuilder,
    tags: Vec<StringBuilder>,
    other_tags: MapBuilder<StringBuilder, StringBuilder>,
    recorded_result: StringBuilder,
    rules_result: StringBuilder,
    plies_written: UInt32Builder,
    plies_replayed: UInt32Builder,
    errors: UInt32Builder,
    warnings: UInt32Builder,
    first_error_code: StringBuilder,
    first_error_ply: UInt32Builder,
    opening: StringBuilder,
    start_key: Int64Builder,
}

impl Default for GameColumns {
    fn default() -> Self {
        GameColumns {
            game_id: UInt64Builder::new(),
            file: StringBuilder::new(),
            offset: UInt64Builder::new(),
            index: UInt64Builder::new(),
            variant: StringBuilder::new(),
            tags: TAG_COLUMNS.iter().map(|_| StringBuilder::new()).collect(),
            other_tags: MapBuilder::new(None, StringBuilder::new(), StringBuilder::new()),
            recorded_result: StringBuilder::new(),
            rules_result: StringBuilder::new(),
            plies_written: UInt32Builder::new(),
            plies_replayed: UInt32Builder::new(),
            errors: UInt32Builder::new(),
            warnings: UInt32Builder::new(),
            first_error_code: StringBuilder::new(),
            first_error_ply: UInt32Builder::new(),
            opening: StringBuilder::new(),
            start_key: Int64Builder::new(),
        }
    }
}

/// Column names of the tags of [`TAG_COLUMNS`]: the tag name in lower case, except
/// `Variant`, whose column is `variant_tag` (`variant` is the game recognised).
pub fn tag_column_names() -> Vec<String> {
    TAG_COLUMNS
        .iter()
        .map(|t| match *t {
            "Variant" => "variant_tag".to_string(),
            t => t.to_ascii_lowercase(),
        })
        .collect()
}

impl Columns for GameColumns {
    type Row = GameRow;

    fn push(&mut self, game_id: u64, g: &GameRow) {
        self.game_id.append_value(game_id);
        self.file.append_value(&g.file);
        self.offset.append_value(g.offset);
        self.index.append_value(g.index);
        opt_str(&mut self.variant, g.variant.as_deref());
        for (b, v) in self.tags.iter_mut().zip(&g.tags) {
            opt_str(b, v.as_deref());
        }
        for (k, v) in &g.other_tags {
            self.other_tags.keys().append_value(k);
            self.other_tags.values().append_value(v);
        }
        // Appending a map entry cannot fail while keys and values are pushed in pairs.
        let _ = self.other_tags.append(true);
        opt_str(&mut self.recorded_result, g.recorded_result.as_deref());
        opt_str(&mut self.rules_result, g.rules_result.as_deref());
        self.plies_written.append_value(g.plies_written);
        self.plies_replayed.append_value(g.plies_replayed);
        self.errors.append_value(g.errors);
        self.warnings.append_value(g.warnings);
        opt_str(&mut self.first_error_code, g.first_error_code.as_deref());
        self.first_error_ply.append_option(g.first_error_ply);
        opt_str(&mut self.opening, g.opening.as_deref());
        self.start_key.append_option(g.start_key.map(key_bits));
    }

    fn batch(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let names = tag_column_names();
        let mut cols: Vec<(&str, ArrayRef)> = vec![
            ("game_id", Arc::new(self.game_id.finish())),
            ("file", Arc::new(self.file.finish())),
            ("offset", Arc::new(self.offset.finish())),
            ("index_in_file", Arc::new(self.index.finish())),
            ("variant", Arc::new(self.variant.finish())),
        ];
        for (name, b) in names.iter().zip(self.tags.iter_mut()) {
            cols.push((name.as_str(), Arc::new(b.finish())));
        }
        cols.extend([
            ("other_tags", Arc::new(self.other_tags.finish()) as ArrayRef),
            ("recorded_result", Arc::new(self.recorded_result.finish())),
            ("rules_result", Arc::new(self.rules_result.finish())),
            ("plies_written", Arc::new(self.plies_written.finish())),
            ("plies_replayed", Arc::new(self.plies_replayed.finish())),
            ("errors", Arc::new(self.errors.finish())),
            ("warnings", Arc::new(self.warnings.finish())),
            ("first_error_code", Arc::new(self.first_error_code.finish())),
            ("first_error_ply", Arc::new(self.first_error_ply.finish())),
            ("opening", Arc::new(self.opening.finish())),
            ("start_key", Arc::new(self.start_key.finish())),
        ]);
        batch(cols)
    }
}

/// Builders of `plies.parquet`.
struct PlyColumns {
    game_id: UInt64Builder,
    ply: UInt32Builder,
    mover: StringBuilder,
    notation: StringBuilder,
    from: StringBuilder,
    to: StringBuilder,
    captured: ListBuilder<StringBuilder>,
    pieces_taken: UInt32Builder,
    promotion: BooleanBuilder,
    position_key: Int64Builder,
    fen_after: StringBuilder,
    throws: ListBuilder<Int32Builder>,
    lost_throws: UInt32Builder,
    /// The table has a `fen_after` column.
    positions: bool,
}

impl PlyColumns {
    fn new(positions: bool) -> Self {
        PlyColumns {
            game_id: UInt64Builder::new(),
            ply: UInt32Builder::new(),
            mover: StringBuilder::new(),
            notation: StringBuilder::new(),
            from: StringBuilder::new(),
            to: StringBuilder::new(),
            captured: list_of_strings(),
            pieces_taken: UInt32Builder::new(),
            promotion: BooleanBuilder::new(),
            position_key: Int64Builder::new(),
            fen_after: StringBuilder::new(),
            throws: ListBuilder::new(Int32Builder::new()),
            lost_throws: UInt32Builder::new(),
            positions,
        }
    }
}

impl Columns for PlyColumns {
    type Row = PlyRow;

    fn push(&mut self, game_id: u64, p: &PlyRow) {
        self.push_fields(game_id, p.fields());
    }

    fn batch(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let mut cols: Vec<(&str, ArrayRef)> = vec![
            ("game_id", Arc::new(self.game_id.finish())),
            ("ply", Arc::new(self.ply.finish())),
            ("mover", Arc::new(self.mover.finish())),
            ("notation", Arc::new(self.notation.finish())),
            ("from_square", Arc::new(self.from.finish())),
            ("to_square", Arc::new(self.to.finish())),
            ("captured", Arc::new(self.captured.finish())),
            ("pieces_taken", Arc::new(self.pieces_taken.finish())),
            ("promotion", Arc::new(self.promotion.finish())),
            ("position_key", Arc::new(self.position_key.finish())),
        ];
        if self.positions {
            cols.push(("fen_after", Arc::new(self.fen_after.finish())));
        }
        cols.push(("throws", Arc::new(self.throws.finish())));
        cols.push(("lost_throws", Arc::new(self.lost_throws.finish())));
        batch(cols)
    }
}

/// The values of one plies row, borrowed from wherever they are kept ([`PlyRow`], or the
/// referee's detail record), so that they go into the builders without copies of their own.
pub(crate) struct PlyFields<'a, C> {
    pub ply: u32,
    pub mover: &'a str,
    pub notation: Option<&'a str>,
    pub from: Option<&'a str>,
    pub to: Option<&'a str>,
    pub captured: C,
    pub pieces_taken: u32,
    pub promotion: bool,
    pub position_key: u64,
    pub fen_after: Option<&'a str>,
    pub throws: Throws<'a>,
    pub lost_throws: u32,
}

impl PlyRow {
    /// The row's values, borrowed.
    pub(crate) fn fields(&self) -> PlyFields<'_, impl ExactSizeIterator<Item = &str>> {
        PlyFields {
            ply: self.ply,
            mover: &self.mover,
            notation: self.notation.as_deref(),
            from: self.from.as_deref(),
            to: self.to.as_deref(),
            captured: self.captured.iter().map(String::as_str),
            pieces_taken: self.pieces_taken,
            promotion: self.promotion,
            position_key: self.position_key,
            fen_after: self.fen_after.as_deref(),
            throws: Throws::Wide(&self.throws),
            lost_throws: self.lost_throws,
        }
    }
}

impl<'a, C: Iterator<Item = &'a str>> PlyFields<'a, C> {
    /// The values as an owned row.
    pub(crate) fn into_row(self) -> PlyRow {
        PlyRow {
            ply: self.ply,
            mover: self.mover.to_string(),
            notation: self.notation.map(str::to_string),
            from: self.from.map(str::to_string),
            to: self.to.map(str::to_string),
            captured: self.captured.map(str::to_string).collect(),
            pieces_taken: self.pieces_taken,
            promotion: self.promotion,
            position_key: self.position_key,
            fen_after: self.fen_after.map(str::to_string),
            throws: self.throws.to_vec(),
            lost_throws: self.lost_throws,
        }
    }
}

impl Throws<'_> {
    fn to_vec(&self) -> Vec<i32> {
        match *self {
            Throws::Wide(t) => t.to_vec(),
            Throws::Narrow(t) => t.iter().map(|&t| i32::from(t)).collect(),
            Throws::Packed(t) => t.chunks_exact(4).map(crate::packed::throw).collect(),
        }
    }
}

/// Throws as a [`PlyRow`] holds them, as the referee reports them, or as packed (four bytes
/// each, little-endian).
pub(crate) enum Throws<'a> {
    Wide(&'a [i32]),
    Narrow(&'a [u8]),
    Packed(&'a [u8]),
}

impl PlyColumns {
    /// Builders with room for `rows` typical plies, so that they do not grow while filled.
    fn with_capacity(rows: usize, positions: bool) -> Self {
        let text = |bytes_per_row: usize| StringBuilder::with_capacity(rows, rows * bytes_per_row);
        PlyColumns {
            game_id: UInt64Builder::with_capacity(rows),
            ply: UInt32Builder::with_capacity(rows),
            mover: text(6),
            notation: text(8),
            from: text(3),
            to: text(3),
            captured: ListBuilder::with_capacity(StringBuilder::new(), rows),
            pieces_taken: UInt32Builder::with_capacity(rows),
            promotion: BooleanBuilder::with_capacity(rows),
            position_key: Int64Builder::with_capacity(rows),
            fen_after: text(if positions { 128 } else { 0 }),
            throws: ListBuilder::with_capacity(Int32Builder::new(), rows),
            lost_throws: UInt32Builder::with_capacity(rows),
            positions,
        }
    }

    fn push_fields<'a>(&mut self, game_id: u64, p: PlyFields<'a, impl Iterator<Item = &'a str>>) {
        self.game_id.append_value(game_id);
        self.ply.append_value(p.ply);
        self.mover.append_value(p.mover);
        opt_str(&mut self.notation, p.notation);
        opt_str(&mut self.from, p.from);
        opt_str(&mut self.to, p.to);
        for c in p.captured {
            self.captured.values().append_value(c);
        }
        self.captured.append(true);
        self.pieces_taken.append_value(p.pieces_taken);
        self.promotion.append_value(p.promotion);
        self.position_key.append_value(key_bits(p.position_key));
        if self.positions {
            opt_str(&mut self.fen_after, p.fen_after);
        }
        match p.throws {
            Throws::Wide(t) => self.throws.values().append_slice(t),
            Throws::Narrow(t) => {
                for &t in t {
                    self.throws.values().append_value(i32::from(t));
                }
            }
            Throws::Packed(t) => {
                for t in t.chunks_exact(4) {
                    self.throws.values().append_value(crate::packed::throw(t));
                }
            }
        }
        self.throws.append(true);
        self.lost_throws.append_value(p.lost_throws);
    }
}

/// Builders of `diagnostics.parquet`.
struct DiagnosticColumns {
    game_id: UInt64Builder,
    file: StringBuilder,
    byte: UInt64Builder,
    line: UInt64Builder,
    column: UInt64Builder,
    code: StringBuilder,
    severity: StringBuilder,
    message: StringBuilder,
    ply: UInt32Builder,
    move_number: UInt32Builder,
}

impl Default for DiagnosticColumns {
    fn default() -> Self {
        DiagnosticColumns {
            game_id: UInt64Builder::new(),
            file: StringBuilder::new(),
            byte: UInt64Builder::new(),
            line: UInt64Builder::new(),
            column: UInt64Builder::new(),
            code: StringBuilder::new(),
            severity: StringBuilder::new(),
            message: StringBuilder::new(),
            ply: UInt32Builder::new(),
            move_number: UInt32Builder::new(),
        }
    }
}

impl Columns for DiagnosticColumns {
    type Row = DiagnosticRow;

    fn push(&mut self, game_id: u64, d: &DiagnosticRow) {
        self.game_id.append_value(game_id);
        self.file.append_value(&d.file);
        self.byte.append_value(d.byte);
        self.line.append_value(d.line);
        self.column.append_value(d.column);
        self.code.append_value(&d.code);
        self.severity.append_value(&d.severity);
        self.message.append_value(&d.message);
        self.ply.append_option(d.ply);
        self.move_number.append_option(d.move_number);
    }

    fn batch(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        batch(vec![
            ("game_id", Arc::new(self.game_id.finish())),
            ("file", Arc::new(self.file.finish())),
            ("byte", Arc::new(self.byte.finish())),
            ("line", Arc::new(self.line.finish())),
            ("column", Arc::new(self.column.finish())),
            ("code", Arc::new(self.code.finish())),
            ("severity", Arc::new(self.severity.finish())),
            ("message", Arc::new(self.message.finish())),
            ("ply", Arc::new(self.ply.finish())),
            ("move_number", Arc::new(self.move_number.finish())),
        ])
    }
}
