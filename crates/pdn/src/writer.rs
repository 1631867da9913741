//! The canonical PDN writer.

use std::io;

use crate::record::{escape, Annotation, GameRecord, Node};
use crate::visitor::CommentKind;

/// Movetext lines are at most this many characters (a single longer token gets a line of its
/// own).
pub const LINE_WIDTH: usize = 80;

impl GameRecord {
    /// The game as canonical PDN (see [`Writer`]), ending with a line break.
    pub fn to_pdn(&self) -> String {
        let mut s = String::new();
        write_game(self, &mut s);
        s
    }
}

/// Writes games as canonical PDN:
///
/// - header comments, one per line (`{...}` or `%...`);
/// - tags one per line, [`crate::TAG_ORDER`] first, the others in their original order;
/// - a blank line, then the movetext wrapped at [`LINE_WIDTH`] columns: tokens separated by
///   one space, strength marks glued to their move (`32-28!?`), `(` and `)` glued to the
///   tokens they enclose, line comments as `%...` on a line of their own, the result last;
/// - a blank line between games.
///
/// Text is written as UTF-8 (records hold decoded text; see [`crate::decode`]). Every game
/// ends with its result token, `*` where the record has none: PDN tells games apart by their
/// results, so the games of a written file stay apart however files are later joined, and a
/// tag section without movetext stays a game of its own. (A missing result and `*` say the
/// same thing; [`GameRecord::same_content`] takes them as equal.) An empty record (see
/// [`GameRecord::validate`]) is written as nothing.
///
/// The first line of a text is never a JSON object of the record's JSON form (see
/// [`crate::is_json_record`]): a header comment that would make it one is followed by the
/// rest of the game on its line, so a written PDN file is never taken for JSON lines.
pub struct Writer<W> {
    out: W,
    games: u64,
    buf: String,
}

impl<W: io::Write> Writer<W> {
    /// A writer to `out`.
    pub fn new(out: W) -> Self {
        Writer {
            out,
            games: 0,
            buf: String::new(),
        }
    }

    /// Writes one game.
    pub fn write(&mut self, record: &GameRecord) -> io::Result<()> {
        if record.is_empty() {
            return Ok(());
        }
        self.buf.clear();
        if self.games > 0 {
            self.buf.push('\n');
        }
        self.games += 1;
        write_game(record, &mut self.buf);
        self.out.write_all(self.buf.as_bytes())
    }

    /// The underlying writer, for text written between games (a caller's own framing).
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The number of games written so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Gives back the underlying writer.
    pub fn finish(self) -> io::Result<W> {
        Ok(self.out)
    }
}

/// All the games as one PDN text (see [`Writer`]).
pub fn write_pdn<'a>(records: impl IntoIterator<Item = &'a GameRecord>) -> String {
    let mut w = Writer::new(Vec::new());
    for r in records {
        // Writing to a Vec cannot fail.
        let _ = w.write(r);
    }
    String::from_utf8(w.finish().unwrap_or_default()).unwrap_or_default()
}

/// Appends one game to `out`, ending with its result (`*` where the record has none). When
/// `out` is empty, the text is kept from starting with a line of JSON (see [`Writer`]).
pub fn write_game(rec: &GameRecord, out: &mut String) {
    let first = out.is_empty();
    write_record(rec, Some("*"), out);
    if first {
        keep_from_json(out);
    }
}

/// Joins the first line of `text` to the next non-blank one when it would read as a JSON
/// record. Only a header comment can be such a line, and a header comment followed by the
/// rest of its game on the same line reads back the same.
fn keep_from_json(text: &mut String) {
    let Some(end) = text.find('\n') else {
        return;
    };
    if !crate::json::is_json_record(&text[..end]) {
        return;
    }
    let next = text[end..]
        .find(|c| c != '\n')
        .map_or(text.len(), |i| end + i);
    if next < text.len() {
        text.replace_range(end..next, " ");
    }
}

