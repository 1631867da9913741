//! `select`: read every game once, judge it by the filters, and pass its bytes on as read.
//!
//! A [`Selector`] holds the filters. [`Selector::scan`] streams one input and hands each game
//! with its [`Verdict`] to a sink; [`select`] runs several inputs (in parallel when there are
//! several) and splits the games between OUT and REST in input order, dropping duplicates.
//! Memory stays constant in the size of the input: one game at a time, plus 16 bytes per
//! game kept when deduplicating.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::ops::{ControlFlow, Range};
use std::path::Path;

use game::{GameInfo, Options};
use games::Explorer;
use pdn::visitor::{CommentKind, Span, SyntaxProblem, Visitor};
use rayon::prelude::*;
use referee::{GameReport, Referee, Settings};

use crate::filter::{test_tags, Filter, Problems};
use crate::source::{is_read_error, read_error};

/// The filters of one `select` run.
#[derive(Clone)]
pub struct Selector {
    /// The games the records are identified and replayed against (passed in: a caller with
    /// games of its own hands its list here).
    pub games: &'static games::Games,
    /// Every filter must pass.
    pub filters: Vec<Filter>,
    /// Keep only the first of games with the same main line (see [`Verdict::hash`]).
    pub dedupe: bool,
    /// Swap OUT and REST: the games that fail some filter are selected.
    pub invert: bool,
    /// How games are replayed and identified (`--game`, `--default-game`, `--rules`).
    pub settings: Settings,
}

/// What became of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The game goes to OUT (after `invert`), unless it is a duplicate.
    pub selected: bool,
    /// With `dedupe`, for selected games: a 128-bit hash of the main line. Games with the
    /// same hash have the same sequence of positions from the same start position (known
    /// games replayed to the end), or the same start tag and move tokens (other games).
    pub hash: Option<u128>,
    /// The game was longer than the reader's buffer limit and its first bytes could not be
    /// kept: [`select`] refuses it (writes nothing of it) and counts it in
    /// [`SelectTally::truncated`].
    pub cut: bool,
    /// The game has no result token at its end (see [`SelectTally::open`]).
    pub open: bool,
}

/// Counts of a `select` run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SelectTally {
    /// Games read.
    pub read: u64,
    /// Games written to OUT.
    pub selected: u64,
    /// Games not selected (written to REST when there is one).
    pub rest: u64,
    /// Selected games dropped as duplicates of an earlier one.
    pub duplicates: u64,
    /// Games longer than the reader's buffer limit, whose first bytes could not be kept:
    /// refused, not written.
    pub truncated: u64,
    /// Games written without a result token at their end (unfinished records, or records
    /// cut short by an unterminated comment). Such a game ends only where the next game's
    /// tags begin, so a reader of the output joins to it whatever comment or movetext is
    /// written next, as it did in the input when such a game was last in its file.
    pub open: u64,
    /// Inputs that could not be read, whole or after some games (those games are kept).
    pub unreadable: u64,
}

impl SelectTally {
    fn add(&mut self, o: &SelectTally) {
        self.read += o.read;
        self.selected += o.selected;
        self.rest += o.rest;
        self.duplicates += o.duplicates;
        self.truncated += o.truncated;
        self.open += o.open;
        self.unreadable += o.unreadable;
    }
}

/// One input of [`select`]: a name for messages and a way to open it.
pub struct Input {
    /// Shown in error messages.
    pub name: String,
    /// Opens the input (decompressing it if need be).
    pub open: Box<dyn Fn() -> io::Result<Box<dyn Read + Send>> + Send + Sync>,
}

impl Default for Selector {
    /// No filter, over the standard list of games ([`games::games`]).
    fn default() -> Self {
        Selector {
            games: games::games(),
            filters: Vec::new(),
            dedupe: false,
            invert: false,
            settings: Settings::default(),
        }
    }
}

