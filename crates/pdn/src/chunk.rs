//! Splitting one large input into pieces that can be read independently, and reading the
//! pieces on several cores with the results kept in input order.
//!
//! - [`boundaries`] / [`next_boundary`]: a memchr scan for offsets at which a game surely
//!   begins.
//! - [`Chunker`]: cuts any [`Read`] into [`Chunk`]s of roughly a target size, each cut at such
//!   an offset, holding at most one chunk (plus the rest of the game it ends in) in memory.
//! - [`map_ordered`]: runs a function over chunks on the rayon pool, at most `K` at a time,
//!   and hands the results to a consumer in input order; [`batched`] groups small chunks
//!   (a folder of small files) into pieces of work worth a hand-over between threads.
//!
//! Reading a chunk with its own [`Reader`] gives the same games, problems and (after adding
//! [`Chunk::base_offset`]) the same spans as reading the whole input at once.
//!
//! # When an offset is a boundary
//!
//! The scan accepts an offset `P` only when all of these hold, which together prove that the
//! reader of the whole input begins a game at `P` with no state carried over from before it:
//!
//! 1. `P` holds `[` followed by an upper-case ASCII letter, right after a `\n`. No token of the
//!    reader's grammar reaches across such a line start: a brace comment still open there ends
//!    (as unterminated) before the `\n`, and every other token ends at its line's end. So `P`
//!    is where a token starts, and no comment is open at any such line start.
//! 2. The last non-blank text before `P` is a result token (`1-0`, `0-1`, `1/2-1/2`, `2-0`,
//!    `0-2`, `1-1`, `0-0`, `*`, or a seat result such as `S+W-`) at the end of its line, and
//!    no `(` occurs between the previous line start of kind 1 and it. Every such line start
//!    is at variation depth 0 (a tag pair either ends the game or belongs to its header, where
//!    there are no variations), so the result is at the top level: it ends the game, and the
//!    next token (at `P`) begins one.
//! 3. That result really is a token of its own, not text inside something else. Checked
//!    conservatively: no brace comment is open at the start of its line (tracked from the
//!    previous line start of kind 1, treating every `{` as an opener, which can only
//!    overestimate what is commented out); on the line itself, every `{` is closed before the
//!    result; outside those comments the line holds none of `" ; % /`, and a `[` only as a
//!    closed throw group `[1 4 2]`; the result follows a space or tab (or starts the line),
//!    and the word before it does not end in `-`, `x` or `:` (`27x 1` would be a padded move).
//!
//! Games that end without a result, hold a variation, or whose result shares a line with a
//! comment command such as `[%clk ...]` outside braces, simply give no boundary after them: chunks are then longer, never
//! wrong. The one case the argument does not cover is a single comment longer than half the
//! reader's buffer limit (32 MiB by default), which the reader skips as `too-long`.
//!
//! # Memory when the scan finds nothing
//!
//! A chunk that has grown to four times its target without a boundary the scan can prove
//! (every game holds a variation, say) is read once by a [`Reader`], and cut at the last game
//! it begins right after a game that ended with its result (the reader of the whole input
//! begins a game there, with nothing carried over). When even that finds no cut by the time
//! the chunk reaches its limit ([`MAX_CHUNK`], the reader's buffer limit), the stretch is one
//! game longer than the limit or text that holds no game records at all: it is refused with a
//! [`Refused`] error naming its lines, skipped (holding no more than the limit) to the next
//! boundary the scan can prove, and the chunks after it follow as usual. So a chunker never
//! holds more than about twice its limit, whatever the input.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;

use std::ops::ControlFlow;

use crate::reader::{Location, Reader};
use crate::visitor::{Span, SyntaxKind, SyntaxProblem, Visitor};

/// The chunk size [`Chunker::new`] aims at: 8 MiB.
pub const DEFAULT_CHUNK_SIZE: usize = 8 << 20;

/// The largest chunk a [`Chunker`] makes: a stretch this long in which no game can be told
/// to begin is refused ([`Refused`]). The reader's buffer limit.
pub const MAX_CHUNK: usize = crate::reader::DEFAULT_MAX_CAPACITY;

/// A stretch of the input longer than the chunker's limit in which no game can be told to
/// begin: one game that long, or text that holds no game records. It is not read; the
/// chunks after it are. Carried by the [`io::Error`] (of kind `InvalidData`) the chunker
/// gives in its place: see [`refused`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "lines {line}-{end_line}: {bytes} bytes in which no game ends, more than the limit of {} MiB \
     (one game that long, or text that holds no game records); refused, not read",
    .limit >> 20
)]
pub struct Refused {
    /// Absolute offset of the stretch's first byte.
    pub offset: u64,
    /// 1-based line of its first byte.
    pub line: u64,
    /// 1-based line of its last byte.
    pub end_line: u64,
    /// Its length in bytes.
    pub bytes: u64,
    /// The chunker's limit.
    pub limit: usize,
}

