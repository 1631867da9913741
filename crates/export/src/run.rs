//! A run over many inputs: every input cut into chunks, consecutive small chunks checked
//! together as one batch on the rayon pool, the results written in input order.
//!
//! A folder of small files would otherwise cost a hand-over between threads, a referee and
//! a Parquet row group for every file, and leave the pool's threads idle between them. A
//! batch holds at least [`BATCH_BYTES`] of input (or the rest of it). The games of a batch
//! are numbered within their inputs there, and the sink renumbers those at its start that
//! continue an input begun in an earlier batch ([`Continued`]).

use std::io::Read;
use std::sync::Arc;

use pdn::chunk::{batched, map_ordered, Chunk, Chunker};
use referee::{Catalog, Settings};

use crate::convert::{diagnostic_rows, encode_plies, game_row, EncodedChunk, Recorded, Recorder};
use crate::partition::{folder_of, PartitionColumn, PartitionedChunk, PartitionedSink};
use crate::sink::shift_columns;
use crate::{
    Counts, DiagnosticRow, EncodedGames, ExportError, GameRow, ParquetSink, PlyEncoding,
    TableBatches, DIAGNOSTICS_FILE, GAMES_FILE, PLIES_FILE,
};
use arrow_array::RecordBatch;

/// Input bytes of consecutive chunks checked as one batch.
pub const BATCH_BYTES: usize = 1 << 20;

/// One input of a run ([`export_inputs`]).
pub enum Input<R> {
    /// An input opened: its name and its bytes.
    Open(String, R),
    /// An input that cannot be read: its name and the reason, handed to the run's
    /// `unreadable` callback in its turn.
    Unreadable(String, String),
}

/// The first games of a pushed run that continue an input begun in an earlier run: their
/// `index` (counted from 1 in the run) is shifted by the games of that input before it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Continued {
    /// Games of the input in earlier runs.
    pub before: u64,
    /// Games at the start of this run that belong to that input.
    pub games: usize,
}

/// A piece of a run: a chunk of input number `file`, or that input unreadable.
enum Piece {
    Chunk {
        file: usize,
        name: Arc<str>,
        chunk: Chunk,
    },
    Unreadable {
        name: String,
        reason: String,
    },
}

impl Piece {
    fn len(&self) -> usize {
        match self {
            Piece::Chunk { chunk, .. } => chunk.bytes.len(),
            Piece::Unreadable { .. } => 0,
        }
    }
}

/// What a batch held, in order: the games of each chunk, and the inputs found unreadable.
enum Segment {
    Games { file: usize, games: usize },
    Unreadable { name: String, reason: String },
}

/// A batch checked: what it gives the sink, and its segments.
struct Done<T> {
    out: T,
    segments: Vec<Segment>,
}

/// Every input's chunks (of about `chunk_size` bytes) in order; a read error names its input
/// and ends the run.
fn pieces<'a, R: Read + 'a>(
    inputs: impl Iterator<Item = Input<R>> + 'a,
    chunk_size: usize,
) -> impl Iterator<Item = Result<Piece, ExportError>> + 'a {
    inputs.enumerate().flat_map(move |(file, input)| {
        let chunks: Box<dyn Iterator<Item = Result<Piece, ExportError>> + 'a> = match input {
            Input::Open(name, reader) => {
                let name: Arc<str> = name.into();
                Box::new(Chunker::with_target(reader, chunk_size).map(move |c| {
                    c.map(|chunk| Piece::Chunk {
                        file,
                        name: Arc::clone(&name),
                        chunk,
                    })
                    .map_err(|source| ExportError::Io {
                        context: format!("reading {name}"),
                        source,
                    })
                }))
            }
            Input::Unreadable(name, reason) => {
                Box::new(std::iter::once(Ok(Piece::Unreadable { name, reason })))
            }
        };
        chunks
    })
}

/// The chunks of a batch, each with its input's number and name.
pub type Chunks<'a> = [(usize, &'a str, &'a Chunk)];

