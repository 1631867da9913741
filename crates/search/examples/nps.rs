//! Search speed: nodes per second of a full search (evaluation and quiescence) on positions
//! of self-played games, one thread, for several draughts variants.
//!
//! cargo run --release -p search --example nps [NODES] [VARIANT,...]

use std::time::Instant;

use game::Engine;
use search::{Limits, Search};

fn main() {
    let nodes: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    println!(
        "variant        positions   nodes/s (wall)   nodes/s (CPU)   mean depth   (search of {nodes} nodes each, one thread)"
    );
    let all = "international,english,russian,brazilian,frisian,italian".to_string();
    let ids = std::env::args().nth(2).unwrap_or(all);
    for id in ids.split(',') {
        let g = draughts::Draughts::new(draughts::Variant::by_id(id).unwrap());
        let positions = positions(&g, 12);
        let mut total = 0u64;
        let mut depths = 0u32;
        let started = Instant::now();
        let cpu = cpu_seconds();
        for pos in &positions {
            let mut search = Search::new(&g, 16);
            let found = search.best(pos, &Limits::nodes(nodes));
            total += found.nodes;
            depths += found.depth;
        }
        let secs = started.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - cpu;
        println!(
            "{id:14} {:9} {:16.0} {:15.0} {:12.1}",
            positions.len(),
            total as f64 / secs,
            total as f64 / cpu,
            f64::from(depths) / positions.len() as f64
        );
    }
}

/// CPU time of this thread (user and system), from /proc (Linux; 0 elsewhere), so that the
/// figure means something on a loaded machine too.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses): utime is the 12th, stime the
    // 13th, in clock ticks of 1/100 s.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
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