/// The refusal `e` carries, when it is one: the chunker goes on after it, unlike after an
/// error of the input.
pub fn refused(e: &io::Error) -> Option<&Refused> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Refused>())
}

/// A piece of the input that begins at a game boundary (or at the start of the input) and
/// ends at one (or at the end of the input).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Chunk {
    /// Absolute offset of `bytes[0]` in the input.
    pub base_offset: u64,
    /// 1-based line number of `bytes[0]` in the input. A chunk always begins at the start of
    /// a line, so columns need no correction.
    pub first_line: u64,
    /// Position of this chunk in the input, counting from 0.
    pub index: u64,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The chunk was cut right before the tags of a game that end its last game, which has no
    /// result: its reader reports that game as the reader of the whole input does.
    pub cut_before_tags: bool,
}

impl Chunk {
    /// A reader over the chunk's bytes. Its offsets and locations are relative to the chunk:
    /// map them with [`Chunk::absolute_offset`] and [`Chunk::absolute`].
    pub fn reader(&self) -> Reader<&[u8]> {
        let reader = Reader::of_bytes(&self.bytes[..]);
        if self.cut_before_tags {
            reader.cut_before_tags()
        } else {
            reader
        }
    }

    /// An offset of the chunk's reader as an offset in the whole input.
    pub fn absolute_offset(&self, local: u64) -> u64 {
        self.base_offset + local
    }

    /// A location given by the chunk's reader ([`Reader::locate`]) as a location in the
    /// whole input.
    pub fn absolute(&self, local: Location) -> Location {
        Location {
            byte: self.base_offset + local.byte,
            line: self.first_line + local.line - 1,
            column: local.column,
        }
    }
}

/// The offsets (greater than 0) at which a game surely begins, in increasing order; `bytes`
/// must be the start of the input or begin at a game boundary. See the module documentation
/// for the rule; offsets that cannot be decided because `bytes` ends too soon are left out.
pub fn boundaries(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut reset = 0;
    std::iter::from_fn(move || loop {
        let p = next_line_tag(bytes, reset + 1)?;
        let from = reset;
        reset = p;
        if safe(bytes, from, p) {
            return Some(p);
        }
    })
}

/// The first offset at or after `from` at which a game surely begins, found by looking only
/// at `bytes[from..]`; `None` if there is none that can be decided. `bytes` may begin
/// anywhere in the input (the first candidate line serves as the starting point).
pub fn next_boundary(bytes: &[u8], from: usize) -> Option<usize> {
    match scan(bytes, from) {
        Scan::Found(p) => Some(p),
        Scan::Resume(_) => None,
    }
}

/// The outcome of a search: a boundary, or where a later search (with more bytes) resumes.
enum Scan {
    Found(usize),
    /// A line start of kind 1 (see the module documentation), or the search's start.
    Resume(Option<usize>),
}

/// Searches `bytes` for a boundary, starting from a line start of kind 1 at or after `from`.
fn scan(bytes: &[u8], from: usize) -> Scan {
    let Some(mut reset) = next_line_tag(bytes, from) else {
        return Scan::Resume(None);
    };
    while let Some(p) = next_line_tag(bytes, reset + 1) {
        if safe(bytes, reset, p) {
            return Scan::Found(p);
        }
        reset = p;
    }
    Scan::Resume(Some(reset))
}

/// The first `[` at or after `from` that follows a `\n` and precedes an upper-case letter.
/// Offset 0 counts when `from` is 0 and the input starts with `[` (it needs no newline).
fn next_line_tag(bytes: &[u8], from: usize) -> Option<usize> {
    if from == 0 && bytes.len() >= 2 && bytes[0] == b'[' && bytes[1].is_ascii_uppercase() {
        return Some(0);
    }
    let mut at = from.saturating_sub(1);
    let finder = memchr::memmem::Finder::new(b"\n[");
    while at < bytes.len() {
        let i = at + finder.find(&bytes[at..])?;
        let p = i + 1;
        match bytes.get(p + 1) {
            Some(c) if c.is_ascii_uppercase() => return Some(p),
            Some(_) => at = p,
            None => return None,
        }
    }
    None
}

/// Whether the line start `p` (of kind 1) begins a game, given that `reset < p` is a line start
/// of kind 1 (or the start of the input) and so lies outside any comment.
fn safe(bytes: &[u8], reset: usize, p: usize) -> bool {
    let Some(q) = bytes[reset..p].iter().rposition(|&b| !is_ws(b)) else {
        return false;
    };
    let last = reset + q;
    let line = match memchr::memrchr(b'\n', &bytes[reset..last]) {
        Some(i) => reset + i + 1,
        None => reset,
    };
    // A result inside a variation would not end the game (and the reader reports a game
    // ended by a tag differently from one ended by the input), so no `(` may come before it.
    memchr::memchr(b'(', &bytes[reset..last]).is_none()
        && !maybe_in_comment(&bytes[reset..line])
        && line_ends_in_result(&bytes[line..=last])
        && is_tag_line(&bytes[p..])
}

