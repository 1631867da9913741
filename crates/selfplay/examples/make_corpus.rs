//! Regenerates the self-play part of the shipped corpus: one folder per game of
//! [`games::CORPUS_FILES`] (`corpus/tama/`, `corpus/odnocvetnie/`, `corpus/thaayam/`).
//!
//! ```text
//! cargo run --release -p selfplay --example make_corpus -- corpus
//! ```
//!
//! Every file is one [`selfplay::generate`] call with the default event, ply caps and search
//! depths, so each is also what `arbiter selfplay --game G --games N --seed S [--agent A]`
//! writes (the list is in `corpus/README.md`). Files marked `gzip` (Thaayam's) are
//! compressed to keep the corpus small; their content is identical to the plain output.
//!
//! With more arguments, only the files of those games are made:
//! `make_corpus -- corpus international english`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use flate2::{Compression, GzBuilder};
use selfplay::{generate, Config, CorpusFile, Summary};

fn make(root: &Path, file: &CorpusFile) -> std::io::Result<(PathBuf, Summary, f64)> {
    let start = Instant::now();
    let registry = games::games();
    let entry = registry
        .registry()
        .by_name(file.game)
        .and_then(|info| registry.entry(info))
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} is not a game of the registry", file.game),
            )
        })?;
    let mut config = Config::new(entry.player());
    config.games = file.games;
    config.seed = file.seed;
    config.agent = file.agent;
    let mut text = Vec::new();
    let summary = generate(&config, &mut text)?;
    let path = root.join(file.file_name());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if file.gzip {
        let out = std::fs::File::create(&path)?;
        let mut gz = GzBuilder::new().mtime(0).write(out, Compression::best());
        gz.write_all(&text)?;
        gz.finish()?.sync_all()?;
    } else {
        std::fs::write(&path, &text)?;
    }
    Ok((path, summary, start.elapsed().as_secs_f64()))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = PathBuf::from(args.first().map_or("corpus", String::as_str));
    let only = &args[args.len().min(1)..];
    let start = Instant::now();
    // One thread per file: each file depends only on its own configuration.
    let results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = games::CORPUS_FILES
            .iter()
            .filter(|f| only.is_empty() || only.iter().any(|g| g == f.game))
            .map(|file| {
                let root = &root;
                s.spawn(move || make(root, file))
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
