//! The statistics facts of a move agree with the position the move leads to: `facts` counts
//! the material without playing the move, so every variant's random playouts check it against
//! `play` (chains split over tokens included). The same playouts check that the texts written
//! into buffers for tables (`describe_into`, `write_position_into`) are the plain ones, and that
//! `play_with_facts` plays as `play` and gives what `facts` gives.

use draughts::{Color, Draughts, VARIANTS};
use game::Game;

/// A small deterministic generator (no dependency for a test).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Plies checked and partial moves among them.
fn check_playouts(d: &Draughts, games: usize, rng: &mut Lcg, split: bool) -> (usize, usize) {
    let (mut checked, mut partials) = (0, 0);
    for _ in 0..games {
        let mut pos = d.start_position(&|_| None).expect("start position");
        for _ in 0..200 {
            let moves = d.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let mut mv = moves[rng.below(moves.len())];
            if split && mv.capture_count() > 1 {
                // Only the first jump, as a record that splits chains writes it.
                let g = d.geometry;
                let token = format!("{}x{}", g.number(mv.from()), g.number(mv.path()[0]));
                // (It may also name a whole one-capture chain that ends there.)
                mv = d.resolve(&pos, &[token.as_bytes()]).expect("first jump");
                partials += usize::from(mv.is_partial());
            }
            let mv = &mv;
            game::conformance::writers_agree(d, &pos, mv).unwrap();
            game::conformance::facts_agree(d, &pos, mv).unwrap();
            let facts = d.facts(&pos, mv);
            let mut after = pos;
            d.play(&mut after, mv);
            let expected = [after.count(Color::White), after.count(Color::Black)];
            assert_eq!(
                [u32::from(facts.material[0]), u32::from(facts.material[1])],
                expected,
                "{}: {mv:?}",
                d.variant.id
            );
            assert_eq!(facts.capture_squares.len(), usize::from(facts.captures));
            pos = after;
            checked += 1;
        }
    }
    (checked, partials)
}

#[test]
fn material_in_the_facts_is_the_material_after_the_move() {
    let mut rng = Lcg(7);
    for v in VARIANTS {
        let d = Draughts::new(v);
        assert!(check_playouts(&d, 20, &mut rng, false).0 > 0, "{}", v.id);
    }
    // Chains played one jump per token: the pieces stay until the chain ends.
    let d = Draughts::with_options(&draughts::INTERNATIONAL, "split-chains").unwrap();
    let (checked, partials) = check_playouts(&d, 40, &mut rng, true);
    assert!(
        checked > 0 && partials > 0,
        "{checked} plies, {partials} partial"
    );
}
