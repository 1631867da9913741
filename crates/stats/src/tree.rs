//! The opening tree: the first plies of every game counted by position key, so that move
//! orders reaching the same position (transpositions) share one node.
//!
//! A game's first plies arrive as an [`OpeningLine`]: the key of the start position and, for
//! each ply, the key after it and its move. The accumulator counts *edges*: at ply `d`, the
//! pair (key before, key after) with its games, results and move. A position's games at ply
//! `d` are the sum of the edges that reach it; its continuations are the edges leaving it,
//! whichever way the games came. Memory is bounded per ply (see [`OpeningTree`]).

use std::collections::HashMap;

use game::Outcome;
use serde::Serialize;

/// Plies the tree follows at most, whatever the caller asks.
pub const TREE_MAX_PLIES: usize = 16;
/// Edges kept per ply after pruning.
pub const TREE_KEEP: usize = 512;
/// Distinct edges of one ply that trigger pruning down to [`TREE_KEEP`].
pub const TREE_PRUNE_AT: usize = 1024;
/// Start positions kept after pruning (games from set-up positions each have their own).
const ROOTS_KEEP: usize = 64;
/// Distinct start positions that trigger pruning down to [`ROOTS_KEEP`].
const ROOTS_PRUNE_AT: usize = 128;
/// Moves the report shows at most (one tree).
pub const TREE_MAX_SHOWN: usize = 400;
/// Moves longer than this many bytes are cut (at a character boundary).
pub const TREE_MOVE_LEN: usize = 23;

/// A game's first plies as position keys and moves, borrowed from the replay.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpeningLine<'a> {
    /// The key of the start position (`None`: no line, the game is not in the tree).
    pub start: Option<u64>,
    /// For each ply: the key of the position after it and where its move ends in `text`.
    pub plies: &'a [(u64, u32)],
    /// The moves, back to back.
    pub text: &'a str,
}

impl<'a> OpeningLine<'a> {
    /// Each ply's key after it and its move.
    pub fn moves(&self) -> impl Iterator<Item = (u64, &'a str)> + '_ {
        let text = self.text;
        let mut start = 0usize;
        self.plies.iter().map(move |&(key, end)| {
            let end = (end as usize).clamp(start, text.len());
            let mv = text.get(start..end).unwrap_or_default();
            start = end;
            (key, mv)
        })
    }
}

/// Games and their results, from the first seat's side: wins of seat 0, draws, wins of
/// seat 1 (anything else: the game is counted but not scored).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Games.
    pub games: u64,
    /// Won by the first seat (White).
    pub first: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by the second seat (Black).
    pub second: u64,
}

impl Score {
    fn add(&mut self, result: Option<Outcome>) {
        self.games += 1;
        match result {
            Some(Outcome::Draw) => self.draws += 1,
            Some(Outcome::Win { winner, .. }) if winner.0 == 0 => self.first += 1,
            Some(Outcome::Win { winner, .. }) if winner.0 == 1 => self.second += 1,
            _ => {}
        }
    }

    fn merge(&mut self, o: &Score) {
        self.games += o.games;
        self.first += o.first;
        self.draws += o.draws;
        self.second += o.second;
    }

    /// Games with a decisive result between the first two seats or a draw.
    pub fn scored(&self) -> u64 {
        self.first + self.draws + self.second
    }
}

/// A move, stored inline (at most [`TREE_MOVE_LEN`] bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct MoveText {
    len: u8,
    bytes: [u8; TREE_MOVE_LEN],
}

impl MoveText {
    fn new(text: &str) -> Self {
        let mut end = text.len().min(TREE_MOVE_LEN);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0; TREE_MOVE_LEN];
        bytes[..end].copy_from_slice(&text.as_bytes()[..end]);
        MoveText {
            len: end as u8,
            bytes,
        }
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

/// One edge of one ply: its games and results, and its move (the smallest text seen, so the
/// choice does not depend on the order games come in).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Edge {
    score: Score,
    text: MoveText,
}

impl Edge {
    fn merge(&mut self, o: &Edge) {
        self.score.merge(&o.score);
        self.text = self.text.min(o.text);
    }
}

type FxMap<K, V> = HashMap<K, V, rustc_hash::FxBuildHasher>;

