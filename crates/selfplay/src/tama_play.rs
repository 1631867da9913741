//! Tama self-play: the three agents, and the player that runs them through the shared game
//! loop ([`crate::playout`]).

use std::ops::RangeInclusive;

use game::{GameInfo, Seat};
use tama::{
    count_quiet, has_capture, legal_moves_distinct, max_capture, Move, MoveList, Position, Side,
    Tama,
};

use crate::names::Names;
use crate::player::{Played, Player, Table};
use crate::playout::{play_out, Mover};
use crate::rng::Rng;
use crate::{pick_best, Agent};

/// Value of a man in the evaluation (centipawns of a man).
const MAN: i32 = 100;
/// Value of a king: a flying piece that moves like a queen.
const KING: i32 = 300;
/// Per rank a man has advanced.
const ADVANCE: i32 = 3;
/// Per quiet move more than the opponent.
const MOBILITY: i32 = 1;
/// A won position (minus the distance to it, so that quicker wins score higher).
const WIN: i32 = 1_000_000;
/// Plies of capture extension below the nominal depth.
const CAPTURE_EXTENSION: i32 = 8;
/// Random noise added to each root move's score, to break ties and vary the games.
const NOISE: i32 = 6;
/// More noise in the first plies, so that openings differ.
const OPENING_NOISE: i32 = 25;
const OPENING_PLIES: u32 = 8;

/// The default search depth in plies (captures are extended beyond it).
pub(crate) const DEFAULT_DEPTH: u32 = 3;
/// A game in which only kings have moved, without a capture, for this many plies is
/// stopped as an agreed draw (`1/2-1/2`): neither side is making progress.
pub(crate) const DEAD_PLIES: u32 = 60;

/// Material, advancement and mobility, from the point of view of the side to move.
fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let side = |s: Side| -> i32 {
        let men = pos.men(s);
        let mut advance = 0i32;
        let mut m = men;
        while m != 0 {
            let rank = (m.trailing_zeros() / 8) as i32;
            m &= m - 1;
            advance += match s {
                Side::White => rank,
                Side::Black => 7 - rank,
            };
        }
        men.count_ones() as i32 * MAN + pos.kings(s).count_ones() as i32 * KING + advance * ADVANCE
    };
    let mobility = count_quiet(pos) as i32 - count_quiet(&pos.with_side_to_move(them)) as i32;
    side(us) - side(them) + mobility * MOBILITY
}

/// Material only (men 1, kings 3), from `side`'s point of view.
fn material(pos: &Position, side: Side) -> i32 {
    let of = |s: Side| pos.men(s).count_ones() as i32 + 3 * pos.kings(s).count_ones() as i32;
    of(side) - of(side.opponent())
}

/// A negamax alpha-beta searcher with reusable move lists.
pub(crate) struct Searcher {
    lists: Vec<MoveList>,
    order: Vec<Vec<(i32, Move)>>,
    /// Nodes visited (for measurements).
    pub(crate) nodes: u64,
}