/// The inputs' batches checked by `work` on the rayon pool (at most `in_flight` at a time)
/// and handed to `push` in input order, with the games that continue an earlier batch's
/// input; unreadable inputs go to `unreadable` in their turn. `work` gives what the batch
/// holds for the sink and the number of games of each chunk.
fn run<R, T, W, P, U>(
    inputs: impl Iterator<Item = Input<R>>,
    chunk_size: usize,
    in_flight: usize,
    work: W,
    mut push: P,
    mut unreadable: U,
) -> Result<(), ExportError>
where
    R: Read,
    T: Send,
    W: Fn(&Chunks<'_>) -> Result<(T, Vec<usize>), ExportError> + Sync,
    P: FnMut(T, Continued) -> Result<(), ExportError>,
    U: FnMut(&str, &str) -> Result<(), ExportError>,
{
    let mut numbering = Numbering::default();
    map_ordered(
        batched(pieces(inputs, chunk_size), BATCH_BYTES, Piece::len),
        in_flight,
        |batch| check(batch, &work),
        |done| {
            let Done { out, segments } = done?;
            let games = segments.iter().filter_map(|s| match s {
                Segment::Games { file, games } => Some((*file, *games)),
                Segment::Unreadable { .. } => None,
            });
            let (_, continued) = numbering.place(games);
            push(out, continued)?;
            for segment in segments {
                if let Segment::Unreadable { name, reason } = segment {
                    unreadable(&name, &reason)?;
                }
            }
            Ok(())
        },
    )
}

/// Where the batches of a run go in the whole: the `game_id` of each batch's first game and
/// the games at its start that continue an input begun in an earlier batch. Batches are
/// placed in input order.
#[derive(Debug, Default)]
pub struct Numbering {
    /// The input placed last, and its games so far.
    input: Option<usize>,
    in_input: u64,
    next_id: u64,
}

impl Numbering {
    /// Places a batch whose chunks (in order) are of inputs `file` with `games` games each;
    /// returns the `game_id` of its first game and the games that continue an input.
    pub fn place(&mut self, chunks: impl IntoIterator<Item = (usize, usize)>) -> (u64, Continued) {
        let first = self.next_id;
        let mut continued = Continued {
            before: self.in_input,
            games: 0,
        };
        let mut leading = true;
        for (file, games) in chunks {
            if self.input != Some(file) {
                leading = false;
                self.input = Some(file);
                self.in_input = 0;
            }
            if leading {
                continued.games += games;
            }
            self.in_input += games as u64;
            self.next_id += games as u64;
        }
        (first, continued)
    }
}

/// Numbers the games of a batch within their inputs, from 1 for each input the batch
/// begins with or starts (the sink renumbers the games of an input continued from an
/// earlier batch).
#[derive(Default)]
struct Index {
    input: Option<usize>,
    games: u64,
}

impl Index {
    /// A chunk of `input` begins: returns the games of that input already numbered.
    fn start(&mut self, input: usize) -> u64 {
        if self.input != Some(input) {
            self.input = Some(input);
            self.games = 0;
        }
        self.games
    }

    /// The next game's `index`.
    fn next(&mut self) -> u64 {
        self.games += 1;
        self.games
    }
}

/// Runs `work` over a batch's chunks and lays out its segments.
fn check<T>(
    batch: &[Piece],
    work: &(impl Fn(&Chunks<'_>) -> Result<(T, Vec<usize>), ExportError> + Sync),
) -> Result<Done<T>, ExportError> {
    let chunks: Vec<(usize, &str, &Chunk)> = batch
        .iter()
        .filter_map(|p| match p {
            Piece::Chunk { file, name, chunk } => Some((*file, &**name, chunk)),
            Piece::Unreadable { .. } => None,
        })
        .collect();
    let (out, games) = work(&chunks)?;
    let mut games = games.into_iter();
    let segments = batch
        .iter()
        .map(|p| match p {
            Piece::Chunk { file, .. } => Segment::Games {
                file: *file,
                games: games.next().unwrap_or(0),
            },
            Piece::Unreadable { name, reason } => Segment::Unreadable {
                name: name.clone(),
                reason: reason.clone(),
            },
        })
        .collect();
    Ok(Done { out, segments })
}

/// Reads every game of `inputs` in chunks of about `chunk_size` bytes, checks them on the
/// rayon pool in batches (at most `in_flight` at a time) and pushes their rows into `sink`
/// in input order; each unreadable input is handed to `unreadable` (name, reason), whose
/// error ends the run. Returns the rows added. The files are the same as
/// [`crate::export_reader`] writes for the inputs one after the other, but for how the plies
/// are cut into row groups.
pub fn export_inputs<R: Read>(
    sink: &mut ParquetSink,
    catalog: &dyn Catalog,
    inputs: impl Iterator<Item = Input<R>>,
    settings: &Settings,
    (chunk_size, in_flight): (usize, usize),
    unreadable: impl FnMut(&str, &str) -> Result<(), ExportError>,
) -> Result<Counts, ExportError> {
    let before = sink.counts();
    let encoding = sink.ply_encoding();
    run(
        inputs,
        chunk_size,
        in_flight,
        |chunks| encode_chunks(catalog, chunks, settings, &encoding),
        |encoded: EncodedChunk, continued| {
            sink.push_encoded(
                encoded.games,
                continued,
                &encoded.diagnostics,
                encoded.plies,
            )
            .map(drop)
        },
        unreadable,
    )?;
    Ok(crate::convert::difference(sink.counts(), before))
}

/// Like [`export_inputs`], into a [`PartitionedSink`]: each game's rows are packed as bytes
/// with their partition on the thread that checks them.
pub fn export_inputs_partitioned<R: Read>(
    sink: &mut PartitionedSink,
    catalog: &dyn Catalog,
    inputs: impl Iterator<Item = Input<R>>,
    settings: &Settings,
    (chunk_size, in_flight): (usize, usize),
    unreadable: impl FnMut(&str, &str) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let by = sink.columns().to_vec();
    run(
        inputs,
        chunk_size,
        in_flight,
        |chunks| Ok(partition_chunks(catalog, chunks, settings, &by)),
        |packed, continued| sink.push_chunk(packed, continued).map(drop),
        unreadable,
    )
}

/// Reads and checks every game of a batch's chunks with one referee, and hands `f` each
/// game's row (offsets and places in each whole input; `index` from 1 within each input of
/// the batch), its record and, with `diagnostics`, its diagnostics rows. Returns the number
/// of games of each chunk.
fn each_game(
    catalog: &dyn Catalog,
    chunks: &Chunks<'_>,
    settings: &Settings,
    diagnostics: bool,
    mut f: impl FnMut(&GameRow, &Recorded, Vec<DiagnosticRow>),
) -> Vec<usize> {
    let mut recorder = Recorder::new(catalog, settings.clone());
    let mut counts = Vec::with_capacity(chunks.len());
    let mut numbering = Index::default();
    for &(input, file, chunk) in chunks {
        let mut reader = chunk.reader();
        let before = numbering.start(input);
        // Reading from memory cannot fail.
        while let Ok(Some(rec)) = reader.read_game(&mut recorder) {
            let index = numbering.next();
            let game = game_row(file, index, chunk.absolute_offset(rec.offset), &rec);
            let diags = match diagnostics {
                true => diagnostic_rows(file, &rec, |b| chunk.absolute(reader.locate(b))),
                false => Vec::new(),
            };
            f(&game, &rec, diags);
            recorder.recycle(rec);
        }
        counts.push((numbering.games - before) as usize);
    }
    counts
}

/// Checks every game of a batch's chunks and encodes their plies on the calling thread,
/// with one encoder for the batch (the sink renumbers a continued input's games). Returns
/// the encoded games and the number of games of each chunk.
pub(crate) fn encode_chunks(
    catalog: &dyn Catalog,
    chunks: &Chunks<'_>,
    settings: &Settings,
    encoding: &PlyEncoding,
) -> Result<(EncodedChunk, Vec<usize>), ExportError> {
    let mut encoder = encoding.encoder();
    let mut games = EncodedGames::default();
    let mut diagnostics = Vec::new();
    let counts = each_game(catalog, chunks, settings, true, |game, rec, diags| {
        let number = games.len() as u32;
        encode_plies(&mut encoder, number, rec);
        games.push(game);
        diagnostics.extend(diags.into_iter().map(|d| (number, d)));
    });
    let encoded = EncodedChunk {
        games,
        diagnostics,
        plies: encoder.finish()?,
    };
    Ok((encoded, counts))
}

/// Checks every game of a batch's chunks and packs its rows with the partition (under
/// columns `by`) it goes to, in input order; returns them and the games of each chunk.
pub(crate) fn partition_chunks(
    catalog: &dyn Catalog,
    chunks: &Chunks<'_>,
    settings: &Settings,
    by: &[PartitionColumn],
) -> (PartitionedChunk, Vec<usize>) {
    let mut out = PartitionedChunk::default();
    let counts = each_game(catalog, chunks, settings, true, |game, rec, diags| {
        out.push(folder_of(by, game), game, rec, &diags);
    });
    // It waits for its turn with the batches in flight: no more than its bytes.
    out.shrink_to_fit();
    (out, counts)
}

/// Which tables [`tables_of_chunks`] fills besides `games` (the others come back empty).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wanted {
    /// The plies table.
    pub plies: bool,
    /// The diagnostics table.
    pub diagnostics: bool,
}

/// Checks every game of a batch's chunks and builds its rows as the three tables of
/// [`TableBatches`] (games, plies, diagnostics; `fen_after` with `settings.positions`), with
/// `game_id` from 0 and `index` from 1 within each input of the batch ([`renumber`] places
/// them in the run). Returns them with the number of games of each chunk.
pub fn tables_of_chunks(
    catalog: &dyn Catalog,
    chunks: &Chunks<'_>,
    settings: &Settings,
    wanted: Wanted,
) -> Result<([RecordBatch; 3], Vec<usize>), ExportError> {
    let mut tables = TableBatches::new(settings.positions);
    let counts = each_game(
        catalog,
        chunks,
        settings,
        wanted.diagnostics,
        |game, rec, diags| {
            tables.push_recorded(game, rec, &diags, wanted.plies);
        },
    );
    Ok((tables.take()?, counts))
}

/// Tables of [`tables_of_chunks`] renumbered for their place in a run
/// ([`Numbering::place`]): `first` added to every `game_id`, and the `index_in_file` of the
/// games that continue an earlier input shifted.
pub fn renumber(
    [games, plies, diagnostics]: [RecordBatch; 3],
    first: u64,
    continued: Continued,
) -> Result<[RecordBatch; 3], ExportError> {
    let shift = |batch: RecordBatch, file, index: bool| {
        let all = batch.num_rows();
        let mut shifts = vec![("game_id", first, all)];
        if index {
            shifts.push(("index_in_file", continued.before, continued.games));
        }
        shift_columns(batch, &shifts).map_err(|source| ExportError::Arrow { file, source })
    };
    Ok([
        shift(games, GAMES_FILE, true)?,
        shift(plies, PLIES_FILE, false)?,
        shift(diagnostics, DIAGNOSTICS_FILE, false)?,
    ])
}