impl std::fmt::Debug for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Selector")
            .field("games", &self.games.registry().id_list())
            .field("filters", &self.filters)
            .field("dedupe", &self.dedupe)
            .field("invert", &self.invert)
            .field("settings", &self.settings)
            .finish()
    }
}

impl Selector {
    /// True when some filter (or `dedupe`) needs the games replayed.
    pub fn needs_replay(&self) -> bool {
        self.dedupe || self.filters.iter().any(Filter::needs_replay)
    }

    /// True when the replay must describe every ply (positions are compared).
    fn needs_details(&self) -> bool {
        self.dedupe
            || self
                .filters
                .iter()
                .any(|f| matches!(f, Filter::Position(_)))
    }

    /// Reads every game of `input` and hands it to `sink` with its verdict and its bytes
    /// exactly as read (from its first byte to its last; what lies between games is not
    /// part of any game). `progress` is told how many bytes were read, as they are read.
    /// Returns the number of games read, or the first I/O error: of the input (marked, see
    /// [`crate::is_read_error`]) or of the sink.
    pub fn scan(
        &self,
        input: impl Read,
        sink: &mut dyn FnMut(Verdict, &[u8]) -> io::Result<()>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> io::Result<u64> {
        let mut judge = Judge::new(self);
        let mut reader = pdn::Reader::new(Counted {
            inner: input,
            progress,
        });
        let mut games = 0;
        while let Some(span) = reader.read_game(&mut judge.scan).map_err(read_error)? {
            games += 1;
            let mut verdict = judge.verdict();
            let source = reader.source();
            verdict.cut = span.start < source.offset;
            verdict.open = judge.scan.result.is_none();
            let skip = span.start.saturating_sub(source.offset) as usize;
            sink(verdict, &source.text[skip.min(source.text.len())..])?;
        }
        Ok(games)
    }
}

/// Splits the games of `inputs` between `out` and `rest` (when given) in input order, each
/// game's bytes as read followed by a blank line. Selected games that repeat an earlier
/// selected game's hash are dropped. With several inputs and a filter that replays the
/// games, the inputs are read in parallel and their games kept in temporary files in `spool`
/// until their turn comes; tag-only filters read the inputs one after another.
///
/// An input that cannot be read, whole or from some game on, is handed to `unreadable` with
/// the error (in its turn, after its games read before the error) and the run goes on with
/// the next input. An error writing `out`, `rest` or the spool ends the run.
pub fn select(
    selector: &Selector,
    inputs: &[Input],
    out: &mut dyn Write,
    rest: Option<&mut dyn Write>,
    spool: &Path,
    progress: &(dyn Fn(u64) + Sync),
    unreadable: &mut dyn FnMut(&str, io::Error),
) -> io::Result<SelectTally> {
    let mut part = Partition {
        out,
        rest,
        seen: HashSet::new(),
        tally: SelectTally::default(),
    };
    // Tag-only filters run at reading speed, where a second reader would only add the
    // spooling (every game written twice); replays are worth spreading over the cores.
    if inputs.len() <= 1 || !selector.needs_replay() {
        for input in inputs {
            let scanned = (input.open)()
                .map_err(read_error)
                .and_then(|read| selector.scan(read, &mut |v, text| part.put(v, text), progress));
            match scanned {
                Ok(_) => {}
                Err(e) if is_read_error(&e) => {
                    part.tally.unreadable += 1;
                    unreadable(&input.name, e);
                }
                Err(e) => return Err(named(&input.name, e)),
            }
        }
        return Ok(part.tally);
    }
    let keep_rest = part.rest.is_some();
    let mut spooled: Vec<io::Result<Spooled>> = inputs
        .par_iter()
        .enumerate()
        .map(|(i, input)| {
            let base = spool.join(format!("select-{i}"));
            spool_one(selector, input, &base, keep_rest, progress)
                .map_err(|e| named(&input.name, e))
        })
        .collect();
    let mut result = Ok(());
    for (input, s) in inputs.iter().zip(&mut spooled) {
        if result.is_ok() {
            result = match s {
                Ok(s) => part.merge(s).map(|()| {
                    if let Some(e) = s.failed.take() {
                        part.tally.unreadable += 1;
                        unreadable(&input.name, e);
                    }
                }),
                Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
            };
        }
    }
    // The spool files are removed as `spooled` is dropped.
    result.map(|()| part.tally)
}

fn named(name: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{name}: {e}"))
}

/// The games of one input, kept on disk until their turn.
struct Spooled {
    /// Exclusive temporaries (see [`outfile::TempFile`]), never committed: removed when
    /// dropped, or by the signal cleanup.
    out: outfile::TempFile,
    rest: Option<outfile::TempFile>,
    /// Per selected game: bytes in `out` and hash.
    selected: Vec<(u64, Option<u128>)>,
    tally: SelectTally,
    /// The error that stopped reading the input, if one did (the games before it are kept).
    failed: Option<io::Error>,
}

fn spool_one(
    selector: &Selector,
    input: &Input,
    base: &Path,
    keep_rest: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> io::Result<Spooled> {
    let mut out = BufWriter::new(outfile::TempFile::create(&base.with_extension("out"))?);
    let mut rest = keep_rest
        .then(|| outfile::TempFile::create(&base.with_extension("rest")).map(BufWriter::new))
        .transpose()?;
    let mut selected = Vec::new();
    let mut tally = SelectTally::default();
    let scanned = (input.open)().map_err(read_error).and_then(|read| {
        selector.scan(
            read,
            &mut |v, text| {
                tally.read += 1;
                tally.truncated += u64::from(v.cut);
                tally.open += u64::from(v.open);
                if v.cut {
                    // Its first bytes are gone: refused, never written cut.
                } else if v.selected {
                    selected.push((write_game(&mut out, text, v.open)?, v.hash));
                } else {
                    tally.rest += 1;
                    if let Some(rest) = rest.as_mut() {
                        write_game(rest, text, v.open)?;
                    }
                }
                Ok(())
            },
            progress,
        )
    });
    let failed = match scanned {
        Ok(_) => None,
        Err(e) if is_read_error(&e) => Some(e),
        Err(e) => return Err(e),
    };
    let out = out.into_inner().map_err(|e| e.into_error())?;
    let rest = rest
        .map(|r| r.into_inner().map_err(|e| e.into_error()))
        .transpose()?;
    Ok(Spooled {
        out,
        rest,
        selected,
        tally,
        failed,
    })
}

/// Where the games go, in order.
struct Partition<'o, 'r> {
    out: &'o mut dyn Write,
    rest: Option<&'r mut dyn Write>,
    seen: HashSet<u128>,
    tally: SelectTally,
}

impl Partition<'_, '_> {
    /// One game, in its turn.
    fn put(&mut self, v: Verdict, text: &[u8]) -> io::Result<()> {
        self.tally.read += 1;
        self.tally.truncated += u64::from(v.cut);
        self.tally.open += u64::from(v.open);
        if v.cut {
            // Its first bytes are gone: refused, never written cut.
            return Ok(());
        }
        if !v.selected {
            self.tally.rest += 1;
            if let Some(rest) = self.rest.as_mut() {
                write_game(rest, text, v.open)?;
            }
            return Ok(());
        }
        if self.is_duplicate(v.hash) {
            return Ok(());
        }
        self.tally.selected += 1;
        write_game(self.out, text, v.open).map(drop)
    }

    fn is_duplicate(&mut self, hash: Option<u128>) -> bool {
        let dup = hash.is_some_and(|h| !self.seen.insert(h));
        self.tally.duplicates += u64::from(dup);
        dup
    }

    /// The spooled games of one input, in their turn.
    fn merge(&mut self, s: &Spooled) -> io::Result<()> {
        self.tally.add(&SelectTally {
            selected: 0,
            duplicates: 0,
            ..s.tally
        });
        if let (Some(rest), Some(spooled)) = (self.rest.as_mut(), s.rest.as_ref()) {
            io::copy(&mut File::open(spooled.temp_path())?, rest)?;
        }
        let mut spooled = BufReader::new(File::open(s.out.temp_path())?);
        let mut buf = Vec::new();
        for &(len, hash) in &s.selected {
            buf.resize(len as usize, 0);
            spooled.read_exact(&mut buf)?;
            if !self.is_duplicate(hash) {
                self.tally.selected += 1;
                self.out.write_all(&buf)?;
            }
        }
        Ok(())
    }
}

/// Writes a game's bytes followed by a blank line; returns the bytes written. An `open` game
/// (one without a result token) gets `*` on a line of its own after its bytes: PDN tells
/// games apart by their results, so without it a game written before another (a tag
/// section alone before a movetext alone, or a game that ended a file) would read as part
/// of it.
pub fn write_game(out: &mut (impl Write + ?Sized), text: &[u8], open: bool) -> io::Result<u64> {
    out.write_all(text)?;
    let ends_line = text.ends_with(b"\n");
    let tail: &[u8] = match (open, ends_line) {
        (true, true) => b"*\n\n",
        (true, false) => b"\n*\n\n",
        (false, true) => b"\n",
        (false, false) => b"\n\n",
    };
    out.write_all(tail)?;
    Ok((text.len() + tail.len()) as u64)
}

/// A reader that reports how much it has read.
struct Counted<'p, R> {
    inner: R,
    progress: &'p (dyn Fn(u64) + Sync),
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.progress)(n as u64);
        Ok(n)
    }
}

