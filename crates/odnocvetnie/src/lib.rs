//! Odnocvetnie Shashki ("monochrome draughts") for arbiter: four seats, one set of 42 ownerless
//! men on the 50 dark squares of a 10x10 board.
//!
//! The rules are those of the project's `docs/rules/odnocvetnie.md` (section 2 of the shared
//! rules page): every seat may move and capture every piece; "forward" depends on the seat
//! (South +rank, West +file, North −rank, East −file); captured pieces stay on the board until
//! the move ends; majority rule; a man crowned by a capture stops there; the man moved in the
//! previous turn is locked for one turn; the first seat that cannot move loses and the seat that
//! moved last wins.
//!
//! Layers:
//! - [`Square`], [`SquareSet`], [`Side`]: the board (numeric squares 1–50 as in international
//!   draughts seen from South, algebraic `a1`–`j10` as the alternative);
//! - [`Position`]: pieces, seat to move, lock; the position string (`S:M1-17,20,21,K33:L28`);
//! - move generation on [`Position`] (`legal_moves`, `capture_chains`, `max_capture`,
//!   `locked_piece_moves`, `paths`, `perft`), returning [`Move`]s;
//! - [`parse_token`], [`resolve`], [`write_move`]: notation and the resolver;
//! - [`Odnocvetnie`]: the `game::Game` implementation used by the referee.
#![deny(missing_docs)]

mod evaluate;
mod movegen;
mod notation;
mod position;
mod resolve;
mod square;

pub use movegen::{Move, MovePath};
pub use notation::{
    parse_token, write_move, MoveToken, OdnocvetnieSquares, Separator, MAX_TOKEN_SQUARES,
};
pub use position::{Piece, Position, PositionError, START_EMPTY};
pub use resolve::{resolve, resolve_token};
pub use square::{Algebraic, Side, Square, SquareIter, SquareSet, Styled};

use game::{
    Board, BoardPiece, BoardStyle, Code, Notation, Outcome, PlyFacts, Problem, Seat, SquareMark,
    SquarePath,
};

/// The tag naming the seat that moves first in the start position: `[FirstSeat "W"]` (a seat
/// letter or name, any case). `First` is read as an alias.
pub const FIRST_SEAT_TAG: &str = "FirstSeat";

/// The game, with its ruleset options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Odnocvetnie {
    /// `lock-any-piece`: a man crowned in the previous turn stays locked this turn (by default
    /// the crowned damka is free, as a damka is never locked).
    pub lock_any_piece: bool,
    /// `elimination`: a seat with no move drops out and play goes on. **Not implemented**: a
    /// game with this option set is refused by [`game::Game::start_position`] and
    /// [`game::Game::parse_position`] with a `bad-tag` problem.
    pub elimination: bool,
}

const SEAT_NAMES: [&str; 4] = ["South", "West", "North", "East"];

/// A move of the man locked by the previous turn: Odnocvetnie's own diagnostic code.
pub const LOCKED_PIECE: game::Code = game::Code::Game(&game::CodeInfo {
    name: "locked-piece",
    help: "Odnocvetnie Shashki: the man moved in the previous turn may not move now",
    suggested: None,
});

/// The `lock-any-piece` ruleset option (see [`Odnocvetnie::lock_any_piece`]).
pub const LOCK_ANY_PIECE_OPTION: game::RuleOption = game::RuleOption {
    name: "lock-any-piece",
    help: "a man crowned in the previous turn stays locked this turn",
};

/// The `elimination` ruleset option (see [`Odnocvetnie::elimination`]).
pub const ELIMINATION_OPTION: game::RuleOption = game::RuleOption {
    name: "elimination",
    help: "a seat with no move drops out and play goes on (not supported: records asking for it are refused)",
};

