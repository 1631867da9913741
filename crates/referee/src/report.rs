//! What the referee reports: diagnostics, per-game reports and the settings of a run.

use std::borrow::Cow;
use std::fmt;

use crate::details::PlyDetails;
use game::{Board, Code, GameInfo, Options, Outcome, PlyFacts, SquarePath};
use pdn::visitor::{Severity, Span, SyntaxProblem};
use pdn::SyntaxKind;

/// What kind of problem a diagnostic reports: a rules code from the replay or a syntax kind
/// from the reader. Its string form (`illegal-move`, `missing-result`) is the stable code
/// shown to users and written in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiagnosticCode {
    /// Found by the rules.
    Rules(Code),
    /// Found by the PDN reader.
    Syntax(SyntaxKind),
}

impl DiagnosticCode {
    /// The stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::Rules(c) => c.as_str(),
            DiagnosticCode::Syntax(k) => k.as_str(),
        }
    }

    /// The rules code, for a diagnostic found by the rules.
    pub fn rules(self) -> Option<Code> {
        match self {
            DiagnosticCode::Rules(c) => Some(c),
            DiagnosticCode::Syntax(_) => None,
        }
    }
}

impl From<Code> for DiagnosticCode {
    fn from(c: Code) -> Self {
        DiagnosticCode::Rules(c)
    }
}

impl From<SyntaxKind> for DiagnosticCode {
    fn from(k: SyntaxKind) -> Self {
        DiagnosticCode::Syntax(k)
    }
}

impl fmt::Display for DiagnosticCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for DiagnosticCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Code> for DiagnosticCode {
    fn eq(&self, other: &Code) -> bool {
        *self == DiagnosticCode::Rules(*other)
    }
}

/// One problem found in a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of problem: a rules code such as `illegal-move` or a syntax kind from the
    /// reader.
    pub code: DiagnosticCode,
    /// Error or warning.
    pub severity: Severity,
    /// The bytes the problem is about (absolute offsets in the input).
    pub span: Span,
    /// A sentence for the user.
    pub message: String,
    /// 1-based ply of the move in its line, where the problem concerns a move.
    pub ply: Option<u32>,
    /// The move number as the record counts it, where the problem concerns a move.
    pub move_number: Option<u32>,
    /// What a diagram of the problem needs (only with [`Settings::snapshots`], and only for
    /// problems about a position: a ply that could not be played, or a game over by rule
    /// that the record does not end as such).
    pub snapshot: Option<Box<Snapshot>>,
}

/// The position a diagnostic is about, with the move as written and the move the rules
/// suggest instead, ready to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The position before the faulty ply (for a result problem: the position at the end of
    /// the main line).
    pub board: Board,
    /// The squares the ply names, as far as they could be read (see [`game::Problem`]).
    pub played: Vec<SquarePath>,
    /// What the rules accept instead, where the message suggests it (e.g. a maximal capture
    /// chain).
    pub suggested: Vec<SquarePath>,
    /// `board` as a position string (what `convert --positions` writes for a position).
    pub position: String,
    /// The faulty ply is in a variation: `board` is a position of that variation, not of
    /// the main line.
    pub in_variation: bool,
}

impl Diagnostic {
    /// A diagnostic for a syntax problem reported by the reader.
    pub fn from_syntax(problem: SyntaxProblem) -> Self {
        Diagnostic {
            code: problem.kind.into(),
            severity: problem.severity,
            span: problem.span,
            message: problem.message,
            ply: None,
            move_number: None,
            snapshot: None,
        }
    }
}

/// Which position of the main line a [`GameReport`] keeps as a [`BoardView`] (see
/// [`Settings::board_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardAt {
    /// The position after this many plies (0: the start position).
    Ply(u32),
    /// Where the replay of the main line ends: after its last ply, or, if a ply of it could
    /// not be played, the position before that ply.
    End,
}

/// One position of the main line, ready to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// Plies of the main line played to reach it.
    pub ply: u32,
    /// The position.
    pub board: Board,
    /// The squares of the ply that led to it (empty at the start).
    pub last_move: Vec<SquarePath>,
}

