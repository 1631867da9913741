//! Replays recorded games against the rules and explains what is wrong.
//!
//! [`Referee`] is a [`pdn::Visitor`]: hand it to [`pdn::Reader::read_game`] and it returns a
//! [`GameReport`] per game, with every diagnostic (syntax problems from the reader and rules
//! problems from the replay) and, on request, the per-ply facts that statistics are built from.
//!
//! The replay itself (the private `replay` module) is generic over [`game::Game`]; the referee
//! only decides which game a record is and forwards the visitor callbacks.
#![deny(missing_docs)]

mod kind;
mod replay;

use std::ops::ControlFlow;

pub use game::{Board, Code, Outcome, PlyFacts, Seat, SquarePath};
pub use kind::{GameKind, RulesOptions};
pub use pdn::visitor::{Severity, Span};

use pdn::visitor::{CommentKind, SyntaxProblem, Visitor};
use replay::{Replay, Replayer, TagView};

/// One problem found in a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code: a rules code such as `illegal-move` or a syntax kind from the reader.
    pub code: &'static str,
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
}

impl Diagnostic {
    /// A diagnostic for a syntax problem reported by the reader.
    pub fn from_syntax(problem: SyntaxProblem) -> Self {
        Diagnostic {
            code: problem.kind.as_str(),
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
    /// Forces the game, whatever the `Variant` tag says.
    pub game: Option<GameKind>,
    /// Forces ruleset options, whatever the `Rules` tag says.
    pub rules: Option<RulesOptions>,
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
    pub kind: Option<GameKind>,
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
    /// With [`Settings::rewrite`]: for every ply that was resolved (main line and variations),
    /// the index of its first move token in the game (counting every move token in file
    /// order from 0), how many tokens it spans, and the move written in the new notation.
    pub rewrites: Vec<(u32, u32, String)>,
    /// With [`Settings::board_at`]: that position, if the replay reached it.
    pub position: Option<BoardView>,
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

/// The visitor that checks games. Reuse one referee for a whole stream: its buffers are kept.
pub struct Referee {
    settings: Settings,
    tags: TagStore,
    replayers: Replayers,
    active: Option<GameKind>,
    report: GameReport,
    plies_written_main: u32,
    depth: u32,
}

impl Referee {
    /// A referee with the given settings.
    pub fn new(settings: Settings) -> Self {
        Referee {
            settings,
            tags: TagStore::default(),
            replayers: Replayers {
                tama: Replayer::new(tama::Tama::default()),
                odnocvetnie: Replayer::new(odnocvetnie::Odnocvetnie::default()),
                thaayam: Replayer::new(thaayam::Thaayam::default()),
            },
            active: None,
            report: GameReport::default(),
            plies_written_main: 0,
            depth: 0,
        }
    }

    fn select_game(&mut self) {
        let kind = self
            .settings
            .game
            .or_else(|| self.tags.get(b"Variant").and_then(GameKind::from_variant));
        let Some(kind) = kind else {
            self.active = None;
            return;
        };
        let rules = match &self.settings.rules {
            Some(r) => Ok(r.clone()),
            None => match self.tags.get(b"Rules") {
                Some(text) => RulesOptions::parse(&text),
                None => Ok(RulesOptions::default()),
            },
        };
        let rules = match rules {
            Ok(r) => r,
            Err(message) => {
                let span = self.tags.span(b"Rules").unwrap_or_default();
                self.report.diagnostics.push(Diagnostic {
                    code: Code::BadTag.as_str(),
                    severity: Severity::Warning,
                    span,
                    message,
                    ply: None,
                    move_number: None,
                    snapshot: None,
                });
                RulesOptions::default()
            }
        };
        match kind {
            GameKind::Tama => self
                .replayers
                .tama
                .set_game(tama::Tama { ludii: rules.ludii }),
            GameKind::Odnocvetnie => {
                self.replayers
                    .odnocvetnie
                    .set_game(odnocvetnie::Odnocvetnie {
                        lock_any_piece: rules.lock_any_piece,
                        ..Default::default()
                    })
            }
            GameKind::Thaayam => self.replayers.thaayam.set_game(thaayam::Thaayam::default()),
        }
        self.active = Some(kind);
        self.report.kind = Some(kind);
        let tags = &self.tags;
        let view = TagView(tags);
        let diagnostics = &mut self.report.diagnostics;
        let mode = replay::Mode {
            collect: self.settings.collect_facts,
            rewrite: self.settings.rewrite,
            snapshots: self.settings.snapshots,
            board_at: self.settings.board_at,
        };
        self.replayers.get(kind).start(&view, mode, diagnostics);
    }
}

impl Visitor for Referee {
    type Output = GameReport;

    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        self.tags.clear();
        self.active = None;
        self.report = GameReport {
            span: Span::new(offset, offset),
            ..Default::default()
        };
        self.plies_written_main = 0;
        self.depth = 0;
        ControlFlow::Continue(())
    }

    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        self.tags.push(name, value, span);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        self.select_game();
        ControlFlow::Continue(())
    }

    fn move_number(&mut self, number: u32, _continuation: bool, _span: Span) -> ControlFlow<()> {
        if let Some(kind) = self.active {
            self.replayers.get(kind).move_number(number);
        }
        ControlFlow::Continue(())
    }

    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        let diags = &mut self.report.diagnostics;
        let starts = match self.active {
            Some(kind) => self.replayers.get(kind).token(token, span, diags),
            None => true,
        };
        if starts && self.depth == 0 {
            self.plies_written_main += 1;
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _text: &[u8], _kind: CommentKind, _span: Span) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        let diags = &mut self.report.diagnostics;
        if let Some(kind) = self.active {
            let r = self.replayers.get(kind);
            r.setup(fen, span, diags);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.depth += 1;
        let diags = &mut self.report.diagnostics;
        if let Some(kind) = self.active {
            let r = self.replayers.get(kind);
            r.begin_variation(span, diags);
        }
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        let diags = &mut self.report.diagnostics;
        if let Some(kind) = self.active {
            let r = self.replayers.get(kind);
            r.end_variation(span, diags);
        }
        ControlFlow::Continue(())
    }

    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        let diags = &mut self.report.diagnostics;
        if let Some(kind) = self.active {
            let r = self.replayers.get(kind);
            r.result(token, span, diags);
        }
        ControlFlow::Continue(())
    }

