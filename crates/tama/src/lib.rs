//! Tama (Armenian draughts) for arbiter: positions, move generation, the move resolver,
//! position strings, notation and perft.
//!
//! The rules are those of the project's `docs/rules/tama.md`: 8x8 board, men that step and
//! capture forward and sideways, flying kings that capture orthogonally, captured pieces
//! removed at once, no 180° turn between jumps, the majority rule, and promotion in the middle
//! of a chain. [`Tama::ludii`] selects Ludii's reading of mid-chain promotion, and
//! [`Tama::schmidt`] the short-range kings of Ludii's "Observed" (Schmidt 1934) ruleset.
//!
//! Position strings are PDN FEN with algebraic or numeric squares, `K` for kings:
//! `W:Wa2,b2,Kd4:Ba7,h7` (side to move first; `?` reads as White; a trailing `.`, blanks,
//! empty lists, numeric squares 1–64 with ranges such as `W9-24` are accepted). Move tokens:
//! `c3-c4`, `c3xe5` (short), `c3xc5xe5` (full path), `c3:e5`, `c3c4`, `19-27`, `19x37`.
//! The full description is `docs/rules/tama.md` in the repository.
//!
//! Generation keeps complete capture chains ([`for_each_chain`], [`all_capture_chains`]) apart
//! from the majority rule ([`legal_moves`]), so that [`Tama::resolve_token`] can tell a legal
//! but too short capture (`non-maximal-capture`) from an illegal move.
//!
//! ```
//! use tama::{Position, Tama};
//! let rules = Tama::default();
//! let pos = Position::start();
//! assert_eq!(rules.perft(&pos, 2), 484);
//! let mv = rules.resolve_token(&pos, b"c3-c4").unwrap();
//! assert_eq!(mv.to().to_string(), "c4");
//! ```
#![deny(missing_docs)]

mod evaluate;
mod movegen;
mod moves;
mod notation;
mod position;
mod resolve;
mod square;
mod trials;

pub use movegen::{
    all_capture_chains, capturers, count_quiet, for_each_chain, for_each_chain_from, has_capture,
    has_legal_move, legal_moves, legal_moves_distinct, max_capture, perft, quiet_move, quiet_moves,
};
pub use moves::{Move, MoveList, MAX_JUMPS};
pub use notation::{format_path, parse_token, Separator, TamaSquares, Token};
pub use position::{FenError, Kind, Piece, Position};
pub use square::{Dir, Side, Square};
pub use trials::{write_tama_trial, TamaTrials, LUDII, TAMA_GAME};

use game::{
    zobrist, Board, BoardPiece, BoardStyle, Code, Game, Notation, Outcome, PlyFacts, Problem, Seat,
    SquarePath,
};

/// The rules of Tama, with the ruleset option.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Tama {
    /// Ludii's reading of rule 12: a man reaching the far rank by a jump goes on capturing as
    /// a man and is crowned when the chain ends.
    pub ludii: bool,
    /// The `schmidt` option, Ludii's "Observed" ruleset after Schmidt (1934): kings are
    /// short-range. A king steps one square along any of the eight lines and captures like a
    /// man by a short jump over an adjacent piece, but in all four orthogonal directions.
    pub schmidt: bool,
}

/// The `ludii` ruleset option (see [`Tama::ludii`]).
pub const LUDII_OPTION: game::RuleOption = game::RuleOption {
    name: "ludii",
    help: "a man reaching the far rank by a jump goes on capturing as a man (Ludii's Wikipedia ruleset)",
};

/// The `schmidt` ruleset option (see [`Tama::schmidt`]).
pub const SCHMIDT_OPTION: game::RuleOption = game::RuleOption {
    name: "schmidt",
    help: "short-range kings: one step on any line, captures by a short orthogonal jump (Ludii's Observed ruleset)",
};

/// Tama in the game registry.
pub static INFO: game::GameInfo = game::GameInfo {
    id: "tama",
    label: "Tama",
    variant_tag: "Tama",
    aliases: &["Armenian", "Armenian draughts"],
    game_types: &[],
    options: &[LUDII_OPTION, SCHMIDT_OPTION],
    seat_names: &["White", "Black"],
    numeric_squares: true,
    profile: game::Profile {
        two_sides: true,
        shared_pieces: false,
        chance: None,
        counters: &[],
        board: game::BoardShape {
            files: 8,
            ranks: 8,
            style: game::BoardStyle::Checkered,
        },
    },
    codes: &[],
    claims: &[],
};

