//! The search itself: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, written as minimax from the root seat's view (so that it serves two seats,
//! four seats searched "paranoid", and chance nodes alike).

use std::time::Instant;

use game::{Engine, Seat};

use crate::order::{by_history, pick_next, Order};
use crate::table::{Bound, Table, NO_MOVE};
use crate::{outcome_score, Found, Limits, DECIDED, WIN};

/// The deepest a line is followed (main search and quiescence together).
pub const MAX_PLY: usize = 128;

/// Beyond any score.
const INF: i32 = WIN + 1;

/// Late-move reductions: where a move's own search has [`REDUCE_FROM`] plies or more to go,
/// the moves tried after the first [`LATE_MOVES`] that take nothing, give nothing away and
/// are no killer are searched one ply less deep first (two plies from the move at index
/// [`LATER_MOVES`] on, with [`DEEPER`] plies or more to go), and again at full depth only when
/// they beat the best so far. Measured against dame-rs at equal nodes (docs/performance.md).
const REDUCE_FROM: i32 = 3;
const LATE_MOVES: usize = 3;
const LATER_MOVES: usize = 6;
const DEEPER: i32 = 6;

/// Half the width of the aspiration window around the last iteration's score.
const WINDOW: i32 = 40;

/// Salts for the keys of positions searched for a seat of a game of more than two seats
/// (the score of a position then depends on who the root is).
const ROOT_SALT: [u64; 4] = [
    0,
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
];

/// Per-ply scratch: the moves of the position and their ordering keys.
struct Scratch<M> {
    moves: Vec<M>,
    keys: Vec<i32>,
    order: Vec<u16>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch {
            moves: Vec::new(),
            keys: Vec::new(),
            order: Vec::new(),
        }
    }
}

pub(crate) struct Tree<'g, G: Engine> {
    game: &'g G,
    table: Table,
    order: Order,
    scratch: Vec<Scratch<G::Move>>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The first iteration is under way: it runs to its end whatever the limits, so that a
    /// search always names a move.
    first: bool,
    root: Seat,
    two_sides: bool,
    chance: bool,
    /// Stored scores may settle a node (off only in tests that compare with plain minimax:
    /// the table then orders moves and nothing else).
    pub table_cuts: bool,
    /// Late quiet moves are searched less deep first (off with `table_cuts` in those tests).
    pub reductions: bool,
    /// The root's moves for the next search, when not all of them are to be searched.
    pub root_moves: Option<Vec<G::Move>>,
    /// The search under way has some of the root's moves only: its root is not stored (an
    /// index among them means nothing elsewhere).
    restricted: bool,
}

/// A window and the best score so far of one node.
struct Node {
    max: bool,
    alpha: i32,
    beta: i32,
    best: i32,
    best_index: u16,
}

impl Node {
    fn new(max: bool, alpha: i32, beta: i32) -> Node {
        Node {
            max,
            alpha,
            beta,
            best: if max { -INF } else { INF },
            best_index: NO_MOVE,
        }
    }

    /// Takes the score of move `index`; true when the node is cut.
    fn take(&mut self, score: i32, index: u16) -> bool {
        if self.max {
            if score > self.best {
                self.best = score;
                self.best_index = index;
            }
            self.alpha = self.alpha.max(score);
        } else {
            if score < self.best {
                self.best = score;
                self.best_index = index;
            }
            self.beta = self.beta.min(score);
        }
        self.alpha >= self.beta
    }

    /// The bound the best score is, given the window the node was entered with.
    fn bound(&self, alpha: i32, beta: i32) -> Bound {
        if self.best >= beta {
            Bound::Lower
        } else if self.best <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        }
    }
}

impl<'g, G: Engine> Tree<'g, G> {
    pub fn new(game: &'g G, hash_mb: usize) -> Self {
        Tree {
            game,
            table: Table::new(hash_mb),
            order: Order::new(),
            scratch: (0..=MAX_PLY).map(|_| Scratch::default()).collect(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            first: true,
            root: Seat(0),
            two_sides: true,
            chance: game.needs_chance(),
            table_cuts: true,
            reductions: true,
            root_moves: None,
            restricted: false,
        }
    }

    pub fn game(&self) -> &'g G {
        self.game
    }

    pub fn clear(&mut self) {
        self.table.clear();
        self.order.clear();
    }

