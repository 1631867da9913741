//! Plays one random game with seeded throws and random legal plays, and prints it as PDN
//! movetext. Usage: `cargo run -p thaayam --example selfplay -- [seed] [seats]`, e.g.
//! `-- 7 "S W N E"`.

use game::Game;
use thaayam::{throw_series, Thaayam, Turn};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let seats = args.next().unwrap_or_else(|| "S N".to_string());
    let g = Thaayam::default();
    let tags = |name: &str| (name == "Seats").then(|| seats.clone());
    let mut pos = match g.start_position(&tags) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}", e.message);
            std::process::exit(2);
        }
    };
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    println!("[Variant \"Thaayam\"]\n[Seats \"{seats}\"]");
    let mut movetext = String::new();
    let mut round = 0;
    let first = pos.to_move();
    while g.terminal(&pos).is_none() && round < 2000 {
        let seat = pos.to_move();
        if seat == first {
            round += 1;
            movetext.push_str(&format!("{round}. "));
        }
        let before = pos.clone();
        let mut turn = Turn {
            seat,
            series: Default::default(),
        };
        loop {
            let throws = throw_series(|| next() as u32);
            let plays = match g.plays(&pos, throws.as_slice()) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("{}", e.message);
                    std::process::exit(1);
                }
            };
            let pick = plays[(next() % plays.len() as u64) as usize].clone();
            turn.series.push(pick.series);
            pos = pick.after;
            if pos.to_move() != seat || g.terminal(&pos).is_some() {
                break;
            }
        }
        movetext.push_str(&g.write_turn(&before, &turn, false));
        movetext.push_str("  ");
    }
    let result = g
        .terminal(&pos)
        .map_or("*".to_string(), |o| g.write_result(o));
    println!("[Result \"{result}\"]\n\n{movetext}{result}");
    eprintln!("final position: {}", g.write_position(&pos));
}
