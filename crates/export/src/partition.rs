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

use crate::convert::{each_ply, Recorded};
use crate::packed::{corrupt, pack_diagnostics, pack_game, pack_head, pack_ply, Unpack};
use crate::run::Continued;
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

/// The partition folder of a game under columns `by`, relative to a table's folder
/// (`variant=international/year=2019`).
pub fn folder_of(by: &[PartitionColumn], game: &GameRow) -> String {
    let parts: Vec<String> = by
        .iter()
        .map(|c| format!("{}={}", c.name(), c.value(game)))
        .collect();
    parts.join("/")
}

/// Default of [`PartitionedSink::set_budget`]: bytes of rows held for all partitions.
pub const DEFAULT_BUDGET: usize = 16 << 20;

/// Default of [`PartitionedSink::set_max_open`]: partitions whose files stay open.
pub const DEFAULT_MAX_OPEN: usize = 32;

/// The smallest buffer a partition is given (so that a partition of one small game costs
/// no more).
const MIN_BUFFER: usize = 256;

/// Bytes before a game's packed rows in a partition's buffer: its `game_id`, `index` and the
/// length of its packed rows.
const HEADER: usize = 20;

/// The folder, inside the sink's root, of the rows set aside on disk; removed by
/// [`PartitionedSink::finish`].
const SPILL_DIR: &str = ".spill";

/// Writes the three tables partitioned by some columns under one folder.
///
/// Memory stays bounded whatever the number of partitions:
///
/// - a game's rows wait in their partition's buffer packed as bytes (see `packed`), and the
///   buffers of all partitions together never hold more than the budget
///   ([`PartitionedSink::set_budget`], default [`DEFAULT_BUDGET`]): a game that would go
///   past it first makes the largest buffers be written out, until half the budget is free;
/// - the first [`DEFAULT_MAX_OPEN`] partitions written out get their files, which stay open:
///   each buffer written out is a row group of them. The buffers of the other partitions are
///   appended, as they are, to a file of their own in a hidden folder under the root, and
///   [`PartitionedSink::finish`] writes those partitions one at a time, reading their rows
///   back as a stream.
///
/// Every partition gets one file per table ([`PART_FILE`]), holding the same rows as one
/// [`ParquetSink`] would write for its games, in input order, with `game_id` numbered across
/// all partitions.
pub struct PartitionedSink {
    root: PathBuf,
    by: Vec<PartitionColumn>,
    options: SinkOptions,
    parts: Vec<Part>,
    index: HashMap<String, usize>,
    /// Partitions with open files.
    open: usize,
    max_open: usize,
    next_id: u64,
    /// Bytes allocated by the partitions' buffers (their capacity).
    buffered: usize,
    peak: usize,
    budget: usize,
    /// Bytes set aside on disk so far.
    spilled: u64,
    /// Rows of the files closed so far.
    closed: Counts,
    scratch: Vec<u8>,
    poisoned: bool,
}

/// One partition: its games waiting, and its open files if any.
struct Part {
    folder: String,
    buf: Vec<u8>,
    writer: Option<ParquetSink>,
    /// Some of its games wait on disk.
    spilled: bool,
}

/// The games of a run of input, for [`PartitionedSink::push_chunk`]: each packed as bytes
/// with the partition it goes to and its `index` in its input, in input order.
#[derive(Debug, Default)]
pub struct PartitionedChunk {
    folders: Vec<String>,
    /// Per game: its folder (an index into `folders`), its `index` and the end of its bytes.
    games: Vec<(u32, u64, usize)>,
    bytes: Vec<u8>,
    lookup: HashMap<String, u32>,
}

impl PartitionedChunk {
    /// Adds a recorded game (its row `game` and diagnostics rows made from it) to the
    /// partition `folder`, its plies packed straight from the referee's detail records (the
    /// values of [`crate::convert::ply_rows`]).
    pub fn push(
        &mut self,
        folder: String,
        game: &GameRow,
        rec: &Recorded,
        diagnostics: &[DiagnosticRow],
    ) {
        let n = self.folders.len() as u32;
        let f = *self.lookup.entry(folder).or_insert_with_key(|k| {
            self.folders.push(k.clone());
            n
        });
        let out = &mut self.bytes;
        pack_head(out, game);
        out.extend_from_slice(&(rec.report.details.len() as u32).to_le_bytes());
        each_ply(rec, |p| pack_ply(out, p));
        pack_diagnostics(out, diagnostics);
        self.games.push((f, game.index, self.bytes.len()));
    }