/// Settings that hold for a whole run.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// Forces the game, whatever the `Variant` and `GameType` tags say.
    pub game: Option<&'static GameInfo>,
    /// The game of records whose `Variant` and `GameType` tags name none (without it, such a
    /// record's game is found from its moves).
    pub default_game: Option<&'static GameInfo>,
    /// Forces ruleset options (a comma-separated list, checked against each game's
    /// options), whatever the `Rules` tag says.
    pub rules: Option<String>,
    /// Collect [`PlyFacts`] for the main line of every game (for statistics).
    pub collect_facts: bool,
    /// Write every resolved move again in this notation (for `convert`); the results are in
    /// [`GameReport::rewrites`].
    pub rewrite: Option<Rewrite>,
    /// Keep a [`Snapshot`] of the position with every diagnostic about one (for diagrams;
    /// costs a board description per such diagnostic, nothing on clean plies).
    pub snapshots: bool,
    /// Keep one position of every game's main line in [`GameReport::position`] (for
    /// `arbiter show`).
    pub board_at: Option<BoardAt>,
    /// Describe every ply of the main line in [`GameReport::details`] (move, squares,
    /// position after it), for tables and exports.
    pub details: bool,
    /// With [`Settings::details`], also write the position string after every ply
    /// ([`crate::PlyDetail::position`]; empty otherwise). Every ply gets its position key
    /// either way.
    pub positions: bool,
    /// Keep the game's tags in [`GameReport::tags`] (decoded), for statistics and exports.
    pub keep_tags: bool,
    /// Keep the board of the start position and of the position after every ply of the main
    /// line in [`GameReport::boards`], and the start position string in
    /// [`GameReport::start_position`] (for the game viewer; a board description per ply).
    pub boards: bool,
    /// With [`Settings::collect_facts`]: follow this many first plies of the main line by
    /// position key ([`GameReport::line`]), for the report's opening tree. 0: none.
    pub opening_plies: u32,
}

/// The first plies of a game's main line as position keys ([`game::Game::position_key`]) and
/// moves in the game's notation: what an opening tree counts. The line stops at the first
/// refused ply or setup command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpeningLine {
    /// The key of the start position (`None`: it could not be set up, or no line was asked).
    pub start: Option<u64>,
    /// For each ply in order: the key of the position after it, and where its move ends in
    /// [`OpeningLine::text`].
    pub plies: Vec<(u64, u32)>,
    /// The moves, back to back (split by the ends in `plies`).
    pub text: String,
}

impl OpeningLine {
    /// Plies in the line.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// No ply.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// Empties the line, keeping its room.
    pub fn clear(&mut self) {
        self.start = None;
        self.plies.clear();
        self.text.clear();
    }

    /// The move of ply `i` (0-based) as written in the line.
    pub fn move_text(&self, i: usize) -> &str {
        let start = match i {
            0 => 0,
            _ => self.plies.get(i - 1).map_or(0, |p| p.1 as usize),
        };
        let end = self.plies.get(i).map_or(start, |p| p.1 as usize);
        self.text.get(start..end).unwrap_or_default()
    }
}

/// How `convert` rewrites moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rewrite {
    /// Squares as numbers (`Some(true)`), as algebraic names (`Some(false)`), or as the game
    /// writes them by default (`None`).
    pub numeric: Option<bool>,
    /// Captures with every landing square (`Some(true)`), short (`Some(false)`), or the
    /// game's default (`None`).
    pub full_captures: Option<bool>,
}

/// What the referee found in one game.
#[derive(Debug, Clone, Default)]
pub struct GameReport {
    /// Byte span of the whole game.
    pub span: Span,
    /// The game, if it was recognised (unknown games are only checked for syntax).
    pub game: Option<&'static GameInfo>,
    /// The ruleset options the game was replayed under.
    pub options: Options,
    /// Every diagnostic, in file order.
    pub diagnostics: Vec<Diagnostic>,
    /// Plies of the main line that were replayed successfully.
    pub plies: u32,
    /// Plies in the main line as written (replayed or not).
    pub plies_written: u32,
    /// The result as recorded (result token, else `Result` tag), if the game knows it.
    pub recorded: Option<Outcome>,
    /// The result the rules give at the end of the main line, if the replay got there and the
    /// game is over by rule.
    pub terminal: Option<Outcome>,
    /// The seats in play, in turn order from the first to move (see [`game::Seat`]).
    pub seats: Vec<u8>,
    /// Per-ply facts of the main line (only with [`Settings::collect_facts`]).
    pub facts: Vec<PlyFacts>,
    /// The opening: the first round of the main line (one ply per seat in play) in the
    /// game's notation, space-separated (only with [`Settings::collect_facts`]).
    pub opening: String,
    /// With [`Settings::collect_facts`] and [`Settings::opening_plies`]: the keys and moves of
    /// the first plies of the main line, for the opening tree.
    pub line: OpeningLine,
    /// With [`Settings::rewrite`]: for every ply that was resolved (main line and variations),
    /// the index of its first move token in the game (counting every move token in file
    /// order from 0), how many tokens it spans, and the move written in the new notation.
    pub rewrites: Vec<(u32, u32, String)>,
    /// With [`Settings::board_at`]: that position, if the replay reached it.
    pub position: Option<BoardView>,
    /// With [`Settings::details`]: every replayed ply of the main line, described.
    pub details: PlyDetails,
    /// With [`Settings::details`]: the key of the main line's start position
    /// ([`game::Game::position_key`]), when it is known.
    pub start_key: Option<u64>,
    /// With [`Settings::keep_tags`]: the tags, in order, names and values decoded.
    pub tags: TagList,
    /// With [`Settings::boards`]: the start position (ply 0), then the position after every
    /// replayed ply of the main line, each with the squares of the ply that led to it.
    pub boards: Vec<BoardView>,
    /// With [`Settings::boards`], or [`Settings::details`] and [`Settings::positions`]: the
    /// start position as a position string (empty when the game could not be set up).
    pub start_position: String,
}

