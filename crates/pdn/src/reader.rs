//! The streaming reader: one reused buffer, one game per call, events to a [`Visitor`].

use std::cell::Cell;
use std::io::{self, Read};
use std::ops::ControlFlow;

use crate::lexer::{self, is_ws, Lexed, NeedMore, TagForm, Tok};
use crate::visitor::{CommentKind, Severity, Span, SyntaxKind, SyntaxProblem, Visitor};

/// A line end written out as the two characters `\r`: KNDB's exports put one after every tag
/// line. It is harmless, so it is a note, not a stray-text warning.
const LITERAL_CR: &[u8] = b"\\r";

/// The note for [`LITERAL_CR`].
const LITERAL_CR_NOTE: &str =
    "a literal `\\r` (a line end written as text, as KNDB exports do after their tags); kept as a comment";

/// The buffer size a reader starts with.
pub const DEFAULT_CAPACITY: usize = 64 * 1024;
/// The largest buffer a reader grows to unless told otherwise (see [`Reader::with_capacity`]).
pub const DEFAULT_MAX_CAPACITY: usize = 64 * 1024 * 1024;
/// How far before a game's first byte [`Reader::source`] looks for the start of its line.
const LINE_PREFIX_CAP: usize = 4096;
/// Variations nested deeper than this are reported (`too-deep`) and skipped, which keeps every
/// consumer of the events (and of [`crate::GameRecord`]) safe from unbounded recursion.
pub const MAX_DEPTH: u32 = 32;
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The text of the last game read, for showing diagnostics in context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source<'a> {
    /// The bytes from the start of the line on which the game began to the end of the game.
    pub text: &'a [u8],
    /// Absolute offset of `text[0]` in the input.
    pub offset: u64,
    /// 1-based line number of `text[0]`.
    pub line: u64,
    /// 1-based column of `text[0]`: 1 unless the line began too far before the game (more
    /// than 4 KiB) or the game was longer than the reader's buffer limit, in which case `text`
    /// starts later.
    pub column: u64,
}

/// A position in the input, as shown to users.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// Absolute byte offset.
    pub byte: u64,
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, counted in characters of the line when the line up to `byte` is valid
    /// UTF-8, otherwise in bytes.
    pub column: u64,
}

/// A streaming PDN reader. See the crate documentation for the grammar it accepts.
///
/// The reader keeps one growable buffer. It holds the game being read (so that
/// [`Reader::source`] can show it) and grows only when a single game or token is larger than
/// the buffer, up to a limit (64 MiB by default); games longer than that are still read, but
/// their source is kept only from some point on, and a single token longer than half the
/// limit is reported as `too-long` and skipped.
pub struct Reader<R> {
    inner: R,
    /// Data is `buf[..end]`; `buf.len()` is the capacity plus one byte for the sentinel.
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    /// An error of the input met after some bytes had been read in the same refill: those
    /// bytes are read first, and the error is returned by the next refill.
    failed: Option<io::Error>,
    limit: usize,
    started: bool,
    /// Absolute offset of `buf[0]`.
    base: u64,
    /// Line (1-based) and column (0-based, in characters) of `buf[0]`.
    base_line: u64,
    base_col: u64,
    in_game: bool,
    /// Absolute offset from which the current (or last) game's source is kept.
    anchor: u64,
    game_start: u64,
    game_end: u64,
    /// Spans of the open variations of the current game.
    /// Open variations: where each began, and how many moves the game had read by then.
    open: Vec<(Span, u64)>,
    /// Unescaped setup strings.
    scratch: Vec<u8>,
    /// A bit for each tag name of the current game (see [`name_bit`]), to tell a repeated one
    /// cheaply.
    name_bits: u128,
    /// The current game's tag names, gathered once a look-up could not be settled by
    /// `name_bits` (a game with many tags, or names beyond ASCII), so that each later tag is
    /// checked in constant time instead of by reading the game again.
    names: TagNames,
    /// Where the current game's tag names are (absolute offset and length), for the first
    /// [`RECENT_NAMES`] of its tags: while the game's bytes are all in the buffer, an ASCII
    /// name that `name_bits` cannot settle is compared with these, which is what `names`
    /// would find (an ASCII name only ever equals another by its bytes) without reading the
    /// game again. One game in five of the corpus needed that reading.
    name_spans: Vec<(u64, u32)>,
    /// The last position located (see [`Reader::locate`]).
    mark: Cell<Option<Mark>>,
    /// The input is a piece cut right before the next game's tags: a game it ends without a
    /// result ends as one ended by those tags would ([`Reader::cut_before_tags`]).
    cut_before_tags: bool,
}

/// A position in the buffer with its line and column counts.
#[derive(Debug, Clone, Copy)]
struct Mark {
    idx: usize,
    line: u64,
    /// Start of the line in the buffer (0 when the line starts before the buffer).
    line_start: usize,
    /// Characters of the line before `buf[line_start]`.
    col_base: u64,
    /// Characters in `buf[line_start..idx]`, valid when `utf8`.
    chars: u64,
    /// `buf[line_start..idx]` is valid UTF-8.
    utf8: bool,
}

impl Mark {
    fn start(line: u64, col_base: u64) -> Mark {
        Mark {
            idx: 0,
            line,
            line_start: 0,
            col_base,
            chars: 0,
            utf8: true,
        }
    }