/// The rules of one game under some options, for reading results and positions.
struct Rules {
    game: &'static str,
    options: Options,
    explorer: Option<Box<dyn Explorer>>,
    /// The key of the `--position` argument in this game (`None`: not a position of it).
    position: Option<Option<u64>>,
}

/// Judges games one after another (one per thread).
struct Judge<'s> {
    selector: &'s Selector,
    scan: Scan,
    rules: Vec<Rules>,
    key: Vec<u8>,
}

impl<'s> Judge<'s> {
    fn new(selector: &'s Selector) -> Self {
        let referee = selector.needs_replay().then(|| {
            let settings = Settings {
                details: selector.needs_details(),
                ..selector.settings.clone()
            };
            Referee::new(selector.games, settings)
        });
        Judge {
            selector,
            scan: Scan {
                referee,
                early: if selector.invert {
                    Vec::new()
                } else {
                    selector
                        .filters
                        .iter()
                        .filter(|f| !f.needs_replay())
                        .cloned()
                        .collect()
                },
                moves: selector.dedupe.then(Vec::new),
                ..Scan::default()
            },
            rules: Vec::new(),
            key: Vec::new(),
        }
    }

    fn verdict(&mut self) -> Verdict {
        let sel = self.selector;
        let passed = sel.filters.iter().all(|f| self.test(f));
        let selected = passed != sel.invert;
        let hash = (sel.dedupe && selected).then(|| self.hash());
        Verdict {
            selected,
            hash,
            cut: false,
            open: false,
        }
    }

