//! The owned model of a game: [`GameRecord`], built by [`RecordBuilder`], replayed by
//! [`GameRecord::accept`].

use std::borrow::Cow;
use std::fmt;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::encoding::{decode_as, Tally};
use crate::lexer::{self, Tok};
use crate::serde_forms::{kind_serde, problems_serde, span_serde};
use crate::visitor::{CommentKind, Span, SyntaxProblem, Visitor};

/// One game: tags, movetext, result, and the syntax problems found while reading it.
///
/// Text fields are Unicode: the reader's bytes are decoded by [`RecordBuilder`] (UTF-8 as it
/// is, other text as Windows-1251 or Windows-1252, decided once per game; see
/// [`crate::decode`]). Spans point into the original input.
///
/// `==` compares everything, spans and problems included; [`GameRecord::same_content`]
/// compares what a PDN file says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The whole game.
    #[serde(with = "span_serde", default)]
    pub span: Span,
    /// Comments before the game's first tag (between the previous game and this one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub header_comments: Vec<Comment>,
    /// Tag pairs in file order, unknown ones included; values unescaped.
    #[serde(default)]
    pub tags: Vec<Tag>,
    /// The movetext, without the result.
    #[serde(default)]
    pub movetext: Vec<Node>,
    /// The game termination marker, if the game has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Syntax errors and warnings, in the order found.
    #[serde(
        default,
        with = "problems_serde",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub problems: Vec<SyntaxProblem>,
}

/// A tag pair.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    /// The name, e.g. `Event`.
    pub name: String,
    /// The value, unescaped (`\"` read as `"`).
    pub value: String,
    /// The whole `[Name "value"]`.
    #[serde(with = "span_serde", default)]
    pub span: Span,
}

/// A comment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comment {
    /// The text without its delimiters, exactly as written (spaces and line breaks kept).
    pub text: String,
    /// `{...}` or a line comment.
    #[serde(with = "kind_serde", default = "kind_serde::brace")]
    pub kind: CommentKind,
    /// The comment with its delimiters.
    #[serde(with = "span_serde", default)]
    pub span: Span,
}

/// A piece of movetext.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Node {
    /// `12.` or `12...`.
    MoveNumber(MoveNumber),
    /// A move with the annotations that follow it.
    Move(Move),
    /// A strength mark or NAG that does not follow a move directly (e.g. after a comment).
    Annotation(Annotation),
    /// A comment.
    Comment(Comment),
    /// A setup command `/FEN "..."/`.
    Setup(Setup),
    /// A variation `( ... )`.
    Variation(Variation),
}

/// A move number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveNumber {
    /// The number.
    pub number: u32,
    /// `12...` (the second player's move follows) rather than `12.`.
    #[serde(default)]
    pub continuation: bool,
    /// Where it is.
    #[serde(with = "span_serde", default)]
    pub span: Span,
}

/// A move token and its annotations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// The raw token, e.g. `32-28`, `1- 6`, `c3xc5xe5`, `A3-B4` (squares are read in either
    /// case and kept as written), `[1 4 2]`, `S`, `- -`.
    pub token: String,
    /// Strength marks and NAGs directly after the move, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Annotation>,
    /// The token.
    #[serde(with = "span_serde", default)]
    pub span: Span,
}

impl Move {
    /// The first strength mark, e.g. `!?`.
    pub fn strength(&self) -> Option<&str> {
        self.annotations.iter().find_map(|a| match a {
            Annotation::Strength(s) => Some(s.mark.as_str()),
            Annotation::Nag(_) => None,
        })
    }

    /// The NAGs, in order.
    pub fn nags(&self) -> impl Iterator<Item = u16> + '_ {
        self.annotations.iter().filter_map(|a| match a {
            Annotation::Nag(n) => Some(n.nag),
            Annotation::Strength(_) => None,
        })
    }
}

