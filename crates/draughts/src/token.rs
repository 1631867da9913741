//! The move-token grammar, shared by every variant and written over a board's square names so
//! that other draughts crates (8x8 all-squares boards, four-seat boards) can use it too.
//!
//! A token is a start square followed by one or more squares: `32-28`, `28x19`, `28:19`,
//! `28x19x10`, `c3-d4`, `C3:E5`, padded `1- 6`, leading zeros `06-11`, and with no separator
//! at all `3228` (numeric: two digits per square) or `c3d4`. Separators are `-`, `x`, `X`, `:`
//! and `×`, and an en or em dash (`–`, `—`) reads as `-`; blanks around them are ignored. Strength marks (`!`, `?`) and check-like marks (`+`, `#`) at the end are dropped.

/// How a board names its squares: what a token's squares are read into.
pub trait SquareNames {
    /// A square of the board.
    type Square: Copy + Eq;
    /// The square numbered `n` (1-based), if there is one.
    fn numbered(&self, n: u32) -> Option<Self::Square>;
    /// The playable square at `(file, rank)` (0-based), if there is one.
    fn at_coords(&self, file: u8, rank: u8) -> Option<Self::Square>;
}

impl SquareNames for crate::Geometry {
    type Square = crate::Bit;
    fn numbered(&self, n: u32) -> Option<crate::Bit> {
        self.from_number(n)
    }
    fn at_coords(&self, file: u8, rank: u8) -> Option<crate::Bit> {
        self.at(file, rank)
    }
}

/// The separators a token was written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separator {
    /// `-` only (or blanks).
    Quiet,
    /// At least one `x`, `:` or `×`.
    Capture,
    /// None at all (`3228`, `c3d4`).
    None,
}

/// A parsed token: its squares in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token<S> {
    /// The squares: the start, then the squares written after it.
    pub squares: Vec<S>,
    /// The separators used.
    pub separator: Separator,
    /// The squares were written as numbers.
    pub numeric: bool,
}

impl<S: Copy> Token<S> {
    /// The start square.
    pub fn from(&self) -> S {
        self.squares[0]
    }
    /// The last square.
    pub fn to(&self) -> S {
        self.squares[self.squares.len() - 1]
    }
}

/// Reads a token. The error is a sentence for the player.
pub fn parse_token<B: SquareNames>(board: &B, raw: &[u8]) -> Result<Token<B::Square>, String> {
    let mut squares = Vec::with_capacity(4);
    let (separator, numeric) = parse_squares(board, raw, |sq| {
        squares.push(sq);
        Ok(())
    })?;
    Ok(Token {
        squares,
        separator,
        numeric,
    })
}

/// The grammar itself, without allocation: reads a token and hands each square, in order, to
/// `push` (which may refuse, e.g. when its fixed-size buffer is full: that sentence becomes the
/// error). Returns the separator kind and whether the squares were numbers. En and em dashes
/// (`–`, `—`) read as `-`. The error is a sentence for the player.
pub fn parse_squares<B: SquareNames>(
    board: &B,
    raw: &[u8],
    mut push: impl FnMut(B::Square) -> Result<(), String>,
) -> Result<(Separator, bool), String> {
    let shown = || String::from_utf8_lossy(raw).trim().to_string();
    let mut b = raw.trim_ascii();
    while let [rest @ .., b'!' | b'?' | b'+' | b'#'] = b {
        b = rest.trim_ascii_end();
    }
    if b.is_empty() {
        return Err("an empty move".to_string());
    }
    let any_sep = b
        .iter()
        .any(|&c| matches!(c, b'-' | b'x' | b'X' | b':' | 0xC3 | 0xE2));
    let mut count = 0usize;
    let mut capture = false;
    let (mut numeric, mut alg) = (false, false);
    let mut last_was_square = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'-' | b'x' | b'X' | b':' | 0xC3 | 0xE2 => {
                let width = separator_width(&b[i..])
                    .ok_or_else(|| format!("`{}` is not a move", shown()))?;
                capture |= !matches!(c, b'-' | 0xE2);
                if !last_was_square {
                    return Err(format!(
                        "`{}` is not a move: a separator without a square before it",
                        shown()
                    ));
                }
                last_was_square = false;
                i += width;
            }
            b'0'..=b'9' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let digits = &b[start..i];
                numeric = true;
                if !any_sep && digits.len() >= 4 && digits.len() & 1 == 0 {
                    // `3228`: two digits per square.
                    for pair in digits.chunks(2) {
                        let k = u32::from(pair[0] - b'0') * 10 + u32::from(pair[1] - b'0');
                        push(number(board, k, &shown)?)?;
                        count += 1;
                    }
                } else {
                    if last_was_square || digits.len() > 6 {
                        return Err(format!(
                            "`{}` is not a move: two squares without a separator",
                            shown()
                        ));
                    }
                    push(number(board, digits_value(digits), &shown)?)?;
                    count += 1;
                }
                last_was_square = true;
            }
            b'a'..=b'w' | b'A'..=b'W' => {
                let f = c.to_ascii_lowercase() - b'a';
                i += 1;
                let start = i;
                while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
                    i += 1;
                }
                if i == start {
                    return Err(format!("`{}` is not a move", shown()));
                }
                let r = digits_value(&b[start..i]);
                alg = true;
                let sq = u8::try_from(r)
                    .ok()
                    .filter(|&r| r >= 1)
                    .and_then(|r| board.at_coords(f, r - 1))
                    .ok_or_else(|| {
                        format!(
                            "`{}` names {}{r}, which is not a playable square",
                            shown(),
                            (b'a' + f) as char
                        )
                    })?;
                push(sq)?;
                count += 1;
                last_was_square = true;
            }
            _ => return Err(format!("`{}` is not a move", shown())),
        }
    }
    if numeric && alg {
        return Err(format!("`{}` mixes numbered and lettered squares", shown()));
    }
    if !last_was_square {
        return Err(format!("`{}` ends with a separator", shown()));
    }
    if count < 2 {
        return Err(format!("`{}` names only one square", shown()));
    }
    let separator = if capture {
        Separator::Capture
    } else if any_sep {
        Separator::Quiet
    } else {
        Separator::None
    };
    Ok((separator, numeric))
}

