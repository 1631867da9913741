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

/// A parsed token held without allocation (the replay hot path): at most `N` squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedToken<S, const N: usize> {
    squares: [S; N],
    len: u8,
    separator: Separator,
    numeric: bool,
}

impl<S: Copy, const N: usize> FixedToken<S, N> {
    /// Reads a token over `board`'s square names; `blank` fills the unused slots. A token with
    /// more than `N` squares is refused. The error is a sentence for the player.
    #[inline]
    pub fn parse<B: SquareNames<Square = S>>(
        board: &B,
        raw: &[u8],
        blank: S,
    ) -> Result<Self, String> {
        let mut t = Self::blank(blank);
        t.read(board, raw)?;
        Ok(t)
    }

    /// A token of no squares, every slot `blank`: the place [`FixedToken::read`] reads into.
    #[inline]
    pub fn blank(blank: S) -> Self {
        FixedToken {
            squares: [blank; N],
            len: 0,
            separator: Separator::None,
            numeric: false,
        }
    }

    /// Reads a token into this one, which must be [`FixedToken::blank`]: what
    /// [`FixedToken::parse`] returns, written in place. The replay reads every move token this
    /// way: a token just written square by square and then returned is copied whole, and the
    /// copy waits for those narrow stores.
    #[inline]
    pub fn read<B: SquareNames<Square = S>>(
        &mut self,
        board: &B,
        raw: &[u8],
    ) -> Result<(), String> {
        let t = self;
        // The common shapes (`32-28`, `c3xe5xc7`) in one pass straight into the buffer; any
        // other token, or one too long for it, goes through the whole grammar from the start.
        if let Some((count, separator, numeric)) = read_canonical(board, raw, &mut t.squares) {
            t.len = count as u8;
            t.separator = separator;
            t.numeric = numeric;
            return Ok(());
        }
        let (separator, numeric) = parse_squares(board, raw, |sq| {
            let slot = t.squares.get_mut(usize::from(t.len)).ok_or_else(|| {
                format!(
                    "`{}` names more than {N} squares",
                    String::from_utf8_lossy(raw).trim()
                )
            })?;
            *slot = sq;
            t.len += 1;
            Ok(())
        })?;
        t.separator = separator;
        t.numeric = numeric;
        Ok(())
    }

    /// The squares in order (at least two).
    #[inline]
    pub fn squares(&self) -> &[S] {
        &self.squares[..usize::from(self.len)]
    }

    /// The start square.
    #[inline]
    pub fn from(&self) -> S {
        self.squares[0]
    }

    /// The last square.
    #[inline]
    pub fn to(&self) -> S {
        self.squares[usize::from(self.len) - 1]
    }

    /// The separators used.
    #[inline]
    pub fn separator(&self) -> Separator {
        self.separator
    }

    /// The squares were written as numbers.
    #[inline]
    pub fn is_numeric(&self) -> bool {
        self.numeric
    }