/// A move annotation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Annotation {
    /// `!`, `?`, `!!`, `!?`, `?!`, `??` (any run of `!` and `?`).
    Strength(Strength),
    /// `$n`.
    Nag(Nag),
}

/// A move strength mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strength {
    /// The marks, without parentheses.
    pub mark: String,
    /// Where they are (with the parentheses of `(!?)`).
    #[serde(with = "span_serde", default)]
    pub span: Span,
}

/// A numeric annotation glyph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nag {
    /// The number after `$`.
    pub nag: u16,
    /// Where it is.
    #[serde(with = "span_serde", default)]
    pub span: Span,
}

/// A setup command in movetext.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The position string, unescaped.
    pub fen: String,
    /// The whole `/FEN "..."/`.
    #[serde(with = "span_serde", default)]
    pub span: Span,
}

/// A variation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variation {
    /// Its movetext.
    pub nodes: Vec<Node>,
    /// The `(`.
    #[serde(with = "span_serde", default)]
    pub open: Span,
    /// The `)` (empty at the end of the game when the variation was not closed).
    #[serde(with = "span_serde", default)]
    pub close: Span,
}

/// The game termination marker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The token, e.g. `1-0`, `2-0`, `*`, `S+W-`.
    pub token: String,
    /// Where it is.
    #[serde(with = "span_serde", default)]
    pub span: Span,
}

/// The seven-tag roster of PDN (and PGN), in its order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The seven-tag roster followed by `rest`: a list of tags that starts as PDN says tags
/// start. `N` must be `7 + M` (checked when the constant is built).
pub const fn roster_then<const M: usize, const N: usize>(
    rest: [&'static str; M],
) -> [&'static str; N] {
    assert!(N == SEVEN_TAG_ROSTER.len() + M, "N must be 7 + M");
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < SEVEN_TAG_ROSTER.len() {
            SEVEN_TAG_ROSTER[i]
        } else {
            rest[i - SEVEN_TAG_ROSTER.len()]
        };
        i += 1;
    }
    out
}

/// Tags the writer puts first, in this order: the seven-tag roster, then the other tags this
/// project and PDN files commonly use. Tags not listed follow in their original order.
pub const TAG_ORDER: [&str; 30] = roster_then([
    "Variant",
    "Rules",
    "GameType",
    "SetUp",
    "FEN",
    "PlyCount",
    "Termination",
    "TimeControl",
    "Time",
    "WhiteTime",
    "BlackTime",
    "WhiteClock",
    "BlackClock",
    "WhiteElo",
    "BlackElo",
    "WhiteRating",
    "BlackRating",
    "WhiteTitle",
    "BlackTitle",
    "WhiteTeam",
    "BlackTeam",
    "Opening",
    "Annotator",
]);

fn tag_rank(name: &str) -> usize {
    TAG_ORDER
        .iter()
        .position(|&t| t == name)
        .unwrap_or(TAG_ORDER.len())
}

impl GameRecord {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// The tags in the writer's order: [`TAG_ORDER`] first, then the others as they came
    /// (a stable sort, so repeated tags keep their order).
    pub fn canonical_tags(&self) -> Vec<&Tag> {
        let mut v: Vec<&Tag> = self.tags.iter().collect();
        v.sort_by_key(|t| tag_rank(&t.name));
        v
    }

    /// The result token, `*` where the game has none (both say the result is not known).
    pub fn result_token(&self) -> &str {
        self.result.as_ref().map_or("*", |r| r.token.as_str())
    }

