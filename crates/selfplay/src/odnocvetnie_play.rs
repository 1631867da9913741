//! Odnocvetnie Shashki self-play: the three agents, and the player that runs them through
//! the shared game loop ([`crate::playout`]).
//!
//! The men belong to nobody, so there is no material to count. What decides the game is
//! mobility: a seat loses when it has no legal move on its turn, and the seat before it wins.
//! The agents therefore look at how many moves the seats will have:
//!
//! - `greedy` plays a move that leaves the next seat without a move (an immediate win) if there
//!   is one, and otherwise the move that leaves the next seat the fewest legal moves;
//! - `search` is a *paranoid* alpha-beta search: the seat to move maximises its score, the
//!   three others are assumed to play together against it. A finished game scores a win or a
//!   loss for the searching seat, or 0 when two other seats decide it; other positions score
//!   the searching seat's own mobility against the mobility of the seat after it (both with
//!   diminishing returns: going from 1 move to 3 matters, from 20 to 22 does not).

use std::ops::RangeInclusive;

use game::{GameInfo, Seat};
use odnocvetnie::{Move, Odnocvetnie, Position, Side};

use crate::names::Names;
use crate::player::{Played, Player, Table};
use crate::playout::{play_out, Mover};
use crate::rng::Rng;
use crate::{pick_best, Agent};

/// A win for the searching seat (minus the distance to it).
const WIN: i32 = 1_000_000;
/// Scale of the mobility terms.
const MOBILITY: i32 = 600;
/// Random noise added to each root move's score.
const NOISE: i32 = 8;

/// The default search depth in plies.
pub(crate) const DEFAULT_DEPTH: u32 = 3;
/// A game in which only damki have moved, without a capture, for this many plies (twenty
/// rounds) is stopped with `*`: a free damka can be moved for ever, and the recorder gives up.
pub(crate) const DEAD_PLIES: u32 = 80;

/// Legal moves `seat` would have in `pos` if it were to move (the real lock if it is).
fn mobility(pos: &Position, seat: Side) -> i32 {
    if pos.side_to_move() == seat {
        return pos.legal_move_count() as i32;
    }
    match Position::new(pos.men(), pos.damki(), seat, None, false) {
        Ok(p) => p.legal_move_count() as i32,
        Err(_) => 0,
    }
}

/// The score of a non-final position for `root`.
fn evaluate(pos: &Position, root: Side) -> i32 {
    let own = mobility(pos, root);
    let next = mobility(pos, root.next());
    MOBILITY / (next + 1) - MOBILITY / (own + 1)
}

/// A paranoid alpha-beta searcher.
pub(crate) struct Searcher {
    lists: Vec<Vec<Move>>,
}

impl Searcher {
    pub(crate) fn new() -> Searcher {
        Searcher { lists: Vec::new() }
    }

    fn search(
        &mut self,
        pos: &Position,
        root: Side,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        while self.lists.len() <= ply {
            self.lists.push(Vec::with_capacity(32));
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        pos.legal_moves(&mut list);
        let score = if list.is_empty() {
            let loser = pos.side_to_move();
            if loser.prev() == root {
                WIN - ply as i32
            } else if loser == root {
                -WIN + ply as i32
            } else {
                0
            }
        } else if depth == 0 {
            evaluate(pos, root)
        } else if pos.side_to_move() == root {
            let mut best = -WIN - 1;
            for mv in &list {
                let mut child = *pos;
                child.play(mv);
                let s = self.search(&child, root, depth - 1, alpha, beta, ply + 1);
                best = best.max(s);
                alpha = alpha.max(s);
                if alpha >= beta {
                    break;
                }
            }
            best
        } else {
            let mut best = WIN + 1;
            for mv in &list {
                let mut child = *pos;
                child.play(mv);
                let s = self.search(&child, root, depth - 1, alpha, beta, ply + 1);
                best = best.min(s);
                beta = beta.min(s);
                if alpha >= beta {
                    break;
                }
            }
            best
        };
        self.lists[ply] = list;
        score
    }

    /// The search agent's move among `moves` (not empty).
    pub(crate) fn best_move(
        &mut self,
        pos: &Position,
        moves: &[Move],
        depth: u32,
        rng: &mut Rng,
    ) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        let root = pos.side_to_move();
        let mut best = 0;
        let mut best_score = i32::MIN;
        for (i, mv) in moves.iter().enumerate() {
            let mut child = *pos;
            child.play(mv);
            let alpha = best_score.saturating_sub(NOISE).max(-WIN - 1);
            let score = self.search(&child, root, depth.max(1) - 1, alpha, WIN + 1, 1);
            let noisy = score + rng.below(NOISE as u64 + 1) as i32;
            if noisy > best_score {
                best_score = noisy;
                best = i;
            }
        }
        best
    }
}

fn choose(
    agent: Agent,
    pos: &Position,
    moves: &[Move],
    depth: u32,
    searcher: &mut Searcher,
    rng: &mut Rng,
) -> usize {
    match agent {
        Agent::Random => rng.index(moves.len()),
        Agent::Greedy => {
            let scores: Vec<i32> = moves
                .iter()
                .map(|mv| {
                    let mut child = *pos;
                    child.play(mv);
                    if child.has_legal_move() {
                        -(child.legal_move_count() as i32)
                    } else {
                        WIN
                    }
                })
                .collect();
            pick_best(&scores, rng)
        }
        Agent::Search => searcher.best_move(pos, moves, depth, rng),
    }
}

