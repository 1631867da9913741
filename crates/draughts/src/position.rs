//! Positions and their FEN strings (the PDN dialect).

use std::fmt;

use crate::geometry::{Bit, Bits, Geometry};

pub use crate::color::Color;

/// A position: the pieces, the side to move, and (Frisian) the run of quiet king moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Men per colour.
    pub men: [Bits; 2],
    /// Kings per colour.
    pub kings: [Bits; 2],
    /// Side to move.
    pub side: Color,
    /// Frisian: per colour, the square of the king that made the last quiet moves in a row and
    /// how many (0 = none).
    pub king_run: [(Bit, u8); 2],
    /// A capture chain written over several tokens (playstrategy writes one jump per token):
    /// the square the capturing piece has reached ([`crate::NO_SQUARE`] when no chain is
    /// under way) and the pieces it has taken so far, which stay on the board until the chain
    /// ends. The same side moves again and must go on capturing from there.
    pub pending: Pending,
    /// The record writes a capture chain one jump per token (playstrategy does): a token that
    /// stops a chain early is then played as its first part instead of refused.
    pub split_chains: bool,
}

/// A capture chain begun but not finished (see [`Position::pending`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pending {
    /// Where the capturing piece stands, or [`crate::NO_SQUARE`].
    pub at: Bit,
    /// Pieces taken so far.
    pub taken: Bits,
    /// Kings among them.
    pub taken_kings: Bits,
}

impl Pending {
    /// No chain under way.
    pub const NONE: Pending = Pending {
        at: crate::geometry::NONE,
        taken: 0,
        taken_kings: 0,
    };

    /// True while a chain is under way.
    #[inline(always)]
    pub fn is_active(&self) -> bool {
        self.at != crate::geometry::NONE
    }
}

impl Position {
    /// An empty board.
    pub fn empty(side: Color) -> Position {
        Position {
            men: [0; 2],
            kings: [0; 2],
            side,
            king_run: [(0, 0); 2],
            pending: Pending::NONE,
            split_chains: false,
        }
    }

