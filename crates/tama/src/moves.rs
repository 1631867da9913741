//! Moves and move lists.

use std::fmt;

use crate::square::Square;

/// The most pieces one chain can take (a side has at most 16 pieces).
pub const MAX_JUMPS: usize = 16;

/// A whole-turn move: a quiet step or slide, or a complete capture chain.
///
/// `path` holds the landing squares in order (one for a quiet move, one per jump for a
/// capture); `captured` the captured squares in capture order. A king's flying jump records
/// the square it actually landed on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    len: u8,
    captures: u8,
    promotion: bool,
    path: [Square; MAX_JUMPS],
    captured: [Square; MAX_JUMPS],
    captured_mask: u64,
}

impl Move {
    /// A quiet move (no capture).
    #[inline]
    pub const fn quiet(from: Square, to: Square, promotion: bool) -> Move {
        let mut path = [Square::A1; MAX_JUMPS];
        path[0] = to;
        Move {
            from,
            len: 1,
            captures: 0,
            promotion,
            path,
            captured: [Square::A1; MAX_JUMPS],
            captured_mask: 0,
        }
    }

    /// An empty chain starting at `from` (used while building captures).
    #[inline]
    pub(crate) const fn chain_start(from: Square) -> Move {
        Move {
            from,
            len: 0,
            captures: 0,
            promotion: false,
            path: [Square::A1; MAX_JUMPS],
            captured: [Square::A1; MAX_JUMPS],
            captured_mask: 0,
        }
    }

    #[inline]
    pub(crate) fn push_jump(&mut self, captured: Square, landing: Square) {
        let i = self.len as usize;
        self.path[i] = landing;
        self.captured[i] = captured;
        self.len += 1;
        self.captures += 1;
        self.captured_mask |= captured.bit();
    }

    #[inline]
    pub(crate) fn pop_jump(&mut self) {
        self.len -= 1;
        self.captures -= 1;
        self.captured_mask &= !self.captured[self.len as usize].bit();
    }

    #[inline]
    pub(crate) fn set_promotion(&mut self, p: bool) {
        self.promotion = p;
    }

    /// The square the piece starts from.
    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The square the piece ends on.
    #[inline]
    pub const fn to(&self) -> Square {
        if self.len == 0 {
            self.from
        } else {
            self.path[self.len as usize - 1]
        }
    }

    /// Landing squares in order (one for a quiet move).
    #[inline]
    pub fn path(&self) -> &[Square] {
        &self.path[..self.len as usize]
    }

    /// Captured squares in capture order (empty for a quiet move).
    #[inline]
    pub fn captured(&self) -> &[Square] {
        &self.captured[..self.captures as usize]
    }

    /// Bitboard of the captured squares.
    #[inline]
    pub const fn captured_mask(&self) -> u64 {
        self.captured_mask
    }

    /// Number of pieces captured.
    #[inline]
    pub const fn capture_count(&self) -> usize {
        self.captures as usize
    }

    /// True for a capture.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.captures != 0
    }

    /// True when a man is crowned by this move.
    #[inline]
    pub const fn is_promotion(&self) -> bool {
        self.promotion
    }

    /// True when `other` leads to the same position: same start, end, captured set and
    /// promotion (flying captures that differ only in intermediate landing squares).
    #[inline]
    pub fn same_result(&self, other: &Move) -> bool {
        self.from == other.from
            && self.to() == other.to()
            && self.captured_mask == other.captured_mask
            && self.promotion == other.promotion
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}", self.full_path())?;
        if self.promotion {
            f.write_str(" +K")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.full_path())
    }
}

/// A reusable list of moves. Clear and refill it: after warm-up, generation allocates nothing.
#[derive(Clone, Default)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> Self {
        MoveList {
            moves: Vec::with_capacity(64),
        }
    }

    /// Removes every move, keeping the storage.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }

    /// Keeps the moves for which `f` is true.
    #[inline]
    pub fn retain(&mut self, f: impl FnMut(&Move) -> bool) {
        self.moves.retain(f);
    }

    /// Keeps one move per resulting position (see [`Move::same_result`]), the first found.
    pub fn dedup_results(&mut self) {
        let mut kept = 0;
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            if !self.moves[..kept].iter().any(|k| k.same_result(&m)) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.moves.truncate(kept);
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.moves.iter()).finish()
    }
}