/// Whether `text` begins with a line that holds exactly one well-formed tag pair
/// (`[Name "value"]`, spaces around allowed): such a line after a result surely begins the
/// next game, while a malformed one may be kept as stray text of the game before.
fn is_tag_line(text: &[u8]) -> bool {
    let line = match memchr::memchr(b'\n', text) {
        Some(end) => &text[..end],
        None => text,
    };
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let name = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if name == 0 || !rest[0].is_ascii_uppercase() {
        return false;
    }
    let rest = &rest[name..];
    let gap = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let Some(value) = rest[gap..].strip_prefix(b"\"") else {
        return false;
    };
    if gap == 0 {
        return false;
    }
    // The value ends at the first quote not escaped by a backslash.
    let mut i = 0;
    while i < value.len() && value[i] != b'"' {
        i += if value[i] == b'\\' { 2 } else { 1 };
    }
    match value.get(i + 1..) {
        Some(tail) if tail.first() == Some(&b']') => {
            tail[1..].iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
        }
        _ => false,
    }
}

/// Whitespace as the reader sees it.
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Whether a brace comment may be open at the end of `text`, which begins outside any
/// comment. Every `{` counts as an opener and the first `}` after it as its closer; a `{` that
/// was really inside a tag value or a line comment can only make the answer `true` wrongly,
/// never `false`.
fn maybe_in_comment(text: &[u8]) -> bool {
    let mut at = 0;
    loop {
        let Some(open) = memchr::memchr(b'{', &text[at..]) else {
            return false;
        };
        let after = at + open + 1;
        match memchr::memchr(b'}', &text[after..]) {
            Some(close) => at = after + close + 1,
            None => return true,
        }
    }
}

/// Whether `line` (which begins outside any comment and ends with a non-blank byte) ends with
/// a result token that the reader surely reads as one.
fn line_ends_in_result(line: &[u8]) -> bool {
    let Some(len) = result_suffix(line) else {
        return false;
    };
    let start = line.len() - len;
    let before = &line[..start];
    if let Some(&b) = before.last() {
        if b != b' ' && b != b'\t' {
            return false;
        }
    }
    let word_end = before.iter().rposition(|&b| b != b' ' && b != b'\t');
    if let Some(i) = word_end {
        if matches!(before[i], b'-' | b'x' | b':') {
            return false;
        }
    }
    plain_text(before)
}

/// The length of the result token `line` ends with, if it ends with one.
fn result_suffix(line: &[u8]) -> Option<usize> {
    const TWO_SEATS: [&[u8]; 8] = [
        b"1/2-1/2", b"1-0", b"0-1", b"2-0", b"0-2", b"1-1", b"0-0", b"*",
    ];
    if let Some(r) = TWO_SEATS.iter().find(|r| line.ends_with(r)) {
        return Some(r.len());
    }
    let seat = |b: u8| matches!(b, b'S' | b'W' | b'N' | b'E');
    match line {
        [.., a, b'+', b, b'-'] if seat(*a) && seat(*b) => Some(4),
        [.., a, b'+'] if seat(*a) => Some(2),
        _ => None,
    }
}

/// Whether `text` (the part of a line before its result, beginning outside any comment) is
/// made of tokens none of which can swallow what follows: brace comments closed on the line,
/// closed throw groups, and text free of `" ; % / [`.
fn plain_text(text: &[u8]) -> bool {
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'{' => match memchr::memchr(b'}', &text[i + 1..]) {
                Some(close) => i += close + 2,
                None => return false,
            },
            b'[' => {
                let mut j = i + 1;
                while j < text.len() && matches!(text[j], b'0'..=b'9' | b' ' | b'\t') {
                    j += 1;
                }
                if text.get(j) != Some(&b']') {
                    return false;
                }
                i = j + 1;
            }
            b'"' | b';' | b'%' | b'/' => return false,
            _ => i += 1,
        }
    }
    true
}

