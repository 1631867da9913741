//! The position records `selfplay_positions` writes and `fit_patterns` reads
//! (little-endian, [`RECORD`] bytes): men and kings of White and Black as four `u128` bit
//! boards, the side to move (0 White, 1 Black), the game's result from the side to move's
//! view (1 win, 0 draw, -1 loss), and the search's score of the position from the side to
//! move's view (hundredths of a man, `i16`).

use draughts::{Color, Draughts, Position};

/// Bytes of one record.
pub const RECORD: usize = 68;

/// One record, read.
pub struct Record {
    pub pos: Position,
    pub result: i8,
    pub score: i16,
}

/// Appends the record of `pos` to `out`.
pub fn write(pos: &Position, result: i8, score: i16, out: &mut Vec<u8>) {
    for b in [pos.men[0], pos.men[1], pos.kings[0], pos.kings[1]] {
        out.extend_from_slice(&b.to_le_bytes());
    }
    out.push(u8::from(pos.side == Color::Black));
    out.push(result as u8);
    out.extend_from_slice(&score.to_le_bytes());
}

/// Reads one record (`r` is [`RECORD`] bytes) as a position of `g`'s variant.
pub fn read(g: &Draughts, r: &[u8]) -> Record {
    let word = |i: usize| u128::from_le_bytes(r[16 * i..16 * i + 16].try_into().unwrap());
    let side = if r[64] == 0 {
        Color::White
    } else {
        Color::Black
    };
    Record {
        pos: Position {
            men: [word(0), word(1)],
            kings: [word(2), word(3)],
            side,
            ..g.start()
        },
        result: r[65] as i8,
        score: i16::from_le_bytes([r[66], r[67]]),
    }
}
