//! The token lexer: a pure function from the bytes at the reader's position to the next token.
//!
//! The lexer is written with nom's *streaming* parsers. A streaming parser answers
//! `Incomplete` when the bytes it was given end before it could decide; the lexer turns that
//! into [`NeedMore`], and the reader refills its buffer and lexes the same token again. At the
//! end of the input the reader appends one sentinel `\n` after the last byte, so every token is
//! followed by a delimiter and no parser ever needs more; no token includes the sentinel.
//!
//! Offsets in [`Tok`] are relative to the start of the token.

use memchr::{memchr, memchr2, memchr3};
use nom::bytes::streaming::{tag, take_while1};
use nom::character::streaming::digit1;
use nom::{Err, IResult};

/// The bytes given end before the token does: refill and lex again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NeedMore;

type LexResult = Result<Lexed, NeedMore>;
type PResult<'a, O> = IResult<&'a [u8], O, ()>;

/// A token and its length in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub tok: Tok,
    pub len: usize,
}

/// What the lexer found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// `[Name "value"]`: the name is `name_start..name_end`, the raw value
    /// `value_start..value_end`; `closed` is false when the `]` is missing; `form` tells a
    /// PDN tag pair from the malformed ones that are still read as tags.
    Tag {
        name_start: usize,
        name_end: usize,
        value_start: usize,
        value_end: usize,
        closed: bool,
        form: TagForm,
    },
    /// `[` and an upper-case letter, but no tag pair can be read (`[Empty]`). `unterminated`:
    /// the value's closing quote is missing on the line.
    BadTag { unterminated: bool },
    /// `[` followed by something that starts neither a tag nor a throw group.
    BadBracket,
    /// `{...}`: text is `1..len-1` when terminated, else `1..len`. `nested`: a `{` occurs
    /// inside.
    BraceComment { terminated: bool, nested: bool },
    /// `%...` or `;...` to the end of the line (LF or CR): the text is `1..text_end`.
    LineComment { text_end: usize },
    /// `12.`, `12...`: a number then `dots` dots.
    MoveNumber {
        number: u32,
        dots: usize,
        leading_zero: bool,
        overflow: bool,
    },
    /// A run of dots not preceded by a number.
    Dots(usize),
    /// A move token (numeric, alphanumeric or one of the Thaayam tokens).
    Move,
    /// `- -` (or `--`): a move whose squares are unknown.
    UnknownMove,
    /// A game termination marker.
    Result,
    /// `$n`; `None` when no number follows or it does not fit in 16 bits.
    Nag(Option<u16>),
    /// Move strength `!?`, bare or in parentheses; the marks are `start..end`.
    Strength { start: usize, end: usize },
    /// `(` opening a variation.
    Open,
    /// `)`.
    Close,
    /// `/FEN "..."/`: the raw position string is `fen_start..fen_end`; `escaped` when it holds
    /// `\"`; `closed` is false when the final `/` is missing.
    Setup {
        fen_start: usize,
        fen_end: usize,
        escaped: bool,
        closed: bool,
    },
    /// `/` that does not start a well-formed setup command.
    BadSetup,
    /// `[` and digits that are not closed by `]`.
    BadThrowGroup,
    /// Words of prose outside a comment (letters or non-ASCII bytes).
    Prose,
    /// Anything else the grammar does not know, up to the next delimiter.
    Junk,
    /// A lone `-` (the result of some exports whose `Result` tag is `-`).
    Dash,
    /// `}` outside a comment.
    StrayBrace,
}

/// How a tag pair was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagForm {
    /// `[Name "value"]` with a PDN name (letters, digits, `_`, starting with a letter).
    Pdn,
    /// `[any name "value"]`: a name with spaces or other characters (`[Heure blanche "0:10"]`).
    OddName,
    /// `Name "value"]` at the start of a word: the `[` is missing.
    NoBracket,
    /// `[Name value]`: the value has no quotes (it is read from after the blanks that follow
    /// the name to before the blanks that precede `]`).
    Unquoted,
}

const WS: u8 = 1;
const DELIM: u8 = 2;

/// Byte classes: `WS` for whitespace; `DELIM` for whitespace and the bytes that always end a
/// word (`{ } ( ) [ ] ; "`).
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let ws = [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c];
    let mut i = 0;
    while i < ws.len() {
        t[ws[i] as usize] = WS | DELIM;
        i += 1;
    }
    let d = [b'{', b'}', b'(', b')', b'[', b']', b';', b'"'];
    let mut i = 0;
    while i < d.len() {
        t[d[i] as usize] = DELIM;
        i += 1;
    }
    t
};

/// Whitespace between tokens: space, tab, CR, LF, vertical tab, form feed.
#[inline(always)]
pub(crate) fn is_ws(b: u8) -> bool {
    CLASS[b as usize] & WS != 0
}

#[inline(always)]
fn is_delim(b: u8) -> bool {
    CLASS[b as usize] & DELIM != 0
}

/// What may follow a lone seat letter, `in`, `off` or `- -`: a delimiter or an annotation.
#[inline]
fn is_word_end(b: u8) -> bool {
    is_delim(b) || matches!(b, b'!' | b'?' | b'$')
}

/// What may follow a result token: anything that cannot continue a move.
#[inline]
fn is_result_end(b: u8) -> bool {
    !(b.is_ascii_digit() || matches!(b, b'-' | b'x' | b':' | b'/'))
}

/// The byte at `i`, or `NeedMore` when the input ends before it.
#[inline(always)]
fn at(inp: &[u8], i: usize) -> Result<u8, NeedMore> {
    inp.get(i).copied().ok_or(NeedMore)
}

