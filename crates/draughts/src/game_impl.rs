//! [`game::Game`] for [`Draughts`], square names, results and move information.

use game::{
    zobrist, Board, BoardPiece, BoardStyle, Code, Game, Notation, Outcome, PlyFacts, Problem, Seat,
    SquarePath,
};

use crate::geometry::{Bit, Geometry};
use crate::movegen::{has_legal_move, legal_moves, Move};
use crate::position::{push_decimal, Color, Position};
use crate::token::SquareNames;
use crate::variant::{ResultStyle, SquareStyle, WinRule};
use crate::Draughts;

/// The squares of a variant as its records name them (numbers, and algebraic names that may be
/// given from Black's side).
#[derive(Debug, Clone, Copy)]
pub struct Names<'a> {
    geometry: &'a Geometry,
    from_black: bool,
}

impl SquareNames for Names<'_> {
    type Square = Bit;
    #[inline]
    fn numbered(&self, n: u32) -> Option<Bit> {
        self.geometry.from_number(n)
    }
    #[inline]
    fn at_coords(&self, file: u8, rank: u8) -> Option<Bit> {
        let g = self.geometry;
        if self.from_black {
            if file >= g.width || rank >= g.height {
                return None;
            }
            g.at(g.width - 1 - file, g.height - 1 - rank)
        } else {
            g.at(file, rank)
        }
    }
}

/// A move described for `arbiter moves --format json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveInfo {
    /// Start square (the variant's numbering).
    pub from: u32,
    /// End square.
    pub to: u32,
    /// Every square stopped on after the start.
    pub path: Vec<u32>,
    /// Captured squares, in the order taken.
    pub captured: Vec<u32>,
}

impl Draughts {
    /// The square names of this variant, for [`crate::parse_token`].
    pub fn names(&self) -> Names<'static> {
        Names {
            geometry: self.geometry,
            from_black: self.variant.algebraic_from_black,
        }
    }

    /// The name of a square: its number, or its algebraic name as the variant's records write
    /// it.
    pub fn square_name(&self, b: Bit, numeric: bool) -> String {
        let mut s = String::with_capacity(3);
        self.push_square_name(&mut s, b, numeric);
        s
    }

    /// Appends the name of a square ([`Draughts::square_name`]) to `s`.
    pub fn push_square_name(&self, s: &mut String, b: Bit, numeric: bool) {
        let g = self.geometry;
        if numeric {
            push_decimal(s, g.number(b));
            return;
        }
        let (mut f, mut r) = g.coords(b);
        if self.variant.algebraic_from_black {
            f = g.width - 1 - f;
            r = g.height - 1 - r;
        }
        s.push(char::from(b'a' + f));
        push_decimal(s, u32::from(r) + 1);
    }

    /// Squares of a legal move in the variant's numbering.
    pub fn move_info(&self, _pos: &Position, mv: &Move) -> MoveInfo {
        let g = self.geometry;
        MoveInfo {
            from: g.number(mv.from()),
            to: g.number(mv.to()),
            path: mv.path().iter().map(|&b| g.number(b)).collect(),
            captured: mv.taken().iter().map(|&b| g.number(b)).collect(),
        }
    }

    /// Writes `mv` (legal in `pos`): the short form unless another legal move with the same
    /// start and end takes different pieces, or full paths are asked for.
    pub fn format_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        let mut s = String::with_capacity(16);
        self.push_move(&mut s, pos, mv, notation);
        s
    }

    /// Appends [`Draughts::format_move`] to `s`.
    pub fn push_move(&self, s: &mut String, pos: &Position, mv: &Move, notation: Notation) {
        let mut full = notation.full_captures;
        if mv.is_capture() && !full && self.rival_chain_from(pos, mv) {
            // Another chain of this piece ends where `mv` does: is it a legal move?
            let mut list = Vec::new();
            legal_moves(self.geometry, &self.rules, pos, &mut list);
            full = list
                .iter()
                .any(|m| m.from() == mv.from() && m.to() == mv.to() && !m.same_result(mv));
        }
        self.push_path_text(s, mv, notation.numeric, full);
    }

    /// True when another complete chain of the piece that plays `mv` ends on the same square
    /// with different pieces taken (whether the capture rule allows it is not asked here).
    fn rival_chain_from(&self, pos: &Position, mv: &Move) -> bool {
        let mut rival = false;
        crate::for_each_chain_from(self.geometry, &self.rules, pos, mv.from(), &mut |m| {
            rival |= m.to() == mv.to() && !m.same_result(mv);
        });
        rival
    }

    fn win(&self, c: Color) -> Outcome {
        Outcome::Win {
            winner: Seat(c.index() as u8),
            loser: Some(Seat(c.opponent().index() as u8)),
        }
    }

    /// The colour a result's first number is about.
    fn first_scored(&self) -> Color {
        match self.variant.results {
            ResultStyle::OnePointFirstMover => self.variant.first,
            _ => Color::White,
        }
    }
}

