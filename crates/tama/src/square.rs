//! Squares, sides and directions of the 8x8 board.

use std::fmt;

/// One of the 64 squares. Index 0 is `a1`, 1 is `b1`, …, 7 is `h1`, 8 is `a2`, …, 63 is `h8`
/// (the file is `index % 8`, the rank `index / 8`). The numeric square name is `index + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// `a1`.
    pub const A1: Square = Square(0);

    /// The square with this index (0..=63), or `None`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), or `None` off the board.
    #[inline]
    pub const fn from_coords(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    /// The square with a numeric name 1..=64 (1 = a1, 8 = h1, 9 = a2, 64 = h8).
    #[inline]
    pub const fn from_number(n: u32) -> Option<Square> {
        if n >= 1 && n <= 64 {
            Some(Square((n - 1) as u8))
        } else {
            None
        }
    }

    /// Internal: a square from an index known to be below 64.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The index 0..=63 (a1 = 0).
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The numeric name 1..=64.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// File 0..=7 (0 = a).
    #[inline]
    pub const fn file(self) -> i8 {
        (self.0 & 7) as i8
    }

    /// Rank 0..=7 (0 = rank 1).
    #[inline]
    pub const fn rank(self) -> i8 {
        (self.0 >> 3) as i8
    }

    /// The single-bit board of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The neighbouring square one step in `dir`, or `None` off the board.
    #[inline]
    pub const fn step(self, dir: Dir) -> Option<Square> {
        let (df, dr) = dir.delta();
        Square::from_coords(self.file() + df, self.rank() + dr)
    }

    /// The algebraic name, e.g. `"c3"`.
    pub fn name(self) -> [u8; 2] {
        [b'a' + (self.0 & 7), b'1' + (self.0 >> 3)]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.name();
        write!(f, "{}{}", a as char, b as char)
    }
}

/// A side (colour). White moves first and starts on ranks 2–3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The first player, moving towards rank 8.
    White = 0,
    /// The second player, moving towards rank 1.
    Black = 1,
}

impl Side {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction straight forward for this side's men.
    #[inline]
    pub const fn forward(self) -> Dir {
        match self {
            Side::White => Dir::N,
            Side::Black => Dir::S,
        }
    }

    /// The rank (0..=7) where this side's men are crowned.
    #[inline]
    pub const fn far_rank(self) -> i8 {
        match self {
            Side::White => 7,
            Side::Black => 0,
        }
    }

    /// Bitboard of the crowning rank.
    #[inline]
    pub const fn far_rank_mask(self) -> u64 {
        match self {
            Side::White => 0xFF00_0000_0000_0000,
            Side::Black => 0xFF,
        }
    }

    /// `"White"` or `"Black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// `"white"` or `"black"`.
    pub const fn adjective(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the eight directions on the board (north = towards rank 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// +rank.
    N = 0,
    /// +file.
    E = 1,
    /// −rank.
    S = 2,
    /// −file.
    W = 3,
    /// +file +rank.
    NE = 4,
    /// +file −rank.
    SE = 5,
    /// −file −rank.
    SW = 6,
    /// −file +rank.
    NW = 7,
}

impl Dir {
    /// The four orthogonal directions (the only capture directions).
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
    /// All eight directions.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::E,
        Dir::S,
        Dir::W,
        Dir::NE,
        Dir::SE,
        Dir::SW,
        Dir::NW,
    ];

    /// (file step, rank step).
    #[inline]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
            Dir::NE => (1, 1),
            Dir::SE => (1, -1),
            Dir::SW => (-1, -1),
            Dir::NW => (-1, 1),
        }
    }

    /// The direction turned by 180°.
    #[inline]
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::E => Dir::W,
            Dir::S => Dir::N,
            Dir::W => Dir::E,
            Dir::NE => Dir::SW,
            Dir::SE => Dir::NW,
            Dir::SW => Dir::NE,
            Dir::NW => Dir::SE,
        }
    }

    /// True for N, E, S, W.
    #[inline]
    pub const fn is_orthogonal(self) -> bool {
        (self as u8) < 4
    }

    /// The direction from `a` to `b` if they lie on one rank, file or diagonal (and differ).
    pub fn between(a: Square, b: Square) -> Option<Dir> {
        let df = b.file() - a.file();
        let dr = b.rank() - a.rank();
        if df == 0 && dr == 0 {
            return None;
        }
        if df != 0 && dr != 0 && df.abs() != dr.abs() {
            return None;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        Dir::ALL.into_iter().find(|d| d.delta() == (sf, sr))
    }
}
