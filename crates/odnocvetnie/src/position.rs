//! The position: pieces, seat to move, lock; and the position string.

use std::fmt;
use std::str::FromStr;

use game::zobrist;

use crate::square::{Side, Square, SquareSet, VALID};

/// A piece. Pieces have no owner: every seat may move and capture every piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// A man: steps and captures diagonally forward, as seen by the seat moving it.
    Man,
    /// A damka (king): flies along the four diagonals.
    Damka,
}

impl Piece {
    /// `"man"` or `"damka"`.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Man => "man",
            Piece::Damka => "damka",
        }
    }
}

/// A complete game state.
///
/// `lock` is the square of the piece moved in the immediately preceding turn, if the rules lock
/// it: by default only a piece that is still a man; under `lock-any-piece` also a man crowned in
/// that turn. The locked piece may not be moved by the seat to move, but can be captured.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) men: u64,
    pub(crate) damki: u64,
    pub(crate) side: Side,
    pub(crate) lock: Option<Square>,
}

/// Why a position string or a set of parts is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    message: String,
}

impl PositionError {
    fn new(message: impl Into<String>) -> Self {
        PositionError {
            message: message.into(),
        }
    }

    /// The message, in words a player understands.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PositionError {}

/// The empty dark squares of the start position: d4, f4, e5, g5, d6, f6, e7, g7.
pub const START_EMPTY: [u8; 8] = [18, 19, 22, 23, 28, 29, 32, 33];

impl Position {
    /// The start position with South to move: 42 men on every dark square except the central
    /// eight (18, 19, 22, 23, 28, 29, 32, 33 = e7, g7, d6, f6, e5, g5, d4, f4). No lock.
    pub fn start() -> Position {
        Position::start_with(Side::South)
    }

    /// The start position with `first` to move.
    pub fn start_with(first: Side) -> Position {
        let mut men = VALID;
        for n in START_EMPTY {
            if let Some(sq) = Square::from_number(n) {
                men &= !sq.bit();
            }
        }
        Position {
            men,
            damki: 0,
            side: first,
            lock: None,
        }
    }

    /// Builds a position from its parts. Fails if a square holds both a man and a damka, or if
    /// the locked square holds no man (`lock_any_piece` also allows a damka standing on the far
    /// edge of the seat that moved last, i.e. one crowned in that move).
    pub fn new(
        men: SquareSet,
        damki: SquareSet,
        side: Side,
        lock: Option<Square>,
        lock_any_piece: bool,
    ) -> Result<Position, PositionError> {
        if let Some(sq) = (men & damki).first() {
            return Err(PositionError::new(format!(
                "square {sq} cannot hold both a man and a damka"
            )));
        }
        let pos = Position {
            men: men.0,
            damki: damki.0,
            side,
            lock,
        };
        pos.check_lock(lock_any_piece)?;
        Ok(pos)
    }

    fn check_lock(&self, lock_any_piece: bool) -> Result<(), PositionError> {
        let Some(sq) = self.lock else { return Ok(()) };
        match self.piece_at(sq) {
            Some(Piece::Man) => Ok(()),
            None => Err(PositionError::new(format!(
                "the locked square {sq} is empty; the lock names the man moved in the previous turn"
            ))),
            Some(Piece::Damka) if !lock_any_piece => Err(PositionError::new(format!(
                "the locked square {sq} holds a damka; only a man can be locked"
            ))),
            Some(Piece::Damka) => {
                let prev = self.side.prev();
                if prev.far_edge().contains(sq) {
                    Ok(())
                } else {
                    Err(PositionError::new(format!(
                        "the locked square {sq} holds a damka that {prev} cannot have crowned in the previous turn ({prev} crowns on {})",
                        prev.far_edge_name()
                    )))
                }
            }
        }
    }

    /// The seat to move.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// The locked square (the piece moved in the previous turn, if locked), if any.
    #[inline]
    pub const fn locked(&self) -> Option<Square> {
        self.lock
    }

    /// The squares holding men.
    #[inline]
    pub const fn men(&self) -> SquareSet {
        SquareSet(self.men)
    }

