//! Movetext tokens of a Thaayam turn: reading them and writing them.

use crate::board::{
    push_number, push_square, route_square, seat_from_letter, seat_letter, Square, TWIN_INDEX,
};
use crate::engine::{Action, Advance};
use crate::throws::{check_series_u32, SeriesError, ThrowSeq, Throws, MAX_SERIES};

/// One token of a turn, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    /// `S`, `W`, `N`, `E`.
    Seat(u8),
    /// `[1 4 2]`.
    Group,
    /// `in`.
    Enter,
    /// `off`.
    BearOff,
    /// `Tc5`.
    Twins(Square),
    /// `c1+4+2`, `Tc5+8+4-e4`, `d2+3xb4`.
    Advance {
        twin: bool,
        from: Square,
        throws: Throws,
        /// Stated arrival: (capture written with `x`, square).
        arrival: Option<(bool, Square)>,
    },
    /// `~4`.
    Lost(u8),
}

/// True for a lone seat letter: the token that starts a turn.
pub(crate) fn is_seat(token: &[u8]) -> bool {
    matches!(token, [b'S' | b'W' | b'N' | b'E'])
}

/// True for a throw group `[...]`.
pub(crate) fn is_group(token: &[u8]) -> bool {
    token.first() == Some(&b'[')
}

/// Why a throw group does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GroupError {
    #[error("\"{0}\": a series of throws is written in brackets, e.g. [1 4 2]")]
    Brackets(String),
    #[error("\"{part}\" in {group} is not a throw: a throw scores 1, 2, 3, 4 or 8")]
    NotAThrow { part: String, group: String },
    #[error(transparent)]
    Series(#[from] SeriesError),
}

/// Why an action token does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ActionError {
    #[error("\"{0}\": a lost throw is written ~ and its value, e.g. ~4")]
    LostThrow(String),
    #[error("cannot read \"{0}\": expected in, off, c1+4+2, Tc5+8+4, Tc5 or ~4")]
    Unreadable(String),
    #[error("\"{token}\": an advance names its throws, e.g. {from}+4+2")]
    NoThrows { token: String, from: Square },
    #[error("{0} is not a throw (a throw scores 1, 2, 3, 4 or 8)")]
    NotAThrow(String),
}

fn show(token: &[u8]) -> String {
    let s = String::from_utf8_lossy(token);
    if s.chars().count() > 40 {
        let cut: String = s.chars().take(40).collect();
        format!("{cut}…")
    } else {
        s.into_owned()
    }
}

/// Reads a throw group such as `[1 4 2]` (values separated by spaces or commas).
#[cfg(test)]
pub(crate) fn parse_group(token: &[u8]) -> Result<ThrowSeq, GroupError> {
    let (low, high, len, _) = parse_group_words(token)?;
    Ok(ThrowSeq::from_words([low, high], len))
}

/// Reads a throw group such as `[1 4 2]` (values separated by spaces or commas), giving
/// the throws as two words and a length (see [`ThrowSeq::from_words`]), and all of them as
/// a multiset. The words stay in registers where a [`ThrowSeq`] built here and then moved
/// would be written and read back in pieces, which is slow; the multiset is counted while
/// reading, which spares going over the throws again.
#[inline(always)]
pub(crate) fn parse_group_words(token: &[u8]) -> Result<(u128, u128, usize, Throws), GroupError> {
    match parse_plain_group(token) {
        Some(group) => Ok(group),
        None => parse_any_group(token).map(|seq| {
            let (low, high, len) = seq.words();
            (low, high, len, seq.multiset())
        }),
    }
}

