//! The one resolver: a token is matched against the complete legal moves of the position, and
//! when nothing fits the reason is returned as a [`Refusal`], which [`Refusal::problem`]
//! words, in one place, with the variant's own capture rule.

use game::{Code, Problem};

use crate::geometry::{Bit, Bits, Dir, Geometry, NONE};
use crate::movegen::{allowed_chains, for_each_chain, has_capture, priority, Move};
use crate::position::Position;
use crate::token::{parse_token, read_canonical, Separator};
use crate::variant::{CaptureRule, KingRange, Movement, PromotionInCapture};
use crate::Draughts;

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The token cannot be read.
    BadToken(crate::TokenError),
    /// A complete capture that the capture rule does not allow: it takes too little (or breaks
    /// one of the variant's priorities).
    NonMaximal {
        /// The chain the token names.
        taken: Move,
        /// One chain the rule requires.
        example: Move,
    },
    /// A flying king stopped on a landing square from which it cannot capture on, where
    /// another landing square of the same jump would let it go on (and the capture rule does
    /// not already forbid the chain for taking too little).
    StoppedEarly {
        /// The chain the token names.
        taken: Move,
        /// One chain the rule allows.
        example: Move,
    },
    /// The token stops a chain while the piece can still capture.
    Unfinished {
        /// Pieces taken up to where the token stops.
        taken: usize,
        /// One complete chain that goes on from there.
        example: Move,
    },
    /// A capture chain was begun in the previous token and this token does not go on with it.
    MustContinue {
        /// Where the capturing piece stands.
        at: Bit,
        /// One way to go on.
        example: Move,
    },
    /// A quiet move while a capture is compulsory.
    Missed {
        /// One capture that must be played instead.
        example: Move,
    },
    /// The token fits several legal moves with different results.
    Ambiguous(Vec<Move>),
    /// No legal move fits; the reason in words.
    Illegal(String),
}

/// A token as written: its squares (at least two), separators and numbering.
#[derive(Clone, Copy)]
struct Written<'a> {
    squares: &'a [Bit],
    separator: Separator,
    numeric: bool,
}

pub use game::token::{fit, Fit};

impl Draughts {
    /// Resolves one move token: the legal move it names, or why not.
    // A refusal carries whole moves (the error path only; the size is not on the hot path).
    #[allow(clippy::result_large_err)]
    pub fn resolve_token(&self, pos: &Position, raw: &[u8]) -> Result<Move, Refusal> {
        // The common shapes are read on the stack; any other token goes through the whole
        // grammar (and to the heap).
        let mut buf = [NONE; 32];
        if let Some((count, separator, numeric)) = read_canonical(&self.names(), raw, &mut buf) {
            let written = Written {
                squares: &buf[..count],
                separator,
                numeric,
            };
            return self.resolve_parsed(pos, written);
        }
        let tok = parse_token(&self.names(), raw).map_err(Refusal::BadToken)?;
        let written = Written {
            squares: &tok.squares,
            separator: tok.separator,
            numeric: tok.numeric,
        };
        self.resolve_parsed(pos, written)
    }

    #[allow(clippy::result_large_err)]
    fn resolve_parsed(&self, pos: &Position, tok: Written<'_>) -> Result<Move, Refusal> {
        self.resolve_known(pos, tok, has_capture(self.geometry, &self.rules, pos))
    }

    /// [`Draughts::resolve_token`] for the replay, the refusal turned into a problem by
    /// `explain`. A quiet move, the common case, is built where the caller keeps the result:
    /// returned through the refusal type and then converted, it was copied right after the
    /// narrow stores that built it, and the copy waited for them.
    pub(crate) fn resolve_for_replay(
        &self,
        pos: &Position,
        raw: &[u8],
        explain: impl FnOnce(Refusal) -> Problem,
    ) -> Result<Move, Problem> {
        let (g, rules) = (self.geometry, &self.rules);
        let mut buf = [NONE; 32];
        let Some((count, separator, numeric)) = read_canonical(&self.names(), raw, &mut buf) else {
            return self.resolve_token(pos, raw).map_err(explain);
        };
        let capture = has_capture(g, rules, pos);
        if !capture && count == 2 {
            if let Some(m) = crate::movegen::quiet_move(g, rules, pos, buf[0], buf[1]) {
                return Ok(m);
            }
        }
        let written = Written {
            squares: &buf[..count],
            separator,
            numeric,
        };
        self.resolve_known(pos, written, capture).map_err(explain)
    }