impl Game for Draughts {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        self.variant.label
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &["White", "Black"]
    }

    /// The start position; a record from playstrategy (its `Site` tag) may split capture
    /// chains into one token per jump.
    fn start_position(&self, tags: &dyn Fn(&str) -> Option<String>) -> Result<Position, Problem> {
        let mut pos = self.start();
        pos.split_chains =
            tags("Site").is_some_and(|s| s.to_ascii_lowercase().contains("playstrategy"));
        Ok(pos)
    }

    fn parse_position(&self, text: &str) -> Result<Position, Problem> {
        Position::from_fen(self.geometry, text, self.variant.first)
            .map_err(|e| Problem::new(Code::BadFen, e.message))
    }

    fn write_position(&self, pos: &Position) -> String {
        pos.to_fen(self.geometry, true)
    }

    fn write_position_into(&self, pos: &Position, out: &mut String) {
        pos.write_fen(self.geometry, true, out);
    }

    /// Kinds: 0 White man, 1 White king, 2 Black man, 3 Black king; squares by the
    /// variant's numbers; the side to move by seat (0 White, 1 Black).
    fn position_key(&self, pos: &Position) -> u64 {
        let g = self.geometry;
        let mut key = zobrist::to_move(pos.side.index());
        for c in 0..2 {
            key ^= zobrist::pieces_u128(2 * c, pos.men[c], |b| g.number(b as Bit) as usize);
            key ^= zobrist::pieces_u128(2 * c + 1, pos.kings[c], |b| g.number(b as Bit) as usize);
        }
        key
    }

    fn position_key_after(&self, before: &Position, key: u64, after: &Position) -> u64 {
        let g = self.geometry;
        let mut key = key;
        if before.side != after.side {
            key ^= zobrist::to_move(before.side.index()) ^ zobrist::to_move(after.side.index());
        }
        let square = |b: u32| g.number(b as Bit) as usize;
        for c in 0..2 {
            key ^= zobrist::pieces_u128(2 * c, before.men[c] ^ after.men[c], square);
            key ^= zobrist::pieces_u128(2 * c + 1, before.kings[c] ^ after.kings[c], square);
        }
        key
    }

    fn to_move(&self, pos: &Position) -> Seat {
        Seat(pos.side.index() as u8)
    }

    /// Every token is a whole move (`starts_ply` is left true for every token).
    fn one_token_plies(&self) -> bool {
        true
    }

    fn resolve(&self, pos: &Position, tokens: &[&[u8]]) -> Result<Move, Problem> {
        let Some(first) = tokens.first() else {
            return Err(Problem::new(Code::IllegalMove, "an empty move"));
        };
        if tokens.len() > 1 {
            return Err(
                Problem::new(Code::IllegalMove, "a draughts ply is one move token").at_token(1),
            );
        }
        // A legal move means the game goes on, except in Breakthrough once a king stands.
        if self.variant.win == WinRule::FirstKingWins && (pos.kings[0] | pos.kings[1]) != 0 {
            return Err(Problem::new(
                Code::IllegalMove,
                "the game is already over: a king has been crowned",
            ));
        }
        self.resolve_for_replay(pos, first, |r| {
            if self.terminal(pos).is_some() {
                return Problem::new(
                    Code::IllegalMove,
                    "the game is already over: the side to move has no legal move",
                );
            }
            let text = String::from_utf8_lossy(first);
            let played = crate::token::parse_token(&self.names(), first)
                .map(|t| t.squares)
                .unwrap_or_default();
            self.problem(&r, text.trim(), &played)
        })
    }

    #[inline]
    fn play(&self, pos: &mut Position, mv: &Move) {
        self.play_move(pos, mv);
    }

    fn terminal(&self, pos: &Position) -> Option<Outcome> {
        if pos.pending.is_active() {
            return None;
        }
        if self.variant.win == WinRule::FirstKingWins {
            for c in [Color::White, Color::Black] {
                if pos.kings[c.index()] != 0 {
                    return Some(self.win(c));
                }
            }
        }
        if has_legal_move(self.geometry, &self.rules, pos) {
            return None;
        }
        Some(match self.variant.win {
            WinRule::NoMoveWins => self.win(pos.side),
            _ => self.win(pos.side.opponent()),
        })
    }

    fn parse_result(&self, text: &str) -> Option<Outcome> {
        let a = self.first_scored();
        match text.trim() {
            "1-0" | "2-0" => Some(self.win(a)),
            "0-1" | "0-2" => Some(self.win(a.opponent())),
            "1/2-1/2" | "1-1" | "½-½" => Some(Outcome::Draw),
            "*" | "0-0" => Some(Outcome::Unfinished),
            _ => None,
        }
    }

    fn write_result(&self, outcome: Outcome) -> String {
        let two = self.variant.results == ResultStyle::TwoPoints;
        let a = Seat(self.first_scored().index() as u8);
        match outcome {
            Outcome::Win { winner, .. } if winner == a => {
                if two {
                    "2-0"
                } else {
                    "1-0"
                }
            }
            Outcome::Win { .. } => {
                if two {
                    "0-2"
                } else {
                    "0-1"
                }
            }
            Outcome::Draw => {
                if two {
                    "1-1"
                } else {
                    "1/2-1/2"
                }
            }
            Outcome::Unfinished => "*",
        }
        .to_string()
    }

    fn default_notation(&self) -> Notation {
        Notation {
            numeric: self.variant.notation == SquareStyle::Numeric,
            full_captures: false,
        }
    }

    fn write_move(&self, pos: &Position, mv: &Move, notation: Notation) -> String {
        self.format_move(pos, mv, notation)
    }

    fn write_move_into(&self, pos: &Position, mv: &Move, notation: Notation, out: &mut String) {
        self.push_move(out, pos, mv, notation);
    }

    fn facts(&self, before: &Position, mv: &Move) -> PlyFacts {
        PlyFacts {
            mover: before.side.index() as u8,
            captures: mv.capture_count() as u8,
            capture_squares: mv
                .taken()
                .iter()
                .map(|&b| self.geometry.coords(b))
                .collect(),
            promotion: mv.is_promotion(),
            material: material_after(before, mv),
            ..PlyFacts::default()
        }
    }

    /// Works out the facts from the position before the move, then plays it. Counting the
    /// board after `play` would read the pieces right after they were written, and the load
    /// waits for those stores (it was most of this function's time in `stats`).
    fn play_with_facts(&self, pos: &mut Position, mv: &Move, facts: &mut PlyFacts) {
        facts.mover = pos.side.index() as u8;
        facts.captures = mv.capture_count() as u8;
        facts.promotion = mv.is_promotion();
        facts.material = material_after(pos, mv);
        for &b in mv.taken() {
            facts.capture_squares.push(self.geometry.coords(b));
        }
        self.play_move(pos, mv);
    }

    /// The board as players see it from White's side; turned boards are drawn with their dark
    /// squares where they are (a1 light).
    fn board(&self, pos: &Position) -> Board {
        let g = self.geometry;
        let style = match self.variant.squares {
            crate::Squares::All => BoardStyle::Checkered,
            crate::Squares::Dark => BoardStyle::DarkOnly,
            crate::Squares::DarkTurned => BoardStyle::DarkOnlyTurned,
        };
        let mut board = Board::new(
            g.width,
            g.height,
            style,
            self.seat_names(),
            self.to_move(pos),
        );
        for c in [Color::White, Color::Black] {
            for (bits, king) in [(pos.men[c.index()], false), (pos.kings[c.index()], true)] {
                for b in Geometry::squares(bits) {
                    let (file, rank) = g.coords(b);
                    board.pieces.push(BoardPiece {
                        king,
                        ..BoardPiece::man(file, rank, Some(c.index() as u8))
                    });
                }
            }
        }
        board
    }

    fn move_paths(&self, _pos: &Position, mv: &Move) -> Vec<SquarePath> {
        vec![self.coords_path(mv)]
    }
}

/// The pieces per colour on the board `mv` leaves, worked out from the position before it:
/// `play` removes the captured pieces once the chain is complete (a partial move leaves them
/// on the board until the chain ends) and never adds a piece.
fn material_after(before: &Position, mv: &Move) -> [u8; 4] {
    let us = before.side;
    let them = us.opponent();
    let removed = if mv.is_partial() || !mv.is_capture() {
        0
    } else {
        (mv.captured() & before.pieces(them)).count_ones()
    };
    let mut material = [0u8; 4];
    material[us.index()] = before.count(us) as u8;
    material[them.index()] = (before.count(them) - removed) as u8;
    material
}