    /// True when the two records say the same thing in PDN: the same header comments, tags
    /// (compared in canonical order, see [`GameRecord::canonical_tags`]), movetext and
    /// result, a missing result being the same as `*` (see [`GameRecord::result_token`]).
    /// Spans and problems are ignored.
    pub fn same_content(&self, other: &GameRecord) -> bool {
        let comments_eq = |a: &[Comment], b: &[Comment]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x.text == y.text && x.kind == y.kind)
        };
        let (ta, tb) = (self.canonical_tags(), other.canonical_tags());
        comments_eq(&self.header_comments, &other.header_comments)
            && ta.len() == tb.len()
            && ta
                .iter()
                .zip(&tb)
                .all(|(x, y)| x.name == y.name && x.value == y.value)
            && nodes_eq(&self.movetext, &other.movetext)
            && self.result_token() == other.result_token()
    }

    /// True when the record holds nothing to write: no header comment, tag, movetext or
    /// result (problems aside).
    pub fn is_empty(&self) -> bool {
        self.header_comments.is_empty()
            && self.tags.is_empty()
            && self.movetext.is_empty()
            && self.result.is_none()
    }

    /// True when some problem is an error (not just a warning).
    pub fn has_errors(&self) -> bool {
        self.problems
            .iter()
            .any(|p| p.severity == crate::Severity::Error)
    }

    /// Checks that the writer can express this record so that reading its output gives the
    /// same content back (records read from PDN always pass). The rules: a tag name is a PDN
    /// name (an upper-case letter, then letters, digits and `_`) or a name the reader
    /// recovers as written (no brackets, braces, quotes or line breaks, no blank at either end,
    /// not starting with a digit), and no name occurs twice (a repeated name starts a new game);
    /// tag values and setup strings hold no line break and do not
    /// end with `\`; brace comments hold no `}` and no line starting with `[` and an
    /// upper-case letter, line comments no line break (LF or CR); move, strength and result
    /// tokens are single tokens of the grammar (the result may also be `-` when the `Result`
    /// tag is `-`); an annotation node does not directly follow a move (it would belong to
    /// it); a variation is not a lone strength mark (it would read as `(!?)`); a game without
    /// tags does not start its movetext with a comment (it would read as a header comment);
    /// variations nest at most [`crate::MAX_DEPTH`] deep; and the record is not empty, unless
    /// it carries problems (a game whose only token was too long to read), in which case it
    /// is written as nothing.
    pub fn validate(&self) -> Result<(), InvalidRecord> {
        let bad = |what: String| Err(InvalidRecord(what));
        if self.is_empty() && self.problems.is_empty() {
            return bad("the record is empty".into());
        }
        for c in &self.header_comments {
            check_comment(c)?;
        }
        let mut names = std::collections::HashSet::with_capacity(self.tags.len());
        for t in &self.tags {
            if !names.insert(t.name.as_str()) {
                return bad(format!("tag {:?} occurs twice", t.name));
            }
            let mut b = t.name.bytes();
            let pdn_name = b.next().is_some_and(|c| c.is_ascii_uppercase())
                && b.all(|c| c.is_ascii_alphanumeric() || c == b'_');
            if !pdn_name && !lexer::is_odd_tag_name(t.name.as_bytes()) {
                return bad(format!("tag name {:?} is not a PDN tag name", t.name));
            }
            check_string(&t.value, "tag value")?;
        }
        if self.tags.is_empty() && matches!(self.movetext.first(), Some(Node::Comment(_))) {
            return bad("a game without tags cannot start its movetext with a comment".into());
        }
        check_nodes(&self.movetext, 0)?;
        if let Some(r) = &self.result {
            let dash = r.token == "-" && self.tag("Result") == Some("-");
            if !dash && single_token(&r.token) != Some(Tok::Result) {
                return bad(format!("{:?} is not a result token", r.token));
            }
        }
        Ok(())
    }

    /// Replays the record as visitor callbacks, with the stored spans: `begin_game`, header
    /// comments, tags (values escaped again, as the reader passes them), `begin_movetext`,
    /// the movetext, the result, `end_game`. Each problem is replayed just before the first
    /// callback at or after its start offset (the reader reports a few problems, such as
    /// `missing-move`, only after the token they concern). `Break` works as with the reader.
    pub fn accept<V: Visitor>(&self, v: &mut V) -> V::Output {
        let mut r = Replay {
            v,
            stop: false,
            problems: &self.problems,
            next: 0,
        };
        let start = self.span.start;
        r.call(start, |v| v.begin_game(start));
        for c in &self.header_comments {
            r.call(c.span.start, |v| {
                v.comment(c.text.as_bytes(), c.kind, c.span)
            });
        }
        for t in &self.tags {
            let value = escape(&t.value);
            r.call(t.span.start, |v| {
                v.tag(t.name.as_bytes(), value.as_bytes(), t.span)
            });
        }
        // The reader passes comments between or after the tags before `begin_movetext`.
        let lead = self
            .movetext
            .iter()
            .take_while(|n| matches!(n, Node::Comment(_)))
            .count();
        r.nodes(&self.movetext[..lead]);
        let at = match (self.movetext.get(lead), self.tags.last()) {
            (Some(n), _) => node_start(n),
            (None, Some(t)) => t.span.end,
            (None, None) => self.span.start,
        };
        r.call(at, |v| v.begin_movetext());
        r.nodes(&self.movetext[lead..]);
        if let Some(res) = &self.result {
            r.call(res.span.start, |v| v.result(res.token.as_bytes(), res.span));
        }
        r.flush(u64::MAX);
        r.v.end_game(self.span)
    }
}