impl Tama {
    /// The default rules.
    pub const DEFAULT: Tama = Tama {
        ludii: false,
        schmidt: false,
    };
    /// The `ludii` ruleset option.
    pub const LUDII: Tama = Tama {
        ludii: true,
        schmidt: false,
    };
    /// The `schmidt` ruleset option (short-range kings).
    pub const SCHMIDT: Tama = Tama {
        ludii: false,
        schmidt: true,
    };

    /// The same rules with the `ludii` option set to `ludii`.
    pub const fn with_ludii(self, ludii: bool) -> Tama {
        Tama { ludii, ..self }
    }

    /// The rules for an option list such as `"ludii"` or `"schmidt"` (empty = default),
    /// checked against [`INFO`]; the error says which options exist.
    pub fn with_options(options: &str) -> Result<Tama, game::OptionError> {
        INFO.parse_options(options).map(|o| Tama::from_options(&o))
    }

    /// The rules for a validated option set (see [`INFO`]).
    pub fn from_options(options: &game::Options) -> Tama {
        Tama {
            ludii: options.has(&LUDII_OPTION),
            schmidt: options.has(&SCHMIDT_OPTION),
        }
    }

    /// Fills `list` with every legal move; for captures every landing-square variant.
    pub fn legal_moves(&self, pos: &Position, list: &mut MoveList) {
        movegen::legal_moves_with(pos, *self, list);
    }

    /// Fills `list` with one move per resulting position.
    pub fn legal_moves_distinct(&self, pos: &Position, list: &mut MoveList) {
        movegen::legal_moves_distinct_with(pos, *self, list);
    }

    /// Fills `list` with every complete capture chain, before the majority rule.
    pub fn all_capture_chains(&self, pos: &Position, list: &mut MoveList) {
        movegen::all_chains_with(pos, *self, list);
    }

    /// Pieces taken by the best capture chain (0 when there is no capture).
    pub fn max_capture(&self, pos: &Position) -> usize {
        movegen::max_capture_with(pos, *self)
    }

    /// Leaf count `depth` plies ahead (moves with the same result counted once).
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        movegen::perft_with(pos, depth, *self)
    }

    /// True when the side to move has a legal move under these rules.
    pub fn has_legal_move(&self, pos: &Position) -> bool {
        movegen::has_legal_move_with(pos, *self)
    }

    /// Every legal move as a full path (`c3-c4`, `c3xc5xe5`, a king's flying capture with the
    /// square it lands on after each jump), sorted, each written once. Flying captures that
    /// differ only in intermediate landing squares appear once per path.
    pub fn move_strings(&self, pos: &Position) -> Vec<String> {
        let mut list = MoveList::new();
        self.legal_moves(pos, &mut list);
        let mut v: Vec<String> = list.iter().map(Move::full_path).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Resolves one move token (see the crate docs for what is accepted).
    pub fn resolve_token(&self, pos: &Position, token: &[u8]) -> Result<Move, Problem> {
        resolve::resolve(pos, *self, token)
    }

    /// Writes `mv` (legal in `pos`). The short capture form is used unless another legal move
    /// with the same start and end captures different pieces; then the full path is written.
    pub fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        let mut s = String::with_capacity(8);
        self.push_move(&mut s, pos, mv, notation);
        s
    }

    /// Appends [`Tama::format_move`] to `s`.
    pub fn push_move(&self, s: &mut String, pos: &Position, mv: &Move, notation: Notation) {
        let mut full = notation.full_captures;
        if mv.is_capture() && !full && self.rival_chain_from(pos, mv) {
            let mut list = MoveList::new();
            self.legal_moves(pos, &mut list);
            full = list
                .iter()
                .any(|m| m.from() == mv.from() && m.to() == mv.to() && !m.same_result(mv));
        }
        notation::write_path(s, mv, notation.numeric, full);
    }

    /// True when another complete chain of the piece that plays `mv` ends on the same square
    /// with different pieces taken (whether the majority rule allows it is not asked here):
    /// without one, the short form names `mv` alone.
    fn rival_chain_from(&self, pos: &Position, mv: &Move) -> bool {
        let mut rival = false;
        movegen::chains_from(pos, *self, mv.from(), &mut |m| {
            rival |= m.to() == mv.to() && !m.same_result(mv);
        });
        rival
    }
}

