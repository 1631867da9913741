//! From the referee's reports to rows.
//!
//! [`Recorder`] is a [`Visitor`] that runs a [`Referee`] and also keeps the game's tags and
//! offset, which the report does not carry. [`game_row`], [`ply_rows`] and
//! [`diagnostic_rows`] turn what it returns into rows; [`export_reader`] and
//! [`export_chunked`] do the whole job for one input.
//!
//! The plies table comes from the referee's per-ply detail records ([`referee::PlyDetail`], asked for
//! with [`Settings::details`]) and the number of pieces taken from its [`game::PlyFacts`].
//! The converter names no game: seat names and result spelling come from the game's
//! [`GameInfo`].

use std::io::Read;
use std::ops::ControlFlow;

use game::{GameInfo, Outcome};
use pdn::chunk::Chunk;
use pdn::{CommentKind, Location, Reader, Span, SyntaxProblem, Visitor};
use referee::{Catalog, GameReport, Referee, Settings, Severity, Squares};

use crate::partition::PartitionedSink;
use crate::run::{export_inputs, export_inputs_partitioned, Input};
use crate::sink::{PlyFields, Throws};
use crate::{
    Counts, DiagnosticRow, EncodedGames, EncodedPlies, ExportError, GameRow, ParquetSink,
    PlyEncoder, PlyRow,
};

/// One game as the [`Recorder`] saw it.
#[derive(Debug, Clone, Default)]
pub struct Recorded {
    /// Offset of the game's first byte, as the reader gave it.
    pub offset: u64,
    /// Tags in file order, values unescaped (invalid UTF-8 replaced).
    pub tags: Vec<(String, String)>,
    /// The referee's report (with [`Settings::collect_facts`] and [`Settings::details`]).
    pub report: GameReport,
}

/// A visitor that runs a [`Referee`] and keeps the tags and offset of each game.
pub struct Recorder<'c> {
    referee: Referee<'c>,
    tags: Vec<(String, String)>,
    offset: u64,
}

impl<'c> Recorder<'c> {
    /// A recorder whose referee knows the games of `catalog` and has `settings`;
    /// `collect_facts` and `details` are switched on (the plies table needs them).
    pub fn new(catalog: &'c dyn Catalog, mut settings: Settings) -> Self {
        settings.collect_facts = true;
        settings.details = true;
        Recorder {
            referee: Referee::new(catalog, settings),
            tags: Vec::new(),
            offset: 0,
        }
    }

    /// Hands a game's buffers back once its rows are made, so that the next game fills
    /// them instead of growing new ones ([`Referee::recycle_facts`],
    /// [`Referee::recycle_details`]).
    pub fn recycle(&mut self, rec: Recorded) {
        let Recorded {
            mut tags, report, ..
        } = rec;
        self.referee.recycle_facts(report.facts);
        self.referee.recycle_details(report.details);
        tags.clear();
        self.tags = tags;
    }
}

impl Visitor for Recorder<'_> {
    type Output = Recorded;

    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        self.tags.clear();
        self.offset = offset;
        self.referee.begin_game(offset)
    }
    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        self.tags.push((
            String::from_utf8_lossy(name).into_owned(),
            String::from_utf8_lossy(&pdn::unescape(value)).into_owned(),
        ));
        self.referee.tag(name, value, span)
    }
    fn begin_movetext(&mut self) -> ControlFlow<()> {
        self.referee.begin_movetext()
    }
    fn move_number(&mut self, number: u32, continuation: bool, span: Span) -> ControlFlow<()> {
        self.referee.move_number(number, continuation, span)
    }
    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.referee.mov(token, span)
    }
    fn strength(&mut self, mark: &[u8], span: Span) -> ControlFlow<()> {
        self.referee.strength(mark, span)
    }
    fn nag(&mut self, nag: u16, span: Span) -> ControlFlow<()> {
        self.referee.nag(nag, span)
    }
    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) -> ControlFlow<()> {
        self.referee.comment(text, kind, span)
    }
    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        self.referee.setup(fen, span)
    }
    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.referee.begin_variation(span)
    }
    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.referee.end_variation(span)
    }
    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.referee.result(token, span)
    }
    fn problem(&mut self, problem: SyntaxProblem) {
        self.referee.problem(problem)
    }
    fn end_game(&mut self, span: Span) -> Recorded {
        Recorded {
            offset: self.offset,
            tags: std::mem::take(&mut self.tags),
            report: self.referee.end_game(span),
        }
    }
}