/// Where a node starts in the input.
fn node_start(n: &Node) -> u64 {
    match n {
        Node::MoveNumber(m) => m.span.start,
        Node::Move(m) => m.span.start,
        Node::Annotation(Annotation::Strength(s)) => s.span.start,
        Node::Annotation(Annotation::Nag(a)) => a.span.start,
        Node::Comment(c) => c.span.start,
        Node::Setup(s) => s.span.start,
        Node::Variation(v) => v.open.start,
    }
}

/// Why a record cannot be written as PDN (see [`GameRecord::validate`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidRecord(pub String);

impl fmt::Display for InvalidRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidRecord {}

/// Lexes `s` alone: its token kind when it is exactly one token.
fn single_token(s: &str) -> Option<Tok> {
    if s.is_empty() || s.len() > 4096 {
        return None;
    }
    let mut v = Vec::with_capacity(s.len() + 1);
    v.extend_from_slice(s.as_bytes());
    v.push(b'\n');
    match lexer::lex(&v, true) {
        Ok(l) if l.len == s.len() => Some(l.tok),
        _ => None,
    }
}

fn check_string(s: &str, what: &str) -> Result<(), InvalidRecord> {
    if s.contains('\n') || s.ends_with('\\') {
        return Err(InvalidRecord(format!(
            "{what} {s:?} holds a line break or ends with `\\`"
        )));
    }
    Ok(())
}

fn check_comment(c: &Comment) -> Result<(), InvalidRecord> {
    let ok = match c.kind {
        CommentKind::Brace => {
            !c.text.contains('}')
                && !c
                    .text
                    .as_bytes()
                    .windows(3)
                    .any(|w| w[0] == b'\n' && w[1] == b'[' && w[2].is_ascii_uppercase())
        }
        CommentKind::Line => !c.text.contains(['\n', '\r']),
    };
    if ok {
        Ok(())
    } else {
        Err(InvalidRecord(format!(
            "comment {:?} cannot be written as a {:?} comment",
            c.text, c.kind
        )))
    }
}

fn check_annotation(a: &Annotation) -> Result<(), InvalidRecord> {
    if let Annotation::Strength(s) = a {
        if s.mark.is_empty() || !s.mark.bytes().all(|b| b == b'!' || b == b'?') {
            return Err(InvalidRecord(format!(
                "{:?} is not a move strength mark",
                s.mark
            )));
        }
    }
    Ok(())
}

