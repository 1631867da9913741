//! The position: four bitboards and the side to move, and its FEN-style string form.

use std::fmt;

use crate::moves::Move;
use crate::square::{Side, Square};

/// A man or a king ("tama").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A man.
    Man,
    /// A king.
    King,
}

/// A piece: its side and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// Man or king.
    pub kind: Kind,
}

impl Piece {
    /// Words for messages, e.g. `"white man"`.
    pub fn describe(self) -> String {
        format!(
            "{} {}",
            self.side.adjective(),
            match self.kind {
                Kind::Man => "man",
                Kind::King => "king",
            }
        )
    }
}

/// Why a position string or a set of bitboards is not a Tama position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// A sentence for the user.
    pub message: String,
}

impl FenError {
    fn new(message: impl Into<String>) -> Self {
        FenError {
            message: message.into(),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FenError {}

/// A Tama position: where every piece stands and who is to move.
///
/// Invariants (checked by every constructor): no square holds two pieces, no man stands on
/// its own crowning rank, and neither side has more than 16 pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    men: [u64; 2],
    kings: [u64; 2],
    side: Side,
}

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;

impl Position {
    /// The start position: White men on ranks 2–3, Black men on ranks 6–7, White to move.
    pub const fn start() -> Position {
        Position {
            men: [0x0000_0000_00FF_FF00, 0x00FF_FF00_0000_0000],
            kings: [0, 0],
            side: Side::White,
        }
    }

    /// An empty board with `side` to move.
    pub const fn empty(side: Side) -> Position {
        Position {
            men: [0, 0],
            kings: [0, 0],
            side,
        }
    }

    /// Builds a position from bitboards (bit `i` = square index `i`), checking the invariants.
    pub fn from_bitboards(
        white_men: u64,
        white_kings: u64,
        black_men: u64,
        black_kings: u64,
        side: Side,
    ) -> Result<Position, FenError> {
        let boards = [white_men, white_kings, black_men, black_kings];
        for i in 0..4 {
            for j in i + 1..4 {
                let both = boards[i] & boards[j];
                if both != 0 {
                    let sq = Square::from_index_unchecked(both.trailing_zeros() as u8);
                    return Err(FenError::new(format!("{sq} holds two pieces")));
                }
            }
        }
        if white_men & RANK_8 != 0 {
            let sq = Square::from_index_unchecked((white_men & RANK_8).trailing_zeros() as u8);
            return Err(FenError::new(format!(
                "a white man cannot stand on {sq}: a man on its far rank is a king (write K{sq})"
            )));
        }
        if black_men & RANK_1 != 0 {
            let sq = Square::from_index_unchecked((black_men & RANK_1).trailing_zeros() as u8);
            return Err(FenError::new(format!(
                "a black man cannot stand on {sq}: a man on its far rank is a king (write K{sq})"
            )));
        }
        for (side_, n) in [
            (Side::White, (white_men | white_kings).count_ones()),
            (Side::Black, (black_men | black_kings).count_ones()),
        ] {
            if n > 16 {
                return Err(FenError::new(format!(
                    "{side_} has {n} pieces, more than the 16 a side starts with"
                )));
            }
        }
        Ok(Position {
            men: [white_men, black_men],
            kings: [white_kings, black_kings],
            side,
        })
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// The same position with `side` to move.
    pub const fn with_side_to_move(mut self, side: Side) -> Position {
        self.side = side;
        self
    }

    /// Men of `side`.
    #[inline]
    pub const fn men(&self, side: Side) -> u64 {
        self.men[side as usize]
    }

    /// Kings of `side`.
    #[inline]
    pub const fn kings(&self, side: Side) -> u64 {
        self.kings[side as usize]
    }

    /// All pieces of `side`.
    #[inline]
    pub const fn pieces(&self, side: Side) -> u64 {
        self.men[side as usize] | self.kings[side as usize]
    }

    /// Every occupied square.
    #[inline]
    pub const fn occupied(&self) -> u64 {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }

    /// Number of pieces of `side`.
    #[inline]
    pub const fn count(&self, side: Side) -> u32 {
        self.pieces(side).count_ones()
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        for side in [Side::White, Side::Black] {
            if self.men[side as usize] & b != 0 {
                return Some(Piece {
                    side,
                    kind: Kind::Man,
                });
            }
            if self.kings[side as usize] & b != 0 {
                return Some(Piece {
                    side,
                    kind: Kind::King,
                });
            }
        }
        None
    }

    /// Plays `mv`, which must be a legal move of this position (as produced by the move
    /// generator or the resolver). Captured pieces are removed, the piece is crowned when the
    /// move says so, and the turn passes.
    #[inline]
    pub fn play(&mut self, mv: &Move) {
        let us = self.side as usize;
        let them = 1 - us;
        let from = mv.from().bit();
        let to = mv.to().bit();
        let was_king = self.kings[us] & from != 0;
        self.men[us] &= !from;
        self.kings[us] &= !from;
        if was_king || mv.is_promotion() {
            self.kings[us] |= to;
        } else {
            self.men[us] |= to;
        }
        let cap = mv.captured_mask();
        self.men[them] &= !cap;
        self.kings[them] &= !cap;
        self.side = self.side.opponent();
    }

    /// Reads a position string: `W:Wa2,b2,Kd4:Ba7,h7` (see the crate documentation for the
    /// full grammar: numeric squares and ranges, `?` and a trailing `.` are accepted).
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        parse_fen(text)
    }

    /// Writes the canonical position string: side to move, then White's and Black's pieces in
    /// square order (a1, b1, …, h8), kings marked `K`, no trailing `.`.
    pub fn to_fen(&self) -> String {
        self.fen_with(false)
    }

    /// The same string with numeric squares (1 = a1 … 64 = h8).
    pub fn to_fen_numeric(&self) -> String {
        self.fen_with(true)
    }

    fn fen_with(&self, numeric: bool) -> String {
        let mut s = String::with_capacity(80);
        self.write_fen(numeric, &mut s);
        s
    }

    /// Appends [`Position::to_fen`] (or with `numeric`, [`Position::to_fen_numeric`]) to `s`.
    pub fn write_fen(&self, numeric: bool, s: &mut String) {
        // Written byte by byte into a buffer on the stack, then appended at once: this runs
        // for every ply of an export. 64 squares of at most four bytes, plus the side marks.
        let mut buf = [0u8; 8 + 64 * 4];
        let mut n = 0;
        let mut put = |b: u8| {
            buf[n] = b;
            n += 1;
        };
        put(self.side_letter());
        for side in [Side::White, Side::Black] {
            put(b':');
            put(if side == Side::White { b'W' } else { b'B' });
            let (mut bb, kings) = (self.pieces(side), self.kings(side));
            let mut first = true;
            while bb != 0 {
                let index = bb.trailing_zeros() as u8;
                bb &= bb - 1;
                if !first {
                    put(b',');
                }
                first = false;
                if kings >> index & 1 != 0 {
                    put(b'K');
                }
                let sq = Square::from_index_unchecked(index);
                if numeric {
                    let number = sq.number();
                    if number >= 10 {
                        put(b'0' + number / 10);
                    }
                    put(b'0' + number % 10);
                } else {
                    let [file, rank] = sq.name();
                    put(file);
                    put(rank);
                }
            }
        }
        // Only ASCII was written.
        s.push_str(std::str::from_utf8(&buf[..n]).unwrap_or_default());
    }

    fn side_letter(&self) -> u8 {
        match self.side {
            Side::White => b'W',
            Side::Black => b'B',
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_fen(s)
    }
}

struct FenReader<'a> {
    b: &'a [u8],
    i: usize,
}

impl FenReader<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.b.get(self.i).copied()
    }
    fn bump(&mut self) {
        self.i += 1;
    }
    fn rest(&self) -> String {
        String::from_utf8_lossy(&self.b[self.i.min(self.b.len())..])
            .chars()
            .take(12)
            .collect()
    }

