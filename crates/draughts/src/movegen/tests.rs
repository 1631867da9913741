//! The generator's fast paths checked against the plain ones they replace.

use super::*;
use crate::testing::walk_random_games;

/// Every chain of every man, by the generic step-table walk and by the set-wise one.
fn both_ways(g: &Geometry, rules: &Rules, pos: &Position) -> (Vec<Move>, Vec<Move>) {
    let (mut walked, mut shifted) = (Vec::new(), Vec::new());
    let mut cx = Ctx::new(g, rules, pos);
    let men = pos.men[pos.side.index()] & capturers(g, rules, pos);
    for from in Geometry::squares(men) {
        let full = pos.occupied();
        cx.occ = full & !bit(from);
        let mut mv = Move::new(from, false);
        cx.extend(&mut mv, from, false, None, &mut |m| walked.push(*m));
        let mut mv = Move::new(from, false);
        if g.mask >> 64 == 0 {
            cx.man_chains::<u64>(&mut mv, from, &mut |m| shifted.push(*m));
        } else {
            cx.man_chains::<Bits>(&mut mv, from, &mut |m| shifted.push(*m));
        }
        cx.occ = full;
    }
    (walked, shifted)
}

#[test]
fn men_chains_by_shifts_are_the_walked_chains_in_their_order() {
    let mut positions = 0;
    let mut chains = 0;
    walk_random_games(7, 30, 160, |d, pos, _| {
        let rules = &d.rules;
        let cx = Ctx::new(d.geometry, rules, pos);
        if !cx.plain_men || rules.immediate_removal || !has_capture(d.geometry, rules, pos) {
            return;
        }
        let (walked, shifted) = both_ways(d.geometry, rules, pos);
        assert_eq!(
            walked,
            shifted,
            "{} in {}",
            d.variant.id,
            pos.to_fen(d.geometry, true)
        );
        positions += 1;
        chains += walked.len();
    });
    // The walk meets captures of men in every such variant: the test compares something.
    assert!(
        positions > 1000 && chains > positions,
        "{positions} positions, {chains} chains"
    );
}

#[test]
fn captures_counted_without_moves_are_the_moves_perft_plays() {
    let mut keys = Vec::new();
    let mut checked = 0;
    walk_random_games(11, 20, 160, |d, pos, _| {
        if !has_capture(d.geometry, &d.rules, pos) {
            return;
        }
        for merge in [true, false] {
            let rules = Rules {
                perft_merges_duplicates: merge,
                ..d.rules
            };
            let mut moves = Vec::new();
            perft_moves(d.geometry, &rules, pos, &mut moves);
            let counted = perft::count_captures(d.geometry, &rules, pos, &mut keys);
            assert_eq!(
                counted,
                moves.len() as u64,
                "{} in {} (identical captures merged: {merge})",
                d.variant.id,
                pos.to_fen(d.geometry, true)
            );
        }
        checked += 1;
    });
    assert!(checked > 1000, "{checked} positions with captures");
}

/// The men's steps square by square with the step table, as the generator made them
/// before they were found with shifts.
fn walked_steps(g: &Geometry, rules: &Rules, pos: &Position) -> Vec<Move> {
    let us = pos.side;
    let mut out = Vec::new();
    for from in Geometry::squares(pos.men[us.index()]) {
        for &d in man_steps(rules, us) {
            let t = g.step(from, d);
            if t != NONE && pos.occupied() & bit(t) == 0 {
                let mut mv = Move::new(from, false);
                mv.to = t;
                mv.promotes = g.crown[us.index()] & bit(t) != 0;
                out.push(mv);
            }
        }
    }
    out
}

#[test]
fn men_steps_by_shifts_are_the_walked_steps_in_their_order() {
    let mut checked = 0;
    walk_random_games(5, 20, 160, |d, pos, _| {
        let (g, rules) = (d.geometry, &d.rules);
        if rules.movement != Movement::Diagonal || g.mask >> 64 != 0 || pos.pending.is_active() {
            return;
        }
        let mut shifted = Vec::new();
        quiet_men_small(g, rules, pos, &mut shifted);
        assert_eq!(
            shifted,
            walked_steps(g, rules, pos),
            "{}",
            pos.to_fen(g, true)
        );
        checked += 1;
    });
    assert!(checked > 1000, "{checked} positions");
}