impl GameReport {
    /// The value of the last tag with this name (case-insensitive), with
    /// [`Settings::keep_tags`].
    pub fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        self.tags.get(name)
    }
}

/// A game's tags in file order, kept as read (two allocations per game however many tags it
/// has) and decoded when asked for: a report reads only a few of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TagList {
    bytes: Vec<u8>,
    /// Per tag: where its name starts, where its value starts, where it ends.
    entries: Vec<(usize, usize, usize)>,
}

impl TagList {
    /// A list over `bytes`, where each entry gives where a tag's name starts, where its value
    /// starts and where it ends (the layout [`TagList::push_raw`] builds).
    pub(crate) fn from_parts(bytes: Vec<u8>, entries: Vec<(usize, usize, usize)>) -> TagList {
        TagList { bytes, entries }
    }

    /// Appends a tag: its name and its value as written between the quotes (escapes and
    /// encoding are dealt with when it is read).
    pub fn push_raw(&mut self, name: &[u8], value: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(name);
        let mid = self.bytes.len();
        self.bytes.extend_from_slice(value);
        self.entries.push((start, mid, self.bytes.len()));
    }

    /// The value of the last tag with this name (case-insensitive): unescaped, decoded and
    /// trimmed.
    pub fn get(&self, name: &str) -> Option<Cow<'_, str>> {
        self.entries
            .iter()
            .rev()
            .find(|&&(s, m, _)| self.bytes[s..m].eq_ignore_ascii_case(name.as_bytes()))
            .map(|&(_, m, e)| decode_value(&self.bytes[m..e]))
    }

    /// The tags in file order, as `(name, value)`, decoded.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Cow<'_, str>, Cow<'_, str>)> + '_ {
        self.entries.iter().map(|&(s, m, e)| {
            (
                pdn::decode(&self.bytes[s..m]),
                decode_value(&self.bytes[m..e]),
            )
        })
    }

    /// Number of tags.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there is no tag.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A tag value as written: unescaped, decoded (UTF-8, else Latin-1) and trimmed, borrowed
/// when nothing had to change.
fn decode_value(raw: &[u8]) -> Cow<'_, str> {
    match pdn::unescape(raw) {
        Cow::Borrowed(b) => match pdn::decode(b) {
            Cow::Borrowed(text) => Cow::Borrowed(text.trim()),
            Cow::Owned(text) => Cow::Owned(text.trim().to_string()),
        },
        Cow::Owned(b) => Cow::Owned(pdn::decode(&b).trim().to_string()),
    }
}

impl GameReport {
    /// True when no diagnostic is an error.
    pub fn is_clean(&self) -> bool {
        !self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::TagList;

    #[test]
    fn tag_list_keeps_order_and_decodes_the_last_value() {
        let mut tags = TagList::default();
        assert!(tags.is_empty() && tags.get("Event").is_none());
        tags.push_raw(b"Event", b"Open");
        tags.push_raw(b"White", b" Petrosyan, Ani ");
        tags.push_raw(b"event", b"Open \\\"B\\\"");
        tags.push_raw(b"Site", b"Z\xfcrich");
        assert_eq!(tags.len(), 4);
        assert_eq!(tags.get("EVENT").as_deref(), Some("Open \"B\""));
        assert_eq!(tags.get("white").as_deref(), Some("Petrosyan, Ani"));
        assert_eq!(tags.get("Site").as_deref(), Some("Z\u{fc}rich"));
        let names: Vec<String> = tags.iter().map(|(n, _)| n.into_owned()).collect();
        assert_eq!(names, ["Event", "White", "event", "Site"]);
    }
}
