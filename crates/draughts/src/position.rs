//! Positions and their FEN strings (the PDN dialect).

use std::fmt;

use crate::geometry::{Bit, Bits, Geometry};

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
            let (head, rest) = field.split_at(1);
            let color = match head {
                "W" | "w" => Color::White,
                "B" | "b" => Color::Black,
                // lidraughts appends `H<n>` (half-moves) and `F<n>` (move number).
                "H" | "F" if rest.chars().all(|c| c.is_ascii_digit()) => continue,
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
                let (king, sq) = match item.strip_prefix(['K', 'k']) {
                    Some(s) => (true, s.trim()),
                    None => (false, item),
                };
                for b in parse_squares(g, sq).map_err(err)? {
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
        if !g.numbers_follow_bits() {
            out.push(self.side.letter());
            for c in [Color::White, Color::Black] {
                out.push(':');
                out.push(c.letter());
                let (men, kings) = (self.men[c.index()], self.kings[c.index()]);
                write_in_number_order(out, g, numeric, men, kings);
            }
            return;
        }
        // Written byte by byte into a buffer on the stack, then appended at once: this runs
        // for every ply of an export. At most 128 squares of five bytes (`,K123`, `,Kl12`),
        // plus the side marks.
        let mut buf = [0u8; 8 + 128 * 5];
        let mut n = 0;
        let mut put = |b: u8| {
            buf[n] = b;
            n += 1;
        };
        put(self.side.letter() as u8);
        for c in [Color::White, Color::Black] {
            put(b':');
            put(c.letter() as u8);
            let (men, kings) = (self.men[c.index()], self.kings[c.index()]);
            let mut first = true;
            for b in Geometry::squares(men | kings) {
                if !first {
                    put(b',');
                }
                first = false;
                if kings >> b & 1 != 0 {
                    put(b'K');
                }
                let (letter, number) = if numeric {
                    (None, g.number(b))
                } else {
                    let (file, rank) = g.coords(b);
                    (Some(b'a' + file), u32::from(rank) + 1)
                };
                if let Some(letter) = letter {
                    put(letter);
                }
                if number >= 100 {
                    put(b'0' + (number / 100 % 10) as u8);
                }
                if number >= 10 {
                    put(b'0' + (number / 10 % 10) as u8);
                }
                put(b'0' + (number % 10) as u8);
            }
        }
        // Only ASCII was written.
        out.push_str(std::str::from_utf8(&buf[..n]).unwrap_or_default());
    }
}

/// Appends the pieces `men` and `kings` as FEN squares in number order, for boards whose
/// numbers do not grow with bits.
fn write_in_number_order(out: &mut String, g: &Geometry, numeric: bool, men: Bits, kings: Bits) {
    // For each number, 0 when empty, else the square plus `PIECE` (and `KING` for a king).
    // Numbers never pass the 128 bits of a board.
    const PIECE: u16 = 0x100;
    const KING: u16 = 0x200;
    let mut by_number = [0u16; 129];
    let mut top = 0;
    for (bits, kind) in [(men, PIECE), (kings, PIECE | KING)] {
        for b in Geometry::squares(bits) {
            let n = g.number(b) as usize;
            by_number[n] = kind | u16::from(b);
            top = top.max(n);
        }
    }
    let mut first = true;
    for (n, &slot) in by_number[..=top].iter().enumerate() {
        if slot == 0 {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        if slot & KING != 0 {
            out.push('K');
        }
        push_fen_square(out, g, numeric, (slot & 0xff) as Bit, n as u32);
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

/// Appends the FEN name of square `b`, whose number is `number`.
fn push_fen_square(out: &mut String, g: &Geometry, numeric: bool, b: Bit, number: u32) {
    if numeric {
        push_decimal(out, number);
    } else {
        let (file, rank) = g.coords(b);
        out.push(char::from(b'a' + file));
        push_decimal(out, u32::from(rank) + 1);
    }
}

/// Reads one FEN item: a number, a range `31-50`, or an algebraic square.
fn parse_squares(g: &Geometry, item: &str) -> Result<Vec<Bit>, String> {
    let number = |s: &str| -> Result<Bit, String> {
        let n: u32 = s
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a square"))?;
        g.from_number(n)
            .ok_or_else(|| format!("there is no square {n} on this board (1-{})", g.count))
    };
    if item.starts_with(|c: char| c.is_ascii_digit()) {
        if let Some((a, b)) = item.split_once('-') {
            let (a, b) = (number(a)?, number(b)?);
            let (na, nb) = (g.number(a), g.number(b));
            if na > nb {
                return Err(format!("the range `{item}` runs backwards"));
            }
            return (na..=nb)
                .map(|n| {
                    g.from_number(n)
                        .ok_or_else(|| format!("there is no square {n}"))
                })
                .collect();
        }
        return Ok(vec![number(item)?]);
    }
    parse_algebraic(g, item)
        .map(|b| vec![b])
        .ok_or_else(|| format!("`{item}` is not a playable square of this board"))
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
