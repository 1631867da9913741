//! Squares, square sets, seats and diagonal directions of the 10x10 board.
//!
//! Only the 50 dark squares are used. A square is named by its *index* 0..=49 (the numeric name,
//! as in international draughts seen from South, is `index + 1`: 1 = b10, 5 = j10, 6 = a9,
//! 46 = a1, 50 = i1) or algebraically, `a1`..`j10`.
//!
//! Inside the crate, sets of squares are 64-bit boards in the classic *padded* layout: square
//! index `i` lives at bit `i + i / 10`, so bits 10, 21, 32, 43 and 54 are never used. With that
//! gap a diagonal step is the same bit offset from every square (−6, −5, +6, +5), and a step off
//! the board always lands on an unused bit or outside 0..54.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign, Sub};

/// Every bit that stands for a dark square.
pub(crate) const VALID: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 50 {
        m |= 1 << (i + i / 10);
        i += 1;
    }
    m
};

/// Direction indices, clockwise: up-left (file −1, rank +1), up-right, down-right, down-left.
pub(crate) const UL: usize = 0;
/// Up-right: file +1, rank +1.
pub(crate) const UR: usize = 1;
/// Down-right: file +1, rank −1.
pub(crate) const DR: usize = 2;
/// Down-left: file −1, rank −1.
pub(crate) const DL: usize = 3;

/// Bit offset of one diagonal step in each direction.
const OFFSET: [i8; 4] = [-6, -5, 6, 5];

/// "No square" in the step table.
pub(crate) const NONE: u8 = 255;

/// `NEXT[d][bit]`: the bit position one step in direction `d`, or [`NONE`].
pub(crate) const NEXT: [[u8; 64]; 4] = {
    let mut t = [[NONE; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut p = 0;
        while p < 54 {
            if VALID >> p & 1 == 1 {
                let n = p as i16 + OFFSET[d] as i16;
                if n >= 0 && n < 54 && VALID >> n & 1 == 1 {
                    t[d][p] = n as u8;
                }
            }
            p += 1;
        }
        d += 1;
    }
    t
};

/// The direction opposite to `d`.
#[inline]
pub(crate) const fn opposite(d: usize) -> usize {
    (d + 2) & 3
}

/// Shifts every square of `b` one diagonal step in direction `d` (squares that leave the board
/// disappear).
#[inline]
pub(crate) const fn shift(b: u64, d: usize) -> u64 {
    (match d {
        UL => b >> 6,
        UR => b >> 5,
        DR => b << 6,
        _ => b << 5,
    }) & VALID
}

/// One of the 50 dark squares, by index 0..=49 (numeric name = index + 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// The square with this index (0..=49), or `None`.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 50 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this numeric name (1..=50), or `None`.
    #[inline]
    pub const fn from_number(number: u8) -> Option<Square> {
        if number >= 1 && number <= 50 {
            Some(Square(number - 1))
        } else {
            None
        }
    }

    /// The dark square at `file` (0 = a … 9 = j) and `rank` (0 = rank 1 … 9 = rank 10), or
    /// `None` if that is off the board or a light square.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file > 9 || rank > 9 || (file + rank) & 1 != 0 {
            return None;
        }
        Some(Square((9 - rank) * 5 + file / 2))
    }

    /// The index 0..=49.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The numeric name 1..=50.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The rank 0..=9 (0 = rank 1, South's edge).
    #[inline]
    pub const fn rank(self) -> u8 {
        9 - self.0 / 5
    }

    /// The file 0..=9 (0 = file a, West's edge).
    #[inline]
    pub const fn file(self) -> u8 {
        2 * (self.0 % 5) + self.rank() % 2
    }

    /// Reads `"28"` (numeric, leading zeros allowed) or `"e5"` (algebraic, either case).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        match b.first()? {
            b'0'..=b'9' => {
                if b.len() > 3 || !b.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                let n = b.iter().fold(0u16, |n, &c| n * 10 + u16::from(c - b'0'));
                Square::from_number(u8::try_from(n).ok()?)
            }
            c => {
                let file = c.to_ascii_lowercase().checked_sub(b'a')?;
                let digits = &b[1..];
                if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                let rank = digits.iter().fold(0u8, |n, &c| n * 10 + (c - b'0'));
                Square::from_coords(file, rank.checked_sub(1)?)
            }
        }
    }

    /// A displayable algebraic name, e.g. `e5`.
    #[inline]
    pub const fn algebraic(self) -> Algebraic {
        Algebraic(self)
    }

    /// The square in the requested style: numeric (`28`) or algebraic (`e5`).
    #[inline]
    pub const fn styled(self, numeric: bool) -> Styled {
        Styled {
            square: self,
            numeric,
        }
    }

    /// Appends the square in the requested style ([`Square::styled`]) to `s`.
    pub fn push_styled(self, s: &mut String, numeric: bool) {
        let digits = |s: &mut String, n: u8| {
            if n >= 10 {
                s.push(char::from(b'0' + n / 10));
            }
            s.push(char::from(b'0' + n % 10));
        };
        if numeric {
            digits(s, self.number());
        } else {
            s.push(char::from(b'a' + self.file()));
            digits(s, self.rank() + 1);
        }
    }

    /// Bit position in the padded layout.
    #[inline]
    pub(crate) const fn pos(self) -> u8 {
        self.0 + self.0 / 10
    }

    /// The single-bit board of this square.
    #[inline]
    pub(crate) const fn bit(self) -> u64 {
        1u64 << self.pos()
    }

    /// The square at a (valid) bit position.
    #[inline]
    pub(crate) const fn from_pos(pos: u8) -> Square {
        Square(pos - pos / 11)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.number(), f)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.number(), self.algebraic())
    }
}