impl Searcher {
    pub(crate) fn new() -> Searcher {
        Searcher {
            lists: Vec::new(),
            order: Vec::new(),
            nodes: 0,
        }
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ext: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        let capture = has_capture(pos);
        if depth <= 0 && (!capture || ext <= 0) {
            if !capture && count_quiet(pos) == 0 {
                return -WIN + ply as i32;
            }
            return evaluate(pos);
        }
        while self.lists.len() <= ply {
            self.lists.push(MoveList::new());
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        legal_moves_distinct(pos, false, &mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            return -WIN + ply as i32;
        }
        // A forced reply (a single legal move, typically a capture) costs no depth.
        let (d, e) = if list.len() == 1 && ext > 0 {
            (depth, ext - 1)
        } else if depth <= 0 {
            (0, ext - 1)
        } else {
            (depth - 1, ext)
        };
        // Above the last ply, try the moves that look best at once first: better cut-offs.
        if d >= 1 && list.len() > 2 {
            while self.order.len() <= ply {
                self.order.push(Vec::new());
            }
            let mut keyed = std::mem::take(&mut self.order[ply]);
            keyed.clear();
            keyed.extend(list.iter().map(|mv| {
                let mut child = *pos;
                child.play(mv);
                (evaluate(&child), *mv)
            }));
            keyed.sort_by_key(|&(score, _)| score);
            list.clear();
            for &(_, mv) in keyed.iter() {
                list.push(mv);
            }
            self.order[ply] = keyed;
        }
        let mut best = -WIN - 1;
        for mv in list.iter() {
            let mut child = *pos;
            child.play(mv);
            let score = -self.negamax(&child, d, e, -beta, -alpha, ply + 1);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        best
    }

    /// The search agent's move: every root move searched to `depth`, plus a little noise.
    pub(crate) fn best_move(
        &mut self,
        pos: &Position,
        moves: &[Move],
        depth: u32,
        noise: i32,
        rng: &mut Rng,
    ) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        let depth = depth.max(1) as i32 - 1;
        let mut best = 0;
        let mut best_score = i32::MIN;
        for (i, mv) in moves.iter().enumerate() {
            let mut child = *pos;
            child.play(mv);
            // Moves that cannot beat the best even with the most noise need no exact score.
            let alpha = best_score.saturating_sub(noise).max(-WIN - 1);
            let score = -self.negamax(&child, depth, CAPTURE_EXTENSION, -WIN - 1, -alpha, 1);
            let noisy = score + rng.below(noise as u64 + 1) as i32;
            if noisy > best_score {
                best_score = noisy;
                best = i;
            }
        }
        best
    }
}

/// Chooses a move for `agent`. `moves` are the distinct legal moves (not empty).
fn choose(
    agent: Agent,
    pos: &Position,
    moves: &[Move],
    ply: u32,
    depth: u32,
    searcher: &mut Searcher,
    rng: &mut Rng,
) -> usize {
    match agent {
        Agent::Random => rng.index(moves.len()),
        Agent::Greedy => {
            let us = pos.side_to_move();
            let scores: Vec<i32> = moves
                .iter()
                .map(|mv| {
                    let mut child = *pos;
                    child.play(mv);
                    // What the move wins, less what the opponent can take back at once;
                    // between equals, a man's step forward (so the game moves on).
                    let forward =
                        mv.to().rank() != mv.from().rank() && pos.men(us) & mv.from().bit() != 0;
                    (material(&child, us) - max_capture(&child, false) as i32) * 4
                        + i32::from(forward)
                })
                .collect();
            pick_best(&scores, rng)
        }
        Agent::Search => {
            let noise = if ply < OPENING_PLIES {
                OPENING_NOISE
            } else {
                NOISE
            };
            searcher.best_move(pos, moves, depth, noise, rng)
        }
    }
}

/// Tama's self-play: White and Black with the agents above; a game in which only kings have
/// moved for 60 plies without a capture is stopped as an agreed draw.
#[derive(Debug, Clone, Copy, Default)]
pub struct TamaPlayer;

impl Player for TamaPlayer {
    fn info(&self) -> &'static GameInfo {
        &tama::INFO
    }

    fn players(&self) -> RangeInclusive<u8> {
        2..=2
    }

    /// 300 plies.
    fn default_max_plies(&self) -> u32 {
        300
    }

    fn default_search_depth(&self) -> u32 {
        DEFAULT_DEPTH
    }

    fn names(&self) -> Names {
        Names::Armenian
    }

    fn play(&self, table: &mut Table<'_>) -> Played {
        let names = table.pick_players(2);
        let mut mover = TamaMover::new(table.depth);
        let mut played = play_out(&mut mover, Position::start(), table);
        played.players = (0..).map(Seat).zip(names).collect();
        played
    }
}

/// Tama's moves and agents for the game loop.
struct TamaMover {
    rules: Tama,
    depth: u32,
    searcher: Searcher,
    list: MoveList,
}

