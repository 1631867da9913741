//! Thaayam self-play: seeded throws, the three agents, the seating and the game loop (its
//! own: a turn is one or more series of throws).
//!
//! Every series is thrown with fair shells (`thaayam::throw_series`, which gives 1, 2, 3, 4
//! and 8 with chances 4, 6, 4, 1 and 1 in 16), and the agents choose among the legal plays
//! of that series as `Thaayam::plays` lists them (rule 17 already applied):
//!
//! - `random`: any play, uniformly;
//! - `greedy`: the play with the best race progress — the mover's pieces' progress along
//!   the route (borne off and the keep count most) minus that of every opponent (so sending
//!   pieces home counts), plus a bonus per capturing move for the extra series it earns;
//! - `search` (no tree search: the dice make that expensive for little gain) adds safety to
//!   `greedy`: each own unit standing on an unmarked square within reach of an enemy unit
//!   that could capture it costs its progress, weighted by how likely a single series is to
//!   cover that distance.

use std::ops::RangeInclusive;

use game::{Game, GameInfo, Seat};
use thaayam::{route_index, route_square, throw_series, Play, Position, Square, Thaayam, Turn};

use crate::names::Names;
use crate::player::{Played, Player, Table};
use crate::rng::Rng;
use crate::{pick_best, Agent};

/// Progress of a piece in the keep, and of one borne off.
const KEEP_PROGRESS: i32 = 27;
const OFF_PROGRESS: i32 = 30;
/// Worth of one extra series.
const EXTRA_SERIES: i32 = 10;
/// Chance (in 1/100) that one series of an enemy covers a distance of 1 to 12 squares
/// (rough figures for fair shells; any throw sum can be used whole).
const REACH: [i32; 13] = [0, 30, 45, 35, 20, 25, 15, 10, 8, 6, 5, 4, 3];

/// Progress of `seat` in `pos`: route index + 1 per piece on the route (twins count two
/// pieces), more for the keep and borne-off pieces.
fn progress(pos: &Position, seat: u8) -> i32 {
    let mut p = 0i32;
    for i in 0..24u8 {
        let sq = route_square(seat, i);
        let n = i32::from(pos.singles_at(seat, sq)) + 2 * i32::from(pos.twins_at(seat, sq));
        p += n * (i32::from(i) + 1);
    }
    p + i32::from(pos.keep(seat)) * KEEP_PROGRESS + i32::from(pos.off(seat)) * OFF_PROGRESS
}

/// Race score of `seat`: own progress against every opponent's.
fn race(pos: &Position, seat: u8) -> i32 {
    let mut score = progress(pos, seat) * 3;
    for other in pos.seats().filter(|&s| s != seat) {
        score -= progress(pos, other);
    }
    score
}

/// Expected loss of progress from enemy captures next round (in 1/100 of progress units).
fn danger(pos: &Position, seat: u8) -> i32 {
    let mut total = 0;
    for i in 0..24u8 {
        let sq = route_square(seat, i);
        if sq.is_marked() {
            continue;
        }
        let singles = i32::from(pos.singles_at(seat, sq));
        let twins = i32::from(pos.twins_at(seat, sq));
        if singles == 0 && twins == 0 {
            continue;
        }
        let value = i32::from(i) + 1;
        let mut risk_single = 0;
        let mut risk_twin = 0;
        for enemy in pos.seats().filter(|&s| s != seat) {
            let target = route_index(enemy, sq);
            for j in 0..target {
                let from: Square = route_square(enemy, j);
                let d = usize::from(target - j);
                let e_singles = i32::from(pos.singles_at(enemy, from));
                let e_twins = i32::from(pos.twins_at(enemy, from));
                if d < REACH.len() {
                    // A single captures singles; a twin captures both (and moves half).
                    risk_single += REACH[d] * (e_singles.min(1) + e_twins.min(1));
                }
                if 2 * d < REACH.len() {
                    risk_twin += REACH[2 * d] * e_twins.min(1);
                }
            }
        }
        total += singles * value * risk_single.min(100) + 2 * twins * value * risk_twin.min(100);
    }
    total * 3 / 100
}

fn choose(agent: Agent, plays: &[Play], seat: u8, rng: &mut Rng) -> usize {
    match agent {
        Agent::Random => rng.index(plays.len()),
        Agent::Greedy | Agent::Search => {
            let scores: Vec<i32> = plays
                .iter()
                .map(|p| {
                    let mut s = race(&p.after, seat) + EXTRA_SERIES * i32::from(p.captures);
                    if agent == Agent::Search {
                        s -= danger(&p.after, seat);
                    }
                    s
                })
                .collect();
            pick_best(&scores, rng)
        }
    }
}

/// Thaayam's self-play: two, three or four players (a mix of the three when the number is
/// not given; two sit South and North, three leave out a random seat), a random first seat,
/// real seeded throws and the agents above; one move number per round.
#[derive(Debug, Clone, Copy, Default)]
pub struct ThaayamPlayer;