/// The opening tree of one game: per ply, the edges (position before, position after) with
/// their games, results and move, and the start positions with their games.
///
/// Bounded like [`crate::Table`]: a ply's edges are counted **exactly** while at most
/// [`TREE_PRUNE_AT`] distinct ones have been seen (in one accumulator and in a merge of two);
/// beyond that the ply keeps its [`TREE_KEEP`] most frequent edges (ties by key) and counts
/// the games of the others in [`OpeningTree::pruned`]. A kept count is then a lower bound, low
/// by at most that ply's pruned games; frequent lines survive, rare ones are lost. Memory:
/// at most `TREE_PRUNE_AT` edges of 64 bytes per ply, about 1 MB per game at 16 plies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpeningTree {
    roots: FxMap<u64, Score>,
    roots_pruned: u64,
    plies: Vec<FxMap<(u64, u64), Edge>>,
    pruned: Vec<u64>,
}

impl OpeningTree {
    /// Counts one game's line with its result.
    pub fn add(&mut self, line: &OpeningLine<'_>, result: Option<Outcome>) {
        let Some(start) = line.start else {
            return;
        };
        self.roots.entry(start).or_default().add(result);
        prune_roots(&mut self.roots, &mut self.roots_pruned);
        let mut before = start;
        for (d, (after, mv)) in line.moves().take(TREE_MAX_PLIES).enumerate() {
            if self.plies.len() <= d {
                self.plies.resize_with(d + 1, FxMap::default);
                self.pruned.resize(d + 1, 0);
            }
            let edges = &mut self.plies[d];
            match edges.get_mut(&(before, after)) {
                Some(e) => {
                    e.score.add(result);
                    if mv.as_bytes() < e.text.as_str().as_bytes() {
                        e.text = MoveText::new(mv);
                    }
                }
                None => {
                    let mut score = Score::default();
                    score.add(result);
                    let text = MoveText::new(mv);
                    edges.insert((before, after), Edge { score, text });
                    prune(edges, &mut self.pruned[d]);
                }
            }
            before = after;
        }
    }

    /// Adds every count of `other` (associative and commutative while nothing is pruned).
    pub fn merge(&mut self, other: &OpeningTree) {
        for (k, s) in &other.roots {
            self.roots.entry(*k).or_default().merge(s);
        }
        self.roots_pruned += other.roots_pruned;
        prune_roots(&mut self.roots, &mut self.roots_pruned);
        if self.plies.len() < other.plies.len() {
            self.plies.resize_with(other.plies.len(), FxMap::default);
            self.pruned.resize(other.plies.len(), 0);
        }
        for (d, edges) in other.plies.iter().enumerate() {
            let mine = &mut self.plies[d];
            for (k, e) in edges {
                match mine.get_mut(k) {
                    Some(m) => m.merge(e),
                    None => {
                        mine.insert(*k, *e);
                    }
                }
            }
            self.pruned[d] += other.pruned[d];
            prune(mine, &mut self.pruned[d]);
        }
    }

    /// Games counted (every game with a start position).
    pub fn games(&self) -> u64 {
        self.roots.values().map(|s| s.games).sum::<u64>() + self.roots_pruned
    }

    /// Plies with at least one edge.
    pub fn depth(&self) -> usize {
        self.plies.len()
    }

    /// Games dropped by pruning at ply `d` (0-based).
    pub fn pruned(&self, d: usize) -> u64 {
        self.pruned.get(d).copied().unwrap_or(0)
    }

    /// Games counted at ply `d` (0-based): the games whose line has that many plies.
    pub fn ply_games(&self, d: usize) -> u64 {
        self.plies
            .get(d)
            .map_or(0, |e| e.values().map(|e| e.score.games).sum())
    }

    /// Games that reach the position `key` after ply `d` (0-based), by any move order, and the
    /// distinct moves from the previous ply that lead there.
    pub fn position(&self, d: usize, key: u64) -> (Score, usize) {
        let mut score = Score::default();
        let mut ways = 0;
        for (&(_, after), e) in self.plies.get(d).into_iter().flatten() {
            if after == key {
                score.merge(&e.score);
                ways += 1;
            }
        }
        (score, ways)
    }

    /// Distinct edges kept at ply `d` (0-based).
    pub fn edges(&self, d: usize) -> usize {
        self.plies.get(d).map_or(0, |e| e.len())
    }

    /// The tree from the most frequent start position, for the report: at each position its
    /// `branches` most frequent continuations with at least `min_games` games, down to the
    /// deepest ply counted. `None` when no game was counted.
    pub fn summary(&self, branches: usize, min_games: u64) -> Option<TreeSummary> {
        let (&root, &score) = self
            .roots
            .iter()
            .max_by(|a, b| a.1.games.cmp(&b.1.games).then_with(|| b.0.cmp(a.0)))?;
        let index = self.index();
        let ctx = Walk {
            index: &index,
            reach: self.reach(),
            branches,
            min_games,
            budget: std::cell::Cell::new(TREE_MAX_SHOWN),
        };
        Some(TreeSummary {
            start_key: key_text(root),
            games: score.games,
            other_starts: self.games() - score.games,
            pruned: self.pruned.clone(),
            score,
            moves: ctx.children(0, root),
        })
    }

