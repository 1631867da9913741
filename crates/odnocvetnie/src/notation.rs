//! Move tokens: reading `31-27`, `31x22`, `31x22x13`, `31:22`, `31- 27`, `3127`, `c4-d5`,
//! `c4xe6xg8`, and writing moves.

use crate::movegen::Move;
use crate::position::Position;
use crate::square::Square;

/// Most squares a token may name (a start and up to 49 landings).
pub const MAX_TOKEN_SQUARES: usize = 50;

pub use game::token::Separator;

/// Odnocvetnie's square names for the shared token grammar: numbers 1..50 as in International
/// draughts and algebraic `a1`..`j10` on the dark squares.
#[derive(Debug, Clone, Copy, Default)]
pub struct OdnocvetnieSquares;

impl game::token::SquareNames for OdnocvetnieSquares {
    type Square = Square;
    fn numbered(&self, n: u32) -> Option<Square> {
        Square::from_number(u8::try_from(n).ok()?)
    }
    fn at_coords(&self, file: u8, rank: u8) -> Option<Square> {
        Square::from_coords(file, rank)
    }
}

/// A parsed move token (the shared fixed-size token of the draughts crate).
pub type MoveToken = game::token::FixedToken<Square, MAX_TOKEN_SQUARES>;

/// True if `tok` names the squares of `path` (bit positions) as a move: same start, same end,
/// and its intermediate squares appear among the path's landings in order.
pub(crate) fn matches_path(tok: &MoveToken, path: &[u8]) -> bool {
    let Some((&from, landings)) = path.split_first() else {
        return false;
    };
    let landings = landings.iter().map(|&p| Square::from_pos(p));
    game::token::fit(tok.squares(), Square::from_pos(from), landings) == game::token::Fit::Whole
}

/// The token in normal form, in its own notation (for messages).
pub(crate) fn token_text(tok: &MoveToken) -> String {
    tok.write(|s| s.styled(tok.is_numeric()).to_string())
}

/// Reads a move token with the grammar shared by every draughts crate
/// ([`draughts::parse_squares`]) over Odnocvetnie's square names: numeric or algebraic squares
/// (not mixed), separated by `-` (or an en/em dash), `x`, `X`, `:` or `×`, with spaces around
/// separators (`1- 6`), leading zeros (`06-11`), no separator (`3228`, `b4c5`), and trailing
/// marks (`!`, `?`, `+`, `#`).
pub fn parse_token(token: &[u8]) -> Result<MoveToken, game::token::TokenError> {
    MoveToken::parse(&OdnocvetnieSquares, token, Square::from_pos(0))
}

/// Writes `mv` (legal in `pos`): quiet moves `from-to`; captures `fromxto`, or the full path
/// when `full` is set or when another legal move shares start and end. Squares are numeric or
/// algebraic.
pub fn write_move(pos: &Position, mv: &Move, numeric: bool, full: bool) -> String {
    let mut s = String::with_capacity(8);
    push_move(&mut s, pos, mv, numeric, full);
    s
}

/// Appends [`write_move`] to `s`.
pub fn push_move(s: &mut String, pos: &Position, mv: &Move, numeric: bool, full: bool) {
    let short = |s: &mut String, sep: char| {
        mv.from().push_styled(s, numeric);
        s.push(sep);
        mv.to().push_styled(s, numeric);
    };
    if !mv.is_capture() {
        return short(s, '-');
    }
    let full = full || pos.has_rival_capture(mv);
    if full {
        if let Some(path) = pos.paths(mv).first() {
            return path.push_to(s, numeric);
        }
    }
    short(s, 'x');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(t: &MoveToken) -> Vec<u8> {
        t.squares().iter().map(|s| s.number()).collect()
    }

    #[test]
    fn reads_the_usual_forms() {
        let p = |s: &str| parse_token(s.as_bytes()).unwrap();
        assert_eq!(sq(&p("31-27")), [31, 27]);
        assert_eq!(p("31-27").separator(), Separator::Quiet);
        assert_eq!(sq(&p("31x22x13")), [31, 22, 13]);
        assert_eq!(p("31x22").separator(), Separator::Capture);
        assert_eq!(sq(&p("31:22")), [31, 22]);
        assert_eq!(sq(&p(" 1- 6 ")), [1, 6]);
        assert_eq!(sq(&p("06-11")), [6, 11]);
        assert_eq!(sq(&p("3228")), [32, 28]);
        assert_eq!(sq(&p("31x22!?")), [31, 22]);
        assert_eq!(sq(&p("c3-d4")), [37, 32]);
        assert!(!p("c3-d4").is_numeric());
        assert_eq!(sq(&p("C3XE5")), [37, 28]);
        assert_eq!(token_text(&p("c3xe5")), "c3xe5");
        // Forms the shared grammar reads for every draughts crate.
        assert_eq!(sq(&p("c3d4")), [37, 32]);
        assert_eq!(sq(&p("31\u{2013}27")), [31, 27]);
        assert_eq!(p("31\u{2013}27").separator(), Separator::Quiet);
        assert_eq!(sq(&p("31x22+")), [31, 22]);
    }

    #[test]
    fn explains_unreadable_tokens() {
        let e = |s: &str| parse_token(s.as_bytes()).unwrap_err().to_string();
        // The shared draughts grammar's wording.
        assert!(e("").contains("empty"));
        assert!(e("31-").contains("ends with a separator"));
        assert!(e("31").contains("only one square"));
        assert!(e("31-51").contains("square 51, which this board does not have"));
        assert!(e("a2-b3").contains("a2, which is not a playable square"));
        assert!(e("31/27").contains("not a move"));
        assert!(e("k1-j2").contains("k1, which is not a playable square"));
        assert!(e("3151").contains("square 51"));
        assert!(e("31-c5").contains("mixes"));
    }
}
