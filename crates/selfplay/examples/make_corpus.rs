//! Regenerates the self-play part of the shipped corpus: `corpus/tama/`,
//! `corpus/odnocvetnie/` and `corpus/thaayam/`.
//!
//! ```text
//! cargo run --release -p selfplay --example make_corpus -- corpus
//! ```
//!
//! Every file is one [`selfplay::generate`] call with the default event, ply caps and search
//! depths, so each is also what `arbiter selfplay --game G --games N --seed S [--agent A]`
//! writes (the list is in `corpus/README.md`). Thaayam files are gzip-compressed to keep the
//! corpus small; their content is identical to the plain output.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use flate2::{Compression, GzBuilder};
use selfplay::{generate, Agent, Config, GameChoice, Summary};

/// One corpus file: game, agent (`None` = the mix), number of games, seed.
/// The corpus recipe as (game, agent, games, seed).
fn files() -> impl Iterator<Item = (GameChoice, Option<Agent>, u32, u64)> {
    selfplay::CORPUS_FILES
        .iter()
        .map(|f| (f.game, f.agent, f.games, f.seed))
}

fn file_name(game: GameChoice, agent: Option<Agent>) -> String {
    selfplay::CorpusFile {
        game,
        agent,
        games: 0,
        seed: 0,
    }
    .file_name()
}

fn make(
    root: &Path,
    game: GameChoice,
    agent: Option<Agent>,
    games: u32,
    seed: u64,
) -> std::io::Result<(PathBuf, Summary, f64)> {
    let start = Instant::now();
    let mut config = Config::new(game);
    config.games = games;
    config.seed = seed;
    config.agent = agent;
    let mut text = Vec::new();
    let summary = generate(&config, &mut text)?;
    let path = root.join(file_name(game, agent));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if game == GameChoice::Thaayam {
        let file = std::fs::File::create(&path)?;
        let mut gz = GzBuilder::new().mtime(0).write(file, Compression::best());
        gz.write_all(&text)?;
        gz.finish()?.sync_all()?;
    } else {
        std::fs::write(&path, &text)?;
    }
    Ok((path, summary, start.elapsed().as_secs_f64()))
}

fn main() {
    let root = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "corpus".to_string()),
    );
    let start = Instant::now();
    // One thread per file: each file depends only on its own configuration.
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = files()
            .map(|(game, agent, games, seed)| {
                let root = &root;
                s.spawn(move || make(root, game, agent, games, seed))
            })
            .collect();
        handles.into_iter().map(|h| h.join()).collect()
    });
    let mut failed = false;
    for r in results {
        match r {
            Ok(Ok((path, s, secs))) => {
                let on_disk = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                println!(
                    "{}: {} games, {} plies ({}-{}), {} ended by rule, {} agreed draws, {} bytes ({} on disk), {secs:.1}s",
                    path.display(),
                    s.games,
                    s.plies,
                    s.shortest,
                    s.longest,
                    s.ended_by_rule,
                    s.agreed_draws,
                    s.bytes,
                    on_disk
                );
            }
            Ok(Err(e)) => {
                eprintln!("error: {e}");
                failed = true;
            }
            Err(_) => {
                eprintln!("error: a generator thread panicked");
                failed = true;
            }
        }
    }
    println!("total {:.1}s", start.elapsed().as_secs_f64());
    if failed {
        std::process::exit(1);
    }
}
