//! The generic player: self-play for any game without chance, written once over
//! [`game::Explore`].
//!
//! Its agents know nothing of a game but what the rules crate tells through the trait:
//!
//! - `random` plays a uniformly random move of [`Explore::legal_moves`];
//! - `greedy` plays a move that wins at once if there is one, else the move that captures the
//!   most pieces ([`game::PlyFacts::captures`]) less the most the next seat can capture in
//!   reply;
//! - `search` is an alpha-beta search to a fixed depth (default 3 plies) in
//!   which the searching seat maximises and every other seat minimises its score (with two
//!   seats, plain minimax). Finished games score a win or a loss (0 when other seats decide
//!   it); other positions score the pieces the searching seat captured on the way less those
//!   the others captured ([`game::PlyFacts::captures`]): in a two-sided game, the material
//!   balance.
//!
//! Ties are broken at random, so games differ although the search adds no noise.
//!
//! A game in which only kings have moved, without a capture, for a long while is stopped as
//! a recorder would: a two-sided game after 60 such plies as an agreed draw `1/2-1/2`,
//! another after 20 such rounds with `*`. A king is what
//! [`game::Game::board`] draws as one on the first square of [`game::Game::move_paths`];
//! a game that gives no paths is stopped by the ply cap only.

use std::ops::RangeInclusive;

use game::{Explore, GameInfo, Outcome, Seat};

use crate::names::Names;
use crate::player::{Played, Player, Table};
use crate::playout::{play_out, Mover};
use crate::rng::Rng;
use crate::{pick_best, Agent};

/// The search agent's default depth in plies.
pub(crate) const DEFAULT_DEPTH: u32 = 3;
/// Plies of quiet king moves after which a two-sided game is stopped as an agreed draw.
pub(crate) const DEAD_PLIES: u32 = 60;
/// Rounds of quiet king moves after which a game of more seats is stopped with `*`.
pub(crate) const DEAD_ROUNDS: u32 = 20;
/// A won game (less the plies to it, so that quicker wins score higher).
const WIN: i32 = 1_000_000;

/// Self-play for a game without chance: the rules value and the game's description.
///
/// ```
/// use selfplay::{generate, Agent, Config, Generic};
///
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

    fn seats(&self) -> u8 {
        u8::try_from(self.info.seat_names.len())
            .unwrap_or(u8::MAX)
            .max(1)
    }
}

impl<G> Player for Generic<G>
where
    G: Explore + Send + Sync,
{
    fn info(&self) -> &'static GameInfo {
        self.info
    }

    /// Every seat of the game.
    fn players(&self) -> RangeInclusive<u8> {
        self.seats()..=self.seats()
    }

    /// 300 plies for two seats, 100 rounds for more.
    fn default_max_plies(&self) -> u32 {
        300.max(100 * u32::from(self.seats()))
    }

    fn default_search_depth(&self) -> u32 {
        DEFAULT_DEPTH
    }

    fn names(&self) -> Names {
        self.names
    }

    /// A game of chance needs a player of its own; the start position must be readable.
    fn check(&self) -> Result<(), String> {
        if self.rules.needs_chance() {
            return Err(format!(
                "{} is played with chance; the generic self-play plays only games without it",
                self.info.label
            ));
        }
        self.rules
            .start_position(&|_| None)
            .map(drop)
            .map_err(|p| format!("{}: no start position: {}", self.info.label, p.message))
    }

    fn play(&self, table: &mut Table<'_>) -> Played {
        let Ok(start) = self.rules.start_position(&|_| None) else {
            return Played {
                result: "*".to_string(),
                ..Played::default()
            };
        };
        let mut seats = self.rules.seats_in_play(&start);
        seats.sort();
        let names = table.pick_players(seats.len());
        let mut mover = GenericMover {
            rules: &self.rules,
            depth: table.depth,
            two_sides: self.info.profile.two_sides && seats.len() == 2,
            seats: seats.len() as u32,
        };
        let mut played = play_out(&mut mover, start, table);
        played.players = seats.into_iter().zip(names).collect();
        played
    }
}

/// The generic agents over one game's rules.
struct GenericMover<'a, G> {
    rules: &'a G,
    depth: u32,
    /// Two sides: a dead run ends as an agreed draw.
    two_sides: bool,
    /// Seats in play.
    seats: u32,
}