    /// A square: `c3` or a number 1..=64.
    fn square(&mut self) -> Result<(Square, bool), FenError> {
        self.skip_ws();
        let start = self.i;
        match self.b.get(self.i).copied() {
            Some(c) if c.is_ascii_alphabetic() => {
                self.i += 1;
                match self.b.get(self.i).copied() {
                    Some(d @ b'1'..=b'8')
                        if matches!(c, b'a'..=b'h' | b'A'..=b'H')
                            && !self.b.get(self.i + 1).is_some_and(u8::is_ascii_digit) =>
                    {
                        self.i += 1;
                        let f = (c.to_ascii_lowercase() - b'a') as i8;
                        Ok((
                            Square::from_coords(f, (d - b'1') as i8).expect("on board"),
                            false,
                        ))
                    }
                    _ => Err(FenError::new(format!(
                        "`{}` is not a square (files a–h, ranks 1–8)",
                        self.word_from(start)
                    ))),
                }
            }
            Some(b'0'..=b'9') => {
                let mut n: u32 = 0;
                while let Some(d @ b'0'..=b'9') = self.b.get(self.i).copied() {
                    n = n.saturating_mul(10).saturating_add(u32::from(d - b'0'));
                    self.i += 1;
                }
                match Square::from_number(n) {
                    Some(sq) => Ok((sq, true)),
                    None => Err(FenError::new(format!(
                        "square number {} is out of range (1–64)",
                        self.word_from(start)
                    ))),
                }
            }
            Some(_) => Err(FenError::new(format!(
                "expected a square, found `{}`",
                self.rest()
            ))),
            None => Err(FenError::new("expected a square, found the end")),
        }
    }

