//! The engine analysis as tables: `analysis.parquet` (one row per analysed ply) and
//! `players.parquet` (one row per player over every game analysed).
//!
//! A ply's row carries the game's `game_id` (numbered as [`crate::ParquetSink`] numbers the
//! same inputs: 0, 1, 2, … in read order), its `file`, `offset` and `index_in_file` (as in
//! `games.parquet`), and its `ply`, so it joins `plies.parquet` on (`game_id`, `ply`).

use std::path::Path;
use std::sync::Arc;

use analysis::pipeline::{Analysed, Players};
use analysis::{Class, Figures, PlyAnalysis};
use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, ListBuilder, StringBuilder,
    UInt32Builder, UInt64Builder,
};
use arrow_array::RecordBatch;

use crate::sink::{batch, list_of_strings, Columns, Table};
use crate::{ExportError, SinkOptions};

/// File name of the analysis table.
pub const ANALYSIS_FILE: &str = "analysis.parquet";
/// File name of the players table.
pub const PLAYERS_FILE: &str = "players.parquet";

/// Rows per row group of `analysis.parquet`: a row holds the engine's line, so a group of a
/// million rows would keep tens of megabytes in the writer's memory.
pub const ANALYSIS_GROUP_ROWS: usize = 1 << 17;

/// One analysed ply with the game it belongs to.
#[derive(Debug, Clone)]
pub struct AnalysisRow {
    /// The input the game came from.
    pub file: String,
    /// Byte offset of the game's first byte in that input.
    pub offset: u64,
    /// 1-based position of the game in its input.
    pub index_in_file: u64,
    /// The seat that played (`White`, `South`, …), as `plies.mover`.
    pub mover: String,
    /// The player of that seat (its tag), else the seat's name.
    pub player: String,
    /// What the analysis says of the ply.
    pub ply: PlyAnalysis,
}

impl AnalysisRow {
    /// The rows of one analysed game read from `file`.
    pub fn of_game(file: &str, g: &Analysed) -> Vec<AnalysisRow> {
        g.analysis
            .plies
            .iter()
            .map(|p| AnalysisRow {
                file: file.to_string(),
                offset: g.record.span.start,
                index_in_file: g.index,
                mover: g.seat_name(p.seat).to_string(),
                player: g.player(p.seat),
                ply: p.clone(),
            })
            .collect()
    }
}

/// Builders of `analysis.parquet`.
pub(crate) struct AnalysisColumns {
    game_id: UInt64Builder,
    file: StringBuilder,
    offset: UInt64Builder,
    index_in_file: UInt64Builder,
    ply: UInt32Builder,
    mover: StringBuilder,
    player: StringBuilder,
    played: StringBuilder,
    eval_before: Int32Builder,
    eval_after: Int32Builder,
    best: StringBuilder,
    line: ListBuilder<StringBuilder>,
    loss: Int32Builder,
    class: StringBuilder,
    accuracy: Float64Builder,
    agreed: BooleanBuilder,
    shot: ListBuilder<StringBuilder>,
    depth: UInt32Builder,
    nodes: UInt64Builder,
}

impl Default for AnalysisColumns {
    fn default() -> Self {
        AnalysisColumns {
            game_id: UInt64Builder::new(),
            file: StringBuilder::new(),
            offset: UInt64Builder::new(),
            index_in_file: UInt64Builder::new(),
            ply: UInt32Builder::new(),
            mover: StringBuilder::new(),
            player: StringBuilder::new(),
            played: StringBuilder::new(),
            eval_before: Int32Builder::new(),
            eval_after: Int32Builder::new(),
            best: StringBuilder::new(),
            line: list_of_strings(),
            loss: Int32Builder::new(),
            class: StringBuilder::new(),
            accuracy: Float64Builder::new(),
            agreed: BooleanBuilder::new(),
            shot: list_of_strings(),
            depth: UInt32Builder::new(),
            nodes: UInt64Builder::new(),
        }
    }
}

fn push_list(b: &mut ListBuilder<StringBuilder>, items: &[String]) {
    for item in items {
        b.values().append_value(item);
    }
    b.append(true);
}

impl Columns for AnalysisColumns {
    type Row = AnalysisRow;