/// The last offset in `bytes` (which begins where a game begins) at which a reader of the
/// whole input surely begins a game: the start of a line on which a reader of `bytes` begins
/// a game after another one; and whether that other one ended without its result (the tags
/// ended it: see [`Chunk::cut_before_tags`]). Found by reading `bytes`.
fn exact_cut(bytes: &[u8]) -> Option<(usize, bool)> {
    /// Where each game begins, and whether it ended with its result.
    #[derive(Default)]
    struct Ends {
        start: u64,
        result: bool,
        missing: bool,
    }
    impl Visitor for Ends {
        type Output = bool;
        fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
            *self = Ends {
                start: offset,
                ..Ends::default()
            };
            ControlFlow::Continue(())
        }
        fn result(&mut self, _: &[u8], _: Span) -> ControlFlow<()> {
            self.result = true;
            ControlFlow::Continue(())
        }
        fn problem(&mut self, p: SyntaxProblem) {
            self.missing |= p.kind == SyntaxKind::MissingResult;
        }
        fn end_game(&mut self, _: Span) -> bool {
            self.result && !self.missing
        }
    }
    let mut reader = Reader::of_bytes(bytes);
    let mut ends = Ends::default();
    let (mut cut, mut missing) = (None, false);
    while let Ok(Some(with_result)) = reader.read_game(&mut ends) {
        let start = ends.start as usize;
        if start > 0 && bytes.get(start - 1) == Some(&b'\n') {
            cut = Some((start, missing));
        }
        missing = !with_result && ends.missing;
    }
    cut
}

/// Cuts an input into [`Chunk`]s of roughly a target size at game boundaries (see the module
/// documentation). Memory: one chunk plus the distance from its target size to the next
/// boundary (normally the rest of one game), never much more than twice [`MAX_CHUNK`].
pub struct Chunker<R> {
    inner: R,
    target: usize,
    /// The size past which no chunk grows (see [`Refused`]).
    limit: usize,
    /// The size at which the current chunk is next read for a cut ([`exact_cut`]).
    read_at: usize,
    /// The cut found ends the chunk before tags that end its last game.
    cut_before_tags: bool,
    buf: Vec<u8>,
    base: u64,
    line: u64,
    index: u64,
    eof: bool,
    /// Where the boundary search of the current chunk resumes (a line start of kind 1).
    resume: Option<usize>,
}

impl<R: Read> Chunker<R> {
    /// A chunker aiming at [`DEFAULT_CHUNK_SIZE`].
    pub fn new(inner: R) -> Self {
        Self::with_target(inner, DEFAULT_CHUNK_SIZE)
    }

    /// A chunker aiming at `target` bytes per chunk (at least 1).
    pub fn with_target(inner: R, target: usize) -> Self {
        Self::with_limit(inner, target, MAX_CHUNK)
    }

    /// A chunker aiming at `target` bytes per chunk whose chunks never grow past `limit`
    /// bytes (at least the target): a longer stretch in which no game can be told to begin
    /// is refused ([`Refused`]).
    pub fn with_limit(inner: R, target: usize, limit: usize) -> Self {
        let target = target.max(1);
        let limit = limit.max(target);
        Chunker {
            inner,
            target,
            limit,
            read_at: first_read(target, limit),
            cut_before_tags: false,
            buf: Vec::new(),
            base: 0,
            line: 1,
            index: 0,
            eof: false,
            resume: None,
        }
    }