    /// The squares holding damki.
    #[inline]
    pub const fn damki(&self) -> SquareSet {
        SquareSet(self.damki)
    }

    /// The squares holding any piece.
    #[inline]
    pub const fn pieces(&self) -> SquareSet {
        SquareSet(self.men | self.damki)
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        if self.men & b != 0 {
            Some(Piece::Man)
        } else if self.damki & b != 0 {
            Some(Piece::Damka)
        } else {
            None
        }
    }

    /// Reads a position string under the default rules (see [`Position::parse_with`]).
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        Position::parse_with(text, false)
    }

    /// Reads a position string, e.g. `S:M1-17,20,21,K33:L28`.
    ///
    /// Grammar (case-insensitive, spaces around separators ignored, a trailing `.` ignored):
    ///
    /// ```text
    /// position := seat { ":" field }
    /// seat     := "S" | "W" | "N" | "E" | "South" | "West" | "North" | "East"
    /// field    := "M" [ items ]        men (an item prefixed with K is a damka)
    ///           | "K" [ items ]        damki (an item prefixed with M is a man)
    ///           | "L" [ square | "-" ] the locked square ("L" or "L-": none)
    /// items    := item { "," item }
    /// item     := [ "K" | "M" ] square [ "-" square ]   (ranges: numeric squares only)
    /// square   := 1..50 | a1..j10 (dark squares only)
    /// ```
    ///
    /// A square may be listed once. The locked square must hold a man; with `lock_any_piece`
    /// it may also hold a damka that stands on the far edge of the seat that moved last.
    pub fn parse_with(text: &str, lock_any_piece: bool) -> Result<Position, PositionError> {
        let text = text.trim();
        let text = text.strip_suffix('.').unwrap_or(text).trim_end();
        if text.is_empty() {
            return Err(PositionError::new("the position string is empty"));
        }
        let mut fields = text.split(':');
        let seat_text = fields.next().unwrap_or("").trim();
        let side = Side::parse(seat_text).ok_or_else(|| {
            PositionError::new(format!(
                "`{seat_text}` is not a seat to move; write S, W, N or E before the first `:`"
            ))
        })?;
        let mut men = 0u64;
        let mut damki = 0u64;
        let mut lock: Option<Option<Square>> = None;
        for field in fields {
            let field = field.trim();
            let Some(&head) = field.as_bytes().first() else {
                continue;
            };
            // `head` is ASCII in every arm that uses `rest`, so slicing after it is safe.
            let rest = if head.is_ascii() {
                field[1..].trim()
            } else {
                ""
            };
            match head.to_ascii_uppercase() {
                b'M' | b'K' => {
                    let all_damki = head.eq_ignore_ascii_case(&b'K');
                    for item in rest.split(',') {
                        let item = item.trim();
                        if item.is_empty() {
                            if rest.is_empty() {
                                continue;
                            }
                            return Err(PositionError::new(format!(
                                "empty item in the list `{field}`"
                            )));
                        }
                        let (damka, body) = match item.as_bytes()[0] {
                            b'K' | b'k' => (true, item[1..].trim()),
                            b'M' | b'm' => (false, item[1..].trim()),
                            _ => (all_damki, item),
                        };
                        for sq in parse_item(body)? {
                            let b = sq.bit();
                            if (men | damki) & b != 0 {
                                return Err(PositionError::new(format!(
                                    "square {sq} is listed twice"
                                )));
                            }
                            if damka {
                                damki |= b;
                            } else {
                                men |= b;
                            }
                        }
                    }
                }
                b'L' => {
                    if lock.is_some() {
                        return Err(PositionError::new("the locked square is given twice"));
                    }
                    lock = Some(if rest.is_empty() || rest == "-" {
                        None
                    } else {
                        Some(parse_square(rest)?)
                    });
                }
                _ => {
                    return Err(PositionError::new(format!(
                        "unknown field `{field}`: fields start with M (pieces), K (damki) or L (locked square)"
                    )))
                }
            }
        }
        let pos = Position {
            men,
            damki,
            side,
            lock: lock.flatten(),
        };
        pos.check_lock(lock_any_piece)?;
        Ok(pos)
    }