    fn push(&mut self, game_id: u64, r: &AnalysisRow) {
        let p = &r.ply;
        self.game_id.append_value(game_id);
        self.file.append_value(&r.file);
        self.offset.append_value(r.offset);
        self.index_in_file.append_value(r.index_in_file);
        self.ply.append_value(p.ply);
        self.mover.append_value(&r.mover);
        self.player.append_value(&r.player);
        self.played.append_value(&p.played);
        self.eval_before.append_value(p.eval_before);
        self.eval_after.append_value(p.eval_after);
        self.best.append_option(p.best.as_deref());
        push_list(&mut self.line, &p.line);
        self.loss.append_value(p.loss);
        self.class.append_option(p.class.map(Class::name));
        self.accuracy.append_value(p.accuracy);
        self.agreed.append_value(p.agreed);
        push_list(&mut self.shot, &p.shot);
        self.depth.append_value(p.depth);
        self.nodes.append_value(p.nodes);
    }

    fn batch(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        batch(vec![
            ("game_id", Arc::new(self.game_id.finish())),
            ("file", Arc::new(self.file.finish())),
            ("offset", Arc::new(self.offset.finish())),
            ("index_in_file", Arc::new(self.index_in_file.finish())),
            ("ply", Arc::new(self.ply.finish())),
            ("mover", Arc::new(self.mover.finish())),
            ("player", Arc::new(self.player.finish())),
            ("move", Arc::new(self.played.finish())),
            ("eval_before", Arc::new(self.eval_before.finish())),
            ("eval_after", Arc::new(self.eval_after.finish())),
            ("best", Arc::new(self.best.finish())),
            ("line", Arc::new(self.line.finish())),
            ("loss", Arc::new(self.loss.finish())),
            ("class", Arc::new(self.class.finish())),
            ("accuracy", Arc::new(self.accuracy.finish())),
            ("agreed", Arc::new(self.agreed.finish())),
            ("shot", Arc::new(self.shot.finish())),
            ("depth", Arc::new(self.depth.finish())),
            ("nodes", Arc::new(self.nodes.finish())),
        ])
    }
}

/// One player's figures over every game analysed.
#[derive(Debug, Clone)]
pub struct PlayerRow {
    /// The player (as the seat's tag names them, else the seat's name).
    pub player: String,
    /// Their figures.
    pub figures: Figures,
}

/// Builders of `players.parquet`.
pub(crate) struct PlayerColumns {
    player: StringBuilder,
    games: UInt32Builder,
    moves: UInt32Builder,
    accuracy: Float64Builder,
    average_loss: Float64Builder,
    agreement: Float64Builder,
    classes: [UInt32Builder; 6],
    agreed: UInt32Builder,
    total_loss: Int64Builder,
}

/// The columns of the class counts, in the order of [`Class::ALL`].
pub const CLASS_COLUMNS: [&str; 6] = [
    "inaccuracies",
    "mistakes",
    "blunders",
    "missed_wins",
    "missed_shots",
    "allowed_shots",
];

impl Default for PlayerColumns {
    fn default() -> Self {
        PlayerColumns {
            player: StringBuilder::new(),
            games: UInt32Builder::new(),
            moves: UInt32Builder::new(),
            accuracy: Float64Builder::new(),
            average_loss: Float64Builder::new(),
            agreement: Float64Builder::new(),
            classes: std::array::from_fn(|_| UInt32Builder::new()),
            agreed: UInt32Builder::new(),
            total_loss: Int64Builder::new(),
        }
    }
}

impl Columns for PlayerColumns {
    type Row = PlayerRow;

    fn push(&mut self, _: u64, r: &PlayerRow) {
        let f = &r.figures;
        self.player.append_value(&r.player);
        self.games.append_value(f.games);
        self.moves.append_value(f.moves);
        self.accuracy.append_value(f.accuracy());
        self.average_loss.append_value(f.average_loss());
        self.agreement.append_value(f.agreement());
        for (b, c) in self.classes.iter_mut().zip(Class::ALL) {
            b.append_value(f.count(c));
        }
        self.agreed.append_value(f.agreed);
        self.total_loss.append_value(f.total_loss);
    }

    fn batch(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let mut columns: Vec<(&str, arrow_array::ArrayRef)> = vec![
            ("player", Arc::new(self.player.finish())),
            ("games", Arc::new(self.games.finish())),
            ("moves", Arc::new(self.moves.finish())),
            ("accuracy", Arc::new(self.accuracy.finish())),
            ("average_loss", Arc::new(self.average_loss.finish())),
            ("agreement", Arc::new(self.agreement.finish())),
        ];
        for (name, b) in CLASS_COLUMNS.iter().zip(self.classes.iter_mut()) {
            columns.push((name, Arc::new(b.finish())));
        }
        columns.push(("agreed", Arc::new(self.agreed.finish())));
        columns.push(("total_loss", Arc::new(self.total_loss.finish())));
        batch(columns)
    }
}