/// [`parse_group_words`] for every shape of group, with the messages for wrong ones.
#[inline(never)]
fn parse_any_group(token: &[u8]) -> Result<ThrowSeq, GroupError> {
    let inner = token
        .strip_prefix(b"[")
        .and_then(|t| t.strip_suffix(b"]"))
        .ok_or_else(|| GroupError::Brackets(show(token)))?;
    let mut values = [0u32; 40];
    let mut n = 0usize;
    for part in inner
        .split(|b| b.is_ascii_whitespace() || *b == b',')
        .filter(|p| !p.is_empty())
    {
        if part.len() > 3 || !part.iter().all(u8::is_ascii_digit) {
            return Err(GroupError::NotAThrow {
                part: show(part),
                group: show(token),
            });
        }
        let v = part.iter().fold(0u32, |a, d| a * 10 + u32::from(d - b'0'));
        if n == values.len() {
            return Err(SeriesError::TooLong(n + 1).into());
        }
        values[n] = v;
        n += 1;
    }
    check_series_u32(values[..n].iter().copied())?;
    // Checked above: at most `MAX_SERIES` values, each one a throw value.
    let mut bytes = [0u8; MAX_SERIES];
    for (b, &v) in bytes.iter_mut().zip(&values[..n]) {
        *b = v as u8;
    }
    Ok(ThrowSeq::new(&bytes[..n])?)
}

/// The common shape of a throw group, read in one pass: a valid series written as single
/// digits separated by single spaces (`[1 4 2]`), as words. `None` for anything else,
/// which [`parse_any_group`] then reads (and explains if it is wrong).
#[inline(always)]
fn parse_plain_group(token: &[u8]) -> Option<(u128, u128, usize, Throws)> {
    let inner = token.strip_prefix(b"[")?.strip_suffix(b"]")?;
    // The values gather in two words (bytes 0..16 and 16..32) rather than in memory one
    // byte at a time, which is slow to read back as a whole right after.
    let (mut low, mut high) = (0u128, 0u128);
    let mut len = 0usize;
    // How many of each value, in byte `value % 8` of a word: 8s, 1s, 2s, 3s, 4s (at most 32
    // throws: no byte overflows).
    let mut counts = 0u64;
    let mut bytes = inner.iter();
    loop {
        let value = match bytes.next()? {
            d @ (b'1' | b'2' | b'3' | b'4' | b'8') => d - b'0',
            _ => return None,
        };
        if len == MAX_SERIES {
            return None;
        }
        counts += 1 << (8 * (value % 8));
        let shifted = u128::from(value) << (8 * (len % 16));
        if len < 16 {
            low |= shifted;
        } else {
            high |= shifted;
        }
        len += 1;
        match bytes.next() {
            // Rule 5: a 2 or a 3 ends the series, and only the last throw may be one.
            None if value == 2 || value == 3 => {
                let [eights, ones, twos, threes, fours, ..] = counts.to_le_bytes();
                let all = Throws::from_counts([ones, twos, threes, fours, eights]);
                return Some((low, high, len, all));
            }
            Some(b' ') if value != 2 && value != 3 => {}
            _ => return None,
        }
    }
}

/// Reads one action token (anything but a seat letter or a throw group).
#[inline(always)]
pub(crate) fn parse_token(token: &[u8]) -> Result<Token, ActionError> {
    match parse_plain_advance(token) {
        Some(advance) => Ok(advance),
        None => parse_any_token(token),
    }
}

/// The common shape of an advance, read in one pass: an optional `T`, the square, throws
/// of one digit each (`+4+2`) and an optional arrival (`-d2`, `xd2`). `None` for anything
/// else, which [`parse_any_token`] reads (and explains if it is wrong); both read this shape
/// the same way.
#[inline(always)]
pub(crate) fn parse_plain_advance(token: &[u8]) -> Option<Token> {
    let (twin, rest) = match token {
        [b'T', rest @ ..] => (true, rest),
        _ => (false, token),
    };
    let from = Square::parse(rest.get(..2)?)?;
    let mut rest = &rest[2..];
    let mut throws = Throws::EMPTY;
    while let [b'+', digit, tail @ ..] = rest {
        if tail.first().is_some_and(u8::is_ascii_digit) {
            return None;
        }
        throws.add(digit.wrapping_sub(b'0'))?;
        rest = tail;
    }
    if throws.is_empty() {
        return None;
    }
    let arrival = match rest {
        [] => None,
        [mark @ (b'-' | b'x'), to @ ..] => Some((*mark == b'x', Square::parse(to)?)),
        _ => return None,
    };
    Some(Token::Advance {
        twin,
        from,
        throws,
        arrival,
    })
}