    /// [`Draughts::resolve_parsed`] once it is known whether the side to move can capture.
    #[allow(clippy::result_large_err)]
    fn resolve_known(
        &self,
        pos: &Position,
        tok: Written<'_>,
        capture: bool,
    ) -> Result<Move, Refusal> {
        let (g, rules) = (self.geometry, &self.rules);
        let squares = tok.squares;
        if !capture {
            if squares.len() == 2 {
                if let Some(m) = crate::movegen::quiet_move(g, rules, pos, squares[0], squares[1]) {
                    return Ok(m);
                }
            }
            return Err(Refusal::Illegal(self.explain(pos, tok)));
        }
        if !pos.pending.is_active() {
            if let Some(m) = self.plain_capture(pos, squares) {
                return Ok(m);
            }
        }
        self.resolve_capture(pos, tok)
    }

    /// The whole resolver for a token while the side to move has a capture: the move it
    /// names, or why not.
    #[allow(clippy::result_large_err)]
    fn resolve_capture(&self, pos: &Position, tok: Written<'_>) -> Result<Move, Refusal> {
        let (g, rules) = (self.geometry, &self.rules);
        let squares = tok.squares;
        let mut allowed = Vec::new();
        allowed_chains(g, rules, pos, &mut allowed);
        if pos.pending.is_active() && squares[0] != pos.pending.at {
            return Err(Refusal::MustContinue {
                at: pos.pending.at,
                example: self.example(&allowed, pos.pending.at),
            });
        }
        // 1. A full path naming exactly one chain.
        if let Some(done) = self.exact_path(pos, squares, &allowed) {
            return done;
        }
        // 2. The allowed chains the token fits, one per result.
        if let Some(done) = fitting(squares, &allowed) {
            return done;
        }
        // 3. A quiet move while a capture is compulsory.
        let quiet = squares.len() == 2 && self.is_quiet(pos, squares[0], squares[1]);
        if quiet && tok.separator != Separator::Capture {
            return Err(Refusal::Missed {
                example: self.example(&allowed, squares[0]),
            });
        }
        // 4. Chains the rule does not allow, or a chain stopped half-way.
        self.refuse_capture(pos, tok, &allowed, quiet)
    }

    /// Step 1 of [`Draughts::resolve_capture`]: the chain a full path (three squares or
    /// more) names exactly, if any, allowed or refused as not maximal.
    fn exact_path(
        &self,
        pos: &Position,
        squares: &[Bit],
        allowed: &[Move],
    ) -> Option<Result<Move, Refusal>> {
        if squares.len() < 3 {
            return None;
        }
        let mut exact = None;
        for_each_chain(self.geometry, &self.rules, pos, &mut |m| {
            if exact.is_none() && m.from() == squares[0] && m.path() == &squares[1..] {
                exact = Some(*m);
            }
        });
        let m = exact?;
        if allowed.iter().any(|a| a.same_result(&m)) {
            return Some(Ok(m));
        }
        Some(Err(Refusal::NonMaximal {
            taken: m,
            example: self.example(allowed, squares[0]),
        }))
    }

    /// True when `from`-`to` is a quiet move as if captures were not compulsory.
    fn is_quiet(&self, pos: &Position, from: Bit, to: Bit) -> bool {
        let free = Position {
            pending: crate::position::Pending::NONE,
            ..*pos
        };
        crate::movegen::quiet_move(self.geometry, &self.rules, &free, from, to).is_some()
    }