    /// Reads until the buffer holds `want` bytes or the input ends.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        if self.buf.len() >= want || self.eof {
            return Ok(());
        }
        let mut left = (want - self.buf.len()).max(64 * 1024);
        while left > 0 {
            // The room grows by doubling from 64 KiB: most inputs are far shorter than a
            // chunk, and a short input read into a whole chunk's room would hold on to it.
            // Each time exactly: a chunk's memory is at most twice what it holds.
            let step = left.min(self.buf.len().max(64 * 1024));
            self.buf.reserve_exact(step);
            // Into the room reserved, which is not zeroed first (zeroing all of it before
            // every read cost more than the reading); fewer bytes than asked for means the
            // input has ended.
            let got = (&mut self.inner)
                .take(step as u64)
                .read_to_end(&mut self.buf)?;
            if got < step {
                self.eof = true;
                break;
            }
            left -= step;
        }
        Ok(())
    }

    /// Where to cut the buffer: a boundary at or after the target, or everything at the end
    /// of the input; `None` when the buffer has reached the limit with no place to cut.
    fn find_cut(&mut self) -> io::Result<Option<usize>> {
        loop {
            let want = self.target.max(self.buf.len() + 1);
            if self.buf.len() >= self.target {
                let from = self.resume.unwrap_or(self.target);
                match scan(&self.buf, from) {
                    Scan::Found(p) => return Ok(Some(p)),
                    Scan::Resume(r) => self.resume = r.or(self.resume),
                }
                if self.eof {
                    return Ok(Some(self.buf.len()));
                }
                if self.buf.len() >= self.read_at {
                    if let Some((p, missing)) = exact_cut(&self.buf) {
                        self.cut_before_tags = missing;
                        return Ok(Some(p));
                    }
                    if self.buf.len() >= self.limit {
                        return Ok(None);
                    }
                    self.read_at = self.limit;
                }
                let step = (self.buf.len() / 8).max(64 * 1024);
                self.fill((self.buf.len() + step).min(self.read_at.max(self.buf.len() + 1)))?;
            } else if self.eof {
                return Ok(Some(self.buf.len()));
            } else {
                self.fill(want)?;
            }
        }
    }

    /// Drops the first `n` bytes of the buffer, moving the chunk's start past them; true
    /// when the last of them ends a line.
    fn drop_front(&mut self, n: usize) -> bool {
        let newline = n > 0 && self.buf[n - 1] == b'\n';
        self.base += n as u64;
        self.line += memchr::memchr_iter(b'\n', &self.buf[..n]).count() as u64;
        self.buf.drain(..n);
        newline
    }

    /// Skips the stretch at the start of the buffer in which no game can be told to begin, up
    /// to the next line that begins a game (or the end of the input), holding no more than
    /// the limit; returns the refusal that says so.
    ///
    /// The stretch begins with a game (or with text before any): its tags, then moves or
    /// other text. So the first well-formed tag line after a line of other text begins the
    /// next game, for the reader of the whole input ends a game at tags that follow its
    /// moves, and no brace comment is open at such a line (see the module documentation).
    fn refuse(&mut self) -> io::Result<io::Error> {
        let (offset, line) = (self.base, self.line);
        let mut newline = false;
        // The last non-blank line was a tag pair; the buffer begins inside a line.
        let (mut after_tags, mut mid_line) = (true, false);
        loop {
            let mut at = 0;
            let mut found = None;
            while let Some(i) = memchr::memchr(b'\n', &self.buf[at..]) {
                let text = &self.buf[at..at + i + 1];
                if mid_line {
                    after_tags = false;
                } else if is_tag_line(text) {
                    if !after_tags {
                        found = Some(at);
                        break;
                    }
                } else if !text.iter().all(|&b| is_ws(b)) {
                    after_tags = false;
                }
                mid_line = false;
                at += i + 1;
            }
            let drop = match found {
                Some(p) => p,
                None if self.eof => self.buf.len(),
                // A line longer than half the limit is dropped unread: no game begins in it.
                None if self.buf.len() - at >= self.limit / 2 => {
                    mid_line = true;
                    self.buf.len()
                }
                None => at,
            };
            if drop > 0 {
                newline = self.drop_front(drop);
            }
            if found.is_some() || self.eof {
                break;
            }
            let step = (self.limit / 8).max(64 * 1024);
            self.fill(self.buf.len() + step)?;
        }
        let refused = Refused {
            offset,
            line,
            end_line: (self.line - u64::from(newline)).max(line),
            bytes: self.base - offset,
            limit: self.limit,
        };
        self.resume = None;
        self.read_at = first_read(self.target, self.limit);
        Ok(io::Error::new(io::ErrorKind::InvalidData, refused))
    }

    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let Some(cut) = self.find_cut()? else {
            return Err(self.refuse()?);
        };
        if cut == 0 {
            return Ok(None);
        }
        // The input's last chunk leaves nothing to read: no room is kept for another.
        let mut rest = if self.eof && cut == self.buf.len() {
            Vec::new()
        } else {
            Vec::with_capacity(self.target.max(self.buf.len() - cut) + 64 * 1024)
        };
        rest.extend_from_slice(&self.buf[cut..]);
        let mut bytes = std::mem::replace(&mut self.buf, rest);
        bytes.truncate(cut);
        let chunk = Chunk {
            base_offset: self.base,
            first_line: self.line,
            index: self.index,
            bytes,
            cut_before_tags: std::mem::take(&mut self.cut_before_tags),
        };
        self.base += cut as u64;
        self.line += memchr::memchr_iter(b'\n', &chunk.bytes).count() as u64;
        self.index += 1;
        self.resume = None;
        self.read_at = first_read(self.target, self.limit);
        Ok(Some(chunk))
    }
}

/// The size at which a chunk without a boundary the scan can prove is first read for a cut.
fn first_read(target: usize, limit: usize) -> usize {
    target.saturating_mul(4).min(limit)
}

impl<R: Read> Iterator for Chunker<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_chunk().transpose()
    }
}