impl Game for Tama {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "Tama"
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["White", "Black"]
    }

    fn start_position(&self, _tags: &dyn Fn(&str) -> Option<String>) -> Result<Position, Problem> {
        Ok(Position::start())
    }

    fn parse_position(&self, text: &str) -> Result<Position, Problem> {
        Position::from_fen(text).map_err(|e| Problem::new(Code::BadFen, e.message))
    }

    fn write_position(&self, pos: &Position) -> String {
        pos.to_fen()
    }

    fn write_position_into(&self, pos: &Position, out: &mut String) {
        pos.write_fen(false, out);
    }

    /// Kinds: 0 White man, 1 White king, 2 Black man, 3 Black king; squares numbered
    /// 1 = a1 … 64 = h8; the side to move by seat (0 White, 1 Black).
    fn position_key(&self, pos: &Position) -> u64 {
        let mut key = zobrist::to_move(pos.side_to_move().index());
        for (c, side) in [Side::White, Side::Black].into_iter().enumerate() {
            key ^= zobrist::pieces_u64(2 * c, pos.men(side), square_number);
            key ^= zobrist::pieces_u64(2 * c + 1, pos.kings(side), square_number);
        }
        key
    }

    fn position_key_after(&self, before: &Position, key: u64, after: &Position) -> u64 {
        let mut key = key;
        let (b, a) = (before.side_to_move(), after.side_to_move());
        if b != a {
            key ^= zobrist::to_move(b.index()) ^ zobrist::to_move(a.index());
        }
        for (c, side) in [Side::White, Side::Black].into_iter().enumerate() {
            let men = before.men(side) ^ after.men(side);
            let kings = before.kings(side) ^ after.kings(side);
            key ^= zobrist::pieces_u64(2 * c, men, square_number);
            key ^= zobrist::pieces_u64(2 * c + 1, kings, square_number);
        }
        key
    }

    fn to_move(&self, pos: &Position) -> Seat {
        Seat(pos.side_to_move().index() as u8)
    }

    /// Every token is a whole move (`starts_ply` is left true for every token).
    fn one_token_plies(&self) -> bool {
        true
    }

    fn resolve(&self, pos: &Position, tokens: &[&[u8]]) -> Result<Move, Problem> {
        match tokens {
            [] => Err(Problem::new(Code::IllegalMove, "an empty move")),
            [one] => self.resolve_token(pos, one),
            [first, ..] => self.resolve_token(pos, first).and(Err(Problem::new(
                Code::IllegalMove,
                "a Tama ply is one move token",
            )
            .at_token(1))),
        }
    }

    #[inline]
    fn play(&self, pos: &mut Position, mv: &Move) {
        pos.play(mv);
    }

    fn terminal(&self, pos: &Position) -> Option<Outcome> {
        if self.has_legal_move(pos) {
            None
        } else {
            Some(Outcome::Win {
                winner: Seat(pos.side_to_move().opponent().index() as u8),
                loser: Some(Seat(pos.side_to_move().index() as u8)),
            })
        }
    }

    fn parse_result(&self, text: &str) -> Option<Outcome> {
        let white = Outcome::Win {
            winner: Seat(0),
            loser: Some(Seat(1)),
        };
        let black = Outcome::Win {
            winner: Seat(1),
            loser: Some(Seat(0)),
        };
        match text.trim() {
            "1-0" | "2-0" => Some(white),
            "0-1" | "0-2" => Some(black),
            "1/2-1/2" | "1-1" | "½-½" => Some(Outcome::Draw),
            // `0-0` (International convention: no result / both lost) is read as unknown.
            "*" | "0-0" => Some(Outcome::Unfinished),
            _ => None,
        }
    }

    fn write_result(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Win {
                winner: Seat(0), ..
            } => "1-0",
            Outcome::Win { .. } => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unfinished => "*",
        }
        .to_string()
    }

    fn write_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        self.format_move(pos, mv, notation)
    }

    fn write_move_into(&self, pos: &Position, mv: &Move, notation: Notation, out: &mut String) {
        self.push_move(out, pos, mv, notation);
    }

    fn facts(&self, before: &Position, mv: &Move) -> PlyFacts {
        let mut after = *before;
        let mut facts = PlyFacts::default();
        self.play_with_facts(&mut after, mv, &mut facts);
        facts
    }

    /// Plays the move in place and reads the material from the position after it (one
    /// play instead of the default's copy, play and play again).
    fn play_with_facts(&self, pos: &mut Position, mv: &Move, facts: &mut PlyFacts) {
        facts.mover = pos.side_to_move().index() as u8;
        pos.play(mv);
        facts.captures = mv.capture_count() as u8;
        facts.promotion = mv.is_promotion();
        facts.material = [
            pos.count(Side::White) as u8,
            pos.count(Side::Black) as u8,
            0,
            0,
        ];
        for s in mv.captured() {
            facts.capture_squares.push((s.file() as u8, s.rank() as u8));
        }
    }

    /// An 8×8 checkered board; seat 0 (White) light, seat 1 (Black) dark.
    fn board(&self, pos: &Position) -> Board {
        let mut board = Board::new(
            8,
            8,
            BoardStyle::Checkered,
            self.seat_names(),
            self.to_move(pos),
        );
        for side in [Side::White, Side::Black] {
            for (bits, king) in [(pos.men(side), false), (pos.kings(side), true)] {
                let mut bb = bits;
                while bb != 0 {
                    let sq = Square::from_index_unchecked(bb.trailing_zeros() as u8);
                    bb &= bb - 1;
                    let (file, rank) = resolve::coords(sq);
                    board.pieces.push(BoardPiece {
                        king,
                        ..BoardPiece::man(file, rank, Some(side.index() as u8))
                    });
                }
            }
        }
        board
    }

    /// One path: the start square and every landing square.
    fn move_paths(&self, _pos: &Position, mv: &Move) -> Vec<SquarePath> {
        vec![resolve::move_path(mv)]
    }
}