/// Appends one game to `out`; `star` stands for the result when the record has none.
fn write_record(rec: &GameRecord, star: Option<&str>, out: &mut String) {
    let result = rec.result.as_ref().map(|r| r.token.as_str()).or(star);
    for c in &rec.header_comments {
        match c.kind {
            CommentKind::Brace => {
                out.push('{');
                out.push_str(&c.text);
                out.push_str("}\n");
            }
            CommentKind::Line => {
                out.push('%');
                out.push_str(&c.text);
                out.push('\n');
            }
        }
    }
    for t in rec.canonical_tags() {
        out.push('[');
        out.push_str(&t.name);
        out.push_str(" \"");
        out.push_str(&escape(&t.value));
        out.push_str("\"]\n");
    }
    if rec.movetext.is_empty() && result.is_none() {
        return;
    }
    if !rec.tags.is_empty() || !rec.header_comments.is_empty() {
        out.push('\n');
    }
    let mut lines = Lines {
        out,
        col: 0,
        unit: String::new(),
        glue_next: false,
        space_next: false,
    };
    lines.nodes(&rec.movetext);
    if let Some(r) = result {
        lines.piece(r, false);
    }
    lines.finish();
}

/// Movetext output with line wrapping. Pieces glued together form a unit that is never split.
struct Lines<'a> {
    out: &'a mut String,
    col: usize,
    unit: String,
    /// The next piece joins the unit without a space (after `(`).
    glue_next: bool,
    /// The next piece joins the unit after a space (a move after its number).
    space_next: bool,
}

impl Lines<'_> {
    fn piece(&mut self, s: &str, glue: bool) {
        if !(glue || self.glue_next || self.space_next) {
            self.flush();
        }
        if self.space_next && !self.unit.is_empty() {
            self.unit.push(' ');
        }
        self.glue_next = false;
        self.space_next = false;
        self.unit.push_str(s);
    }

    fn flush(&mut self) {
        if self.unit.is_empty() {
            return;
        }
        let first = self
            .unit
            .split('\n')
            .next()
            .map_or(0, |l| l.chars().count());
        if self.col > 0 {
            if self.col + 1 + first > LINE_WIDTH {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.out.push_str(&self.unit);
        match self.unit.rfind('\n') {
            Some(i) => self.col = self.unit[i + 1..].chars().count(),
            None => self.col += first,
        }
        self.unit.clear();
    }

    fn finish(&mut self) {
        self.flush();
        if self.col > 0 || !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        self.col = 0;
    }

    fn nodes(&mut self, nodes: &[Node]) {
        for (i, n) in nodes.iter().enumerate() {
            match n {
                Node::MoveNumber(m) => {
                    // `12...` must be followed by a move; `12. ...` need not (its dots stand
                    // for the move).
                    let dots = match (m.continuation, nodes.get(i + 1)) {
                        (false, _) => ".",
                        (true, Some(Node::Move(_))) => "...",
                        (true, _) => ". ...",
                    };
                    self.piece(&format!("{}{dots}", m.number), false);
                    // Keep a move on the line of its number.
                    self.space_next = matches!(nodes.get(i + 1), Some(Node::Move(_)));
                }
                Node::Move(m) => {
                    self.piece(&m.token, false);
                    for (i, a) in m.annotations.iter().enumerate() {
                        let glue = i == 0 && matches!(a, Annotation::Strength(_));
                        self.annotation(a, glue);
                    }
                }
                Node::Annotation(a) => self.annotation(a, false),
                Node::Comment(c) => match c.kind {
                    CommentKind::Brace => self.piece(&format!("{{{}}}", c.text), false),
                    CommentKind::Line => {
                        self.flush();
                        self.glue_next = false;
                        self.space_next = false;
                        if self.col > 0 {
                            self.out.push('\n');
                        }
                        self.out.push('%');
                        self.out.push_str(&c.text);
                        self.out.push('\n');
                        self.col = 0;
                    }
                },
                Node::Setup(s) => self.piece(&format!("/FEN \"{}\"/", escape(&s.fen)), false),
                Node::Variation(v) => {
                    self.piece("(", false);
                    self.glue_next = true;
                    self.nodes(&v.nodes);
                    self.piece(")", true);
                }
            }
        }
    }

    fn annotation(&mut self, a: &Annotation, glue: bool) {
        match a {
            Annotation::Strength(s) => self.piece(&s.mark, glue),
            Annotation::Nag(n) => self.piece(&format!("${}", n.nag), glue),
        }
    }
}