    /// Step 4 of [`Draughts::resolve_capture`], once no allowed chain fits: a chain the rule
    /// does not allow, the first part of a chain (played as a partial move where chains
    /// may be split), a chain stopped early, a missed capture (`quiet`), or why the token
    /// is illegal.
    #[allow(clippy::result_large_err)]
    fn refuse_capture(
        &self,
        pos: &Position,
        tok: Written<'_>,
        allowed: &[Move],
        quiet: bool,
    ) -> Result<Move, Refusal> {
        let squares = tok.squares;
        let mut other: Option<Move> = None;
        let mut prefix = 0usize;
        for_each_chain(self.geometry, &self.rules, pos, &mut |m| match fit(
            squares,
            m.from(),
            m.path().iter().copied(),
        ) {
            Fit::Whole => {
                if other.is_none_or(|o| m.capture_count() > o.capture_count()) {
                    other = Some(*m);
                }
            }
            Fit::Prefix(k) => prefix = prefix.max(k),
            Fit::None => {}
        });
        if let Some(m) = other {
            return Err(Refusal::NonMaximal {
                taken: m,
                example: self.example(allowed, squares[0]),
            });
        }
        if prefix > 0 {
            // The first part of an allowed chain, continued in the next token (playstrategy
            // writes one jump per token): played as a partial move.
            let split = self.split_chains || pos.split_chains || pos.pending.is_active();
            if split {
                if let Some(m) = self.partial_of(pos, squares, allowed) {
                    return Ok(m);
                }
            }
            let from_here: Vec<Move> = allowed
                .iter()
                .filter(|m| m.from() == squares[0])
                .copied()
                .collect();
            let pool = if from_here.is_empty() {
                allowed
            } else {
                &from_here
            };
            return Err(Refusal::Unfinished {
                taken: prefix,
                example: self.example(pool, squares[0]),
            });
        }
        if let Some(refusal) = self.stopped_early(pos, squares, allowed) {
            return Err(refusal);
        }
        if quiet {
            return Err(Refusal::Missed {
                example: self.example(allowed, squares[0]),
            });
        }
        Err(Refusal::Illegal(self.explain(pos, tok)))
    }

    /// The refusal of a token that names a chain in which a flying king stops on a landing
    /// square while another landing of the same jump lets it capture on: such a chain takes
    /// less than one that goes on, so it is non-maximal where the capture rule counts, and
    /// stopped early where it does not.
    fn stopped_early(&self, pos: &Position, squares: &[Bit], allowed: &[Move]) -> Option<Refusal> {
        let mut best: Option<Move> = None;
        crate::movegen::for_each_chain_free_landing(
            self.geometry,
            &self.rules,
            pos,
            squares[0],
            &mut |m| {
                let whole = fit(squares, m.from(), m.path().iter().copied()) == Fit::Whole;
                if whole && best.is_none_or(|b| m.capture_count() > b.capture_count()) {
                    best = Some(*m);
                }
            },
        );
        let taken = best?;
        let example = self.example(allowed, squares[0]);
        let top = allowed.iter().map(|m| priority(&self.rules, m)).max()?;
        Some(if priority(&self.rules, &taken) < top {
            Refusal::NonMaximal { taken, example }
        } else {
            Refusal::StoppedEarly { taken, example }
        })
    }

    /// The capture a token names when it names one without doubt, found in one pass over the
    /// chains and without a list of them; `None` sends the token through the whole resolver
    /// (refusals, ambiguities, partial moves, and the rare case where only another route to
    /// the same result is allowed). What it returns is what the whole resolver returns: the
    /// first chain written out in full (`squares` of three or more) when the capture rule
    /// allows it, else the first allowed chain the token names when all such chains have the
    /// same result. No chain may be under way ([`Position::pending`]).
    fn plain_capture(&self, pos: &Position, squares: &[Bit]) -> Option<Move> {
        let rules = &self.rules;
        let full_path = squares.len() >= 3;
        // The best priority so far, and the first chain of that priority the token names.
        let mut best = 0u64;
        let mut named: Option<Move> = None;
        let mut ambiguous = false;
        // The first chain whose path is the token's, with its priority.
        let mut exact: Option<(Move, u64)> = None;
        let mut visit = |m: &Move| {
            let p = priority(rules, m);
            if p > best {
                best = p;
                named = None;
                ambiguous = false;
            }
            if p < best && !full_path {
                return;
            }
            if fit(squares, m.from(), m.path().iter().copied()) != Fit::Whole {
                return;
            }
            if full_path && exact.is_none() && m.path() == &squares[1..] {
                exact = Some((*m, p));
            }
            if p == best {
                match &named {
                    None => named = Some(*m),
                    Some(n) => ambiguous |= !n.same_result(m),
                }
            }
        };
        if rules.capture == CaptureRule::Free {
            // Every chain is allowed, and only those of the piece on the token's first square
            // can fit it.
            crate::for_each_chain_from(self.geometry, rules, pos, squares[0], &mut visit);
        } else {
            for_each_chain(self.geometry, rules, pos, &mut visit);
        }
        match exact {
            Some((m, p)) if p == best => Some(m),
            Some(_) => None,
            None if ambiguous => None,
            None => named,
        }
    }

