//! The one self-play of every game, written once over [`game::Explore`].
//!
//! Its agents know nothing of a game but what the rules crate tells through the trait:
//! the legal moves, the outcome of chance a move is played with ([`Explore::throw`],
//! [`Explore::outcomes`]) and how good a position is for a seat ([`Explore::evaluate`],
//! material by default).
//!
//! - `random` plays a uniformly random legal move;
//! - `greedy` plays a move that wins at once if there is one, else the move whose worst
//!   immediate reply by the next seat leaves the best evaluation (a game of chance: the best
//!   evaluation right after the move, since the reply depends on throws not yet made);
//! - `search` looks [`Table::depth`] plies ahead (default 3; a game of chance 2). In a game
//!   without chance it is an alpha-beta search in which the searching seat maximises and
//!   every other seat minimises its evaluation (with two seats, plain minimax); in a game of
//!   chance it is an expectimax search: each later move is weighed over the outcomes of
//!   chance it may be played with. Finished games score a win or a loss (0 when other seats
//!   decide it).
//!
//! Ties are broken at random, so games differ although the agents add no noise.
//!
//! A game in which only kings have moved, without a capture, for a long while is stopped as
//! a recorder would: a two-sided game after 60 such plies as an agreed draw `1/2-1/2`,
//! another after 20 such rounds with `*`. A king is what [`game::Game::board`] draws as one
//! on the first square of [`game::Game::move_paths`]; a game that gives no paths is stopped
//! by the ply cap only.

use std::ops::RangeInclusive;

use game::{Explore, GameInfo, Notation, Outcome, Seat};

use crate::names::Names;
use crate::player::{Played, Player, Table};
use crate::rng::Rng;
use crate::{pick_best, Agent};

/// The search agent's default depth in plies.
pub(crate) const DEFAULT_DEPTH: u32 = 3;
/// The search agent's default depth in a game of chance (every ply weighs every outcome).
pub(crate) const CHANCE_DEPTH: u32 = 2;
/// Plies of quiet king moves after which a two-sided game is stopped as an agreed draw.
pub(crate) const DEAD_PLIES: u32 = 60;
/// Rounds of quiet king moves after which a game of more seats is stopped with `*`.
pub(crate) const DEAD_ROUNDS: u32 = 20;
/// The ply cap of a game of chance (turns), whatever its seats.
const CHANCE_PLIES: u32 = 1000;
/// A won game (less the plies to it, so that quicker wins score higher).
const WIN: i32 = 1_000_000;

/// Self-play of one game: its description, its rules and where its players come from.
///
/// ```
/// use selfplay::{generate, Agent, Config, Generic};
///
/// // Any game of the contract; Tama here.
/// let player = Generic::new(&tama::INFO, tama::Tama::default());
/// let mut config = Config::new(Box::leak(Box::new(player)));
/// config.agent = Some(Agent::Greedy);
/// let mut out = Vec::new();
/// generate(&config, &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().contains("[Variant \"Tama\"]"));
/// ```
#[derive(Debug, Clone)]
pub struct Generic<G> {
    info: &'static GameInfo,
    rules: G,
    names: Names,
}

impl<G: Explore> Generic<G> {
    /// Self-play of the game `info` describes, under `rules`, with players from
    /// [`Names::International`].
    pub fn new(info: &'static GameInfo, rules: G) -> Generic<G> {
        Generic {
            info,
            rules,
            names: Names::International,
        }
    }

    /// The same player with players from `names`.
    pub fn with_names(mut self, names: Names) -> Generic<G> {
        self.names = names;
        self
    }

    /// The index in `moves` (legal moves of `pos`, not empty) of the move `agent` plays,
    /// searching `depth` plies; ties are broken with `rng`.
    pub fn choose(
        &self,
        agent: Agent,
        depth: u32,
        pos: &G::Position,
        moves: &[G::Move],
        rng: &mut Rng,
    ) -> usize {
        Agents {
            rules: &self.rules,
            depth,
        }
        .choose(agent, pos, moves, rng)
    }

    /// The number of players of a game when the configuration gives none.
    fn player_count(&self, table: &mut Table<'_>) -> u8 {
        let counts = self.rules.player_counts();
        let span = u64::from(counts.end().saturating_sub(*counts.start())) + 1;
        match table.players {
            Some(n) => n,
            None if span == 1 => *counts.start(),
            None => counts.start() + table.setup.below(span) as u8,
        }
    }
}