/// Odnocvetnie Shashki in the game registry.
pub static INFO: game::GameInfo = game::GameInfo {
    id: "odnocvetnie",
    label: "Odnocvetnie Shashki",
    variant_tag: "Odnocvetnie",
    aliases: &["Odnocvetnie Shashki", "Monochrome", "Monochrome draughts"],
    game_types: &[],
    options: &[LOCK_ANY_PIECE_OPTION, ELIMINATION_OPTION],
    seat_names: &SEAT_NAMES,
    numeric_squares: true,
    profile: game::Profile {
        two_sides: false,
        shared_pieces: true,
        chance: None,
        counters: &[],
        board: game::BoardShape {
            files: 10,
            ranks: 10,
            style: game::BoardStyle::DarkOnly,
        },
    },
    codes: &[LOCKED_PIECE],
    claims: &[],
};

impl Odnocvetnie {
    /// The rules for a validated option set (see [`INFO`]).
    pub fn from_options(options: &game::Options) -> Odnocvetnie {
        Odnocvetnie {
            lock_any_piece: options.has(&LOCK_ANY_PIECE_OPTION),
            elimination: options.has(&ELIMINATION_OPTION),
        }
    }

    fn refuse_unsupported(&self) -> Result<(), Problem> {
        if self.elimination {
            return Err(Problem::new(
                Code::BadTag,
                "the ruleset option `elimination` is not supported for Odnocvetnie Shashki",
            ));
        }
        Ok(())
    }

    /// Perft under this ruleset (see [`Position::perft`]).
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        pos.perft_with(depth, self.lock_any_piece)
    }

    /// Every legal move of `pos` as full paths (every path of every move), sorted, written
    /// numerically or algebraically: `["17x28x39", "31-27", …]`.
    pub fn legal_move_texts(&self, pos: &Position, numeric: bool) -> Vec<String> {
        pos.legal_paths().iter().map(|p| p.write(numeric)).collect()
    }
}