    /// The token in normal form: squares named by `name`, joined by `x` when it was written as
    /// a capture and by `-` otherwise.
    pub fn write(&self, name: impl Fn(S) -> String) -> String {
        let sep = if self.separator == Separator::Capture {
            "x"
        } else {
            "-"
        };
        let names: Vec<String> = self.squares().iter().map(|&s| name(s)).collect();
        names.join(sep)
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
#[inline]
pub fn parse_squares<B: SquareNames>(
    board: &B,
    raw: &[u8],
    mut push: impl FnMut(B::Square) -> Result<(), String>,
) -> Result<(Separator, bool), String> {
    if let Some(done) = canonical(board, raw, &mut push) {
        return done;
    }
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

/// The canonical form read at once (the replay hot path): lower-case squares with one-digit
/// ranks (`c3`) or numbers without leading zeros (`9`, `32`), one ASCII separator (`-`, `x`,
/// `:`) between each two, nothing else. `None` for anything else, before anything is pushed:
/// the general reader then handles it (and reads canonical tokens to the same result).
#[inline]
fn canonical<B: SquareNames>(
    board: &B,
    raw: &[u8],
    push: &mut impl FnMut(B::Square) -> Result<(), String>,
) -> Option<Result<(Separator, bool), String>> {
    let (count, capture, numeric) = canonical_pass(board, raw, &mut |_| Ok(()))?.ok()?;
    if count < 2 {
        return None;
    }
    let done = canonical_pass(board, raw, push)?;
    let separator = if capture {
        Separator::Capture
    } else {
        Separator::Quiet
    };
    Some(done.map(|_| (separator, numeric)))
}

/// Reads a token of the common shapes (see [`canonical`]) into `buf`: the number of squares
/// (at least two), the separator and whether the squares were numbers. `None` for any other
/// token, or one with more squares than `buf` holds: the caller then uses the whole grammar.
#[inline]
pub(crate) fn read_canonical<B: SquareNames>(
    board: &B,
    raw: &[u8],
    buf: &mut [B::Square],
) -> Option<(usize, Separator, bool)> {
    let mut len = 0;
    let (count, capture, numeric) = canonical_pass(board, raw, &mut |sq| {
        *buf.get_mut(len).ok_or(String::new())? = sq;
        len += 1;
        Ok(())
    })?
    .ok()?;
    let separator = if capture {
        Separator::Capture
    } else {
        Separator::Quiet
    };
    (count >= 2).then_some((count, separator, numeric))
}

/// One pass of [`canonical`]: the squares pushed, whether a capture separator was seen, and
/// whether the squares were numbers; `None` when the token is not canonical.
#[inline]
fn canonical_pass<B: SquareNames>(
    board: &B,
    raw: &[u8],
    push: &mut impl FnMut(B::Square) -> Result<(), String>,
) -> Option<Result<(usize, bool, bool), String>> {
    let (mut i, mut count, mut capture, mut numeric) = (0, 0, false, None);
    loop {
        let (sq, num) = match *raw.get(i)? {
            c @ b'a'..=b'w' => {
                let r = *raw.get(i + 1).filter(|r| (b'1'..=b'9').contains(r))?;
                i += 2;
                (board.at_coords(c - b'a', r - b'1')?, false)
            }
            c @ b'1'..=b'9' => {
                let mut n = u32::from(c - b'0');
                i += 1;
                if let Some(d) = raw.get(i).filter(|d| d.is_ascii_digit()) {
                    n = n * 10 + u32::from(d - b'0');
                    i += 1;
                }
                (board.numbered(n)?, true)
            }
            _ => return None,
        };
        if *numeric.get_or_insert(num) != num {
            return None;
        }
        if let Err(e) = push(sq) {
            return Some(Err(e));
        }
        count += 1;
        match raw.get(i) {
            None => return Some(Ok((count, capture, num))),
            Some(b'-') => {}
            Some(b'x' | b':') => capture = true,
            Some(_) => return None,
        }
        i += 1;
    }
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
#[inline]
fn digits_value(digits: &[u8]) -> u32 {
    digits
        .iter()
        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
}

#[inline]
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

    /// The canonical fast path and the general reader agree on every token they both read.
    #[test]
    fn fast_path_agrees_with_general_reader() {
        let g = Geometry::of(&INTERNATIONAL);
        for t in [
            "32-28", "28x19x10", "1-6", "6:1", "46-41", "c3-d4", "a1xc3xe5", "j10-i9",
        ] {
            let fast = canonical(g, t.as_bytes(), &mut |_| Ok(()));
            let padded = format!(" {t} ");
            let general = parse_token(g, padded.as_bytes()).unwrap();
            assert_eq!(parse_token(g, t.as_bytes()).unwrap(), general, "{t}");
            if t == "j10-i9" {
                assert!(fast.is_none(), "two-digit ranks take the general path");
            } else {
                assert!(fast.is_some(), "{t} is canonical");
            }
        }
        for t in [
            "32-", "32", "06-11", "3228", "C3-d4", "c3-28", "51-46", "32--28",
        ] {
            assert!(canonical(g, t.as_bytes(), &mut |_| Ok(())).is_none(), "{t}");
        }
    }

    /// The stack reader gives what the general reader gives, for canonical tokens, tokens
    /// that start canonical and then turn odd, bad tokens and tokens too long for it.
    #[test]
    fn fixed_reader_agrees_with_general_reader() {
        let g = Geometry::of(&INTERNATIONAL);
        let long = ["28"; 9].join("x");
        for t in [
            "32-28",
            "28x19x10",
            "6:1",
            "c3-d4",
            "j10-i9",
            "32-28!?",
            "06-11",
            "3228",
            "32\u{2013}28",
            "28x19-",
            "28x19x",
            "c3-28",
            "51-46",
            "32",
            "- -",
            "28X19",
            "28x19x10x",
            &long,
        ] {
            let general = parse_token(g, t.as_bytes());
            let fixed = FixedToken::<crate::geometry::Bit, 4>::parse(
                g,
                t.as_bytes(),
                crate::geometry::NONE,
            );
            match (&general, &fixed) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.squares, b.squares(), "{t}");
                    assert_eq!(
                        (a.separator, a.numeric),
                        (b.separator(), b.is_numeric()),
                        "{t}"
                    );
                }
                (Err(_), Err(_)) => {}
                (Ok(a), Err(e)) => assert!(a.squares.len() > 4, "{t}: {e}"),
                (Err(e), Ok(_)) => panic!("{t}: the general reader refuses it ({e})"),
            }
        }
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
