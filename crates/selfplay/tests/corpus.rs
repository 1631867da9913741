//! The shipped self-play corpus (`corpus/tama`, `corpus/odnocvetnie`, `corpus/thaayam`):
//! every game replays clean, both with the rules crates directly and through the referee,
//! each game has at least 1,000 games, and the files are what the generator writes.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};

use game::Outcome;
use selfplay::{generate, Agent, Config, GameChoice};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");

/// The corpus files as `examples/make_corpus.rs` makes them: game, agent, games, seed.
/// The corpus recipe as (game, agent, games, seed).
fn files() -> impl Iterator<Item = (GameChoice, Option<Agent>, u32, u64)> {
    selfplay::CORPUS_FILES
        .iter()
        .map(|f| (f.game, f.agent, f.games, f.seed))
}

fn path(game: GameChoice, agent: Option<Agent>) -> PathBuf {
    let file = selfplay::CorpusFile {
        game,
        agent,
        games: 0,
        seed: 0,
    };
    Path::new(CORPUS).join(file.file_name())
}

fn read(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .expect("gzip");
        out
    } else {
        raw
    }
}

#[test]
fn corpus_files_are_listed_and_hold_enough_games() {
    let mut per_game = [0u32; 3];
    for (game, agent, games, _) in files() {
        let text = read(&path(game, agent));
        let n = pdn::read_all(&text).len() as u32;
        assert_eq!(n, games, "{}", path(game, agent).display());
        per_game[GameChoice::ALL.iter().position(|&g| g == game).unwrap_or(0)] += n;
    }
    assert!(per_game.iter().all(|&n| n >= 1000), "{per_game:?}");
    // No other record files in the game folders.
    for game in GameChoice::ALL {
        let dir = Path::new(CORPUS).join(game.name());
        for entry in std::fs::read_dir(&dir).expect("folder") {
            let p = entry.expect("entry").path();
            assert!(
                files().any(|(g, a, _, _)| path(g, a) == p),
                "{} is not made by make_corpus",
                p.display()
            );
        }
    }
}

#[test]
fn every_corpus_game_replays_clean_with_the_rules_crates() {
    for (game, agent, _, _) in files() {
        let p = path(game, agent);
        let text = read(&p);
        let (mut by_rule, mut open) = (0, 0);
        for (i, rec) in pdn::read_all(&text).iter().enumerate() {
            assert!(
                rec.problems.is_empty(),
                "{} game {i}: {:?}",
                p.display(),
                rec.problems
            );
            let r = common::check(rec)
                .unwrap_or_else(|f| panic!("{} game {}: {f:?}", p.display(), i + 1));
            assert_eq!(common::variant(rec), Some(game.name()));
            match r.terminal {
                Some(t) => {
                    assert_eq!(r.recorded, Some(t));
                    by_rule += 1;
                }
                None => {
                    assert!(matches!(
                        r.recorded,
                        Some(Outcome::Unfinished | Outcome::Draw)
                    ));
                    open += 1;
                }
            }
        }
        eprintln!("{}: {by_rule} ended by rule, {open} not", p.display());
    }
}

#[test]
fn the_referee_finds_nothing_in_the_corpus() {
    for (game, agent, _, _) in files() {
        let p = path(game, agent);
        let text = read(&p);
        let mut reader = pdn::Reader::new(&text[..]);
        let mut referee = referee::Referee::new(games::games(), referee::Settings::default());
        let mut n = 0;
        while let Some(report) = reader.read_game(&mut referee).expect("read") {
            n += 1;
            assert!(
                report.diagnostics.is_empty(),
                "{} game {n}: {:?}",
                p.display(),
                report.diagnostics
            );
            assert_eq!(report.plies, report.plies_written);
            if let Some(t) = report.terminal {
                assert_eq!(report.recorded, Some(t));
            }
        }
        assert!(n > 0);
    }
}

#[test]
fn corpus_files_start_with_what_the_generator_writes() {
    // The first games of a file do not depend on how many follow, so two games per file
    // show that the files come from these configurations (the whole files take a release
    // build: `examples/make_corpus.rs`).
    for (game, agent, _, seed) in files() {
        let mut config = Config::new(game);
        config.games = 2;
        config.seed = seed;
        config.agent = agent;
        let mut out = Vec::new();
        generate(&config, &mut out).expect("generate");
        let text = read(&path(game, agent));
        assert!(
            text.starts_with(&out),
            "{} does not start with the generator's output",
            path(game, agent).display()
        );
    }
}