    fn test(&mut self, filter: &Filter) -> bool {
        let scan = &self.scan;
        if let Some(yes) = test_tags(filter, &|name| scan.tag(name)) {
            return yes;
        }
        let report = self.scan.report.as_ref();
        match filter {
            Filter::Game(info) => self.game().is_some_and(|(g, _)| g.id == info.id),
            Filter::Result(text) => self.result_is(text),
            Filter::Plies { min, max } => {
                report.is_some_and(|r| (*min..=*max).contains(&r.plies_written))
            }
            Filter::Problems(which) => report.is_some_and(|r| has_problems(r, which)),
            Filter::Position(fen) => self.reaches(fen),
            _ => false,
        }
    }

    /// The game and options of the record: from the replay, else from its tags.
    fn game(&self) -> Option<(&'static GameInfo, Options)> {
        if let Some(r) = &self.scan.report {
            return r.game.map(|g| (g, r.options.clone()));
        }
        let registry = self.selector.games.registry();
        let variant = self.scan.game_tag("Variant");
        let game_type = self.scan.game_tag("GameType");
        let settings = &self.selector.settings;
        let game = match settings.game {
            Some(game) => game,
            None => registry
                .identify(variant.as_deref(), game_type.as_deref())
                .ok()
                .or(settings.default_game)?,
        };
        let options = self
            .scan
            .game_tag("Rules")
            .and_then(|r| game.parse_options(&r).ok())
            .unwrap_or_default();
        Some((game, options))
    }