    fn problem(&mut self, problem: SyntaxProblem) {
        self.report
            .diagnostics
            .push(Diagnostic::from_syntax(problem));
    }

    fn end_game(&mut self, span: Span) -> GameReport {
        let mut report = std::mem::take(&mut self.report);
        report.span = span;
        report.plies_written = self.plies_written_main;
        if let Some(kind) = self.active {
            let view = TagView(&self.tags);
            let r = self.replayers.get(kind);
            r.finish(&view, &mut report);
        }
        report
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.severity == Severity::Warning));
        report
    }
}

/// One replayer per game, kept across games so their buffers are reused.
struct Replayers {
    tama: Replayer<tama::Tama>,
    odnocvetnie: Replayer<odnocvetnie::Odnocvetnie>,
    thaayam: Replayer<thaayam::Thaayam>,
}

impl Replayers {
    fn get(&mut self, kind: GameKind) -> &mut dyn Replay {
        match kind {
            GameKind::Tama => &mut self.tama,
            GameKind::Odnocvetnie => &mut self.odnocvetnie,
            GameKind::Thaayam => &mut self.thaayam,
        }
    }
}

/// The tags of the current game, stored in one reused buffer.
#[derive(Default)]
pub(crate) struct TagStore {
    bytes: Vec<u8>,
    entries: Vec<(usize, usize, usize, Span)>,
}

impl TagStore {
    fn clear(&mut self) {
        self.bytes.clear();
        self.entries.clear();
    }

    fn push(&mut self, name: &[u8], value: &[u8], span: Span) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(name);
        let mid = self.bytes.len();
        self.bytes.extend_from_slice(value);
        self.entries.push((start, mid, self.bytes.len(), span));
    }

    /// The unescaped, decoded value of the last tag with this name (case-insensitive).
    pub(crate) fn get(&self, name: &[u8]) -> Option<String> {
        self.entries
            .iter()
            .rev()
            .find(|(s, m, _, _)| self.bytes[*s..*m].eq_ignore_ascii_case(name))
            .map(|&(_, m, e, _)| {
                let raw = pdn::unescape(&self.bytes[m..e]);
                pdn::decode(&raw).trim().to_string()
            })
    }

    /// The span of the last tag with this name.
    pub(crate) fn span(&self, name: &[u8]) -> Option<Span> {
        self.entries
            .iter()
            .rev()
            .find(|(s, m, _, _)| self.bytes[*s..*m].eq_ignore_ascii_case(name))
            .map(|e| e.3)
    }
}
