//! Move tokens: reading `31-27`, `31x22`, `31x22x13`, `31:22`, `31- 27`, `3127`, `c4-d5`,
//! `c4xe6xg8`, and writing moves.

use std::fmt;

use crate::movegen::Move;
use crate::position::{describe_bad_square, Position};
use crate::square::Square;

/// Most squares a token may name (a start and up to 49 landings).
pub const MAX_TOKEN_SQUARES: usize = 50;

/// How the squares of a token were separated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Separator {
    /// `-` only: written as a quiet move (some notations also write captures so).
    Dash,
    /// `x` or `:` somewhere: written as a capture.
    Cross,
    /// No separator (`3127`).
    None,
}

/// A move token read into squares: the start, optional intermediate landings, and the end.
#[derive(Clone, Copy)]
pub struct MoveToken {
    squares: [Square; MAX_TOKEN_SQUARES],
    len: u8,
    separator: Separator,
    numeric: bool,
}

impl MoveToken {
    /// The squares as written.
    #[inline]
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    /// The start square.
    #[inline]
    pub fn from(&self) -> Square {
        self.squares[0]
    }

    /// The end square.
    #[inline]
    pub fn to(&self) -> Square {
        self.squares[self.len as usize - 1]
    }

    /// How the squares were separated.
    #[inline]
    pub fn separator(&self) -> Separator {
        self.separator
    }

    /// True if the first square was written as a number (messages follow the token's style).
    #[inline]
    pub fn numeric(&self) -> bool {
        self.numeric
    }

    /// True if the token names the squares of `path` (bit positions) as a move: same start,
    /// same end, and its intermediate squares appear among the path's landings in order.
    pub(crate) fn matches_path(&self, path: &[u8]) -> bool {
        let t = self.squares();
        if t.len() > path.len()
            || t[0].pos() != path[0]
            || t[t.len() - 1].pos() != path[path.len() - 1]
        {
            return false;
        }
        let inner = &t[1..t.len() - 1];
        let mut j = 0;
        for &p in &path[1..path.len() - 1] {
            if j < inner.len() && inner[j].pos() == p {
                j += 1;
            }
        }
        j == inner.len()
    }
}

impl fmt::Display for MoveToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.separator == Separator::Cross {
            "x"
        } else {
            "-"
        };
        for (i, sq) in self.squares().iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{}", sq.styled(self.numeric))?;
        }
        Ok(())
    }
}

impl fmt::Debug for MoveToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MoveToken({self})")
    }
}

