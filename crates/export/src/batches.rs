//! The three tables in memory, as Arrow record batches with the schema of the Parquet files.
//!
//! [`Batches`] gathers rows as [`crate::ParquetSink`] does, numbering games the same way, and
//! hands each table's rows out as a [`RecordBatch`] on demand, for callers that want Arrow
//! data rather than files (the Python package streams them to pyarrow).

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};

use crate::sink::{Columns, DiagnosticColumns, GameColumns, PlyColumns};
use crate::{Counts, DiagnosticRow, GameRow, PlyRow};

/// One of the three tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// `games.parquet`.
    Games,
    /// `plies.parquet`.
    Plies,
    /// `diagnostics.parquet`.
    Diagnostics,
}

impl TableKind {
    /// The three tables, in the order `arbiter export` writes them.
    pub const ALL: [TableKind; 3] = [TableKind::Games, TableKind::Plies, TableKind::Diagnostics];

    /// The table's name: `games`, `plies` or `diagnostics`.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Games => "games",
            TableKind::Plies => "plies",
            TableKind::Diagnostics => "diagnostics",
        }
    }

    /// The table called `name`, if any.
    pub fn from_name(name: &str) -> Option<TableKind> {
        TableKind::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The table's Arrow schema, as its Parquet file records it.
    pub fn schema(self) -> SchemaRef {
        Batches::new()
            .take(self)
            .map(|b| b.schema())
            .expect("an empty batch of fixed columns is always valid")
    }
}

/// Rows of the three tables gathered in memory; games get `game_id` 0, 1, 2, ... in push
/// order, as in the files.
#[derive(Default)]
pub struct Batches {
    games: GameColumns,
    plies: PlyColumns,
    diagnostics: DiagnosticColumns,
    next_id: u64,
    pending: Counts,
}

impl Batches {
    /// No rows yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one game with its main-line plies and its diagnostics; returns its `game_id`.
    pub fn push_game(
        &mut self,
        game: &GameRow,
        plies: &[PlyRow],
        diagnostics: &[DiagnosticRow],
    ) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.games.push(id, game);
        for p in plies {
            self.plies.push(id, p);
        }
        for d in diagnostics {
            self.diagnostics.push(id, d);
        }
        self.pending.games += 1;
        self.pending.plies += plies.len() as u64;
        self.pending.diagnostics += diagnostics.len() as u64;
        id
    }

    /// Rows gathered and not yet taken, per table.
    pub fn pending(&self) -> Counts {
        self.pending
    }

    /// The rows of `table` gathered so far, as one batch; the table starts again empty.
    pub fn take(&mut self, table: TableKind) -> Result<RecordBatch, ArrowError> {
        match table {
            TableKind::Games => {
                self.pending.games = 0;
                self.games.batch()
            }
            TableKind::Plies => {
                self.pending.plies = 0;
                self.plies.batch()
            }
            TableKind::Diagnostics => {
                self.pending.diagnostics = 0;
                self.diagnostics.batch()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_number_games_and_empty_on_take() {
        let mut b = Batches::new();
        let game = GameRow {
            file: "a.pdn".into(),
            index: 1,
            ..GameRow::default()
        };
        let ply = PlyRow {
            ply: 1,
            ..PlyRow::default()
        };
        assert_eq!(b.push_game(&game, &[ply.clone(), ply], &[]), 0);
        assert_eq!(b.push_game(&game, &[], &[]), 1);
        assert_eq!((b.pending().games, b.pending().plies), (2, 2));
        let plies = b.take(TableKind::Plies).unwrap();
        assert_eq!(plies.num_rows(), 2);
        assert_eq!(plies.schema(), TableKind::Plies.schema());
        assert_eq!(b.pending().plies, 0);
        assert_eq!(b.take(TableKind::Plies).unwrap().num_rows(), 0);
        assert_eq!(b.take(TableKind::Games).unwrap().num_rows(), 2);
        assert_eq!(
            TableKind::from_name("diagnostics"),
            Some(TableKind::Diagnostics)
        );
        assert_eq!(TableKind::from_name("moves"), None);
    }
}