impl Player for ThaayamPlayer {
    fn info(&self) -> &'static GameInfo {
        &thaayam::INFO
    }

    fn players(&self) -> RangeInclusive<u8> {
        2..=4
    }

    /// 1000 turns.
    fn default_max_plies(&self) -> u32 {
        1000
    }

    /// 0: the search agent does not search a tree.
    fn default_search_depth(&self) -> u32 {
        0
    }

    fn names(&self) -> Names {
        Names::Tamil
    }

    fn play(&self, table: &mut Table<'_>) -> Played {
        let n = table
            .players
            .unwrap_or_else(|| 2 + table.setup.below(3) as u8);
        let seats: Vec<u8> = match n {
            2 => vec![0, 2],
            3 => {
                let left_out = table.setup.below(4) as u8;
                (0..4).filter(|&s| s != left_out).collect()
            }
            _ => vec![0, 1, 2, 3],
        };
        let first_at = table.setup.index(seats.len());
        let letters: Vec<String> = seats
            .iter()
            .map(|&s| thaayam::seat_letter(s).to_string())
            .collect();
        let mut seat_tags = vec![("Seats", letters.join(" "))];
        if first_at != 0 {
            seat_tags.push(("First", letters[first_at].clone()));
        }
        let names = table.pick_players(seats.len());
        let players = seats.iter().map(|&s| Seat(s)).zip(names).collect();
        let mut order = seats;
        order.rotate_left(first_at);
        let mut dice = table.setup.fork();
        let mut played = play_turns(
            &order,
            table.agents,
            table.max_plies,
            &mut dice,
            &mut table.moves,
        );
        played.seat_tags = seat_tags;
        played.players = players;
        played
    }
}

/// Plays one game. `seats` lists the seats in turn order, the first to move first;
/// `agents` is indexed by seat. `dice` throws the shells, `rng` makes the agents' choices.
/// The result has no players or seat tags.
fn play_turns(
    seats: &[u8],
    agents: [Agent; 4],
    max_turns: u32,
    dice: &mut Rng,
    rng: &mut Rng,
) -> Played {
    let mut rec = Played::default();
    let game = Thaayam::default();
    let Ok(mut pos) = game.start(seats) else {
        rec.result = "*".to_string();
        return rec;
    };
    let first = seats[0];
    let mut turns = 0u32;
    let mut round = 0u32;
    loop {
        if let Some(outcome) = game.terminal(&pos) {
            rec.result = game.write_result(outcome);
            rec.ended_by_rule = true;
            break;
        }
        if turns >= max_turns {
            rec.result = "*".to_string();
            break;
        }
        let seat = pos.to_move();
        let before = pos.clone();
        let mut turn = Turn {
            seat,
            series: Default::default(),
        };
        loop {
            let throws = throw_series(|| dice.next_u32());
            let plays = match game.plays(&pos, throws.as_slice()) {
                Ok(p) if !p.is_empty() => p,
                // Cannot happen for a position reached by legal play; stop cleanly if it does.
                _ => break,
            };
            let pick = choose(agents[usize::from(seat)], &plays, seat, rng);
            let play = plays.into_iter().nth(pick).expect("index in range");
            turn.series.push(play.series);
            pos = play.after;
            if pos.to_move() != seat || game.terminal(&pos).is_some() {
                break;
            }
        }
        if turn.series.is_empty() {
            rec.result = "*".to_string();
            break;
        }
        let text = game.write_move(&before, &turn, game::Notation::default());
        if seat == first {
            round += 1;
            rec.units.push(format!("{round}. {text}"));
        } else {
            rec.units.push(text);
        }
        turns += 1;
    }
    rec.plies = turns;
    rec
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wins of South over `games` two-player games, South playing `south`, North `north`,
    /// each side starting half of the games.
    fn south_wins(south: Agent, north: Agent, games: u64) -> u32 {
        let mut wins = 0;
        for seed in 0..games {
            let mut dice = Rng::new(seed);
            let mut rng = Rng::new(seed + 1000);
            let seats: &[u8] = if seed % 2 == 0 { &[0, 2] } else { &[2, 0] };
            let rec = play_turns(
                seats,
                [south, Agent::Random, north, Agent::Random],
                1000,
                &mut dice,
                &mut rng,
            );
            assert!(rec.ended_by_rule);
            wins += u32::from(rec.result == "S+");
        }
        wins
    }

    #[test]
    fn greedy_and_search_outrun_random() {
        let g = south_wins(Agent::Greedy, Agent::Random, 100);
        let s = south_wins(Agent::Search, Agent::Random, 100);
        eprintln!("greedy-random {g}/100, search-random {s}/100");
        assert!(g >= 58, "greedy won {g} of 100 against random");
        assert!(s >= 65, "search won {s} of 100 against random");
    }

    #[test]
    fn progress_counts_route_keep_and_off() {
        let game = Thaayam::default();
        let pos = game
            .parse_position("S:S=h1,c1,d4x2/N=h1,Td1,k1")
            .expect("position");
        // South: c1 is index 0 (1), d4 index 20 (21 each); North: twins on d1, North's
        // index 9 (10 per piece, two pieces), one in the keep.
        assert_eq!(progress(&pos, 0), 1 + 2 * 21);
        assert_eq!(progress(&pos, 2), 2 * 10 + KEEP_PROGRESS);
    }
}
