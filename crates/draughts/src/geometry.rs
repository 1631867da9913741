//! Board geometry: where each playable square sits in a bitboard, its neighbours, and its
//! names (number and algebraic).
//!
//! Squares are bits of a `u128` in the padded ("ghost square") layout: playable squares are
//! numbered row by row from the top (Black's side), and one unused bit follows every two rows.
//! With `half` squares per row, a diagonal step is then a fixed shift (up-left `-(half+1)`,
//! up-right `-half`, down-left `+half`, down-right `+(half+1)`) and a step off the left or
//! right edge lands on an unused bit, which the board mask removes.
//!
//! Internally every board is laid out like International (a1 dark, the top row starting on
//! the b file). A turned board (a1 light: Italian, Spanish, Portuguese) is its mirror image:
//! the rules are left-right symmetric, so only the names of the squares differ.

use std::sync::OnceLock;

use crate::variant::{Squares, Variant};

/// A square: its bit index in the padded layout.
pub type Bit = u8;

/// A set of squares.
pub type Bits = u128;

/// No neighbour in that direction.
pub const NONE: Bit = u8::MAX;

/// The eight directions: four diagonal steps, then the four orthogonal jumps between dark
/// squares (two ranks up or down, two files left or right), used by Frisian captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    /// Up-left (towards Black, file down).
    NW = 0,
    /// Up-right.
    NE = 1,
    /// Down-left.
    SW = 2,
    /// Down-right.
    SE = 3,
    /// Two ranks up (one rank where every square is used; so for the other three).
    N = 4,
    /// Two ranks down.
    S = 5,
    /// Two files left.
    W = 6,
    /// Two files right.
    E = 7,
}

impl Dir {
    /// Every direction, diagonal first.
    pub const ALL: [Dir; 8] = [
        Dir::NW,
        Dir::NE,
        Dir::SW,
        Dir::SE,
        Dir::N,
        Dir::S,
        Dir::W,
        Dir::E,
    ];
    /// The diagonal directions.
    pub const DIAGONAL: [Dir; 4] = [Dir::NW, Dir::NE, Dir::SW, Dir::SE];
    /// The orthogonal directions.
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::S, Dir::W, Dir::E];

    /// `(file step, rank step)` of one step.
    const fn delta(self) -> (i8, i8) {
        match self {
            Dir::NW => (-1, 1),
            Dir::NE => (1, 1),
            Dir::SW => (-1, -1),
            Dir::SE => (1, -1),
            Dir::N => (0, 2),
            Dir::S => (0, -2),
            Dir::W => (-2, 0),
            Dir::E => (2, 0),
        }
    }

    /// True for the four orthogonal directions.
    pub fn is_orthogonal(self) -> bool {
        self as u8 >= 4
    }
}

/// One board layout.
#[derive(Debug)]
pub struct Geometry {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// a1 is light (the board's names are mirrored).
    pub turned: bool,
    /// Every square is playable (Turkish).
    pub all_squares: bool,
    /// Playable squares per row.
    pub half: u32,
    /// Number of playable squares.
    pub count: usize,
    /// Every playable square.
    pub mask: Bits,
    /// The top row (White crowns here) and the bottom row (Black crowns here).
    pub crown: [Bits; 2],
    /// bit of internal square number `n` (index `n - 1`).
    bit_of: Vec<Bit>,
    /// internal square number of each bit (0 = not a square).
    number_of: [u8; 128],
    /// Neighbour of each bit in each direction ([`crate::NO_SQUARE`] when off the board).
    next: [[Bit; 128]; 8],
    /// The bit shift of one step in each direction.
    offsets: [i32; 8],
    /// `(file, rank)` of each bit as players name it (see [`Geometry::coords`]).
    coords_of: [(u8, u8); 128],
    /// The bit of each square number as the variant counts (index `n`; [`NONE`] where there
    /// is no such square).
    by_number: [Bit; 129],
    /// The variant's number of each bit (0 = not a square).
    numbers: [u8; 128],
    /// Square numbers grow with bits, so a bit scan lists squares in number order.
    numbers_follow_bits: bool,
}