impl game::Explore for Tama {
    fn legal_moves(&self, pos: &Position, _chance: &[u8]) -> Result<Vec<Move>, game::Problem> {
        let mut list = MoveList::new();
        self.legal_moves_distinct(pos, &mut list);
        Ok(list.iter().cloned().collect())
    }

    fn describe(&self, pos: &Position, mv: &Move) -> game::MoveInfo {
        let path: Vec<String> = std::iter::once(mv.from())
            .chain(mv.path().iter().copied())
            .map(|s| s.to_string())
            .collect();
        game::MoveInfo {
            notation: self.write_move(pos, mv, self.default_notation()),
            from: path.first().cloned(),
            to: path.last().cloned(),
            captured: mv.captured().iter().map(Square::to_string).collect(),
            path,
        }
    }

    /// What [`Explore::describe`] gives, written into `out` without allocating.
    fn describe_into(&self, pos: &Position, mv: &Move, out: &mut game::TextList) {
        self.push_move(out.open(), pos, mv, self.default_notation());
        out.close();
        let end = mv.path().last().copied().unwrap_or(mv.from());
        for sq in [mv.from(), end]
            .into_iter()
            .chain(mv.captured().iter().copied())
        {
            notation::push_square(out.open(), sq, false);
            out.close();
        }
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        Tama::perft(self, pos, depth)
    }

    /// Material (man 100, king 300), advancement and mobility.
    fn evaluate(&self, pos: &Position, seat: Seat) -> i32 {
        let side = if seat.0 == 0 {
            Side::White
        } else {
            Side::Black
        };
        evaluate::evaluate(pos, side)
    }
}

use game::perft_file::PerftRulesError;

impl game::perft_file::PerftRules for Tama {
    fn from_variant(variant: &str) -> Result<Tama, PerftRulesError> {
        match game::perft_file::split_variant(variant) {
            ("tama", options) => Ok(Tama::with_options(&options)?),
            (other, _) => Err(PerftRulesError::OtherGame {
                given: other.to_string(),
                game: "tama",
            }),
        }
    }

    fn perft_fen(&self, fen: &str, depth: u32) -> Result<u64, PerftRulesError> {
        let pos = if fen.eq_ignore_ascii_case("start") {
            Position::start()
        } else {
            Position::from_fen(fen).map_err(|e| PerftRulesError::Position(e.into()))?
        };
        Ok(self.perft(&pos, depth))
    }
}

/// A square's number in position keys: bit `b` is square `b + 1` (1 = a1 … 64 = h8).
#[inline(always)]
fn square_number(bit: u32) -> usize {
    bit as usize + 1
}

/// The search's hooks: captures are compulsory, so a position with one is not quiet.
impl game::Engine for Tama {
    fn must_capture(&self, pos: &Position) -> bool {
        movegen::has_capture_with(pos, *self)
    }

    fn threat(&self, pos: &Position) -> bool {
        movegen::has_capture_with(&pos.with_side_to_move(pos.side_to_move().opponent()), *self)
    }

    fn is_capture(&self, _pos: &Position, mv: &Move) -> bool {
        !mv.captured().is_empty()
    }
}
