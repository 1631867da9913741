//! Positions and the position string.

use crate::board::{
    push_number, push_square, route_square, seat_from_letter, seat_letter, seat_name, Square,
    INDEX, KEEP_INDEX, ROUTE, TWIN_INDEX,
};
use game::zobrist;

/// Pieces of one seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Side {
    /// Single pieces per route index 0..24.
    pub singles: [u8; 24],
    /// Twins per route index 0..24 (each twin is two pieces).
    pub twins: [u8; 24],
    /// Pieces in hand (off the board, not yet entered or sent back).
    pub hand: u8,
    /// Pieces in the keep.
    pub keep: u8,
    /// Pieces borne off.
    pub off: u8,
}

impl Side {
    /// The route indices where the seat has a single or a twin, as bits (bit `i` for index
    /// `i`): a branch-free pass the compiler can vectorise, then a scan of the few set bits.
    fn occupied(&self) -> u32 {
        let mut bits = 0;
        for i in 0..24 {
            bits |= u32::from(self.singles[i] | self.twins[i] != 0) << i;
        }
        bits
    }

    pub(crate) const START: Side = Side {
        singles: [0; 24],
        twins: [0; 24],
        hand: 4,
        keep: 0,
        off: 0,
    };

    /// Pieces on the route squares (not counting the keep).
    pub fn on_route(&self) -> u32 {
        (0..3)
            .map(|k| byte_sum(word(&self.singles, k)) + 2 * byte_sum(word(&self.twins, k)))
            .sum()
    }

    /// True when some piece stands on a route square.
    #[inline]
    pub fn any_on_route(&self) -> bool {
        let any = (0..3)
            .map(|k| word(&self.singles, k) | word(&self.twins, k))
            .fold(0, |a, w| a | w);
        any != 0
    }

    pub fn total(&self) -> u32 {
        self.on_route() + u32::from(self.hand) + u32::from(self.keep) + u32::from(self.off)
    }

    /// True when the side, a seat in play, has a piece on the board (route or keep), for
    /// the discard rule.
    #[inline]
    pub fn on_board(&self) -> bool {
        self.in_play_on_board() > 0
    }

    /// Pieces of a seat in play on the board (route and keep). A seat in play has four
    /// pieces, always (position strings are checked for it and every move keeps it), so
    /// these are the ones neither in hand nor borne off; counting them from the two
    /// counters spares reading the route, which may just have been written.
    #[inline]
    fn in_play_on_board(&self) -> u8 {
        let n = 4u8.saturating_sub(self.hand.saturating_add(self.off));
        debug_assert_eq!(u32::from(n), self.on_route() + u32::from(self.keep));
        n
    }
}

/// The counts of route indices `8k..8k + 8`, one per byte: eight squares read at once.
#[inline]
fn word(units: &[u8; 24], k: usize) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&units[8 * k..8 * k + 8]);
    u64::from_le_bytes(bytes)
}

/// The lowest route index holding a unit in `units` (a seat's singles or twins), if any:
/// eight squares are looked at in one step.
#[inline]
pub(crate) fn lowest_occupied(units: &[u8; 24]) -> Option<u8> {
    (0..3).find_map(|k| {
        let w = word(units, k);
        (w != 0).then(|| (8 * k) as u8 + (w.trailing_zeros() / 8) as u8)
    })
}

