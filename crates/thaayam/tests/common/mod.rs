//! Helpers shared by the integration tests.
#![allow(dead_code)]

use game::{Game, Problem};
use thaayam::{split_tokens, Position, Thaayam, Turn};

/// The default rules.
pub fn game() -> Thaayam {
    Thaayam::default()
}

/// Reads a position string or panics with the reason (test data only).
pub fn pos(g: &Thaayam, text: &str) -> Position {
    match g.parse_position(text) {
        Ok(p) => p,
        Err(e) => panic!("bad test position {text}: {}", e.message),
    }
}

/// Resolves one turn written as text.
pub fn resolve(g: &Thaayam, p: &Position, text: &str) -> Result<Turn, Problem> {
    let toks = split_tokens(text);
    let bytes: Vec<&[u8]> = toks.iter().map(|t| t.as_bytes()).collect();
    g.resolve(p, &bytes)
}

/// Plays one turn written as text from a position string; the position string after it.
pub fn after(g: &Thaayam, start: &str, text: &str) -> Result<String, Problem> {
    let mut p = pos(g, start);
    let t = resolve(g, &p, text)?;
    g.play(&mut p, &t);
    Ok(g.write_position(&p))
}

/// The problem a turn raises (panics if the turn is legal).
pub fn problem(g: &Thaayam, start: &str, text: &str) -> Problem {
    let p = pos(g, start);
    match resolve(g, &p, text) {
        Ok(t) => panic!("{text} from {start} was accepted: {t:?}"),
        Err(e) => e,
    }
}

/// A small seeded generator (splitmix64) for random games.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One random game: every turn as (position before, turn, notation). Stops at the end of the
/// game or after `max_turns` turns.
pub fn random_game(
    g: &Thaayam,
    start: &Position,
    seed: u64,
    max_turns: usize,
) -> Vec<(Position, Turn)> {
    let mut rng = Rng(seed);
    let mut pos = start.clone();
    let mut out = Vec::new();
    while out.len() < max_turns && g.terminal(&pos).is_none() {
        let before = pos.clone();
        let seat = pos.to_move();
        let mut turn = Turn {
            seat,
            series: Default::default(),
        };
        loop {
            let throws = thaayam::throw_series(|| rng.next() as u32);
            let plays = g.plays(&pos, throws.as_slice()).expect("plays");
            assert!(!plays.is_empty(), "no play from {}", g.write_position(&pos));
            let pick = plays[rng.below(plays.len())].clone();
            turn.series.push(pick.series);
            pos = pick.after;
            if pos.to_move() != seat || g.terminal(&pos).is_some() {
                break;
            }
        }
        out.push((before, turn));
    }
    out
}