    /// Games added.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Frees the room its buffers have beyond what they hold.
    pub fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
        self.games.shrink_to_fit();
        self.lookup = HashMap::new();
    }

    /// Whether no game was added.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
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
            parts: Vec::new(),
            index: HashMap::new(),
            open: 0,
            max_open: DEFAULT_MAX_OPEN,
            next_id: 0,
            buffered: 0,
            peak: 0,
            budget: DEFAULT_BUDGET,
            spilled: 0,
            closed: Counts::default(),
            scratch: Vec::new(),
            poisoned: false,
        })
    }

    /// Sets the most bytes the partitions' buffers may hold together (at least 1 KiB). A
    /// single game larger than the budget is still taken, alone.
    pub fn set_budget(&mut self, bytes: usize) {
        self.budget = bytes.max(1024);
    }

    /// Sets how many partitions may keep their files open at once (at least 1).
    pub fn set_max_open(&mut self, n: usize) {
        self.max_open = n.max(1);
    }

    /// The partition columns.
    pub fn columns(&self) -> &[PartitionColumn] {
        &self.by
    }

    /// Bytes the partitions' buffers hold now (allocated, not only used).
    pub fn buffered_bytes(&self) -> usize {
        self.buffered
    }

    /// The most bytes the partitions' buffers held at once so far.
    pub fn peak_buffered_bytes(&self) -> usize {
        self.peak
    }

    /// Bytes of rows set aside on disk so far (to be written at the end).
    pub fn spilled_bytes(&self) -> u64 {
        self.spilled
    }

    /// Partitions whose files are open.
    pub fn open_partitions(&self) -> usize {
        self.open
    }

    /// The partition folder of a game, relative to a table's folder
    /// (`variant=international/year=2019`).
    pub fn folder_of(&self, game: &GameRow) -> String {
        folder_of(&self.by, game)
    }

    /// Adds one game with its plies and diagnostics to its partition; returns its `game_id`.
    /// Its `index` is kept as given.
    pub fn push_game(
        &mut self,
        game: &GameRow,
        plies: &[PlyRow],
        diagnostics: &[DiagnosticRow],
    ) -> Result<u64, ExportError> {
        let folder = self.folder_of(game);
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        pack_game(&mut scratch, game, plies, diagnostics);
        let p = self.part(&folder);
        let id = self.next_id;
        let r = self.add(p, id, game.index, &scratch);
        self.scratch = scratch;
        r?;
        self.next_id += 1;
        Ok(id)
    }

    /// Adds the games of a run, in order; the first `continued.games` continue an input of
    /// which `continued.before` games came earlier, and have that added to their `index`.
    /// Returns the `game_id` of the first.
    pub fn push_chunk(
        &mut self,
        chunk: PartitionedChunk,
        continued: Continued,
    ) -> Result<u64, ExportError> {
        let first = self.next_id;
        let parts: Vec<usize> = chunk.folders.iter().map(|f| self.part(f)).collect();
        let mut start = 0;
        for (i, &(f, index, end)) in chunk.games.iter().enumerate() {
            let id = self.next_id;
            let shift = if i < continued.games {
                continued.before
            } else {
                0
            };
            let bytes = &chunk.bytes[start..end];
            self.add(parts[f as usize], id, index + shift, bytes)?;
            self.next_id += 1;
            start = end;
        }
        Ok(first)
    }

    /// The number of the partition `folder`, made if new.
    fn part(&mut self, folder: &str) -> usize {
        if let Some(&p) = self.index.get(folder) {
            return p;
        }
        let p = self.parts.len();
        self.parts.push(Part {
            folder: folder.to_string(),
            buf: Vec::new(),
            writer: None,
            spilled: false,
        });
        self.index.insert(folder.to_string(), p);
        p
    }

    /// Appends one packed game to partition `p`'s buffer, first writing out the largest
    /// buffers if it would take the total past the budget.
    fn add(&mut self, p: usize, id: u64, index: u64, packed: &[u8]) -> Result<(), ExportError> {
        if self.poisoned {
            return Err(ExportError::Poisoned);
        }
        let n = HEADER + packed.len();
        if self.buffered + growth(&self.parts[p].buf, n) > self.budget {
            let r = self.make_room(p, n);
            if r.is_err() {
                self.poisoned = true;
                return r;
            }
        }
        let part = &mut self.parts[p];
        let before = part.buf.capacity();
        let grow = growth(&part.buf, n);
        // `reserve_exact` counts from the length: room for the growth beyond the capacity.
        part.buf.reserve_exact(before + grow - part.buf.len());
        part.buf.extend_from_slice(&id.to_le_bytes());
        part.buf.extend_from_slice(&index.to_le_bytes());
        part.buf
            .extend_from_slice(&(packed.len() as u32).to_le_bytes());
        part.buf.extend_from_slice(packed);
        self.buffered += part.buf.capacity() - before;
        self.peak = self.peak.max(self.buffered);
        Ok(())
    }

    /// Writes out the largest buffers until adding `n` bytes to partition `p` leaves half the
    /// budget free (or every buffer is empty).
    fn make_room(&mut self, p: usize, n: usize) -> Result<(), ExportError> {
        let mut order: Vec<usize> = (0..self.parts.len())
            .filter(|&q| self.parts[q].buf.capacity() > 0)
            .collect();
        order.sort_by_key(|&q| (std::cmp::Reverse(self.parts[q].buf.capacity()), q));
        for q in order {
            if self.buffered + growth(&self.parts[p].buf, n) <= self.budget / 2 {
                break;
            }
            self.write_out(q)?;
        }
        Ok(())
    }

    /// Empties partition `p`'s buffer: a row group of each of its files when they are open
    /// (or can be opened), else appended to its file on disk.
    fn write_out(&mut self, p: usize) -> Result<(), ExportError> {
        let buf = std::mem::take(&mut self.parts[p].buf);
        self.buffered -= buf.capacity();
        if buf.is_empty() {
            return Ok(());
        }
        let part = &self.parts[p];
        if part.writer.is_none() && (part.spilled || self.open >= self.max_open) {
            return self.spill(p, &buf);
        }
        self.open_files(p)?;
        let Some(sink) = self.parts[p].writer.as_mut() else {
            return Err(ExportError::Poisoned);
        };
        let mut games = Unpack(&buf);
        let (mut game, mut diags) = (GameRow::default(), Vec::new());
        while !games.0.is_empty() {
            let id = games.u64().ok_or_else(corrupt)?;
            let index = games.u64().ok_or_else(corrupt)?;
            let _len = games.u32().ok_or_else(corrupt)?;
            sink.push_packed(&mut games, (id, index), &mut game, &mut diags)?;
        }
        sink.end_row_groups()
    }

    /// The file holding the rows of partition `p` set aside on disk.
    fn spill_path(&self, p: usize) -> PathBuf {
        self.root.join(SPILL_DIR).join(p.to_string())
    }

    /// Appends `bytes` (games as in a buffer) to partition `p`'s file on disk.
    fn spill(&mut self, p: usize, bytes: &[u8]) -> Result<(), ExportError> {
        use std::io::Write;
        let path = self.spill_path(p);
        if !self.parts[p].spilled {
            create_dir(&self.root.join(SPILL_DIR))?;
        }
        let io = |source| ExportError::Io {
            context: format!(
                "setting rows aside in {}",
                outfile::committed_path(&path).display()
            ),
            source,
        };
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(io)?;
        self.parts[p].spilled = true;
        self.spilled += bytes.len() as u64;
        Ok(())
    }

    /// Opens partition `p`'s files if they are not open.
    fn open_files(&mut self, p: usize) -> Result<(), ExportError> {
        if self.parts[p].writer.is_some() {
            return Ok(());
        }
        let part = &mut self.parts[p];
        let mut paths = Vec::with_capacity(3);
        for file in [GAMES_FILE, PLIES_FILE, DIAGNOSTICS_FILE] {
            let table = file.trim_end_matches(".parquet");
            let dir = self.root.join(table).join(&part.folder);
            create_dir(&dir)?;
            paths.push(dir.join(PART_FILE));
        }
        let paths: [PathBuf; 3] = paths.try_into().map_err(|_| ExportError::Poisoned)?;
        part.writer = Some(ParquetSink::with_paths(paths, self.options)?);
        self.open += 1;
        Ok(())
    }

    /// Closes partition `p`'s files.
    fn close_files(&mut self, p: usize) -> Result<(), ExportError> {
        if let Some(sink) = self.parts[p].writer.take() {
            self.open -= 1;
            let c = sink.finish()?;
            self.closed.games += c.games;
            self.closed.plies += c.plies;
            self.closed.diagnostics += c.diagnostics;
            self.closed.games_with_errors += c.games_with_errors;
        }
        Ok(())
    }

    /// Writes a partition whose rows were set aside: its files, from its rows on disk then
    /// its buffer, and closes them.
    fn write_spilled(&mut self, p: usize) -> Result<(), ExportError> {
        use std::io::Read;
        self.open_files(p)?;
        let path = self.spill_path(p);
        let io = |source| ExportError::Io {
            context: format!(
                "reading back rows set aside in {}",
                outfile::committed_path(&path).display()
            ),
            source,
        };
        let mut input = std::io::BufReader::new(std::fs::File::open(&path).map_err(io)?);
        let Some(sink) = self.parts[p].writer.as_mut() else {
            return Err(ExportError::Poisoned);
        };
        let (mut game, mut diags) = (GameRow::default(), Vec::new());
        let mut header = [0u8; HEADER];
        let mut packed = Vec::new();
        loop {
            match input.read_exact(&mut header) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(io(e)),
            }
            let mut h = Unpack(&header);
            let id = h.u64().ok_or_else(corrupt)?;
            let index = h.u64().ok_or_else(corrupt)?;
            let len = h.u32().ok_or_else(corrupt)? as usize;
            packed.resize(len, 0);
            input.read_exact(&mut packed).map_err(io)?;
            let mut one = Unpack(&packed);
            sink.push_packed(&mut one, (id, index), &mut game, &mut diags)?;
        }
        drop(input);
        let _ = std::fs::remove_file(&path);
        self.write_out(p)?;
        self.close_files(p)
    }

    /// Writes every buffer out and closes every partition's files; returns the rows written
    /// in all.
    pub fn finish(mut self) -> Result<Counts, ExportError> {
        if self.poisoned {
            return Err(ExportError::Poisoned);
        }
        let mut order: Vec<usize> = (0..self.parts.len()).collect();
        order.sort_by(|&a, &b| self.parts[a].folder.cmp(&self.parts[b].folder));
        // The partitions with open files first, so that they are closed before any other
        // is opened.
        for &p in &order {
            if self.parts[p].writer.is_some() {
                self.write_out(p)?;
                self.close_files(p)?;
            }
        }
        for &p in &order {
            if self.parts[p].spilled {
                self.write_spilled(p)?;
            } else if !self.parts[p].buf.is_empty() {
                self.write_out(p)?;
                self.close_files(p)?;
            }
        }
        let spill = self.root.join(SPILL_DIR);
        if spill.exists() {
            std::fs::remove_dir_all(&spill).map_err(|source| ExportError::Io {
                context: format!("removing {}", outfile::committed_path(&spill).display()),
                source,
            })?;
        }
        Ok(self.closed)
    }
}

