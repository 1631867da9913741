//! What self-play's agents need from the rules ([`game::Explore`]): how good a position is
//! for a seat, and the series of throws a search weighs.
//!
//! A position is scored by race progress — the seat's pieces' progress along its route
//! (borne off and the keep count most) against every opponent's, so sending pieces home
//! counts — with a bonus for each extra series the seat is owed, less the danger its units
//! stand in: each own unit on an unmarked square within reach of an enemy unit that could
//! capture it costs its progress, weighted by how likely one series is to cover that
//! distance.

use crate::board::{route_index, route_square, Square};
use crate::{Position, THROWS};

/// Progress of a piece in the keep, and of one borne off.
const KEEP_PROGRESS: i32 = 27;
const OFF_PROGRESS: i32 = 30;
/// Worth of one extra series owed.
const EXTRA_SERIES: i32 = 10;
/// Chance (in 1/100) that one series of an enemy covers a distance of 1 to 12 squares
/// (rough figures for fair shells; any throw sum can be used whole).
const REACH: [i32; 13] = [0, 30, 45, 35, 20, 25, 15, 10, 8, 6, 5, 4, 3];
/// Throws after which the series goes on (rule 5), and those that end it.
const GO_ON: [u8; 3] = [1, 4, 8];
const END: [u8; 2] = [2, 3];

/// Progress of `seat` in `pos`: route index + 1 per piece on the route (twins count two
/// pieces), more for the keep and borne-off pieces.
pub(crate) fn progress(pos: &Position, seat: u8) -> i32 {
    let mut p = 0i32;
    for i in 0..24u8 {
        let sq = route_square(seat, i);
        let n = i32::from(pos.singles_at(seat, sq)) + 2 * i32::from(pos.twins_at(seat, sq));
        p += n * (i32::from(i) + 1);
    }
    p + i32::from(pos.keep(seat)) * KEEP_PROGRESS + i32::from(pos.off(seat)) * OFF_PROGRESS
}

/// The score of `pos` for `seat`.
pub(crate) fn evaluate(pos: &Position, seat: u8) -> i32 {
    let mut score = progress(pos, seat) * 3;
    for other in pos.seats().filter(|&s| s != seat) {
        score -= progress(pos, other);
    }
    if pos.to_move() == seat {
        score += EXTRA_SERIES * i32::from(pos.owed());
    }
    score - danger(pos, seat)
}

/// Expected loss of progress from enemy captures next round (in 1/100 of progress units).
fn danger(pos: &Position, seat: u8) -> i32 {
    let mut total = 0;
    for i in 0..24u8 {
        let sq = route_square(seat, i);
        if sq.is_marked() {
            continue;
        }
        let singles = i32::from(pos.singles_at(seat, sq));
        let twins = i32::from(pos.twins_at(seat, sq));
        if singles == 0 && twins == 0 {
            continue;
        }
        let (risk_single, risk_twin) = risk(pos, seat, sq);
        let value = i32::from(i) + 1;
        total += singles * value * risk_single.min(100) + 2 * twins * value * risk_twin.min(100);
    }
    total * 3 / 100
}

/// The chances (in 1/100, added over the enemy units) that a single and a twin of `seat`
/// on `sq` are reached by an enemy unit that can capture it.
fn risk(pos: &Position, seat: u8, sq: Square) -> (i32, i32) {
    let (mut single, mut twin) = (0, 0);
    for enemy in pos.seats().filter(|&s| s != seat) {
        let target = route_index(enemy, sq);
        for j in 0..target {
            let from = route_square(enemy, j);
            let d = usize::from(target - j);
            let e_singles = i32::from(pos.singles_at(enemy, from));
            let e_twins = i32::from(pos.twins_at(enemy, from));
            if d < REACH.len() {
                // A single captures singles; a twin captures both (and moves half).
                single += REACH[d] * (e_singles.min(1) + e_twins.min(1));
            }
            if 2 * d < REACH.len() {
                twin += REACH[2 * d] * e_twins.min(1);
            }
        }
    }
    (single, twin)
}

/// The series of at most two throws with their chances (rule 5: a series ends on a 2 or a
/// 3), the likeliest outcomes for a search (they cover six in seven series).
pub(crate) fn likely_series() -> Vec<(Vec<u8>, f64)> {
    let p = |v: u8| {
        THROWS
            .values
            .iter()
            .position(|&x| x == v)
            .map_or(0.0, |i| THROWS.probabilities[i])
    };
    let mut out: Vec<(Vec<u8>, f64)> = END.iter().map(|&e| (vec![e], p(e))).collect();
    for g in GO_ON {
        for e in END {
            out.push((vec![g, e], p(g) * p(e)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game;

    #[test]
    fn progress_counts_route_keep_and_off() {
        let game = crate::Thaayam::default();
        let pos = game
            .parse_position("S:S=h1,c1,d4x2/N=h1,Td1,k1")
            .expect("position");
        // South: c1 is index 0 (1), d4 index 20 (21 each); North: twins on d1, North's
        // index 9 (10 per piece, two pieces), one in the keep.
        assert_eq!(progress(&pos, 0), 1 + 2 * 21);
        assert_eq!(progress(&pos, 2), 2 * 10 + KEEP_PROGRESS);
    }

    #[test]
    fn the_likely_series_are_series_and_most_of_them() {
        let all = likely_series();
        assert_eq!(all.len(), 8);
        for (s, _) in &all {
            assert!(crate::check_series(s).is_ok(), "{s:?}");
        }
        let mass: f64 = all.iter().map(|(_, p)| p).sum();
        assert!((0.85..1.0).contains(&mass), "{mass}");
    }
}
