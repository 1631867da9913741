//! Game-agnostic PDN (Portable Draughts Notation): a streaming reader, an owned game model, a
//! canonical writer and a JSON form.
//!
//! - [`Reader`] reads one game per call from any [`std::io::Read`] and drives a [`Visitor`]
//!   with borrowed slices: one reused buffer, no allocation per game, no line counting while
//!   reading ([`Reader::locate`] turns byte offsets into lines and columns when a diagnostic is
//!   shown).
//! - [`RecordBuilder`] is a visitor that builds a [`GameRecord`]; [`GameRecord::accept`]
//!   replays a record as visitor callbacks.
//! - [`Writer`] / [`GameRecord::to_pdn`] write canonical PDN; [`GameRecord::to_json`] /
//!   [`GameRecord::from_json`] the JSON form.
//!
//! The dialect the reader accepts, with its warnings and errors, is described in the
//! project's `docs/notation.md` ("PDN dialect"). The reader keeps games whole: stray text,
//! unknown tokens and malformed tags are warnings ([`SyntaxKind`]), kept in the record as
//! comments or tags and written back; a game ends only at its result, at a tag section that
//! follows movetext, or at a repeated tag of a section without movetext. Writing a record
//! read from PDN and reading it again gives the same content, and writing is a fixed point
//! after one pass.
//!
//! ```
//! let games = pdn::read_all(b"[White \"Kees\"]\n1. 32-28 19-23 {good} 2. 28x19 1-0\n");
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].tag("White"), Some("Kees"));
//! assert_eq!(games[0].result.as_ref().unwrap().token, "1-0");
//! assert!(games[0].problems.is_empty());
//! ```
#![deny(missing_docs)]

use std::borrow::Cow;
use std::io::Read;

pub mod chunk;
mod encoding;
mod json;
mod lexer;
mod reader;
mod record;
mod serde_forms;
pub mod visitor;
mod writer;

pub use encoding::{decode, decode_as, guess_encoding, Encoding};
pub use json::{is_json_record, JsonError};
pub use reader::{Location, Reader, Source, DEFAULT_CAPACITY, DEFAULT_MAX_CAPACITY, MAX_DEPTH};
pub use record::{
    roster_then, Annotation, Comment, GameRecord, GameResult, InvalidRecord, Move, MoveNumber, Nag,
    Node, RecordBuilder, Setup, Strength, Tag, Variation, SEVEN_TAG_ROSTER, TAG_ORDER,
};
pub use visitor::{
    CommentKind, Severity, Span, SyntaxKind, SyntaxProblem, UnknownSyntaxKind, Visitor,
};
pub use writer::{write_game, write_pdn, Writer, LINE_WIDTH};

/// The stable name of every [`SyntaxKind`] the reader reports, errors and warnings (see
/// `docs/notation.md`), in the order of [`SyntaxKind::ALL`].
pub const PROBLEM_KINDS: [&str; SyntaxKind::ALL.len()] = {
    let mut names = [""; SyntaxKind::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = SyntaxKind::ALL[i].as_str();
        i += 1;
    }
    names
};

/// Which tag a look-up of `name` finds, given the names of a record's tags in file order:
/// the last spelled exactly `name`, else the last whose name differs from it only in case
/// (its index in `names`). An exact spelling wins wherever it stands, so a record and its
/// written form (the writer puts exactly spelled standard tags first) find the same tag.
///
/// ```
/// let names: [&[u8]; 3] = [b"gametype", b"GameType", b"GAMETYPE"];
/// assert_eq!(pdn::find_tag(names, b"GameType"), Some(1));
/// assert_eq!(pdn::find_tag(names, b"Gametype"), Some(2));
/// assert_eq!(pdn::find_tag(names, b"Variant"), None);
/// let names: [&[u8]; 4] = [b"Event", b"Event", b"EVENT", b"Events"];
/// assert_eq!(pdn::find_tag(names, b"Event"), Some(1));
/// assert_eq!(pdn::find_tag(names, b"event"), Some(2));
/// ```
pub fn find_tag<'a, I>(names: I, name: &[u8]) -> Option<usize>
where
    I: IntoIterator<Item = &'a [u8]>,
    I::IntoIter: DoubleEndedIterator + ExactSizeIterator,
{
    // One pass from the end, names of another length passed over at once: the referee looks
    // up several tags a game, most of them absent, and two passes comparing every name cost
    // 1 % of validating a corpus.
    let mut other_case = None;
    for (i, n) in names.into_iter().enumerate().rev() {
        if n.len() != name.len() {
            continue;
        }
        if n == name {
            return Some(i);
        }
        if other_case.is_none() && n.eq_ignore_ascii_case(name) {
            other_case = Some(i);
        }
    }
    other_case
}