    /// The partial move a token names when it is the start of an allowed chain.
    fn partial_of(&self, pos: &Position, squares: &[Bit], allowed: &[Move]) -> Option<Move> {
        let us = pos.side;
        let enemy_kings = pos.kings[us.opponent().index()];
        allowed
            .iter()
            .find_map(|m| match fit(squares, m.from(), m.path().iter().copied()) {
                Fit::Prefix(k) => {
                    let crowned = !m.is_king_move()
                        && self.rules.promotion == PromotionInCapture::ContinueAsKing
                        && m.path()[..k]
                            .iter()
                            .any(|&b| self.geometry.crown[us.index()] & (1u128 << b) != 0);
                    Some(m.truncated(k, enemy_kings, crowned))
                }
                _ => None,
            })
    }

    /// One allowed chain to show: of the piece on `prefer` if it has one, else the first by
    /// written path.
    fn example(&self, allowed: &[Move], prefer: Bit) -> Move {
        let key = |m: &Move| (m.from() != prefer, self.path_text(m, true, true));
        allowed
            .iter()
            .min_by_key(|m| key(m))
            .copied()
            .expect("a capture exists")
    }

    /// A move written with every landing square (`full`) or start and end only.
    pub fn path_text(&self, mv: &Move, numeric: bool, full: bool) -> String {
        let mut s = String::with_capacity(16);
        self.push_path_text(&mut s, mv, numeric, full);
        s
    }

    /// Appends [`Draughts::path_text`] to `s`.
    pub fn push_path_text(&self, s: &mut String, mv: &Move, numeric: bool, full: bool) {
        let sep = if mv.is_capture() { 'x' } else { '-' };
        self.push_square_name(s, mv.from(), numeric);
        if full {
            for &b in mv.path() {
                s.push(sep);
                self.push_square_name(s, b, numeric);
            }
        } else {
            s.push(sep);
            self.push_square_name(s, mv.to(), numeric);
        }
    }

    fn numeric(&self) -> bool {
        self.variant.notation == crate::SquareStyle::Numeric
    }

    /// `(file, rank)` path of a move, for diagrams.
    pub fn coords_path(&self, mv: &Move) -> Vec<(u8, u8)> {
        std::iter::once(mv.from())
            .chain(mv.path().iter().copied())
            .map(|b| self.geometry.coords(b))
            .collect()
    }

    /// Words for a refusal of `shown`, as a [`Problem`] with the diagram paths filled.
    pub fn problem(&self, refusal: &Refusal, shown: &str, played: &[Bit]) -> Problem {
        // Examples are written in the token's own style.
        let numeric = match shown.trim_start().chars().next() {
            Some(c) if c.is_ascii_digit() => true,
            Some(c) if c.is_ascii_alphabetic() => false,
            _ => self.numeric(),
        };
        let ex = |m: &Move| self.path_text(m, numeric, true);
        let label = self.variant.label;
        let (code, message, suggested) = match refusal {
            Refusal::BadToken(e) => (Code::IllegalMove, e.to_string(), None),
            Refusal::Illegal(reason) => (
                Code::IllegalMove,
                format!("{shown} is illegal: {reason}"),
                None,
            ),
            Refusal::Ambiguous(moves) => {
                let mut names: Vec<String> = moves.iter().map(ex).collect();
                names.sort();
                (
                    Code::AmbiguousMove,
                    format!(
                        "{shown} is ambiguous: it fits {} captures that take different pieces ({}); write the full path",
                        names.len(),
                        names.join(", ")
                    ),
                    None,
                )
            }
            Refusal::MustContinue { at, example } => (
                Code::NonMaximalCapture,
                format!(
                    "{shown} is not allowed: the capture begun by the previous move was left unfinished; the piece on {} must go on capturing, e.g. {}",
                    self.square_name(*at, numeric),
                    ex(example)
                ),
                Some(*example),
            ),
            Refusal::Missed { example } => (
                Code::MissedCapture,
                format!(
                    "{shown} is not allowed: capturing is compulsory and there is a capture, e.g. {}",
                    ex(example)
                ),
                Some(*example),
            ),
            Refusal::Unfinished { taken, example } => (
                Code::NonMaximalCapture,
                format!(
                    "{shown} stops after taking {} although the capture must be played to its end{}: e.g. {}",
                    pieces(*taken),
                    self.unfinished_hint(played),
                    ex(example)
                ),
                Some(*example),
            ),
            Refusal::StoppedEarly { taken, example } => (
                Code::NonMaximalCapture,
                format!(
                    "{shown} stops on {} after taking {}, but a king must land where it can go on capturing ({label} rules): e.g. {}",
                    self.square_name(taken.to(), numeric),
                    pieces(taken.capture_count()),
                    ex(example)
                ),
                Some(*example),
            ),
            Refusal::NonMaximal { taken, example } => (
                Code::NonMaximalCapture,
                format!(
                    "{shown} {} ({label} rules): e.g. {}",
                    self.priority_broken(taken, example),
                    ex(example)
                ),
                Some(*example),
            ),
        };
        let played = match refusal {
            // Each move the token fits, along its own path: the token's squares alone would
            // draw a straight line that matches none of them.
            Refusal::Ambiguous(moves) => moves.iter().map(|m| self.coords_path(m)).collect(),
            _ => vec![played.iter().map(|&b| self.geometry.coords(b)).collect()],
        };
        let mut p = Problem::new(code, message).with_played(played);
        if let Some(m) = suggested {
            p = p.with_suggested(vec![self.coords_path(&m)]);
        }
        p
    }