    /// Per ply: the edges leaving each position, most frequent first (ties by key).
    fn index(&self) -> Vec<FxMap<u64, Vec<(u64, Edge)>>> {
        self.plies
            .iter()
            .map(|edges| {
                let mut by_parent: FxMap<u64, Vec<(u64, Edge)>> = FxMap::default();
                for (&(before, after), e) in edges {
                    by_parent.entry(before).or_default().push((after, *e));
                }
                for list in by_parent.values_mut() {
                    list.sort_unstable_by(|a, b| {
                        b.1.score.games.cmp(&a.1.score.games).then(a.0.cmp(&b.0))
                    });
                }
                by_parent
            })
            .collect()
    }

    /// Per ply: the games that reach each position after it, by any move order.
    fn reach(&self) -> Vec<FxMap<u64, Score>> {
        self.plies
            .iter()
            .map(|edges| {
                let mut reach: FxMap<u64, Score> = FxMap::default();
                for (&(_, after), e) in edges {
                    reach.entry(after).or_default().merge(&e.score);
                }
                reach
            })
            .collect()
    }
}

/// Keeps the [`TREE_KEEP`] most frequent edges once there are more than [`TREE_PRUNE_AT`].
fn prune(edges: &mut FxMap<(u64, u64), Edge>, pruned: &mut u64) {
    if edges.len() <= TREE_PRUNE_AT {
        return;
    }
    let mut all: Vec<((u64, u64), Edge)> = edges.drain().collect();
    all.sort_unstable_by(|a, b| b.1.score.games.cmp(&a.1.score.games).then(a.0.cmp(&b.0)));
    *pruned += all[TREE_KEEP..]
        .iter()
        .map(|e| e.1.score.games)
        .sum::<u64>();
    all.truncate(TREE_KEEP);
    edges.extend(all);
}

fn prune_roots(roots: &mut FxMap<u64, Score>, pruned: &mut u64) {
    if roots.len() <= ROOTS_PRUNE_AT {
        return;
    }
    let mut all: Vec<(u64, Score)> = roots.drain().collect();
    all.sort_unstable_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(&b.0)));
    *pruned += all[ROOTS_KEEP..].iter().map(|e| e.1.games).sum::<u64>();
    all.truncate(ROOTS_KEEP);
    roots.extend(all);
}

/// A key as the report writes it: 16 hexadecimal digits.
fn key_text(key: u64) -> String {
    format!("{key:016x}")
}

struct Walk<'a> {
    index: &'a [FxMap<u64, Vec<(u64, Edge)>>],
    reach: Vec<FxMap<u64, Score>>,
    branches: usize,
    min_games: u64,
    /// Moves still to be shown (the tree is cut, depth first, when it runs out).
    budget: std::cell::Cell<usize>,
}

impl Walk<'_> {
    /// The continuations of position `key` after `d` plies.
    fn children(&self, d: usize, key: u64) -> Vec<TreeMove> {
        let Some(list) = self.index.get(d).and_then(|m| m.get(&key)) else {
            return Vec::new();
        };
        list.iter()
            .filter(|(_, e)| e.score.games >= self.min_games)
            .take(self.branches)
            .take_while(|_| {
                let left = self.budget.get();
                self.budget.set(left.saturating_sub(1));
                left > 0
            })
            .map(|&(after, e)| TreeMove {
                ply: d as u32 + 1,
                notation: e.text.as_str().to_owned(),
                key: key_text(after),
                score: e.score,
                position: self.reach[d].get(&after).copied().unwrap_or_default(),
                moves: self.children(d + 1, after),
            })
            .collect()
    }
}

/// The opening tree as the report shows it (and `stats.json` holds it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TreeSummary {
    /// The start position the tree grows from (the most frequent), as 16 hex digits.
    pub start_key: String,
    /// Games from that start position.
    pub games: u64,
    /// Their results.
    pub score: Score,
    /// Games from other start positions (set-up positions), not in the tree.
    pub other_starts: u64,
    /// Games dropped by pruning, per ply (0: the counts of that ply are exact).
    pub pruned: Vec<u64>,
    /// The most frequent first moves.
    pub moves: Vec<TreeMove>,
}