/// Runs a streaming nom parser: `Ok(Some(..))` on success, `Ok(None)` when it does not match,
/// `NeedMore` when it could not decide.
#[inline(always)]
fn run<'a, O>(r: PResult<'a, O>) -> Result<Option<(&'a [u8], O)>, NeedMore> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(Err::Incomplete(_)) => Err(NeedMore),
        Err(_) => Ok(None),
    }
}

/// The two most common tokens, recognised without the general lexer: a move number `12.`
/// and a numeric move `32-28` / `32x28` followed by whitespace. `None` sends the bytes to
/// [`lex`], which gives the same answer for these shapes (the fast path only skips work).
#[inline(always)]
pub(crate) fn fast(inp: &[u8]) -> Option<Lexed> {
    // Eight bytes of lookahead make every index below valid; near the end of the buffer the
    // general lexer takes over. The code avoids branches on the number of digits, which are
    // unpredictable in real movetext.
    let b: &[u8; 8] = inp.get(..8)?.try_into().ok()?;
    let digit = |i: usize| b[i].wrapping_sub(b'0') < 10;
    if !digit(0) {
        return match b[0] {
            b'[' => fast_throws(b),
            b'S' | b'W' | b'N' | b'E' if is_ws(b[1]) => Some(one(Tok::Move)),
            _ => fast_algebraic(b),
        };
    }
    let two = digit(1);
    let n1 = 1 + usize::from(two);
    let c = b[n1];
    let (hi, lo) = (
        u32::from(b[0].wrapping_sub(b'0')),
        u32::from(b[1].wrapping_sub(b'0')),
    );
    if c == b'.' {
        if b[n1 + 1] == b'.' {
            return None;
        }
        return Some(Lexed {
            tok: Tok::MoveNumber {
                number: if two { hi * 10 + lo } else { hi },
                dots: 1,
                leading_zero: two & (b[0] == b'0'),
                overflow: false,
            },
            len: n1 + 1,
        });
    }
    let s = n1 + 1;
    let n2 = 1 + usize::from(digit(s + 1));
    let end = s + n2;
    // `1-0`, `2-0`, `1-1`, ...: maybe a result; the general lexer decides.
    let maybe_result = (n1 + n2 == 2) & (b[0] <= b'2');
    if ((c == b'-') | (c == b'x')) & digit(s) & is_ws(b[end]) & !maybe_result {
        Some(Lexed {
            tok: Tok::Move,
            len: end,
        })
    } else {
        None
    }
}

/// A Thaayam throw group of a few throws, `[2]` or `[4 8 3]` (with a seat letter standing
/// alone, the most common tokens of its records).
#[inline(always)]
fn fast_throws(b: &[u8; 8]) -> Option<Lexed> {
    if b[1].wrapping_sub(b'0') >= 10 {
        return None;
    }
    let end = (2..8).find(|&i| !matches!(b[i], b'0'..=b'9' | b' '))?;
    (b[end] == b']').then_some(Lexed {
        tok: Tok::Move,
        len: end + 1,
    })
}

/// The algebraic move of two one-digit squares, `e3-d4` / `d4xf6` / `d4:f6`, followed by
/// whitespace (Russian, Tama and Odnocvetnie records are mostly made of these).
#[inline(always)]
fn fast_algebraic(b: &[u8; 8]) -> Option<Lexed> {
    let file = |i: usize| b[i].wrapping_sub(b'a') < 10;
    let digit = |i: usize| b[i].wrapping_sub(b'0') < 10;
    let sep = matches!(b[2], b'-' | b'x' | b':');
    (file(0) & digit(1) & sep & file(3) & digit(4) & is_ws(b[5])).then_some(Lexed {
        tok: Tok::Move,
        len: 5,
    })
}

/// Lexes the token at the start of `inp` (which must not start with whitespace).
/// `eof`: `inp` ends with the sentinel and nothing follows it.
#[inline(always)]
pub(crate) fn lex(inp: &[u8], eof: bool) -> LexResult {
    let b = *inp.first().ok_or(NeedMore)?;
    match b {
        b'0'..=b'9' => number(inp),
        b'a'..=b'z' => lower(inp, true),
        b'A'..=b'Z' => upper(inp, true),
        b'{' => brace_comment(inp, eof),
        b'}' => Ok(one(Tok::StrayBrace)),
        b'%' | b';' => line_comment(inp),
        b'(' => paren(inp, eof),
        b')' => Ok(one(Tok::Close)),
        b'$' => nag(inp),
        b'!' | b'?' => {
            let (rest, m) = run(take_while1(is_mark)(inp))?.ok_or(NeedMore)?;
            let _ = rest;
            Ok(Lexed {
                tok: Tok::Strength {
                    start: 0,
                    end: m.len(),
                },
                len: m.len(),
            })
        }
        b'*' => Ok(one(Tok::Result)),
        b'[' => bracket(inp),
        b'/' => setup(inp),
        b'-' => dash(inp),
        b'~' => match run(digit1(&inp[1..]))? {
            Some((_, d)) => Ok(Lexed {
                tok: Tok::Move,
                len: 1 + d.len(),
            }),
            None => junk(inp),
        },
        b'.' => {
            let (_, d) = run(take_while1(|c| c == b'.')(inp))?.ok_or(NeedMore)?;
            Ok(Lexed {
                tok: Tok::Dots(d.len()),
                len: d.len(),
            })
        }
        0x80..=0xff => prose(inp, true),
        _ => junk(inp),
    }
}

