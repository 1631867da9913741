//! The move-token grammar of the draughts family (the standard variants, Tama, Odnocvetnie
//! Shashki), written over a board's square names ([`SquareNames`]) so that any board with
//! numbered or named squares can use it, and [`fit`], the match of a token against a capture
//! chain that their resolvers share.
//!
//! A token is a start square followed by one or more squares: `32-28`, `28x19`, `28:19`,
//! `28x19x10`, `c3-d4`, `C3:E5`, padded `1- 6`, leading zeros `06-11`, and with no separator
//! at all `3228` (numeric: two digits per square) or `c3d4`. Separators are `-`, `x`, `X`, `:`
//! and `×`, and an en or em dash (`–`, `—`) reads as `-`; blanks around them are ignored. Strength marks (`!`, `?`) and check-like marks (`+`, `#`) at the end are dropped.

/// Why a move token does not read, as a sentence for the player (every message but
/// [`TokenError::Empty`] quotes the token, trimmed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Nothing but blanks and marks.
    #[error("an empty move")]
    Empty,
    /// A character that has no place in a move.
    #[error("`{0}` is not a move")]
    NotAMove(String),
    /// A separator that follows no square.
    #[error("`{0}` is not a move: a separator without a square before it")]
    LeadingSeparator(String),
    /// Two squares with nothing between them.
    #[error("`{0}` is not a move: two squares without a separator")]
    MissingSeparator(String),
    /// A lettered square that is not a playable square of the board.
    #[error("`{token}` names {file}{rank}, which is not a playable square")]
    NotPlayable {
        /// The token.
        token: String,
        /// The file letter, lower case.
        file: char,
        /// The rank as written.
        rank: u32,
    },
    /// A number the board has no square for.
    #[error("`{token}` names square {number}, which this board does not have")]
    NoSuchSquare {
        /// The token.
        token: String,
        /// The number written.
        number: u32,
    },
    /// Numbers and letters in one token.
    #[error("`{0}` mixes numbered and lettered squares")]
    MixedNames(String),
    /// A separator at the end.
    #[error("`{0}` ends with a separator")]
    TrailingSeparator(String),
    /// One square alone.
    #[error("`{0}` names only one square")]
    OneSquare(String),
    /// More squares than the reader holds (see [`FixedToken`]).
    #[error("`{token}` names more than {max} squares")]
    TooManySquares {
        /// The token.
        token: String,
        /// The most squares a token may name.
        max: usize,
    },
}

/// How a board names its squares: what a token's squares are read into.
pub trait SquareNames {
    /// A square of the board.
    type Square: Copy + Eq;
    /// The square numbered `n` (1-based), if there is one.
    fn numbered(&self, n: u32) -> Option<Self::Square>;
    /// The playable square at `(file, rank)` (0-based), if there is one.
    fn at_coords(&self, file: u8, rank: u8) -> Option<Self::Square>;
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
    ) -> Result<Self, TokenError> {
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
    ) -> Result<(), TokenError> {
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
                TokenError::TooManySquares {
                    token: String::from_utf8_lossy(raw).trim().to_string(),
                    max: N,
                }
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
pub fn parse_token<B: SquareNames>(board: &B, raw: &[u8]) -> Result<Token<B::Square>, TokenError> {
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
    mut push: impl FnMut(B::Square) -> Result<(), TokenError>,
) -> Result<(Separator, bool), TokenError> {
    if let Some(done) = canonical(board, raw, &mut push) {
        return done;
    }
    let shown = || String::from_utf8_lossy(raw).trim().to_string();
    let mut b = raw.trim_ascii();
    while let [rest @ .., b'!' | b'?' | b'+' | b'#'] = b {
        b = rest.trim_ascii_end();
    }
    if b.is_empty() {
        return Err(TokenError::Empty);
    }
    let mut scan = Scan {
        any_sep: b
            .iter()
            .any(|&c| matches!(c, b'-' | b'x' | b'X' | b':' | 0xC3 | 0xE2)),
        ..Scan::default()
    };
    let mut i = 0;
    while i < b.len() {
        i = match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i + 1,
            b'-' | b'x' | b'X' | b':' | 0xC3 | 0xE2 => scan.separator(&b[i..], &shown)? + i,
            b'0'..=b'9' => scan.number(board, b, i, &shown, &mut push)?,
            b'a'..=b'w' | b'A'..=b'W' => scan.lettered(board, b, i, &shown, &mut push)?,
            _ => return Err(TokenError::NotAMove(shown())),
        };
    }
    scan.finish(&shown)
}