#[test]
fn a_quiet_move_is_found_exactly_when_some_are_counted() {
    let (mut with, mut without) = (0, 0);
    walk_random_games(9, 20, 200, |d, pos, _| {
        let (g, rules) = (d.geometry, &d.rules);
        // The side that just moved too: positions where it has no quiet move occur.
        let mut other = *pos;
        other.side = pos.side.opponent();
        for p in [pos, &other] {
            let counted = count_quiet(g, rules, p) > 0;
            assert_eq!(
                has_quiet_move(g, rules, p),
                counted,
                "{}",
                p.to_fen(g, true)
            );
            if counted {
                with += 1;
            } else {
                without += 1;
            }
        }
    });
    assert!(
        with > 1000 && without > 10,
        "{with} with quiet moves, {without} without"
    );
}

#[test]
fn the_men_only_path_gives_the_chains_of_the_general_one() {
    let mut checked = 0;
    walk_random_games(13, 20, 160, |d, pos, _| {
        let (g, rules) = (d.geometry, &d.rules);
        if !has_capture(g, rules, pos) {
            return;
        }
        let mut general = Vec::new();
        let mut best = 0;
        for_each_chain(g, rules, pos, &mut |m| {
            let p = priority(rules, m);
            if p > best {
                best = p;
                general.clear();
            }
            if p == best {
                general.push(*m);
            }
        });
        let mut fast = Vec::new();
        allowed_chains(g, rules, pos, &mut fast);
        assert_eq!(fast, general, "{} in {}", d.variant.id, pos.to_fen(g, true));
        checked += 1;
    });
    assert!(checked > 1000, "{checked} positions with captures");
}

#[test]
fn men_only_captures_in_perft_are_the_moves_perft_plays() {
    let (mut checked, mut crowned, mut made_directly, mut as_king) = (0, 0, 0, 0);
    let mut with_kings = 0;
    walk_random_games(17, 20, 160, |d, pos, _| {
        let (g, rules) = (d.geometry, &d.rules);
        for merge in [true, false] {
            let rules = Rules {
                perft_merges_duplicates: merge,
                ..*rules
            };
            let Some(takings) = perft::men_node_takings(g, &rules, pos) else {
                continue;
            };
            let mut moves = Vec::new();
            perft_moves(g, &rules, pos, &mut moves);
            let fen = pos.to_fen(g, true);
            assert_eq!(takings.len(), moves.len(), "{} in {fen}", d.variant.id);
            let leaves = perft::taking_leaves(g, pos, &takings);
            if let Some(direct) = perft::direct_leaves(g, &rules, pos) {
                assert_eq!(direct, leaves, "{} in {fen}", d.variant.id);
                made_directly += 1;
            }
            let played: Vec<Position> = moves
                .iter()
                .map(|m| {
                    let mut p = *pos;
                    play(g, &rules, &mut p, m);
                    p
                })
                .collect();
            let made: Vec<Position> = takings
                .iter()
                .map(|t| perft::taking_child(g, pos, t))
                .collect();
            assert_eq!(made, leaves, "{} in {fen}", d.variant.id);
            if pos.kings[pos.side.index()] != 0 {
                // The kings' chains come after the men's: the same children, in another order.
                let sorted = |v: &[Position]| {
                    let mut f: Vec<String> = v.iter().map(|p| p.to_fen(g, true)).collect();
                    f.sort();
                    f
                };
                assert_eq!(sorted(&made), sorted(&played), "{} in {fen}", d.variant.id);
                with_kings += 1;
                continue;
            }
            for (m, (made, played)) in moves.iter().zip(made.iter().zip(&played)) {
                assert_eq!(made, played, "{} in {fen}: {m:?}", d.variant.id);
                crowned += usize::from(m.is_promotion());
                // Crowned before its last landing: it went on as a king.
                let (crown, path) = (g.crown[pos.side.index()], m.path());
                let early = path[..path.len() - 1].iter().any(|&s| crown & bit(s) != 0);
                as_king += usize::from(early && !m.king);
            }
            checked += 1;
        }
    });
    assert!(
        checked > 1000 && crowned > 10 && made_directly > 100 && as_king > 10 && with_kings > 100,
        "{checked} positions, {crowned} crowning captures, {made_directly} made directly, \
         {as_king} going on as kings, {with_kings} with kings"
    );
}