    fn word_from(&mut self, start: usize) -> String {
        while self.i < self.b.len() && self.b[self.i].is_ascii_alphanumeric() {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.b[start..self.i]).into_owned()
    }
}

fn parse_fen(text: &str) -> Result<Position, FenError> {
    let mut text = text.trim();
    if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
        text = text[1..text.len() - 1].trim();
    }
    if text.is_empty() {
        return Err(FenError::new("the position string is empty"));
    }
    let mut r = FenReader {
        b: text.as_bytes(),
        i: 0,
    };
    let side = side_to_move(&mut r)?;
    // [men, kings] per side
    let mut boards = [[0u64; 2]; 2];
    let mut seen = [false; 2];
    loop {
        match r.peek() {
            None => break,
            Some(b'.') => {
                r.bump();
                if r.peek().is_some() {
                    return Err(FenError::new(format!(
                        "unexpected `{}` after the final `.`",
                        r.rest()
                    )));
                }
                break;
            }
            Some(b':') => r.bump(),
            Some(_) => {
                return Err(FenError::new(format!(
                    "expected `:` before a piece list, found `{}`",
                    r.rest()
                )))
            }
        }
        let colour = match r.peek() {
            Some(b'W' | b'w') => Side::White,
            Some(b'B' | b'b') => Side::Black,
            // An empty section (`W::B…` or a trailing `:`).
            Some(b':' | b'.') | None => continue,
            Some(_) => {
                return Err(FenError::new(format!(
                    "a piece list starts with W or B, not `{}`",
                    r.rest()
                )))
            }
        };
        r.bump();
        if seen[colour as usize] {
            return Err(FenError::new(format!(
                "the pieces of {colour} are listed twice"
            )));
        }
        seen[colour as usize] = true;
        read_piece_list(&mut r, colour, &mut boards)?;
    }
    Position::from_bitboards(boards[0][0], boards[0][1], boards[1][0], boards[1][1], side)
}

/// The side to move at the start of a position string (`?`: White, who moves first).
fn side_to_move(r: &mut FenReader<'_>) -> Result<Side, FenError> {
    let side = match r.peek() {
        Some(b'W' | b'w') => Side::White,
        Some(b'B' | b'b') => Side::Black,
        // `?`: unknown side to move; White, who moves first, is assumed.
        Some(b'?') => Side::White,
        _ => {
            return Err(FenError::new(format!(
                "a position string starts with the side to move (W or B), not `{}`",
                r.rest()
            )))
        }
    };
    r.bump();
    Ok(side)
}

/// The items of `colour`'s piece list, up to the next `:` or `.`, into `boards`.
fn read_piece_list(
    r: &mut FenReader<'_>,
    colour: Side,
    boards: &mut [[u64; 2]; 2],
) -> Result<(), FenError> {
    loop {
        match r.peek() {
            None | Some(b':' | b'.') => return Ok(()),
            Some(b',') => {
                r.bump();
                continue;
            }
            _ => {}
        }
        let king = if matches!(r.peek(), Some(b'K' | b'k')) {
            r.bump();
            true
        } else {
            false
        };
        let (first, last) = read_squares(r)?;
        for idx in first.index()..=last.index() {
            let sq = Square::from_index_unchecked(idx);
            let all = boards[0][0] | boards[0][1] | boards[1][0] | boards[1][1];
            if all & sq.bit() != 0 {
                return Err(FenError::new(format!("{sq} is listed twice")));
            }
            boards[colour as usize][usize::from(king)] |= sq.bit();
        }
        match r.peek() {
            None | Some(b':' | b'.' | b',') => {}
            Some(_) => {
                return Err(FenError::new(format!(
                    "expected `,` or `:` after a square, found `{}`",
                    r.rest()
                )))
            }
        }
    }
}

/// One square or a numeric range `5-12` (a `K` before its end is allowed): its first and
/// last squares.
fn read_squares(r: &mut FenReader<'_>) -> Result<(Square, Square), FenError> {
    let (first, numeric) = r.square()?;
    if r.peek() != Some(b'-') {
        return Ok((first, first));
    }
    r.bump();
    if matches!(r.peek(), Some(b'K' | b'k')) {
        r.bump();
    }
    let (end, numeric_end) = r.square()?;
    if !(numeric && numeric_end) {
        return Err(FenError::new(format!(
            "ranges such as `{}-{}` are allowed with numeric squares only",
            first.number(),
            end.number()
        )));
    }
    if end < first {
        return Err(FenError::new(format!(
            "the range {}-{} runs backwards",
            first.number(),
            end.number()
        )));
    }
    Ok((first, end))
}