fn check_nodes(nodes: &[Node], depth: u32) -> Result<(), InvalidRecord> {
    let mut after_move = false;
    for n in nodes {
        match n {
            // `0.` reads back as 0 (with an error), like any other number.
            Node::MoveNumber(_) => {}
            Node::Move(m) => {
                if !matches!(single_token(&m.token), Some(Tok::Move | Tok::UnknownMove)) {
                    return Err(InvalidRecord(format!("{:?} is not a move token", m.token)));
                }
                for a in &m.annotations {
                    check_annotation(a)?;
                }
            }
            Node::Annotation(a) => {
                if after_move {
                    return Err(InvalidRecord(
                        "an annotation node directly after a move belongs to the move".into(),
                    ));
                }
                check_annotation(a)?;
            }
            Node::Comment(c) => check_comment(c)?,
            Node::Setup(s) => check_string(&s.fen, "setup string")?,
            Node::Variation(v) => {
                if let [Node::Annotation(Annotation::Strength(_))] = v.nodes.as_slice() {
                    return Err(InvalidRecord(
                        "a variation holding only a strength mark reads as `(!?)`".into(),
                    ));
                }
                if depth >= crate::MAX_DEPTH {
                    return Err(InvalidRecord(format!(
                        "variations nested more than {} deep",
                        crate::MAX_DEPTH
                    )));
                }
                check_nodes(&v.nodes, depth + 1)?;
            }
        }
        after_move = matches!(n, Node::Move(_));
    }
    Ok(())
}

fn nodes_eq(a: &[Node], b: &[Node]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| node_eq(x, y))
}

fn annotation_eq(a: &Annotation, b: &Annotation) -> bool {
    match (a, b) {
        (Annotation::Strength(x), Annotation::Strength(y)) => x.mark == y.mark,
        (Annotation::Nag(x), Annotation::Nag(y)) => x.nag == y.nag,
        _ => false,
    }
}

fn node_eq(a: &Node, b: &Node) -> bool {
    match (a, b) {
        (Node::MoveNumber(x), Node::MoveNumber(y)) => {
            x.number == y.number && x.continuation == y.continuation
        }
        (Node::Move(x), Node::Move(y)) => {
            x.token == y.token
                && x.annotations.len() == y.annotations.len()
                && x.annotations
                    .iter()
                    .zip(&y.annotations)
                    .all(|(p, q)| annotation_eq(p, q))
        }
        (Node::Annotation(x), Node::Annotation(y)) => annotation_eq(x, y),
        (Node::Comment(x), Node::Comment(y)) => x.text == y.text && x.kind == y.kind,
        (Node::Setup(x), Node::Setup(y)) => x.fen == y.fen,
        (Node::Variation(x), Node::Variation(y)) => nodes_eq(&x.nodes, &y.nodes),
        _ => false,
    }
}

/// `"` written as `\"`.
pub(crate) fn escape(s: &str) -> Cow<'_, str> {
    if s.contains('"') {
        Cow::Owned(s.replace('"', "\\\""))
    } else {
        Cow::Borrowed(s)
    }
}

struct Replay<'a, 'v, V> {
    v: &'v mut V,
    stop: bool,
    problems: &'a [SyntaxProblem],
    next: usize,
}

impl<V: Visitor> Replay<'_, '_, V> {
    /// Replays the problems that start at or before `offset`.
    fn flush(&mut self, offset: u64) {
        while let Some(p) = self.problems.get(self.next) {
            if p.span.start > offset {
                break;
            }
            self.next += 1;
            if !self.stop {
                self.v.problem(p.clone());
            }
        }
    }

    fn call(&mut self, offset: u64, f: impl FnOnce(&mut V) -> ControlFlow<()>) {
        self.flush(offset);
        if !self.stop && f(self.v).is_break() {
            self.stop = true;
        }
    }

