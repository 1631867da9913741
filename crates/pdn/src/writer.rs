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
/// without a result is written with the result `*` when another game follows that would
/// otherwise be read as part of it: when the game has no movetext besides comments, or when
/// the next game has no tags or starts with comments (a game ends without a result only where
/// tags follow its movetext). A record of header comments alone that follows another game
/// gets `*` too: comments after a game's result, at the end of the input, belong to that
/// game. An empty record (see [`GameRecord::validate`]) is written as nothing.
///
/// So a game without a result is held until the next one (or [`Writer::finish`]) tells how
/// to end it: call `finish` after the last game.
pub struct Writer<W> {
    out: W,
    games: u64,
    /// The last game, when it has no result: its text as it is and with `*`.
    held: Option<Held>,
    buf: String,
}

struct Held {
    plain: String,
    starred: String,
    /// The game has movetext besides comments.
    moves: bool,
}

impl<W: io::Write> Writer<W> {
    /// A writer to `out`.
    pub fn new(out: W) -> Self {
        Writer {
            out,
            games: 0,
            held: None,
            buf: String::new(),
        }
    }

    /// Writes one game (a game without a result is written when the next one comes or at
    /// [`Writer::finish`]).
    pub fn write(&mut self, record: &GameRecord) -> io::Result<()> {
        if record.is_empty() {
            return Ok(());
        }
        if let Some(held) = self.held.take() {
            let apart = held.moves && !record.tags.is_empty() && record.header_comments.is_empty();
            let text = if apart { held.plain } else { held.starred };
            self.out.write_all(text.as_bytes())?;
        }
        let comments_only =
            record.tags.is_empty() && record.movetext.is_empty() && record.result.is_none();
        let first = self.games == 0;
        self.games += 1;
        let render = |star: bool, buf: &mut String| {
            buf.clear();
            if !first {
                buf.push('\n');
            }
            write_record(record, star.then_some("*"), buf);
        };
        if record.result.is_some() || (comments_only && !first) {
            render(comments_only, &mut self.buf);
            return self.out.write_all(self.buf.as_bytes());
        }
        let (mut plain, mut starred) = (String::new(), String::new());
        render(false, &mut plain);
        render(true, &mut starred);
        let moves = record
            .movetext
            .iter()
            .any(|n| !matches!(n, Node::Comment(_)));
        self.held = Some(Held {
            plain,
            starred,
            moves,
        });
        Ok(())
    }

    /// Writes the last game if it is still held, and gives back the underlying writer.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(held) = self.held.take() {
            self.out.write_all(held.plain.as_bytes())?;
        }
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

/// Appends one game to `out`. Alone, a game without a result may read back as part of the
/// next one: use a [`Writer`] for several games.
pub fn write_game(rec: &GameRecord, out: &mut String) {
    write_record(rec, None, out);
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
