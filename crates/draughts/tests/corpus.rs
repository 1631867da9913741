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
    /// (file name, game number, code) of every problem.
    found: Vec<(String, usize, String)>,
}

/// The problems the archives really contain, each checked by hand.
const EXPECTED: &[(&str, usize, &str)] = &[
    // Two captures with different pieces fit the short form (both allowed by every priority).
    ("Campionato Assoluto 2005.pdn", 46, "ambiguous-move"), // 3x10x17x26 or 3x10x19x26
    ("Tricks traps and shots.pdn", 57, "ambiguous-move"),   // 10x17x26 or 10x19x26
    ("Tricks traps and shots.pdn", 90, "ambiguous-move"),   // 32x23x14x7 or 32x23x16x7
    ("schildpad.pdn", 3, "ambiguous-move"),                 // 36x13x2x16 or 36x18x7x16
    ("schildpad.pdn", 7, "ambiguous-move"),                 // 4x22x33x24 or 4x31x42x24
    // English problems that put a White man on Black's back row (1-4), where it would be a king.
    ("beginner.pdn", 10, "bad-fen"),
    ("goulds.pdn", 93, "bad-fen"),
    ("lpc.pdn", 73, "bad-fen"),
    // 60... 32-28 moved the king away; the record plays 62. 32-28 again from the empty square.
    ("tinsley.pdn", 541, "illegal-move"),
    // 32... 17-11: no piece on 17; from here on the moves are written with the colours swapped.
    ("bruno-BrunoVsScan31.pdn", 11, "illegal-move"),
    // `[FEN "W::."]`: an empty board, so the side to move has lost, but the record says a draw.
    ("bridges.pdn", 14, "result-mismatch"),
];

/// Replays one record: plies played, and the first problem (code, message) if any.
fn replay_record(rec: &pdn::GameRecord, v: &'static Variant) -> (usize, Option<(String, String)>) {
    let d = Draughts::new(v);
    let mut pos = match rec.tag("FEN") {
        Some(f) if !f.trim().is_empty() => match d.parse_position(f) {
            Ok(p) => p,
            Err(p) => return (0, Some((p.code.to_string(), p.message))),
        },
        _ => d
            .start_position(&|name| rec.tag(name).map(str::to_string))
            .expect("start position"),
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
                        // Writing the move back, in every notation, names the same move.
                        for numeric in [true, false] {
                            for full_captures in [false, true] {
                                let n = game::Notation {
                                    numeric,
                                    full_captures,
                                };
                                let written = d.write_move(&pos, &mv, n);
                                let again = d.resolve(&pos, &[written.as_bytes()]);
                                assert!(
                                    again
                                        .as_ref()
                                        .is_ok_and(|a| a.same_result(&mv)
                                            && a.is_partial() == mv.is_partial()),
                                    "{} written as {written} reads back as {again:?}",
                                    m.token
                                );
                            }
                        }
                        d.play(&mut pos, &mv);
                        plies += 1;
                    }
                    Err(p) => return (plies, Some((p.code.to_string(), p.message))),
                }
            }
            _ => {}
        }
    }
    // A game that ends in a position the rules decide: the recorded result must agree.
    if let (Some(by_rules), Some(recorded)) = (
        d.terminal(&pos),
        rec.result.as_ref().and_then(|r| d.parse_result(&r.token)),
    ) {
        if recorded != game::Outcome::Unfinished && !recorded.agrees_with(by_rules) {
            return (
                plies,
                Some((
                    "result-mismatch".to_string(),
                    format!(
                        "the record says {} but the rules give {}",
                        rec.result.as_ref().map_or("", |r| r.token.as_str()),
                        d.write_result(by_rules)
                    ),
                )),
            );
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
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            tally.found.push((name.to_string(), i + 1, code.clone()));
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
fn real_archives_replay_in_shared() {
    let Some(t) = run() else { return };
    eprintln!("{} games, {} plies replayed", t.games, t.plies);
    for (code, list) in &t.errors {
        eprintln!("{code}: {}", list.len());
        for e in list.iter().take(200) {
            eprintln!("  {e}");
        }
    }
    assert!(t.plies > 150_000, "only {} plies replayed", t.plies);
    let mut found = t.found.clone();
    found.sort();
    let mut expected: Vec<(String, usize, String)> = EXPECTED
        .iter()
        .map(|&(f, g, c)| (f.to_string(), g, c.to_string()))
        .collect();
    expected.sort();
    assert_eq!(found, expected);
}