    pub fn run(
        &mut self,
        pos: &G::Position,
        root: Seat,
        chance: Option<&[u8]>,
        limits: &Limits,
        deadline: Option<Instant>,
    ) -> Found<G::Move> {
        self.root = root;
        self.table.next_search();
        self.two_sides = self.game.seats_in_play(pos).len() <= 2;
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.deadline = deadline;
        self.stopped = false;
        let deciding = self.game.terminal(pos).is_none()
            && self.game.to_move(pos) == root
            && (chance.is_some() || !self.chance);
        // Only a search that must name a move runs its first iteration whatever the limit;
        // a value alone falls back to the position's own value.
        self.first = deciding;
        let mut found = Found {
            best: None,
            score: self.static_score(pos, 0),
            depth: 0,
            nodes: 0,
            line: Vec::new(),
        };
        if deciding {
            let chance = chance.unwrap_or(&[]);
            self.deepen_root(pos, chance, limits.max_depth(), &mut found);
        } else {
            self.deepen_value(pos, limits.max_depth(), &mut found);
        }
        found.nodes = self.nodes;
        found
    }

    /// The score of a position without search: its outcome if it is over, else its value.
    fn static_score(&self, pos: &G::Position, ply: usize) -> i32 {
        match self.game.terminal(pos) {
            Some(outcome) => outcome_score(outcome, self.root, ply),
            None => self.game.value(pos, self.root),
        }
    }

    /// Iterative deepening of a position where the root seat is not the one choosing (or
    /// the throws are not known yet): its value only.
    fn deepen_value(&mut self, pos: &G::Position, max_depth: u32, found: &mut Found<G::Move>) {
        if self.game.terminal(pos).is_some() {
            return;
        }
        for depth in 1..=max_depth {
            let score = self.ab(pos, depth as i32, 0, -INF, INF);
            if self.stopped {
                break;
            }
            found.score = score;
            found.depth = depth;
            self.first = false;
            if self.exhausted(score, depth) {
                break;
            }
        }
    }

    /// True when deeper iterations cannot change a proven result, or the limit is spent.
    fn exhausted(&self, score: i32, depth: u32) -> bool {
        let proven = score.abs() >= DECIDED && (WIN - score.abs()) < depth as i32;
        proven || self.nodes >= self.node_limit
    }

    /// Iterative deepening at a root where `root` chooses among the moves for `chance`.
    fn deepen_root(
        &mut self,
        pos: &G::Position,
        chance: &[u8],
        max_depth: u32,
        found: &mut Found<G::Move>,
    ) {
        self.restricted = self.root_moves.is_some();
        let moves = match self.root_moves.take() {
            Some(moves) => moves,
            None => {
                let mut moves = Vec::new();
                self.game.moves_into(pos, chance, &mut moves);
                moves
            }
        };
        if moves.is_empty() {
            return;
        }
        // Root moves in the order of the last iteration's scores, best first.
        let mut ranked: Vec<(usize, i32)> = (0..moves.len()).map(|i| (i, 0)).collect();
        let mut last = found.score;
        for depth in 1..=max_depth {
            let aspire = self.two_sides && depth >= 3 && last.abs() < DECIDED;
            let mut window = if aspire {
                (last - WINDOW, last + WINDOW)
            } else {
                (-INF, INF)
            };
            let result = loop {
                let r = self.root_iteration(pos, &moves, &mut ranked, depth, window);
                if self.stopped || (r.0 > window.0 && r.0 < window.1) || window == (-INF, INF) {
                    break r;
                }
                window = (-INF, INF);
            };
            if self.stopped {
                break;
            }
            let (score, best) = result;
            last = score;
            found.score = score;
            found.depth = depth;
            found.best = Some((best, moves[best].clone()));
            self.first = false;
            if self.exhausted(score, depth) || moves.len() == 1 && depth >= 2 && !self.restricted {
                break;
            }
        }
        if let Some((_, mv)) = &found.best {
            found.line = self.principal_line(pos, mv, found.depth as usize + 8);
        }
    }