#[inline(always)]
fn one(tok: Tok) -> Lexed {
    Lexed { tok, len: 1 }
}

#[inline]
fn is_mark(b: u8) -> bool {
    b == b'!' || b == b'?'
}

/// The end of the word starting at `from`: the first delimiter at or after it.
fn word_end(inp: &[u8], from: usize) -> Result<usize, NeedMore> {
    let mut i = from;
    while !is_delim(at(inp, i)?) {
        i += 1;
    }
    Ok(i)
}

#[inline(never)]
fn junk(inp: &[u8]) -> LexResult {
    Ok(Lexed {
        tok: Tok::Junk,
        len: word_end(inp, 1)?,
    })
}

/// Tokens starting with a digit: move numbers, numeric moves, results.
#[inline(always)]
fn number(inp: &[u8]) -> LexResult {
    let (rest, d) = run(digit1(inp))?.ok_or(NeedMore)?;
    let n = d.len();
    match rest[0] {
        b'.' => {
            let (_, dots) = run(take_while1(|c| c == b'.')(rest))?.ok_or(NeedMore)?;
            let mut number: u32 = 0;
            let mut overflow = false;
            for &c in d {
                match number
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(u32::from(c - b'0')))
                {
                    Some(v) => number = v,
                    None => {
                        overflow = true;
                        number = u32::MAX;
                        break;
                    }
                }
            }
            Ok(Lexed {
                tok: Tok::MoveNumber {
                    number,
                    dots: dots.len(),
                    leading_zero: n > 1 && d[0] == b'0',
                    overflow,
                },
                len: n + dots.len(),
            })
        }
        b'-' | b'x' | b':' | b'/' => {
            if n == 1 && d[0] <= b'2' {
                if let Some(len) = result(inp)? {
                    return Ok(Lexed {
                        tok: Tok::Result,
                        len,
                    });
                }
            }
            numeric_move(inp, n)
        }
        c if c.is_ascii_alphabetic() => prose(inp, true),
        _ if (3..=6).contains(&n) => Ok(Lexed {
            tok: Tok::Move,
            len: n,
        }),
        _ => junk(inp),
    }
}

/// A result token at the start of `inp`, with its length.
#[inline(never)]
fn result(inp: &[u8]) -> Result<Option<usize>, NeedMore> {
    const RESULTS: [&[u8]; 7] = [b"1/2-1/2", b"1-0", b"0-1", b"2-0", b"0-2", b"1-1", b"0-0"];
    for r in RESULTS {
        if let Some((rest, _)) = run(tag::<_, _, ()>(r)(inp))? {
            return Ok(is_result_end(at(rest, 0)?).then_some(r.len()));
        }
    }
    Ok(None)
}

/// `32-28`, `27x18x9`, `1- 6` (a padding space before a square), `27:18`.
#[inline(always)]
fn numeric_move(inp: &[u8], first: usize) -> LexResult {
    let mut i = first;
    let mut segments = 0;
    loop {
        let sep = separator(inp, i)?;
        if sep == 0 {
            break;
        }
        let mut j = i + sep;
        if at(inp, j)? == b' ' {
            j += 1;
        }
        if !at(inp, j)?.is_ascii_digit() {
            break;
        }
        let (_, d) = run(digit1(&inp[j..]))?.ok_or(NeedMore)?;
        i = j + d.len();
        segments += 1;
    }
    // `0-0xh4`: the result check failed only because of what follows; such a token would
    // read as a result on its own, so it is not taken as a move.
    let result_text = matches!(
        &inp[..i],
        b"1-0" | b"0-1" | b"2-0" | b"0-2" | b"1-1" | b"0-0"
    );
    if segments == 0 || result_text {
        return junk(inp);
    }
    Ok(Lexed {
        tok: Tok::Move,
        len: i,
    })
}

/// The length of a move separator at `i`: `-`, `x`, `:`, or an en dash, em dash or minus
/// sign as word processors write them (three bytes of UTF-8); 0 for none.
#[inline(always)]
fn separator(inp: &[u8], i: usize) -> Result<usize, NeedMore> {
    Ok(match at(inp, i)? {
        b'-' | b'x' | b':' => 1,
        0xE2 => match (at(inp, i + 1)?, at(inp, i + 2)?) {
            (0x80, 0x93 | 0x94) | (0x88, 0x92) => 3,
            _ => 0,
        },
        _ => 0,
    })
}

/// A square `a1`..`j10` starting at `i`: its end.
#[inline(always)]
fn square(inp: &[u8], i: usize) -> Result<Option<usize>, NeedMore> {
    // Files are read in either case (`A3-B4`).
    if !matches!(at(inp, i)? | 0x20, b'a'..=b'j') || !at(inp, i + 1)?.is_ascii_digit() {
        return Ok(None);
    }
    let e = if at(inp, i + 2)?.is_ascii_digit() {
        i + 3
    } else {
        i + 2
    };
    Ok(Some(e))
}

/// `c3-c4`, `c3xc5xe5`, `a3b4`, `a1`, `A3-B4`, and the Thaayam forms `Tc5`, `c1+4+2`,
/// `Tc5+8+4-d2`.
#[inline(always)]
fn square_move(inp: &[u8]) -> Result<Option<usize>, NeedMore> {
    let mut i = usize::from(inp[0] == b'T');
    let Some(e) = square(inp, i)? else {
        return Ok(None);
    };
    i = e;
    while at(inp, i)? == b'+' && at(inp, i + 1)?.is_ascii_digit() {
        let (_, d) = run(digit1(&inp[i + 1..]))?.ok_or(NeedMore)?;
        i += 1 + d.len();
    }
    loop {
        let j = i + separator(inp, i)?;
        match square(inp, j)? {
            Some(e) => i = e,
            None => break,
        }
    }
    Ok(Some(i))
}