/// What the general reader of [`parse_squares`] has seen so far.
#[derive(Default)]
struct Scan {
    /// The token holds a separator somewhere (else `3228` is two squares of two digits).
    any_sep: bool,
    count: usize,
    capture: bool,
    numeric: bool,
    alg: bool,
    last_was_square: bool,
}

impl Scan {
    /// A separator at the start of `at`: its width.
    fn separator(&mut self, at: &[u8], shown: &dyn Fn() -> String) -> Result<usize, TokenError> {
        let width = separator_width(at).ok_or_else(|| TokenError::NotAMove(shown()))?;
        self.capture |= !matches!(at[0], b'-' | 0xE2);
        if !self.last_was_square {
            return Err(TokenError::LeadingSeparator(shown()));
        }
        self.last_was_square = false;
        Ok(width)
    }

    /// The digits starting at `b[start]`: one numbered square, or two-digit squares run
    /// together (`3228`). Returns where reading goes on.
    fn number<B: SquareNames>(
        &mut self,
        board: &B,
        b: &[u8],
        start: usize,
        shown: &dyn Fn() -> String,
        push: &mut impl FnMut(B::Square) -> Result<(), TokenError>,
    ) -> Result<usize, TokenError> {
        let mut i = start;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &b[start..i];
        self.numeric = true;
        if !self.any_sep && digits.len() >= 4 && digits.len() & 1 == 0 {
            // `3228`: two digits per square.
            for pair in digits.chunks(2) {
                let k = u32::from(pair[0] - b'0') * 10 + u32::from(pair[1] - b'0');
                push(number(board, k, shown)?)?;
                self.count += 1;
            }
        } else {
            if self.last_was_square || digits.len() > 6 {
                return Err(TokenError::MissingSeparator(shown()));
            }
            push(number(board, digits_value(digits), shown)?)?;
            self.count += 1;
        }
        self.last_was_square = true;
        Ok(i)
    }

    /// The lettered square starting at `b[start]` (`c3`, `J10`). Returns where reading goes
    /// on.
    fn lettered<B: SquareNames>(
        &mut self,
        board: &B,
        b: &[u8],
        start: usize,
        shown: &dyn Fn() -> String,
        push: &mut impl FnMut(B::Square) -> Result<(), TokenError>,
    ) -> Result<usize, TokenError> {
        let f = b[start].to_ascii_lowercase() - b'a';
        let mut i = start + 1;
        let ranks = i;
        while i < b.len() && b[i].is_ascii_digit() && i - ranks < 2 {
            i += 1;
        }
        if i == ranks {
            return Err(TokenError::NotAMove(shown()));
        }
        let r = digits_value(&b[ranks..i]);
        self.alg = true;
        let sq = u8::try_from(r)
            .ok()
            .filter(|&r| r >= 1)
            .and_then(|r| board.at_coords(f, r - 1))
            .ok_or_else(|| TokenError::NotPlayable {
                token: shown(),
                file: (b'a' + f) as char,
                rank: r,
            })?;
        push(sq)?;
        self.count += 1;
        self.last_was_square = true;
        Ok(i)
    }

    /// The checks of the whole token, and its separator kind and numbering.
    fn finish(&self, shown: &dyn Fn() -> String) -> Result<(Separator, bool), TokenError> {
        if self.numeric && self.alg {
            return Err(TokenError::MixedNames(shown()));
        }
        if !self.last_was_square {
            return Err(TokenError::TrailingSeparator(shown()));
        }
        if self.count < 2 {
            return Err(TokenError::OneSquare(shown()));
        }
        let separator = if self.capture {
            Separator::Capture
        } else if self.any_sep {
            Separator::Quiet
        } else {
            Separator::None
        };
        Ok((separator, self.numeric))
    }
}