#[test]
fn men_only_steps_at_the_last_ply_are_the_moves_perft_plays() {
    let mut checked = 0;
    walk_random_games(19, 20, 160, |d, pos, _| {
        let (g, rules) = (d.geometry, &d.rules);
        let Some((leaves, counted)) = perft::men_quiet_leaves(g, rules, pos) else {
            return;
        };
        let mut moves = Vec::new();
        perft_moves(g, rules, pos, &mut moves);
        let fen = pos.to_fen(g, true);
        assert_eq!(counted, moves.len() as u64, "{} in {fen}", d.variant.id);
        let played: Vec<Position> = moves
            .iter()
            .map(|m| {
                let mut c = *pos;
                play(g, rules, &mut c, m);
                c
            })
            .collect();
        assert_eq!(leaves.len(), played.len(), "{} in {fen}", d.variant.id);
        for leaf in &leaves {
            let made = leaf.to_fen(g, true);
            assert!(played.contains(leaf), "{} in {fen}: {made}", d.variant.id);
        }
        checked += 1;
    });
    assert!(checked > 1000, "{checked} positions");
}

#[test]
fn a_man_s_ring_back_to_its_square_is_found_by_the_men_only_path() {
    // c3xe5xg3xe1xc3 and the other way round: the man lands on the square it left at its
    // fourth jump, which the position's jumps (taken with the man on it) do not show.
    for v in [&crate::variant::RUSSIAN, &crate::variant::BRAZILIAN] {
        let d = crate::Draughts::new(v);
        let pos = Position::from_fen(d.geometry, "W:Wc3:Bd4,f4,f2,d2", v.first).unwrap();
        for (merge, n) in [(true, 1), (false, 2)] {
            let rules = Rules {
                perft_merges_duplicates: merge,
                ..d.rules
            };
            let takings = perft::men_node_takings(d.geometry, &rules, &pos).unwrap();
            let mut moves = Vec::new();
            perft_moves(d.geometry, &rules, &pos, &mut moves);
            assert_eq!((takings.len(), moves.len()), (n, n), "{} {merge}", v.id);
            assert_eq!(moves[0].capture_count(), 4);
            assert_eq!(moves[0].from(), moves[0].to());
            if let Some(direct) = perft::direct_leaves(d.geometry, &rules, &pos) {
                // Russian: the last ply's leaves made as the chains are found.
                assert_eq!(direct.len(), n, "{} {merge}", v.id);
            }
        }
    }
}

