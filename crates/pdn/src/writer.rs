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
/// Text is written as UTF-8 (records hold decoded text; see [`crate::decode`]). A game
/// without a result gets the result `*` when another game follows that would otherwise be
/// read as part of it: when the game has no movetext besides comments, or when the next
/// game has no tags or starts with comments (a game ends without a result only where tags
/// follow its movetext). A record of header comments alone that follows another game gets
/// `*` too: comments after a game's result, at the end of the input, belong to that game. An
/// empty record (see [`GameRecord::validate`]) is written as nothing.
pub struct Writer<W> {
    out: W,
    games: u64,
    /// The last game written has no result.
    open: bool,
    /// The last game written has movetext besides comments.
    moves: bool,
    buf: String,
}

impl<W: io::Write> Writer<W> {
    /// A writer to `out`.
    pub fn new(out: W) -> Self {
        Writer {
            out,
            games: 0,
            open: false,
            moves: false,
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
            let apart = self.moves && !record.tags.is_empty() && record.header_comments.is_empty();
            if self.open && !apart {
                self.buf.push_str("*\n");
            }
            self.buf.push('\n');
        }
        write_game(record, &mut self.buf);
        let comments_only =
            record.tags.is_empty() && record.movetext.is_empty() && record.result.is_none();
        if self.games > 0 && comments_only {
            self.buf.push_str("*\n");
        }
        self.games += 1;
        self.open = record.result.is_none() && !(self.games > 1 && comments_only);
        self.moves = record
            .movetext
            .iter()
            .any(|n| !matches!(n, Node::Comment(_)));
        self.out.write_all(self.buf.as_bytes())
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// All the games as one PDN text (see [`Writer`]).
pub fn write_pdn<'a>(records: impl IntoIterator<Item = &'a GameRecord>) -> String {
    let mut w = Writer::new(Vec::new());
    for r in records {
        // Writing to a Vec cannot fail.
        let _ = w.write(r);
    }
    String::from_utf8(w.into_inner()).unwrap_or_default()
}

/// Appends one game to `out`.
pub fn write_game(rec: &GameRecord, out: &mut String) {
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
    if rec.movetext.is_empty() && rec.result.is_none() {
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
    if let Some(r) = &rec.result {
        lines.piece(&r.token, false);
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