    /// Writes the canonical position string: seat letter, then `:M` with the men as ascending
    /// numeric squares (runs of three or more as ranges `a-b`), then the damki each run
    /// prefixed with `K`, then `:L` and the locked square if there is one.
    /// Example: `S:M1-17,20,21,24-27,30,31,34-50`.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        self.write_fen(&mut s);
        s
    }

    /// The position key (see `game::zobrist` and `docs/export.md`): men are kind 0, damki
    /// kind 1, on their square numbers; the seat to move; extra feature `n` when the piece on
    /// square `n` is locked.
    pub fn key(&self) -> u64 {
        let number = |b: u32| b as usize + 1;
        zobrist::to_move(usize::from(self.side.index()))
            ^ zobrist::pieces_u64(0, self.men, number)
            ^ zobrist::pieces_u64(1, self.damki, number)
            ^ lock_key(self.lock)
    }

    /// The key of `after`, a position reached from this one, whose key is `key`: only the
    /// features that changed are XOR-ed.
    pub fn key_after(&self, key: u64, after: &Position) -> u64 {
        let number = |b: u32| b as usize + 1;
        let mut key = key
            ^ zobrist::pieces_u64(0, self.men ^ after.men, number)
            ^ zobrist::pieces_u64(1, self.damki ^ after.damki, number);
        if self.side != after.side {
            key ^= zobrist::to_move(usize::from(self.side.index()))
                ^ zobrist::to_move(usize::from(after.side.index()));
        }
        if self.lock != after.lock {
            key ^= lock_key(self.lock) ^ lock_key(after.lock);
        }
        key
    }

    /// Appends [`Position::to_fen`] to `s`.
    pub fn write_fen(&self, s: &mut String) {
        s.push(self.side.letter());
        s.push_str(":M");
        let mut first = true;
        write_runs(s, SquareSet(self.men), "", &mut first);
        write_runs(s, SquareSet(self.damki), "K", &mut first);
        if let Some(sq) = self.lock {
            s.push_str(":L");
            sq.push_styled(s, true);
        }
    }

    /// A picture of the board seen from South, for debugging and tests: `m` man, `K` damka,
    /// `*` locked man (or `Ǩ` locked damka), `.` empty dark square.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (0..10u8).rev() {
            s.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..10u8 {
                let c = match Square::from_coords(file, rank) {
                    None => ' ',
                    Some(sq) => match (self.piece_at(sq), self.lock == Some(sq)) {
                        (None, _) => '.',
                        (Some(Piece::Man), false) => 'm',
                        (Some(Piece::Man), true) => '*',
                        (Some(Piece::Damka), false) => 'K',
                        (Some(Piece::Damka), true) => 'Ǩ',
                    },
                };
                s.push(c);
                s.push(' ');
            }
            s.truncate(s.trim_end().len());
            s.push('\n');
        }
        s.push_str("   a b c d e f g h i j\n");
        s.push_str(&format!("{} to move\n", self.side));
        s
    }
}

/// The key's feature of a locked piece: extra feature `n` for square `n`, none without a lock.
fn lock_key(lock: Option<Square>) -> u64 {
    lock.map_or(0, |sq| zobrist::extra(usize::from(sq.number())))
}

fn write_runs(s: &mut String, set: SquareSet, prefix: &str, first: &mut bool) {
    // At most the 50 squares of the board, in number order.
    let mut numbers = [0u8; 64];
    let mut len = 0;
    for sq in set.iter().take(numbers.len()) {
        numbers[len] = sq.number();
        len += 1;
    }
    let numbers = &numbers[..len];
    let mut emit = |s: &mut String, n: u8, to: Option<u8>| {
        if !*first {
            s.push(',');
        }
        *first = false;
        s.push_str(prefix);
        if let Some(sq) = Square::from_number(n) {
            sq.push_styled(s, true);
        }
        if let Some(to) = to.and_then(Square::from_number) {
            s.push('-');
            to.push_styled(s, true);
        }
    };
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        if j - i >= 2 {
            emit(s, numbers[i], Some(numbers[j]));
        } else {
            for &n in &numbers[i..=j] {
                emit(s, n, None);
            }
        }
        i = j + 1;
    }
}

