//! Shared helpers: the shared corpus, and a minimal replay of one PDN record through
//! `game::Game` (what the referee does, kept small so that these tests do not depend on it).
#![allow(dead_code)]

use std::path::PathBuf;

use game::{Game, Outcome, Problem};

/// `shared/corpora/ludii`, or `None` (with a notice) when the shared data is absent.
pub fn ludii_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/ludii");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIP: {} is absent", dir.display());
        None
    }
}

/// The trial files of the shared corpus whose names start with `prefix`, sorted.
pub fn trials(prefix: &str) -> Vec<PathBuf> {
    let Some(dir) = ludii_dir() else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "trl")
                && p.file_name().unwrap().to_string_lossy().starts_with(prefix)
        })
        .collect();
    v.sort();
    v
}

/// A problem found on replay: its byte offset in the PDN text, and the problem.
#[derive(Debug)]
pub struct Found {
    pub offset: u64,
    pub problem: Problem,
}

/// Replays the single game of `pdn` with `game`; returns the problems (a ply that cannot be
/// resolved is reported and skipped, as the referee does: the game stops there) and the
/// position reached.
pub fn replay<G: Game>(game: &G, pdn_text: &str) -> (Vec<Found>, G::Position) {
    let records = pdn::read_all(pdn_text.as_bytes());
    assert_eq!(records.len(), 1, "one game per converted trial");
    let rec = &records[0];
    assert!(
        rec.problems.is_empty(),
        "PDN syntax problems: {:?}",
        rec.problems
    );
    let tag = |name: &str| rec.tag(name).map(str::to_string);
    let mut pos = game.start_position(&tag).expect("start position");
    if let Some(fen) = rec.tag("FEN") {
        pos = game.parse_position(fen).expect("FEN");
    }
    let moves: Vec<&pdn::Move> = rec
        .movetext
        .iter()
        .filter_map(|n| match n {
            pdn::Node::Move(m) => Some(m),
            _ => None,
        })
        .collect();
    // Group tokens into plies.
    let mut plies: Vec<Vec<&pdn::Move>> = Vec::new();
    for m in moves {
        if plies.is_empty() || game.starts_ply(m.token.as_bytes()) {
            plies.push(Vec::new());
        }
        plies.last_mut().unwrap().push(m);
    }
    let mut found = Vec::new();
    for ply in &plies {
        let tokens: Vec<&[u8]> = ply.iter().map(|m| m.token.as_bytes()).collect();
        match game.resolve(&pos, &tokens) {
            Ok(mv) => game.play(&mut pos, &mv),
            Err(p) => {
                let offset = ply[p.token.min(ply.len() - 1)].span.start;
                found.push(Found { offset, problem: p });
                return (found, pos);
            }
        }
    }
    let recorded = rec
        .result
        .as_ref()
        .and_then(|r| game.parse_result(&r.token))
        .unwrap_or(Outcome::Unfinished);
    if let Some(by_rules) = game.terminal(&pos) {
        if !by_rules.agrees_with(recorded) {
            found.push(Found {
                offset: rec.result.as_ref().map_or(0, |r| r.span.start),
                problem: Problem::new(
                    game::Code::ResultMismatch,
                    format!("the rules give {by_rules:?}, the record {recorded:?}"),
                ),
            });
        }
    } else if recorded != Outcome::Unfinished && recorded != Outcome::Draw {
        found.push(Found {
            offset: rec.result.as_ref().map_or(0, |r| r.span.start),
            problem: Problem::new(
                game::Code::ResultMismatch,
                "the record gives a winner but the game is not over".to_string(),
            ),
        });
    }
    (found, pos)
}
