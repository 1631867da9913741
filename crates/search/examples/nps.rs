//! Search speed: nodes per second of a full search (evaluation and quiescence) on positions
//! of self-played games, one thread, for several draughts variants.
//!
//! cargo run --release -p search --example nps [NODES]

use std::time::Instant;

use game::Engine;
use search::{Limits, Search};

fn main() {
    let nodes: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    println!("variant        positions   nodes/s   (search of {nodes} nodes each, one thread)");
    for id in [
        "international",
        "english",
        "russian",
        "brazilian",
        "frisian",
        "italian",
    ] {
        let g = draughts::Draughts::new(draughts::Variant::by_id(id).unwrap());
        let positions = positions(&g, 12);
        let mut total = 0u64;
        let started = Instant::now();
        for pos in &positions {
            let mut search = Search::new(&g, 16);
            total += search.best(pos, &Limits::nodes(nodes)).nodes;
        }
        let secs = started.elapsed().as_secs_f64();
        println!("{id:14} {:9} {:9.0}", positions.len(), total as f64 / secs);
    }
}

/// Positions every few plies along seeded random games.
fn positions(g: &draughts::Draughts, count: usize) -> Vec<draughts::Position> {
    let mut out = Vec::new();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = g.start();
        for ply in 0..60 {
            if game::Game::terminal(g, &pos).is_some() {
                break;
            }
            g.moves_into(&pos, &[], &mut moves);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves[(seed % moves.len() as u64) as usize];
            game::Game::play(g, &mut pos, &mv);
            if ply % 10 == 9 && out.len() < count {
                out.push(pos);
            }
        }
    }
    out
}