impl Geometry {
    fn build(width: u8, height: u8, turned: bool, all_squares: bool) -> Geometry {
        let (half, count) = if all_squares {
            (u32::from(width), usize::from(width) * usize::from(height))
        } else {
            (
                u32::from(width / 2),
                usize::from(width) * usize::from(height) / 2,
            )
        };
        let h = half as i32;
        let offsets = if all_squares {
            // One unused bit after every rank.
            [-(h + 2), -h, h, h + 2, -(h + 1), h + 1, -1, 1]
        } else {
            [-(h + 1), -h, h, h + 1, -(2 * h + 1), 2 * h + 1, -1, 1]
        };
        let mut g = Geometry {
            width,
            height,
            turned,
            all_squares,
            half,
            count,
            mask: 0,
            crown: [0, 0],
            bit_of: Vec::with_capacity(count),
            number_of: [0; 128],
            next: [[NONE; 128]; 8],
            offsets,
            coords_of: [(0, 0); 128],
            by_number: [NONE; 129],
            numbers: [0; 128],
            numbers_follow_bits: false,
        };
        for n in 1..=count {
            // Dark boards: one unused bit every two rows (`width` squares); boards using
            // every square: one after every row (also `width` squares).
            let b = (n - 1) + (n - 1) / usize::from(width);
            g.bit_of.push(b as Bit);
            g.number_of[b] = n as u8;
            g.mask |= 1u128 << b;
        }
        for n in 1..=count {
            let b = g.bit_of[n - 1];
            let (f, r) = g.internal_coords(b);
            if r == height - 1 {
                g.crown[0] |= 1u128 << b;
            }
            if r == 0 {
                g.crown[1] |= 1u128 << b;
            }
            for d in Dir::ALL {
                let (df, dr) = if all_squares && d.is_orthogonal() {
                    let (df, dr) = d.delta();
                    (df / 2, dr / 2)
                } else {
                    d.delta()
                };
                let (nf, nr) = (f as i8 + df, r as i8 + dr);
                if let Some(t) = g.internal_at(nf, nr) {
                    g.next[d as usize][b as usize] = t;
                }
            }
            g.coords_of[b as usize] = g.coords_computed(b);
        }
        for n in 1..=count as u32 {
            if let Some(b) = g.number_to_bit_computed(n) {
                g.by_number[n as usize] = b;
                g.numbers[usize::from(b)] = n as u8;
            }
        }
        let bits = &g.by_number[1..=count];
        g.numbers_follow_bits = bits.windows(2).all(|w| w[0] < w[1]);
        g
    }

    /// `bits` laid out again so that bit `n - 1` stands for square number `n`: a bit scan of
    /// the result lists the squares in the variant's number order.
    pub fn in_number_order(&self, bits: Bits) -> Bits {
        let mut ordered = 0;
        for b in Self::squares(bits & self.mask) {
            ordered |= 1u128 << (self.number(b).wrapping_sub(1) & 127);
        }
        ordered
    }

    /// True when square numbers grow with bits: [`Geometry::squares`] then lists squares in
    /// number order.
    pub fn numbers_follow_bits(&self) -> bool {
        self.numbers_follow_bits
    }