/// Groups consecutive items into batches that hold at least `bytes` of input each (as `len`
/// counts it; an item counts at least 1), the last batch excepted, so that many small items
/// cost one hand-over between threads (see [`map_ordered`]). An error ends the batch before
/// it and comes alone, in its place.
///
/// ```
/// let items = [Ok(3), Ok(3), Ok(5), Err("x"), Ok(1)];
/// let batches: Vec<_> = pdn::chunk::batched(items.into_iter(), 6, |&n: &usize| n).collect();
/// assert_eq!(batches, [Ok(vec![3, 3]), Ok(vec![5]), Err("x"), Ok(vec![1])]);
/// ```
pub fn batched<X, E>(
    items: impl Iterator<Item = Result<X, E>>,
    bytes: usize,
    len: impl Fn(&X) -> usize,
) -> impl Iterator<Item = Result<Vec<X>, E>> {
    let mut items = items.peekable();
    std::iter::from_fn(move || {
        let mut batch = Vec::new();
        let mut held = 0;
        while held < bytes {
            match items.next_if(Result::is_ok) {
                Some(Ok(item)) => {
                    held += len(&item).max(1);
                    batch.push(item);
                }
                _ => break,
            }
        }
        if batch.is_empty() {
            items.next().map(|e| e.map(|_| batch))
        } else {
            Some(Ok(batch))
        }
    })
}