    /// Every piece of `c`.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bits {
        self.men[c.index()] | self.kings[c.index()]
    }

    /// Every piece.
    #[inline(always)]
    pub fn occupied(&self) -> Bits {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }

    /// The piece on `b`: its colour and whether it is a king.
    pub fn piece_at(&self, b: Bit) -> Option<(Color, bool)> {
        let m = 1u128 << b;
        for c in [Color::White, Color::Black] {
            if self.men[c.index()] & m != 0 {
                return Some((c, false));
            }
            if self.kings[c.index()] & m != 0 {
                return Some((c, true));
            }
        }
        None
    }

    /// Number of pieces of `c`.
    pub fn count(&self, c: Color) -> u32 {
        let bits = self.pieces(c);
        // Counted in 64-bit halves, the upper one only on the boards that reach it: without
        // a hardware population count each half costs a dozen instructions, on every ply of
        // `stats`.
        let (low, high) = (bits as u64, (bits >> 64) as u64);
        if high == 0 {
            low.count_ones()
        } else {
            low.count_ones() + high.count_ones()
        }
    }

    /// Reads a FEN string: `W:W31-50:B1-20`, `B:W18,K24:BK3,12`, `W:Wa1,c3:Bh8`, with `?` as
    /// the side to move read as `default_side`, a trailing `.`, blanks, empty lists and extra
    /// fields such as lidraughts' `H0`/`F1` counters tolerated.
    pub fn from_fen(g: &Geometry, text: &str, default_side: Color) -> Result<Position, FenError> {
        let err = |m: String| FenError { message: m };
        let t = text.trim().trim_end_matches('.').trim();
        let t = t.trim_matches('"').trim();
        let mut fields = t.split(':');
        let side_field = fields.next().unwrap_or("").trim();
        let side = match side_field.to_ascii_uppercase().as_str() {
            "W" => Color::White,
            "B" => Color::Black,
            "?" | "" => default_side,
            other => {
                return Err(err(format!(
                    "the side to move must be W or B, not `{other}`"
                )))
            }
        };
        let mut pos = Position::empty(side);
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim().trim_end_matches('.').trim();
            if field.is_empty() {
                continue;
            }
            // The first character, whatever its width (the text is anyone's).
            let mut chars = field.chars();
            let head = chars.next().unwrap_or(' ');
            let rest = chars.as_str();
            let color = match head {
                'W' | 'w' => Color::White,
                'B' | 'b' => Color::Black,
                // lidraughts appends `H<n>` (half-moves) and `F<n>` (move number).
                'H' | 'F' if rest.chars().all(|c| c.is_ascii_digit()) => continue,
                _ => return Err(err(format!("`{field}` does not start with W or B"))),
            };
            if seen[color.index()] {
                return Err(err(format!("{color}'s pieces are listed twice")));
            }
            seen[color.index()] = true;
            for item in rest.split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                let (king, sq) = king_mark(g, item);
                for b in parse_squares(g, sq).map_err(|e| err(e.to_string()))? {
                    let m = 1u128 << b;
                    if pos.occupied() & m != 0 {
                        return Err(err(format!(
                            "square {} is given twice",
                            g.name(b, !sq.starts_with(|c: char| c.is_ascii_alphabetic()))
                        )));
                    }
                    if king {
                        pos.kings[color.index()] |= m;
                    } else {
                        pos.men[color.index()] |= m;
                    }
                }
            }
        }
        for c in [Color::White, Color::Black] {
            let bad = pos.men[c.index()] & g.crown[c.index()];
            if bad != 0 {
                let b = bad.trailing_zeros() as Bit;
                return Err(err(format!(
                    "a {c} man stands on {}, on the row where it would have been crowned",
                    g.name(b, true)
                )));
            }
        }
        Ok(pos)
    }

    /// Writes the FEN string (numeric or algebraic squares; ranges are not used).
    pub fn to_fen(&self, g: &Geometry, numeric: bool) -> String {
        let mut out = String::with_capacity(192);
        self.write_fen(g, numeric, &mut out);
        out
    }

    /// Appends [`Position::to_fen`] to `out` (called for every ply by `export`: no
    /// allocation of its own).
    pub fn write_fen(&self, g: &Geometry, numeric: bool, out: &mut String) {
        if numeric {
            self.write_numeric_fen(g, out);
            return;
        }
        out.push(self.side.letter());
        for c in [Color::White, Color::Black] {
            out.push(':');
            out.push(c.letter());
            let (men, kings) = (self.men[c.index()], self.kings[c.index()]);
            write_algebraic(out, g, men, kings);
        }
    }

    /// [`Position::write_fen`] with square numbers: written byte by byte into a buffer on
    /// the stack, then appended at once (this runs for every ply of an export).
    fn write_numeric_fen(&self, g: &Geometry, out: &mut String) {
        // At most 128 squares of five bytes (`,K123`), the side marks, and room for the
        // four-byte copy of the last number.
        let mut buf = [0u8; 8 + 128 * 5 + 4];
        buf[0] = self.side.letter() as u8;
        let mut n = 1;
        // A bit scan lists the squares in number order when numbers grow with bits; else
        // the pieces are laid out again by number first.
        let follow = g.numbers_follow_bits();
        for c in [Color::White, Color::Black] {
            buf[n] = b':';
            buf[n + 1] = c.letter() as u8;
            n += 2;
            let (men, kings) = (self.men[c.index()], self.kings[c.index()]);
            let (pieces, kings) = match follow {
                true => (men | kings, kings),
                false => (g.in_number_order(men | kings), g.in_number_order(kings)),
            };
            let mut comma = false;
            for b in Geometry::squares(pieces) {
                if comma {
                    buf[n] = b',';
                    n += 1;
                }
                comma = true;
                // (Most positions have no kings: the wide shift is skipped.)
                if kings != 0 && kings >> b & 1 != 0 {
                    buf[n] = b'K';
                    n += 1;
                }
                let number = match follow {
                    true => g.number(b),
                    false => u32::from(b) + 1,
                };
                let (digits, len) = DECIMAL[number as usize & 255];
                buf[n..n + 4].copy_from_slice(&digits);
                n += usize::from(len);
            }
        }
        // Only ASCII was written.
        out.push_str(std::str::from_utf8(&buf[..n]).unwrap_or_default());
    }
}