/// Removes the one escape PDN strings know: `\"` becomes `"`. Other backslashes stay.
///
/// ```
/// assert_eq!(&*pdn::unescape(br#"a \"b\" \n"#), br#"a "b" \n"#);
/// ```
pub fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memmem::find(raw, b"\\\"").is_none() {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && raw.get(i + 1) == Some(&b'"') {
            out.push(b'"');
            i += 2;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    Cow::Owned(out)
}

/// The comment commands in a comment's text: `[%name args]` gives `(name, args)` with the
/// arguments trimmed. Text around the commands is ignored.
///
/// ```
/// let c: Vec<_> = pdn::commands(b"ok [%clk 1:02:03] [%eval -0.5]").collect();
/// assert_eq!(c, [(&b"clk"[..], &b"1:02:03"[..]), (&b"eval"[..], &b"-0.5"[..])]);
/// ```
pub fn commands(comment: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut rest = comment;
    std::iter::from_fn(move || loop {
        let start = memchr::memmem::find(rest, b"[%")?;
        let body = &rest[start + 2..];
        let Some(close) = memchr::memchr(b']', body) else {
            rest = &[];
            return None;
        };
        rest = &body[close + 1..];
        let body = &body[..close];
        let name_len = body
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .unwrap_or(body.len());
        if name_len == 0 {
            continue;
        }
        let args = body[name_len..].trim_ascii();
        return Some((&body[..name_len], args));
    })
}

/// Whether `head` (the start of an input, or all of it) holds anything of a game record: a
/// tag, a move or move number, a result, a setup, a NAG, a variation, or a comment written
/// as one. False for text that is only words outside any comment (a letter, a README, a
/// log): such an input is no game record at all, however a reader would keep its text.
///
/// ```
/// assert!(pdn::holds_records(b"[Event \"x\"]\n"));
/// assert!(pdn::holds_records(b"{ a preamble }"));
/// assert!(!pdn::holds_records(b"hello world, this is not a game\n"));
/// ```
pub fn holds_records(head: &[u8]) -> bool {
    /// The buffer [`holds_records`] starts reading `head` with.
    const SIGNS_CAPACITY: usize = 4096;
    use std::ops::ControlFlow::{self, Break, Continue};
    /// Stops at the first sign of a record; stray words are comments with a problem first.
    #[derive(Default)]
    struct Signs {
        found: bool,
        stray: Option<Span>,
    }
    impl Signs {
        fn found(&mut self) -> ControlFlow<()> {
            self.found = true;
            Break(())
        }
    }
    impl Visitor for Signs {
        type Output = ();
        fn tag(&mut self, _: &[u8], _: &[u8], _: Span) -> ControlFlow<()> {
            self.found()
        }
        fn move_number(&mut self, _: u32, _: bool, _: Span) -> ControlFlow<()> {
            self.found()
        }
        fn mov(&mut self, _: &[u8], _: Span) -> ControlFlow<()> {
            self.found()
        }
        fn nag(&mut self, _: u16, _: Span) -> ControlFlow<()> {
            self.found()
        }
        fn setup(&mut self, _: &[u8], _: Span) -> ControlFlow<()> {
            self.found()
        }
        fn begin_variation(&mut self, _: Span) -> ControlFlow<()> {
            self.found()
        }
        fn result(&mut self, _: &[u8], _: Span) -> ControlFlow<()> {
            self.found()
        }
        fn comment(&mut self, _: &[u8], _: CommentKind, span: Span) -> ControlFlow<()> {
            if self.stray == Some(span) {
                Continue(())
            } else {
                self.found()
            }
        }
        fn problem(&mut self, p: SyntaxProblem) {
            if p.kind == SyntaxKind::StrayText {
                self.stray = Some(p.span);
            }
        }
        fn end_game(&mut self, _: Span) {}
    }
    // The first sign nearly always lies in the first lines: a small buffer to start with (it
    // grows as needed) spares zeroing and filling one as large as the head.
    let mut reader = Reader::with_capacity(head, SIGNS_CAPACITY, DEFAULT_MAX_CAPACITY);
    let mut signs = Signs::default();
    while !signs.found && matches!(reader.read_game(&mut signs), Ok(Some(()))) {}
    signs.found
}

/// Reads every game of `bytes` into records.
pub fn read_all(bytes: &[u8]) -> Vec<GameRecord> {
    Reader::of_bytes(bytes)
        .records()
        .filter_map(Result::ok)
        .collect()
}

/// An iterator over the games of a reader as [`GameRecord`]s (see [`Reader::records`]). It
/// ends after the first I/O error, which it yields.
pub struct Records<R> {
    reader: Reader<R>,
    builder: RecordBuilder,
    failed: bool,
}

impl<R: Read> Iterator for Records<R> {
    type Item = std::io::Result<GameRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.reader.read_game(&mut self.builder).transpose();
        self.failed = matches!(next, Some(Err(_)));
        next
    }
}

impl<R: Read> Reader<R> {
    /// The remaining games as records.
    pub fn records(self) -> Records<R> {
        Records {
            reader: self,
            builder: RecordBuilder::new(),
            failed: false,
        }
    }
}
