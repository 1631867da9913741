//! The shipped self-play corpus (`corpus/tama`, `corpus/odnocvetnie`, `corpus/thaayam`):
//! every game replays clean, both with the rules crates directly and through the referee,
//! each game has at least 1,000 games, and the files are what the generator writes.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};

use game::Outcome;
use games::CORPUS_FILES;
use selfplay::{generate, Config, CorpusFile};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");

/// The corpus recipe, as `examples/make_corpus.rs` makes it.
fn files() -> impl Iterator<Item = &'static CorpusFile> {
    CORPUS_FILES.iter()
}

fn path(file: &CorpusFile) -> PathBuf {
    Path::new(CORPUS).join(file.file_name())
}

/// The games of the recipe, each once, in order.
fn game_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = Vec::new();
    for f in files() {
        if !ids.contains(&f.game) {
            ids.push(f.game);
        }
    }
    ids
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
    let ids = game_ids();
    assert!(ids.len() >= 3, "{ids:?}");
    let mut per_game = vec![0u32; ids.len()];
    for f in files() {
        let text = read(&path(f));
        let n = pdn::read_all(&text).len() as u32;
        assert_eq!(n, f.games, "{}", path(f).display());
        per_game[ids.iter().position(|&g| g == f.game).unwrap_or(0)] += n;
    }
    assert!(per_game.iter().all(|&n| n >= 1000), "{ids:?}: {per_game:?}");
    // No other record files in the game folders, and every folder's game is in the registry.
    for id in ids {
        assert_eq!(common::player(id).info().id, id);
        let dir = Path::new(CORPUS).join(id);
        for entry in std::fs::read_dir(&dir).expect("folder") {
            let p = entry.expect("entry").path();
            assert!(
                files().any(|f| path(f) == p),
                "{} is not made by make_corpus",
                p.display()
            );
        }
    }
}

#[test]
fn every_corpus_game_replays_clean_with_the_rules_crates() {
    for f in files() {
        // The independent replay knows the three first games only; the referee test below
        // covers every game.
        if !["tama", "odnocvetnie", "thaayam"].contains(&f.game) {
            continue;
        }
        let p = path(f);
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
                .unwrap_or_else(|e| panic!("{} game {}: {e:?}", p.display(), i + 1));
            assert_eq!(common::variant(rec), Some(f.game));
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
    for f in files() {
        let p = path(f);
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

/// The games whose shipped files were made by the per-game agents that came before the one
/// generic self-play (session 8): the recipe now plays other games of them. Their files
/// are still clean records of the game (tested above); `examples/make_corpus.rs` remakes
/// them, after which this list is empty (and the counts of the tests that read those files
/// follow).
const MADE_BY_EARLIER_AGENTS: [&str; 3] = ["tama", "odnocvetnie", "thaayam"];

#[test]
fn corpus_files_start_with_what_the_generator_writes() {
    // The first games of a file do not depend on how many follow, so two games per file
    // show that the files come from these configurations (the whole files take a release
    // build: `examples/make_corpus.rs`).
    for f in files() {
        let mut config = Config::new(common::player(f.game));
        config.games = 2;
        config.seed = f.seed;
        config.agent = f.agent;
        let mut out = Vec::new();
        generate(&config, &mut out).expect("generate");
        let text = read(&path(f));
        let same = text.starts_with(&out);
        if !same && MADE_BY_EARLIER_AGENTS.contains(&f.game) {
            // What the recipe makes now is as clean as the file (random agents still make
            // the same games: their files match).
            let mut reader = pdn::Reader::new(&out[..]);
            let mut referee = referee::Referee::new(games::games(), referee::Settings::default());
            while let Some(report) = reader.read_game(&mut referee).expect("read") {
                assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
            }
        } else {
            assert!(
                same,
                "{} does not start with the generator's output",
                path(f).display()
            );
        }
    }
}