/// Reads a move token. Accepted: numeric or algebraic squares (mixed too), separated by `-`,
/// `x`, `X` or `:`, with spaces around separators (`1- 6`), leading zeros (`06-11`), four
/// digits without a separator (`3228`), and trailing move-strength marks (`!`, `?`) or `+`/`#`.
pub fn parse_token(token: &[u8]) -> Result<MoveToken, String> {
    let mut end = token.len();
    while end > 0 && matches!(token[end - 1], b'!' | b'?' | b'+' | b'#' | b' ' | b'\t') {
        end -= 1;
    }
    let mut start = 0;
    while start < end && token[start].is_ascii_whitespace() {
        start += 1;
    }
    let b = &token[start..end];
    let shown = || String::from_utf8_lossy(token).trim().to_string();
    if b.is_empty() {
        return Err("empty move".to_string());
    }
    let mut t = MoveToken {
        squares: [Square::from_pos(0); MAX_TOKEN_SQUARES],
        len: 0,
        separator: Separator::None,
        numeric: b[0].is_ascii_digit(),
    };
    if b.len() == 4 && b.iter().all(u8::is_ascii_digit) {
        for half in [&b[..2], &b[2..]] {
            let n = (half[0] - b'0') * 10 + (half[1] - b'0');
            let sq = Square::from_number(n).ok_or_else(|| {
                format!(
                    "cannot read move `{}`: {}",
                    shown(),
                    describe_bad_square(&String::from_utf8_lossy(half))
                )
            })?;
            t.squares[t.len as usize] = sq;
            t.len += 1;
        }
        return Ok(t);
    }
    let mut i = 0;
    loop {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        let s = i;
        if i < b.len() && b[i].is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else if i < b.len() && b[i].is_ascii_alphabetic() && !matches!(b[i], b'x' | b'X') {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            let what = match b.get(i) {
                Some(_) => {
                    let c = String::from_utf8_lossy(&b[i..])
                        .chars()
                        .next()
                        .unwrap_or('?');
                    format!("unexpected `{c}` where a square should be")
                }
                None => "a square is missing at the end".to_string(),
            };
            return Err(format!("cannot read move `{}`: {what}", shown()));
        }
        let text = std::str::from_utf8(&b[s..i]).unwrap_or("");
        let sq = Square::parse(text).ok_or_else(|| {
            format!(
                "cannot read move `{}`: {}",
                shown(),
                describe_bad_square(text)
            )
        })?;
        if t.len as usize == MAX_TOKEN_SQUARES {
            return Err(format!(
                "cannot read move `{}`: more than {MAX_TOKEN_SQUARES} squares",
                shown()
            ));
        }
        t.squares[t.len as usize] = sq;
        t.len += 1;
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        if i == b.len() {
            break;
        }
        match b[i] {
            b'-' => {
                if t.separator == Separator::None {
                    t.separator = Separator::Dash;
                }
            }
            b'x' | b'X' | b':' => t.separator = Separator::Cross,
            _ => {
                let c = String::from_utf8_lossy(&b[i..])
                    .chars()
                    .next()
                    .unwrap_or('?');
                return Err(format!(
                    "cannot read move `{}`: unexpected `{c}` after square {text} (separate squares with - or x)",
                    shown()
                ));
            }
        }
        i += 1;
    }
    if t.len < 2 {
        return Err(format!(
            "cannot read move `{}`: a move names at least a start and an end square",
            shown()
        ));
    }
    Ok(t)
}

/// Writes `mv` (legal in `pos`): quiet moves `from-to`; captures `fromxto`, or the full path
/// when `full` is set or when another legal move shares start and end. Squares are numeric or
/// algebraic.
pub fn write_move(pos: &Position, mv: &Move, numeric: bool, full: bool) -> String {
    let st = |s: Square| s.styled(numeric).to_string();
    if !mv.is_capture() {
        return format!("{}-{}", st(mv.from()), st(mv.to()));
    }
    let full = full || {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves
            .iter()
            .any(|m| m.from() == mv.from() && m.to() == mv.to() && m != mv)
    };
    if full {
        if let Some(path) = pos.paths(mv).first() {
            return path.write(numeric);
        }
    }
    format!("{}x{}", st(mv.from()), st(mv.to()))
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
        assert_eq!(p("31-27").separator(), Separator::Dash);
        assert_eq!(sq(&p("31x22x13")), [31, 22, 13]);
        assert_eq!(p("31x22").separator(), Separator::Cross);
        assert_eq!(sq(&p("31:22")), [31, 22]);
        assert_eq!(sq(&p(" 1- 6 ")), [1, 6]);
        assert_eq!(sq(&p("06-11")), [6, 11]);
        assert_eq!(sq(&p("3228")), [32, 28]);
        assert_eq!(sq(&p("31x22!?")), [31, 22]);
        assert_eq!(sq(&p("c3-d4")), [37, 32]);
        assert!(!p("c3-d4").numeric());
        assert_eq!(sq(&p("C3XE5")), [37, 28]);
        assert_eq!(p("c3xe5").to_string(), "c3xe5");
    }

    #[test]
    fn explains_unreadable_tokens() {
        let e = |s: &str| parse_token(s.as_bytes()).unwrap_err();
        assert!(e("").contains("empty"));
        assert!(e("31-").contains("missing"));
        assert!(e("31").contains("at least"));
        assert!(e("31-51").contains("1 to 50"));
        assert!(e("a2-b3").contains("light square"));
        assert!(e("31/27").contains("unexpected `/`"));
        assert!(e("k1-j2").contains("not a square"));
        assert!(e("3151").contains("1 to 50"));
    }
}
