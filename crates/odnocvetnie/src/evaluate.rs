//! How good a position is for a seat, for self-play's agents ([`game::Explore::evaluate`]).
//!
//! The men belong to nobody, so there is no material to count. What decides the game is
//! mobility: a seat loses when it has no legal move on its turn, and the seat before it wins.
//! A position is scored by the seat's own mobility against that of the seat after it, both
//! with diminishing returns (going from 1 move to 3 matters, from 20 to 22 does not).

use crate::{Position, Side};

/// Scale of the mobility terms.
const MOBILITY: i32 = 600;

/// Legal moves `seat` would have in `pos` if it were to move (the real lock if it is).
fn mobility(pos: &Position, seat: Side) -> i32 {
    if pos.side_to_move() == seat {
        return pos.legal_move_count() as i32;
    }
    match Position::new(pos.men(), pos.damki(), seat, None, false) {
        Ok(p) => p.legal_move_count() as i32,
        Err(_) => 0,
    }
}

/// The score of `pos` for `seat`.
pub(crate) fn evaluate(pos: &Position, seat: Side) -> i32 {
    let own = mobility(pos, seat);
    let next = mobility(pos, seat.next());
    MOBILITY / (next + 1) - MOBILITY / (own + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_that_squeezes_the_next_scores_higher() {
        let pos = Position::start();
        // At the start every seat has moves: neither term is extreme.
        let s = evaluate(&pos, Side::South);
        assert!(s.abs() < MOBILITY, "{s}");
        // The score is about the seat asked and the one after it.
        assert_eq!(
            evaluate(&pos, Side::South),
            MOBILITY / (mobility(&pos, Side::West) + 1)
                - MOBILITY / (mobility(&pos, Side::South) + 1)
        );
    }
}