/// A keyword standing alone (`in`, `off`).
fn keyword(inp: &[u8], word: &'static [u8]) -> Result<bool, NeedMore> {
    Ok(match run(tag::<_, _, ()>(word)(inp))? {
        Some((rest, _)) => is_word_end(at(rest, 0)?),
        None => false,
    })
}

#[inline(always)]
fn lower(inp: &[u8], merge: bool) -> LexResult {
    let kw = match inp[0] {
        b'i' => Some(&b"in"[..]),
        b'o' => Some(&b"off"[..]),
        _ => None,
    };
    if let Some(kw) = kw {
        if keyword(inp, kw)? {
            return Ok(Lexed {
                tok: Tok::Move,
                len: kw.len(),
            });
        }
    }
    if inp[0] <= b'j' {
        if let Some(len) = square_move(inp)? {
            return Ok(Lexed {
                tok: Tok::Move,
                len,
            });
        }
    }
    prose(inp, merge)
}

#[inline]
fn upper(inp: &[u8], merge: bool) -> LexResult {
    match inp[0] {
        b'S' | b'W' | b'N' | b'E' => {
            let c = at(inp, 1)?;
            if c == b'+' {
                // Seat result `[SWNE]\+([SWNE]-)?` standing alone.
                let c2 = at(inp, 2)?;
                let len = if is_seat(c2) && at(inp, 3)? == b'-' {
                    4
                } else {
                    2
                };
                if is_delim(at(inp, len)?) {
                    return Ok(Lexed {
                        tok: Tok::Result,
                        len,
                    });
                }
            } else if is_word_end(c) {
                return Ok(one(Tok::Move));
            }
        }
        _ => {}
    }
    if matches!(inp[0], b'A'..=b'J' | b'T') {
        if let Some(len) = square_move(inp)? {
            return Ok(Lexed {
                tok: Tok::Move,
                len,
            });
        }
    }
    if merge {
        if let Some(tag) = tag_without_bracket(inp)? {
            return Ok(tag);
        }
    }
    prose(inp, merge)
}

#[inline]
fn is_seat(b: u8) -> bool {
    matches!(b, b'S' | b'W' | b'N' | b'E')
}

/// Prose: the word at the start, joined with the following words of the same line as long as
/// they are prose too.
#[inline(never)]
fn prose(inp: &[u8], merge: bool) -> LexResult {
    let mut end = word_end(inp, 1)?;
    if merge {
        loop {
            let mut j = end;
            while matches!(at(inp, j)?, b' ' | b'\t') {
                j += 1;
            }
            let c = at(inp, j)?;
            if !(c.is_ascii_alphabetic() || c >= 0x80) {
                break;
            }
            let rest = &inp[j..];
            let next = match c {
                b'a'..=b'z' => lower(rest, false)?,
                b'A'..=b'Z' => upper(rest, false)?,
                _ => prose(rest, false)?,
            };
            if next.tok != Tok::Prose {
                break;
            }
            end = j + next.len;
        }
    }
    Ok(Lexed {
        tok: Tok::Prose,
        len: end,
    })
}

#[inline(never)]
fn brace_comment(inp: &[u8], eof: bool) -> LexResult {
    let mut i = 1;
    let mut nested = false;
    loop {
        let Some(k) = memchr3(b'}', b'{', b'\n', &inp[i..]) else {
            return if eof {
                Ok(unterminated(inp.len().saturating_sub(1), nested))
            } else {
                Err(NeedMore)
            };
        };
        let p = i + k;
        match inp[p] {
            b'}' => {
                return Ok(Lexed {
                    tok: Tok::BraceComment {
                        terminated: true,
                        nested,
                    },
                    len: p + 1,
                })
            }
            b'{' => nested = true,
            _ => {
                // A line that starts a tag pair ends an unterminated comment: the next game.
                if p + 2 >= inp.len() {
                    if eof {
                        return Ok(unterminated(p, nested));
                    }
                    return Err(NeedMore);
                }
                if inp[p + 1] == b'[' && inp[p + 2].is_ascii_uppercase() {
                    return Ok(unterminated(p, nested));
                }
            }
        }
        i = p + 1;
    }
}

fn unterminated(len: usize, nested: bool) -> Lexed {
    Lexed {
        tok: Tok::BraceComment {
            terminated: false,
            nested,
        },
        len: len.max(1),
    }
}

#[inline(never)]
fn line_comment(inp: &[u8]) -> LexResult {
    // A line ends at LF, CR LF, or a lone CR (old Macintosh files).
    let p = memchr2(b'\n', b'\r', inp).ok_or(NeedMore)?;
    Ok(Lexed {
        tok: Tok::LineComment { text_end: p.max(1) },
        len: p.max(1),
    })
}

fn skip_blanks(inp: &[u8], mut i: usize) -> Result<usize, NeedMore> {
    while matches!(at(inp, i)?, b' ' | b'\t') {
        i += 1;
    }
    Ok(i)
}

/// `(` opens a variation unless it encloses only a move strength mark: `(!?)` (whitespace,
/// line breaks included, may surround the mark).
#[inline(never)]
fn paren(inp: &[u8], eof: bool) -> LexResult {
    match strength_in_parens(inp) {
        Ok(Some(l)) => Ok(l),
        Ok(None) => Ok(one(Tok::Open)),
        // At the end of the input there is nothing more to wait for.
        Err(NeedMore) if eof => Ok(one(Tok::Open)),
        Err(NeedMore) => Err(NeedMore),
    }
}