impl game::Game for Odnocvetnie {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "Odnocvetnie Shashki"
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &SEAT_NAMES
    }

    fn start_position(&self, tags: &dyn Fn(&str) -> Option<String>) -> Result<Position, Problem> {
        self.refuse_unsupported()?;
        let first = match tags(FIRST_SEAT_TAG).or_else(|| tags("First")) {
            None => Side::South,
            Some(v) if v.trim().is_empty() || v.trim() == "?" => Side::South,
            Some(v) => Side::parse(&v).ok_or_else(|| {
                Problem::new(
                    Code::BadTag,
                    format!(
                        "[{FIRST_SEAT_TAG} \"{v}\"] does not name a seat: write S, W, N or E (or South, West, North, East)"
                    ),
                )
            })?,
        };
        Ok(Position::start_with(first))
    }

    fn parse_position(&self, text: &str) -> Result<Position, Problem> {
        self.refuse_unsupported()?;
        Position::parse_with(text, self.lock_any_piece)
            .map_err(|e| Problem::new(Code::BadFen, e.message().to_string()))
    }

    fn write_position(&self, pos: &Position) -> String {
        pos.to_fen()
    }

    fn write_position_into(&self, pos: &Position, out: &mut String) {
        pos.write_fen(out);
    }

    /// Kinds: 0 man, 1 damka (the pieces have no owner); squares by number (1..=50); the
    /// seat to move (0 South … 3 East); extra feature `n`: the piece on square `n` is locked.
    fn position_key(&self, pos: &Position) -> u64 {
        pos.key()
    }

    fn position_key_after(&self, before: &Position, key: u64, after: &Position) -> u64 {
        before.key_after(key, after)
    }

    fn to_move(&self, pos: &Position) -> Seat {
        Seat(pos.side_to_move().index())
    }

    /// Every token is a whole move (`starts_ply` is left true for every token).
    fn one_token_plies(&self) -> bool {
        true
    }

    fn resolve(&self, pos: &Position, tokens: &[&[u8]]) -> Result<Move, Problem> {
        match tokens {
            [one] => resolve(pos, one),
            [] => Err(Problem::new(Code::IllegalMove, "empty move")),
            many => resolve(pos, &many.join(&b' ')),
        }
    }

    #[inline]
    fn play(&self, pos: &mut Position, mv: &Move) {
        pos.play_with(mv, self.lock_any_piece);
    }

    fn terminal(&self, pos: &Position) -> Option<Outcome> {
        if pos.has_legal_move() {
            return None;
        }
        let side = pos.side_to_move();
        Some(Outcome::Win {
            winner: Seat(side.prev().index()),
            loser: Some(Seat(side.index())),
        })
    }

    fn parse_result(&self, text: &str) -> Option<Outcome> {
        let t = text.trim();
        match t {
            "*" => return Some(Outcome::Unfinished),
            "1/2-1/2" => return Some(Outcome::Draw),
            _ => {}
        }
        let seat = |c: u8| -> Option<Seat> {
            Side::ALL
                .into_iter()
                .find(|s| s.letter() as u8 == c)
                .map(|s| Seat(s.index()))
        };
        match t.as_bytes() {
            [w, b'+'] => Some(Outcome::Win {
                winner: seat(*w)?,
                loser: None,
            }),
            [w, b'+', l, b'-'] => {
                let (winner, loser) = (seat(*w)?, seat(*l)?);
                (winner != loser).then_some(Outcome::Win {
                    winner,
                    loser: Some(loser),
                })
            }
            _ => None,
        }
    }

    fn write_result(&self, outcome: Outcome) -> String {
        let letter = |s: Seat| Side::from_index(s.0).letter();
        match outcome {
            Outcome::Win { winner, loser } => match loser {
                Some(l) => format!("{}+{}-", letter(winner), letter(l)),
                None => format!("{}+", letter(winner)),
            },
            Outcome::Draw => "1/2-1/2".to_string(),
            Outcome::Unfinished => "*".to_string(),
        }
    }

    /// Records of this game number the squares 1–50, as in international draughts.
    fn default_notation(&self) -> Notation {
        Notation {
            numeric: true,
            full_captures: false,
        }
    }

    fn write_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        write_move(pos, mv, notation.numeric, notation.full_captures)
    }

    fn write_move_into(&self, pos: &Position, mv: &Move, notation: Notation, out: &mut String) {
        notation::push_move(out, pos, mv, notation.numeric, notation.full_captures);
    }

    fn facts(&self, before: &Position, mv: &Move) -> PlyFacts {
        let captures = mv.capture_count() as u8;
        PlyFacts {
            mover: before.side_to_move().index(),
            captures,
            capture_squares: mv.captured().iter().map(|s| (s.file(), s.rank())).collect(),
            promotion: mv.promotes(),
            material: [before.pieces().len() as u8 - captures, 0, 0, 0],
            ..PlyFacts::default()
        }
    }

    /// Plays the move and reads the men left from the position after it.
    fn play_with_facts(&self, pos: &mut Position, mv: &Move, facts: &mut PlyFacts) {
        facts.mover = pos.side_to_move().index();
        pos.play_with(mv, self.lock_any_piece);
        facts.captures = mv.capture_count() as u8;
        facts.promotion = mv.promotes();
        facts.material = [pos.pieces().len() as u8, 0, 0, 0];
        for s in mv.captured() {
            facts.capture_squares.push((s.file(), s.rank()));
        }
    }

    /// A 10×10 board, dark squares only; every piece ownerless. The locked man is marked
    /// and named in a note.
    fn board(&self, pos: &Position) -> Board {
        let mut board = Board::new(
            10,
            10,
            BoardStyle::DarkOnly,
            &SEAT_NAMES,
            Seat(pos.side_to_move().index()),
        );
        for (set, king) in [(pos.men(), false), (pos.damki(), true)] {
            for sq in set {
                board.pieces.push(BoardPiece {
                    king,
                    ..BoardPiece::man(sq.file(), sq.rank(), None)
                });
            }
        }
        if let Some(sq) = pos.locked() {
            board.marks.push((sq.file(), sq.rank(), SquareMark::Locked));
            let piece = pos.piece_at(sq).map_or("piece", Piece::name);
            board.notes.push(format!(
                "The {piece} on {} ({}) was moved by {} in the previous turn and is locked.",
                sq.number(),
                sq.algebraic(),
                pos.side_to_move().prev()
            ));
        }
        board
    }

    /// One path: the start and every landing square (the first path in square order when a
    /// damka's capture can land on several squares between jumps).
    fn move_paths(&self, pos: &Position, mv: &Move) -> Vec<SquarePath> {
        pos.paths(mv)
            .into_iter()
            .next()
            .map(|p| resolve::coords(&p.squares))
            .into_iter()
            .collect()
    }
}