/// A move of the tree and the position it leads to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TreeMove {
    /// Ply (1-based).
    pub ply: u32,
    /// The move in the game's notation.
    pub notation: String,
    /// The key of the position after it, as 16 hex digits.
    pub key: String,
    /// Games that played this move here, and their results.
    pub score: Score,
    /// Games that reach the position after it at this ply by any move order (more than
    /// `score.games` when another order transposes into it).
    pub position: Score,
    /// The most frequent continuations from that position (of all games that reach it).
    pub moves: Vec<TreeMove>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Seat;

    fn win(seat: u8) -> Option<Outcome> {
        Some(Outcome::Win {
            winner: Seat(seat),
            loser: None,
        })
    }

    /// A line from start key 1 through the given keys, each move named after its key.
    fn add(tree: &mut OpeningTree, keys: &[u64], result: Option<Outcome>) {
        let mut text = String::new();
        let mut plies = Vec::new();
        for k in keys {
            text.push_str(&format!("m{k}"));
            plies.push((*k, text.len() as u32));
        }
        let line = OpeningLine {
            start: Some(1),
            plies: &plies,
            text: &text,
        };
        tree.add(&line, result);
    }

    #[test]
    fn transpositions_share_the_position_and_its_continuations() {
        let mut t = OpeningTree::default();
        // Two move orders reach position 40 after ply 2; both go on to 50 or 60.
        add(&mut t, &[10, 40, 50], win(0));
        add(&mut t, &[20, 40, 50], Some(Outcome::Draw));
        add(&mut t, &[20, 40, 60], win(1));
        add(&mut t, &[10], None);
        assert_eq!(t.games(), 4);
        assert_eq!([t.ply_games(0), t.ply_games(1), t.ply_games(2)], [4, 3, 3]);
        let (reach, ways) = t.position(1, 40);
        assert_eq!((reach.games, ways), (3, 2));
        let s = t.summary(5, 1).expect("a tree");
        assert_eq!(s.games, 4);
        assert_eq!(s.score.scored(), 3);
        let first: Vec<(&str, u64)> = s
            .moves
            .iter()
            .map(|m| (m.notation.as_str(), m.score.games))
            .collect();
        assert_eq!(first, [("m10", 2), ("m20", 2)]);
        // Under each move order the position holds all three games and both continuations.
        for m in &s.moves {
            let to40 = &m.moves[0];
            assert_eq!(
                (to40.key.as_str(), to40.position.games),
                ("0000000000000028", 3)
            );
            let next: Vec<(&str, u64)> = to40
                .moves
                .iter()
                .map(|c| (c.notation.as_str(), c.score.games))
                .collect();
            assert_eq!(next, [("m50", 2), ("m60", 1)]);
            assert_eq!(
                to40.moves[0].score,
                Score {
                    games: 2,
                    first: 1,
                    draws: 1,
                    second: 0
                }
            );
        }
    }

    #[test]
    fn merging_parts_in_any_order_gives_the_whole() {
        let lines: Vec<(Vec<u64>, Option<Outcome>)> = (0..60u64)
            .map(|i| {
                (
                    vec![10 + i % 3, 40 + i % 5, 100 + i % 7],
                    win((i % 2) as u8),
                )
            })
            .collect();
        let mut whole = OpeningTree::default();
        for (k, r) in &lines {
            add(&mut whole, k, *r);
        }
        let mut parts = vec![OpeningTree::default(); 4];
        for (i, (k, r)) in lines.iter().enumerate() {
            add(&mut parts[i * 7 % 4], k, *r);
        }
        let mut forward = OpeningTree::default();
        for p in &parts {
            forward.merge(p);
        }
        let mut backward = OpeningTree::default();
        for p in parts.iter().rev() {
            backward.merge(p);
        }
        assert_eq!(forward, whole);
        assert_eq!(backward, whole);
        assert_eq!(whole.ply_games(2), 60);
    }

    #[test]
    fn pruning_bounds_each_ply_and_counts_what_it_drops() {
        let mut t = OpeningTree::default();
        for i in 0..(TREE_PRUNE_AT as u64 + 100) {
            add(&mut t, &[10, 1000 + i], None);
        }
        for _ in 0..5 {
            add(&mut t, &[10, 7], None);
        }
        assert!(t.edges(1) <= TREE_PRUNE_AT);
        assert_eq!(t.ply_games(1) + t.pruned(1), TREE_PRUNE_AT as u64 + 105);
        assert_eq!(t.pruned(0), 0);
        // The frequent line survives with its exact count.
        assert_eq!(t.position(1, 7).0.games, 5);
    }

    #[test]
    fn long_moves_are_cut_at_a_character_boundary() {
        let m = MoveText::new(&"é".repeat(20));
        assert!(m.as_str().len() <= TREE_MOVE_LEN && m.as_str().chars().all(|c| c == 'é'));
    }
}