    /// The mark moved forward to `idx`.
    fn advance(mut self, buf: &[u8], idx: usize) -> Mark {
        let seg = &buf[self.idx..idx];
        if let Some(nl) = memchr::memrchr(b'\n', seg) {
            self.line += memchr::memchr_iter(b'\n', seg).count() as u64;
            self.line_start = self.idx + nl + 1;
            self.col_base = 0;
            self.chars = 0;
            self.utf8 = true;
            self.idx = self.line_start;
        }
        // Two valid UTF-8 pieces make a valid whole; an invalid piece spoils the line.
        let seg = &buf[self.idx..idx];
        match std::str::from_utf8(seg) {
            Ok(s) if self.utf8 => self.chars += s.chars().count() as u64,
            _ => self.utf8 = false,
        }
        self.idx = idx;
        self
    }

    /// 1-based column: characters when the line is UTF-8 so far, else bytes.
    fn column(&self, idx: usize) -> u64 {
        let n = if self.utf8 {
            self.chars
        } else {
            (idx - self.line_start) as u64
        };
        self.col_base + n + 1
    }
}

/// How many tag names of a game [`Reader`] keeps the places of (see `name_spans`).
const RECENT_NAMES: usize = 32;

/// One of 128 bits for a tag name, from its length and its first and last bytes: two names
/// with different bits differ.
#[inline]
fn name_bit(name: &[u8]) -> u128 {
    let (first, last) = match name {
        [] => (0, 0),
        [f, .., l] => (*f, *l),
        [f] => (*f, *f),
    };
    let key = (name.len() as u32 & 0xff) | u32::from(first) << 8 | u32::from(last) << 16;
    1 << (key.wrapping_mul(0x9E37_79B9) >> 25)
}

/// The tag names of a game, as keys that make a look-up one hash each.
///
/// Two tag names are the same name for a record when their bytes are, or, beyond ASCII, when
/// any decoding a record may use makes them equal: each alone, or both with the single-byte
/// encoding guessed for the whole game (`[Seats и]` in UTF-8 and `[Seats \xe8]` are the same
/// name in a Cyrillic game), so that a record never holds two tags of one name, and its
/// written form, where both are spelled alike, is read as the same records. A name is kept
/// under one key per way of reading it (its bytes for an ASCII name, else its text as
/// decoded alone, as Windows-1251 and as Windows-1252), and two names are the same when
/// they share a key of the same way.
#[derive(Default)]
struct TagNames {
    /// Whether the names are being gathered for the current game.
    active: bool,
    keys: std::collections::HashSet<Vec<u8>>,
    key: Vec<u8>,
}

impl TagNames {
    fn clear(&mut self) {
        if self.active {
            self.active = false;
            self.keys.clear();
        }
    }

    /// Puts the keys of `name` into `key`, one after another, calling `each` with each.
    fn each_key(&mut self, name: &[u8], mut each: impl FnMut(&mut Self) -> bool) -> bool {
        use crate::encoding::{decode_as, Encoding};
        if name.is_ascii() {
            self.key.clear();
            self.key.push(0);
            self.key.extend_from_slice(name);
            return each(self);
        }
        let texts = [
            crate::decode(name),
            decode_as(name, Encoding::Windows1251),
            decode_as(name, Encoding::Windows1252),
        ];
        for (way, text) in (1..).zip(texts) {
            self.key.clear();
            self.key.push(way);
            self.key.extend_from_slice(text.as_bytes());
            if each(self) {
                return true;
            }
        }
        false
    }

    fn insert(&mut self, name: &[u8]) {
        self.each_key(name, |s| {
            if !s.keys.contains(&s.key) {
                s.keys.insert(s.key.clone());
            }
            false
        });
    }

    fn contains(&mut self, name: &[u8]) -> bool {
        self.each_key(name, |s| s.keys.contains(&s.key))
    }
}

enum Refill {
    Done,
    TooLong,
}

impl<'a> Reader<&'a [u8]> {
    /// A reader of bytes held in memory, whose buffer starts no larger than they need: a
    /// buffer is zeroed when it is made, and most inputs of a run (small files, the last
    /// chunk of a large one) are much shorter than [`DEFAULT_CAPACITY`]. Reads as
    /// [`Reader::new`] does: the buffer grows as needed, up to [`DEFAULT_MAX_CAPACITY`].
    pub fn of_bytes(bytes: &'a [u8]) -> Self {
        // One byte more than the input, so that its end is found by the read that fills it.
        let capacity = bytes.len().saturating_add(1).min(DEFAULT_CAPACITY);
        Self::with_capacity(bytes, capacity, DEFAULT_MAX_CAPACITY)
    }
}

impl<R: Read> Reader<R> {
    /// Reads the input as a piece of a larger one that went on with a game's tags: a game
    /// that has moves and no result when the input ends is reported as one that the next
    /// game's tags ended (`missing-result`), as a reader of the larger input reports it. For
    /// [`crate::chunk::Chunk`]s cut there.
    pub fn cut_before_tags(mut self) -> Self {
        self.cut_before_tags = true;
        self
    }

