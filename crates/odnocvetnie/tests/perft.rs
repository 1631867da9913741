//! Move generation and perft, cross-checked against the independent reference generator in
//! `common/mod.rs` (plain arrays, coordinates, no bitboards).
//!
//! `tests/perft/odnocvetnie.txt` holds the perft table (the draughts crate's shared perft file
//! format, run by its runner). Every entry is checked with the fast generator; entries with at
//! most `REFERENCE_LIMIT` nodes are also recomputed with the reference generator.

mod common;

use std::collections::BTreeSet;

use std::path::Path;

use common::{Ref, RefMove, Rng};
use game::perft_file::PerftRules;
use odnocvetnie::{Move, Odnocvetnie, Position, Side, Square, SquareSet};

fn to_position(r: &Ref) -> Position {
    let (side, men, damki, lock) = r.parts();
    let set =
        |v: &[u8]| -> SquareSet { v.iter().map(|&n| Square::from_number(n).unwrap()).collect() };
    Position::new(
        set(&men),
        set(&damki),
        Side::from_index(side as u8),
        lock.map(|n| Square::from_number(n).unwrap()),
        true,
    )
    .unwrap()
}

fn key(m: &Move) -> RefMove {
    (
        m.from().number(),
        m.to().number(),
        m.captured().iter().map(|s| s.number()).collect(),
    )
}

fn keys(moves: &[Move]) -> BTreeSet<RefMove> {
    let set: BTreeSet<RefMove> = moves.iter().map(key).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in {moves:?}");
    set
}

fn compare(r: &Ref, context: &str) {
    let pos = to_position(r);
    let mut buf = Vec::new();
    pos.legal_moves(&mut buf);
    let legal = r.legal();
    assert_eq!(
        keys(&buf),
        legal,
        "legal moves differ in {pos:?} ({context})\n{}",
        pos.diagram()
    );
    assert_eq!(
        pos.legal_move_count(),
        legal.len() as u64,
        "count in {pos:?}"
    );
    pos.capture_chains(&mut buf);
    assert_eq!(
        keys(&buf),
        r.all_chains(),
        "capture chains differ in {pos:?} ({context})"
    );
    let max = legal.iter().map(|m| m.2.len()).max().unwrap_or(0);
    assert_eq!(pos.max_capture() as usize, max, "{pos:?}");
    assert_eq!(pos.has_capture(), max > 0, "{pos:?}");
    assert_eq!(pos.has_legal_move(), !legal.is_empty(), "{pos:?}");
    let paths: BTreeSet<Vec<u8>> = pos
        .legal_paths()
        .iter()
        .map(|p| p.squares.iter().map(|s| s.number()).collect())
        .collect();
    assert_eq!(
        paths,
        r.legal_paths(),
        "full paths differ in {pos:?} ({context})"
    );
    for m in &legal {
        let mut a = r.clone();
        a.play(m, false);
        let mv = buf_find(&pos, m);
        let mut b = pos;
        b.play(&mv);
        assert_eq!(to_position(&a), b, "play differs for {m:?} in {pos:?}");
    }
}

fn buf_find(pos: &Position, m: &RefMove) -> Move {
    let mut buf = Vec::new();
    pos.legal_moves(&mut buf);
    *buf.iter().find(|x| key(x) == *m).expect("move present")
}

fn random_position(rng: &mut Rng) -> Ref {
    let density = 20 + rng.below(75);
    let damka_share = [0, 0, 5, 15, 40, 100][rng.below(6)];
    let mut men = Vec::new();
    let mut damki = Vec::new();
    for n in 1..=50u8 {
        if rng.below(100) < density {
            if rng.below(100) < damka_share {
                damki.push(n);
            } else {
                men.push(n);
            }
        }
    }
    let lock = if !men.is_empty() && rng.below(3) > 0 {
        Some(men[rng.below(men.len())])
    } else {
        None
    };
    Ref::new(rng.below(4), &men, &damki, lock)
}

#[test]
fn generator_agrees_with_reference_on_random_positions() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..4000 {
        let r = random_position(&mut rng);
        compare(&r, &format!("random position {i}"));
    }
}

#[test]
fn generator_agrees_with_reference_along_random_games() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for game in 0..60 {
        let mut r = Ref::start(game % 4);
        for ply in 0..150 {
            compare(&r, &format!("game {game} ply {ply}"));
            let legal: Vec<RefMove> = r.legal().into_iter().collect();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())].clone();
            r.play(&m, game % 3 == 0);
        }
    }
}

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft");

/// The table's cases (shared perft file format), with the rules each names.
fn table() -> Vec<(game::perft_file::PerftCase, Odnocvetnie)> {
    let text = std::fs::read_to_string(format!("{DIR}/odnocvetnie.txt")).expect("table");
    game::perft_file::parse_perft_file(&text)
        .expect("odnocvetnie.txt reads")
        .into_iter()
        .map(|c| {
            let rules = <Odnocvetnie as PerftRules>::from_variant(&c.variant).expect("rules");
            (c, rules)
        })
        .collect()
}

fn reference_of(pos: &Position) -> Ref {
    let men: Vec<u8> = pos.men().iter().map(|s| s.number()).collect();
    let damki: Vec<u8> = pos.damki().iter().map(|s| s.number()).collect();
    Ref::new(
        pos.side_to_move().index() as usize,
        &men,
        &damki,
        pos.locked().map(|s| s.number()),
    )
}

/// Reference recomputation is limited to keep the debug-mode test quick.
const REFERENCE_LIMIT: u64 = if cfg!(debug_assertions) {
    30_000
} else {
    3_000_000
};

#[test]
fn perft_table_fast_generator() {
    let limit = if cfg!(debug_assertions) {
        500_000
    } else {
        u64::MAX
    };
    let checked =
        game::perft_file::run_perft_dir::<Odnocvetnie>(Path::new(DIR), |c| c.count <= limit)
            .unwrap_or_else(|e| panic!("{e}"));
    assert!(checked >= 20, "only {checked} entries checked");
}

#[test]
fn perft_table_reference_generator() {
    let mut checked = 0;
    for (e, rules) in table() {
        if e.count > REFERENCE_LIMIT {
            continue;
        }
        let pos = Position::parse_with(&e.fen, rules.lock_any_piece).unwrap();
        let r = reference_of(&pos);
        assert_eq!(
            r.perft(e.depth, rules.lock_any_piece),
            e.count,
            "reference, odnocvetnie.txt line {}: {} depth {}",
            e.line,
            e.fen,
            e.depth
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} entries checked");
}

#[test]
fn start_position_matches_reference_start() {
    assert_eq!(reference_of(&Position::start()), Ref::start(0));
}

/// Prints the perft table for the positions listed in odnocvetnie.txt (used to write the
/// file): `cargo test --release -p odnocvetnie --test perft -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_perft_table() {
    let mut seen: Vec<(String, bool)> = Vec::new();
    for (c, rules) in table() {
        let key = (c.fen.clone(), rules.lock_any_piece);
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    for (fen, any) in seen {
        let pos = Position::parse_with(&fen, any).unwrap();
        let variant = if any {
            "odnocvetnie+lock-any-piece"
        } else {
            "odnocvetnie"
        };
        for depth in 1..=14 {
            let n = pos.perft_with(depth, any);
            let r = if n <= 3_000_000 {
                reference_of(&pos).perft(depth, any).to_string()
            } else {
                "-".into()
            };
            println!("{variant} ; {fen} ; {depth} ; {n}   # reference {r}");
            if n > 30_000_000 {
                break;
            }
        }
    }
}