impl<G> Player for Generic<G>
where
    G: Explore + Send + Sync,
{
    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn players(&self) -> RangeInclusive<u8> {
        self.rules.player_counts()
    }

    /// 300 plies for two seats, 100 rounds for more; a game of chance 1000 turns.
    fn default_max_plies(&self) -> u32 {
        if self.rules.needs_chance() {
            CHANCE_PLIES
        } else {
            300.max(100 * u32::from(*self.players().end()))
        }
    }

    fn default_search_depth(&self) -> u32 {
        if self.rules.needs_chance() {
            CHANCE_DEPTH
        } else {
            DEFAULT_DEPTH
        }
    }

    fn names(&self) -> Names {
        self.names
    }

    /// The start position must be readable.
    fn check(&self) -> Result<(), crate::ConfigError> {
        self.rules
            .start_position(&|_| None)
            .map(drop)
            .map_err(|problem| crate::ConfigError::NoStart {
                game: self.info.label,
                problem,
            })
    }

    fn play(&self, table: &mut Table<'_>) -> Played {
        let players = self.player_count(table);
        let setup = &mut *table.setup;
        let seat_tags = self.rules.seating(players, &mut || setup.next_u32());
        let tag = |name: &str| {
            seat_tags
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.clone())
        };
        let Ok(start) = self.rules.start_position(&tag) else {
            return Played {
                result: "*".to_string(),
                ..Played::default()
            };
        };
        let mut seats = self.rules.seats_in_play(&start);
        seats.sort();
        let names = table.pick_players(seats.len());
        let dice = self.rules.needs_chance().then(|| table.setup.fork());
        let game = GameLoop {
            agents: Agents {
                rules: &self.rules,
                depth: table.depth,
            },
            dead_run: if self.info.profile.two_sides && seats.len() == 2 {
                (DEAD_PLIES, "1/2-1/2")
            } else {
                (DEAD_ROUNDS * seats.len() as u32, "*")
            },
            seats: seats.len().max(1) as u32,
        };
        let mut played = game.play_out(start, table, dice);
        played.seat_tags = seat_tags;
        played.players = seats.into_iter().zip(names).collect();
        played
    }
}

/// One ply being played: the position before it, its move (moves joined, for a seat that
/// kept the turn) and whether it was a quiet king move.
struct Ply<G: Explore> {
    before: G::Position,
    seat: Seat,
    mv: G::Move,
    quiet: bool,
}

/// The game loop: plays until the rules end the game, a dead run goes on too long or the
/// ply cap is reached, and writes each ply.
struct GameLoop<'a, G> {
    agents: Agents<'a, G>,
    /// Plies of quiet king moves that stop the game, with the result then written.
    dead_run: (u32, &'static str),
    /// Seats in play: a move number starts each round.
    seats: u32,
}

/// The movetext as it is written.
struct Written {
    played: Played,
    /// Quiet king plies in a row.
    run: u32,
}

impl<G: Explore> GameLoop<'_, G> {
    fn rules(&self) -> &G {
        self.agents.rules
    }

    /// Plays a game from `start` with the agents, cap and move generator of `table`;
    /// `dice` draws the outcomes of chance. Returns the movetext and result (no players or
    /// seat tags).
    fn play_out(&self, start: G::Position, table: &mut Table<'_>, mut dice: Option<Rng>) -> Played {
        let rules = self.rules();
        let mut pos = start;
        let mut out = Written {
            played: Played::default(),
            run: 0,
        };
        let mut ply: Option<Ply<G>> = None;
        let result = loop {
            if let Some(outcome) = rules.terminal(&pos) {
                self.write(&mut out, ply.take());
                out.played.ended_by_rule = true;
                break rules.write_result(outcome);
            }
            let seat = rules.to_move(&pos);
            let goes_on = ply.as_ref().is_some_and(|p| p.seat == seat);
            if !goes_on {
                self.write(&mut out, ply.take());
                if out.run >= self.dead_run.0 {
                    break self.dead_run.1.to_string();
                }
                if out.played.plies >= table.max_plies {
                    break "*".to_string();
                }
            }
            let chance = match dice.as_mut() {
                Some(d) => rules.throw(&pos, &mut || d.next_u32()),
                None => Vec::new(),
            };
            let moves = rules.legal_moves(&pos, &chance).unwrap_or_default();
            if moves.is_empty() {
                // The rules say the game goes on but give no move: stop as a recorder would.
                self.write(&mut out, ply.take());
                break "*".to_string();
            }
            let i = self
                .agents
                .choose(table.agent(seat), &pos, &moves, &mut table.moves);
            let mv = &moves[i.min(moves.len() - 1)];
            let joined = match ply.as_mut() {
                Some(p) if goes_on => rules.join_moves(&mut p.mv, mv),
                _ => false,
            };
            if !joined {
                self.write(&mut out, ply.take());
                ply = Some(Ply {
                    before: pos.clone(),
                    seat,
                    mv: mv.clone(),
                    quiet: self.agents.quiet_king_move(&pos, mv),
                });
            }
            rules.play(&mut pos, mv);
        };
        out.played.result = result;
        out.played
    }

    /// Writes a finished ply, numbered at the start of each round.
    fn write(&self, out: &mut Written, ply: Option<Ply<G>>) {
        let Some(ply) = ply else { return };
        let text = write_checked(self.rules(), &ply.before, &ply.mv);
        let n = out.played.plies;
        out.played.units.push(if n % self.seats == 0 {
            format!("{}. {text}", n / self.seats + 1)
        } else {
            text
        });
        out.run = if ply.quiet { out.run + 1 } else { 0 };
        out.played.plies += 1;
    }
}