    /// A reader with the default buffer size and limit.
    pub fn new(inner: R) -> Self {
        Self::with_capacity(inner, DEFAULT_CAPACITY, DEFAULT_MAX_CAPACITY)
    }

    /// A reader whose buffer starts at `capacity` bytes and never grows beyond `max_capacity`
    /// (both at least 16 bytes).
    pub fn with_capacity(inner: R, capacity: usize, max_capacity: usize) -> Self {
        let capacity = capacity.max(16);
        let max_capacity = max_capacity.max(capacity);
        Reader {
            inner,
            buf: vec![0; capacity + 1],
            pos: 0,
            end: 0,
            eof: false,
            failed: None,
            limit: max_capacity,
            started: false,
            base: 0,
            base_line: 1,
            base_col: 0,
            in_game: false,
            anchor: 0,
            game_start: 0,
            game_end: 0,
            open: Vec::new(),
            scratch: Vec::new(),
            name_bits: 0,
            name_spans: Vec::new(),
            names: TagNames::default(),
            mark: Cell::new(None),
            cut_before_tags: false,
        }
    }

    /// Reads the next game, driving `visitor`; `None` at the end of the input.
    ///
    /// Syntax problems never stop the reader: they go to [`Visitor::problem`] and reading
    /// goes on. Only I/O errors are returned as errors. While the visitor has asked to skip
    /// (a callback returned `Break`), nothing of the skipped part reaches it, problems
    /// included.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        self.in_game = false;
        self.open.clear();
        if !self.skip_ws()? {
            self.anchor = self.abs(self.end);
            self.game_start = self.anchor;
            self.game_end = self.anchor;
            return Ok(None);
        }
        self.game_start = self.abs(self.pos);
        self.anchor = self.line_start(self.pos);
        self.in_game = true;
        let mut g = Game::new(visitor, self.game_start);
        self.name_bits = 0;
        self.names.clear();
        self.name_spans.clear();
        if g.sink.v.begin_game(self.game_start).is_break() {
            g.sink.skip_all = true;
        }
        let ended_by_tag = self.read_tokens(&mut g)?;
        Ok(Some(self.end_game(g, ended_by_tag)))
    }

    /// Reads the tokens of the game up to its end; true when the next game's tags ended it
    /// (its result is missing).
    #[inline(always)]
    fn read_tokens<V: Visitor>(&mut self, g: &mut Game<'_, V>) -> io::Result<bool> {
        let mut ended_by_tag = false;
        // After the result: stray text and comments up to the end of the input, read into
        // this game rather than left as a game of their own.
        let mut tail = false;
        // Whether the game ended before the end of the input.
        let mut stopped = false;
        while self.skip_ws()? {
            let lexed = match lexer::fast(&self.buf[self.pos..self.end]) {
                Some(l) => l,
                None => match self.lex_here()? {
                    Some(l) => l,
                    None => {
                        self.too_long(g)?;
                        continue;
                    }
                },
            };
            let start = self.pos;
            let span = Span::new(self.abs(start), self.abs(start + lexed.len));
            if let Tok::Tag { .. } | Tok::BadTag { .. } = lexed.tok {
                if !tail && (g.movetext || self.repeats_a_tag(lexed.tok)) {
                    // A new tag section: after movetext, or a tag already given (a section
                    // without movetext is a game of its own).
                    ended_by_tag = g.movetext;
                    stopped = true;
                    break;
                }
            }
            // The two commonest tokens are handled here; the rest out of line, which keeps
            // this loop small.
            let done = match lexed.tok {
                Tok::Move if g.movetext => {
                    g.flush_number();
                    g.expect_move = None;
                    let tok = &self.buf[start..start + lexed.len];
                    g.moves += 1;
                    g.sink.on(|v| v.mov(tok, span));
                    false
                }
                Tok::MoveNumber {
                    number,
                    dots: 1,
                    leading_zero: false,
                    overflow: false,
                    ..
                } if g.movetext && number > 0 => {
                    g.flush_number();
                    g.check_move();
                    g.pending_number = Some((number, span));
                    g.expect_move = Some(span);
                    false
                }
                _ => self.token(g, lexed, span),
            };
            g.last_end = span.end;
            self.pos += lexed.len;
            if done {
                if self.stray_tail()? {
                    tail = true;
                } else {
                    stopped = true;
                    break;
                }
            }
        }
        if !stopped && !tail && self.cut_before_tags {
            ended_by_tag = g.movetext;
        }
        Ok(ended_by_tag)
    }

    /// Closes what the game left open and ends it.
    #[inline(always)]
    fn end_game<V: Visitor>(&mut self, mut g: Game<'_, V>, ended_by_tag: bool) -> V::Output {
        g.flush_number();
        g.check_move();
        while g.depth > 0 {
            let skipped = g.sink.skip_var == Some(g.depth);
            if skipped {
                g.sink.skip_var = None;
            }
            if g.depth <= MAX_DEPTH + 1 {
                let (open, _) = self.open.pop().unwrap_or_default();
                g.problem(
                    open,
                    Severity::Error,
                    SyntaxKind::UnclosedVariation,
                    "this variation is not closed before the game ends",
                );
            }
            if !skipped {
                let at = Span::new(g.last_end, g.last_end);
                g.sink.on(|v| v.end_variation(at));
            }
            g.depth -= 1;
        }
        if ended_by_tag {
            g.problem(
                Span::new(g.last_end, g.last_end),
                Severity::Error,
                SyntaxKind::MissingResult,
                "the game has no result before the next game's tags begin",
            );
        }
        if !g.movetext {
            g.movetext = true;
            g.sink.on(|v| v.begin_movetext());
        }
        self.game_end = g.last_end;
        g.sink.v.end_game(Span::new(self.game_start, self.game_end))
    }

    /// Whether `tok` is a tag pair whose name the current game already has.
    fn repeats_a_tag(&mut self, tok: Tok) -> bool {
        let Tok::Tag {
            name_start,
            name_end,
            ..
        } = tok
        else {
            return false;
        };
        let (start, end) = (self.pos + name_start, self.pos + name_end);
        // Most tags are new: their bit is not set yet. A name with bytes beyond ASCII may be
        // written in another encoding than an earlier one that decodes to the same text, so
        // its bit says nothing.
        if self.buf[start..end].is_ascii() && self.name_bits & name_bit(&self.buf[start..end]) == 0
        {
            return false;
        }
        if !self.names.active
            && self.name_spans.len() <= RECENT_NAMES
            && self.game_start >= self.base
            && self.buf[start..end].is_ascii()
        {
            let name = &self.buf[start..end];
            return self.name_spans.iter().any(|&(at, len)| {
                let at = (at - self.base) as usize;
                &self.buf[at..at + len as usize] == name
            });
        }
        if !self.names.active {
            self.gather_names();
        }
        self.names.contains(&self.buf[start..end])
    }

    /// Puts the names of the current game's tags read so far into `names` and keeps it up to
    /// date from then on (see [`Reader::tag`]), reading the game again from its start once.
    /// (For a game longer than the buffer's limit, from where the buffer still holds it: an
    /// earlier tag is then missed.)
    #[cold]
    #[inline(never)]
    fn gather_names(&mut self) {
        self.names.active = true;
        let mut p = (self.game_start.saturating_sub(self.base) as usize).min(self.pos);
        let avail = if self.eof { self.end + 1 } else { self.end };
        while p < self.pos {
            if is_ws(self.buf[p]) {
                p += 1;
                continue;
            }
            let Ok(l) = lexer::lex(&self.buf[p..avail], self.eof) else {
                return;
            };
            if let Tok::Tag {
                name_start,
                name_end,
                ..
            } = l.tok
            {
                self.names.insert(&self.buf[p + name_start..p + name_end]);
            }
            p += l.len.max(1);
        }
    }

    /// Whether only comments and stray text (no tag, move or other token) follow up to the end
    /// of the input. Nothing is consumed; false as well when they do not fit in the buffer.
    fn stray_tail(&mut self) -> io::Result<bool> {
        // Offset from `pos` of the next byte to look at (`pos` moves when the buffer is
        // compacted, the offset does not).
        let mut ahead = 0;
        loop {
            let mut p = self.pos + ahead;
            while p < self.end && is_ws(self.buf[p]) {
                p += 1;
            }
            ahead = p - self.pos;
            if p == self.end {
                if self.eof {
                    return Ok(true);
                }
                if let Refill::TooLong = self.refill()? {
                    return Ok(false);
                }
                continue;
            }
            // The common case, the next game's first tag, without lexing it: `[`, a name, `"`.
            if self.buf[p] == b'[' && self.buf[p + 1].is_ascii_uppercase() {
                let mut q = p + 2;
                while q < self.end && !matches!(self.buf[q], b'"' | b']' | b'\n') {
                    q += 1;
                }
                if q < self.end && self.buf[q] == b'"' {
                    return Ok(false);
                }
            }
            let avail = if self.eof { self.end + 1 } else { self.end };
            match lexer::lex(&self.buf[p..avail], self.eof) {
                Ok(l) => match l.tok {
                    Tok::BraceComment { .. }
                    | Tok::LineComment { .. }
                    | Tok::Prose
                    | Tok::Junk
                    | Tok::BadBracket
                    | Tok::BadTag { .. }
                    | Tok::StrayBrace => ahead += l.len.clamp(1, self.end - p),
                    _ => return Ok(false),
                },
                Err(NeedMore) if self.eof => return Ok(false),
                Err(NeedMore) => {
                    if let Refill::TooLong = self.refill()? {
                        return Ok(false);
                    }
                }
            }
        }
    }

    /// Handles one token; true when it was the game's result.
    #[inline(never)]
    fn token<V: Visitor>(&mut self, g: &mut Game<'_, V>, l: Lexed, span: Span) -> bool {
        // Tags, comments and stray text do not start the movetext.
        if self.outside_movetext(g, l, span) {
            return false;
        }
        if !g.movetext {
            g.movetext = true;
            g.sink.on(|v| v.begin_movetext());
        }
        if let Tok::Dots(3) = l.tok {
            if let Some((n, s)) = g.pending_number.take() {
                let merged = Span::new(s.start, span.end);
                g.sink.on(|v| v.move_number(n, true, merged));
                // In `12. ...` the dots stand for the move (PDN 3.0 reads them as one).
                g.expect_move = None;
                return false;
            }
        }
        g.flush_number();
        if matches!(l.tok, Tok::Move | Tok::UnknownMove) {
            g.expect_move = None;
        } else {
            g.check_move();
        }
        self.movetext_token(g, l, span)
    }

    /// Handles a tag, a comment or stray text kept as one; false (nothing done) for the
    /// tokens of the movetext.
    #[inline(always)]
    fn outside_movetext<V: Visitor>(&mut self, g: &mut Game<'_, V>, l: Lexed, span: Span) -> bool {
        let start = self.pos;
        let buf = &self.buf;
        match l.tok {
            Tok::Tag { .. } => self.tag(g, l.tok, span),
            Tok::BadTag { unterminated } => {
                let (kind, why) = if unterminated {
                    (
                        SyntaxKind::UnterminatedTag,
                        "the tag value has no closing quote on its line; kept as a comment",
                    )
                } else {
                    (
                        SyntaxKind::BadTag,
                        "not a tag pair `[Name \"value\"]`; kept as a comment",
                    )
                };
                g.problem(span, Severity::Warning, kind, why);
                g.keep(&buf[start..start + l.len], CommentKind::Brace, span);
            }
            Tok::BraceComment { terminated, nested } => {
                let text_end = if terminated { l.len - 1 } else { l.len };
                brace_comment(
                    g,
                    &buf[start + 1..start + text_end],
                    terminated,
                    nested,
                    span,
                );
            }
            Tok::LineComment { text_end } => {
                g.keep(&buf[start + 1..start + text_end], CommentKind::Line, span);
            }
            Tok::Dash if g.result_dash && g.depth == 0 => return false,
            Tok::Prose | Tok::Junk | Tok::BadBracket | Tok::Dash => {
                let text = &buf[start..start + l.len];
                if text == LITERAL_CR {
                    g.problem(span, Severity::Note, SyntaxKind::StrayText, LITERAL_CR_NOTE);
                } else {
                    g.problem(
                        span,
                        Severity::Warning,
                        SyntaxKind::StrayText,
                        "text outside a comment; kept as a comment",
                    );
                }
                g.keep(text, CommentKind::Brace, span);
            }
            Tok::StrayBrace => {
                g.problem(
                    span,
                    Severity::Error,
                    SyntaxKind::UnmatchedBrace,
                    "`}` without a comment to close; kept as a comment",
                );
                // A brace comment cannot hold `}`; a line comment can.
                g.keep(&buf[start..start + l.len], CommentKind::Line, span);
            }
            _ => return false,
        }
        true
    }

    /// A tag pair (also the malformed ones still read as tags).
    #[inline(always)]
    fn tag<V: Visitor>(&mut self, g: &mut Game<'_, V>, tok: Tok, span: Span) {
        let Tok::Tag {
            name_start,
            name_end,
            value_start,
            value_end,
            closed,
            form,
        } = tok
        else {
            return;
        };
        let start = self.pos;
        g.saw_tag = true;
        let name = &self.buf[start + name_start..start + name_end];
        let value = &self.buf[start + value_start..start + value_end];
        self.name_bits |= name_bit(name);
        if self.names.active {
            self.names.insert(name);
        }
        if self.name_spans.len() <= RECENT_NAMES {
            // One past the room marks a game with more names than are kept.
            let at = self.base + (start + name_start) as u64;
            self.name_spans.push((at, name.len() as u32));
        }
        if name == b"Result" {
            g.result_dash = value == b"-";
        }
        g.sink.on(|v| v.tag(name, value, span));
        let why = match form {
            TagForm::OddName => Some("the tag name is not a PDN name; read as written"),
            TagForm::NoBracket => Some("the tag pair has no `[`; read as a tag"),
            TagForm::Unquoted => Some("the tag value has no quotes; read as written"),
            TagForm::Pdn if !closed => Some("the tag pair is not closed by `]`"),
            TagForm::Pdn => None,
        };
        if let Some(why) = why {
            g.problem(span, Severity::Warning, SyntaxKind::BadTag, why);
        }
    }

    /// A token of the movetext; true when it was the game's result.
    #[inline(always)]
    fn movetext_token<V: Visitor>(&mut self, g: &mut Game<'_, V>, l: Lexed, span: Span) -> bool {
        let start = self.pos;
        let tok = &self.buf[start..start + l.len];
        match l.tok {
            Tok::MoveNumber {
                number,
                dots,
                leading_zero,
                overflow,
                ..
            } => move_number(g, number, dots, leading_zero, overflow, span),
            Tok::Move => {
                g.moves += 1;
                g.sink.on(|v| v.mov(tok, span));
            }
            Tok::UnknownMove => {
                g.problem(
                    span,
                    Severity::Error,
                    SyntaxKind::UnknownMove,
                    "`- -` stands for a move that was not recorded",
                );
                g.moves += 1;
                g.sink.on(|v| v.mov(tok, span));
            }
            Tok::Result | Tok::Dash => {
                if g.depth == 0 {
                    g.sink.on(|v| v.result(tok, span));
                    return true;
                }
                g.problem(
                    span,
                    Severity::Error,
                    SyntaxKind::ResultInVariation,
                    "a result inside a variation; kept as a comment",
                );
                g.keep(tok, CommentKind::Brace, span);
            }
            Tok::Nag(Some(n)) => g.sink.on(|v| v.nag(n, span)),
            Tok::Nag(None) => {
                g.problem(
                    span,
                    Severity::Error,
                    SyntaxKind::BadNag,
                    "`$` must be followed by a number from 0 to 65535; kept as a comment",
                );
                g.keep(tok, CommentKind::Brace, span);
            }
            Tok::Strength { start: s, end: e } => {
                let mark = &self.buf[start + s..start + e];
                g.sink.on(|v| v.strength(mark, span));
            }
            Tok::Open => self.open_variation(g, span),
            Tok::Close if g.depth == 0 => {
                g.problem(
                    span,
                    Severity::Error,
                    SyntaxKind::UnmatchedParen,
                    "`)` without a variation to close; kept as a comment",
                );
                g.keep(tok, CommentKind::Brace, span);
            }
            Tok::Close => self.close_variation(g, span),
            Tok::Setup {
                fen_start,
                fen_end,
                escaped,
                closed,
            } => self.setup(g, fen_start..fen_end, escaped, closed, span),
            Tok::BadSetup | Tok::BadThrowGroup | Tok::Dots(_) => {
                let (kind, why) = match l.tok {
                    Tok::BadSetup => (
                        SyntaxKind::BadSetup,
                        "a setup command must be `/FEN \"...\"/`; kept as a comment",
                    ),
                    Tok::BadThrowGroup => (
                        SyntaxKind::BadThrowGroup,
                        "a throw group holds numbers and ends with `]`; kept as a comment",
                    ),
                    _ => (
                        SyntaxKind::UnexpectedToken,
                        "dots that do not follow a move number; kept as a comment",
                    ),
                };
                g.problem(span, Severity::Error, kind, why);
                g.keep(tok, CommentKind::Brace, span);
            }
            // Handled by `outside_movetext` before this is called.
            Tok::Tag { .. }
            | Tok::BadTag { .. }
            | Tok::BraceComment { .. }
            | Tok::LineComment { .. }
            | Tok::Prose
            | Tok::Junk
            | Tok::BadBracket
            | Tok::StrayBrace => {}
        }
        false
    }

    /// `(`: a variation opens (skipped when nested too deep or the visitor asks).
    #[inline(always)]
    fn open_variation<V: Visitor>(&mut self, g: &mut Game<'_, V>, span: Span) {
        g.depth = g.depth.saturating_add(1);
        // Deeper variations lie inside a skipped one: their spans are not needed.
        if g.depth <= MAX_DEPTH + 1 {
            self.open.push((span, g.moves));
        }
        if g.depth > MAX_DEPTH {
            g.problem(
                span,
                Severity::Error,
                SyntaxKind::TooDeep,
                "variations nested more than 32 deep; this one is skipped",
            );
            if !g.sink.skipping() {
                g.sink.skip_var = Some(g.depth);
            }
        } else if !g.sink.skipping() && g.sink.v.begin_variation(span).is_break() {
            g.sink.skip_var = Some(g.depth);
        }
    }

    /// `)` closing an open variation (an empty one is an error).
    #[inline(always)]
    fn close_variation<V: Visitor>(&mut self, g: &mut Game<'_, V>, span: Span) {
        if g.depth <= MAX_DEPTH + 1 {
            if let Some((open, moves)) = self.open.pop() {
                if moves == g.moves && g.sink.skip_var != Some(g.depth) {
                    g.problem(
                        Span::new(open.start, span.end),
                        Severity::Error,
                        SyntaxKind::EmptyVariation,
                        "a variation must hold at least one move",
                    );
                }
            }
        }
        if g.sink.skip_var == Some(g.depth) {
            g.sink.skip_var = None;
        } else {
            g.sink.on(|v| v.end_variation(span));
        }
        g.depth -= 1;
    }

    /// A setup command `/FEN "..."/`, its position string at `fen` of the token.
    #[inline(always)]
    fn setup<V: Visitor>(
        &mut self,
        g: &mut Game<'_, V>,
        fen: std::ops::Range<usize>,
        escaped: bool,
        closed: bool,
        span: Span,
    ) {
        if !closed {
            g.problem(
                span,
                Severity::Error,
                SyntaxKind::BadSetup,
                "a setup command must end with `/`",
            );
        }
        let start = self.pos;
        let raw = &self.buf[start + fen.start..start + fen.end];
        let fen = if escaped {
            self.scratch.clear();
            self.scratch.extend_from_slice(&crate::unescape(raw));
            &self.scratch[..]
        } else {
            raw
        };
        g.sink.on(|v| v.setup(fen, span));
    }

    /// A token did not fit in the buffer at its largest: report it and skip it.
    fn too_long<V: Visitor>(&mut self, g: &mut Game<'_, V>) -> io::Result<()> {
        let start = self.abs(self.pos);
        let close = if self.buf[self.pos] == b'{' {
            b'}'
        } else {
            b'\n'
        };
        g.problem(
            Span::new(start, start + 1),
            Severity::Error,
            SyntaxKind::TooLong,
            "this token is too long to read; skipped",
        );
        loop {
            if let Some(i) = memchr::memchr(close, &self.buf[self.pos..self.end]) {
                self.pos += i + usize::from(close == b'}');
                break;
            }
            self.pos = self.end;
            if self.eof {
                break;
            }
            self.anchor = self.abs(self.pos);
            self.refill()?;
        }
        g.last_end = self.abs(self.pos);
        Ok(())
    }

    /// The bytes of the last game read (see [`Source`]). Empty before the first game and
    /// after the end of the input.
    pub fn source(&self) -> Source<'_> {
        let from = (self.anchor.saturating_sub(self.base) as usize).min(self.end);
        let to = (self.game_end.saturating_sub(self.base) as usize).clamp(from, self.end);
        let (line, column) = self.line_col(from);
        Source {
            text: &self.buf[from..to],
            offset: self.base + from as u64,
            line,
            column,
        }
    }

    /// Line and column of an absolute byte offset. Exact for offsets inside the last game read
    /// (from [`Source::offset`] to the end of the game); other offsets are clamped to the
    /// bytes the reader still holds.
    pub fn locate(&self, byte: u64) -> Location {
        let idx = (byte.saturating_sub(self.base) as usize).min(self.end);
        let (line, column) = self.line_col(idx);
        Location { byte, line, column }
    }

    /// Line and column of `buf[idx]`. Counting starts from the last position asked for when
    /// it lies before `idx`, so locating many problems of one game in order stays linear.
    fn line_col(&self, idx: usize) -> (u64, u64) {
        let m = match self.mark.get() {
            Some(m) if m.idx <= idx => m.advance(&self.buf, idx),
            _ => Mark::start(self.base_line, self.base_col).advance(&self.buf, idx),
        };
        self.mark.set(Some(m));
        (m.line, m.column(idx))
    }

    #[inline(always)]
    fn abs(&self, idx: usize) -> u64 {
        self.base + idx as u64
    }

    /// Absolute offset of the start of the line holding `buf[idx]`, looking back at most
    /// `LINE_PREFIX_CAP` bytes.
    fn line_start(&self, idx: usize) -> u64 {
        let from = idx.saturating_sub(LINE_PREFIX_CAP);
        match memchr::memrchr(b'\n', &self.buf[from..idx]) {
            Some(i) => self.abs(from + i + 1),
            None => self.abs(from),
        }
    }

    /// Skips whitespace; false at the end of the input.
    #[inline]
    fn skip_ws(&mut self) -> io::Result<bool> {
        loop {
            let mut p = self.pos;
            while p < self.end && is_ws(self.buf[p]) {
                p += 1;
            }
            self.pos = p;
            if p < self.end {
                return Ok(true);
            }
            if self.eof {
                return Ok(false);
            }
            self.refill()?;
        }
    }

    /// Lexes the token at `pos`, refilling as needed; `None` when it is too long to hold.
    #[inline(always)]
    fn lex_here(&mut self) -> io::Result<Option<Lexed>> {
        loop {
            let avail = if self.eof { self.end + 1 } else { self.end };
            match lexer::lex(&self.buf[self.pos..avail], self.eof) {
                Ok(mut l) => {
                    // Never let a token reach into the sentinel.
                    l.len = l.len.clamp(1, self.end - self.pos);
                    return Ok(Some(l));
                }
                Err(NeedMore) if self.eof => {
                    // Cannot happen with the sentinel; be safe and drop the rest.
                    return Ok(Some(Lexed {
                        tok: Tok::Junk,
                        len: self.end - self.pos,
                    }));
                }
                Err(NeedMore) => {
                    if let Refill::TooLong = self.refill()? {
                        return Ok(None);
                    }
                }
            }
        }
    }

    /// Makes room and reads more input: discards what is no longer needed, grows the buffer
    /// if it is still more than half full, then reads until it is full or the input ends.
    fn refill(&mut self) -> io::Result<Refill> {
        let keep_abs = if self.in_game {
            self.anchor
        } else {
            self.line_start(self.pos)
        };
        let keep = (keep_abs.saturating_sub(self.base) as usize).min(self.pos);
        if keep > 0 {
            self.discard(keep);
        }
        let mut cap = self.buf.len() - 1;
        if self.end > cap / 2 {
            if cap < self.limit {
                cap = (cap * 2).min(self.limit);
                self.buf.resize(cap + 1, 0);
            } else if self.pos > 0 {
                // The game is longer than the limit: keep only from the current token.
                self.anchor = self.abs(self.pos);
                self.discard(self.pos);
            }
            if self.end - self.pos > cap / 2 {
                return Ok(Refill::TooLong);
            }
        }
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let before = self.end;
        while self.end < cap {
            match self.inner.read(&mut self.buf[self.end..cap]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // The games in the bytes just read are handed out before the error.
                Err(e) if self.end > before => {
                    self.failed = Some(e);
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        if self.eof {
            self.buf[self.end] = b'\n';
        }
        if !self.started && (self.end >= BOM.len() || self.eof) {
            self.started = true;
            if self.buf[..self.end].starts_with(BOM) {
                self.mark.set(None);
                self.buf.copy_within(BOM.len()..self.end + 1, 0);
                self.end -= BOM.len();
                self.base += BOM.len() as u64;
                self.anchor = self.base;
            }
        }
        Ok(Refill::Done)
    }

    /// Drops `buf[..k]`, keeping the line count of `buf[0]` up to date.
    fn discard(&mut self, k: usize) {
        self.mark.set(None);
        let gone = &self.buf[..k];
        let lines = memchr::memchr_iter(b'\n', gone).count() as u64;
        if lines > 0 {
            self.base_line += lines;
            let nl = memchr::memrchr(b'\n', gone).unwrap_or(0);
            self.base_col = chars(&gone[nl + 1..]);
        } else {
            self.base_col += chars(gone);
        }
        let tail = if self.eof { self.end + 1 } else { self.end };
        self.buf.copy_within(k..tail, 0);
        self.end -= k;
        self.pos -= k;
        self.base += k as u64;
    }
}

/// Characters in `bytes` when they are UTF-8, else bytes.
fn chars(bytes: &[u8]) -> u64 {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.chars().count() as u64,
        Err(_) => bytes.len() as u64,
    }
}

/// Calls the visitor unless the game or the current variation is being skipped.
struct Sink<'v, V> {
    v: &'v mut V,
    skip_all: bool,
    /// Depth of the variation being skipped.
    skip_var: Option<u32>,
}