/// Bytes `buf` must grow by to take `n` more: none when it has room, else it doubles (to at
/// least what is needed, and [`MIN_BUFFER`]).
fn growth(buf: &Vec<u8>, n: usize) -> usize {
    let (len, cap) = (buf.len(), buf.capacity());
    if len + n <= cap {
        return 0;
    }
    (cap * 2).max(len + n).max(MIN_BUFFER) - cap
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

    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("export-part-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// `game_id` and `index_in_file` of every row of a table's files under `dir`.
    fn ids(dir: &Path) -> Vec<(u64, u64)> {
        use arrow_array::cast::AsArray;
        use arrow_array::types::UInt64Type;
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                let f = std::fs::File::open(&p).unwrap();
                for b in ParquetRecordBatchReaderBuilder::try_new(f)
                    .unwrap()
                    .build()
                    .unwrap()
                {
                    let b = b.unwrap();
                    let id = b
                        .column_by_name("game_id")
                        .unwrap()
                        .as_primitive::<UInt64Type>();
                    match b.column_by_name("index_in_file") {
                        Some(ix) => {
                            let ix = ix.as_primitive::<UInt64Type>();
                            out.extend(
                                id.values().iter().copied().zip(ix.values().iter().copied()),
                            );
                        }
                        None => out.extend(id.values().iter().map(|&i| (i, 0))),
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    fn game(i: u64, years: u64) -> (GameRow, Vec<PlyRow>) {
        let mut g = GameRow {
            file: "many.pdn".into(),
            index: i + 1,
            offset: i * 100,
            variant: Some("english".into()),
            ..GameRow::default()
        };
        g.set_tag("Date", &format!("{}.01.01", 1000 + (i * 7919) % years));
        g.set_tag("Event", &format!("Event {i}"));
        let plies = (1..=4)
            .map(|ply| PlyRow {
                ply,
                mover: "Black".into(),
                notation: Some("11-15".into()),
                position_key: i * 10 + u64::from(ply),
                ..PlyRow::default()
            })
            .collect();
        (g, plies)
    }

    /// The buffers never hold more than the budget, however many partitions the games go to,
    /// and every game is written once with its own `game_id` and `index`.
    #[test]
    fn buffers_stay_within_the_budget_over_many_partitions() {
        for (years, max_open) in [(1, 32), (7, 32), (300, 32), (300, 4)] {
            let dir = scratch(&format!("budget-{years}-{max_open}"));
            let mut sink =
                PartitionedSink::create(&dir, vec![PartitionColumn::Year], SinkOptions::default())
                    .unwrap();
            let budget = 32 << 10;
            sink.set_budget(budget);
            sink.set_max_open(max_open);
            let n = 3000u64;
            for i in 0..n {
                let (g, plies) = game(i, years);
                assert_eq!(sink.push_game(&g, &plies, &[]).unwrap(), i);
                assert!(sink.buffered_bytes() <= budget, "{}", sink.buffered_bytes());
            }
            assert!(sink.peak_buffered_bytes() <= budget);
            // The budget was reached: games were written out before the end, into files or
            // set aside on disk when too many partitions have files open.
            assert!(sink.open_partitions() > 0);
            assert_eq!(sink.open_partitions(), (years as usize).min(max_open));
            assert_eq!(sink.spilled_bytes() > 0, years as usize > max_open);
            let counts = sink.finish().unwrap();
            assert_eq!((counts.games, counts.plies), (n, 4 * n));
            let games = ids(&dir.join("games"));
            assert_eq!(games, (0..n).map(|i| (i, i + 1)).collect::<Vec<_>>());
            let plies = ids(&dir.join("plies"));
            assert_eq!(plies.len() as u64, 4 * n);
            assert!(plies
                .chunks(4)
                .enumerate()
                .all(|(i, c)| c.iter().all(|p| p.0 == i as u64)));
            // One file per partition and table; nothing else left.
            let mut top: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            top.sort();
            assert_eq!(top, ["diagnostics", "games", "plies"]);
            for table in top {
                let folders: Vec<_> = std::fs::read_dir(dir.join(table))
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect();
                assert_eq!(folders.len() as u64, years);
                for f in folders {
                    let names: Vec<_> = std::fs::read_dir(f)
                        .unwrap()
                        .map(|e| e.unwrap().file_name())
                        .collect();
                    assert_eq!(names, [PART_FILE]);
                }
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

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
