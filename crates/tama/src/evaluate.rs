//! How good a position is for a side, for self-play's agents ([`game::Explore::evaluate`]).

use crate::{count_quiet, Position, Side};

/// Value of a man (a hundredth of a man is the unit).
const MAN: i32 = 100;
/// Value of a king: a flying piece that moves like a queen.
const KING: i32 = 300;
/// Per rank a man has advanced.
const ADVANCE: i32 = 3;
/// Per quiet move more than the opponent.
const MOBILITY: i32 = 1;

/// Material (man 100, king 300), the men's advancement and mobility, from `us`'s side.
pub(crate) fn evaluate(pos: &Position, us: Side) -> i32 {
    let them = us.opponent();
    let side = |s: Side| -> i32 {
        let men = pos.men(s);
        let mut advance = 0i32;
        let mut m = men;
        while m != 0 {
            let rank = (m.trailing_zeros() / 8) as i32;
            m &= m - 1;
            advance += match s {
                Side::White => rank,
                Side::Black => 7 - rank,
            };
        }
        men.count_ones() as i32 * MAN + pos.kings(s).count_ones() as i32 * KING + advance * ADVANCE
    };
    let mobility = count_quiet(&pos.with_side_to_move(us)) as i32
        - count_quiet(&pos.with_side_to_move(them)) as i32;
    side(us) - side(them) + mobility * MOBILITY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_counts_for_the_side_asked() {
        // White: two men and a king; Black: one man.
        let pos = Position::from_fen("W:Wa2,b2,Kh1:Bh7").expect("fen");
        let white = evaluate(&pos, Side::White);
        assert_eq!(white, -evaluate(&pos, Side::Black));
        assert!(white > 2 * MAN + KING - MAN - 50, "{white}");
        // The start position is even.
        assert_eq!(evaluate(&Position::start(), Side::White), 0);
    }
}