    /// The cached rules of a game under some options.
    fn rules(&mut self, game: &'static GameInfo, options: Options) -> &mut Rules {
        let i = match self
            .rules
            .iter()
            .position(|r| r.game == game.id && r.options == options)
        {
            Some(i) => i,
            None => {
                let explorer = self.selector.games.explorer(game, &options);
                self.rules.push(Rules {
                    game: game.id,
                    options,
                    explorer,
                    position: None,
                });
                self.rules.len() - 1
            }
        };
        &mut self.rules[i]
    }

    fn result_is(&mut self, wanted: &str) -> bool {
        let Some(recorded) = self.scan.result_text() else {
            return false;
        };
        let recorded = recorded.into_owned();
        match self.game() {
            Some((game, options)) => {
                let rules = self.rules(game, options);
                let Some(e) = rules.explorer.as_ref() else {
                    return recorded.trim() == wanted.trim();
                };
                match (
                    e.parse_result(wanted.trim()),
                    e.parse_result(recorded.trim()),
                ) {
                    (Some(a), Some(b)) => a.agrees_with(b),
                    _ => false,
                }
            }
            None => recorded.trim() == wanted.trim(),
        }
    }

    fn reaches(&mut self, fen: &str) -> bool {
        let Some((game, options)) = self.game() else {
            return false;
        };
        let start_tag = self.scan.tag("FEN").map(Cow::into_owned);
        let rules = self.rules(game, options);
        let Some(e) = rules.explorer.as_ref() else {
            return false;
        };
        let target = *rules
            .position
            .get_or_insert_with(|| e.position_key(Some(fen)).ok());
        let Some(target) = target else {
            return false;
        };
        // Positions are compared by their keys (equal exactly when the position strings are).
        let start = e.position_key(start_tag.as_deref()).ok();
        let report = self.scan.report.as_ref();
        start == Some(target) || report.is_some_and(|r| r.details.iter().any(|d| d.key == target))
    }

    /// The 128-bit key of the game's main line (see [`Verdict::hash`]).
    fn hash(&mut self) -> u128 {
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        let replayed = self
            .scan
            .report
            .as_ref()
            .filter(|r| r.plies == r.plies_written)
            .and_then(|r| r.game.map(|g| (g, r.options.clone())));
        // The start position as the game writes it, so that two spellings of one FEN agree.
        let start = replayed.and_then(|(game, options)| {
            let fen = self.scan.tag("FEN").map(Cow::into_owned);
            let rules = self.rules(game, options);
            let e = rules.explorer.as_ref()?;
            Some((game.id, e.position_string(fen.as_deref()).ok()))
        });
        let report = self.scan.report.as_ref();
        let fen = self.scan.tag("FEN");
        match (report, start) {
            (Some(r), Some((game, start))) => {
                key.extend_from_slice(b"positions\0");
                key.extend_from_slice(game.as_bytes());
                key.push(0);
                let raw = fen.as_deref().unwrap_or("").trim();
                key.extend_from_slice(start.as_deref().unwrap_or(raw).as_bytes());
                for d in r.details.iter() {
                    key.push(0);
                    key.extend_from_slice(&d.key.to_le_bytes());
                }
            }
            _ => {
                key.extend_from_slice(b"moves\0");
                for name in ["Variant", "GameType"] {
                    key.extend_from_slice(self.scan.tag(name).as_deref().unwrap_or("").as_bytes());
                    key.push(0);
                }
                key.extend_from_slice(fen.as_deref().unwrap_or("").trim().as_bytes());
                key.push(0);
                key.extend_from_slice(self.scan.moves.as_deref().unwrap_or(&[]));
            }
        }
        let h = twox_hash::xxhash3_128::Hasher::oneshot(&key);
        self.key = key;
        h
    }
}

