//! Hive-style partitioned tables: one folder per value of the partition columns, which
//! DuckDB (`hive_partitioning`) and Spark read back as one table with those columns.
//!
//! ```text
//! out/games/variant=international/year=2019/part-0.parquet
//! out/plies/variant=international/year=2019/part-0.parquet
//! out/diagnostics/variant=international/year=2019/part-0.parquet
//! ```
//!
//! Every partition is a [`ParquetSink`] of its own; `game_id` is numbered across all of them,
//! so the three tables still join on it. A value that is unknown (a game not recognised, a
//! `Date` without a year) goes to the folder [`NULL_VALUE`], which Spark and DuckDB read
//! as null.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::{
    Counts, DiagnosticRow, ExportError, GameRow, ParquetSink, PlyRow, SinkOptions,
    DIAGNOSTICS_FILE, GAMES_FILE, PLIES_FILE,
};

/// The folder name of an unknown value (Hive's own).
pub const NULL_VALUE: &str = "__HIVE_DEFAULT_PARTITION__";

/// The file written in each partition folder.
pub const PART_FILE: &str = "part-0.parquet";

/// A column the tables can be partitioned by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartitionColumn {
    /// The game recognised (the `variant` column of `games`).
    Variant,
    /// The year of the `Date` tag: its first four characters when they are digits.
    Year,
}

impl PartitionColumn {
    /// The column's name, as in the folder names.
    pub fn name(self) -> &'static str {
        match self {
            PartitionColumn::Variant => "variant",
            PartitionColumn::Year => "year",
        }
    }

    /// Reads a column name (`variant`, `year`).
    pub fn parse(name: &str) -> Option<PartitionColumn> {
        match name.trim() {
            "variant" => Some(PartitionColumn::Variant),
            "year" => Some(PartitionColumn::Year),
            _ => None,
        }
    }

    /// The value of this column for a game, as written in a folder name.
    fn value(self, game: &GameRow) -> String {
        let value = match self {
            PartitionColumn::Variant => game.variant.clone(),
            PartitionColumn::Year => year(game.tag("Date")),
        };
        value
            .filter(|v| !v.is_empty() && v.bytes().all(safe_byte))
            .unwrap_or_else(|| NULL_VALUE.to_string())
    }
}

/// The year of a `Date` tag (`2019.05.17`, `2019-05-17`, `2019`): its first four characters
/// when they are all digits.
pub fn year(date: Option<&str>) -> Option<String> {
    let head = date?.get(..4)?;
    head.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| head.to_string())
}

/// Bytes written as they are in a folder name (anything else would need escaping).
fn safe_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Writes the three tables partitioned by some columns under one folder.
pub struct PartitionedSink {
    root: PathBuf,
    by: Vec<PartitionColumn>,
    options: SinkOptions,
    parts: HashMap<String, ParquetSink>,
    next_id: u64,
}

impl PartitionedSink {
    /// A sink writing under `root` (created if needed), partitioned by `by` in that order.
    pub fn create(
        root: impl AsRef<Path>,
        by: Vec<PartitionColumn>,
        options: SinkOptions,
    ) -> Result<Self, ExportError> {
        let root = root.as_ref().to_path_buf();
        create_dir(&root)?;
        Ok(PartitionedSink {
            root,
            by,
            options,
            parts: HashMap::new(),
            next_id: 0,
        })
    }

    /// The partition folder of a game, relative to a table's folder
    /// (`variant=international/year=2019`).
    pub fn folder_of(&self, game: &GameRow) -> String {
        let parts: Vec<String> = self
            .by
            .iter()
            .map(|c| format!("{}={}", c.name(), c.value(game)))
            .collect();
        parts.join("/")
    }

    /// Adds one game with its plies and diagnostics to its partition; returns its `game_id`.
    pub fn push_game(
        &mut self,
        game: &GameRow,
        plies: &[PlyRow],
        diagnostics: &[DiagnosticRow],
    ) -> Result<u64, ExportError> {
        let folder = self.folder_of(game);
        let sink = match self.parts.get_mut(&folder) {
            Some(sink) => sink,
            None => {
                let sink = self.open(&folder)?;
                self.parts.entry(folder).or_insert(sink)
            }
        };
        sink.set_next_id(self.next_id);
        let id = sink.push_game(game, plies, diagnostics)?;
        self.next_id = id + 1;
        Ok(id)
    }

    /// Creates the three files of a partition.
    fn open(&self, folder: &str) -> Result<ParquetSink, ExportError> {
        let mut paths = Vec::with_capacity(3);
        for file in [GAMES_FILE, PLIES_FILE, DIAGNOSTICS_FILE] {
            let table = file.trim_end_matches(".parquet");
            let dir = self.root.join(table).join(folder);
            create_dir(&dir)?;
            paths.push(dir.join(PART_FILE));
        }
        let paths: [PathBuf; 3] = paths.try_into().map_err(|_| ExportError::Poisoned)?;
        ParquetSink::with_paths(paths, self.options)
    }

    /// Closes every partition's files; returns the rows written in all.
    pub fn finish(self) -> Result<Counts, ExportError> {
        let mut total = Counts::default();
        let mut parts: Vec<(String, ParquetSink)> = self.parts.into_iter().collect();
        parts.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, sink) in parts {
            let c = sink.finish()?;
            total.games += c.games;
            total.plies += c.plies;
            total.diagnostics += c.diagnostics;
            total.games_with_errors += c.games_with_errors;
        }
        Ok(total)
    }
}

fn create_dir(dir: &Path) -> Result<(), ExportError> {
    std::fs::create_dir_all(dir).map_err(|source| ExportError::Io {
        context: format!("creating {}", dir.display()),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_and_folder_values() {
        assert_eq!(year(Some("2019.05.17")).as_deref(), Some("2019"));
        assert_eq!(year(Some("1998-01-02")).as_deref(), Some("1998"));
        assert_eq!(year(Some("????.??.??")), None);
        assert_eq!(year(Some("19")), None);
        assert_eq!(year(None), None);
        let mut g = GameRow {
            variant: Some("international".into()),
            ..GameRow::default()
        };
        g.set_tag("Date", "2001.??.??");
        assert_eq!(PartitionColumn::Variant.value(&g), "international");
        assert_eq!(PartitionColumn::Year.value(&g), "2001");
        g.variant = None;
        assert_eq!(PartitionColumn::Variant.value(&g), NULL_VALUE);
        g.variant = Some("a/b".into());
        assert_eq!(PartitionColumn::Variant.value(&g), NULL_VALUE);
    }
}