impl<G: Explore> GenericMover<'_, G> {
    fn moves(&self, pos: &G::Position) -> Vec<G::Move> {
        self.rules.legal_moves(pos, &[]).unwrap_or_default()
    }

    fn after(&self, pos: &G::Position, mv: &G::Move) -> G::Position {
        let mut next = pos.clone();
        self.rules.play(&mut next, mv);
        next
    }

    /// Pieces `mv` captures: [`game::PlyFacts::captures`], the length of
    /// [`Explore::describe`]'s `captured` list without writing the move out.
    fn captured(&self, pos: &G::Position, mv: &G::Move) -> i32 {
        i32::from(self.rules.facts(pos, mv).captures)
    }

    /// Greedy: an immediate win, else captures less the best capture in reply.
    fn greedy(&self, pos: &G::Position, moves: &[G::Move], rng: &mut Rng) -> usize {
        let me = self.rules.to_move(pos);
        let scores: Vec<i32> = moves
            .iter()
            .map(|mv| {
                let next = self.after(pos, mv);
                if let Some(outcome) = self.rules.terminal(&next) {
                    return outcome_score(outcome, me, 0);
                }
                let reply = self
                    .moves(&next)
                    .iter()
                    .map(|r| self.captured(&next, r))
                    .max()
                    .unwrap_or(0);
                self.captured(pos, mv) - reply
            })
            .collect();
        pick_best(&scores, rng)
    }

    /// The score for `root` of the position `mv` leads to, before looking further: `gained`
    /// (the pieces `root` has captured on the way less those the others captured) updated
    /// with the move's captures. In a two-sided game this is the material balance, up to
    /// the balance at the root, which is the same for every root move.
    fn static_score(&self, pos: &G::Position, mv: &G::Move, root: Seat, gained: i32) -> i32 {
        let captured = self.captured(pos, mv);
        if self.rules.to_move(pos) == root {
            gained + captured
        } else {
            gained - captured
        }
    }

    /// Alpha-beta: `root` maximises, every other seat minimises. `here` is the static score
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
            .map(|mv| (self.static_score(pos, mv, root, here), self.after(pos, mv)))
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

    /// Search: every root move searched to the depth; the best, ties at random.
    fn best_move(&self, pos: &G::Position, moves: &[G::Move], rng: &mut Rng) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        let root = self.rules.to_move(pos);
        let mut best = -WIN - 1;
        let scores: Vec<i32> = moves
            .iter()
            .map(|mv| {
                let here = self.static_score(pos, mv, root, 0);
                let child = self.after(pos, mv);
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

impl<G: Explore> Mover for GenericMover<'_, G> {
    type Rules = G;

    fn rules(&self) -> &G {
        self.rules
    }

    fn legal_moves(&mut self, pos: &G::Position, out: &mut Vec<G::Move>) {
        *out = self.moves(pos);
    }

    fn choose(
        &mut self,
        agent: Agent,
        pos: &G::Position,
        moves: &[G::Move],
        _ply: u32,
        rng: &mut Rng,
    ) -> usize {
        match agent {
            Agent::Random => rng.index(moves.len()),
            Agent::Greedy => self.greedy(pos, moves, rng),
            Agent::Search => self.best_move(pos, moves, rng),
        }
    }

    fn dead_run(&self) -> Option<(u32, &'static str)> {
        Some(if self.two_sides {
            (DEAD_PLIES, "1/2-1/2")
        } else {
            (DEAD_ROUNDS * self.seats, "*")
        })
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::play_seeded;
    use game::{Game, Notation};

    fn tama() -> Generic<tama::Tama> {
        Generic::new(&tama::INFO, tama::Tama::default())
    }

    /// The generic agents over Tama: the index chosen, as the move written.
    fn chosen(fen: &str, agent: Agent, depth: u32, seed: u64) -> String {
        let rules = tama::Tama::default();
        let pos = rules.parse_position(fen).expect("position");
        let mut mover = GenericMover {
            rules: &rules,
            depth,
            two_sides: true,
            seats: 2,
        };
        let mut moves = Vec::new();
        mover.legal_moves(&pos, &mut moves);
        let i = mover.choose(agent, &pos, &moves, 20, &mut Rng::new(seed));
        rules.write_move(&pos, &moves[i], Notation::default())
    }

    #[test]
    fn greedy_and_search_do_not_hang_a_man() {
        // White to move: e4-e5 lets the black man on e6 take it; every other move is safe.
        for seed in 0..20 {
            assert_ne!(chosen("W:Wa2,e4:Be6,h7", Agent::Greedy, 0, seed), "e4-e5");
            for depth in [2, 3] {
                let m = chosen("W:Wa2,e4:Be6,h7", Agent::Search, depth, seed);
                assert_ne!(m, "e4-e5", "depth {depth}");
            }
        }
        let hangs = (0..40)
            .filter(|&seed| chosen("W:Wa2,e4:Be6,h7", Agent::Random, 0, seed) == "e4-e5")
            .count();
        assert!(hangs > 0, "random never played e4-e5");
    }

    #[test]
    fn greedy_and_search_take_an_immediate_win() {
        // Odnocvetnie Shashki through the generic agents: wherever a move leaves the next
        // seat without a move (a win for the mover) and another does not, greedy and search
        // must play a winning one.
        let rules = odnocvetnie::Odnocvetnie::default();
        let mut rng = Rng::new(5);
        let mut found = 0;
        for _game in 0..40 {
            let mut pos = rules.start_position(&|_| None).expect("start");
            for _ply in 0..400 {
                let moves = Explore::legal_moves(&rules, &pos, &[]).expect("moves");
                if moves.is_empty() {
                    break;
                }
                let wins = |i: usize| {
                    let mut next = pos;
                    rules.play(&mut next, &moves[i]);
                    rules.terminal(&next).is_some()
                };
                if (0..moves.len()).any(wins) && (0..moves.len()).any(|i| !wins(i)) {
                    found += 1;
                    for (agent, depth) in
                        [(Agent::Greedy, 0), (Agent::Search, 1), (Agent::Search, 3)]
                    {
                        let mut mover = GenericMover {
                            rules: &rules,
                            depth,
                            two_sides: false,
                            seats: 4,
                        };
                        let i = mover.choose(agent, &pos, &moves, 0, &mut rng);
                        assert!(wins(i), "{agent:?} depth {depth} missed the win");
                    }
                }
                let i = rng.index(moves.len());
                rules.play(&mut pos, &moves[i]);
            }
        }
        assert!(found >= 3, "only {found} positions with a winning move");
    }

    #[test]
    fn search_beats_random_and_greedy_beats_random() {
        let player = tama();
        let mut wins = [0; 2];
        for seed in 0..6 {
            for (k, agent) in [Agent::Search, Agent::Greedy].into_iter().enumerate() {
                let agents = [agent, Agent::Random, Agent::Random, Agent::Random];
                let played = play_seeded(&player, agents, 300, 2, seed);
                wins[k] += u32::from(played.result == "1-0");
            }
        }
        assert!(wins[0] >= 5, "search won {} of 6 against random", wins[0]);
        assert!(wins[1] >= 4, "greedy won {} of 6 against random", wins[1]);
    }

    #[test]
    fn games_of_chance_and_unplayable_rules_are_refused() {
        let thaayam = Generic::new(&thaayam::INFO, thaayam::Thaayam::default());
        let e = thaayam.check().unwrap_err();
        assert!(e.contains("Thaayam") && e.contains("chance"), "{e}");
        assert!(tama().check().is_ok());
        assert_eq!(tama().players(), 2..=2);
        assert_eq!(tama().default_max_plies(), 300);
        let four = Generic::new(&odnocvetnie::INFO, odnocvetnie::Odnocvetnie::default());
        assert_eq!(four.players(), 4..=4);
        assert_eq!(four.default_max_plies(), 400);
    }

    #[test]
    fn quiet_king_moves_are_told_from_man_moves_and_captures() {
        let rules = tama::Tama::default();
        // White: a king on a1 and a man on h2; Black: a man on d8 (out of reach).
        let pos = rules.parse_position("W:WKa1,h2:Bd8").expect("position");
        let mover = GenericMover {
            rules: &rules,
            depth: 1,
            two_sides: true,
            seats: 2,
        };
        let moves = Explore::legal_moves(&rules, &pos, &[]).expect("moves");
        let (mut king, mut man) = (0, 0);
        for mv in &moves {
            let text = rules.write_move(&pos, mv, Notation::default());
            if mover.quiet_king_move(&pos, mv) {
                assert!(text.starts_with("a1"), "{text}");
                king += 1;
            } else {
                assert!(text.starts_with("h2"), "{text}");
                man += 1;
            }
        }
        assert!(king > 0 && man > 0, "{king} king moves, {man} man moves");
        // A king capture is not quiet.
        let pos = rules.parse_position("W:WKa1:Ba4").expect("position");
        let moves = Explore::legal_moves(&rules, &pos, &[]).expect("moves");
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|mv| !mover.quiet_king_move(&pos, mv)));
        assert_eq!(mover.dead_run(), Some((DEAD_PLIES, "1/2-1/2")));
    }

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