fn has_problems(report: &GameReport, which: &Problems) -> bool {
    let errors = || {
        report
            .diagnostics
            .iter()
            .any(|d| d.severity == pdn::Severity::Error)
    };
    match which {
        Problems::Any => errors(),
        Problems::None => !errors(),
        Problems::Codes(codes) => report
            .diagnostics
            .iter()
            .any(|d| codes.iter().any(|c| *c == d.code.as_str())),
    }
}

/// The visitor of `select`: keeps the tags (and, for deduplication, the main line's move
/// tokens) and hands every event to the referee when a filter needs the replay.
#[derive(Default)]
struct Scan {
    referee: Option<Referee<'static>>,
    /// Filters that read only the tags: when one fails, the game is not replayed (it is not
    /// selected whatever the replay finds). Empty with `invert`, where a failed game is
    /// selected and must be replayed like the others.
    early: Vec<Filter>,
    /// The current game is not being replayed.
    idle: bool,
    /// Tag names and unescaped values, back to back.
    text: Vec<u8>,
    tags: Vec<(Range<usize>, Range<usize>)>,
    result: Option<Range<usize>>,
    moves: Option<Vec<u8>>,
    depth: u32,
    report: Option<GameReport>,
}

impl Scan {
    /// The first tag called `name`, decoded.
    fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        let (_, v) = self
            .tags
            .iter()
            .find(|(n, _)| &self.text[n.clone()] == name.as_bytes())?;
        Some(pdn::decode(&self.text[v.clone()]))
    }

    /// A tag that says which game the record is, found as the referee finds it
    /// ([`pdn::find_tag`]), so that a filter that does not replay picks the game a replay
    /// would.
    fn game_tag(&self, name: &str) -> Option<Cow<'_, str>> {
        let names = self.tags.iter().map(|(n, _)| &self.text[n.clone()]);
        let (_, v) = self.tags.get(pdn::find_tag(names, name.as_bytes())?)?;
        Some(pdn::decode(&self.text[v.clone()]))
    }

    /// The result token, else the `Result` tag.
    fn result_text(&self) -> Option<Cow<'_, str>> {
        match &self.result {
            Some(r) => Some(pdn::decode(&self.text[r.clone()])),
            None => self.tag("Result"),
        }
    }

    fn push(&mut self, bytes: &[u8]) -> Range<usize> {
        let start = self.text.len();
        self.text.extend_from_slice(bytes);
        start..self.text.len()
    }
}

/// Hands an event to the referee, if there is one; the scan itself never skips.
macro_rules! forward {
    ($self:ident, $call:ident ( $($arg:expr),* )) => {{
        if let Some(r) = $self.referee.as_mut().filter(|_| !$self.idle) {
            let _ = r.$call($($arg),*);
        }
        ControlFlow::Continue(())
    }};
}