/// Algebraic display of a square (`e5`), from [`Square::algebraic`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Algebraic(Square);

impl fmt::Display for Algebraic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.0.file()),
            self.0.rank() + 1
        )
    }
}

/// A square displayed numerically or algebraically, from [`Square::styled`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Styled {
    square: Square,
    numeric: bool,
}

impl fmt::Display for Styled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.numeric {
            fmt::Display::fmt(&self.square, f)
        } else {
            fmt::Display::fmt(&self.square.algebraic(), f)
        }
    }
}

/// A set of squares (a bitboard). Iterates in ascending square order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub(crate) u64);

impl SquareSet {
    /// No square.
    pub const EMPTY: SquareSet = SquareSet(0);
    /// All 50 squares.
    pub const ALL: SquareSet = SquareSet(VALID);

    /// The set holding only `sq`.
    #[inline]
    pub const fn single(sq: Square) -> SquareSet {
        SquareSet(sq.bit())
    }

    /// True if `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= sq.bit();
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !sq.bit();
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True if the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares not in the set.
    #[inline]
    pub const fn complement(self) -> SquareSet {
        SquareSet(!self.0 & VALID)
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_pos(self.0.trailing_zeros() as u8))
        }
    }

    /// Iterates the squares in ascending order.
    #[inline]
    pub fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|s| s.number()))
            .finish()
    }
}

impl BitOr for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 | rhs.0)
    }
}

impl BitOrAssign for SquareSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: SquareSet) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn bitand(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 & rhs.0)
    }
}

impl Sub for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn sub(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 & !rhs.0)
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareIter;
    fn into_iter(self) -> SquareIter {
        self.iter()
    }
}

/// Iterator over a [`SquareSet`], ascending.
#[derive(Clone, Debug)]
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square::from_pos(p))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareIter {}

/// A seat at the board. Turn order is clockwise: South, West, North, East.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum Side {
    /// Sits at rank 1; moves men towards rank 10.
    South = 0,
    /// Sits at file a; moves men towards file j.
    West = 1,
    /// Sits at rank 10; moves men towards rank 1.
    North = 2,
    /// Sits at file j; moves men towards file a.
    East = 3,
}

impl Side {
    /// The four seats in turn order.
    pub const ALL: [Side; 4] = [Side::South, Side::West, Side::North, Side::East];

    /// The seat's index: 0 South, 1 West, 2 North, 3 East (as `game::Seat`).
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The seat with this index (taken modulo 4).
    #[inline]
    pub const fn from_index(index: u8) -> Side {
        Side::ALL[(index & 3) as usize]
    }

    /// The seat that moves after this one.
    #[inline]
    pub const fn next(self) -> Side {
        Side::from_index(self as u8 + 1)
    }

    /// The seat that moved before this one.
    #[inline]
    pub const fn prev(self) -> Side {
        Side::from_index(self as u8 + 3)
    }