/// [`parse_token`] for every token, with the messages for wrong ones.
#[inline(never)]
fn parse_any_token(token: &[u8]) -> Result<Token, ActionError> {
    if let [l] = token {
        if let Some(seat) = seat_from_letter(*l) {
            return Ok(Token::Seat(seat));
        }
    }
    if is_group(token) {
        return Ok(Token::Group);
    }
    match token {
        b"in" => return Ok(Token::Enter),
        b"off" => return Ok(Token::BearOff),
        [b'~', digits @ ..] => {
            return match digits {
                [d @ (b'1' | b'2' | b'3' | b'4' | b'8')] => Ok(Token::Lost(d - b'0')),
                _ => Err(ActionError::LostThrow(show(token))),
            }
        }
        _ => {}
    }
    let unreadable = || ActionError::Unreadable(show(token));
    let (twin, rest) = match token.strip_prefix(b"T") {
        Some(r) => (true, r),
        None => (false, token),
    };
    if rest.len() < 2 {
        return Err(unreadable());
    }
    let from = Square::parse(&rest[..2]).ok_or_else(unreadable)?;
    let mut rest = &rest[2..];
    if rest.is_empty() {
        return if twin {
            Ok(Token::Twins(from))
        } else {
            Err(ActionError::NoThrows {
                token: show(token),
                from,
            })
        };
    }
    let mut throws = Throws::EMPTY;
    while let [b'+', tail @ ..] = rest {
        let digits = tail.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(unreadable());
        }
        let v = if digits > 3 {
            u32::MAX
        } else {
            tail[..digits]
                .iter()
                .fold(0u32, |a, d| a * 10 + u32::from(d - b'0'))
        };
        let ok = u8::try_from(v).ok().and_then(|v| throws.add(v));
        if ok.is_none() {
            let shown = String::from_utf8_lossy(&tail[..digits]).into_owned();
            return Err(ActionError::NotAThrow(shown));
        }
        rest = &tail[digits..];
    }
    if throws.is_empty() {
        return Err(unreadable());
    }
    let arrival = match rest {
        [] => None,
        [c @ (b'-' | b'x'), sq @ ..] => {
            let to = Square::parse(sq).ok_or_else(unreadable)?;
            Some((*c == b'x', to))
        }
        _ => return Err(unreadable()),
    };
    Ok(Token::Advance {
        twin,
        from,
        throws,
        arrival,
    })
}

/// Appends a series' throws as a group: `[1 4 2]`.
pub(crate) fn write_throws(out: &mut String, throws: &ThrowSeq) {
    out.push('[');
    for (i, &v) in throws.as_slice().iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_number(out, v);
    }
    out.push(']');
}

/// Written here, with the notation, so that `throws` does not depend on it.
impl std::fmt::Display for ThrowSeq {
    /// `[1 4 2]`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = String::with_capacity(4 * self.as_slice().len() + 2);
        write_throws(&mut text, self);
        f.write_str(&text)
    }
}

/// Writes an advance's unit and throws: `c1+4+2`, `Tc5+8+4`.
pub(crate) fn write_advance_head(out: &mut String, a: &Advance) {
    if a.twin {
        out.push('T');
    }
    push_square(out, a.from);
    for v in a.throws.descending() {
        out.push('+');
        push_number(out, v);
    }
}

/// Writes one action of `seat`. Captures are always marked (`xd2`); with `full`, every
/// advance also states its arrival (`-d2`).
pub(crate) fn write_action(out: &mut String, seat: u8, action: &Action, full: bool) {
    match action {
        Action::Enter => out.push_str("in"),
        Action::BearOff => out.push_str("off"),
        Action::Twins => {
            out.push('T');
            push_square(out, route_square(seat, TWIN_INDEX));
        }
        Action::Advance(a) => {
            write_advance_head(out, a);
            if a.captured > 0 {
                out.push('x');
                push_square(out, a.to);
            } else if full {
                out.push('-');
                push_square(out, a.to);
            }
        }
    }
}

/// Writes actions separated by spaces, then the lost throws `~v` if `lost` is given.
pub(crate) fn write_actions(
    out: &mut String,
    seat: u8,
    actions: &[Action],
    full: bool,
    lost: Option<(&[u8], Throws)>,
) {
    for a in actions {
        if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
        write_action(out, seat, a, full);
    }
    if let Some((discarded, unused)) = lost {
        for v in discarded.iter().copied().chain(unused.descending()) {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            out.push('~');
            push_number(out, v);
        }
    }
}