/// The sum of the eight bytes of `w`, exact for any bytes: pairs of bytes are added in
/// 16-bit lanes first, then the four lanes.
#[inline]
fn byte_sum(w: u64) -> u32 {
    const LOW_BYTES: u64 = 0x00FF_00FF_00FF_00FF;
    let lanes = (w & LOW_BYTES) + ((w >> 8) & LOW_BYTES);
    (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// A complete Thaayam state between two series: every seat's pieces, the seats in play, the
/// seat to move, and the extra series it still owes after the one it throws now.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) sides: [Side; 4],
    /// Bit `s` set: seat `s` plays.
    pub(crate) seats: u8,
    pub(crate) to_move: u8,
    pub(crate) owed: u8,
}

impl Position {
    /// All pieces in hand for the seats of `seats` (bit mask: 1 South, 2 West, 4 North,
    /// 8 East), `first` to move.
    pub(crate) fn start(seats: u8, first: u8) -> Position {
        let mut sides = [Side::default(); 4];
        for (s, side) in sides.iter_mut().enumerate() {
            if seats & (1 << s) != 0 {
                *side = Side::START;
            }
        }
        Position {
            sides,
            seats,
            to_move: first,
            owed: 0,
        }
    }

    /// The seat to move (0 South, 1 West, 2 North, 3 East).
    pub fn to_move(&self) -> u8 {
        self.to_move
    }

    /// Extra series the seat to move still owes after the series it throws now (0 at the
    /// start of a turn).
    pub fn owed(&self) -> u8 {
        self.owed
    }

    /// True if `seat` plays in this game.
    pub fn plays(&self, seat: u8) -> bool {
        seat < 4 && self.seats & (1 << seat) != 0
    }

    /// The seats in play, in seat-index order (S, W, N, E).
    pub fn seats(&self) -> impl Iterator<Item = u8> + '_ {
        (0..4).filter(move |&s| self.plays(s))
    }

    /// Pieces of `seat` in hand.
    pub fn hand(&self, seat: u8) -> u8 {
        self.sides[usize::from(seat & 3)].hand
    }

    /// Pieces of `seat` in the keep.
    pub fn keep(&self, seat: u8) -> u8 {
        self.sides[usize::from(seat & 3)].keep
    }

    /// Pieces of `seat` borne off.
    pub fn off(&self, seat: u8) -> u8 {
        self.sides[usize::from(seat & 3)].off
    }

    /// Single pieces of `seat` on `square` (the keep counts its pieces as singles).
    pub fn singles_at(&self, seat: u8, square: Square) -> u8 {
        let side = &self.sides[usize::from(seat & 3)];
        let i = INDEX[usize::from(seat & 3)][usize::from(square.index())];
        if i == KEEP_INDEX {
            side.keep
        } else {
            side.singles[usize::from(i)]
        }
    }

    /// Twins of `seat` on `square` (a twin is two pieces).
    pub fn twins_at(&self, seat: u8, square: Square) -> u8 {
        let side = &self.sides[usize::from(seat & 3)];
        let i = INDEX[usize::from(seat & 3)][usize::from(square.index())];
        if i == KEEP_INDEX {
            0
        } else {
            side.twins[usize::from(i)]
        }
    }

    /// Pieces of `seat` on the board (route squares and keep).
    pub fn on_board(&self, seat: u8) -> u8 {
        let seat = seat & 3;
        if self.plays(seat) {
            self.sides[usize::from(seat)].in_play_on_board()
        } else {
            0
        }
    }

    /// The seat that has borne off all four pieces, if any.
    pub fn winner(&self) -> Option<u8> {
        self.seats().find(|&s| self.sides[usize::from(s)].off >= 4)
    }
}

/// Writes the canonical position string (see `docs/notation.md (section Thaayam)`).
pub(crate) fn write(pos: &Position) -> String {
    let mut out = String::with_capacity(48);
    write_into(pos, &mut out);
    out
}