    fn unfinished_hint(&self, played: &[Bit]) -> &'static str {
        let last = played.last().copied().unwrap_or(NONE);
        let on_crown_row = last != NONE
            && (self.geometry.crown[0] | self.geometry.crown[1]) & (1u128 << last) != 0;
        match self.rules.promotion {
            PromotionInCapture::ContinueAsMan if on_crown_row => {
                " (a man that reaches the far row during a capture goes on capturing as a man and is crowned only if it ends there)"
            }
            PromotionInCapture::ContinueAsKing if on_crown_row => {
                " (a man crowned during a capture goes on capturing as a king)"
            }
            _ => "",
        }
    }

    /// Which part of the capture rule the chain `taken` breaks, compared with `best`.
    fn priority_broken(&self, taken: &Move, best: &Move) -> String {
        let (t, b) = (taken.capture_count(), best.capture_count());
        let tk = taken.captured_kings().count_ones();
        let bk = best.captured_kings().count_ones();
        match self.rules.capture {
            CaptureRule::MajorityCount | CaptureRule::Free => {
                format!("takes {} but the majority rule demands {}", pieces(t), b)
            }
            CaptureRule::MajorityValue | CaptureRule::MajorityValueHalf => {
                let value = |n: usize, k: u32| -> usize {
                    if self.rules.capture == CaptureRule::MajorityValue {
                        100 * n + 99 * k as usize
                    } else {
                        2 * n + k as usize
                    }
                };
                if value(t, tk) == value(b, bk) {
                    "takes as much as the best capture, but then a king must do the capturing"
                        .to_string()
                } else {
                    format!(
                        "takes {} ({} kings) but a capture of greater value exists ({} with {} kings; a king counts {} men)",
                        pieces(t), tk, pieces(b), bk,
                        if self.rules.capture == CaptureRule::MajorityValue { "1.99" } else { "1.5" }
                    )
                }
            }
            CaptureRule::Italian => {
                if t < b {
                    format!(
                        "takes {} but the most pieces must be taken ({b})",
                        pieces(t)
                    )
                } else if !taken.is_king_move() && best.is_king_move() {
                    "captures with a man, but when captures take as many pieces a king must capture"
                        .to_string()
                } else if tk < bk {
                    format!("takes {tk} kings but a capture taking {bk} exists")
                } else {
                    "takes its kings later than another capture that must be preferred (kings first)"
                        .to_string()
                }
            }
            CaptureRule::CountThenKings => {
                if t < b {
                    format!(
                        "takes {} but the most pieces must be taken ({b})",
                        pieces(t)
                    )
                } else {
                    format!("takes {tk} kings but a capture taking as many pieces and {bk} kings exists")
                }
            }
            CaptureRule::KingFirst => {
                "captures with a man, but a king can capture and then a king must capture"
                    .to_string()
            }
        }
    }

    /// The reason no legal move fits, in words.
    fn explain(&self, pos: &Position, tok: Written<'_>) -> String {
        let g = self.geometry;
        let numeric = tok.numeric;
        let name = |b: Bit| self.square_name(b, numeric);
        let us = pos.side;
        let from = tok.squares[0];
        let Some((color, king)) = pos.piece_at(from) else {
            return format!("there is no piece on {}", name(from));
        };
        let what = if king { "king" } else { "man" };
        if color != us {
            return format!("{} holds a {color} {what} but {us} is to move", name(from));
        }
        let squares = tok.squares;
        let capture_written = tok.separator == Separator::Capture;
        if squares.len() == 2 && !capture_written {
            if let Some(r) = self.explain_step(pos, king, from, squares[1], numeric) {
                return r;
            }
        }
        // A step that passed is shaped like a jump: perhaps a capture written with `-`.
        if let Some(r) = self.explain_path(pos, king, squares, numeric) {
            return r;
        }
        if has_capture(g, &self.rules, pos) {
            let mut any_here = false;
            crate::for_each_chain_from(g, &self.rules, pos, from, &mut |_| any_here = true);
            if !any_here {
                return "a capture is compulsory and this piece has none".to_string();
            }
            if let [_, to] = squares {
                return format!(
                    "no capture of the {what} on {} ends on {}",
                    name(from),
                    name(*to)
                );
            }
            return format!("no capture of the {what} on {} goes this way", name(from));
        }
        format!("the {what} on {} has nothing to capture", name(from))
    }

    fn explain_step(
        &self,
        pos: &Position,
        king: bool,
        from: Bit,
        to: Bit,
        numeric: bool,
    ) -> Option<String> {
        let g = self.geometry;
        let name = |b: Bit| self.square_name(b, numeric);
        if from == to {
            return Some("a move must leave its square".to_string());
        }
        let rule = if king {
            self.king_move_rule()
        } else {
            self.man_direction_rule()
        };
        let off_line = || {
            let lines = match self.rules.movement {
                Movement::Diagonal => "one diagonal",
                Movement::Orthogonal => "one rank or file",
            };
            Some(format!(
                "{rule}, and {} and {} are not on {lines}",
                name(from),
                name(to)
            ))
        };
        // Orthogonal lines of a diagonal board serve only captures (Frisian), and diagonals of
        // an orthogonal game none.
        let Some((d, between)) = line(g, from, to) else {
            return off_line();
        };
        let wrong_kind = match self.rules.movement {
            Movement::Diagonal => d.is_orthogonal(),
            Movement::Orthogonal => !d.is_orthogonal(),
        };
        if wrong_kind {
            return off_line();
        }
        let blocker = between
            .iter()
            .find(|&&b| pos.occupied() & (1u128 << b) != 0);
        if !king
            && between.is_empty()
            && !crate::movegen::man_steps(&self.rules, pos.side).contains(&d)
        {
            return Some(rule.to_string());
        }
        if pos.occupied() & (1u128 << to) != 0 {
            return Some(format!("{} is occupied", name(to)));
        }
        let own = |b: Bit| pos.pieces(pos.side) & (1u128 << b) != 0;
        if !king {
            // One enemy piece right between: perhaps a capture written with `-`.
            let jump = between.len() == 1 && blocker.is_some_and(|&b| !own(b));
            if !between.is_empty() && !jump {
                return Some(format!(
                    "{rule}, and {} is {} squares from {}",
                    name(to),
                    between.len() + 1,
                    name(from)
                ));
            }
            return None;
        }
        if self.rules.king == KingRange::Short && !between.is_empty() && blocker.is_none() {
            return Some(format!(
                "a king moves one square in {} draughts",
                self.variant.label
            ));
        }
        if let Some(&b) = blocker {
            if own(b) {
                return Some(format!(
                    "the king's way is blocked by its own piece on {}",
                    name(b)
                ));
            }
            if between.len() == 1 {
                return None; // maybe a capture written with `-`
            }
            return Some(format!("the king's way is blocked at {}", name(b)));
        }
        let (sq, n) = pos.king_run[pos.side.index()];
        if self.rules.king_quiet_limit > 0 && sq == from && n >= self.rules.king_quiet_limit {
            return Some(format!(
                "this king has made {n} moves in a row without capturing, the most allowed while its side still has men"
            ));
        }
        None
    }

    /// How kings move, for a refused step.
    fn king_move_rule(&self) -> &'static str {
        match (self.rules.king, self.rules.movement) {
            (KingRange::Short, Movement::Diagonal) => "a king moves one square diagonally",
            (KingRange::Short, Movement::Orthogonal) => {
                "a king moves one square along a rank or file"
            }
            (_, Movement::Diagonal) => "a king moves along a diagonal over empty squares",
            (_, Movement::Orthogonal) => "a king moves along a rank or file over empty squares",
        }
    }

    /// How men move, for a refused step.
    fn man_direction_rule(&self) -> &'static str {
        match self.rules.movement {
            Movement::Diagonal => "a man moves one square diagonally forward",
            Movement::Orthogonal => "a man moves one square forward or sideways",
        }
    }

    /// Checks a token read as a capture, jump by jump, as the chain would be played.
    fn explain_path(
        &self,
        pos: &Position,
        king: bool,
        squares: &[Bit],
        numeric: bool,
    ) -> Option<String> {
        let g = self.geometry;
        let name = |b: Bit| self.square_name(b, numeric);
        let us = pos.side;
        let enemy = pos.pieces(us.opponent());
        let occ = pos.occupied() & !(1u128 << squares[0]);
        let mut taken: Bits = 0;
        let mut king_now = king;
        for w in squares.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a == b {
                return Some(format!("{} is named twice in a row", name(a)));
            }
            let Some((d, between)) = line(g, a, b) else {
                if squares.len() == 2 {
                    // Start and end only: a chain of several jumps may join them.
                    return None;
                }
                return Some(format!(
                    "{} and {} are not on one line a piece can capture along",
                    name(a),
                    name(b)
                ));
            };
            if let Some(why) = self.direction_rule(d) {
                return Some(why);
            }
            if occ & (1u128 << b) != 0 {
                return Some(format!("{} is occupied", name(b)));
            }
            let on_way: Vec<Bit> = between
                .iter()
                .copied()
                .filter(|&s| occ & (1u128 << s) != 0)
                .collect();
            let Some(&victim) = on_way.first() else {
                return Some(format!(
                    "there is no piece to capture between {} and {}",
                    name(a),
                    name(b)
                ));
            };
            if enemy & (1u128 << victim) == 0 {
                return Some(format!(
                    "a piece cannot jump its own piece on {}",
                    name(victim)
                ));
            }
            if taken & (1u128 << victim) != 0 {
                return Some(format!(
                    "the piece on {} was already taken in this move and cannot be jumped twice",
                    name(victim)
                ));
            }
            if on_way.len() > 1 {
                return Some(format!(
                    "a piece takes one piece per jump, but {} stand between {} and {}",
                    on_way.len(),
                    name(a),
                    name(b)
                ));
            }
            let jump = Jump {
                from: a,
                to: b,
                dir: d,
                between: &between,
                victim,
            };
            if let Some(why) = self.piece_rule(pos, king_now, &jump, numeric) {
                return Some(why);
            }
            taken |= 1u128 << victim;
            if !king_now && g.crown[us.index()] & (1u128 << b) != 0 {
                match self.rules.promotion {
                    PromotionInCapture::EndsMove if w[1] != *squares.last().unwrap_or(&b) => {
                        return Some(format!(
                            "a man that reaches the far row during a capture is crowned and the move ends there ({})",
                            name(b)
                        ));
                    }
                    PromotionInCapture::ContinueAsKing => king_now = true,
                    _ => {}
                }
            }
        }
        None
    }

    /// Why pieces of this variant cannot capture in direction `d`, if they cannot.
    fn direction_rule(&self, d: Dir) -> Option<String> {
        let label = self.variant.label;
        if self.rules.movement == Movement::Orthogonal && !d.is_orthogonal() {
            return Some(format!(
                "pieces capture along ranks and files in {label} draughts"
            ));
        }
        if self.rules.movement == Movement::Diagonal
            && d.is_orthogonal()
            && !self.rules.orthogonal_captures
        {
            return Some(format!("pieces capture diagonally in {label} draughts"));
        }
        None
    }

    /// Why a man (or a king, `king`) of the side to move may not make `jump`, if it may not:
    /// backwards, too long, over a king, or landing where the variant's kings do not.
    fn piece_rule(
        &self,
        pos: &Position,
        king: bool,
        jump: &Jump<'_>,
        numeric: bool,
    ) -> Option<String> {
        let label = self.variant.label;
        let name = |b: Bit| self.square_name(b, numeric);
        let us = pos.side;
        let (between, victim) = (jump.between, jump.victim);
        if !king {
            let dirs = crate::movegen::capture_dirs(&self.rules, us, false);
            if !dirs.contains(&jump.dir) {
                return Some(format!(
                    "a man does not capture backwards in {label} draughts"
                ));
            }
            if between.len() != 1 {
                return Some(format!(
                    "a man jumps from the square next to the piece it takes to the square right behind it ({}x{})",
                    name(jump.from),
                    name(jump.to)
                ));
            }
            if !self.rules.man_takes_king
                && pos.kings[us.opponent().index()] & (1u128 << victim) != 0
            {
                return Some(format!("a man may not take a king in {label} draughts"));
            }
        } else if self.rules.king == KingRange::Short && between.len() != 1 {
            return Some(format!(
                "a king jumps only an adjacent piece, to the square right behind it, in {label} draughts"
            ));
        } else if self.rules.king == KingRange::FlyingLandsBehind && between.last() != Some(&victim)
        {
            return Some(format!(
                "a king lands on the square right behind the piece it takes in {label} draughts"
            ));
        }
        None
    }
}

