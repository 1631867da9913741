//! arbiter's engine: one game-tree search for every game of the contract ([`game::Engine`]).
//!
//! [`Search`] is an iterative-deepening alpha-beta search:
//! - principal-variation search (null windows after the first move) with aspiration windows
//!   around the last iteration's score in two-sided games;
//! - a transposition table keyed by the games' own position keys ([`game::Game::position_key`]);
//! - quiescence: at the horizon the side to move goes on while it must capture, and once, at
//!   the first quiet position, when the other side threatens a capture, so that a shot is seen
//!   from its first quiet move;
//! - move ordering: the table's move, captures, two killers a ply, history counts;
//! - limits by nodes, depth or time. Under a node or depth limit the result depends on
//!   nothing but the position and the limit (one thread, a fixed move order): the same
//!   input gives the same output on any machine.
//!
//! Scores are from the view of the seat the search is run for (its `root` seat), in the
//! unit of [`game::Engine::value`] (hundredths of a man in the draughts games); a won game is
//! [`WIN`] less the plies to it. Games of more than two seats are searched "paranoid": the
//! root seat maximises, every other seat minimises the root's score (as self-play's agents
//! do). Games of chance are searched by expectimax: where the moves depend on a throw not
//! yet made, the value is the average over [`game::Explore::outcomes`], weighed by their
//! probabilities.
#![deny(missing_docs)]

mod order;
mod table;
mod tree;

use std::time::{Duration, Instant};

use game::{Engine, Outcome, Seat};

pub use tree::MAX_PLY;

/// The score of a won game (less one per ply to the win).
pub const WIN: i32 = 1_000_000;

/// Scores beyond this are wins or losses found by the search, not evaluations.
pub const DECIDED: i32 = WIN - 10_000;

/// When a search stops. With none set it stops at depth [`Limits::DEFAULT_DEPTH`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after about this many nodes (the iteration under way is abandoned; the last
    /// complete one answers; the first, one ply deep, always completes). Deterministic.
    pub nodes: Option<u64>,
    /// Search this many plies deep at most. Deterministic.
    pub depth: Option<u32>,
    /// Stop after about this long (not reproducible: the nodes searched depend on the
    /// machine).
    pub time: Option<Duration>,
}

impl Limits {
    /// The depth searched when no limit is given.
    pub const DEFAULT_DEPTH: u32 = 6;

    /// A node limit.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A depth limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    fn max_depth(&self) -> u32 {
        match (self.depth, self.nodes, self.time) {
            (Some(d), _, _) => d.clamp(1, MAX_PLY as u32 / 2),
            (None, None, None) => Limits::DEFAULT_DEPTH,
            _ => MAX_PLY as u32 / 2,
        }
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found<M> {
    /// The best move of the root seat, with its index in the position's move list; `None`
    /// when the root seat has no move (the game is over, or another seat is to move).
    pub best: Option<(usize, M)>,
    /// The value of the position for the root seat.
    pub score: i32,
    /// The last depth searched to the end.
    pub depth: u32,
    /// Nodes visited (quiescence included).
    pub nodes: u64,
    /// The expected line of play, the best move first (as far as the table remembers it;
    /// in a game of chance only the best move).
    pub line: Vec<M>,
}

impl<M> Found<M> {
    /// True when the score is a win or loss the search proved, not an evaluation.
    pub fn is_decided(&self) -> bool {
        self.score.abs() >= DECIDED
    }
}

/// The score of a finished game for `root`, `ply` plies from the root: a quicker win
/// scores higher, a later loss less badly.
pub fn outcome_score(outcome: Outcome, root: Seat, ply: usize) -> i32 {
    let ply = ply as i32;
    match outcome {
        Outcome::Win { winner, .. } if winner == root => WIN - ply,
        Outcome::Win { loser: Some(l), .. } if l != root => 0,
        Outcome::Win { .. } => -WIN + ply,
        Outcome::Draw | Outcome::Unfinished => 0,
    }
}

/// A search over one game's rules, with its transposition table, killers and history. Keep
/// one for the positions of one game: what it learnt of one serves the next.
pub struct Search<'g, G: Engine> {
    tree: tree::Tree<'g, G>,
}

impl<'g, G: Engine> Search<'g, G> {
    /// A search of `game` with a table of about `hash_mb` megabytes.
    pub fn new(game: &'g G, hash_mb: usize) -> Search<'g, G> {
        Search {
            tree: tree::Tree::new(game, hash_mb),
        }
    }

    /// Forgets what earlier searches learnt (table, killers, history): the next search
    /// then answers as a fresh one would.
    pub fn clear(&mut self) {
        self.tree.clear();
    }

    /// The same search made exact: its table orders moves only, never settles a position,
    /// and no move is searched less deep than the others. Its scores are then those of plain
    /// minimax to the same depth (for tests).
    #[doc(hidden)]
    pub fn exact(mut self) -> Self {
        self.tree.table_cuts = false;
        self.without_reductions()
    }

    /// The same search with every move searched to the full depth (for tests and
    /// measurements: the reductions of late moves are on by default).
    #[doc(hidden)]
    pub fn without_reductions(mut self) -> Self {
        self.tree.reductions = false;
        self
    }

    /// Searches `pos` for `root` within `limits`. `chance` fixes the outcome of chance the
    /// root's moves are played with (a game of chance: the throws of the series being
    /// played); without it a game of chance averages over the outcomes at the root too.
    pub fn run(
        &mut self,
        pos: &G::Position,
        root: Seat,
        chance: Option<&[u8]>,
        limits: &Limits,
    ) -> Found<G::Move> {
        let deadline = limits.time.map(|t| Instant::now() + t);
        self.tree.run(pos, root, chance, limits, deadline)
    }

    /// Searches `pos` for the seat to move among `moves`, some of its legal moves (none: no
    /// best move, the position's value). The index of the best move is its index in `moves`.
    pub fn best_among(
        &mut self,
        pos: &G::Position,
        limits: &Limits,
        moves: Vec<G::Move>,
    ) -> Found<G::Move> {
        self.tree.root_moves = Some(moves);
        let found = self.best(pos, limits);
        self.tree.root_moves = None;
        found
    }

    /// Searches `pos` for the seat to move.
    pub fn best(&mut self, pos: &G::Position, limits: &Limits) -> Found<G::Move> {
        let root = self.tree.game().to_move(pos);
        self.run(pos, root, None, limits)
    }
}