fn strength_in_parens(inp: &[u8]) -> Result<Option<Lexed>, NeedMore> {
    let skip_ws = |mut i: usize| -> Result<usize, NeedMore> {
        while is_ws(at(inp, i)?) {
            i += 1;
        }
        Ok(i)
    };
    let s = skip_ws(1)?;
    let mut e = s;
    while is_mark(at(inp, e)?) {
        e += 1;
    }
    if e == s {
        return Ok(None);
    }
    let c = skip_ws(e)?;
    Ok((inp[c] == b')').then_some(Lexed {
        tok: Tok::Strength { start: s, end: e },
        len: c + 1,
    }))
}

#[inline(never)]
fn nag(inp: &[u8]) -> LexResult {
    match run(digit1(&inp[1..]))? {
        Some((_, d)) => {
            let v = d.iter().try_fold(0u16, |a, &c| {
                a.checked_mul(10)?.checked_add(u16::from(c - b'0'))
            });
            Ok(Lexed {
                tok: Tok::Nag(v),
                len: 1 + d.len(),
            })
        }
        None => Ok(one(Tok::Nag(None))),
    }
}

/// `[`: a tag pair (upper-case letter), a Thaayam throw group (digit or blank), or junk.
#[inline(never)]
fn bracket(inp: &[u8]) -> LexResult {
    let c = at(inp, 1)?;
    if c.is_ascii_uppercase() {
        return tag_pair(inp);
    }
    if c.is_ascii_digit() || c == b' ' || c == b'\t' {
        let mut i = 1;
        while matches!(at(inp, i)?, b'0'..=b'9' | b' ' | b'\t') {
            i += 1;
        }
        if inp[i] == b']' {
            return Ok(Lexed {
                tok: Tok::Move,
                len: i + 1,
            });
        }
        if !inp[i].is_ascii_digit() {
            if let Some(tag) = odd_tag(inp)? {
                return Ok(tag);
            }
        }
        return Ok(Lexed {
            tok: Tok::BadThrowGroup,
            len: i,
        });
    }
    if let Some(tag) = odd_tag(inp)? {
        return Ok(tag);
    }
    Ok(Lexed {
        tok: Tok::BadBracket,
        len: to_bracket_or_eol(inp, 1)?,
    })
}

/// The length up to and including the next `]` on the line, or up to the end of the line;
/// a brace ends it before (text read this way is kept as a brace comment, which cannot hold
/// one).
fn to_bracket_or_eol(inp: &[u8], from: usize) -> Result<usize, NeedMore> {
    let p = from + memchr3(b']', b'\n', b'}', &inp[from..]).ok_or(NeedMore)?;
    let len = if inp[p] == b']' { p + 1 } else { p };
    Ok(before_brace(inp, len))
}

/// `len`, or less when a brace occurs in `inp[1..len]`: text kept as a brace comment ends
/// before it (the brace is read next, as a comment or a stray `}`).
fn before_brace(inp: &[u8], len: usize) -> usize {
    if len <= 1 {
        return len;
    }
    match memchr2(b'{', b'}', &inp[1..len]) {
        Some(i) => i + 1,
        None => len,
    }
}

/// Whether a tag name read leniently can be written back as `[name "value"]` and read again
/// as the same name: not empty, no brackets, braces, quotes or line breaks, no blank at either
/// end, and a first character that does not make `[` a throw group.
pub(crate) fn is_odd_tag_name(name: &[u8]) -> bool {
    let blank = |b: u8| b == b' ' || b == b'\t';
    let forbidden = |b: &u8| matches!(b, b'[' | b']' | b'{' | b'}' | b'"' | b'\n' | b'\r');
    match (name.first(), name.last()) {
        (Some(&first), Some(&last)) => {
            let bad_ends = first.is_ascii_digit() || blank(first) || blank(last);
            !bad_ends && !name.iter().any(forbidden)
        }
        _ => false,
    }
}

/// `[any name "value"]` on one line: a tag pair whose name is not a PDN name.
fn odd_tag(inp: &[u8]) -> Result<Option<Lexed>, NeedMore> {
    let q = 1 + memchr2(b'"', b'\n', &inp[1..]).ok_or(NeedMore)?;
    if inp[q] != b'"' {
        return Ok(None);
    }
    let raw = &inp[1..q];
    let lead = raw.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
    let trail = raw[lead..]
        .iter()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let (name_start, name_end) = (1 + lead, q - trail);
    if !is_odd_tag_name(&inp[name_start..name_end]) {
        return Ok(None);
    }
    closed_value(inp, name_start, name_end, q, TagForm::OddName)
}

/// `Name "value"]` at the start of a word: a tag pair that lost its `[`.
fn tag_without_bracket(inp: &[u8]) -> Result<Option<Lexed>, NeedMore> {
    let mut i = 1;
    while matches!(at(inp, i)?, b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_') {
        i += 1;
    }
    let q = skip_blanks(inp, i)?;
    if q == i || inp[q] != b'"' {
        return Ok(None);
    }
    closed_value(inp, 0, i, q, TagForm::NoBracket)
}

