//! The two colours (a module of its own, so that the variants and the positions can both
//! name them without importing each other).

use std::fmt;

/// A colour. White's men start on the high numbers (the bottom of the diagram) and move up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White (seat 0).
    White = 0,
    /// Black (seat 1).
    Black = 1,
}

impl Color {
    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline(always)]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `W` or `B`.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}
