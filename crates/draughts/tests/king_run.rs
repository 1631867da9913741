//! The count of a king's quiet moves in a row (Frisian limits it while its side has men):
//! with kings alone nothing limits it, and a long ending must not overflow it (found by the
//! fuzzer: 255 moves of one king panicked in a debug build).

use draughts::{Draughts, Variant};
use game::Game;

#[test]
fn kings_alone_may_move_back_and_forth_for_ever() {
    let g = Draughts::new(Variant::by_id("frisian").unwrap());
    let mut pos = g.parse_position("W:WK50:BK1").unwrap();
    let shuttle = ["50-45", "1-6", "45-50", "6-1"];
    for ply in 0..600 {
        let want = shuttle[ply % shuttle.len()];
        let moves = g.legal_moves(&pos);
        let mv = moves
            .iter()
            .find(|m| g.write_move(&pos, m, g.default_notation()) == want)
            .unwrap_or_else(|| panic!("ply {ply}: no {want} in {}", pos.to_fen(g.geometry, true)));
        g.play(&mut pos, mv);
    }
    assert!(g.terminal(&pos).is_none());
}