/// The canonical form read at once (the replay hot path): lower-case squares with one-digit
/// ranks (`c3`) or numbers without leading zeros (`9`, `32`), one ASCII separator (`-`, `x`,
/// `:`) between each two, nothing else. `None` for anything else, before anything is pushed:
/// the general reader then handles it (and reads canonical tokens to the same result).
#[inline]
#[doc(hidden)]
pub fn canonical<B: SquareNames>(
    board: &B,
    raw: &[u8],
    push: &mut impl FnMut(B::Square) -> Result<(), TokenError>,
) -> Option<Result<(Separator, bool), TokenError>> {
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
#[doc(hidden)]
pub fn read_canonical<B: SquareNames>(
    board: &B,
    raw: &[u8],
    buf: &mut [B::Square],
) -> Option<(usize, Separator, bool)> {
    // Most tokens are two squares and one separator: read at once, to the same result.
    if let (Some((first, second, capture, numeric)), [a, b, ..]) = (two_squares(raw), &mut *buf) {
        let square = |w: u32| {
            if numeric {
                board.numbered(w)
            } else {
                board.at_coords((w >> 8) as u8, w as u8)
            }
        };
        // As the general pass does: the first square is stored before the second is read.
        *a = square(first)?;
        *b = square(second)?;
        let separator = if capture {
            Separator::Capture
        } else {
            Separator::Quiet
        };
        return Some((2, separator, numeric));
    }
    read_canonical_general(board, raw, buf)
}

/// [`read_canonical`] without its shortcut for two squares: the canonical grammar in full.
#[inline]
fn read_canonical_general<B: SquareNames>(
    board: &B,
    raw: &[u8],
    buf: &mut [B::Square],
) -> Option<(usize, Separator, bool)> {
    let mut len = 0;
    let (count, capture, numeric) = canonical_pass(board, raw, &mut |sq| {
        // Too long for `buf`: the whole grammar takes over, so the error is never shown.
        *buf.get_mut(len).ok_or(TokenError::Empty)? = sq;
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

/// A token of two squares and one separator in the canonical form (see [`canonical`]), the
/// commonest token of all: `32-28`, `9x18`, `c3-d4`, `d4:f6`. Returns the two squares as
/// written (a number, or a file and a rank counted from 0 packed as `file << 8 | rank`),
/// whether the separator is a capture's and whether the squares are numbers; `None` for any
/// other token, which [`canonical_pass`] then reads to the same result.
#[inline(always)]
fn two_squares(raw: &[u8]) -> Option<(u32, u32, bool, bool)> {
    let capture = |sep: u8| match sep {
        b'-' => Some(false),
        b'x' | b':' => Some(true),
        _ => None,
    };
    let n = |c: u8| u32::from(c - b'0');
    let nn = |c: u8, d: u8| n(c) * 10 + n(d);
    let coords = |f: u8, r: u8| u32::from(f - b'a') << 8 | u32::from(r - b'1');
    // One pattern per length and shape; a separator that is a digit is refused by `capture`.
    let (first, sep, second, numeric) = match *raw {
        [a @ b'1'..=b'9', s, c @ b'1'..=b'9'] => (n(a), s, n(c), true),
        [a @ b'1'..=b'9', b @ b'0'..=b'9', s, c @ b'1'..=b'9'] => (nn(a, b), s, n(c), true),
        [a @ b'1'..=b'9', s, c @ b'1'..=b'9', d @ b'0'..=b'9'] => (n(a), s, nn(c, d), true),
        [a @ b'1'..=b'9', b @ b'0'..=b'9', s, c @ b'1'..=b'9', d @ b'0'..=b'9'] => {
            (nn(a, b), s, nn(c, d), true)
        }
        [f1 @ b'a'..=b'w', r1 @ b'1'..=b'9', s, f2 @ b'a'..=b'w', r2 @ b'1'..=b'9'] => {
            (coords(f1, r1), s, coords(f2, r2), false)
        }
        _ => return None,
    };
    Some((first, second, capture(sep)?, numeric))
}

/// One pass of [`canonical`]: the squares pushed, whether a capture separator was seen, and
/// whether the squares were numbers; `None` when the token is not canonical.
#[inline]
fn canonical_pass<B: SquareNames>(
    board: &B,
    raw: &[u8],
    push: &mut impl FnMut(B::Square) -> Result<(), TokenError>,
) -> Option<Result<(usize, bool, bool), TokenError>> {
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
) -> Result<B::Square, TokenError> {
    board.numbered(n).ok_or_else(|| TokenError::NoSuchSquare {
        token: shown(),
        number: n,
    })
}

/// How a move token fits one complete capture chain (see [`fit`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fit {
    /// The token names this chain: short form, full path, or start, some landings, end.
    Whole,
    /// The token stops at a landing square from which the chain goes on; the payload is the
    /// number of landings (= captures) up to there.
    Prefix(usize),
    /// No fit.
    None,
}

/// The candidate filter every draughts resolver shares: matches a token's squares against a
/// chain that starts on `from` and lands on `path` in order. The start must agree, the token's
/// inner squares must appear in order among the landings, and its last square must be the
/// chain's end ([`Fit::Whole`]) or an earlier landing ([`Fit::Prefix`]). A chain may land on its
/// final square earlier too (a king circling back): the token names the whole chain when the
/// chain ends there. `path` is any sequence of squares that knows its length (a slice's
/// `iter().copied()`, or squares converted on the fly).
#[inline]
pub fn fit<S, P>(tok: &[S], from: S, path: P) -> Fit
where
    S: Copy + Eq,
    P: IntoIterator<Item = S>,
    P::IntoIter: ExactSizeIterator,
{
    if tok.len() < 2 || tok[0] != from {
        return Fit::None;
    }
    let last = tok[tok.len() - 1];
    let inner = &tok[1..tok.len() - 1];
    let path = path.into_iter();
    let len = path.len();
    let mut k = 0;
    let mut prefix = None;
    for (j, sq) in path.enumerate() {
        if k == inner.len() && sq == last {
            if j + 1 == len {
                return Fit::Whole;
            }
            prefix.get_or_insert(j + 1);
        }
        if k < inner.len() && sq == inner[k] {
            k += 1;
        }
    }
    prefix.map_or(Fit::None, Fit::Prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of 50 numbered squares whose lettered squares are the dark ones of 10 by 10.
    struct Board;

    impl SquareNames for Board {
        type Square = u32;
        fn numbered(&self, n: u32) -> Option<u32> {
            (1..=50).contains(&n).then_some(n)
        }
        fn at_coords(&self, file: u8, rank: u8) -> Option<u32> {
            (file < 10 && rank < 10 && (file + rank).is_multiple_of(2))
                .then_some(1000 + u32::from(file) * 10 + u32::from(rank))
        }
    }

    /// The shortcut of `read_canonical` for two squares reads every token of up to five
    /// bytes (over digits, files, separators and other bytes) as the whole canonical grammar
    /// does: the same squares, separator and numbering, or `None` for both.
    #[test]
    fn two_squares_read_as_the_general_pass() {
        let bytes = b"0125789acdjw-x:X ";
        let mut tokens: Vec<Vec<u8>> = vec![Vec::new()];
        let mut all = Vec::new();
        for _ in 0..5 {
            tokens = tokens
                .iter()
                .flat_map(|t| {
                    bytes.iter().map(move |&c| {
                        let mut t = t.clone();
                        t.push(c);
                        t
                    })
                })
                .collect();
            all.extend(tokens.iter().cloned());
        }
        let mut shortcut_used = 0;
        for t in &all {
            for room in [1, 2, 4] {
                let mut fast = vec![0u32; room];
                let mut general = vec![0u32; room];
                let a = read_canonical(&Board, t, &mut fast);
                let b = read_canonical_general(&Board, t, &mut general);
                let shown = String::from_utf8_lossy(t);
                assert_eq!(a, b, "`{shown}` with room for {room}");
                if let Some((count, ..)) = a {
                    assert_eq!(fast[..count], general[..count], "`{shown}`");
                }
                shortcut_used += usize::from(two_squares(t).is_some() && a.is_some());
            }
        }
        // The words above do reach the shortcut (`32-28`, `c3-d4`, `9x18`, ...).
        assert!(shortcut_used > 1000, "{shortcut_used}");
    }
}