/// Appends [`write`] to `out` (it runs for every ply of an export: no formatting machinery).
pub(crate) fn write_into(pos: &Position, out: &mut String) {
    out.push(seat_letter(pos.to_move));
    if pos.owed > 0 {
        out.push('+');
        push_number(out, pos.owed);
    }
    out.push(':');
    let mut first = true;
    for seat in pos.seats() {
        if !first {
            out.push('/');
        }
        first = false;
        out.push(seat_letter(seat));
        out.push('=');
        let side = &pos.sides[usize::from(seat)];
        let mut items = 0;
        // One item: a comma before all but the first, the prefix, then a square or a count.
        let mut item = |out: &mut String, prefix: &str, square: Option<Square>, n: u8| {
            if items > 0 {
                out.push(',');
            }
            items += 1;
            out.push_str(prefix);
            if let Some(sq) = square {
                push_square(out, sq);
                if n > 1 {
                    out.push('x');
                    push_number(out, n);
                }
            } else {
                push_number(out, n);
            }
        };
        if side.hand > 0 {
            item(out, "h", None, side.hand);
        }
        let mut occupied = side.occupied();
        while occupied != 0 {
            let i = occupied.trailing_zeros() as u8;
            occupied &= occupied - 1;
            let (singles, twins) = (side.singles[usize::from(i)], side.twins[usize::from(i)]);
            let sq = route_square(seat, i);
            if singles > 0 {
                item(out, "", Some(sq), singles);
            }
            if twins > 0 {
                item(out, "T", Some(sq), twins);
            }
        }
        if side.keep > 0 {
            item(out, "k", None, side.keep);
        }
        if side.off > 0 {
            item(out, "o", None, side.off);
        }
    }
}

/// The position key (see `game::zobrist` and `docs/export.md`). For each seat `s` in play:
/// `n` single pieces on board square `q` (index `5 * rank + file`, `a1` = 0) are piece kind
/// `s` on square `25 * (n - 1) + q`; `n` twins there are kind `4 + s` on the same square
/// numbers; `n` pieces in hand, in the keep or borne off are extra feature
/// `32 * s + 8 * w + n` (`w`: 0 hand, 1 keep, 2 off). Then the seat to move, and extra
/// feature `256 + n` when `n` > 0 series are still owed.
pub(crate) fn key(pos: &Position) -> u64 {
    let mut key = zobrist::to_move(usize::from(pos.to_move & 3));
    if pos.owed > 0 {
        key ^= zobrist::extra(256 + usize::from(pos.owed));
    }
    for seat in pos.seats() {
        let s = usize::from(seat);
        let side = &pos.sides[s];
        for (w, n) in [side.hand, side.keep, side.off].into_iter().enumerate() {
            if n > 0 {
                key ^= zobrist::extra(32 * s + 8 * w + usize::from(n.min(7)));
            }
        }
        let mut occupied = side.occupied();
        while occupied != 0 {
            let i = occupied.trailing_zeros() as u8;
            occupied &= occupied - 1;
            let q = usize::from(route_square(seat, i).index());
            let (singles, twins) = (side.singles[usize::from(i)], side.twins[usize::from(i)]);
            if singles > 0 {
                key ^= zobrist::piece(s, 25 * usize::from(singles - 1) + q);
            }
            if twins > 0 {
                key ^= zobrist::piece(4 + s, 25 * usize::from(twins - 1) + q);
            }
        }
    }
    key
}

/// Why a position string does not read (the messages quote the part at fault).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PositionError {
    #[error("\"{0}\" is not a Thaayam position: expected e.g. \"S:S=h4/N=h4\"")]
    Shape(String),
    #[error("\"{0}\": the position string starts with the seat to move (S, W, N or E)")]
    ToMove(String),
    #[error("\"{0}\": after the seat to move only \"+n\" (extra series owed) may follow")]
    Owed(String),
    #[error("\"{0}\": a seat's part reads like \"S=h2,c1,k1\"")]
    Section(String),
    #[error("\"{0}\" is not a seat letter (S, W, N or E)")]
    SeatLetter(String),
    #[error("{} is described twice", seat_name(*.0))]
    Twice(u8),
    #[error("{} has {total} pieces: every seat has exactly 4 (in hand, on the board, in the keep or borne off)", seat_name(*seat))]
    PieceCount { seat: u8, total: u32 },
    #[error("{} has borne off pieces while others are outside the keep: bearing off starts only when all are in the keep", seat_name(*.0))]
    EarlyBearOff(u8),
    #[error("a game has at least two seats")]
    OneSeat,
    #[error("{} is to move but does not play", seat_name(*.0))]
    AbsentToMove(u8),
    #[error("\"{0}\" is not a piece list item: use h2 (in hand), c1 or c1x2 (singles), Tc5 (twins), k1 (keep), o1 (borne off)")]
    Item(String),
    #[error("{} has more than 4 pieces", seat_name(*.0))]
    TooMany(u8),
    #[error("twins split into two singles in the keep: \"{0}\" cannot exist")]
    TwinsInKeep(String),
    #[error("twins of {} on {square} stand before their opposite palace {}: they cannot be there", seat_name(*seat), route_square(*seat, TWIN_INDEX))]
    EarlyTwins { seat: u8, square: Square },
    #[error("{} and {} both have {what} on {square}, an unmarked square: the later arrival would have captured the other", seat_name(*first), seat_name(*second))]
    Shared {
        first: u8,
        second: u8,
        what: &'static str,
        square: Square,
    },
}