/// The width in bytes of the separator at the start of `b`: one for ASCII, two for `×`
/// (U+00D7), three for an en or em dash (U+2013, U+2014); `None` for other bytes.
fn separator_width(b: &[u8]) -> Option<usize> {
    match b {
        [b'-' | b'x' | b'X' | b':', ..] => Some(1),
        [0xC3, 0x97, ..] => Some(2),
        [0xE2, 0x80, 0x93 | 0x94, ..] => Some(3),
        _ => None,
    }
}

/// The value of a run of ASCII digits (at most six).
fn digits_value(digits: &[u8]) -> u32 {
    digits
        .iter()
        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
}

fn number<B: SquareNames>(
    board: &B,
    n: u32,
    shown: &dyn Fn() -> String,
) -> Result<B::Square, String> {
    board.numbered(n).ok_or_else(|| {
        format!(
            "`{}` names square {n}, which this board does not have",
            shown()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Geometry, INTERNATIONAL, RUSSIAN};

    fn nums(g: &Geometry, t: &str) -> Vec<u32> {
        parse_token(g, t.as_bytes())
            .unwrap()
            .squares
            .iter()
            .map(|&b| g.number(b))
            .collect()
    }

    #[test]
    fn numeric_forms() {
        let g = Geometry::of(&INTERNATIONAL);
        assert_eq!(nums(g, "32-28"), [32, 28]);
        assert_eq!(nums(g, "28x19x10"), [28, 19, 10]);
        assert_eq!(nums(g, "28:19"), [28, 19]);
        assert_eq!(nums(g, "1- 6"), [1, 6]);
        assert_eq!(nums(g, "06-11"), [6, 11]);
        assert_eq!(nums(g, "3228"), [32, 28]);
        assert_eq!(nums(g, "32×28"), [32, 28]);
        assert_eq!(nums(g, "32-28!?"), [32, 28]);
        assert_eq!(nums(g, "32\u{2013}28"), [32, 28]);
        assert_eq!(nums(g, "32\u{2014}28"), [32, 28]);
        assert_eq!(
            parse_token(g, "32\u{2013}28".as_bytes()).unwrap().separator,
            Separator::Quiet
        );
        assert!(parse_token(g, "32\u{2012}28".as_bytes()).is_err());
        let t = parse_token(g, b"28x19").unwrap();
        assert_eq!(t.separator, Separator::Capture);
        assert!(parse_token(g, b"51-46").unwrap_err().contains("51"));
        assert!(parse_token(g, b"- -").is_err());
        assert!(parse_token(g, b"32").is_err());
        assert!(parse_token(g, b"32-").is_err());
    }

    #[test]
    fn algebraic_forms() {
        let g = Geometry::of(&RUSSIAN);
        let names = |t: &str| -> Vec<String> {
            parse_token(g, t.as_bytes())
                .unwrap()
                .squares
                .iter()
                .map(|&b| g.algebraic(b))
                .collect()
        };
        assert_eq!(names("c3-d4"), ["c3", "d4"]);
        assert_eq!(names("C3-D4"), ["c3", "d4"]);
        assert_eq!(names("c3:e5:g3"), ["c3", "e5", "g3"]);
        assert_eq!(names("c3d4"), ["c3", "d4"]);
        assert!(parse_token(g, b"c4-d5").unwrap_err().contains("c4"));
        assert!(parse_token(g, b"c3-22").is_err());
    }
}
