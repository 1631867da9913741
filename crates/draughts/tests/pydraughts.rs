//! Second opinion from pydraughts (if python3 can import it): legal-move counts along random
//! games must agree, counting moves with the same start, end and captured pieces once (as
//! pydraughts lists every route). Skipped with a notice when pydraughts is not installed.

use std::process::Command;

use draughts::{Draughts, Variant};

const SCRIPT: &str = r#"
import sys
from draughts import Board
variant = sys.argv[1]
for line in sys.stdin:
    fen = line.strip()
    if not fen:
        continue
    b = Board(variant=variant, fen=fen)
    # One per result: start, end and the set of captured squares.
    keys = {(m.steps_move[0], m.steps_move[-1], frozenset(m.captures)) for m in b.legal_moves()}
    print(len(keys))
"#;

fn python_has_pydraughts() -> bool {
    Command::new("python3")
        .args(["-c", "import draughts"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Positions along pseudo-random games (a fixed linear congruential sequence picks the moves).
fn positions(d: &Draughts, games: usize, plies: usize, numeric: bool) -> Vec<String> {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d ^ games as u64;
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = d.start();
        for _ in 0..plies {
            let moves = d.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            out.push(pos.to_fen(d.geometry, numeric));
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            d.play_move(&mut pos, &mv);
        }
    }
    out
}

#[test]
fn move_counts_agree_with_pydraughts() {
    if !python_has_pydraughts() {
        eprintln!("skipping: python3 cannot import pydraughts (pip install pydraughts)");
        return;
    }
    // pydraughts reads Russian and Brazilian positions with algebraic squares only.
    for (id, py, numeric) in [
        ("international", "standard", true),
        ("antidraughts", "antidraughts", true),
        ("english", "english", true),
        ("italian", "italian", true),
        ("russian", "russian", false),
        ("brazilian", "brazilian", false),
        ("frisian", "frisian", true),
        ("frysk", "frysk!", true),
        // Not Turkish: pydraughts lets a king slide through its own men there (in
        // `W:W...,d2,d3,Kd4:B...` it offers d4-d1), a bug this crate does not copy.
    ] {
        let d = Draughts::new(Variant::by_id(id).unwrap());
        // More games with DRAUGHTS_PYDRAUGHTS_GAMES=n (slow: pydraughts is).
        let games = std::env::var("DRAUGHTS_PYDRAUGHTS_GAMES")
            .ok()
            .and_then(|g| g.parse().ok())
            .unwrap_or(2);
        let fens = positions(&d, games, 80, numeric);
        let out = Command::new("python3")
            .args(["-c", SCRIPT, py])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin
                    .take()
                    .unwrap()
                    .write_all(fens.join("\n").as_bytes())?;
                c.wait_with_output()
            })
            .expect("python3 runs");
        let counts: Vec<usize> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        assert_eq!(
            counts.len(),
            fens.len(),
            "{id}: pydraughts answered {} of {}",
            counts.len(),
            fens.len()
        );
        for (fen, n) in fens.iter().zip(counts) {
            let pos = draughts::Position::from_fen(d.geometry, fen, d.variant.first).unwrap();
            assert_eq!(d.legal_moves(&pos).len(), n, "{id} {fen}");
        }
    }
}
