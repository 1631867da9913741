//! Generates games with the library, for trying settings out:
//! `cargo run --release -p selfplay --example gen -- GAME GAMES SEED [AGENT] [PLAYERS] [DEPTH]`
//! writes the PDN to standard output and a summary to standard error.

use selfplay::{generate, Agent, Config};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let registry = games::games();
    let Some(info) = args.first().and_then(|g| registry.registry().by_name(g)) else {
        eprintln!(
            "usage: gen GAME GAMES SEED [random|greedy|search|mix] [PLAYERS] [DEPTH]\nGAME: {}",
            registry.registry().id_list()
        );
        std::process::exit(2);
    };
    let Some(entry) = registry.entry(info) else {
        eprintln!("{} has no registry entry", info.label);
        std::process::exit(2);
    };
    let mut config = Config::new(entry.player());
    config.games = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    config.seed = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    config.agent = args.get(3).and_then(|s| Agent::from_name(s));
    config.players = args.get(4).and_then(|s| s.parse().ok()).filter(|&p| p != 0);
    config.search_depth = args.get(5).and_then(|s| s.parse().ok());
    let start = std::time::Instant::now();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match generate(&config, &mut out) {
        Ok(s) => eprintln!("{s:?} in {:.2?}", start.elapsed()),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