/// A result as the game writes it: `1-0`, `0-1` for two sides, else seat results built
/// from the first letters of the seat names (`S+W-`, `N+`); `1/2-1/2`, `*` for all.
pub fn result_text(game: Option<&GameInfo>, outcome: Outcome) -> String {
    let letter = |seat: game::Seat| {
        game.and_then(|g| g.seat_names.get(usize::from(seat.0)))
            .and_then(|n| n.chars().next())
            .map_or_else(|| format!("#{}", seat.0), String::from)
    };
    match outcome {
        Outcome::Draw => "1/2-1/2".to_string(),
        Outcome::Unfinished => "*".to_string(),
        Outcome::Win { winner, .. } if game.is_some_and(|g| g.profile.two_sides) => {
            if winner.0 == 0 { "1-0" } else { "0-1" }.to_string()
        }
        Outcome::Win { winner, loser } => {
            let mut s = format!("{}+", letter(winner));
            if let Some(l) = loser {
                s.push_str(&letter(l));
                s.push('-');
            }
            s
        }
    }
}

/// The games row of a recorded game. `offset` is the game's absolute offset in the input
/// (the recorded offset plus the chunk's base when reading chunks); `index` its 1-based
/// position in the input.
pub fn game_row(file: &str, index: u64, offset: u64, rec: &Recorded) -> GameRow {
    let r = &rec.report;
    let mut row = GameRow {
        file: file.to_string(),
        offset,
        index,
        variant: r.game.map(|g| g.id.to_string()),
        recorded_result: r.recorded.map(|o| result_text(r.game, o)),
        rules_result: r.terminal.map(|o| result_text(r.game, o)),
        plies_written: r.plies_written,
        plies_replayed: r.plies,
        opening: (!r.opening.is_empty()).then(|| r.opening.clone()),
        start_key: r.start_key,
        ..GameRow::default()
    };
    for (name, value) in &rec.tags {
        row.set_tag(name, value);
    }
    for d in &r.diagnostics {
        match d.severity {
            Severity::Error => {
                row.errors += 1;
                if row.first_error_code.is_none() {
                    row.first_error_code = Some(d.code.to_string());
                    row.first_error_ply = d.ply;
                }
            }
            Severity::Warning => row.warnings += 1,
            Severity::Note => {}
        }
    }
    row
}

/// The plies rows of a recorded game (its main line, as far as it was replayed).
pub fn ply_rows(rec: &Recorded) -> Vec<PlyRow> {
    let mut rows = Vec::with_capacity(rec.report.details.len());
    each_ply(rec, |p| rows.push(p.into_row()));
    rows
}

/// Adds the plies of a recorded game to `encoder` as game `game` of the encoder: the same
/// values as [`ply_rows`], written straight from the referee's detail records.
pub fn encode_plies(encoder: &mut PlyEncoder, game: u32, rec: &Recorded) {
    each_ply(rec, |fields| encoder.push(game, fields));
}

/// Hands the plies of a recorded game to `f` as borrowed fields: the values of
/// [`ply_rows`], straight from the referee's detail records.
pub(crate) fn each_ply(rec: &Recorded, mut f: impl FnMut(PlyFields<'_, Squares<'_>>)) {
    let names = rec.report.game.map_or(&[][..], |g| g.seat_names);
    let facts = &rec.report.facts;
    for (i, d) in rec.report.details.iter().enumerate() {
        let captured = d.captured.len() as u32;
        let taken = facts.get(i).map(|f| f.captures);
        let unnamed;
        let mover = match names.get(usize::from(d.mover)) {
            Some(name) => *name,
            None => {
                unnamed = format!("seat {}", d.mover);
                &unnamed
            }
        };
        f(PlyFields {
            ply: d.ply,
            mover,
            notation: Some(d.notation),
            from: d.from,
            to: d.to,
            captured: d.captured,
            pieces_taken: taken.map_or(captured, u32::from),
            promotion: d.promotion,
            position_key: d.key,
            fen_after: (!d.position.is_empty()).then_some(d.position),
            throws: Throws::Narrow(d.throws),
            lost_throws: u32::from(d.lost_throws),
        });
    }
}

/// The diagnostics rows of a recorded game; `locate` gives the place of an offset as the
/// reader reported it (see [`Reader::locate`], [`Chunk::absolute`]).
pub fn diagnostic_rows(
    file: &str,
    rec: &Recorded,
    mut locate: impl FnMut(u64) -> Location,
) -> Vec<DiagnosticRow> {
    rec.report
        .diagnostics
        .iter()
        .map(|d| {
            let at = locate(d.span.start);
            DiagnosticRow {
                file: file.to_string(),
                byte: at.byte,
                line: at.line,
                column: at.column,
                code: d.code.to_string(),
                severity: d.severity.as_str().to_string(),
                message: d.message.clone(),
                ply: d.ply,
                move_number: d.move_number,
            }
        })
        .collect()
}