impl Visitor for Scan {
    type Output = Span;

    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        self.idle = false;
        self.text.clear();
        self.tags.clear();
        self.result = None;
        self.depth = 0;
        self.report = None;
        if let Some(m) = self.moves.as_mut() {
            m.clear();
        }
        forward!(self, begin_game(offset))
    }

    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        let n = self.push(name);
        let v = self.push(&pdn::unescape(value));
        self.tags.push((n, v));
        forward!(self, tag(name, value, span))
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        if self.referee.is_some() && !self.early.is_empty() {
            let this = &*self;
            let fails = this
                .early
                .iter()
                .any(|f| test_tags(f, &|name| this.tag(name)) == Some(false));
            self.idle = fails;
        }
        forward!(self, begin_movetext())
    }

    fn move_number(&mut self, number: u32, continuation: bool, span: Span) -> ControlFlow<()> {
        forward!(self, move_number(number, continuation, span))
    }

    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        if self.depth == 0 {
            if let Some(m) = self.moves.as_mut() {
                m.extend(token.iter().filter(|b| !b.is_ascii_whitespace()));
                m.push(b' ');
            }
        }
        forward!(self, mov(token, span))
    }

    fn strength(&mut self, mark: &[u8], span: Span) -> ControlFlow<()> {
        forward!(self, strength(mark, span))
    }

    fn nag(&mut self, nag: u16, span: Span) -> ControlFlow<()> {
        forward!(self, nag(nag, span))
    }

    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) -> ControlFlow<()> {
        forward!(self, comment(text, kind, span))
    }

    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        if let Some(m) = self.moves.as_mut() {
            m.extend_from_slice(b"/FEN ");
            m.extend_from_slice(fen);
            m.push(b' ');
        }
        forward!(self, setup(fen, span))
    }

    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.depth += 1;
        forward!(self, begin_variation(span))
    }

    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        forward!(self, end_variation(span))
    }

    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        if self.depth == 0 {
            self.result = Some(self.push(token));
        }
        forward!(self, result(token, span))
    }

    fn problem(&mut self, problem: SyntaxProblem) {
        if let Some(r) = self.referee.as_mut().filter(|_| !self.idle) {
            r.problem(problem);
        }
    }

    fn end_game(&mut self, span: Span) -> Span {
        if let Some(r) = self.referee.as_mut().filter(|_| !self.idle) {
            self.report = Some(r.end_game(span));
        }
        span
    }
}

/// The tags of the game being passed on (see [`each_game`]).
pub struct Tags<'a>(&'a Scan);

impl<'a> Tags<'a> {
    /// The value of the first tag called `name`, unescaped and decoded.
    pub fn get(&self, name: &str) -> Option<Cow<'a, str>> {
        self.0.tag(name)
    }

    /// True when the game has no result token (see [`write_game`]).
    pub fn open(&self) -> bool {
        self.0.result.is_none()
    }
}

/// What [`each_game`] hands every game to: its tags and its bytes (`None`: refused).
pub type GameFn<'f> = dyn FnMut(&Tags<'_>, Option<&[u8]>) -> io::Result<()> + 'f;

/// Reads every game of `input` without replaying it and hands its tags and its bytes as
/// read to `f` (for `split`); `None` instead of the bytes for a game longer than the
/// reader's limit ([`pdn::DEFAULT_MAX_CAPACITY`]), whose first bytes are gone: such a game
/// is refused, never written cut. Returns the number of games, or the first error: of the
/// input (marked, see [`crate::is_read_error`]) or of `f`.
pub fn each_game(
    input: impl Read,
    progress: &(dyn Fn(u64) + Sync),
    f: &mut GameFn<'_>,
) -> io::Result<u64> {
    let mut scan = Scan::default();
    let mut reader = pdn::Reader::new(Counted {
        inner: input,
        progress,
    });
    let mut games = 0;
    while let Some(span) = reader.read_game(&mut scan).map_err(read_error)? {
        games += 1;
        let source = reader.source();
        if span.start < source.offset {
            f(&Tags(&scan), None)?;
            continue;
        }
        let skip = span.start.saturating_sub(source.offset) as usize;
        f(
            &Tags(&scan),
            Some(&source.text[skip.min(source.text.len())..]),
        )?;
    }
    Ok(games)
}