/// One jump of a path being explained.
struct Jump<'a> {
    from: Bit,
    to: Bit,
    dir: Dir,
    /// The squares strictly between `from` and `to`.
    between: &'a [Bit],
    /// The one piece on them.
    victim: Bit,
}

/// The direction from `a` to `b` and the squares strictly between, if they are on one line.
fn line(g: &Geometry, a: Bit, b: Bit) -> Option<(Dir, Vec<Bit>)> {
    for d in Dir::ALL {
        let mut between = Vec::new();
        let mut s = g.step(a, d);
        while s != NONE {
            if s == b {
                return Some((d, between));
            }
            between.push(s);
            s = g.step(s, d);
        }
    }
    None
}

fn pieces(n: usize) -> String {
    if n == 1 {
        "1 piece".to_string()
    } else {
        format!("{n} pieces")
    }
}

/// Step 2 of [`Draughts::resolve_capture`]: the allowed chains `squares` names whole,
/// one per result: the move when there is one, the ambiguity when there are several.
fn fitting(squares: &[Bit], allowed: &[Move]) -> Option<Result<Move, Refusal>> {
    let mut fits: Vec<Move> = Vec::new();
    for m in allowed {
        if fit(squares, m.from(), m.path().iter().copied()) == Fit::Whole
            && !fits.iter().any(|f| f.same_result(m))
        {
            fits.push(*m);
        }
    }
    match fits.len() {
        0 => None,
        1 => Some(Ok(fits[0])),
        _ => Some(Err(Refusal::Ambiguous(fits))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::walk_random_games;

    #[test]
    fn the_replay_resolver_agrees_with_resolve_token() {
        // Every written form of every legal move, and tokens one square off, on random games
        // of every variant: the replay's path (quiet moves built in place) gives the move
        // `resolve_token` gives, and refuses what it refuses.
        let (mut accepted, mut refused) = (0, 0);
        walk_random_games(0x2545_f491_4f6c_dd1d, 10, 120, |d, pos, moves| {
            for m in moves {
                for (numeric, full) in [(true, false), (true, true), (false, false)] {
                    let text = d.path_text(m, numeric, full);
                    let mut texts = vec![text.clone()];
                    // The same token with its last square moved one step along.
                    if let Some(last) = text.bytes().last().filter(u8::is_ascii_digit) {
                        let mut off = text.clone();
                        off.pop();
                        off.push(char::from(b'0' + (last - b'0' + 1) % 10));
                        texts.push(off);
                    }
                    for t in texts {
                        let want = d.resolve_token(pos, t.as_bytes()).ok();
                        let got = d
                            .resolve_for_replay(pos, t.as_bytes(), |_| {
                                Problem::new(Code::IllegalMove, "refused")
                            })
                            .ok();
                        assert_eq!(got, want, "{} {t}", d.variant.label);
                        if want.is_some() {
                            accepted += 1;
                        } else {
                            refused += 1;
                        }
                    }
                }
            }
        });
        assert!(
            accepted > 10_000 && refused > 1000,
            "{accepted} accepted, {refused} refused"
        );
    }

    /// The one-pass capture finder returns what the whole resolver returns, for every legal
    /// capture written short and in full, along random games of every variant.
    #[test]
    fn plain_capture_agrees_with_the_whole_resolver() {
        let mut checked = 0;
        walk_random_games(0x9e37_79b9_7f4a_7c15, 20, 150, |d, pos, _| {
            if !has_capture(d.geometry, &d.rules, pos) {
                return;
            }
            let mut all = Vec::new();
            for_each_chain(d.geometry, &d.rules, pos, &mut |m| all.push(*m));
            for m in &all {
                for full in [false, true] {
                    let text = d.path_text(m, true, full);
                    let tok = parse_token(&d.names(), text.as_bytes()).unwrap();
                    let written = Written {
                        squares: &tok.squares,
                        separator: tok.separator,
                        numeric: tok.numeric,
                    };
                    let whole = d.resolve_capture(pos, written).ok();
                    if let Some(fast) = d.plain_capture(pos, &tok.squares) {
                        assert_eq!(Some(fast), whole, "{} {text}", d.variant.label);
                        checked += 1;
                    }
                }
            }
        });
        assert!(checked > 1000, "only {checked} captures checked");
    }
}
