//! Limits: a search always names a move, stays near its node budget, is deterministic, and
//! sees through forced captures to the material they win.

use game::{Engine, Game, Seat};
use search::{Limits, Search};

fn international() -> draughts::Draughts {
    draughts::Draughts::new(draughts::Variant::by_id("international").unwrap())
}

#[test]
fn the_smallest_budget_still_names_a_move() {
    let g = international();
    let found = Search::new(&g, 1).best(&g.start(), &Limits::nodes(1));
    assert!(found.best.is_some());
    assert_eq!(found.depth, 1);
}

#[test]
fn a_node_budget_is_kept_and_gives_the_same_answer_every_time() {
    let g = international();
    let pos = g.start();
    let a = Search::new(&g, 4).best(&pos, &Limits::nodes(5_000));
    let b = Search::new(&g, 4).best(&pos, &Limits::nodes(5_000));
    assert_eq!(a, b);
    // The iteration that crosses the budget is abandoned at once.
    assert!(a.nodes <= 5_001, "{}", a.nodes);
    assert!(a.depth >= 3, "{}", a.depth);
    assert_eq!(a.line.first(), a.best.as_ref().map(|(_, m)| m));
}

#[test]
fn a_man_that_can_be_taken_for_free_is_taken_and_the_score_says_so() {
    let g = international();
    // White to move: the man on 28 can take 23 and nothing comes back.
    let pos = g.parse_position("W:W28,46:B23,5").unwrap();
    let found = Search::new(&g, 1).best(&pos, &Limits::depth(4));
    let (_, mv) = found.best.unwrap();
    assert_eq!(g.write_move(&pos, &mv, g.default_notation()), "28x19");
    assert!(
        found.score >= g.value(&pos, Seat(0)) + 80,
        "{}",
        found.score
    );
}

#[test]
fn a_won_ending_is_proven() {
    let g = international();
    // White's king against a lone black man about to be taken: a proven win.
    let pos = g.parse_position("W:WK46,K50:B23").unwrap();
    let found = Search::new(&g, 4).best(&pos, &Limits::depth(8));
    assert!(found.is_decided() && found.score > 0, "{}", found.score);
}

#[test]
fn every_game_is_searched_from_its_start() {
    let tama = tama::Tama::default();
    let pos = tama.start_position(&|_| None).unwrap();
    assert!(Search::new(&tama, 1)
        .best(&pos, &Limits::nodes(2_000))
        .best
        .is_some());
    let odno = odnocvetnie::Odnocvetnie::default();
    let pos = odno.start_position(&|_| None).unwrap();
    assert!(Search::new(&odno, 1)
        .best(&pos, &Limits::nodes(2_000))
        .best
        .is_some());
    // Thaayam: the throws of the turn fix the moves; without them only a value is given.
    let th = thaayam::Thaayam::default();
    let pos = th.start_position(&|_| None).unwrap();
    let me = th.to_move(&pos);
    let with = Search::new(&th, 1).run(&pos, me, Some(&[1, 4, 2]), &Limits::depth(1));
    assert!(with.best.is_some());
    let without = Search::new(&th, 1).run(&pos, me, None, &Limits::depth(1));
    assert!(without.best.is_none());
}

#[test]
fn a_search_among_some_moves_chooses_among_them_and_scores_the_best_of_them() {
    let g = international();
    let pos = g.start();
    let mut moves = Vec::new();
    g.moves_into(&pos, &[], &mut moves);
    let depth = Limits::depth(4);
    // Each move's value for White: the position after it searched to the same depth less one.
    let values: Vec<i32> = moves
        .iter()
        .map(|m| {
            let mut child = pos;
            g.play(&mut child, m);
            Search::new(&g, 1)
                .run(&child, Seat(0), None, &Limits::depth(3))
                .score
        })
        .collect();
    // The two moves valued lowest, searched alone.
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&i| (values[i], i));
    let pair = [moves[order[0]], moves[order[1]]];
    let found = Search::new(&g, 1).best_among(&pos, &depth, pair.to_vec());
    let (_, best) = found.best.unwrap();
    assert!(pair.contains(&best));
    let all = Search::new(&g, 1).best(&pos, &depth);
    assert!(found.score <= all.score, "{} > {}", found.score, all.score);
    // One move alone is still searched to the depth asked.
    let one = Search::new(&g, 1).best_among(&pos, &depth, vec![pair[0]]);
    assert_eq!(one.best.map(|(_, m)| m), Some(pair[0]));
    assert_eq!(one.depth, 4);
    // None: no move, and the table is not told of a root it did not search.
    let none = Search::new(&g, 1).best_among(&pos, &depth, Vec::new());
    assert!(none.best.is_none());
}

#[test]
fn late_quiet_moves_are_searched_less_deep_and_the_best_move_holds() {
    let g = international();
    // Middle-game positions of a seeded line of play, searched to the same depth with and
    // without the reductions of late moves.
    let mut pos = g.start();
    let mut moves = Vec::new();
    let (mut reduced, mut full, mut same) = (0, 0, 0);
    for ply in 0..40u64 {
        g.moves_into(&pos, &[], &mut moves);
        if moves.is_empty() {
            break;
        }
        if ply % 8 == 7 {
            let a = Search::new(&g, 4).best(&pos, &Limits::depth(7));
            let b = Search::new(&g, 4)
                .without_reductions()
                .best(&pos, &Limits::depth(7));
            reduced += a.nodes;
            full += b.nodes;
            same += u32::from(a.best.map(|b| b.0) == b.best.map(|b| b.0));
        }
        let mv = moves[(ply * 7 + 3) as usize % moves.len()];
        g.play(&mut pos, &mv);
    }
    assert!(
        reduced * 10 < full * 8,
        "reduced {reduced} nodes, full {full}: the reductions save under a fifth"
    );
    assert!(same >= 3, "only {same} of 5 searches chose the same move");
}
