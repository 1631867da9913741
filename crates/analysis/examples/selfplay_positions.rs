//! Self-played games for fitting the evaluation's patterns (`scripts/tune-patterns`): the
//! engine plays itself at a fixed number of nodes a move, and every quiet position of each
//! game is written with the game's result. Deterministic: game `i` depends on `i` alone (its
//! opening of random moves is drawn from a generator seeded with `i`; the search runs under a
//! node limit with a fresh table), so the same arguments give the same file on any machine
//! and any number of threads.
//!
//! cargo run --release -p analysis --example selfplay_positions -- VARIANT GAMES NODES OUT
//!
//! GAMES is a count (games 0 to GAMES - 1) or a range `FROM..TO`, so that a long run can be
//! made in parts: the parts' files, joined in order, are the whole run's file.
//!
//! Each game opens with 4 to 9 random moves, then the engine plays both sides. It ends when
//! a side cannot move, when the search proves a win, or after 200 plies (a draw). Each
//! quiet position is one record (`common/record.rs`), its score within ±3000 (a proven win
//! or loss is ±3000).

mod common;

use std::io::Write;

use common::record::{self, RECORD};

use draughts::{Draughts, Position};
use game::{Engine, Game, Outcome};
use rayon::prelude::*;
use search::{Limits, Search};

/// Plies after which a game is called a draw.
const MAX_PLIES: usize = 200;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [id, games, nodes, out] = args.as_slice() else {
        eprintln!("usage: selfplay_positions VARIANT GAMES NODES OUT");
        std::process::exit(2);
    };
    let variant = draughts::Variant::by_id(id).expect("a draughts variant");
    let g = Draughts::new(variant);
    let (from, games) = match games.split_once("..") {
        Some((a, b)) => (
            a.parse().expect("a first game"),
            b.parse().expect("a last game"),
        ),
        None => (0, games.parse().expect("a number of games")),
    };
    let nodes: u64 = nodes.parse().expect("a number of nodes");
    let tmp = format!("{out}.part");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp).expect("output"));
    let (mut written, mut results) = (0usize, [0usize; 3]);
    const BATCH: u64 = 256;
    for first in (from..games).step_by(BATCH as usize) {
        let last = (first + BATCH).min(games);
        let played: Vec<(Vec<u8>, i8)> = (first..last)
            .into_par_iter()
            .map(|i| play(&g, i, nodes))
            .collect();
        for (bytes, white) in played {
            written += bytes.len() / RECORD;
            results[(white + 1) as usize] += 1;
            file.write_all(&bytes).expect("written");
        }
        eprintln!(
            "{last}/{games} games, {written} positions (White wins {}, draws {}, Black wins {})",
            results[2], results[1], results[0]
        );
    }
    file.flush().expect("flushed");
    drop(file);
    std::fs::rename(&tmp, out).expect("renamed");
}

/// Plays game `i`; its records and the result from White's view.
fn play(g: &Draughts, i: u64, nodes: u64) -> (Vec<u8>, i8) {
    let mut rng = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let random_plies = 4 + (next() % 6) as usize;
    let mut search = Search::new(g, 4);
    let mut pos = g.start();
    let mut moves = Vec::new();
    let mut kept: Vec<(Position, i16)> = Vec::new();
    let mut white_result = 0i8;
    for ply in 0..MAX_PLIES {
        if let Some(outcome) = g.terminal(&pos) {
            white_result = white_view(outcome);
            break;
        }
        let mv = if ply < random_plies {
            g.moves_into(&pos, &[], &mut moves);
            moves[(next() % moves.len() as u64) as usize]
        } else {
            let found = search.best(&pos, &Limits::nodes(nodes));
            if !g.must_capture(&pos) && !g.threat(&pos) {
                kept.push((pos, found.score.clamp(-3000, 3000) as i16));
            }
            if found.is_decided() {
                let mover_wins = found.score > 0;
                let white_moves = pos.side == draughts::Color::White;
                white_result = if mover_wins == white_moves { 1 } else { -1 };
                break;
            }
            match found.best {
                Some((_, mv)) => mv,
                None => break,
            }
        };
        g.play(&mut pos, &mv);
    }
    let mut bytes = Vec::with_capacity(kept.len() * RECORD);
    for (p, score) in kept {
        let mine = if p.side == draughts::Color::Black {
            -white_result
        } else {
            white_result
        };
        record::write(&p, mine, score, &mut bytes);
    }
    (bytes, white_result)
}

fn white_view(outcome: Outcome) -> i8 {
    match outcome {
        Outcome::Win { winner, .. } if winner.0 == 0 => 1,
        Outcome::Win { .. } => -1,
        _ => 0,
    }
}
