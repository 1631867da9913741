//! What a search needs of a game beyond its rules ([`Engine`]).
//!
//! The search (`crates/search`) is written once over this trait. Every method has a default
//! built on [`Explore`], so a game searches correctly with an empty `impl Engine for G {}`;
//! a rules crate overrides what it can answer faster (moves into a reused buffer, whether the
//! side to move must capture) or better (its evaluation).

use crate::{Explore, Seat};

/// The number of distinct values [`Engine::move_id`] may return: the size of the search's
/// killer and history tables per ply.
pub const MOVE_IDS: usize = 4096;

/// What a game gives its search.
pub trait Engine: Explore {
    /// How good `pos` is for `seat`, in hundredths of the game's smallest piece (a man in the
    /// draughts games: +100 is a man ahead), without looking ahead. Other seats' pieces count
    /// against `seat`. In a two-sided game the value for one side is minus the value for the
    /// other. Default: [`Explore::evaluate`], whose unit the game chose.
    fn value(&self, pos: &Self::Position, seat: Seat) -> i32 {
        self.evaluate(pos, seat)
    }

    /// The constant `k` of the game's winning-chances curve `2 / (1 + exp(-k * v)) - 1`,
    /// which turns a [`Engine::value`] `v` into the expected result between -1 (lost) and
    /// +1 (won). Default: 0.004, the constant lidraughts uses for hundredths of a man.
    fn curve(&self) -> f64 {
        0.004
    }

    /// Every legal move of `pos` (for the outcome of chance `chance`) into `out`, which is
    /// cleared first, in the same order on every call. Default: [`Explore::legal_moves`]
    /// (nothing when the moves cannot be listed).
    fn moves_into(&self, pos: &Self::Position, chance: &[u8], out: &mut Vec<Self::Move>) {
        out.clear();
        if let Ok(moves) = self.legal_moves(pos, chance) {
            out.extend(moves);
        }
    }

    /// True when the side to move has a capture it must make: the position is not quiet,
    /// and a search at its horizon goes on with the captures. Default: false (the search
    /// stops at its depth).
    fn must_capture(&self, pos: &Self::Position) -> bool {
        let _ = pos;
        false
    }

    /// True when the side not to move could capture if it were its turn: a quiet position
    /// that a search should not take at face value (the side to move may lose a piece unless
    /// it answers). Default: false.
    fn threat(&self, pos: &Self::Position) -> bool {
        let _ = pos;
        false
    }

    /// True when `mv` takes pieces, for move ordering. Default: the captures of
    /// [`crate::Game::facts`].
    fn is_capture(&self, pos: &Self::Position, mv: &Self::Move) -> bool {
        self.facts(pos, mv).captures > 0
    }

    /// The number of pieces on the board, for telling a combination (which gives pieces
    /// away to take more back) from a plain exchange. Default: the pieces of
    /// [`crate::Game::board`].
    fn piece_count(&self, pos: &Self::Position, seat: Seat) -> u32 {
        self.board(pos)
            .pieces
            .iter()
            .filter(|p| p.seat == Some(seat.0))
            .map(|p| u32::from(p.count) * if p.twin { 2 } else { 1 })
            .sum()
    }

    /// A number below [`MOVE_IDS`] standing for `mv` in `pos` (two moves from the same
    /// square to the same square may share it), for the killer and history tables. Default:
    /// the first and last squares of [`crate::Game::move_paths`].
    fn move_id(&self, pos: &Self::Position, mv: &Self::Move) -> u16 {
        let paths = self.move_paths(pos, mv);
        let square = |s: Option<&(u8, u8)>| s.map_or(0, |&(f, r)| u32::from(f) * 13 + u32::from(r));
        let first = paths.first().and_then(|p| p.first());
        let last = paths.last().and_then(|p| p.last());
        ((square(first) * 64 + square(last)) % MOVE_IDS as u32) as u16
    }
}