impl TamaMover {
    fn new(depth: u32) -> TamaMover {
        TamaMover {
            rules: Tama::default(),
            depth,
            searcher: Searcher::new(),
            list: MoveList::new(),
        }
    }
}

impl Mover for TamaMover {
    type Rules = Tama;

    fn rules(&self) -> &Tama {
        &self.rules
    }

    fn legal_moves(&mut self, pos: &Position, out: &mut Vec<Move>) {
        legal_moves_distinct(pos, false, &mut self.list);
        out.clear();
        out.extend_from_slice(&self.list);
    }

    fn choose(
        &mut self,
        agent: Agent,
        pos: &Position,
        moves: &[Move],
        ply: u32,
        rng: &mut Rng,
    ) -> usize {
        choose(agent, pos, moves, ply, self.depth, &mut self.searcher, rng)
    }

    fn dead_run(&self) -> Option<(u32, &'static str)> {
        Some((DEAD_PLIES, "1/2-1/2"))
    }

    fn quiet_king_move(&self, pos: &Position, mv: &Move) -> bool {
        pos.kings(pos.side_to_move()) & mv.from().bit() != 0 && !mv.is_capture()
    }

    fn same_move(&self, _pos: &Position, read: &Move, mv: &Move) -> bool {
        read.same_result(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::play_seeded;
    use game::{Game, Notation};

    /// Wins of White and Black over `games` seeded games.
    fn score(agents: [Agent; 2], games: u64, depth: u32) -> (u32, u32) {
        let (mut white, mut black) = (0, 0);
        for seed in 0..games {
            let agents = [agents[0], agents[1], Agent::Random, Agent::Random];
            let played = play_seeded(&TamaPlayer, agents, 300, depth, seed);
            match played.result.as_str() {
                "1-0" => white += 1,
                "0-1" => black += 1,
                _ => {}
            }
        }
        (white, black)
    }

    #[test]
    fn search_beats_greedy_and_greedy_beats_random() {
        let (w, _) = score([Agent::Search, Agent::Greedy], 8, 2);
        assert!(w >= 7, "search as White won {w} of 8 against greedy");
        let (_, b) = score([Agent::Greedy, Agent::Search], 8, 2);
        assert!(b >= 7, "search as Black won {b} of 8 against greedy");
        let (w, b) = score([Agent::Greedy, Agent::Random], 40, 0);
        assert!(
            w >= 28,
            "greedy as White won {w} of 40 against random ({b} lost)"
        );
    }

    #[test]
    fn search_and_greedy_do_not_hang_a_man() {
        // White to move: e4-e5 lets the black man on e6 take it (e6xe4); every other move
        // is safe. Search (any depth) and greedy must avoid it; random plays it sometimes.
        let pos = Position::from_fen("W:Wa2,e4:Be6,h7").expect("fen");
        let mut moves = MoveList::new();
        legal_moves_distinct(&pos, false, &mut moves);
        let game = Tama::default();
        let name = |i: usize| game.write_move(&pos, &moves[i], Notation::default());
        assert!((0..moves.len()).any(|i| name(i) == "e4-e5"));
        let mut searcher = Searcher::new();
        let mut random_hangs = 0;
        for seed in 0..30 {
            let mut rng = Rng::new(seed);
            for depth in [1, 2, 3] {
                let i = choose(
                    Agent::Search,
                    &pos,
                    &moves,
                    20,
                    depth,
                    &mut searcher,
                    &mut rng,
                );
                assert_ne!(name(i), "e4-e5", "search depth {depth}");
            }
            let i = choose(Agent::Greedy, &pos, &moves, 20, 0, &mut searcher, &mut rng);
            assert_ne!(name(i), "e4-e5", "greedy");
            let i = choose(Agent::Random, &pos, &moves, 20, 0, &mut searcher, &mut rng);
            random_hangs += usize::from(name(i) == "e4-e5");
        }
        assert!(random_hangs > 0);
        assert!(searcher.nodes > 0);
    }
}