    /// The seat letter `S`, `W`, `N` or `E`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::West => 'W',
            Side::North => 'N',
            Side::East => 'E',
        }
    }

    /// The seat's name, `South` … `East`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::West => "West",
            Side::North => "North",
            Side::East => "East",
        }
    }

    /// Reads a seat letter or name, in any case (`S`, `south`, `West`, …).
    pub fn parse(text: &str) -> Option<Side> {
        let t = text.trim();
        Side::ALL.into_iter().find(|s| {
            t.eq_ignore_ascii_case(s.name())
                || (t.len() == 1 && t.as_bytes()[0].eq_ignore_ascii_case(&(s.letter() as u8)))
        })
    }

    /// The mover's far edge, where its men are crowned, e.g. `"rank 10"`.
    pub const fn far_edge_name(self) -> &'static str {
        match self {
            Side::South => "rank 10",
            Side::West => "file j",
            Side::North => "rank 1",
            Side::East => "file a",
        }
    }

    /// The squares of the mover's far edge.
    #[inline]
    pub const fn far_edge(self) -> SquareSet {
        SquareSet(FAR_EDGE[self as usize])
    }

    /// The two forward diagonal directions of this seat.
    #[inline]
    pub(crate) const fn forward(self) -> [usize; 2] {
        let s = self as usize;
        [s, (s + 1) & 3]
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Far edge bitboards, by seat.
const FAR_EDGE: [u64; 4] = {
    let mut t = [0u64; 4];
    let mut i = 0u8;
    while i < 50 {
        let Some(sq) = Square::from_index(i) else {
            unreachable!()
        };
        if sq.rank() == 9 {
            t[0] |= sq.bit();
        }
        if sq.file() == 9 {
            t[1] |= sq.bit();
        }
        if sq.rank() == 0 {
            t[2] |= sq.bit();
        }
        if sq.file() == 0 {
            t[3] |= sq.bit();
        }
        i += 1;
    }
    t
};

/// Which diagonal direction leads from `a` to `b`, and in how many steps; `None` if they do not
/// share a diagonal (or are equal).
pub(crate) fn diagonal(a: Square, b: Square) -> Option<(usize, u8)> {
    let df = i16::from(b.file()) - i16::from(a.file());
    let dr = i16::from(b.rank()) - i16::from(a.rank());
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    let d = match (df > 0, dr > 0) {
        (false, true) => UL,
        (true, true) => UR,
        (true, false) => DR,
        (false, false) => DL,
    };
    Some((d, df.unsigned_abs() as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_appended_as_they_display() {
        for n in 1..=50 {
            let sq = Square::from_number(n).unwrap();
            for numeric in [true, false] {
                let mut s = String::from(">");
                sq.push_styled(&mut s, numeric);
                assert_eq!(s[1..], sq.styled(numeric).to_string());
            }
        }
    }

    #[test]
    fn numbering_matches_international_draughts() {
        let name = |n: u8| Square::from_number(n).unwrap().algebraic().to_string();
        assert_eq!(name(1), "b10");
        assert_eq!(name(5), "j10");
        assert_eq!(name(6), "a9");
        assert_eq!(name(10), "i9");
        assert_eq!(name(46), "a1");
        assert_eq!(name(50), "i1");
        for i in 0..50 {
            let sq = Square::from_index(i).unwrap();
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), Some(sq));
            assert_eq!(Square::from_pos(sq.pos()), sq);
            assert_eq!(Square::parse(&sq.algebraic().to_string()), Some(sq));
            assert_eq!(Square::parse(&sq.number().to_string()), Some(sq));
        }
        assert_eq!(Square::parse("a2"), None, "light square");
        assert_eq!(Square::parse("51"), None);
        assert_eq!(Square::parse("0"), None);
        assert_eq!(Square::parse("k1"), None);
        assert_eq!(Square::parse("007"), Square::from_number(7));
    }

    #[test]
    fn steps_and_shifts_agree_with_coordinates() {
        let delta = [(-1i16, 1i16), (1, 1), (1, -1), (-1, -1)];
        for i in 0..50 {
            let sq = Square::from_index(i).unwrap();
            for (d, &(df, dr)) in delta.iter().enumerate() {
                let f = i16::from(sq.file()) + df;
                let r = i16::from(sq.rank()) + dr;
                let expect = if (0..10).contains(&f) && (0..10).contains(&r) {
                    Square::from_coords(f as u8, r as u8)
                } else {
                    None
                };
                let got = NEXT[d][sq.pos() as usize];
                let got = (got != NONE).then(|| Square::from_pos(got));
                assert_eq!(got, expect, "{sq:?} dir {d}");
                let shifted = shift(sq.bit(), d);
                assert_eq!(shifted, expect.map_or(0, |s| s.bit()), "{sq:?} shift {d}");
                if let Some(e) = expect {
                    assert_eq!(diagonal(sq, e), Some((d, 1)));
                }
            }
        }
    }
}