/// Reads a position string (see `docs/notation.md (section Thaayam)`).
pub(crate) fn parse(text: &str) -> Result<Position, PositionError> {
    let text = text.trim();
    let (head, body) = text
        .split_once(':')
        .ok_or_else(|| PositionError::Shape(text.to_string()))?;
    let hb = head.as_bytes();
    let to_move = match hb.first() {
        Some(&l) => seat_from_letter(l),
        None => None,
    }
    .ok_or_else(|| PositionError::ToMove(head.to_string()))?;
    let owed = if hb.len() > 1 {
        match head[1..]
            .strip_prefix('+')
            .and_then(|n| n.parse::<u8>().ok())
        {
            Some(n) if n <= 64 => n,
            _ => return Err(PositionError::Owed(head.to_string())),
        }
    } else {
        0
    };
    let mut pos = Position {
        sides: [Side::default(); 4],
        seats: 0,
        to_move,
        owed,
    };
    for section in body.split('/') {
        let section = section.trim();
        let (who, items) = section
            .split_once('=')
            .ok_or_else(|| PositionError::Section(section.to_string()))?;
        let seat = match who.as_bytes() {
            [l] => seat_from_letter(*l),
            _ => None,
        }
        .ok_or_else(|| PositionError::SeatLetter(who.to_string()))?;
        if pos.plays(seat) {
            return Err(PositionError::Twice(seat));
        }
        pos.seats |= 1 << seat;
        let side = &mut pos.sides[usize::from(seat)];
        for item in items.split(',') {
            parse_item(item.trim(), seat, side)?;
        }
        let total = side.total();
        if total != 4 {
            return Err(PositionError::PieceCount { seat, total });
        }
        if side.off > 0 && (side.hand > 0 || side.on_route() > 0) {
            return Err(PositionError::EarlyBearOff(seat));
        }
    }
    if pos.seats.count_ones() < 2 {
        return Err(PositionError::OneSeat);
    }
    if !pos.plays(to_move) {
        return Err(PositionError::AbsentToMove(to_move));
    }
    check_squares(&pos)?;
    Ok(pos)
}

fn parse_item(item: &str, seat: u8, side: &mut Side) -> Result<(), PositionError> {
    let b = item.as_bytes();
    let bad = || PositionError::Item(item.to_string());
    let count = |digits: &[u8]| -> Option<u8> {
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        digits
            .iter()
            .try_fold(0u8, |a, d| a.checked_mul(10)?.checked_add(d - b'0'))
    };
    match b.first() {
        Some(b'h' | b'k' | b'o') => {
            let n = count(&b[1..]).ok_or_else(bad)?;
            let slot = match b[0] {
                b'h' => &mut side.hand,
                b'k' => &mut side.keep,
                _ => &mut side.off,
            };
            *slot = slot
                .checked_add(n)
                .filter(|&v| v <= 4)
                .ok_or_else(|| too_many(seat))?;
            Ok(())
        }
        Some(_) => {
            let (twin, rest) = match b.strip_prefix(b"T") {
                Some(r) => (true, r),
                None => (false, b),
            };
            if rest.len() < 2 {
                return Err(bad());
            }
            let sq = Square::parse(&rest[..2]).ok_or_else(bad)?;
            let n = match &rest[2..] {
                [] => 1,
                [b'x', digits @ ..] => count(digits).filter(|&n| n > 0).ok_or_else(bad)?,
                _ => return Err(bad()),
            };
            let i = INDEX[usize::from(seat)][usize::from(sq.index())];
            if i == KEEP_INDEX {
                if twin {
                    return Err(PositionError::TwinsInKeep(item.to_string()));
                }
                side.keep = side
                    .keep
                    .checked_add(n)
                    .filter(|&v| v <= 4)
                    .ok_or_else(|| too_many(seat))?;
                return Ok(());
            }
            if twin && i < TWIN_INDEX {
                return Err(PositionError::EarlyTwins { seat, square: sq });
            }
            let slot = if twin {
                &mut side.twins[usize::from(i)]
            } else {
                &mut side.singles[usize::from(i)]
            };
            *slot = slot
                .checked_add(n)
                .filter(|&v| v <= 4)
                .ok_or_else(|| too_many(seat))?;
            Ok(())
        }
        None => Err(bad()),
    }
}

