//! Position keys against position strings, on every corpus: the shipped `corpus/` and the
//! shared corpora (`/work/shared/corpora`, skipped with a notice when absent). Within a game,
//! the map key → position string and the map position string → key must both be functions:
//! equal keys exactly when the positions are equal. The referee checks in debug builds that
//! the key updated ply by ply equals the key computed afresh; here the tables are read back.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use export::{PlyRow, Recorder};
use referee::Settings;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn pdn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            pdn_files(&p, out);
        } else if p.to_string_lossy().ends_with(".pdn") || p.to_string_lossy().ends_with(".pdn.gz")
        {
            out.push(p);
        }
    }
}

fn load(p: &Path) -> Vec<u8> {
    let raw = std::fs::read(p).unwrap();
    if p.extension().is_some_and(|x| x == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        raw
    }
}

/// Both directions of the key ↔ position string relation, per game.
#[derive(Default)]
struct Maps {
    by_key: HashMap<(String, u64), String>,
    by_fen: HashMap<(String, String), u64>,
    plies: u64,
    games: u64,
}

impl Maps {
    fn add(&mut self, game: &str, key: u64, fen: &str, place: &str) {
        let old = self.by_key.insert((game.to_string(), key), fen.to_string());
        if let Some(old) = old {
            assert_eq!(old, fen, "{place}: key {key:#018x} given to two positions");
        }
        let old = self.by_fen.insert((game.to_string(), fen.to_string()), key);
        if let Some(old) = old {
            assert_eq!(old, key, "{place}: position `{fen}` given two keys");
        }
        self.plies += 1;
    }

    fn check(&mut self, files: &[PathBuf]) {
        let settings = Settings {
            positions: true,
            ..Settings::default()
        };
        for f in files {
            let bytes = load(f);
            let mut reader = pdn::Reader::new(&bytes[..]);
            let mut recorder = Recorder::new(games::games(), settings.clone());
            while let Ok(Some(rec)) = reader.read_game(&mut recorder) {
                let Some(game) = rec.report.game else {
                    continue;
                };
                self.games += 1;
                let rows: Vec<PlyRow> = export::convert::ply_rows(&rec);
                for row in rows {
                    let place = format!("{} at {} ply {}", f.display(), rec.offset, row.ply);
                    let fen = row.fen_after.as_deref().expect("positions asked for");
                    self.add(game.id, row.position_key, fen, &place);
                }
            }
        }
    }
}

#[test]
fn keys_and_position_strings_determine_each_other_on_the_shipped_corpus() {
    let mut files = Vec::new();
    pdn_files(&Path::new(ROOT).join("corpus"), &mut files);
    files.sort();
    let mut maps = Maps::default();
    maps.check(&files);
    // Every game of the corpus: draughts variants, Tama, Odnocvetnie, Thaayam.
    assert!(
        maps.games > 6000 && maps.plies > 500_000,
        "{} {}",
        maps.games,
        maps.plies
    );
    // Transpositions exist: fewer distinct positions than plies.
    assert!((maps.by_fen.len() as u64) < maps.plies);
    assert_eq!(maps.by_key.len(), maps.by_fen.len());
}

#[test]
fn keys_and_position_strings_determine_each_other_on_the_shared_corpora() {
    let shared = Path::new(ROOT).join("../shared/corpora");
    if !shared.is_dir() {
        eprintln!(
            "notice: {} is absent; shared corpora not checked",
            shared.display()
        );
        return;
    }
    let mut files = Vec::new();
    pdn_files(&shared, &mut files);
    files.sort();
    let mut maps = Maps::default();
    maps.check(&files);
    assert!(maps.plies > 0, "no ply in {}", shared.display());
    assert_eq!(maps.by_key.len(), maps.by_fen.len());
}

/// The start key is the key the first ply's position is reached from: a game of one ply
/// from the start shares its start key with every other game's start.
#[test]
fn start_keys_are_the_standard_start_or_the_setup() {
    let text = b"[GameType \"20\"]\n1. 32-28 *\n\n[GameType \"20\"]\n1. 33-28 *\n\n\
[GameType \"20\"]\n[FEN \"W:W31:B1\"]\n1. 31-27 *\n";
    let mut reader = pdn::Reader::new(&text[..]);
    let mut recorder = Recorder::new(games::games(), Settings::default());
    let mut starts = Vec::new();
    let mut after = Vec::new();
    while let Ok(Some(rec)) = reader.read_game(&mut recorder) {
        starts.push(rec.report.start_key.expect("a known start"));
        after.push(rec.report.details.get(0).expect("one ply").key);
    }
    assert_eq!(starts.len(), 3);
    assert_eq!(starts[0], starts[1]);
    assert_ne!(starts[0], starts[2]);
    assert_ne!(after[0], after[1]);
    assert!(!starts.contains(&after[0]));
}