impl game::Explore for Odnocvetnie {
    fn legal_moves(&self, pos: &Position, _chance: &[u8]) -> Result<Vec<Move>, Problem> {
        let mut list = Vec::new();
        pos.legal_moves(&mut list);
        Ok(list)
    }

    fn describe(&self, pos: &Position, mv: &Move) -> game::MoveInfo {
        let path: Vec<String> = pos
            .paths(mv)
            .first()
            .map(|p| p.squares.iter().map(Square::to_string).collect())
            .unwrap_or_default();
        game::MoveInfo {
            notation: game::Game::write_move(self, pos, mv, game::Game::default_notation(self)),
            from: path.first().cloned(),
            to: path.last().cloned(),
            captured: mv.captured().iter().map(|s| s.to_string()).collect(),
            path,
        }
    }

    /// What [`game::Explore::describe`] gives, written into `out` without allocating: the
    /// start and end of a legal move are the ends of its path.
    fn describe_into(&self, pos: &Position, mv: &Move, out: &mut game::TextList) {
        notation::push_move(out.open(), pos, mv, true, false);
        out.close();
        let ends = [mv.from(), mv.to()];
        for sq in ends.into_iter().chain(mv.captured().iter()) {
            sq.push_styled(out.open(), true);
            out.close();
        }
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        Odnocvetnie::perft(self, pos, depth)
    }

    /// Mobility: the seat's own against the next seat's.
    fn evaluate(&self, pos: &Position, seat: game::Seat) -> i32 {
        evaluate::evaluate(pos, Side::from_index(seat.0))
    }

    /// One game in eight starts with a seat other than South, named by a `FirstSeat` tag.
    fn seating(
        &self,
        _players: u8,
        random: &mut dyn FnMut() -> u32,
    ) -> Vec<(&'static str, String)> {
        if game::below(random, 8) != 0 {
            return Vec::new();
        }
        let first = Side::from_index(1 + game::below(random, 3) as u8);
        vec![(FIRST_SEAT_TAG, first.letter().to_string())]
    }
}

use game::perft_file::PerftRulesError;

impl game::perft_file::PerftRules for Odnocvetnie {
    fn from_variant(variant: &str) -> Result<Odnocvetnie, PerftRulesError> {
        match game::perft_file::split_variant(variant) {
            ("odnocvetnie", options) => {
                Ok(Odnocvetnie::from_options(&INFO.parse_options(&options)?))
            }
            (other, _) => Err(PerftRulesError::OtherGame {
                given: other.to_string(),
                game: "odnocvetnie",
            }),
        }
    }

    fn perft_fen(&self, fen: &str, depth: u32) -> Result<u64, PerftRulesError> {
        let pos = if fen.eq_ignore_ascii_case("start") {
            Position::start()
        } else {
            Position::parse_with(fen, self.lock_any_piece)
                .map_err(|e| PerftRulesError::Position(e.into()))?
        };
        Ok(self.perft(&pos, depth))
    }
}

/// The search's hooks: the defaults, over this game's own evaluation (mobility).
impl game::Engine for Odnocvetnie {}