impl<V: Visitor> Sink<'_, V> {
    #[inline(always)]
    fn skipping(&self) -> bool {
        self.skip_all || self.skip_var.is_some()
    }

    #[inline(always)]
    fn on(&mut self, f: impl FnOnce(&mut V) -> ControlFlow<()>) {
        if !self.skipping() && f(self.v).is_break() {
            self.skip_all = true;
        }
    }
}

/// A brace comment's text, with its nested `{` and a missing `}` reported.
#[inline(always)]
fn brace_comment<V: Visitor>(
    g: &mut Game<'_, V>,
    text: &[u8],
    terminated: bool,
    nested: bool,
    span: Span,
) {
    if nested {
        for i in memchr::memchr_iter(b'{', text) {
            let at = span.start + 1 + i as u64;
            g.problem(
                Span::new(at, at + 1),
                Severity::Error,
                SyntaxKind::NestedComment,
                "a `{` inside a comment: comments do not nest",
            );
        }
    }
    if !terminated {
        g.problem(
            Span::new(span.start, span.start + 1),
            Severity::Error,
            SyntaxKind::UnterminatedComment,
            "this comment is not closed by `}`",
        );
    }
    g.keep(text, CommentKind::Brace, span);
}

/// A move number: `12.` waits for a possible `...`; `12...` (or other dots, with a warning)
/// stands for Black's move.
#[inline(always)]
fn move_number<V: Visitor>(
    g: &mut Game<'_, V>,
    number: u32,
    dots: usize,
    leading_zero: bool,
    overflow: bool,
    span: Span,
) {
    if leading_zero {
        g.problem(
            span,
            Severity::Error,
            SyntaxKind::BadMoveNumber,
            "a move number must not start with 0",
        );
    } else if overflow || number == 0 {
        g.problem(
            span,
            Severity::Error,
            SyntaxKind::BadMoveNumber,
            "a move number must be between 1 and 4294967295",
        );
    }
    if dots == 1 {
        g.pending_number = Some((number, span));
    } else {
        if dots != 3 {
            g.problem(
                span,
                Severity::Warning,
                SyntaxKind::MoveNumberDots,
                "a move number ends with `.` or `...`; read as `...`",
            );
        }
        g.sink.on(|v| v.move_number(number, true, span));
    }
    g.expect_move = Some(span);
}