    fn nodes(&mut self, nodes: &[Node]) {
        for n in nodes {
            if self.stop {
                return;
            }
            match n {
                Node::MoveNumber(m) => self.call(m.span.start, |v| {
                    v.move_number(m.number, m.continuation, m.span)
                }),
                Node::Move(m) => {
                    self.call(m.span.start, |v| v.mov(m.token.as_bytes(), m.span));
                    for a in &m.annotations {
                        self.annotation(a);
                    }
                }
                Node::Annotation(a) => self.annotation(a),
                Node::Comment(c) => self.call(c.span.start, |v| {
                    v.comment(c.text.as_bytes(), c.kind, c.span)
                }),
                Node::Setup(s) => self.call(s.span.start, |v| v.setup(s.fen.as_bytes(), s.span)),
                Node::Variation(var) => {
                    self.flush(var.open.start);
                    if self.v.begin_variation(var.open).is_break() {
                        continue;
                    }
                    self.nodes(&var.nodes);
                    self.call(var.close.start, |v| v.end_variation(var.close));
                }
            }
        }
    }

    fn annotation(&mut self, a: &Annotation) {
        match a {
            Annotation::Strength(s) => {
                self.call(s.span.start, |v| v.strength(s.mark.as_bytes(), s.span))
            }
            Annotation::Nag(n) => self.call(n.span.start, |v| v.nag(n.nag, n.span)),
        }
    }
}

/// A [`Visitor`] that builds a [`GameRecord`] for each game.
///
/// A comment goes to [`GameRecord::header_comments`] when nothing but comments came before
/// it in the game; otherwise to the movetext (comments between tags included: they are
/// written after the tags).
#[derive(Debug, Default)]
pub struct RecordBuilder {
    rec: GameRecord,
    cur: Vec<Node>,
    stack: Vec<(Span, Vec<Node>)>,
    /// Text fields that are not UTF-8: where each is, and its bytes; decoded at the end of the
    /// game, once the encoding has been guessed from all of them.
    pending: Vec<(Field, Vec<u8>)>,
    tally: Tally,
}

/// Where a text field of the record being built is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Field {
    Header(usize),
    TagName(usize),
    TagValue(usize),
    /// A comment or setup node: its index in the movetext, then in each nested variation.
    Node(Vec<usize>),
}

impl RecordBuilder {
    /// A builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// `bytes` as a string; when they are not UTF-8, an empty string for now, filled in by
    /// [`RecordBuilder::decode_pending`].
    fn text(&mut self, bytes: &[u8], at: impl FnOnce(&Self) -> Field) -> String {
        match std::str::from_utf8(bytes) {
            Ok(s) => s.to_owned(),
            Err(_) => {
                self.tally.add(bytes);
                let field = at(self);
                self.pending.push((field, bytes.to_vec()));
                String::new()
            }
        }
    }

    /// Where the next node pushed to the current movetext will be.
    fn next_node(&self) -> Field {
        let mut path: Vec<usize> = self.stack.iter().map(|(_, nodes)| nodes.len()).collect();
        path.push(self.cur.len());
        Field::Node(path)
    }

    fn decode_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let enc = self.tally.encoding();
        for (field, bytes) in std::mem::take(&mut self.pending) {
            let text = decode_as(&bytes, enc).into_owned();
            let slot = match field {
                Field::Header(i) => self.rec.header_comments.get_mut(i).map(|c| &mut c.text),
                Field::TagName(i) => self.rec.tags.get_mut(i).map(|t| &mut t.name),
                Field::TagValue(i) => self.rec.tags.get_mut(i).map(|t| &mut t.value),
                Field::Node(path) => node_text(&mut self.rec.movetext, &path),
            };
            if let Some(slot) = slot {
                *slot = text;
            }
        }
    }

    fn push_annotation(&mut self, a: Annotation) {
        match self.cur.last_mut() {
            Some(Node::Move(m)) => m.annotations.push(a),
            _ => self.cur.push(Node::Annotation(a)),
        }
    }
}