/// Odnocvetnie Shashki's self-play: four seats with the agents above. One game in eight
/// starts with a seat other than South (a `FirstSeat` tag says which); a game in which only
/// damki have moved for 80 plies (twenty rounds) without a capture is stopped with `*`.
#[derive(Debug, Clone, Copy, Default)]
pub struct OdnocvetniePlayer;

impl Player for OdnocvetniePlayer {
    fn info(&self) -> &'static GameInfo {
        &odnocvetnie::INFO
    }

    fn players(&self) -> RangeInclusive<u8> {
        4..=4
    }

    /// 400 plies (100 rounds).
    fn default_max_plies(&self) -> u32 {
        400
    }

    fn default_search_depth(&self) -> u32 {
        DEFAULT_DEPTH
    }

    fn names(&self) -> Names {
        Names::Russian
    }

    fn play(&self, table: &mut Table<'_>) -> Played {
        let names = table.pick_players(4);
        let first = if table.setup.chance(1, 8) {
            Side::from_index(1 + table.setup.below(3) as u8)
        } else {
            Side::South
        };
        let mut mover = OdnocvetnieMover {
            rules: Odnocvetnie::default(),
            depth: table.depth,
            searcher: Searcher::new(),
        };
        let mut played = play_out(&mut mover, Position::start_with(first), table);
        if first != Side::South {
            played
                .seat_tags
                .push(("FirstSeat", first.letter().to_string()));
        }
        played.players = (0..).map(Seat).zip(names).collect();
        played
    }
}

/// Odnocvetnie's moves and agents for the game loop.
struct OdnocvetnieMover {
    rules: Odnocvetnie,
    depth: u32,
    searcher: Searcher,
}

impl Mover for OdnocvetnieMover {
    type Rules = Odnocvetnie;

    fn rules(&self) -> &Odnocvetnie {
        &self.rules
    }

    fn legal_moves(&mut self, pos: &Position, out: &mut Vec<Move>) {
        pos.legal_moves(out);
    }

    fn choose(
        &mut self,
        agent: Agent,
        pos: &Position,
        moves: &[Move],
        _ply: u32,
        rng: &mut Rng,
    ) -> usize {
        choose(agent, pos, moves, self.depth, &mut self.searcher, rng)
    }

    fn dead_run(&self) -> Option<(u32, &'static str)> {
        Some((DEAD_PLIES, "*"))
    }

    fn quiet_king_move(&self, pos: &Position, mv: &Move) -> bool {
        pos.damki().contains(mv.from()) && !mv.is_capture()
    }

    fn same_move(&self, _pos: &Position, read: &Move, mv: &Move) -> bool {
        read == mv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_and_search_take_an_immediate_win() {
        // Random playouts; wherever a move leaves the next seat without a move (a win for
        // the mover), greedy and search must play such a move.
        let mut rng = Rng::new(5);
        let mut searcher = Searcher::new();
        let mut list = Vec::new();
        let mut found = 0;
        for _game in 0..60 {
            let mut pos = Position::start();
            for _ply in 0..400 {
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let wins = |i: usize| {
                    let mut child = pos;
                    child.play(&list[i]);
                    !child.has_legal_move()
                };
                if (0..list.len()).any(wins) && (0..list.len()).any(|i| !wins(i)) {
                    found += 1;
                    for (agent, depth) in
                        [(Agent::Greedy, 0), (Agent::Search, 1), (Agent::Search, 3)]
                    {
                        let i = choose(agent, &pos, &list, depth, &mut searcher, &mut rng);
                        assert!(
                            wins(i),
                            "{agent:?} depth {depth} missed the win in {}",
                            pos.to_fen()
                        );
                    }
                }
                let i = rng.index(list.len());
                pos.play(&list[i]);
            }
        }
        assert!(found >= 3, "only {found} positions with a winning move");
    }

    /// True if after `mv` the three other seats can play so that `pos`'s seat to move has no
    /// move on its next turn.
    fn can_be_forced_stuck(pos: &Position, mv: &Move) -> bool {
        fn rec(p: &Position, left: u32) -> bool {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            if left == 0 {
                return moves.is_empty();
            }
            // Someone else running out of moves ends the game first.
            !moves.is_empty()
                && moves.iter().any(|m| {
                    let mut c = *p;
                    c.play(m);
                    rec(&c, left - 1)
                })
        }
        let mut p = *pos;
        p.play(mv);
        rec(&p, 3)
    }

    #[test]
    fn paranoid_search_avoids_moves_the_others_can_punish() {
        let mut rng = Rng::new(9);
        let mut searcher = Searcher::new();
        let mut list = Vec::new();
        let mut checked = 0;
        for _game in 0..40 {
            let mut pos = Position::start();
            for _ply in 0..300 {
                pos.legal_moves(&mut list);
                if list.is_empty() || checked >= 12 {
                    break;
                }
                if pos.men().len() + pos.damki().len() <= 9 {
                    let lost: Vec<bool> =
                        list.iter().map(|m| can_be_forced_stuck(&pos, m)).collect();
                    if lost.iter().any(|&l| l) && lost.iter().any(|&l| !l) {
                        checked += 1;
                        let i = searcher.best_move(&pos, &list, 4, &mut rng);
                        assert!(
                            !lost[i],
                            "search walked into a forced loss in {}",
                            pos.to_fen()
                        );
                    }
                }
                let i = rng.index(list.len());
                pos.play(&list[i]);
            }
        }
        eprintln!("{checked} positions checked");
        assert!(checked >= 3, "only {checked} positions checked");
    }
}