/// The state of the game being read.
struct Game<'v, V> {
    sink: Sink<'v, V>,
    last_end: u64,
    movetext: bool,
    saw_tag: bool,
    depth: u32,
    /// Move tokens read so far in this game (to tell an empty variation).
    moves: u64,
    /// A move number `12.` whose event waits for a possible `...` (`12. ...`).
    pending_number: Option<(u32, Span)>,
    /// The move number that still waits for its move.
    expect_move: Option<Span>,
    /// The `Result` tag is `-`: a lone `-` in the movetext is the result.
    result_dash: bool,
}

impl<'v, V: Visitor> Game<'v, V> {
    fn new(visitor: &'v mut V, game_start: u64) -> Self {
        Game {
            sink: Sink {
                v: visitor,
                skip_all: false,
                skip_var: None,
            },
            last_end: game_start,
            movetext: false,
            saw_tag: false,
            depth: 0,
            moves: 0,
            pending_number: None,
            expect_move: None,
            result_dash: false,
        }
    }

    fn problem(&mut self, span: Span, severity: Severity, kind: SyntaxKind, message: &str) {
        if !self.sink.skipping() {
            self.sink.v.problem(SyntaxProblem {
                span,
                severity,
                kind,
                message: message.to_string(),
            });
        }
    }

    /// Passes a comment on, or text kept as one (it does not start the movetext).
    fn keep(&mut self, text: &[u8], kind: CommentKind, span: Span) {
        self.flush_number();
        self.sink.on(|v| v.comment(text, kind, span));
    }

    fn flush_number(&mut self) {
        if let Some((n, span)) = self.pending_number.take() {
            self.sink.on(|v| v.move_number(n, false, span));
        }
    }

    fn check_move(&mut self) {
        if let Some(span) = self.expect_move.take() {
            self.problem(
                span,
                Severity::Error,
                SyntaxKind::MissingMove,
                "a move number must be followed by a move",
            );
        }
    }
}
