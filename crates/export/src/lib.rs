//! Columnar export of checked games: three Parquet files that DuckDB, Spark, pandas or any
//! Arrow tool can query.
//!
//! - `games.parquet`: one row per game ([`GameRow`]);
//! - `plies.parquet`: one row per main-line ply ([`PlyRow`]);
//! - `diagnostics.parquet`: one row per diagnostic ([`DiagnosticRow`]).
//!
//! [`ParquetSink`] writes them as a stream: rows are gathered in column builders, handed to
//! the Parquet writer in batches, and a row group is closed whenever it holds
//! [`SinkOptions::row_group_rows`] rows, so memory stays bounded whatever the input's size.
//! Compression is zstd. The sink assigns every game a `game_id` (0, 1, 2, ... in push order)
//! that the three files share.
//!
//! Plies are most of the output (one row, with a position string, per move played). When
//! an input is read in chunks on the rayon pool ([`export_chunked`]), the thread that checks
//! a chunk also encodes and compresses its plies with a [`PlyEncoder`], straight from the
//! referee's detail records; the sink then only adds their `game_id` column and writes the
//! bytes, so the writing thread does not hold back the others and no rows wait in memory.
//!
//! The row types are plain data, independent of the referee; [`convert`] builds them from
//! what [`referee::Referee`] reports, and [`export_reader`] does the whole job for one input.
//! The schema is documented column by column in the project's `docs/export.md`.
#![deny(missing_docs)]

pub mod analysis;
pub mod convert;
mod packed;
pub mod partition;
pub mod run;
mod sink;

pub use analysis::{
    AnalysisBatches, AnalysisRow, AnalysisSink, PlayerRow, ANALYSIS_FILE, ANALYSIS_GROUP_ROWS,
    PLAYERS_FILE,
};
pub use convert::{export_chunked, export_partitioned, export_reader, Recorded, Recorder};
pub use partition::{PartitionColumn, PartitionedChunk, PartitionedSink};
pub use run::{
    export_inputs, export_inputs_partitioned, renumber, tables_of_chunks, Continued, Input,
    Numbering, Wanted,
};
pub use sink::{
    key_bits, tag_column_names, Counts, EncodedGames, EncodedPlies, ParquetSink, PlyEncoder,
    PlyEncoding, SinkOptions, TableBatches, DIAGNOSTICS_FILE, GAMES_FILE, GAME_GROUP_ROWS,
    PLIES_FILE,
};

/// The tags that get a column of their own in `games.parquet` (column names: see
/// [`tag_column_names`]). Every other tag goes to the `other_tags` map.
pub const TAG_COLUMNS: [&str; 20] = pdn::roster_then([
    "GameType",
    "FEN",
    "Variant",
    "Rules",
    "PlyCount",
    "Seats",
    "South",
    "West",
    "North",
    "East",
    "Annotator",
    "TimeControl",
    "Termination",
]);

/// One game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameRow {
    /// The input the game was read from (a path, or `-` for standard input).
    pub file: String,
    /// Absolute byte offset of the game's first byte in the input.
    pub offset: u64,
    /// 1-based position of the game in its input (as `arbiter validate` counts games).
    pub index: u64,
    /// The game recognised (`tama`, `odnocvetnie`, `thaayam`), or `None` when unknown.
    pub variant: Option<String>,
    /// Values of the tags of [`TAG_COLUMNS`], in that order (`None`: tag absent). When a tag
    /// occurs twice, the first value is kept here and the others go to `other_tags`.
    pub tags: [Option<String>; TAG_COLUMNS.len()],
    /// Every other tag, in file order.
    pub other_tags: Vec<(String, String)>,
    /// The result as recorded (result token, else `Result` tag), written as the game writes
    /// results (`1-0`, `S+W-`, `*`, ...).
    pub recorded_result: Option<String>,
    /// The result the rules give at the end of the main line, if the game is over by rule.
    pub rules_result: Option<String>,
    /// Plies of the main line as written.
    pub plies_written: u32,
    /// Plies of the main line replayed successfully.
    pub plies_replayed: u32,
    /// Diagnostics of severity error.
    pub errors: u32,
    /// Diagnostics of severity warning.
    pub warnings: u32,
    /// Code of the first error in file order.
    pub first_error_code: Option<String>,
    /// Ply of that error, when it concerns a move.
    pub first_error_ply: Option<u32>,
    /// The first round of the main line (one ply per seat in play), space-separated.
    pub opening: Option<String>,
    /// The key of the start position (see [`key_bits`] for how it is stored), when known.
    pub start_key: Option<u64>,
}

impl GameRow {
    /// Sets a tag: into its column if it has one and the column is still empty, otherwise
    /// into `other_tags`.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if let Some(i) = TAG_COLUMNS.iter().position(|t| *t == name) {
            if self.tags[i].is_none() {
                self.tags[i] = Some(value.to_string());
                return;
            }
        }
        self.other_tags.push((name.to_string(), value.to_string()));
    }

    /// The value of a tag of [`TAG_COLUMNS`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        let i = TAG_COLUMNS.iter().position(|t| *t == name)?;
        self.tags[i].as_deref()
    }
}

/// One ply of a game's main line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlyRow {
    /// 1-based ply number in the main line.
    pub ply: u32,
    /// The seat that played it (`White`, `South`, ...).
    pub mover: String,
    /// The move in the game's standard notation.
    pub notation: Option<String>,
    /// Square the moving piece left.
    pub from: Option<String>,
    /// Square where it stopped.
    pub to: Option<String>,
    /// Squares of the pieces taken, in order.
    pub captured: Vec<String>,
    /// Pieces taken.
    pub pieces_taken: u32,
    /// A piece was crowned.
    pub promotion: bool,
    /// The key of the position after the ply (`game::Game::position_key`).
    pub position_key: u64,
    /// The position after the ply, in the game's FEN dialect (written only with
    /// [`SinkOptions::positions`]).
    pub fen_after: Option<String>,
    /// Thaayam: the throws of the ply's series, in order (empty for other games).
    pub throws: Vec<i32>,
    /// Thaayam: throws lost.
    pub lost_throws: u32,
}

/// One diagnostic, with the fields of `arbiter validate --format json`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiagnosticRow {
    /// The input.
    pub file: String,
    /// Absolute byte offset of the problem.
    pub byte: u64,
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
    /// Stable code (`illegal-move`, `unterminated-comment`, ...).
    pub code: String,
    /// `error` or `warning`.
    pub severity: String,
    /// The explanation for a person.
    pub message: String,
    /// Ply of the move concerned.
    pub ply: Option<u32>,
    /// Move number of the move concerned, as the record counts.
    pub move_number: Option<u32>,
}

/// What can go wrong while exporting.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Creating, reading or writing a file failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The Parquet writer failed.
    #[error("writing {file}: {source}")]
    Parquet {
        /// The file being written.
        file: &'static str,
        /// The cause.
        #[source]
        source: parquet::errors::ParquetError,
    },
    /// Building a batch of rows failed (a bug: the schema and the builders disagree).
    #[error("building a batch for {file}: {source}")]
    Arrow {
        /// The file being written.
        file: &'static str,
        /// The cause.
        #[source]
        source: arrow_schema::ArrowError,
    },
    /// The sink was used after an earlier error.
    #[error("the export stopped after an earlier error")]
    Poisoned,
}