    /// The geometry a variant plays on.
    pub fn of(v: &Variant) -> &'static Geometry {
        static G8: OnceLock<Geometry> = OnceLock::new();
        static G8T: OnceLock<Geometry> = OnceLock::new();
        static G10: OnceLock<Geometry> = OnceLock::new();
        static G12: OnceLock<Geometry> = OnceLock::new();
        static G8ALL: OnceLock<Geometry> = OnceLock::new();
        let turned = v.squares == Squares::DarkTurned;
        let all = v.squares == Squares::All;
        let cell = match (v.width, turned, all) {
            (_, _, true) => &G8ALL,
            (8, false, _) => &G8,
            (8, true, _) => &G8T,
            (10, _, _) => &G10,
            _ => &G12,
        };
        cell.get_or_init(|| Geometry::build(v.width, v.height, turned, all))
    }

    /// `(file, rank)` in the internal (unturned) layout.
    fn internal_coords(&self, b: Bit) -> (u8, u8) {
        let n = u32::from(self.number_of[b as usize]) - 1;
        let row = n / self.half;
        if self.all_squares {
            return ((n % self.half) as u8, (self.height as u32 - 1 - row) as u8);
        }
        let k = n % self.half;
        let rank = self.height as u32 - 1 - row;
        let file = if row & 1 == 0 { 2 * k + 1 } else { 2 * k };
        (file as u8, rank as u8)
    }

    #[inline]
    fn internal_at(&self, f: i8, r: i8) -> Option<Bit> {
        if f < 0 || r < 0 || f >= self.width as i8 || r >= self.height as i8 {
            return None;
        }
        let (f, r) = (f as u32, r as u32);
        let row = self.height as u32 - 1 - r;
        if self.all_squares {
            return Some(self.bit_of[(row * self.half + f) as usize]);
        }
        let dark_file_parity = if row & 1 == 0 { 1 } else { 0 };
        if f % 2 != dark_file_parity {
            return None;
        }
        let n = row * self.half + f / 2;
        Some(self.bit_of[n as usize])
    }

    /// The neighbour of `b` in direction `d`, or [`crate::NO_SQUARE`].
    #[inline(always)]
    pub fn step(&self, b: Bit, d: Dir) -> Bit {
        // SAFETY-free: `b` < 128 always (bits are u8 below 128 by construction).
        self.next[d as usize][(b & 127) as usize]
    }

    /// `(file, rank)` of a square as the players name it (0 = a / rank 1).
    #[inline]
    pub fn coords(&self, b: Bit) -> (u8, u8) {
        self.coords_of[usize::from(b & 127)]
    }

    fn coords_computed(&self, b: Bit) -> (u8, u8) {
        let (f, r) = self.internal_coords(b);
        if self.turned {
            (self.width - 1 - f, r)
        } else {
            (f, r)
        }
    }

    /// The square at `(file, rank)` as players name it, if it is playable.
    #[inline]
    pub fn at(&self, file: u8, rank: u8) -> Option<Bit> {
        let f = if self.turned {
            self.width.checked_sub(1 + file)?
        } else {
            file
        };
        self.internal_at(f as i8, rank as i8)
    }

    /// The square numbered `n` in the variant's numbering (1-based).
    #[inline]
    pub fn from_number(&self, n: u32) -> Option<Bit> {
        let b = *self.by_number.get(n as usize)?;
        (b != NONE).then_some(b)
    }

    fn number_to_bit_computed(&self, n: u32) -> Option<Bit> {
        if n == 0 || n as usize > self.count {
            return None;
        }
        let n = n - 1;
        if self.all_squares {
            // a1 = 1, along the ranks from White's side.
            return self.at((n % self.half) as u8, (n / self.half) as u8);
        }
        let internal = if self.turned {
            let row = n / self.half;
            row * self.half + (self.half - 1 - n % self.half)
        } else {
            n
        };
        Some(self.bit_of[internal as usize])
    }

    /// The number of a square in the variant's numbering.
    #[inline]
    pub fn number(&self, b: Bit) -> u32 {
        match self.numbers[usize::from(b & 127)] {
            0 => self.number_computed(b),
            n => u32::from(n),
        }
    }

    fn number_computed(&self, b: Bit) -> u32 {
        if self.all_squares {
            let (f, r) = self.coords(b);
            return u32::from(r) * self.half + u32::from(f) + 1;
        }
        let n = u32::from(self.number_of[b as usize]) - 1;
        let ext = if self.turned {
            let row = n / self.half;
            row * self.half + (self.half - 1 - n % self.half)
        } else {
            n
        };
        ext + 1
    }

    /// The algebraic name of a square, e.g. `c3`.
    pub fn algebraic(&self, b: Bit) -> String {
        let (f, r) = self.coords(b);
        format!("{}{}", (b'a' + f) as char, r + 1)
    }

    /// The name of a square in the given style.
    pub fn name(&self, b: Bit, numeric: bool) -> String {
        if numeric {
            self.number(b).to_string()
        } else {
            self.algebraic(b)
        }
    }

    /// True when `b` is a playable square.
    #[inline]
    pub fn is_square(&self, b: Bit) -> bool {
        b < 128 && self.number_of[b as usize] != 0
    }

    /// Squares of `bits` in increasing bit order.
    pub fn squares(bits: Bits) -> impl Iterator<Item = Bit> {
        let mut bb = bits;
        std::iter::from_fn(move || {
            if bb == 0 {
                None
            } else {
                let b = bb.trailing_zeros() as Bit;
                bb &= bb - 1;
                Some(b)
            }
        })
    }

    /// The diagonal shift of one step in `d` (negative = towards bit 0).
    #[inline(always)]
    pub fn offset(&self, d: Dir) -> i32 {
        self.offsets[d as usize]
    }
}