/// The text of the comment or setup node at `path`.
fn node_text<'a>(nodes: &'a mut [Node], path: &[usize]) -> Option<&'a mut String> {
    let (&i, rest) = path.split_first()?;
    match (nodes.get_mut(i)?, rest.is_empty()) {
        (Node::Comment(c), true) => Some(&mut c.text),
        (Node::Setup(s), true) => Some(&mut s.fen),
        (Node::Variation(v), false) => node_text(&mut v.nodes, rest),
        _ => None,
    }
}

/// ASCII bytes (move tokens, marks, results) as a string; other bytes cannot occur there.
fn ascii(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

impl Visitor for RecordBuilder {
    type Output = GameRecord;

    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        self.rec = GameRecord {
            span: Span::new(offset, offset),
            ..GameRecord::default()
        };
        self.cur.clear();
        self.stack.clear();
        self.pending.clear();
        self.tally = Tally::default();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        let i = self.rec.tags.len();
        let name = self.text(name, |_| Field::TagName(i));
        let value = self.text(&crate::unescape(value), |_| Field::TagValue(i));
        self.rec.tags.push(Tag { name, value, span });
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn move_number(&mut self, number: u32, continuation: bool, span: Span) -> ControlFlow<()> {
        self.cur.push(Node::MoveNumber(MoveNumber {
            number,
            continuation,
            span,
        }));
        ControlFlow::Continue(())
    }

    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.cur.push(Node::Move(Move {
            token: ascii(token),
            annotations: Vec::new(),
            span,
        }));
        ControlFlow::Continue(())
    }

    fn strength(&mut self, mark: &[u8], span: Span) -> ControlFlow<()> {
        self.push_annotation(Annotation::Strength(Strength {
            mark: ascii(mark),
            span,
        }));
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: u16, span: Span) -> ControlFlow<()> {
        self.push_annotation(Annotation::Nag(Nag { nag, span }));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) -> ControlFlow<()> {
        let header = self.rec.tags.is_empty() && self.cur.is_empty() && self.stack.is_empty();
        if header {
            let i = self.rec.header_comments.len();
            let text = self.text(text, |_| Field::Header(i));
            self.rec.header_comments.push(Comment { text, kind, span });
        } else {
            let text = self.text(text, Self::next_node);
            self.cur.push(Node::Comment(Comment { text, kind, span }));
        }
        ControlFlow::Continue(())
    }

    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        let fen = self.text(fen, Self::next_node);
        self.cur.push(Node::Setup(Setup { fen, span }));
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        let parent = std::mem::take(&mut self.cur);
        self.stack.push((span, parent));
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        if let Some((open, parent)) = self.stack.pop() {
            let mut nodes = std::mem::replace(&mut self.cur, parent);
            // A variation of one strength mark (left so by an unclosed `(!?` or a skipped
            // variation) would be written `(!?)`, which reads as a mark: keep the mark as a
            // comment instead.
            if let [Node::Annotation(Annotation::Strength(s))] = nodes.as_mut_slice() {
                let text = std::mem::take(&mut s.mark);
                let span = s.span;
                nodes[0] = Node::Comment(Comment {
                    text,
                    kind: CommentKind::Brace,
                    span,
                });
            }
            self.cur.push(Node::Variation(Variation {
                nodes,
                open,
                close: span,
            }));
        }
        ControlFlow::Continue(())
    }

    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.rec.result = Some(GameResult {
            token: ascii(token),
            span,
        });
        ControlFlow::Continue(())
    }

    fn problem(&mut self, problem: SyntaxProblem) {
        self.rec.problems.push(problem);
    }

    fn end_game(&mut self, span: Span) -> GameRecord {
        while !self.stack.is_empty() {
            let _ = self.end_variation(Span::new(span.end, span.end));
        }
        self.rec.movetext = std::mem::take(&mut self.cur);
        self.decode_pending();
        self.rec.span = span;
        std::mem::take(&mut self.rec)
    }
}