/// The decimal digits of every number up to 255, as four bytes (the unused ones zero) and
/// how many of them are digits.
const DECIMAL: [([u8; 4], u8); 256] = decimal_table();

const fn decimal_table() -> [([u8; 4], u8); 256] {
    let mut table = [([0u8; 4], 0u8); 256];
    let mut n = 0;
    while n < 256 {
        table[n] = if n >= 100 {
            (
                [ascii_digit(n / 100), ascii_digit(n / 10), ascii_digit(n), 0],
                3,
            )
        } else if n >= 10 {
            ([ascii_digit(n / 10), ascii_digit(n), 0, 0], 2)
        } else {
            ([ascii_digit(n), 0, 0, 0], 1)
        };
        n += 1;
    }
    table
}

/// The last decimal digit of `d`, as ASCII.
const fn ascii_digit(d: usize) -> u8 {
    b'0' + (d % 10) as u8
}

/// Appends the pieces `men` and `kings` as algebraic FEN squares (`c3`, `Ke5`), in number
/// order.
fn write_algebraic(out: &mut String, g: &Geometry, men: Bits, kings: Bits) {
    let ordered_kings = g.in_number_order(kings);
    for (k, i) in Geometry::squares(g.in_number_order(men | kings)).enumerate() {
        if k > 0 {
            out.push(',');
        }
        if ordered_kings >> i & 1 != 0 {
            out.push('K');
        }
        if let Some(b) = g.from_number(u32::from(i) + 1) {
            let (file, rank) = g.coords(b);
            out.push(char::from(b'a' + file));
            push_decimal(out, u32::from(rank) + 1);
        }
    }
}

/// Appends `n` in decimal (what `to_string` writes, without the formatting machinery).
pub(crate) fn push_decimal(s: &mut String, n: u32) {
    let digit = |d: u32| char::from(b'0' + (d % 10) as u8);
    if n >= 10 {
        if n >= 100 {
            push_decimal(s, n / 100);
        }
        s.push(digit(n / 10));
    }
    s.push(digit(n));
}

/// Splits the king mark off a listed square: `K`, or `k` unless it is the file k of a board
/// that wide followed by a rank (`k11` on a 12-wide board is a square, not a king on 11).
fn king_mark<'a>(g: &Geometry, item: &'a str) -> (bool, &'a str) {
    if let Some(rest) = item.strip_prefix('K') {
        return (true, rest.trim());
    }
    match item.strip_prefix('k') {
        Some(rest) if g.width <= 10 || !rest.starts_with(|c: char| c.is_ascii_digit()) => {
            (true, rest.trim())
        }
        _ => (false, item),
    }
}

/// Why a FEN item names no squares (the message becomes the [`FenError`]'s).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum SquareError {
    #[error("`{0}` is not a square")]
    NotANumber(String),
    #[error("there is no square {number} on this board (1-{count})")]
    OffBoard { number: u32, count: usize },
    #[error("the range `{0}` runs backwards")]
    Backwards(String),
    #[error("there is no square {0}")]
    InRange(u32),
    #[error("`{0}` is not a playable square of this board")]
    NotPlayable(String),
}

