//! Helpers shared by the crate's unit tests.

use crate::movegen::legal_moves;
use crate::{Draughts, Move, Position, VARIANTS};

/// Calls `visit` with every position of `games` random games of each variant (at most
/// `plies` plies each) that has a legal move, with those moves.
pub(crate) fn walk_random_games(
    mut seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Draughts, &Position, &[Move]),
) {
    // A small deterministic generator of indices below `n` (no dependency for a test).
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for v in VARIANTS {
        let d = Draughts::new(v);
        for _ in 0..games {
            let mut pos = d.start();
            for _ in 0..plies {
                let mut moves = Vec::new();
                legal_moves(d.geometry, &d.rules, &pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                visit(&d, &pos, &moves);
                let mv = moves[next(moves.len())];
                d.play_move(&mut pos, &mv);
            }
        }
    }
}
