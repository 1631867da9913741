//! The replay of one game's movetext, generic over [`Game`].
//!
//! A [`Replayer`] keeps a stack of lines: the main line at the bottom and one frame per open
//! variation. A variation starts from the position before the move it replaces. After the first
//! error in a line the rest of that line is not checked (errors would only cascade), but the
//! variation that follows the faulty move still is, since its starting position is known.

use game::{Code, Explore, Game, Notation, Outcome, PlyFacts, Problem, SquarePath};
use pdn::visitor::{Severity, Span};

use crate::details::{PlyDetails, PlyHead};
use crate::report::{BoardAt, BoardView, Diagnostic, GameReport, OpeningLine, Rewrite, Snapshot};
use crate::tags::TagView;

/// What a replay produces besides diagnostics.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Mode {
    /// Collect per-ply facts and the opening.
    pub(crate) collect: bool,
    /// Write every resolved ply again in another notation.
    pub(crate) rewrite: Option<Rewrite>,
    /// Keep a snapshot of the position with each diagnostic about one.
    pub(crate) snapshots: bool,
    /// Keep this position of the main line.
    pub(crate) board_at: Option<BoardAt>,
    /// Describe every ply of the main line.
    pub(crate) details: bool,
    /// With `details`, write the position string after each ply too.
    pub(crate) positions: bool,
    /// Keep the board of every position of the main line.
    pub(crate) boards: bool,
    /// With `collect`: keep the keys and moves of this many first plies of the main line.
    pub(crate) opening_plies: u32,
}

/// Plies with more tokens than this are resolved through a heap buffer.
const INLINE_TOKENS: usize = 16;

