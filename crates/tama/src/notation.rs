//! Move tokens: reading what players write and writing moves back.
//!
//! Tokens are read with the grammar shared by every draughts crate ([`draughts::parse_squares`])
//! over Tama's square names: algebraic (`c3`) or numeric (`19`, 1 = a1 … 64 = h8, leading
//! zeros allowed) squares, separated by `-` (or an en/em dash), `x`, `X`, `:` or `×`, or by
//! nothing (`c3c4`, `1927`). A token names the start square and then landing squares: two
//! squares for a quiet move or a short capture, more for a capture path.

use crate::moves::{Move, MAX_JUMPS};
use crate::square::Square;

pub use game::token::Separator;

/// Tama's square names for the shared token grammar: algebraic `a1`..`h8` and numbers
/// 1 = a1 .. 64 = h8 (every square is playable).
#[derive(Debug, Clone, Copy, Default)]
pub struct TamaSquares;

impl game::token::SquareNames for TamaSquares {
    type Square = Square;
    fn numbered(&self, n: u32) -> Option<Square> {
        Square::from_number(n)
    }
    fn at_coords(&self, file: u8, rank: u8) -> Option<Square> {
        Square::from_coords(i8::try_from(file).ok()?, i8::try_from(rank).ok()?)
    }
}

/// A parsed move token: up to 17 squares (start plus 16 landings), its separator kind and
/// whether it was numeric (the shared fixed-size token of the draughts crate).
pub type Token = game::token::FixedToken<Square, { MAX_JUMPS + 1 }>;

/// Reads a move token with the shared draughts grammar ([`draughts::parse_squares`]) over
/// Tama's square names. The error is a sentence for the player.
#[inline]
pub fn parse_token(bytes: &[u8]) -> Result<Token, game::token::TokenError> {
    Token::parse(&TamaSquares, bytes, Square::A1)
}

/// Appends a square name.
pub(crate) fn push_square(s: &mut String, sq: Square, numeric: bool) {
    if numeric {
        let n = sq.number();
        if n >= 10 {
            s.push((b'0' + n / 10) as char);
        }
        s.push((b'0' + n % 10) as char);
    } else {
        let [a, b] = sq.name();
        s.push(a as char);
        s.push(b as char);
    }
}

/// Appends a move: quiet `c3-c4`; a capture as `c3xe5` (short) or with every landing square.
pub(crate) fn write_path(s: &mut String, mv: &Move, numeric: bool, full: bool) {
    push_square(s, mv.from(), numeric);
    if !mv.is_capture() {
        s.push('-');
        push_square(s, mv.to(), numeric);
    } else if full {
        for sq in mv.path() {
            s.push('x');
            push_square(s, *sq, numeric);
        }
    } else {
        s.push('x');
        push_square(s, mv.to(), numeric);
    }
}

impl Move {
    /// The full path in algebraic form: `c3-c4`, `c3xc5xe5`. (Written here, with the
    /// notation, so that `moves` does not depend on it.)
    pub fn full_path(&self) -> String {
        let mut s = String::with_capacity(3 + 3 * self.path().len());
        write_path(&mut s, self, false, true);
        s
    }
}

/// Writes a move (no check whether the short form is ambiguous; see
/// [`crate::Tama::format_move`] for the form that checks).
pub fn format_path(mv: &Move, numeric: bool, full: bool) -> String {
    let mut s = String::with_capacity(8);
    write_path(&mut s, mv, numeric, full);
    s
}