fn player_rows(players: &Players) -> impl Iterator<Item = PlayerRow> + '_ {
    players.iter().map(|(name, f)| PlayerRow {
        player: name.to_string(),
        figures: f.clone(),
    })
}

/// Writes `analysis.parquet` as games are pushed and `players.parquet` when finished, into
/// one folder, in bounded memory (row groups of at most [`ANALYSIS_GROUP_ROWS`] rows).
pub struct AnalysisSink {
    analysis: Table<AnalysisColumns>,
    players_path: std::path::PathBuf,
    options: SinkOptions,
    players: Players,
    next_id: u64,
}

impl AnalysisSink {
    /// Creates `dir` if needed and `analysis.parquet` in it.
    pub fn create(dir: &Path, options: SinkOptions) -> Result<Self, ExportError> {
        std::fs::create_dir_all(dir).map_err(|source| ExportError::Io {
            context: format!("creating {}", dir.display()),
            source,
        })?;
        let options = SinkOptions {
            row_group_rows: options.row_group_rows.min(ANALYSIS_GROUP_ROWS),
            ..options
        };
        let analysis = Table::create(
            &dir.join(ANALYSIS_FILE),
            ANALYSIS_FILE,
            options,
            AnalysisColumns::default(),
        )?;
        Ok(AnalysisSink {
            analysis,
            players_path: dir.join(PLAYERS_FILE),
            options,
            players: Players::default(),
            next_id: 0,
        })
    }

    /// Adds a game read from `file` (every game read, analysed or not, so that `game_id`
    /// counts games as `arbiter export` does); returns its `game_id`.
    pub fn push_game(&mut self, file: &str, g: &Analysed) -> Result<u64, ExportError> {
        let id = self.next_id;
        self.next_id += 1;
        self.players.add(g);
        let rows = AnalysisRow::of_game(file, g);
        for r in &rows {
            self.analysis.cols.push(id, r);
        }
        self.analysis.rows_added(rows.len())?;
        Ok(id)
    }

    /// Writes what is left and `players.parquet`; returns the rows of `analysis.parquet`.
    pub fn finish(mut self) -> Result<u64, ExportError> {
        self.analysis.close()?;
        let mut players = Table::create(
            &self.players_path,
            PLAYERS_FILE,
            self.options,
            PlayerColumns::default(),
        )?;
        let mut n = 0;
        for row in player_rows(&self.players) {
            players.cols.push(0, &row);
            n += 1;
        }
        players.rows_added(n)?;
        players.close()?;
        Ok(self.analysis.total)
    }
}

/// The two tables as Arrow record batches with exactly the files' schemas, for programs
/// that want them in memory (the Python package).
#[derive(Default)]
pub struct AnalysisBatches {
    analysis: AnalysisColumns,
    players: Players,
    next_id: u64,
    pending: usize,
}

impl AnalysisBatches {
    /// Adds a game read from `file` under the next `game_id`, or `game_id` when given;
    /// returns the id used.
    pub fn push_game(&mut self, file: &str, g: &Analysed, game_id: Option<u64>) -> u64 {
        let id = game_id.unwrap_or(self.next_id);
        self.next_id = id + 1;
        self.players.add(g);
        for r in AnalysisRow::of_game(file, g) {
            self.analysis.push(id, &r);
            self.pending += 1;
        }
        id
    }

    /// Analysis rows gathered since the last [`AnalysisBatches::take`].
    pub fn pending(&self) -> usize {
        self.pending
    }

    /// The analysis rows gathered since the last call; the builders are left empty.
    pub fn take(&mut self) -> Result<RecordBatch, ExportError> {
        self.pending = 0;
        self.analysis.batch().map_err(|source| ExportError::Arrow {
            file: ANALYSIS_FILE,
            source,
        })
    }

    /// The players' figures over every game pushed.
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// The players table of every game pushed.
    pub fn players_batch(&self) -> Result<RecordBatch, ExportError> {
        let mut cols = PlayerColumns::default();
        for row in player_rows(&self.players) {
            cols.push(0, &row);
        }
        cols.batch().map_err(|source| ExportError::Arrow {
            file: PLAYERS_FILE,
            source,
        })
    }
}