    /// One iteration at the root: every move searched (principal-variation style), `ranked`
    /// re-sorted by score. Returns the best score and the index of its move.
    fn root_iteration(
        &mut self,
        pos: &G::Position,
        moves: &[G::Move],
        ranked: &mut [(usize, i32)],
        depth: u32,
        window: (i32, i32),
    ) -> (i32, usize) {
        self.nodes += 1;
        let (mut alpha, beta) = window;
        let mut best = (-INF, ranked[0].0);
        for slot in ranked.iter_mut() {
            let mut child = pos.clone();
            self.game.play(&mut child, &moves[slot.0]);
            let d = depth as i32 - 1;
            let score = if best.0 == -INF {
                self.ab(&child, d, 1, alpha, beta)
            } else {
                let s = self.ab(&child, d, 1, alpha, alpha + 1);
                if s > alpha && s < beta {
                    self.ab(&child, d, 1, alpha, beta)
                } else {
                    s
                }
            };
            if self.stopped {
                return best;
            }
            // A move that failed low keeps a score below the best, for the order only.
            slot.1 = score;
            if score > best.0 {
                best = (score, slot.0);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        ranked.sort_by_key(|&(i, s)| (if i == best.1 { -INF - 1 } else { -s }, i));
        if self.restricted {
            return best;
        }
        let key = self.key(pos);
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 <= window.0 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.store(key, pos, depth as i32, 0, best.0, bound, best.1 as u16);
        best
    }

    /// The table key of `pos` (salted by the root seat where more than two seats play).
    fn key(&self, pos: &G::Position) -> u64 {
        let key = self.game.position_key(pos);
        if self.two_sides {
            key
        } else {
            key ^ ROOT_SALT[usize::from(self.root.0 % 4)]
        }
    }

    /// True when scores at this node are stored negated: in a two-sided game the table holds
    /// scores from the view of the side to move, so that they serve searches for either side.
    fn flipped(&self, pos: &G::Position) -> bool {
        self.two_sides && self.game.to_move(pos) != self.root
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: u64,
        pos: &G::Position,
        depth: i32,
        ply: usize,
        score: i32,
        bound: Bound,
        best: u16,
    ) {
        let (mut s, mut b) = (to_table(score, ply), bound);
        if self.flipped(pos) {
            s = -s;
            b = flip(b);
        }
        self.table.store(key, depth.clamp(0, 120) as i8, s, b, best);
    }

    /// The table's entry of `pos` in the root's view: score, bound, depth, best move.
    fn probe(&self, key: u64, pos: &G::Position, ply: usize) -> Option<(i32, Bound, i32, u16)> {
        let e = self.table.probe(key)?;
        let (mut s, mut b) = (e.score(), e.bound);
        if self.flipped(pos) {
            s = -s;
            b = flip(b);
        }
        Some((from_table(s, ply), b, i32::from(e.depth), e.best))
    }

    /// Counts a node; true when the search must stop.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.first {
            return false;
        }
        if self.nodes > self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(deadline) = self.deadline {
                self.stopped |= Instant::now() >= deadline;
            }
        }
        self.stopped
    }

    /// The alpha-beta search of `pos`, `depth` plies deep, `ply` from the root.
    fn ab(&mut self, pos: &G::Position, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if depth <= 0 && !self.chance {
            return self.quiesce(pos, ply, alpha, beta, 0);
        }
        if self.tick() {
            return 0;
        }
        if let Some(outcome) = self.game.terminal(pos) {
            return outcome_score(outcome, self.root, ply);
        }
        if ply >= MAX_PLY - 1 || depth <= 0 {
            return self.game.value(pos, self.root);
        }
        if self.chance {
            return self.average(pos, depth, ply);
        }
        self.decide(pos, &[], depth, ply, alpha, beta)
    }

    /// A node of a game of chance before the throw: the value of each outcome weighed by
    /// its probability (no cut: every outcome is searched with a full window).
    fn average(&mut self, pos: &G::Position, depth: i32, ply: usize) -> i32 {
        let key = self.key(pos);
        if let Some((s, Bound::Exact, d, _)) = self.probe(key, pos, ply) {
            if self.table_cuts && d >= depth {
                return s;
            }
        }
        let mut sum = 0.0;
        for (outcome, p) in self.game.outcomes(pos) {
            let v = self.decide(pos, &outcome, depth, ply, -INF, INF);
            if self.stopped {
                return 0;
            }
            sum += p * f64::from(v);
        }
        let score = sum.round() as i32;
        self.store(key, pos, depth, ply, score, Bound::Exact, NO_MOVE);
        score
    }

    /// The seat to move chooses among its moves for `chance` (empty in a game without
    /// chance, where the table is consulted and filled).
    fn decide(
        &mut self,
        pos: &G::Position,
        chance: &[u8],
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let tabled = !self.chance;
        let key = if tabled { self.key(pos) } else { 0 };
        let mut hash = NO_MOVE;
        if tabled {
            if let Some((s, bound, d, best)) = self.probe(key, pos, ply) {
                hash = best;
                if self.table_cuts && d >= depth && cuts(s, bound, alpha, beta) {
                    return s;
                }
            }
        }
        let mover = self.game.to_move(pos);
        let mut node = Node::new(mover == self.root, alpha, beta);
        let mut scratch = std::mem::take(&mut self.scratch[ply]);
        self.game.moves_into(pos, chance, &mut scratch.moves);
        if scratch.moves.is_empty() {
            self.scratch[ply] = scratch;
            return self.game.value(pos, self.root);
        }
        self.rank(pos, &mut scratch, ply, mover, hash);
        // A forced move costs no depth: the line it starts is no longer than without it. So
        // for a compulsory capture, chosen or not: a combination (sacrifice, forced capture,
        // sacrifice...) then costs a ply a sacrifice, and shots are seen as deep as quiet play.
        let next_depth = if scratch.moves.len() == 1 || self.must_take(pos, &scratch.moves[0]) {
            depth
        } else {
            depth - 1
        };
        for n in 0..scratch.moves.len() {
            let i = pick_next(&mut scratch.keys, &mut scratch.order, n);
            let mut child = pos.clone();
            self.game.play(&mut child, &scratch.moves[i]);
            let reduce = self.reduction(&child, &scratch, n, next_depth);
            let score = self.pvs(&child, next_depth, ply + 1, &node, n == 0, reduce);
            if self.stopped {
                self.scratch[ply] = scratch;
                return 0;
            }
            if node.take(score, i as u16) {
                if !self.game.is_capture(pos, &scratch.moves[i]) {
                    let id = self.game.move_id(pos, &scratch.moves[i]);
                    self.order.cut(ply, mover.0, id, depth);
                }
                break;
            }
        }
        self.scratch[ply] = scratch;
        if tabled {
            let bound = node.bound(alpha, beta);
            self.store(key, pos, depth, ply, node.best, bound, node.best_index);
        }
        node.best
    }

    /// True when the side to move in `pos`, whose first move is `first`, must capture.
    fn must_take(&self, pos: &G::Position, first: &G::Move) -> bool {
        self.game.is_capture(pos, first) && self.game.must_capture(pos)
    }

    /// How many plies less the `n`th move tried (leading to `child`) is searched first: late
    /// moves ordered by history alone (so no capture, killer or table move) that force no
    /// capture in reply (a shot's first move is never reduced).
    fn reduction(
        &self,
        child: &G::Position,
        scratch: &Scratch<G::Move>,
        n: usize,
        depth: i32,
    ) -> i32 {
        let late = self.reductions && !self.chance && n >= LATE_MOVES && depth >= REDUCE_FROM;
        if !late || !by_history(scratch.keys[n]) || self.game.must_capture(child) {
            return 0;
        }
        if n >= LATER_MOVES && depth >= DEEPER {
            2
        } else {
            1
        }
    }

    /// A child searched with a full window if it is the first, else with a null window
    /// first (`reduce` plies less deep, then at full depth if that beats the node's best)
    /// and again in full only if it may improve the node.
    fn pvs(
        &mut self,
        child: &G::Position,
        depth: i32,
        ply: usize,
        node: &Node,
        first: bool,
        reduce: i32,
    ) -> i32 {
        let (alpha, beta) = (node.alpha, node.beta);
        if first || self.chance {
            return self.ab(child, depth, ply, alpha, beta);
        }
        if reduce > 0 {
            let probe = self.scout(child, depth - reduce, ply, node);
            let holds = if node.max {
                probe <= alpha
            } else {
                probe >= beta
            };
            if holds || self.stopped {
                return probe;
            }
        }
        let probe = self.scout(child, depth, ply, node);
        if probe > alpha && probe < beta && !self.stopped {
            self.ab(child, depth, ply, alpha, beta)
        } else {
            probe
        }
    }

    /// A null-window search of `child` at the node's bound: does it beat the best so far?
    fn scout(&mut self, child: &G::Position, depth: i32, ply: usize, node: &Node) -> i32 {
        if node.max {
            self.ab(child, depth, ply, node.alpha, node.alpha + 1)
        } else {
            self.ab(child, depth, ply, node.beta - 1, node.beta)
        }
    }

    /// Fills the ordering keys of the moves in `scratch`.
    fn rank(
        &self,
        pos: &G::Position,
        scratch: &mut Scratch<G::Move>,
        ply: usize,
        mover: Seat,
        hash: u16,
    ) {
        scratch.keys.clear();
        scratch.order.clear();
        for (i, mv) in scratch.moves.iter().enumerate() {
            let capture = self.game.is_capture(pos, mv);
            let id = self.game.move_id(pos, mv);
            let key = self.order.key(ply, mover.0, id, i as u16 == hash, capture);
            scratch.keys.push(key);
            scratch.order.push(i as u16);
        }
    }

    /// Quiescence: captures are played out; at the first quiet position a threatened side
    /// answers with any move, and a side that can force the other to capture may try it.
    fn quiesce(&mut self, pos: &G::Position, ply: usize, alpha: i32, beta: i32, qply: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(outcome) = self.game.terminal(pos) {
            return outcome_score(outcome, self.root, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.game.value(pos, self.root);
        }
        let forced = self.game.must_capture(pos);
        if !forced && qply > 0 {
            return self.game.value(pos, self.root);
        }
        let threatened = !forced && self.game.threat(pos);
        let mover = self.game.to_move(pos);
        let mut node = Node::new(mover == self.root, alpha, beta);
        // A quiet, unthreatened side may keep the position as it is (it has some move that
        // changes little): its value stands unless a forcing move does better. A side that
        // must capture or is threatened never stands, so its value is not worked out.
        let may_stand = !forced && !threatened;
        if may_stand {
            let stand = self.game.value(pos, self.root);
            if node.take(stand, NO_MOVE) {
                return stand;
            }
        }
        let mut scratch = std::mem::take(&mut self.scratch[ply]);
        self.game.moves_into(pos, &[], &mut scratch.moves);
        if scratch.moves.is_empty() {
            self.scratch[ply] = scratch;
            return self.game.value(pos, self.root);
        }
        for i in 0..scratch.moves.len() {
            let mut child = pos.clone();
            self.game.play(&mut child, &scratch.moves[i]);
            // Unforced and unthreatened: only moves that force a capture in reply (the first
            // move of a shot) are worth a look.
            if may_stand && !self.game.must_capture(&child) {
                continue;
            }
            let next = if forced { qply } else { qply + 1 };
            let score = self.quiesce(&child, ply + 1, node.alpha, node.beta, next);
            if self.stopped {
                break;
            }
            if node.take(score, i as u16) {
                break;
            }
        }
        self.scratch[ply] = scratch;
        node.best
    }

    /// The line from the root: its best move, then the table's moves as far as they go.
    fn principal_line(
        &mut self,
        pos: &G::Position,
        first: &G::Move,
        longest: usize,
    ) -> Vec<G::Move> {
        let mut line = vec![first.clone()];
        if self.chance {
            return line;
        }
        let mut here = pos.clone();
        self.game.play(&mut here, first);
        let mut moves = Vec::new();
        let mut seen = vec![self.game.position_key(pos)];
        while line.len() < longest && self.game.terminal(&here).is_none() {
            let key = self.key(&here);
            let Some((_, _, _, best)) = self.probe(key, &here, 0) else {
                break;
            };
            self.game.moves_into(&here, &[], &mut moves);
            let Some(mv) = moves.get(usize::from(best)) else {
                break;
            };
            let key = self.game.position_key(&here);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            line.push(mv.clone());
            self.game.play(&mut here, mv);
        }
        line
    }
}

/// True when a stored score with `bound` settles the node's window.
fn cuts(score: i32, bound: Bound, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

fn flip(b: Bound) -> Bound {
    match b {
        Bound::Lower => Bound::Upper,
        Bound::Upper => Bound::Lower,
        Bound::Exact => Bound::Exact,
    }
}

/// A score as the table keeps it: a win counted from this node, not from the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        score + ply as i32
    } else if score <= -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score seen from `ply` plies below the root.
fn from_table(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        score - ply as i32
    } else if score <= -DECIDED {
        score + ply as i32
    } else {
        score
    }
}