impl game::token::SquareNames for Geometry {
    type Square = Bit;
    fn numbered(&self, n: u32) -> Option<Bit> {
        self.from_number(n)
    }
    fn at_coords(&self, file: u8, rank: u8) -> Option<Bit> {
        self.at(file, rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{ENGLISH, INTERNATIONAL, ITALIAN};

    /// The lookup tables answer what the arithmetic they replace computes, on every board.
    #[test]
    fn tables_agree_with_the_arithmetic() {
        for v in crate::VARIANTS {
            let g = Geometry::of(v);
            for n in 0..=200 {
                assert_eq!(
                    g.from_number(n),
                    g.number_to_bit_computed(n),
                    "{} {n}",
                    v.id
                );
            }
            for b in Geometry::squares(g.mask) {
                assert_eq!(g.coords(b), g.coords_computed(b), "{} bit {b}", v.id);
                assert_eq!(g.number(b), g.number_computed(b), "{} bit {b}", v.id);
            }
            let numbers: Vec<u32> = Geometry::squares(g.mask).map(|b| g.number(b)).collect();
            let ascending = numbers.windows(2).all(|w| w[0] < w[1]);
            assert_eq!(g.numbers_follow_bits(), ascending, "{}", v.id);
            assert!(numbers.iter().all(|&n| n >= 1 && n as usize <= g.count));
        }
    }

    #[test]
    fn international_names() {
        let g = Geometry::of(&INTERNATIONAL);
        let b1 = g.from_number(1).unwrap();
        assert_eq!(g.algebraic(b1), "b10");
        assert_eq!(g.algebraic(g.from_number(46).unwrap()), "a1");
        assert_eq!(g.algebraic(g.from_number(50).unwrap()), "i1");
        assert_eq!(g.algebraic(g.from_number(5).unwrap()), "j10");
        for n in 1..=50 {
            let b = g.from_number(n).unwrap();
            assert_eq!(g.number(b), n);
            let (f, r) = g.coords(b);
            assert_eq!(g.at(f, r), Some(b));
            assert_eq!((f + r) % 2, 0, "dark squares have even file+rank");
        }
    }

    #[test]
    fn diagonal_steps_are_fixed_shifts() {
        for v in [&INTERNATIONAL, &ENGLISH, &ITALIAN] {
            let g = Geometry::of(v);
            for b in Geometry::squares(g.mask) {
                for d in Dir::DIAGONAL {
                    let t = b as i32 + g.offset(d);
                    let by_shift = (0..128).contains(&t) && g.is_square(t as Bit);
                    let by_table = g.step(b, d);
                    if by_table == NONE {
                        assert!(!by_shift, "{} {:?}", g.algebraic(b), d);
                    } else {
                        assert_eq!(by_table as i32, t);
                    }
                }
            }
        }
    }

    #[test]
    fn english_and_italian_numbering() {
        let g = Geometry::of(&ENGLISH);
        assert_eq!(g.algebraic(g.from_number(1).unwrap()), "b8");
        assert_eq!(g.algebraic(g.from_number(29).unwrap()), "a1");
        assert_eq!(g.algebraic(g.from_number(32).unwrap()), "g1");
        let g = Geometry::of(&ITALIAN);
        // Turned board: a8 is square 1, 21 is b3 and 17 is a4 (the opening 21-17).
        assert_eq!(g.algebraic(g.from_number(1).unwrap()), "a8");
        assert_eq!(g.algebraic(g.from_number(21).unwrap()), "b3");
        assert_eq!(g.algebraic(g.from_number(17).unwrap()), "a4");
        for n in 1..=32 {
            let b = g.from_number(n).unwrap();
            assert_eq!(g.number(b), n);
            let (f, r) = g.coords(b);
            assert_eq!(
                (f + r) % 2,
                1,
                "turned board: dark squares have odd file+rank"
            );
            assert_eq!(g.at(f, r), Some(b));
        }
    }
}