#[test]
fn a_man_crowned_in_a_chain_is_followed_on_the_men_only_path_as_a_king() {
    // White takes c7 from b6 and is crowned on d8, where a flying king goes on along
    // d8-h4 when a piece stands on g5 with h4 empty; one that moves a square goes on only
    // over e7. From b4 (over c3, e3, g5, g7) the man is crowned on f8 and goes on over c5
    // onto b4, the square it left. Over f6 the flying king may stop on g5 or h4; with e3
    // to take from g5 (not from h4) it must stop on g5, and then lands on d2 or c1; with
    // c3 taken too, it may stop on d2 (then taking c3) or on c1 (a route that goes on the
    // same way from further behind e3: counted once, as the tables do). From h6 over g7
    // and e7 the king may stop on d6 or c5 and goes on over b4 either way: one route.
    // The listed captures must be the general generator's, for every range of the king
    // and in both conventions for identical captures.
    let d = crate::Draughts::new(&crate::variant::RUSSIAN);
    let g = d.geometry;
    let cases = [
        ("W:Wb6:Bc7,g5", 1),
        ("W:Wb6:Bc7,g5,h4", 1),
        ("W:Wb6:Bc7,e7", 1),
        ("W:Wb6:Bc7,e7,f6", 1),
        ("W:Wb6:Bc7,Ke7", 1),
        ("W:Wb6,f6:Bc7,g5", 1),
        ("W:Wb4:Bc3,e3,g5,g7,c5", 1),
        ("W:Wb6:Bc7,f6", 2),
        ("W:Wb6:Bc7,f6,e3", 2),
        ("W:Wb6:Bc7,f6,e3,c3", 2),
        ("W:Wb6:Bc7,f6,e3,b4", 1),
        ("W:Wh6:Bg7,e7,b4", 1),
        ("W:Wh6:Bg7,e7,b4,a5", 1),
    ];
    let ranges = [
        KingRange::Flying,
        KingRange::FlyingLandsBehind,
        KingRange::Short,
    ];
    for ((fen, n), king) in cases.into_iter().flat_map(|c| ranges.map(|k| (c, k))) {
        for merge in [true, false] {
            let rules = Rules {
                king,
                perft_merges_duplicates: merge,
                ..d.rules
            };
            let pos = Position::from_fen(g, fen, Color::White).unwrap();
            let takings = perft::men_node_takings(g, &rules, &pos).unwrap();
            let mut moves = Vec::new();
            perft_moves(g, &rules, &pos, &mut moves);
            assert_eq!(takings.len(), moves.len(), "{fen} {king:?} {merge}");
            let at_least = if king == KingRange::Flying { n } else { 1 };
            assert!(moves.len() >= at_least, "{fen} {king:?} {merge}: {moves:?}");
            for (t, m) in takings.iter().zip(&moves) {
                let mut played = pos;
                play(g, &rules, &mut played, m);
                let made = perft::taking_child(g, &pos, t);
                assert_eq!(made, played, "{fen} {king:?} {merge}");
            }
            let leaves = perft::direct_leaves(g, &rules, &pos).unwrap();
            assert_eq!(
                leaves,
                perft::taking_leaves(g, &pos, &takings),
                "{fen} {king:?} {merge}"
            );
        }
    }
}

#[test]
fn a_king_s_captures_in_perft_are_the_general_generator_s() {
    // The king on c1 goes round d2, d4, b4 and b2 either way and comes home: identical
    // captures, counted once or twice as the convention says; with e5 to take too, or
    // other pieces of its own side to move, as many as the moves.
    let fens = [
        "W:WKc1:Bd2,d4,b4,b2",
        "W:WKc1:Bd2,d4,b4,b2,e5",
        "W:WKc1,g1:Bd2,d4,b4,b2,f2",
        "W:WKa1,h2:Bb2,g3,e5",
    ];
    let d = crate::Draughts::new(&crate::variant::RUSSIAN);
    let g = d.geometry;
    for fen in fens {
        let mut counts = Vec::new();
        for merge in [true, false] {
            let rules = Rules {
                perft_merges_duplicates: merge,
                ..d.rules
            };
            let pos = Position::from_fen(g, fen, Color::White).unwrap();
            let takings = perft::men_node_takings(g, &rules, &pos).unwrap();
            let mut moves = Vec::new();
            perft_moves(g, &rules, &pos, &mut moves);
            assert_eq!(takings.len(), moves.len(), "{fen} {merge}: {moves:?}");
            let leaves = perft::direct_leaves(g, &rules, &pos).unwrap();
            assert_eq!(leaves.len(), moves.len(), "{fen} {merge}");
            counts.push(moves.len());
        }
        if fen == fens[0] {
            assert!(counts[0] < counts[1], "{fen}: {counts:?} merged and kept");
        }
    }
}