fn too_many(seat: u8) -> PositionError {
    PositionError::TooMany(seat)
}

/// No unmarked square can hold singles of two seats, or twins of two seats: the later
/// arrival would have captured the earlier (rule 13).
fn check_squares(pos: &Position) -> Result<(), PositionError> {
    for sq in 0..25u8 {
        let square = Square::new(sq).unwrap_or(Square::KEEP);
        if square.is_marked() {
            continue;
        }
        let mut single_owner: Option<u8> = None;
        let mut twin_owner: Option<u8> = None;
        for seat in pos.seats() {
            let i = usize::from(INDEX[usize::from(seat)][usize::from(sq)]);
            debug_assert_eq!(ROUTE[usize::from(seat)][i], sq);
            let side = &pos.sides[usize::from(seat)];
            for (count, owner, what) in [
                (side.singles[i], &mut single_owner, "single pieces"),
                (side.twins[i], &mut twin_owner, "twins"),
            ] {
                if count > 0 {
                    if let Some(other) = *owner {
                        return Err(PositionError::Shared {
                            first: other,
                            second: seat,
                            what,
                            square,
                        });
                    }
                    *owner = Some(seat);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_on_the_route() {
        let mut side = Side::default();
        assert!(!side.any_on_route());
        assert_eq!(side.on_route(), 0);
        side.singles[23] = 1;
        side.twins[8] = 2;
        side.singles[0] = 255;
        side.twins[17] = 255;
        assert!(side.any_on_route());
        assert_eq!(side.on_route(), 1 + 4 + 255 + 510);
        assert_eq!(byte_sum(u64::MAX), 8 * 255);
    }

    #[test]
    fn round_trip() {
        for text in [
            "S:S=h4/N=h4",
            "N+2:S=h1,c1,d4x2/W=h4/N=Td1,k2/E=k1,o3",
            "E:S=h1,c5,Tb5/N=o4/E=h4",
        ] {
            let pos = parse(text).unwrap();
            assert_eq!(write(&pos), text);
        }
    }

    #[test]
    fn rejects() {
        for text in [
            "S",
            "S:S=h4",
            "S:S=h3/N=h4",
            "X:S=h4/N=h4",
            "W:S=h4/N=h4",
            "S:S=h4/S=h4",
            "S:S=Tc1,h2/N=h4",
            "S:S=Tc3,h2/N=h4",
            "S:S=o1,c1,h2/N=h4",
            "S:S=d1,h3/N=d1,h3",
            "S:S=q1,h3/N=h4",
            "S:S=c1x0,h4/N=h4",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
        // Singles of two seats on a marked square are fine; a single and a twin too.
        assert!(parse("S:S=c5,h3/N=c5,h3").is_ok());
        assert!(parse("S:S=Tb5,h2/N=b5,h3").is_ok());
        assert!(parse("S:S=Tb5,h2/N=Tb5,h2").is_err());
    }
}