fn parse_square(text: &str) -> Result<Square, PositionError> {
    Square::parse(text).ok_or_else(|| PositionError::new(describe_bad_square(text)))
}

/// Why `text` is not a square, for messages.
pub(crate) fn describe_bad_square(text: &str) -> String {
    let b = text.as_bytes();
    if !b.is_empty() && b.iter().all(u8::is_ascii_digit) {
        return format!("square {text} does not exist: squares are numbered 1 to 50");
    }
    if b.len() >= 2 {
        let file = b[0].to_ascii_lowercase();
        if (b'a'..=b'j').contains(&file) && b[1..].iter().all(u8::is_ascii_digit) {
            if let Ok(rank) = text[1..].parse::<u8>() {
                if (1..=10).contains(&rank) {
                    return format!("{text} is a light square; only the 50 dark squares are used");
                }
            }
            return format!("{text} is off the board: ranks are 1 to 10");
        }
    }
    format!("`{text}` is not a square (write 1..50 or a1..j10)")
}

fn parse_item(body: &str) -> Result<impl Iterator<Item = Square>, PositionError> {
    let (a, b) = match body.split_once('-') {
        Some((a, b)) => (a.trim(), Some(b.trim())),
        None => (body, None),
    };
    let first = parse_square(a)?;
    let last = match b {
        None => first,
        Some(b) => {
            let last = parse_square(b)?;
            let numeric = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
            if !numeric(a) || !numeric(b) {
                return Err(PositionError::new(format!(
                    "`{body}`: ranges are allowed for numbered squares only"
                )));
            }
            if last < first {
                return Err(PositionError::new(format!(
                    "`{body}`: a range must go upwards"
                )));
            }
            last
        }
    };
    Ok((first.index()..=last.index()).filter_map(Square::from_index))
}

impl FromStr for Position {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_string() {
        let s = Position::start();
        assert_eq!(s.to_fen(), "S:M1-17,20,21,24-27,30,31,34-50");
        assert_eq!(s.pieces().len(), 42);
        assert_eq!(Position::parse(&s.to_fen()), Ok(s));
    }

    #[test]
    fn tolerant_reading() {
        let p = Position::parse(" w : m 1 - 3 , kc3 , e5 :k 50 : l 2 .").unwrap();
        assert_eq!(p.to_fen(), "W:M1-3,28,K37,K50:L2");
        assert_eq!(Position::parse("N:K1-3:M4"), Position::parse("N:MK1-3,4"));
        assert_eq!(Position::parse("N:K1-3,M4"), Position::parse("N:MK1-3,4"));
        assert_eq!(Position::parse("S:M").unwrap().pieces().len(), 0);
        assert_eq!(Position::parse("S:M5:L-").unwrap().locked(), None);
    }

    #[test]
    fn errors() {
        let e = |t: &str| Position::parse(t).unwrap_err().to_string();
        assert!(e("").contains("empty"));
        assert!(e("X:M1").contains("not a seat"));
        assert!(e("S:M1,1").contains("listed twice"));
        assert!(e("S:M51").contains("1 to 50"));
        assert!(e("S:Ma2").contains("light square"));
        assert!(e("S:Ma1-c1").contains("numbered squares only"));
        assert!(e("S:M5-3").contains("upwards"));
        assert!(e("S:M1:L2").contains("empty"));
        assert!(e("S:K1:L1").contains("only a man"));
        assert!(e("S:M1:Q2").contains("unknown field"));
        assert!(e("S:M1,,2").contains("empty item"));
        assert!(e("S:é1").contains("unknown field"));
        assert!(e("é").contains("not a seat"));
        // lock-any-piece: a damka crowned by East (before South) stands on file a.
        assert!(Position::parse_with("S:K6:L6", true).is_ok());
        assert!(Position::parse_with("S:K1:L1", true)
            .unwrap_err()
            .to_string()
            .contains("cannot have crowned"));
    }
}