/// The three kinds of rows of one game.
pub type GameRows = (GameRow, Vec<PlyRow>, Vec<DiagnosticRow>);

/// Reads every game of `input` (named `file`), checks it and pushes its rows into `sink`.
/// Returns the rows added.
pub fn export_reader<R: Read>(
    sink: &mut ParquetSink,
    catalog: &dyn Catalog,
    file: &str,
    input: R,
    settings: &Settings,
) -> Result<Counts, ExportError> {
    let before = sink.counts();
    let mut reader = Reader::new(input);
    let mut recorder = Recorder::new(catalog, settings.clone());
    let mut index = 0;
    loop {
        let rec = match reader.read_game(&mut recorder) {
            Ok(Some(rec)) => rec,
            Ok(None) => break,
            Err(source) => {
                return Err(ExportError::Io {
                    context: format!("reading {file}"),
                    source,
                })
            }
        };
        index += 1;
        let game = game_row(file, index, rec.offset, &rec);
        let plies = ply_rows(&rec);
        let diags = diagnostic_rows(file, &rec, |b| reader.locate(b));
        recorder.recycle(rec);
        sink.push_game(&game, &plies, &diags)?;
    }
    Ok(difference(sink.counts(), before))
}

/// Like [`export_reader`], but reads `input` in chunks of about `chunk_size` bytes checked
/// on the rayon pool (at most `in_flight` chunks at a time); rows arrive in input order, so
/// the files are the same as [`export_reader`] writes ([`export_inputs`] with one input).
pub fn export_chunked<R: Read>(
    sink: &mut ParquetSink,
    catalog: &dyn Catalog,
    file: &str,
    input: R,
    settings: &Settings,
    chunk_size: usize,
    in_flight: usize,
) -> Result<Counts, ExportError> {
    let input = std::iter::once(Input::Open(file.to_string(), input));
    export_inputs(
        sink,
        catalog,
        input,
        settings,
        (chunk_size, in_flight),
        |_, _| Ok(()),
    )
}

/// Like [`export_chunked`], into a [`PartitionedSink`] ([`export_inputs_partitioned`] with
/// one input).
pub fn export_partitioned<R: Read>(
    sink: &mut PartitionedSink,
    catalog: &dyn Catalog,
    file: &str,
    input: R,
    settings: &Settings,
    chunk_size: usize,
    in_flight: usize,
) -> Result<(), ExportError> {
    let input = std::iter::once(Input::Open(file.to_string(), input));
    let limits = (chunk_size, in_flight);
    export_inputs_partitioned(sink, catalog, input, settings, limits, |_, _| Ok(()))
}

/// What a batch of chunks gives the sink: its games as columns, their diagnostics as rows,
/// and their plies already encoded (a batch of many small games is held as the bytes of its
/// values, whatever the number of games).
pub struct EncodedChunk {
    /// The games rows (`index` counts from 1 within each chunk).
    pub games: EncodedGames,
    /// The diagnostics rows, each with the number of its game in the batch (from 0).
    pub diagnostics: Vec<(u32, DiagnosticRow)>,
    /// The plies of those games, game `i` of the encoder being `games[i]`.
    pub plies: EncodedPlies,
}

/// The rows of every game of a chunk, with offsets and places in the whole input (`index`
/// counts from 1 within the chunk; the caller renumbers).
pub fn rows_of_chunk(
    catalog: &dyn Catalog,
    file: &str,
    chunk: &Chunk,
    settings: &Settings,
) -> Vec<GameRows> {
    let mut reader = chunk.reader();
    let mut recorder = Recorder::new(catalog, settings.clone());
    let mut out = Vec::new();
    // Reading from memory cannot fail.
    while let Ok(Some(rec)) = reader.read_game(&mut recorder) {
        let game = game_row(
            file,
            out.len() as u64 + 1,
            chunk.absolute_offset(rec.offset),
            &rec,
        );
        let plies = ply_rows(&rec);
        let diags = diagnostic_rows(file, &rec, |b| chunk.absolute(reader.locate(b)));
        out.push((game, plies, diags));
    }
    out
}

pub(crate) fn difference(after: Counts, before: Counts) -> Counts {
    Counts {
        games: after.games - before.games,
        plies: after.plies - before.plies,
        diagnostics: after.diagnostics - before.diagnostics,
        games_with_errors: after.games_with_errors - before.games_with_errors,
    }
}