/// Reads one FEN item: a number, a range `31-50`, or an algebraic square.
fn parse_squares(g: &Geometry, item: &str) -> Result<Vec<Bit>, SquareError> {
    let number = |s: &str| -> Result<Bit, SquareError> {
        let n: u32 = s
            .trim()
            .parse()
            .map_err(|_| SquareError::NotANumber(s.to_string()))?;
        g.from_number(n).ok_or(SquareError::OffBoard {
            number: n,
            count: g.count,
        })
    };
    if item.starts_with(|c: char| c.is_ascii_digit()) {
        if let Some((a, b)) = item.split_once('-') {
            let (a, b) = (number(a)?, number(b)?);
            let (na, nb) = (g.number(a), g.number(b));
            if na > nb {
                return Err(SquareError::Backwards(item.to_string()));
            }
            return (na..=nb)
                .map(|n| g.from_number(n).ok_or(SquareError::InRange(n)))
                .collect();
        }
        return Ok(vec![number(item)?]);
    }
    parse_algebraic(g, item)
        .map(|b| vec![b])
        .ok_or_else(|| SquareError::NotPlayable(item.to_string()))
}

/// Reads an algebraic square such as `c3` or `J10` (case-insensitive).
pub fn parse_algebraic(g: &Geometry, s: &str) -> Option<Bit> {
    let s = s.trim().as_bytes();
    let (&f, r) = s.split_first()?;
    let f = f.to_ascii_lowercase();
    if !f.is_ascii_lowercase() || r.is_empty() || r.len() > 2 {
        return None;
    }
    let r: u8 = std::str::from_utf8(r).ok()?.parse().ok()?;
    if r == 0 || f - b'a' >= g.width || r > g.height {
        return None;
    }
    g.at(f - b'a', r - 1)
}

/// A FEN string that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FenError {}

#[cfg(test)]
mod tests {
    use super::push_decimal;
    use crate::testing::walk_random_games;
    use crate::{Color, Geometry};

    /// The numeric position string as the dialect defines it, built the plain way: each
    /// side's pieces sorted by square number, kings marked.
    fn plain_fen(g: &Geometry, pos: &super::Position) -> String {
        let mut fen = pos.side.letter().to_string();
        for c in [Color::White, Color::Black] {
            let kings = pos.kings[c.index()];
            let mut pieces: Vec<(u32, bool)> = Geometry::squares(pos.men[c.index()] | kings)
                .map(|b| (g.number(b), kings >> b & 1 != 0))
                .collect();
            pieces.sort_unstable();
            let listed: Vec<String> = pieces
                .iter()
                .map(|&(n, king)| format!("{}{n}", if king { "K" } else { "" }))
                .collect();
            fen.push_str(&format!(":{}{}", c.letter(), listed.join(",")));
        }
        fen
    }

    #[test]
    fn position_strings_list_squares_in_number_order_and_read_back() {
        let (mut positions, mut reordered, mut with_kings) = (0, 0, 0);
        walk_random_games(0x5851_f42d_4c95_7f2d, 6, 200, |d, pos, _| {
            let g = d.geometry;
            let fen = pos.to_fen(g, true);
            assert_eq!(fen, plain_fen(g, pos), "{}", d.variant.id);
            // The string holds the pieces and the side to move (not, say, Frisian's count
            // of king moves).
            let back = super::Position::from_fen(g, &fen, pos.side).unwrap();
            let board = |p: &super::Position| (p.men, p.kings, p.side);
            assert_eq!(board(&back), board(pos), "{} {fen}", d.variant.id);
            let algebraic = pos.to_fen(g, false);
            let back = super::Position::from_fen(g, &algebraic, pos.side)
                .unwrap_or_else(|e| panic!("{} {algebraic}: {e:?}", d.variant.id));
            assert_eq!(board(&back), board(pos), "{} {algebraic}", d.variant.id);
            positions += 1;
            reordered += usize::from(!g.numbers_follow_bits());
            with_kings += usize::from(pos.kings != [0, 0]);
        });
        // Both ways of listing were taken, kings included.
        assert!(
            reordered > 0 && reordered < positions,
            "{reordered} of {positions}"
        );
        assert!(with_kings > 0, "no kings in {positions} positions");
    }

    #[test]
    fn decimals_are_written_as_to_string_writes_them() {
        let mut s = String::new();
        for n in (0..2000).chain([9_999, 10_000, 65_535, 1_000_000, u32::MAX]) {
            s.clear();
            push_decimal(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }
}
