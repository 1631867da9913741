//! The search against plain minimax: with its table used for ordering only and no move
//! searched less deep than the others, principal-variation search, aspiration windows,
//! killers and history change how fast a score is found, never the score. A slow reference
//! written from the search's documented definition (quiescence included, and forced moves and
//! compulsory captures costing no depth) must give the same score at the same depth, in
//! two-seat and four-seat games.

use game::{Engine, Seat};
use search::{outcome_score, Limits, Search, MAX_PLY};

/// Quiescence as documented: captures are played out; at the first quiet position a
/// threatened side answers with any move; an unthreatened side may stand on its value or try
/// a move that forces a capture in reply.
fn quiesce<G: Engine>(g: &G, pos: &G::Position, root: Seat, ply: usize, qply: u32) -> i32 {
    if let Some(o) = g.terminal(pos) {
        return outcome_score(o, root, ply);
    }
    let stand = g.value(pos, root);
    if ply >= MAX_PLY - 1 {
        return stand;
    }
    let forced = g.must_capture(pos);
    if !forced && qply > 0 {
        return stand;
    }
    let may_stand = !forced && !g.threat(pos);
    let max = g.to_move(pos) == root;
    let mut moves = Vec::new();
    g.moves_into(pos, &[], &mut moves);
    if moves.is_empty() {
        return stand;
    }
    let mut scores: Vec<i32> = Vec::new();
    if may_stand {
        scores.push(stand);
    }
    for mv in &moves {
        let mut child = pos.clone();
        g.play(&mut child, mv);
        if may_stand && !g.must_capture(&child) {
            continue;
        }
        let next = if forced { qply } else { qply + 1 };
        scores.push(quiesce(g, &child, root, ply + 1, next));
    }
    pick(max, &scores)
}

fn pick(max: bool, scores: &[i32]) -> i32 {
    if max {
        *scores.iter().max().unwrap()
    } else {
        *scores.iter().min().unwrap()
    }
}

fn minimax<G: Engine>(g: &G, pos: &G::Position, root: Seat, depth: i32, ply: usize) -> i32 {
    if depth <= 0 {
        return quiesce(g, pos, root, ply, 0);
    }
    if let Some(o) = g.terminal(pos) {
        return outcome_score(o, root, ply);
    }
    if ply >= MAX_PLY - 1 {
        return g.value(pos, root);
    }
    let mut moves = Vec::new();
    g.moves_into(pos, &[], &mut moves);
    if moves.is_empty() {
        return g.value(pos, root);
    }
    // A forced move, and a compulsory capture, cost no depth.
    let free = moves.len() == 1 || g.must_capture(pos);
    let next = if free { depth } else { depth - 1 };
    let scores: Vec<i32> = moves
        .iter()
        .map(|mv| {
            let mut child = pos.clone();
            g.play(&mut child, mv);
            minimax(g, &child, root, next, ply + 1)
        })
        .collect();
    pick(g.to_move(pos) == root, &scores)
}

/// The root: every move searched one ply less deep (no extension at the root).
fn root_minimax<G: Engine>(g: &G, pos: &G::Position, depth: i32) -> i32 {
    let root = g.to_move(pos);
    let mut moves = Vec::new();
    g.moves_into(pos, &[], &mut moves);
    let scores: Vec<i32> = moves
        .iter()
        .map(|mv| {
            let mut child = pos.clone();
            g.play(&mut child, mv);
            minimax(g, &child, root, depth - 1, 1)
        })
        .collect();
    pick(true, &scores)
}

/// Positions along a seeded line of play from the start.
fn line<G: Engine>(g: &G, plies: usize, seed: u64) -> Vec<G::Position> {
    let mut pos = g.start_position(&|_| None).unwrap();
    let mut out = vec![pos.clone()];
    let mut s = seed;
    let mut moves = Vec::new();
    for _ in 0..plies {
        if g.terminal(&pos).is_some() {
            break;
        }
        g.moves_into(&pos, &[], &mut moves);
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = &moves[(s >> 33) as usize % moves.len()];
        g.play(&mut pos, mv);
        out.push(pos.clone());
    }
    out
}

fn agrees_with_minimax<G: Engine>(g: &G, depth: u32, plies: usize, every: usize) {
    for (i, pos) in line(g, plies, 7).iter().enumerate().step_by(every) {
        if g.terminal(pos).is_some() {
            continue;
        }
        let mut search = Search::new(g, 1).exact();
        let found = search.best(pos, &Limits::depth(depth));
        let want = root_minimax(g, pos, found.depth as i32);
        assert_eq!(found.score, want, "{} ply {i}", g.name());
        let (index, _) = found.best.expect("a move");
        // The best move's own score is the position's.
        let mut moves = Vec::new();
        g.moves_into(pos, &[], &mut moves);
        let mut child = pos.clone();
        g.play(&mut child, &moves[index]);
        let root = g.to_move(pos);
        assert_eq!(
            minimax(g, &child, root, found.depth as i32 - 1, 1),
            want,
            "{} ply {i}: the move named best scores the best",
            g.name()
        );
    }
}

#[test]
fn international_scores_are_minimax_scores() {
    let g = draughts::Draughts::new(draughts::Variant::by_id("international").unwrap());
    agrees_with_minimax(&g, 3, 60, 6);
}

#[test]
fn english_scores_are_minimax_scores() {
    let g = draughts::Draughts::new(draughts::Variant::by_id("english").unwrap());
    agrees_with_minimax(&g, 4, 50, 5);
}

#[test]
fn tama_scores_are_minimax_scores() {
    agrees_with_minimax(&tama::Tama::default(), 3, 40, 8);
}

#[test]
fn four_seat_scores_are_paranoid_minimax_scores() {
    agrees_with_minimax(&odnocvetnie::Odnocvetnie::default(), 3, 24, 8);
}
