//! Validation throughput: replays the International archives of /work/shared/corpora/real
//! `N` times (resolve + play of every recorded move) and prints plies per second.
//! `cargo run --release -p draughts --example validate -- [N]`
use game::Game;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/corpora/real/international"
    );
    let d = draughts::Draughts::new(&draughts::INTERNATIONAL);
    let mut games: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for e in std::fs::read_dir(dir).expect("corpus present") {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        for rec in pdn::read_all(&bytes) {
            let tokens = rec
                .movetext
                .iter()
                .filter_map(|n| match n {
                    pdn::Node::Move(m) => Some(m.token.clone()),
                    _ => None,
                })
                .collect();
            games.push((rec.tag("FEN").map(str::to_string), tokens));
        }
    }
    let t = std::time::Instant::now();
    let mut plies = 0u64;
    for _ in 0..n {
        for (fen, tokens) in &games {
            let mut pos = match fen {
                Some(f) => match d.parse_position(f) {
                    Ok(p) => p,
                    Err(_) => continue,
                },
                None => d.start(),
            };
            for tok in tokens {
                match d.resolve(&pos, &[tok.as_bytes()]) {
                    Ok(mv) => {
                        d.play(&mut pos, &mv);
                        plies += 1;
                    }
                    Err(_) => break,
                }
            }
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{plies} plies in {s:.3}s: {:.2} M plies/s",
        plies as f64 / s / 1e6
    );
}