/// The move as the rules write it by default (short captures), or with every landing square
/// if the short form does not read back as the same move. (A king chain that passes its
/// final square earlier in the chain, such as Tama's `g1xg6xe6xc6xc2xe2xg6`, has the short
/// form `g1xg6`, which reads as the one-jump chain that stops on g6.) The same move: both
/// lead to the same position string.
fn write_checked<G: Explore>(rules: &G, pos: &G::Position, mv: &G::Move) -> String {
    let notation = rules.default_notation();
    let text = rules.write_move(pos, mv, notation);
    let tokens: Vec<&[u8]> = text.split_whitespace().map(str::as_bytes).collect();
    let after = |m: &G::Move| {
        let mut p = pos.clone();
        rules.play(&mut p, m);
        rules.write_position(&p)
    };
    match rules.resolve(pos, &tokens) {
        Ok(read) if after(&read) == after(mv) => text,
        _ => rules.write_move(
            pos,
            mv,
            Notation {
                full_captures: true,
                ..notation
            },
        ),
    }
}

/// The agents over one game's rules.
struct Agents<'a, G> {
    rules: &'a G,
    /// The search agent's depth in plies.
    depth: u32,
}

impl<G: Explore> Agents<'_, G> {
    fn choose(&self, agent: Agent, pos: &G::Position, moves: &[G::Move], rng: &mut Rng) -> usize {
        match agent {
            Agent::Random => rng.index(moves.len()),
            Agent::Greedy => self.greedy(pos, moves, rng),
            Agent::Search if self.rules.needs_chance() => self.best_by_chance(pos, moves, rng),
            Agent::Search => self.best_move(pos, moves, rng),
        }
    }

    fn moves(&self, pos: &G::Position) -> Vec<G::Move> {
        self.rules.legal_moves(pos, &[]).unwrap_or_default()
    }

    fn after(&self, pos: &G::Position, mv: &G::Move) -> G::Position {
        let mut next = pos.clone();
        self.rules.play(&mut next, mv);
        next
    }

    /// The evaluation of `pos` for `root`, or its outcome's score if the game is over.
    fn score(&self, pos: &G::Position, root: Seat, ply: i32) -> i32 {
        match self.rules.terminal(pos) {
            Some(outcome) => outcome_score(outcome, root, ply),
            None => self.rules.evaluate(pos, root),
        }
    }

    /// Greedy: an immediate win, else the best evaluation after the worst immediate reply
    /// (a game of chance: right after the move).
    fn greedy(&self, pos: &G::Position, moves: &[G::Move], rng: &mut Rng) -> usize {
        let me = self.rules.to_move(pos);
        let chance = self.rules.needs_chance();
        let scores: Vec<i32> = moves
            .iter()
            .map(|mv| {
                let next = self.after(pos, mv);
                if let Some(outcome) = self.rules.terminal(&next) {
                    return outcome_score(outcome, me, 0);
                }
                if chance {
                    return self.rules.evaluate(&next, me);
                }
                self.moves(&next)
                    .iter()
                    .map(|r| self.rules.evaluate(&self.after(&next, r), me))
                    .min()
                    .unwrap_or_else(|| self.rules.evaluate(&next, me))
            })
            .collect();
        pick_best(&scores, rng)
    }

    /// Alpha-beta: `root` maximises, every other seat minimises. `here` is the evaluation
    /// of `pos`; `ply` its distance from the root.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        pos: &G::Position,
        root: Seat,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        here: i32,
    ) -> i32 {
        if let Some(outcome) = self.rules.terminal(pos) {
            return outcome_score(outcome, root, ply);
        }
        if depth == 0 {
            return here;
        }
        let maximise = self.rules.to_move(pos) == root;
        let mut children: Vec<(i32, G::Position)> = self
            .moves(pos)
            .iter()
            .map(|mv| {
                let child = self.after(pos, mv);
                (self.rules.evaluate(&child, root), child)
            })
            .collect();
        if children.is_empty() {
            return here;
        }
        // The most promising first, for earlier cut-offs.
        if maximise {
            children.sort_by_key(|c| std::cmp::Reverse(c.0));
        } else {
            children.sort_by_key(|c| c.0);
        }
        let mut best = if maximise { -WIN - 1 } else { WIN + 1 };
        for (score, child) in &children {
            let value = self.search(child, root, depth - 1, alpha, beta, ply + 1, *score);
            if maximise {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Search without chance: every root move searched to the depth; the best, ties at
    /// random.
    fn best_move(&self, pos: &G::Position, moves: &[G::Move], rng: &mut Rng) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        let root = self.rules.to_move(pos);
        let mut best = -WIN - 1;
        let scores: Vec<i32> = moves
            .iter()
            .map(|mv| {
                let child = self.after(pos, mv);
                let here = self.rules.evaluate(&child, root);
                // A window just below the best so far: a move that cannot reach it needs no
                // exact score, a move that ties it gets one.
                let alpha = best.saturating_sub(1).max(-WIN - 1);
                let value =
                    self.search(&child, root, self.depth.max(1) - 1, alpha, WIN + 1, 1, here);
                best = best.max(value);
                value
            })
            .collect();
        pick_best(&scores, rng)
    }

    /// Search with chance: every root move valued by [`Agents::expect`].
    fn best_by_chance(&self, pos: &G::Position, moves: &[G::Move], rng: &mut Rng) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        let root = self.rules.to_move(pos);
        let scores: Vec<i32> = moves
            .iter()
            .map(|mv| {
                let child = self.after(pos, mv);
                self.expect(&child, root, self.depth.max(1) - 1, 1).round() as i32
            })
            .collect();
        pick_best(&scores, rng)
    }

    /// Expectimax: the value of `pos` for `root`, `depth` plies ahead, each ply weighed over
    /// the outcomes of chance it may be played with; `root` chooses its best move, every
    /// other seat its worst for `root`.
    fn expect(&self, pos: &G::Position, root: Seat, depth: u32, ply: i32) -> f64 {
        if depth == 0 || self.rules.terminal(pos).is_some() {
            return f64::from(self.score(pos, root, ply));
        }
        let maximise = self.rules.to_move(pos) == root;
        let mut total = 0.0;
        let mut weight = 0.0;
        for (chance, p) in self.rules.outcomes(pos) {
            let moves = self.rules.legal_moves(pos, &chance).unwrap_or_default();
            let values = moves
                .iter()
                .map(|mv| self.expect(&self.after(pos, mv), root, depth - 1, ply + 1));
            let value = if maximise {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            };
            if value.is_finite() {
                total += p * value;
                weight += p;
            }
        }
        if weight > 0.0 {
            total / weight
        } else {
            f64::from(self.score(pos, root, ply))
        }
    }

    /// True when `mv` moves a king without capturing (a ply of a dead run).
    fn quiet_king_move(&self, pos: &G::Position, mv: &G::Move) -> bool {
        if self.rules.facts(pos, mv).captures > 0 {
            return false;
        }
        let paths = self.rules.move_paths(pos, mv);
        let Some(&(file, rank)) = paths.first().and_then(|p| p.first()) else {
            return false;
        };
        self.rules.board(pos).pieces_at(file, rank).any(|p| p.king)
    }
}

/// A finished game's score for `root`: a win (sooner is better), a loss, or 0 for a draw or
/// a game other seats decided between them.
fn outcome_score(outcome: Outcome, root: Seat, ply: i32) -> i32 {
    match outcome {
        Outcome::Win { winner, .. } if winner == root => WIN - ply,
        Outcome::Win { loser: None, .. } => -WIN + ply,
        Outcome::Win {
            loser: Some(loser), ..
        } if loser == root => -WIN + ply,
        Outcome::Win { .. } | Outcome::Draw | Outcome::Unfinished => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_score_for_the_root_seat() {
        let win = |w: u8, l: Option<u8>| Outcome::Win {
            winner: Seat(w),
            loser: l.map(Seat),
        };
        assert_eq!(outcome_score(win(0, Some(1)), Seat(0), 2), WIN - 2);
        assert_eq!(outcome_score(win(1, Some(0)), Seat(0), 2), -WIN + 2);
        assert_eq!(outcome_score(win(1, None), Seat(0), 2), -WIN + 2);
        assert_eq!(outcome_score(win(2, Some(3)), Seat(0), 2), 0);
        assert_eq!(outcome_score(Outcome::Draw, Seat(0), 2), 0);
    }
}