/// `[Name value]`: the value starts at `v` (after blanks) and ends before the blanks and the
/// `]` that close the line's tag; it holds no quote, bracket or brace, and does not end with
/// `\` (a value written back in quotes would then escape its closing quote).
fn unquoted_value(inp: &[u8], name_end: usize, v: usize) -> Result<Option<Lexed>, NeedMore> {
    if v == name_end {
        return Ok(None);
    }
    let mut e = v;
    while !matches!(at(inp, e)?, b']' | b'\n' | b'"' | b'[' | b'{' | b'}') {
        e += 1;
    }
    if inp[e] != b']' {
        return Ok(None);
    }
    let mut end = e;
    while end > v && matches!(inp[end - 1], b' ' | b'\t' | b'\r') {
        end -= 1;
    }
    if end == v || inp[end - 1] == b'\\' {
        return Ok(None);
    }
    Ok(Some(Lexed {
        tok: Tok::Tag {
            name_start: 1,
            name_end,
            value_start: v,
            value_end: end,
            closed: true,
            form: TagForm::Unquoted,
        },
        len: e + 1,
    }))
}

/// The quoted value starting at `inp[q]` (a `"`), then `]`: the tag, or `None` when the value
/// or the `]` is missing on the line.
fn closed_value(
    inp: &[u8],
    name_start: usize,
    name_end: usize,
    q: usize,
    form: TagForm,
) -> Result<Option<Lexed>, NeedMore> {
    let Ok((value_end, _)) = quoted(inp, q + 1)? else {
        return Ok(None);
    };
    let c = skip_blanks(inp, value_end + 1)?;
    if inp[c] != b']' {
        return Ok(None);
    }
    Ok(Some(Lexed {
        tok: Tok::Tag {
            name_start,
            name_end,
            value_start: q + 1,
            value_end,
            closed: true,
            form,
        },
        len: c + 1,
    }))
}

/// The end of a quoted string whose first byte (after the opening quote) is at `from`: the
/// index of the closing quote, or `Err(index of the newline)` when the line ends first. `\"`
/// does not close the string. Also tells whether an escape occurred.
fn quoted(inp: &[u8], from: usize) -> Result<Result<(usize, bool), usize>, NeedMore> {
    let mut j = from;
    let mut escaped = false;
    loop {
        let p = j + memchr2(b'"', b'\n', &inp[j..]).ok_or(NeedMore)?;
        if inp[p] == b'\n' {
            return Ok(Err(p));
        }
        if p > from && inp[p - 1] == b'\\' {
            escaped = true;
            j = p + 1;
            continue;
        }
        return Ok(Ok((p, escaped)));
    }
}

#[inline(never)]
fn tag_pair(inp: &[u8]) -> LexResult {
    let mut i = 1;
    while matches!(at(inp, i)?, b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_') {
        i += 1;
    }
    let name_end = i;
    i = skip_blanks(inp, i)?;
    if inp[i] != b'"' {
        if let Some(tag) = odd_tag(inp)? {
            return Ok(tag);
        }
        if let Some(tag) = unquoted_value(inp, name_end, i)? {
            return Ok(tag);
        }
        return Ok(Lexed {
            tok: Tok::BadTag {
                unterminated: false,
            },
            len: to_bracket_or_eol(inp, i)?,
        });
    }
    let value_start = i + 1;
    let value_end = match quoted(inp, value_start)? {
        Ok((p, _)) => p,
        Err(nl) => {
            return Ok(Lexed {
                tok: Tok::BadTag { unterminated: true },
                len: before_brace(inp, nl),
            })
        }
    };
    let c = skip_blanks(inp, value_end + 1)?;
    let closed = inp[c] == b']';
    Ok(Lexed {
        tok: Tok::Tag {
            name_start: 1,
            name_end,
            value_start,
            value_end,
            closed,
            form: TagForm::Pdn,
        },
        len: if closed { c + 1 } else { value_end + 1 },
    })
}

/// `/FEN "..."/`.
#[inline(never)]
fn setup(inp: &[u8]) -> LexResult {
    let bad = |len: usize| {
        Ok(Lexed {
            tok: Tok::BadSetup,
            len: before_brace(inp, len).max(1),
        })
    };
    if run(tag::<_, _, ()>(&b"/FEN"[..])(inp))?.is_none() {
        // A command with another name (`/XYZ .../`): skip to its closing `/` on the line.
        if at(inp, 1)?.is_ascii_uppercase() {
            let eol = memchr(b'\n', inp).ok_or(NeedMore)?;
            if let Some(i) = memchr(b'/', &inp[1..eol]) {
                return bad(i + 2);
            }
        }
        return bad(word_end(inp, 1)?);
    }
    let i = skip_blanks(inp, 4)?;
    if inp[i] != b'"' {
        return bad(i);
    }
    let (fen_end, escaped) = match quoted(inp, i + 1)? {
        Ok(v) => v,
        Err(nl) => return bad(nl),
    };
    let c = skip_blanks(inp, fen_end + 1)?;
    let closed = inp[c] == b'/';
    Ok(Lexed {
        tok: Tok::Setup {
            fen_start: i + 1,
            fen_end,
            escaped,
            closed,
        },
        len: if closed { c + 1 } else { fen_end + 1 },
    })
}

