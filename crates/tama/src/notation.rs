//! Move tokens: reading what players write and writing moves back.
//!
//! Accepted: algebraic (`c3`) or numeric (`19`, 1 = a1 … 64 = h8, leading zeros allowed)
//! squares, separated by `-`, `x`, `X`, `:` or `×`, by blanks, or by nothing (`c3c4`, and for
//! numeric squares exactly four digits: `1927`). A token names the start square and then
//! landing squares: two squares for a quiet move or a short capture, more for a capture path.

use crate::moves::{Move, MAX_JUMPS};
use crate::square::Square;

/// The separator a token was written with (kept only to word diagnostics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separator {
    /// `-` only.
    Quiet,
    /// At least one `x`, `:` or `×`.
    Capture,
    /// No separator at all (`c3c4`).
    None,
}

/// A parsed move token: up to 17 squares (start plus 16 landings) and its separator kind.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Token {
    squares: [Square; MAX_JUMPS + 1],
    len: u8,
    sep: Separator,
    numeric: bool,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Token({})", self.display())
    }
}

impl Token {
    /// The squares in order.
    #[inline]
    pub fn squares(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    /// The start square.
    #[inline]
    pub fn from(&self) -> Square {
        self.squares[0]
    }

    /// The last square.
    #[inline]
    pub fn to(&self) -> Square {
        self.squares[self.len as usize - 1]
    }

    /// The separator kind.
    #[inline]
    pub fn separator(&self) -> Separator {
        self.sep
    }

    /// True when the squares were numeric.
    #[inline]
    pub fn is_numeric(&self) -> bool {
        self.numeric
    }

    /// The token rewritten in normal form with algebraic squares (`c3xc5xe5`, `c3-c4`).
    pub fn display(&self) -> String {
        let mut s = String::new();
        for (i, sq) in self.squares().iter().enumerate() {
            if i > 0 {
                s.push(if self.sep == Separator::Capture {
                    'x'
                } else {
                    '-'
                });
            }
            push_square(&mut s, *sq, false);
        }
        s
    }
}

/// Reads a move token. The error is a sentence for the player.
pub fn parse_token(bytes: &[u8]) -> Result<Token, String> {
    let shown = || String::from_utf8_lossy(bytes).into_owned();
    let mut end = bytes.len();
    // Strength marks, if the reader left any.
    while end > 0 && matches!(bytes[end - 1], b'!' | b'?') {
        end -= 1;
    }
    let b = &bytes[..end];
    let mut t = Token {
        squares: [Square::A1; MAX_JUMPS + 1],
        len: 0,
        sep: Separator::None,
        numeric: false,
    };
    let mut seen_dash = false;
    let mut seen_cap = false;
    let mut i = 0;
    let push = |t: &mut Token, sq: Square| -> Result<(), String> {
        if t.len as usize == t.squares.len() {
            return Err(format!(
                "`{}` names more squares than a move can have",
                shown()
            ));
        }
        t.squares[t.len as usize] = sq;
        t.len += 1;
        Ok(())
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'-' => {
                seen_dash = true;
                i += 1;
            }
            b'x' | b'X' | b':' => {
                seen_cap = true;
                i += 1;
            }
            0xC3 if b.get(i + 1) == Some(&0x97) => {
                seen_cap = true;
                i += 2;
            }
            b'a'..=b'h' | b'A'..=b'H' => {
                let f = (c.to_ascii_lowercase() - b'a') as i8;
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                let digits = &b[i + 1..j];
                if digits.len() != 1 || !(b'1'..=b'8').contains(&digits[0]) {
                    return Err(format!(
                        "`{}` in `{}` is not a square (files a–h, ranks 1–8)",
                        String::from_utf8_lossy(&b[i..j]),
                        shown()
                    ));
                }
                let sq = Square::from_coords(f, (digits[0] - b'1') as i8).expect("on board");
                push(&mut t, sq)?;
                i = j;
            }
            b'0'..=b'9' => {
                let mut j = i;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                let run = &b[i..j];
                let numbers: &[&[u8]] = match run.len() {
                    1 | 2 => &[run],
                    4 => &[&run[..2], &run[2..]],
                    _ => {
                        return Err(format!(
                            "`{}` in `{}` is not a square number (1–64)",
                            String::from_utf8_lossy(run),
                            shown()
                        ))
                    }
                };
                for n in numbers {
                    let v = n.iter().fold(0u32, |a, d| a * 10 + u32::from(d - b'0'));
                    let sq = Square::from_number(v).ok_or_else(|| {
                        format!(
                            "square number {} in `{}` is out of range (1–64)",
                            String::from_utf8_lossy(n),
                            shown()
                        )
                    })?;
                    push(&mut t, sq)?;
                }
                t.numeric = true;
                i = j;
            }
            _ => {
                return Err(format!(
                    "`{}` is not a move: unexpected `{}`",
                    shown(),
                    String::from_utf8_lossy(&b[i..(i + 1).min(b.len())])
                ))
            }
        }
    }
    if t.len < 2 {
        return Err(if t.len == 0 {
            format!("`{}` is not a move", shown())
        } else {
            format!(
                "`{}` is not a move: a move names its start and its destination",
                shown()
            )
        });
    }
    t.sep = if seen_cap {
        Separator::Capture
    } else if seen_dash {
        Separator::Quiet
    } else {
        Separator::None
    };
    Ok(t)
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

/// Writes a move (no check whether the short form is ambiguous; see
/// [`crate::Tama::format_move`] for the form that checks).
pub fn format_path(mv: &Move, numeric: bool, full: bool) -> String {
    let mut s = String::with_capacity(8);
    write_path(&mut s, mv, numeric, full);
    s
}