/// Runs `work` over every item of `chunks` on the rayon pool, at most `in_flight` (at least 1)
/// at a time, and calls `consume` with the results in the order of the items, on the calling
/// thread (which also pulls the items, so reading the input stays sequential).
///
/// Stops at the first error, from `chunks` or from `consume`, and returns it once the work
/// already started has finished. A panic in `work` is resumed on the calling thread.
///
/// ```
/// use pdn::chunk::{map_ordered, Chunker};
/// let text = b"[Event \"a\"]\n1. 32-28 1-0\n\n[Event \"b\"]\n1. 33-29 0-1\n".repeat(50);
/// let mut games = Vec::new();
/// map_ordered(
///     Chunker::with_target(&text[..], 100),
///     2,
///     |chunk| pdn::read_all(&chunk.bytes).len(),
///     |n| -> std::io::Result<()> {
///         games.push(n);
///         Ok(())
///     },
/// )
/// .unwrap();
/// assert_eq!(games.iter().sum::<usize>(), 100);
/// ```
pub fn map_ordered<X, T, E, I, F, C>(
    chunks: I,
    in_flight: usize,
    work: F,
    mut consume: C,
) -> Result<(), E>
where
    I: IntoIterator<Item = Result<X, E>>,
    X: Send,
    T: Send,
    F: Fn(&X) -> T + Sync,
    C: FnMut(T) -> Result<(), E>,
{
    let in_flight = in_flight.max(1);
    let (tx, rx) = mpsc::channel::<(u64, std::thread::Result<T>)>();
    let work = &work;
    rayon::in_place_scope(|scope| {
        let mut pending: BTreeMap<u64, T> = BTreeMap::new();
        let mut next_out = 0u64;
        let mut started = 0u64;
        // An error from the input ends the starting of work, one from the consumer also the
        // consuming; results that precede an input error are still consumed.
        let mut input_error: Option<E> = None;
        let mut consume_error: Option<E> = None;
        let mut items = chunks.into_iter();
        loop {
            // Start work while there is room and input.
            while input_error.is_none()
                && consume_error.is_none()
                && started - next_out < in_flight as u64
            {
                match items.next() {
                    Some(Ok(item)) => {
                        let tx = tx.clone();
                        let id = started;
                        scope.spawn(move |_| {
                            let out = panic::catch_unwind(AssertUnwindSafe(|| work(&item)));
                            // The receiver lives until every job has reported.
                            let _ = tx.send((id, out));
                        });
                        started += 1;
                    }
                    Some(Err(e)) => input_error = Some(e),
                    None => break,
                }
            }
            if next_out == started {
                break;
            }
            let Ok((id, out)) = rx.recv() else { break };
            match out {
                Ok(t) => {
                    pending.insert(id, t);
                }
                Err(payload) => panic::resume_unwind(payload),
            }
            while let Some(t) = pending.remove(&next_out) {
                next_out += 1;
                if consume_error.is_none() {
                    if let Err(e) = consume(t) {
                        consume_error = Some(e);
                    }
                }
            }
        }
        match consume_error.or(input_error) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_a_well_formed_tag_line_after_a_result_is_a_boundary() {
        assert!(is_tag_line(b"[Event \"x\"]\n1. 32-28"));
        assert!(is_tag_line(b"[Event \"a \\\" b\"]  \r\n"));
        assert!(!is_tag_line(b"[Bad 1-0 {open [Bad 1-0 "));
        assert!(!is_tag_line(b"[Empty]\n"));
        assert!(!is_tag_line(b"[Event \"x\"]\\r\n"));
        assert!(!is_tag_line(b"[Event\"x\"]\n"));
        assert_eq!(boundaries(b"1-0\n[Bad 1-0 {open [Bad 1-0 ").count(), 0);
        assert_eq!(boundaries(b"1. 32-28 1-0\n[Event \"x\"]\n1-0").count(), 1);
    }

    use super::*;

    fn all(text: &str) -> Vec<usize> {
        boundaries(text.as_bytes()).collect()
    }

    #[test]
    fn a_result_then_tags_is_a_boundary() {
        let t = "[Event \"a\"]\n1. 32-28 1-0\n\n[Event \"b\"]\n1. 32-28 *\n[Event \"c\"]\n";
        let b = all(t);
        assert_eq!(b.len(), 2);
        assert!(b.iter().all(|&p| t[p..].starts_with("[Event")));
    }

    #[test]
    fn seat_results_and_throw_groups() {
        let t = "[V \"x\"]\n1. W [1 2] in N [3] W+\n[V \"y\"]\n1. S [2] N+W-\n[V \"z\"]\n";
        assert_eq!(all(t).len(), 2);
    }

    #[test]
    fn no_boundary_inside_a_comment_that_spans_lines() {
        // The comment opened on the movetext line is still open at the `1-0` line.
        let t = "[E \"a\"]\n1. 32-28 { see\n 1-0\n[E \"b\"]\n1-0\n[E \"c\"]\n";
        let b = all(t);
        assert_eq!(b.len(), 1, "{b:?}");
        assert!(t[b[0]..].starts_with("[E \"c\"]"));
    }

    #[test]
    fn no_boundary_after_a_result_in_a_line_comment_or_tag() {
        assert!(all("[E \"a\"]\n; 1-0\n[E \"b\"]\n").is_empty());
        assert!(all("[E \"a\"]\n[F \"x 1-0\n[E \"b\"]\n").is_empty());
        assert!(all("[E \"a\"]\n1. 27x 1-0\n[E \"b\"]\n").is_empty());
        assert!(all("[E \"a\"]\n1. 32-28 {c 1-0\n[E \"b\"]\n").is_empty());
        assert!(all("[E \"a\"]\n1. 32-28 1-0 }\n[E \"b\"]\n").is_empty());
        // A fake `{` inside a line comment must not make a later `}` look like a closer.
        assert!(all("; {\n; } 1-0\n[E \"b\"]\n").is_empty());
    }

    #[test]
    fn closed_comments_on_the_result_line_are_fine() {
        assert_eq!(
            all("[E \"a\"]\n1. 32-28 {x [%clk 1] ; } 1-0\n[E \"b\"]\n").len(),
            1
        );
    }

    #[test]
    fn undecidable_candidates_at_the_end_are_left_out() {
        assert!(all("[E \"a\"]\n1-0\n[").is_empty());
        // A tag line cut by the end of the buffer is not decided until it is complete.
        assert_eq!(next_boundary(b"[E \"a\"]\n1-0\n[E", 0), None);
        assert_eq!(next_boundary(b"[E \"a\"]\n1-0\n[E \"b\"]", 0), Some(12));
        assert_eq!(
            next_boundary(b"x\n1-0\n[E \"b\"]\n1-0\n[E \"c\"]\n", 0),
            Some(18)
        );
    }

    #[test]
    fn chunks_cover_the_input_and_start_at_boundaries() {
        let text = "[E \"a\"]\n1. 32-28 1-0\n\n".repeat(100);
        let chunks: Vec<Chunk> = Chunker::with_target(text.as_bytes(), 64)
            .collect::<io::Result<_>>()
            .unwrap();
        assert!(chunks.len() > 10);
        let mut joined = Vec::new();
        for (i, c) in chunks.iter().enumerate() {
            assert_eq!(c.base_offset, joined.len() as u64);
            assert_eq!(c.index, i as u64);
            let lines = joined.iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(c.first_line, lines + 1);
            assert!(c.bytes.starts_with(b"[E"));
            joined.extend_from_slice(&c.bytes);
        }
        assert_eq!(joined, text.as_bytes());
    }

    /// An input much shorter than a chunk costs about its own size, not a chunk's room: what a
    /// folder of small files checked in batches holds at once.
    #[test]
    fn a_short_input_holds_about_its_size() {
        let text = "[E \"a\"]\n1. 32-28 1-0\n\n".repeat(5_000);
        let (items, most) = drain(text.as_bytes(), 4 << 20, 32 << 20);
        let chunks: Vec<Chunk> = items.into_iter().collect::<io::Result<_>>().unwrap();
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].bytes, text.as_bytes());
        assert!(
            most <= 2 * text.len(),
            "{most} bytes held for {}",
            text.len()
        );
    }

    /// Every item of a chunker, and the most memory it held (buffer or chunk) after any.
    fn drain(text: &[u8], target: usize, limit: usize) -> (Vec<io::Result<Chunk>>, usize) {
        let mut chunker = Chunker::with_limit(text, target, limit);
        let (mut items, mut most) = (Vec::new(), 0);
        while let Some(item) = chunker.next() {
            let chunk = item.as_ref().map_or(0, |c| c.bytes.capacity());
            most = most.max(chunk).max(chunker.buf.capacity());
            items.push(item);
        }
        (items, most)
    }

    fn games(text: &[u8]) -> Vec<String> {
        crate::read_all(text)
            .iter()
            .map(|g| {
                g.tags
                    .iter()
                    .map(|t| t.value.clone())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect()
    }

    #[test]
    fn games_that_all_hold_variations_are_cut_where_a_reader_finds_them() {
        // No boundary the scan can prove (a `(` in every game): the chunks stay near four
        // times their target instead of taking the whole input, and read as the whole does.
        let text: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("[E \"{i}\"]\n1. 32-28 (1. 33-29) 19-23 1-0\n\n").into_bytes())
            .collect();
        let (items, most) = drain(&text, 50_000, 1 << 20);
        let chunks: Vec<Chunk> = items.into_iter().map(Result::unwrap).collect();
        assert!(chunks.len() > 3, "{}", chunks.len());
        assert!(most <= 4 * 50_000 + 2 * (64 << 10), "{most}");
        let mut joined = Vec::new();
        let mut read = Vec::new();
        for c in &chunks {
            assert_eq!(c.base_offset, joined.len() as u64);
            joined.extend_from_slice(&c.bytes);
            read.extend(games(&c.bytes));
        }
        assert_eq!(joined, text);
        assert_eq!(read, games(&text));
    }

    #[test]
    fn a_stretch_past_the_limit_is_refused_and_the_games_after_it_are_read() {
        let small = |name: &str| format!("[E \"{name}\"]\n1. 32-28 19-23 1-0\n\n");
        let before: String = (0..50).map(|i| small(&format!("a{i}"))).collect();
        let after: String = (0..50).map(|i| small(&format!("b{i}"))).collect();
        let limit = 200_000;
        // One game far longer than the limit (no result: nothing inside it looks like an
        // end), and text with no game record in it at all.
        let huge = format!(
            "[E \"huge\"]\n1. 32-28 {}\n",
            "{a comment} 19-23 28x19\n".repeat(40_000)
        );
        let junk = "no game here, just words\n".repeat(40_000);
        // The junk follows a game's result: the reader of the whole input reads it into that
        // game, which is refused with it.
        let last = before.rfind("[E").unwrap();
        for (middle, start) in [(huge, before.len()), (junk, last)] {
            let text = format!("{before}{middle}{after}");
            let (items, most) = drain(text.as_bytes(), 10_000, limit);
            assert!(most <= 2 * limit + (64 << 10), "{most}");
            let refusals: Vec<Refused> = items
                .iter()
                .filter_map(|i| {
                    i.as_ref()
                        .err()
                        .map(|e| refused(e).expect("a refusal").clone())
                })
                .collect();
            assert_eq!(refusals.len(), 1, "{refusals:?}");
            let r = &refusals[0];
            let first = before[..start].lines().count() as u64 + 1;
            let end = format!("{before}{middle}").lines().count() as u64;
            assert_eq!((r.offset, r.line, r.end_line), (start as u64, first, end));
            assert_eq!(r.bytes, (before.len() + middle.len() - start) as u64);
            assert!(
                r.to_string().contains(&format!("lines {first}-{end}")),
                "{r}"
            );
            let read: Vec<String> = items
                .iter()
                .filter_map(|i| i.as_ref().ok())
                .flat_map(|c| games(&c.bytes))
                .collect();
            let mut expected = games(&before.as_bytes()[..start]);
            expected.extend(games(after.as_bytes()));
            assert_eq!(read, expected);
        }
    }

    #[test]
    fn map_ordered_keeps_order_and_stops_at_errors() {
        let items = (0..200u64).map(Ok::<u64, String>);
        let mut seen = Vec::new();
        map_ordered(
            items,
            3,
            |&x| {
                if x % 7 == 0 {
                    std::thread::yield_now();
                }
                x * 2
            },
            |t| {
                seen.push(t);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, (0..200).map(|x| x * 2).collect::<Vec<_>>());

        let items = (0..50u64).map(|x| if x == 20 { Err(x) } else { Ok(x) });
        let mut seen = Vec::new();
        let r = map_ordered(
            items,
            4,
            |&x| x,
            |t| {
                seen.push(t);
                Ok(())
            },
        );
        assert_eq!(r, Err(20));
        assert_eq!(seen, (0..20).collect::<Vec<_>>());

        let mut n = 0;
        let r = map_ordered(
            (0..50u64).map(Ok),
            4,
            |&x| x,
            |t| {
                n += 1;
                if t == 5 {
                    Err("stop")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!((r, n), (Err("stop"), 6));
    }
}