/// The game-independent face of a [`Replayer`], so the referee can hold one per game.
pub(crate) trait Replay {
    /// A game starts: set up the position from the tags.
    fn start(&mut self, tags: &TagView<'_>, mode: Mode, diags: &mut Vec<Diagnostic>);
    /// The seat to move in the start position (after `start`; `None` when it could not be
    /// set up).
    fn first_seat(&self) -> Option<game::Seat>;
    /// A move number was written; `continuation` for `12...` (the second player moves).
    fn move_number(&mut self, number: u32, continuation: bool);
    /// A move token; returns true if it starts a new ply.
    fn token(&mut self, token: &[u8], span: Span, diags: &mut Vec<Diagnostic>) -> bool;
    /// A setup command in movetext.
    fn setup(&mut self, fen: &[u8], span: Span, diags: &mut Vec<Diagnostic>);
    /// `(`
    fn begin_variation(&mut self, span: Span, diags: &mut Vec<Diagnostic>);
    /// `)`
    fn end_variation(&mut self, span: Span, diags: &mut Vec<Diagnostic>);
    /// The result token.
    fn result(&mut self, token: &[u8], span: Span, diags: &mut Vec<Diagnostic>);
    /// The game ends: check the result and fill the report.
    fn finish(&mut self, tags: &TagView<'_>, report: &mut GameReport);
}

/// One line of play (the main line or a variation).
struct Frame<P> {
    /// The current position; `None` once it is unknown (bad setup, or after an error).
    pos: Option<P>,
    /// The position before the last ply of this line, where a variation would start.
    before: Option<P>,
    /// Plies of this line so far (written, checked or not), counted from the game start.
    ply: u32,
    /// Plies replayed successfully in this line.
    replayed: u32,
    /// The last move number written in this line.
    move_number: Option<u32>,
    /// A variation not yet begun: the position after the move it would replace, in case its
    /// move number shows that it is an alternative to the next move instead (`1. 34-30
    /// (1... 5-10) 1... 20-25`, as some programs write it).
    next: Option<P>,
}

/// Replays the movetext of games of one kind.
pub(crate) struct Replayer<G: Explore> {
    game: G,
    frames: Vec<Frame<G::Position>>,
    pending: Vec<u8>,
    pending_tokens: Vec<(usize, usize, Span)>,
    /// Index (among the game's move tokens) of the first pending token.
    pending_first: u32,
    /// The move number written before the pending ply.
    pending_move_number: Option<u32>,
    /// The run keeps something [`Replayer::observe`] keeps (facts, rewrites or a board).
    observing: bool,
    /// The game writes every ply as one token ([`Game::one_token_plies`]): each is resolved
    /// as its token comes, without keeping a copy of it for later.
    one_token: bool,
    seats: u8,
    seat_list: Vec<u8>,
    /// With two seats, `12.` names the second of `seat_list` (it opens games of this kind).
    numbers_second_seat_first: bool,
    collect: bool,
    rewrite: Option<Notation>,
    rewrites: Vec<(u32, u32, String)>,
    tokens_seen: u32,
    facts: Vec<game::PlyFacts>,
    /// The most plies any game so far had facts for, up to 1024: each game's list starts
    /// that long.
    facts_room: usize,
    opening: String,
    /// With `opening_plies`: the keys and moves of the first plies of the main line.
    line: OpeningLine,
    /// The move being written for the opening or the line (its room kept between moves).
    move_text: String,
    opening_plies: u32,
    /// The key of the position after the last ply of `line` (or of the start position).
    line_key: Option<u64>,
    /// The ply being played continues `line` (its move is written, its key not yet).
    line_pending: bool,
    result: Option<(Option<Outcome>, Span)>,
    last_span: Span,
    snapshots: bool,
    board_at: Option<BoardAt>,
    /// The position kept for [`BoardAt`], once reached.
    view: Option<BoardView>,
    /// With [`BoardAt::End`]: the paths of the last ply of the main line played.
    last_paths: Vec<SquarePath>,
    details: bool,
    positions: bool,
    detail_list: PlyDetails,
    /// With `details`: the key of the start position, once known.
    start_key: Option<u64>,
    /// With `details`: the main line's ply count and the key of the position after it, for
    /// updating the key with the next ply (`None` after a setup command).
    main_key: Option<(u32, u64)>,
    boards: bool,
    /// With `boards`: the start position and the position after every ply of the main line.
    board_list: Vec<BoardView>,
    /// With `boards`: the start position as a position string.
    start_text: String,
}

impl<G: Explore> Replayer<G> {
    /// Which of two seats the move numbers count first: `12.` is the move of the seat that
    /// opens a game of this kind (Black in English draughts), `12...` the other's, also when a
    /// `FEN` tag starts the game with the other seat to move.
    /// `fen`: the game has a `FEN` tag.
    fn number_seats_in_turn_order(
        &mut self,
        tags: &TagView<'_>,
        fen: bool,
        start: Option<&G::Position>,
    ) {
        self.numbers_second_seat_first = false;
        if self.seat_list.len() != 2 {
            return;
        }
        let opener = if fen {
            let lookup = |name: &str| tags.get(name);
            self.game
                .start_position(&lookup)
                .ok()
                .map(|p| self.game.to_move(&p).0)
        } else {
            start.map(|p| self.game.to_move(p).0)
        };
        self.numbers_second_seat_first = opener == Some(self.seat_list[1]);
    }
}

impl<G: Explore> Replayer<G> {
    pub(crate) fn new(game: G) -> Self {
        Replayer {
            observing: false,
            one_token: game.one_token_plies(),
            game,
            frames: Vec::new(),
            pending: Vec::new(),
            pending_tokens: Vec::new(),
            pending_first: 0,
            pending_move_number: None,
            seats: 2,
            seat_list: Vec::new(),
            numbers_second_seat_first: false,
            collect: false,
            rewrite: None,
            rewrites: Vec::new(),
            tokens_seen: 0,
            facts: Vec::new(),
            facts_room: 0,
            opening: String::new(),
            line: OpeningLine::default(),
            move_text: String::new(),
            opening_plies: 0,
            line_key: None,
            line_pending: false,
            result: None,
            last_span: Span::default(),
            snapshots: false,
            board_at: None,
            view: None,
            last_paths: Vec::new(),
            details: false,
            positions: false,
            detail_list: PlyDetails::default(),
            start_key: None,
            main_key: None,
            boards: false,
            board_list: Vec::new(),
            start_text: String::new(),
        }
    }

    fn main_line(&self) -> bool {
        self.frames.len() == 1
    }

    /// Resolves and plays the pending ply, if any: the core of the replay. What is kept of a
    /// played ply (facts, rewrites, views, details) is left to [`Replayer::observe`], what is
    /// said of a refused one to [`Replayer::refuse`].
    fn flush(&mut self, diags: &mut Vec<Diagnostic>) {
        if self.pending_tokens.is_empty() {
            return;
        }
        let Some(frame) = self.frames.last_mut() else {
            self.clear_pending();
            return;
        };
        frame.ply += 1;
        if frame.pos.is_none() {
            // The line is dead: the position before this ply is unknown too.
            frame.before = None;
            self.clear_pending();
            return;
        }
        let count = self.pending_tokens.len() as u32;
        // Where the ply's facts are kept they are taken as it is played (`play_with_facts`).
        // Elsewhere the position after the ply is made where the position before it is kept
        // (`before`) while it is resolved, which spares a game that plays the move to resolve
        // it playing it twice; the two then change places.
        let fused = !(self.collect && self.main_line());
        let Frame { pos, before, .. } = self.frames.last_mut().expect("a line is open");
        let pos = pos.as_ref().expect("the position is known");
        let resolved = with_tokens(&self.pending, &self.pending_tokens, |tokens| {
            if fused {
                let after = before.get_or_insert_with(|| pos.clone());
                self.game.resolve_and_play(pos, tokens, after)
            } else {
                self.game.resolve(pos, tokens)
            }
        });
        // The move stays where it was written and is used by reference: moving a freshly
        // returned move (into an `Option`, then out of the `Ok`) made each copy wait for the
        // narrow stores that had just written it, on every ply.
        match resolved {
            Ok(ref mv) => self.play_resolved(mv, count, fused),
            Err(problem) => self.refuse(problem, diags),
        }
        self.clear_pending();
    }

    /// [`Replayer::flush`] for a game whose every ply is one token, as the token comes: the
    /// same steps without the token kept first (it is copied only to refuse it).
    fn play_token(&mut self, token: &[u8], span: Span, diags: &mut Vec<Diagnostic>) {
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        frame.ply += 1;
        if frame.pos.is_none() {
            frame.before = None;
            return;
        }
        let frame = self.frames.last().expect("a line is open");
        let pos = frame.pos.as_ref().expect("the position is known");
        let resolved = self.game.resolve(pos, &[token]);
        match resolved {
            Ok(ref mv) => self.play_resolved(mv, 1, false),
            Err(problem) => {
                // What `refuse` reads of a refused ply: its token and span.
                self.pending.extend_from_slice(token);
                self.pending_tokens.push((0, token.len(), span));
                self.refuse(problem, diags);
                self.clear_pending();
            }
        }
    }

    /// Plays a resolved ply of `tokens` tokens on the current line, keeping what the run
    /// asked for; `played`: the position after it is already in the line's `before`.
    #[inline(always)]
    fn play_resolved(&mut self, mv: &G::Move, tokens: u32, played: bool) {
        let keep_board = self.boards && self.main_line();
        let last_move = if keep_board {
            let pos = self.frames.last().and_then(|f| f.pos.as_ref());
            pos.map_or_else(Vec::new, |pos| self.game.move_paths(pos, mv))
        } else {
            Vec::new()
        };
        // Most runs keep none of what `observe` keeps: its call is spared then.
        if self.observing {
            self.observe(mv, tokens);
        }
        let collect = self.collect && self.main_line();
        let frame = self.frames.last_mut().expect("a line is open");
        if let Some(pos) = frame.pos.as_mut() {
            let before = frame.before.get_or_insert_with(|| pos.clone());
            if played {
                std::mem::swap(pos, before);
            } else if collect {
                before.clone_from(pos);
                self.facts.push(PlyFacts::BLANK);
                let slot = self.facts.last_mut().expect("just pushed");
                self.game.play_with_facts(pos, mv, slot);
            } else {
                before.clone_from(pos);
                self.game.play(pos, mv);
            }
            frame.replayed += 1;
            if let (true, Some(k)) = (self.line_pending, self.line_key) {
                let key = self.game.position_key_after(before, k, pos);
                self.line_key = Some(key);
                self.line.plies.push((key, self.line.text.len() as u32));
            }
            self.line_pending = false;
            if keep_board {
                self.board_list.push(BoardView {
                    ply: frame.ply,
                    board: self.game.board(pos),
                    last_move,
                });
            }
        }
        if self.details && self.main_line() {
            self.describe_last(mv);
        }
    }

    fn clear_pending(&mut self) {
        self.pending.clear();
        self.pending_tokens.clear();
    }

    /// Keeps what the run asked for of a ply about to be played from the current position.
    fn observe(&mut self, mv: &G::Move, tokens: u32) {
        let main = self.main_line();
        let seats = u32::from(self.seats);
        let Some(frame) = self.frames.last() else {
            return;
        };
        let Some(pos) = frame.pos.as_ref() else {
            return;
        };
        if main && self.collect {
            // (The ply's facts are taken when it is played: see `flush`.)
            let in_line = self.line_key.is_some()
                && frame.ply <= self.opening_plies
                && frame.ply as usize == self.line.len() + 1;
            if frame.ply <= seats || in_line {
                let notation = self.game.default_notation();
                let text = &mut self.move_text;
                text.clear();
                self.game.write_move_into(pos, mv, notation, text);
                debug_assert_eq!(*text, self.game.write_move(pos, mv, notation));
                if frame.ply <= seats {
                    if !self.opening.is_empty() {
                        self.opening.push(' ');
                    }
                    self.opening.push_str(text);
                }
                if in_line {
                    self.line.text.push_str(text);
                    self.line_pending = true;
                }
            }
        }
        if let Some(notation) = self.rewrite {
            let text = self.game.write_move(pos, mv, notation);
            self.rewrites.push((self.pending_first, tokens, text));
        }
        match self.board_at {
            Some(BoardAt::End) if main => {
                self.last_paths = self.game.move_paths(pos, mv);
            }
            Some(BoardAt::Ply(p)) if main && p == frame.ply => {
                let last_move = self.game.move_paths(pos, mv);
                let mut after = pos.clone();
                self.game.play(&mut after, mv);
                self.view = Some(BoardView {
                    ply: p,
                    board: self.game.board(&after),
                    last_move,
                });
            }
            _ => {}
        }
    }

    /// Describes the ply just played on the main line (its position before is `before`).
    fn describe_last(&mut self, mv: &G::Move) {
        let Some(frame) = self.frames.first() else {
            return;
        };
        let (Some(before), Some(after)) = (frame.before.as_ref(), frame.pos.as_ref()) else {
            return;
        };
        // With facts collected, the ply's own were just kept by `flush`.
        let kept = self.collect && self.facts.len() == self.detail_list.len() + 1;
        let computed;
        let facts = match self.facts.last() {
            Some(facts) if kept => facts,
            _ => {
                computed = self.game.facts(before, mv);
                &computed
            }
        };
        // The key follows the main line ply by ply; it is computed afresh after a setup
        // command or anything else that moved the line without a described ply.
        let key = match self.main_key {
            Some((ply, key)) if ply + 1 == frame.ply => {
                self.game.position_key_after(before, key, after)
            }
            _ => self.game.position_key(after),
        };
        debug_assert_eq!(key, self.game.position_key(after), "ply {}", frame.ply);
        self.main_key = Some((frame.ply, key));
        let head = PlyHead {
            ply: frame.ply,
            key,
            mover: facts.mover,
            promotion: facts.promotion,
            throws: &facts.throws,
            lost_throws: facts.lost_throws,
        };
        let game = &self.game;
        let positions = self.positions;
        self.detail_list.push(
            head,
            |texts| game.describe_into(before, mv, texts),
            |out| {
                if positions {
                    game.write_position_into(after, out);
                }
            },
        );
    }

    /// Reports a ply the rules refuse, and leaves the line dead after it (a variation that
    /// follows may still start from the position before it).
    fn refuse(&mut self, problem: Problem, diags: &mut Vec<Diagnostic>) {
        let main = self.main_line();
        let seats = u32::from(self.seats.max(1));
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        let Some(pos) = frame.pos.as_ref() else {
            return;
        };
        let problem = match self.game.terminal(pos) {
            Some(outcome) => Problem::new(
                Code::ResultMismatch,
                format!(
                    "the game is already over ({}), so no move may follow",
                    describe(&self.game, outcome)
                ),
            ),
            None => problem,
        };
        let problem = if problem.code == Code::IllegalMove && self.pending_tokens.len() == 1 {
            let (s, e, _) = self.pending_tokens[0];
            match near_misses(&self.game, pos, &self.pending[s..e]) {
                Some(hint) => Problem {
                    message: format!("{}; did you mean {hint}?", problem.message),
                    ..problem
                },
                None => problem,
            }
        } else {
            problem
        };
        let index = problem.token.min(self.pending_tokens.len() - 1);
        let span = self.pending_tokens[index].2;
        if main && self.board_at == Some(BoardAt::End) && self.view.is_none() {
            self.view = Some(BoardView {
                ply: frame.ply - 1,
                board: self.game.board(pos),
                last_move: std::mem::take(&mut self.last_paths),
            });
        }
        let snapshot = self.snapshots.then(|| {
            let mut position = String::new();
            self.game.write_position_into(pos, &mut position);
            Box::new(Snapshot {
                board: self.game.board(pos),
                played: problem.played,
                suggested: problem.suggested,
                position,
                in_variation: !main,
            })
        });
        diags.push(Diagnostic {
            code: problem.code.into(),
            severity: Severity::Error,
            span,
            message: problem.message,
            ply: Some(frame.ply),
            move_number: Some(
                self.pending_move_number
                    .unwrap_or((frame.ply - 1) / seats + 1),
            ),
            snapshot,
        });
        frame.before = frame.pos.take();
    }

    fn bad_position(&self, problem: Problem, span: Span) -> Diagnostic {
        let code = if problem.code == Code::Syntax || problem.code == Code::IllegalMove {
            Code::BadFen
        } else {
            problem.code
        };
        Diagnostic {
            code: code.into(),
            severity: Severity::Error,
            span,
            message: problem.message,
            ply: None,
            move_number: None,
            snapshot: None,
        }
    }
}

impl<G: Explore> Replay for Replayer<G> {
    fn start(&mut self, tags: &TagView<'_>, mode: Mode, diags: &mut Vec<Diagnostic>) {
        self.frames.clear();
        self.pending.clear();
        self.pending_tokens.clear();
        self.facts.clear();
        self.opening.clear();
        self.line.clear();
        self.line_key = None;
        self.line_pending = false;
        self.opening_plies = if mode.collect { mode.opening_plies } else { 0 };
        self.rewrites.clear();
        self.tokens_seen = 0;
        self.result = None;
        self.collect = mode.collect;
        self.snapshots = mode.snapshots;
        self.board_at = mode.board_at;
        self.details = mode.details;
        self.positions = mode.positions;
        self.detail_list.clear();
        self.start_key = None;
        self.main_key = None;
        self.boards = mode.boards;
        self.board_list.clear();
        self.start_text.clear();
        self.view = None;
        self.last_paths.clear();
        self.rewrite = mode.rewrite.map(|r| {
            let default = self.game.default_notation();
            Notation {
                numeric: r.numeric.unwrap_or(default.numeric),
                full_captures: r.full_captures.unwrap_or(default.full_captures),
            }
        });
        self.observing = self.collect || self.rewrite.is_some() || self.board_at.is_some();
        let lookup = |name: &str| tags.get(name);
        let fen_tag = tags.get("FEN");
        let has_fen = fen_tag.is_some();
        let start = match fen_tag {
            Some(fen) => self.game.parse_position(&fen).map_err(|p| {
                let span = tags.span("FEN").unwrap_or_default();
                self.bad_position(p, span)
            }),
            None => self.game.start_position(&lookup).map_err(|p| {
                let span = tags
                    .span("Variant")
                    .or_else(|| tags.span("FEN"))
                    .unwrap_or_default();
                self.bad_position(p, span)
            }),
        };
        let pos = match start {
            Ok(pos) => Some(pos),
            Err(d) => {
                diags.push(d);
                None
            }
        };
        if let (true, Some(p)) = (self.opening_plies > 0, pos.as_ref()) {
            let key = self.game.position_key(p);
            self.line.start = Some(key);
            self.line_key = Some(key);
        }
        if let (true, Some(p)) = (self.details, pos.as_ref()) {
            let key = self.game.position_key(p);
            self.start_key = Some(key);
            self.main_key = Some((0, key));
        }
        self.seat_list.clear();
        match pos.as_ref() {
            Some(p) => self
                .seat_list
                .extend(self.game.seats_in_play(p).iter().map(|s| s.0)),
            None => self.seat_list.extend(0..self.game.seat_names().len() as u8),
        }
        self.seats = self.seat_list.len() as u8;
        self.number_seats_in_turn_order(tags, has_fen, pos.as_ref());
        if let (true, Some(p)) = (self.boards, pos.as_ref()) {
            self.board_list.push(BoardView {
                ply: 0,
                board: self.game.board(p),
                last_move: Vec::new(),
            });
            self.game.write_position_into(p, &mut self.start_text);
        } else if let (true, true, Some(p)) = (self.details, self.positions, pos.as_ref()) {
            self.game.write_position_into(p, &mut self.start_text);
        }
        if let (Some(BoardAt::Ply(0)), Some(p)) = (self.board_at, pos.as_ref()) {
            self.view = Some(BoardView {
                ply: 0,
                board: self.game.board(p),
                last_move: Vec::new(),
            });
        }
        self.frames.push(Frame {
            pos,
            before: None,
            ply: 0,
            replayed: 0,
            move_number: None,
            next: None,
        });
    }

    fn first_seat(&self) -> Option<game::Seat> {
        let frame = self.frames.first()?;
        frame.pos.as_ref().map(|p| self.game.to_move(p))
    }

    fn move_number(&mut self, number: u32, continuation: bool) {
        let two_seats = self.seats == 2 && self.seat_list.len() == 2;
        // `12.` is the first seat's move, `12...` the second's, in turn order.
        let turn = usize::from(continuation != self.numbers_second_seat_first);
        let seat_named = self.seat_list.get(turn).copied();
        let Some(frame) = self.frames.last_mut() else {
            return;
        };
        frame.move_number = Some(number);
        // A variation whose first move number names the other seat than the move it
        // replaces is an alternative to the next move: start it after the last one.
        if let (Some(next), true, Some(seat_named)) = (frame.next.take(), two_seats, seat_named) {
            let replaced_by = frame.pos.as_ref().map(|p| self.game.to_move(p).0);
            if replaced_by != Some(seat_named) && self.game.to_move(&next).0 == seat_named {
                frame.pos = Some(next);
                frame.ply += 1;
            }
        }
    }

    fn token(&mut self, token: &[u8], span: Span, diags: &mut Vec<Diagnostic>) -> bool {
        self.last_span = span;
        if let Some(frame) = self.frames.last_mut() {
            frame.next = None;
        }
        if self.one_token {
            // (Nothing is pending: every token was played as it came.)
            self.pending_first = self.tokens_seen;
            self.pending_move_number = self.frames.last().and_then(|f| f.move_number);
            self.tokens_seen += 1;
            self.play_token(token, span, diags);
            return true;
        }
        let starts = self.pending_tokens.is_empty() || self.game.starts_ply(token);
        if starts {
            self.flush(diags);
            self.pending_first = self.tokens_seen;
            self.pending_move_number = self.frames.last().and_then(|f| f.move_number);
        }
        self.tokens_seen += 1;
        let start = self.pending.len();
        self.pending.extend_from_slice(token);
        self.pending_tokens.push((start, self.pending.len(), span));
        starts
    }

    fn setup(&mut self, fen: &[u8], span: Span, diags: &mut Vec<Diagnostic>) {
        self.flush(diags);
        let text = pdn::decode(fen);
        let parsed = self.game.parse_position(text.trim());
        let diagnostic = parsed
            .as_ref()
            .err()
            .map(|p| self.bad_position(p.clone(), span));
        if self.main_line() {
            self.main_key = None;
            // The opening line ends where the position was set by hand.
            self.line_key = None;
        }
        if let Some(frame) = self.frames.last_mut() {
            frame.before = None;
            frame.pos = parsed.ok();
        }
        diags.extend(diagnostic);
    }

    fn begin_variation(&mut self, _span: Span, diags: &mut Vec<Diagnostic>) {
        self.flush(diags);
        let Some(parent) = self.frames.last() else {
            return;
        };
        let (pos, ply, next) = if parent.ply == 0 {
            (parent.pos.clone(), 0, None)
        } else {
            (parent.before.clone(), parent.ply - 1, parent.pos.clone())
        };
        let move_number = parent.move_number;
        self.frames.push(Frame {
            pos,
            before: None,
            ply,
            replayed: 0,
            move_number,
            next,
        });
    }

    fn end_variation(&mut self, _span: Span, diags: &mut Vec<Diagnostic>) {
        self.flush(diags);
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    fn result(&mut self, token: &[u8], span: Span, diags: &mut Vec<Diagnostic>) {
        self.flush(diags);
        let text = String::from_utf8_lossy(token);
        // `-` stands for an unknown result in some programs' exports, as `*` does.
        let outcome = match text.as_ref() {
            "-" => Some(Outcome::Unfinished),
            _ => self.game.parse_result(&text),
        };
        if outcome.is_none() {
            diags.push(Diagnostic {
                code: Code::ResultMismatch.into(),
                severity: Severity::Error,
                span,
                message: format!("`{text}` is not a result of a {} game", self.game.name()),
                ply: None,
                move_number: None,
                snapshot: None,
            });
        }
        self.result = Some((outcome, span));
    }

    fn finish(&mut self, tags: &TagView<'_>, report: &mut GameReport) {
        let diags = &mut report.diagnostics;
        self.flush(diags);
        while self.frames.len() > 1 {
            self.frames.pop();
        }
        debug_assert!(self.main_line() || self.frames.is_empty());
        let (recorded, result_span) = self.recorded_result(tags, diags);
        report.recorded = recorded;
        report.seats.clone_from(&self.seat_list);
        let Some(main) = self.frames.first() else {
            return;
        };
        report.plies = main.replayed;
        if let (Some(BoardAt::End), None, Some(pos)) =
            (self.board_at, self.view.as_ref(), main.pos.as_ref())
        {
            self.view = Some(BoardView {
                ply: main.ply,
                board: self.game.board(pos),
                last_move: std::mem::take(&mut self.last_paths),
            });
        }
        report.position = self.view.take();
        if let Some(pos) = main.pos.as_ref() {
            report.terminal = self.check_end(pos, main.ply, recorded, result_span, diags);
        }
        self.hand_over(report);
    }
}

impl<G: Explore> Replayer<G> {
    /// The result the record gives (the movetext's, else the tag's) and the span to report
    /// it at; a tag and a movetext that disagree are an error.
    fn recorded_result(
        &self,
        tags: &TagView<'_>,
        diags: &mut Vec<Diagnostic>,
    ) -> (Option<Outcome>, Span) {
        let tag = tags
            .get("Result")
            .filter(|t| !t.is_empty() && t != "?" && t != "-");
        let tag_outcome = tag.as_deref().and_then(|t| self.game.parse_result(t));
        let token_outcome = self.result.and_then(|(o, _)| o);
        let result_span = self
            .result
            .map(|(_, s)| s)
            .or_else(|| tags.span("Result"))
            .unwrap_or(self.last_span);
        // A movetext ending with `*` (result not written there) does not contradict a tag.
        let token_outcome =
            token_outcome.filter(|&t| t != Outcome::Unfinished || tag_outcome.is_none());
        if let (Some(tag), Some(token), Some(text)) = (tag_outcome, token_outcome, tag.as_deref()) {
            if !tag.agrees_with(token) {
                let message = format!(
                    "the Result tag says `{text}` but the movetext ends with `{}`",
                    self.game.write_result(token)
                );
                diags.push(result_mismatch(result_span, message, None));
            }
        }
        (token_outcome.or(tag_outcome), result_span)
    }

    /// Checks the recorded result against the final position `pos` (after `ply` plies);
    /// returns how the rules end the game there, if they do.
    fn check_end(
        &self,
        pos: &G::Position,
        ply: u32,
        recorded: Option<Outcome>,
        result_span: Span,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Outcome> {
        let terminal = self.game.terminal(pos);
        if let (None, Some(outcome)) = (terminal, recorded) {
            if let Err(problem) = self.game.check_recorded(pos, outcome) {
                let mut diagnostic = result_mismatch(result_span, problem.message, None);
                diagnostic.code = problem.code.into();
                diags.push(diagnostic);
            }
        }
        if let Some(outcome) = terminal {
            if !recorded.is_some_and(|r| r.agrees_with(outcome)) {
                let written = match recorded {
                    Some(o) => format!("`{}`", self.game.write_result(o)),
                    None => "no result".to_string(),
                };
                let message = format!(
                    "the game is over after ply {ply}: {}, but the record gives {written}",
                    describe(&self.game, outcome)
                );
                let snapshot = self.snapshots.then(|| {
                    let mut position = String::new();
                    self.game.write_position_into(pos, &mut position);
                    Box::new(Snapshot {
                        board: self.game.board(pos),
                        played: Vec::new(),
                        suggested: Vec::new(),
                        position,
                        in_variation: false,
                    })
                });
                diags.push(result_mismatch(result_span, message, snapshot));
            }
        }
        terminal
    }

    /// Moves the lists gathered during the game into the report, taking back the emptied
    /// ones it brings for the next game.
    fn hand_over(&mut self, report: &mut GameReport) {
        if self.collect {
            // The next game's list starts as long as the longest so far (up to a thousand
            // plies): no regrowing (and copying) ply by ply.
            self.facts_room = self.facts_room.max(self.facts.len()).min(1024);
            // The report may bring an emptied list back (`Referee::recycle_facts`).
            let mut next = std::mem::take(&mut report.facts);
            next.clear();
            next.reserve(self.facts_room);
            report.facts = std::mem::replace(&mut self.facts, next);
            report.opening = std::mem::take(&mut self.opening);
            std::mem::swap(&mut report.line, &mut self.line);
            self.line.clear();
        }
        report.rewrites = std::mem::take(&mut self.rewrites);
        if self.boards {
            report.boards = std::mem::take(&mut self.board_list);
        }
        if self.boards || (self.details && self.positions) {
            report.start_position = std::mem::take(&mut self.start_text);
        }
        // The report may bring an emptied list back (`Referee::recycle_details`).
        let mut next = std::mem::take(&mut report.details);
        next.clear();
        report.details = std::mem::replace(&mut self.detail_list, next);
        report.start_key = self.start_key.take();
    }
}

/// Calls `f` with the pending tokens (`spans` index `bytes`), as slices.
#[inline(always)]
fn with_tokens<T>(
    bytes: &[u8],
    spans: &[(usize, usize, Span)],
    f: impl FnOnce(&[&[u8]]) -> T,
) -> T {
    let mut inline: [&[u8]; INLINE_TOKENS] = [&[]; INLINE_TOKENS];
    if spans.len() <= INLINE_TOKENS {
        for (slot, &(s, e, _)) in inline.iter_mut().zip(spans) {
            *slot = &bytes[s..e];
        }
        f(&inline[..spans.len()])
    } else {
        let heap: Vec<&[u8]> = spans.iter().map(|&(s, e, _)| &bytes[s..e]).collect();
        f(&heap)
    }
}

/// A `result-mismatch` error at `span`.
fn result_mismatch(span: Span, message: String, snapshot: Option<Box<Snapshot>>) -> Diagnostic {
    Diagnostic {
        code: Code::ResultMismatch.into(),
        severity: Severity::Error,
        span,
        message,
        ply: None,
        move_number: None,
        snapshot,
    }
}

/// The legal moves whose written form is a near miss of `token` (a slip of one or two
/// characters, in either notation, after folding case and dash variants), as `c3-c4` or
/// `c3-c4 or c3-d4`; `None` when there is no close one. Only on the error path.
fn near_misses<G: Explore>(game: &G, pos: &G::Position, token: &[u8]) -> Option<String> {
    let typed: String = String::from_utf8_lossy(token)
        .to_lowercase()
        .replace(['\u{2013}', '\u{2014}', '\u{2212}'], "-");
    if typed.len() < 3 || typed.len() > 40 {
        return None;
    }
    let moves = game.legal_moves(pos, &[]).ok()?;
    let mut close: Vec<(usize, String)> = Vec::new();
    for mv in &moves {
        let mut best: Option<(usize, String)> = None;
        for numeric in [false, true] {
            for full_captures in [false, true] {
                let n = Notation {
                    numeric,
                    full_captures,
                };
                let text = game.write_move(pos, mv, n);
                let d = edit_distance(&typed, &text.to_lowercase());
                if best.as_ref().is_none_or(|(b, _)| d < *b) {
                    best = Some((d, text));
                }
            }
        }
        if let Some((d, text)) = best {
            if d <= 2 && d * 3 < typed.len() && !close.iter().any(|(_, t)| *t == text) {
                close.push((d, text));
            }
        }
    }
    close.sort();
    let least = close.first()?.0;
    let names: Vec<String> = close
        .into_iter()
        .filter(|(d, _)| *d == least)
        .take(3)
        .map(|(_, t)| t)
        .collect();
    Some(names.join(" or "))
}

/// Levenshtein distance between two short strings, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let next = (row[j + 1] + 1).min(row[j] + 1).min(prev + cost);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// "North has no legal move, so East wins (E+N-)"-style description of an outcome.
fn describe<G: Game>(game: &G, outcome: Outcome) -> String {
    let names = game.seat_names();
    let name = |s: game::Seat| names.get(usize::from(s.0)).copied().unwrap_or("?");
    match outcome {
        Outcome::Win {
            winner,
            loser: Some(loser),
        } => format!(
            "{} cannot move, so {} wins ({})",
            name(loser),
            name(winner),
            game.write_result(outcome)
        ),
        Outcome::Win {
            winner,
            loser: None,
        } => format!("{} wins ({})", name(winner), game.write_result(outcome)),
        Outcome::Draw => format!("a draw ({})", game.write_result(outcome)),
        Outcome::Unfinished => "unfinished".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tags::TagStore;
    use game::{PlyFacts, Seat};

    /// A toy game: two seats add 1, 2 or 3 to a counter in turn; whoever reaches 10 wins.
    /// Tokens are `+n`; `+n` with n > 3 is illegal, and n = 0 is "not maximal".
    #[derive(Clone, Copy, Default)]
    struct Count;

    #[derive(Clone, Debug, PartialEq)]
    struct Pos {
        total: u32,
        turn: u8,
    }

    impl Game for Count {
        type Position = Pos;
        type Move = u32;
        fn name(&self) -> &'static str {
            "Count"
        }
        fn seat_names(&self) -> &'static [&'static str] {
            &["First", "Second"]
        }
        fn start_position(&self, _tags: &dyn Fn(&str) -> Option<String>) -> Result<Pos, Problem> {
            Ok(Pos { total: 0, turn: 0 })
        }
        fn parse_position(&self, text: &str) -> Result<Pos, Problem> {
            text.parse()
                .map(|total| Pos { total, turn: 0 })
                .map_err(|_| Problem::new(Code::BadFen, format!("`{text}` is not a number")))
        }
        fn write_position(&self, pos: &Pos) -> String {
            pos.total.to_string()
        }
        fn position_key(&self, pos: &Pos) -> u64 {
            game::zobrist::extra(pos.total as usize)
        }
        fn to_move(&self, pos: &Pos) -> Seat {
            Seat(pos.turn)
        }
        fn resolve(&self, pos: &Pos, tokens: &[&[u8]]) -> Result<u32, Problem> {
            let t = std::str::from_utf8(tokens[0]).unwrap_or("");
            if pos.total >= 10 {
                return Err(Problem::new(Code::IllegalMove, "over"));
            }
            match t.strip_prefix('+').and_then(|n| n.parse::<u32>().ok()) {
                Some(0) => Err(Problem::new(Code::NonMaximalCapture, "zero")),
                Some(n @ 1..=3) => Ok(n),
                _ => Err(Problem::new(Code::IllegalMove, format!("cannot play {t}"))),
            }
        }
        fn play(&self, pos: &mut Pos, mv: &u32) {
            pos.total += mv;
            pos.turn ^= 1;
        }
        fn terminal(&self, pos: &Pos) -> Option<Outcome> {
            (pos.total >= 10).then_some(Outcome::Win {
                winner: Seat(pos.turn ^ 1),
                loser: None,
            })
        }
        fn parse_result(&self, text: &str) -> Option<Outcome> {
            match text {
                "1-0" => Some(Outcome::Win {
                    winner: Seat(0),
                    loser: None,
                }),
                "0-1" => Some(Outcome::Win {
                    winner: Seat(1),
                    loser: None,
                }),
                "*" => Some(Outcome::Unfinished),
                _ => None,
            }
        }
        fn write_result(&self, outcome: Outcome) -> String {
            match outcome {
                Outcome::Win {
                    winner: Seat(0), ..
                } => "1-0".into(),
                Outcome::Win { .. } => "0-1".into(),
                Outcome::Draw => "1/2-1/2".into(),
                Outcome::Unfinished => "*".into(),
            }
        }
        fn write_move(&self, _pos: &Pos, mv: &u32, _n: Notation) -> String {
            format!("+{mv}")
        }
        fn facts(&self, before: &Pos, mv: &u32) -> PlyFacts {
            PlyFacts {
                mover: before.turn,
                captures: *mv as u8,
                ..PlyFacts::default()
            }
        }
        /// A strip of 16 squares with one counter on the total.
        fn board(&self, pos: &Pos) -> game::Board {
            let mut b = game::Board::new(
                16,
                1,
                game::BoardStyle::Plain,
                self.seat_names(),
                Seat(pos.turn),
            );
            b.pieces
                .push(game::BoardPiece::man(pos.total.min(15) as u8, 0, None));
            b
        }
        fn move_paths(&self, pos: &Pos, mv: &u32) -> Vec<game::SquarePath> {
            let from = pos.total.min(15) as u8;
            vec![vec![(from, 0), ((pos.total + mv).min(15) as u8, 0)]]
        }
    }

    impl Explore for Count {
        fn legal_moves(&self, pos: &Pos, _chance: &[u8]) -> Result<Vec<u32>, Problem> {
            Ok(if pos.total >= 10 {
                vec![]
            } else {
                vec![1, 2, 3]
            })
        }
        fn describe(&self, pos: &Pos, mv: &u32) -> game::MoveInfo {
            game::MoveInfo {
                notation: format!("+{mv}"),
                from: Some(pos.total.to_string()),
                to: Some((pos.total + mv).to_string()),
                ..game::MoveInfo::default()
            }
        }
    }

    enum Ev<'a> {
        M(&'a str),
        Open,
        Close,
        Res(&'a str),
        Setup(&'a str),
    }

    fn run(tags: &[(&str, &str)], events: &[Ev<'_>]) -> GameReport {
        run_with(
            tags,
            events,
            Mode {
                collect: true,
                ..Mode::default()
            },
        )
    }

    fn run_with(tags: &[(&str, &str)], events: &[Ev<'_>], mode: Mode) -> GameReport {
        let mut store = TagStore::default();
        for (n, v) in tags {
            store.push(n.as_bytes(), v.as_bytes(), Span::new(0, 1));
        }
        let view = TagView(&store);
        let mut r = Replayer::new(Count);
        let mut report = GameReport::default();
        r.start(&view, mode, &mut report.diagnostics);
        for (i, ev) in events.iter().enumerate() {
            let span = Span::new(10 * i as u64 + 100, 10 * i as u64 + 102);
            let d = &mut report.diagnostics;
            match ev {
                Ev::M(t) => {
                    r.token(t.as_bytes(), span, d);
                }
                Ev::Open => r.begin_variation(span, d),
                Ev::Close => r.end_variation(span, d),
                Ev::Res(t) => r.result(t.as_bytes(), span, d),
                Ev::Setup(t) => r.setup(t.as_bytes(), span, d),
            }
        }
        r.finish(&view, &mut report);
        report
    }

    fn codes(r: &GameReport) -> Vec<(&'static str, u64)> {
        r.diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.span.start))
            .collect()
    }

    #[test]
    fn clean_game_collects_facts_and_opening() {
        use Ev::*;
        let r = run(&[], &[M("+3"), M("+3"), M("+3"), M("+1"), Res("0-1")]);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert_eq!(r.plies, 4);
        assert_eq!(r.facts.len(), 4);
        assert_eq!(r.opening, "+3 +3", "one round of two seats");
        assert_eq!(
            r.terminal,
            Some(Outcome::Win {
                winner: Seat(1),
                loser: None
            })
        );
    }

    #[test]
    fn opening_line_keeps_keys_and_moves_of_the_first_plies() {
        use Ev::*;
        let mode = |opening_plies| Mode {
            collect: true,
            opening_plies,
            ..Mode::default()
        };
        let key = |total| game::zobrist::extra(total);
        let events = [M("+1"), Open, M("+3"), Close, M("+2"), M("+3"), M("+1")];
        let r = run_with(&[], &events, mode(3));
        assert_eq!(r.line.start, Some(key(0)));
        // The variation does not count; the line stops after three plies.
        let keys: Vec<u64> = r.line.plies.iter().map(|p| p.0).collect();
        assert_eq!(keys, [key(1), key(3), key(6)]);
        let moves: Vec<&str> = (0..r.line.len()).map(|i| r.line.move_text(i)).collect();
        assert_eq!(moves, ["+1", "+2", "+3"]);
        // An error or a setup command ends it; no plies asked, no line.
        let r = run_with(&[], &[M("+1"), M("+9"), M("+1")], mode(5));
        assert_eq!(r.line.len(), 1);
        let r = run_with(&[], &[M("+1"), Setup("4"), M("+1")], mode(5));
        assert_eq!(r.line.len(), 1);
        let r = run_with(&[], &events, mode(0));
        assert!(r.line.is_empty() && r.line.start.is_none());
    }

    #[test]
    fn first_error_stops_the_line_without_cascading() {
        use Ev::*;
        let r = run(&[], &[M("+1"), M("+9"), M("+7"), M("+8"), Res("*")]);
        assert_eq!(codes(&r), [("illegal-move", 110)]);
        assert_eq!(r.diagnostics[0].ply, Some(2));
        assert_eq!(r.diagnostics[0].move_number, Some(1));
        assert_eq!(r.plies, 1);
    }

    #[test]
    fn variation_replaces_the_move_before_it() {
        use Ev::*;
        // +3 +3 (+1 +3 +3 +3 = 10, a win for First inside the variation) +3 *
        let r = run(
            &[],
            &[
                M("+3"),
                M("+3"),
                Open,
                M("+1"),
                M("+3"),
                M("+3"),
                M("+3"),
                M("+2"),
                Close,
                M("+2"),
                Res("*"),
            ],
        );
        // The variation reaches 10 after its third ply, so the +3 after it comes after the end.
        assert_eq!(codes(&r), [("result-mismatch", 160)]);
        assert_eq!(r.diagnostics[0].ply, Some(5));
        assert!(r.diagnostics[0].message.contains("already over"));
        assert_eq!(r.plies, 3);
    }

    #[test]
    fn variation_after_a_faulty_move_is_still_checked() {
        use Ev::*;
        let r = run(&[], &[M("+1"), M("+5"), Open, M("+0"), Close, Res("*")]);
        assert_eq!(
            codes(&r),
            [("illegal-move", 110), ("non-maximal-capture", 130)]
        );
    }

    #[test]
    fn terminal_position_needs_the_rules_result() {
        use Ev::*;
        let moves = [M("+3"), M("+3"), M("+3"), M("+1")];
        let mut events: Vec<Ev> = moves.into_iter().collect();
        events.push(Res("1-0"));
        let r = run(&[], &events);
        assert_eq!(codes(&r), [("result-mismatch", 140)]);
        assert!(r.diagnostics[0].message.contains("Second wins (0-1)"));
        let r = run(&[("Result", "0-1")], &[M("+3"), M("+3"), M("+3"), M("+1")]);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    }

    #[test]
    fn result_tag_and_token_must_agree() {
        use Ev::*;
        let r = run(&[("Result", "1-0")], &[M("+1"), Res("0-1")]);
        assert_eq!(codes(&r), [("result-mismatch", 110)]);
        let r = run(&[], &[M("+1"), Res("2-3")]);
        assert_eq!(codes(&r), [("result-mismatch", 110)]);
    }

    #[test]
    fn bad_fen_tag_and_setup_command() {
        use Ev::*;
        let r = run(&[("FEN", "ten")], &[M("+1"), Res("*")]);
        assert_eq!(codes(&r), [("bad-fen", 0)]);
        let r = run(&[], &[Setup("9"), M("+1"), M("+1"), Res("1-0")]);
        assert_eq!(codes(&r), [("result-mismatch", 120)]);
        let r = run(&[], &[Setup("x"), M("+1"), Res("*")]);
        assert_eq!(codes(&r), [("bad-fen", 100)]);
    }

    /// The counter's square on a snapshot or view board.
    fn counter(b: &game::Board) -> u8 {
        assert_eq!(b.pieces.len(), 1);
        b.pieces[0].file
    }

    #[test]
    fn snapshots_only_when_asked() {
        use Ev::*;
        let events = [M("+1"), M("+2"), M("+0"), Res("*")];
        let r = run(&[], &events);
        assert_eq!(codes(&r), [("non-maximal-capture", 120)]);
        assert!(r.diagnostics[0].snapshot.is_none());
        let mode = Mode {
            snapshots: true,
            ..Mode::default()
        };
        let r = run_with(&[], &events, mode);
        let snap = r.diagnostics[0].snapshot.as_deref().expect("snapshot");
        // The position before the faulty ply: 1 + 2 = 3, First to move.
        assert_eq!(counter(&snap.board), 3);
        assert_eq!(snap.board.to_move, Seat(0));
        assert!(snap.played.is_empty() && snap.suggested.is_empty());
        // A game over by rule that the record does not end as such: the final position.
        let r = run_with(&[], &[M("+3"), M("+3"), M("+3"), M("+1"), Res("*")], mode);
        assert_eq!(codes(&r), [("result-mismatch", 140)]);
        let snap = r.diagnostics[0].snapshot.as_deref().expect("snapshot");
        assert_eq!(counter(&snap.board), 10);
    }

    #[test]
    fn board_after_some_plies_of_the_main_line() {
        use Ev::*;
        // +3 +2 (+1 +1) +1 *: the variation does not count.
        let events = [
            M("+3"),
            M("+2"),
            Open,
            M("+1"),
            M("+1"),
            Close,
            M("+1"),
            Res("*"),
        ];
        let at = |board_at| {
            run_with(
                &[],
                &events,
                Mode {
                    board_at: Some(board_at),
                    ..Mode::default()
                },
            )
            .position
        };
        let v = at(BoardAt::Ply(0)).expect("start");
        assert_eq!((v.ply, counter(&v.board)), (0, 0));
        assert!(v.last_move.is_empty());
        let v = at(BoardAt::Ply(2)).expect("ply 2");
        assert_eq!((v.ply, counter(&v.board)), (2, 5));
        assert_eq!(v.last_move, [vec![(3, 0), (5, 0)]]);
        assert_eq!(v.board.to_move, Seat(0));
        let v = at(BoardAt::End).expect("end");
        assert_eq!((v.ply, counter(&v.board)), (3, 6));
        assert_eq!(v.last_move, [vec![(5, 0), (6, 0)]]);
        assert!(at(BoardAt::Ply(4)).is_none());
        // Without the setting nothing is kept.
        assert!(run(&[], &events).position.is_none());
    }

    #[test]
    fn end_of_a_broken_main_line_is_the_position_before_the_error() {
        use Ev::*;
        let mode = Mode {
            board_at: Some(BoardAt::End),
            ..Mode::default()
        };
        let r = run_with(&[], &[M("+2"), M("+3"), M("+9"), M("+1"), Res("*")], mode);
        let v = r.position.expect("view");
        assert_eq!((v.ply, counter(&v.board)), (2, 5));
        assert_eq!(v.last_move, [vec![(2, 0), (5, 0)]]);
        // A ply past the error is never reached.
        let mode = Mode {
            board_at: Some(BoardAt::Ply(3)),
            ..Mode::default()
        };
        let r = run_with(&[], &[M("+2"), M("+3"), M("+9"), M("+1"), Res("*")], mode);
        assert!(r.position.is_none());
    }
}