/// The seat letter as a string.
pub(crate) fn seat_token(seat: u8) -> char {
    seat_letter(seat)
}

/// Splits Thaayam movetext into tokens, for tests and tools that do not go through the PDN
/// reader: whitespace separates tokens except inside a throw group `[…]`; move numbers
/// (`1.`, `12...`) are dropped.
pub fn split_tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if b[i] == b'[' {
            while i < b.len() && b[i] != b']' {
                i += 1;
            }
            i = (i + 1).min(b.len());
        } else {
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
        }
        let tok = &text[start..i];
        let is_number = tok.ends_with('.')
            && tok
                .trim_end_matches('.')
                .bytes()
                .all(|c| c.is_ascii_digit());
        if !is_number {
            out.push(tok);
        }
    }
    out
}

/// Splits Thaayam movetext into turns: each turn starts at a seat letter.
pub fn split_turns(text: &str) -> Vec<Vec<&str>> {
    let mut turns: Vec<Vec<&str>> = Vec::new();
    for tok in split_tokens(text) {
        if is_seat(tok.as_bytes()) || turns.is_empty() {
            turns.push(Vec::new());
        }
        if let Some(t) = turns.last_mut() {
            t.push(tok);
        }
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(parse_token(b"S"), Ok(Token::Seat(0)));
        assert_eq!(parse_token(b"in"), Ok(Token::Enter));
        assert_eq!(parse_token(b"off"), Ok(Token::BearOff));
        assert_eq!(parse_token(b"~8"), Ok(Token::Lost(8)));
        assert!(parse_token(b"~5").is_err());
        assert_eq!(
            parse_token(b"Tc5"),
            Ok(Token::Twins(Square::parse(b"c5").unwrap()))
        );
        let t = parse_token(b"Tc5+8+4xd2").unwrap();
        assert_eq!(
            t,
            Token::Advance {
                twin: true,
                from: Square::parse(b"c5").unwrap(),
                throws: Throws::from_values(&[8, 4]).unwrap(),
                arrival: Some((true, Square::parse(b"d2").unwrap())),
            }
        );
        for bad in [
            &b"c1"[..],
            b"c1+",
            b"c1+5",
            b"c1+4-",
            b"c1+4-f9",
            b"f1+4",
            b"c1+4+2y",
            b"",
            b"c1+99999999999",
            b"c1+4-d2x",
            b"c1+4+",
            b"Tc1+",
            b"c1+0",
            b"c1+40",
        ] {
            assert!(
                parse_token(bad).is_err(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn plain_and_general_readers_agree() {
        for token in [
            &b"c1+4"[..],
            b"Tc5+8+4",
            b"d2+3xb4",
            b"e4+2-d5",
            b"c1+04",
            b"c1+4+2",
            b"a5+1+1+1",
            b"Tc5",
            b"in",
        ] {
            let general = parse_any_token(token).ok();
            if let Some(plain) = parse_plain_advance(token) {
                assert_eq!(Some(plain), general, "{}", String::from_utf8_lossy(token));
            }
            assert_eq!(parse_token(token).ok(), general);
        }
    }

    #[test]
    fn groups() {
        assert_eq!(parse_group(b"[1 4 2]").unwrap().as_slice(), &[1, 4, 2]);
        assert_eq!(parse_group(b"[1,4,  2]").unwrap().as_slice(), &[1, 4, 2]);
        assert!(parse_group(b"[1 4]").is_err());
        assert!(parse_group(b"[]").is_err());
        assert!(parse_group(b"[2 1]").is_err());
        assert!(parse_group(b"[x]").is_err());
        assert!(parse_group(b"[1 4 2").is_err());
        assert!(parse_group(b"[1 4 2 ]").is_ok());
        assert!(parse_group(b"[3 2]").is_err());
        assert!(parse_group(b"[1  2]").is_ok());
        let long = format!("[{}2]", "1 ".repeat(31));
        assert_eq!(parse_group(long.as_bytes()).unwrap().as_slice().len(), 32);
        let too_long = format!("[{}2]", "1 ".repeat(32));
        assert!(parse_group(too_long.as_bytes()).is_err());
    }
}