/// `- -` or `--`: an unknown move.
#[inline(never)]
fn dash(inp: &[u8]) -> LexResult {
    let i = skip_blanks(inp, 1)?;
    if at(inp, i)? == b'-' && is_word_end(at(inp, i + 1)?) {
        return Ok(Lexed {
            tok: Tok::UnknownMove,
            len: i + 1,
        });
    }
    if is_delim(at(inp, 1)?) {
        return Ok(one(Tok::Dash));
    }
    junk(inp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lexes a complete input (with the sentinel) into (token, text) pairs.
    fn toks(s: &str) -> Vec<(Tok, String)> {
        let mut v = s.as_bytes().to_vec();
        v.push(b'\n');
        let mut out = Vec::new();
        let mut i = 0;
        while i < s.len() {
            if is_ws(v[i]) {
                i += 1;
                continue;
            }
            let l = lex(&v[i..], true).expect("complete input");
            assert!(l.len > 0 && i + l.len <= s.len(), "{s:?} at {i}: {l:?}");
            out.push((l.tok, s[i..i + l.len].to_string()));
            i += l.len;
        }
        out
    }

    fn texts(s: &str) -> Vec<String> {
        toks(s).into_iter().map(|t| t.1).collect()
    }

    #[test]
    fn results_need_word_boundaries() {
        let t = toks("1-18 1-1 1-0 2-0 0-2 0-0 1/2-1/2 1/2 *");
        assert_eq!(t[0].0, Tok::Move);
        assert_eq!(t[0].1, "1-18");
        for (tok, text) in &t[1..7] {
            assert_eq!(*tok, Tok::Result, "{text}");
        }
        assert_eq!(t[7].0, Tok::Junk);
        assert_eq!(t[8].0, Tok::Result);
    }

    #[test]
    fn a_result_glued_to_junk_is_not_a_move() {
        assert_eq!(toks("0-0xh4")[0], (Tok::Junk, "0-0xh4".into()));
        assert_eq!(toks("1-0x")[0], (Tok::Junk, "1-0x".into()));
        assert_eq!(toks("1-0x5")[0], (Tok::Move, "1-0x5".into()));
    }

    #[test]
    fn numeric_moves() {
        assert_eq!(
            texts("32-28 27x18x9 06-11 1- 6 47x 9 3228 27:18"),
            ["32-28", "27x18x9", "06-11", "1- 6", "47x 9", "3228", "27:18"]
        );
        assert!(toks("32-28 27x18x9 06-11 1- 6 3228 27:18")
            .iter()
            .all(|t| t.0 == Tok::Move));
    }

    #[test]
    fn move_numbers() {
        let t = toks("12. 12... 01. 1.a3b4");
        assert!(matches!(
            t[0].0,
            Tok::MoveNumber {
                number: 12,
                dots: 1,
                ..
            }
        ));
        assert!(matches!(t[1].0, Tok::MoveNumber { dots: 3, .. }));
        assert!(matches!(
            t[2].0,
            Tok::MoveNumber {
                leading_zero: true,
                ..
            }
        ));
        assert_eq!(t[4], (Tok::Move, "a3b4".into()));
    }

    #[test]
    fn strength_and_variations() {
        let t = toks("19-23(!?!!!) ( ! ) (18-23) 32-28!?");
        assert_eq!(t[1].0, Tok::Strength { start: 1, end: 6 });
        assert_eq!(t[2].0, Tok::Strength { start: 2, end: 3 });
        assert_eq!(t[3].0, Tok::Open);
        assert_eq!(t[6], (Tok::Move, "32-28".into()));
        assert_eq!(t[7].0, Tok::Strength { start: 0, end: 2 });
    }

    #[test]
    fn thaayam_tokens() {
        let s = "1. S [1 4 2] in c1+4+2 N [3] Tc5 Tc5+8+4-d2 c1+4xd2 ~4 off S+W- N+";
        let t = toks(s);
        let kinds: Vec<Tok> = t.iter().map(|t| t.0).collect();
        assert_eq!(kinds[1..12], [Tok::Move; 11]);
        assert_eq!(t[12], (Tok::Result, "S+W-".into()));
        assert_eq!(t[13], (Tok::Result, "N+".into()));
        assert_eq!(t[2].1, "[1 4 2]");
    }

    #[test]
    fn prose_after_a_move() {
        let t = toks("8-11Redoversteppedthetimecontrolonthismove. 0-1");
        assert_eq!(t[0], (Tok::Move, "8-11".into()));
        assert_eq!(t[1].0, Tok::Prose);
        assert_eq!(t[2].0, Tok::Result);
        let t = toks("White resigns here 1-0");
        assert_eq!(t[0], (Tok::Prose, "White resigns here".into()));
    }

    #[test]
    fn tags_and_comments() {
        let t = toks(r#"[Event  "a \" (b) {c} ;d"] {x { y} % z"#);
        assert!(matches!(t[0].0, Tok::Tag { closed: true, .. }));
        assert_eq!(
            t[1].0,
            Tok::BraceComment {
                terminated: true,
                nested: true
            }
        );
        assert_eq!(t[2].0, Tok::LineComment { text_end: 3 });
    }

    #[test]
    fn dashes_of_word_processors_separate_squares() {
        assert_eq!(
            texts("1. c3\u{2013}c4 32\u{2014}28 a1\u{2212}b2 *"),
            ["1.", "c3\u{2013}c4", "32\u{2014}28", "a1\u{2212}b2", "*"]
        );
    }

    #[test]
    fn squares_are_read_in_either_case() {
        let t = toks("A3-B4 c3xE5 E3 E+ E TC5+4");
        assert_eq!(t[0], (Tok::Move, "A3-B4".into()));
        assert_eq!(t[1], (Tok::Move, "c3xE5".into()));
        assert_eq!(t[2], (Tok::Move, "E3".into()));
        assert_eq!(t[3].0, Tok::Result);
        assert_eq!(t[4], (Tok::Move, "E".into()));
        assert_eq!(t[5], (Tok::Move, "TC5+4".into()));
    }

    #[test]
    fn a_lone_dash_is_its_own_token() {
        let t = toks("35-30 - - - -x");
        assert_eq!(t[1], (Tok::UnknownMove, "- -".into()));
        assert_eq!(t[2], (Tok::Dash, "-".into()));
        assert_eq!(t[3].0, Tok::Junk);
    }

    #[test]
    fn malformed_tags_that_still_read_as_tags() {
        let t = toks(r#"[Heure blanche "0:10"] [&#x00c9;v "x"] [event "y"]"#);
        for (tok, text) in &t {
            assert!(
                matches!(
                    tok,
                    Tok::Tag {
                        form: TagForm::OddName,
                        closed: true,
                        ..
                    }
                ),
                "{text}"
            );
        }
        let Tok::Tag {
            name_start,
            name_end,
            ..
        } = t[0].0
        else {
            panic!()
        };
        assert_eq!(&t[0].1[name_start..name_end], "Heure blanche");
        let t = toks("Event \"Open\"]\n1. 32-28");
        assert!(matches!(
            t[0].0,
            Tok::Tag {
                form: TagForm::NoBracket,
                name_start: 0,
                ..
            }
        ));
        assert_eq!(t[0].1, "Event \"Open\"]");
        let t = toks("[Site Madurai] [Round  3 ]");
        assert!(matches!(
            t[0].0,
            Tok::Tag {
                form: TagForm::Unquoted,
                value_start: 6,
                value_end: 13,
                ..
            }
        ));
        assert!(matches!(
            t[1].0,
            Tok::Tag {
                form: TagForm::Unquoted,
                value_start: 8,
                value_end: 9,
                ..
            }
        ));
        // Not tags: no value, a name with a bracket, a value without `]`.
        let t = toks("[Empty] [a[b \"x\"] [Odd name \"v\" x");
        assert_eq!(
            t[0].0,
            Tok::BadTag {
                unterminated: false
            }
        );
        assert!(
            t.iter().all(|(tok, _)| !matches!(tok, Tok::Tag { .. })),
            "{t:?}"
        );
    }

    #[test]
    fn text_kept_as_a_comment_stops_before_a_brace() {
        let t = toks("[Empty} x [odd {c}");
        assert_eq!(
            t[0],
            (
                Tok::BadTag {
                    unterminated: false
                },
                "[Empty".into()
            )
        );
        assert_eq!(t[1].0, Tok::StrayBrace);
        assert_eq!(t[3], (Tok::BadBracket, "[odd ".into()));
        assert!(matches!(
            t[4].0,
            Tok::BraceComment {
                terminated: true,
                ..
            }
        ));
    }

    /// Every word of `lens` letters over `alphabet`, followed by each suffix, that the fast
    /// path reads is read the same way by the lexer (with `at_eof`, also as the last token of
    /// the input). Returns how many words the fast path read.
    fn fast_agrees_with_lexer(
        alphabet: &[u8],
        lens: std::ops::RangeInclusive<u32>,
        suffixes: &[&[u8]],
        at_eof: bool,
    ) -> usize {
        let mut checked = 0;
        for len in lens {
            for mut code in 0..alphabet.len().pow(len) {
                let mut word = Vec::new();
                for _ in 0..len {
                    word.push(alphabet[code % alphabet.len()]);
                    code /= alphabet.len();
                }
                for suffix in suffixes {
                    let mut buf = word.clone();
                    buf.extend_from_slice(suffix);
                    if let Some(f) = fast(&buf) {
                        checked += 1;
                        let text = String::from_utf8_lossy(&buf).into_owned();
                        assert_eq!(lex(&buf, false), Ok(f), "{text:?}");
                        if at_eof {
                            buf.push(b'\n');
                            assert_eq!(lex(&buf, true), Ok(f), "{text:?}");
                        }
                    }
                }
            }
        }
        checked
    }

    #[test]
    fn fast_path_agrees_with_the_lexer() {
        let suffixes: [&[u8]; 3] = [b"        ", b"9-x.a\n12", b"\r\n\t.-x9a"];
        let checked = fast_agrees_with_lexer(b"0129.-x :a\n", 1..=6, &suffixes, true);
        assert!(checked > 1000, "{checked}");
    }

    /// The algebraic fast path agrees with the lexer on every short mix of files, ranks,
    /// separators and whitespace (and near misses: other letters, two-digit ranks, `+`).
    #[test]
    fn algebraic_fast_path_agrees_with_the_lexer() {
        let suffixes: [&[u8]; 2] = [b"        ", b"1-x+a\n12"];
        let checked = fast_agrees_with_lexer(b"aijk09x-:+ \nT", 4..=6, &suffixes, false);
        assert!(checked > 1000, "{checked}");
    }

    /// The Thaayam fast paths (seat letters, throw groups) agree with the lexer on every short
    /// mix of brackets, digits, seat letters, blanks and near misses.
    #[test]
    fn throw_group_fast_path_agrees_with_the_lexer() {
        let suffixes: [&[u8]; 2] = [b"        ", b"]1 [\nS+2"];
        let checked = fast_agrees_with_lexer(b"[]S18 \t\nW+", 1..=6, &suffixes, false);
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn streaming_asks_for_more() {
        for s in [
            "32-2",
            "1-1",
            "{ abc",
            "[Event \"x",
            "12",
            "(  ",
            "S",
            "1/2-1/",
        ] {
            assert_eq!(lex(s.as_bytes(), false), Err(NeedMore), "{s}");
        }
    }
}
