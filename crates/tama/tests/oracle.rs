//! Differential test against Ludii's move lists (shared/oracle/tama-ludii).
//!
//! Under `ludii` every position must give exactly Ludii's set of (path, captured squares);
//! every played move must resolve and lead to the next recorded position; final positions
//! must be terminal with the recorded winner. Under the default rules the set may differ only
//! where a man can reach the far rank during a capture.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};

use game::{Game, Outcome, Seat};
use tama::{for_each_chain, Move, MoveList, Position, Side, Tama};

const ORACLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/oracle/tama-ludii/tama_ludii_000-099.txt.gz"
);

fn board(side: &str, cells: &str) -> Position {
    assert_eq!(cells.len(), 64, "board string of 64 cells");
    let mut b = [0u64; 4];
    for (i, c) in cells.bytes().enumerate() {
        let k = match c {
            b'w' => 0,
            b'W' => 1,
            b'b' => 2,
            b'B' => 3,
            b'.' => continue,
            _ => panic!("bad cell {c}"),
        };
        b[k] |= 1u64 << i;
    }
    let side = if side == "W" {
        Side::White
    } else {
        Side::Black
    };
    Position::from_bitboards(b[0], b[1], b[2], b[3], side).expect("oracle position is legal")
}

fn describe(m: &Move) -> String {
    let caps: Vec<String> = m.captured().iter().map(|s| s.to_string()).collect();
    format!(
        "{} CAPTURED {}",
        m.full_path(),
        if caps.is_empty() {
            "-".to_string()
        } else {
            caps.join(",")
        }
    )
}

fn ours(rules: Tama, pos: &Position) -> BTreeSet<String> {
    let mut l = MoveList::new();
    rules.legal_moves(pos, &mut l);
    let v: Vec<String> = l.iter().map(describe).collect();
    let set: BTreeSet<String> = v.iter().cloned().collect();
    assert_eq!(set.len(), v.len(), "generator repeats a path at {pos}");
    set
}

/// True when some capture chain (either reading) takes a man onto its far rank.
fn man_reaches_far_rank(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let mut found = false;
    for ludii in [false, true] {
        for_each_chain(pos, ludii, &mut |m| {
            if pos.men(us) & m.from().bit() != 0
                && m.path().iter().any(|s| s.rank() == us.far_rank())
            {
                found = true;
            }
        });
    }
    found
}

struct Block {
    pos: Position,
    moves: BTreeSet<String>,
    played: Option<String>,
}

#[test]
fn ludii_oracle_in_shared() {
    let file = match std::fs::File::open(ORACLE) {
        Ok(f) => f,
        Err(_) => {
            eprintln!("skipping: {ORACLE} not found");
            return;
        }
    };
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    let ludii = Tama::LUDII;
    let default = Tama::DEFAULT;
    let mut positions = 0usize;
    let mut games = 0usize;
    let mut played = 0usize;
    let mut default_diffs = 0usize;
    let mut captures_seen = 0usize;
    let mut flying_seen = 0usize;
    let mut current: Option<Block> = None;
    let mut expected_next: Option<Position> = None;
    let mut final_pos: Option<Position> = None;

    let mut far_rank_positions = 0usize;
    let mut check_block = |b: &Block| {
        if man_reaches_far_rank(&b.pos) {
            far_rank_positions += 1;
        }
        let mine = ours(ludii, &b.pos);
        assert_eq!(
            mine,
            b.moves,
            "ludii move set differs at {}\n ours only: {:?}\n Ludii only: {:?}",
            b.pos,
            mine.difference(&b.moves).collect::<Vec<_>>(),
            b.moves.difference(&mine).collect::<Vec<_>>()
        );
        let def = ours(default, &b.pos);
        if def != b.moves {
            assert!(
                man_reaches_far_rank(&b.pos),
                "default rules differ from Ludii at {} although no man can reach the far rank in a capture",
                b.pos
            );
            return true;
        }
        false
    };

    for line in reader.lines() {
        let line = line.expect("readable oracle");
        let mut parts = line.splitn(2, ' ');
        let head = parts.next().unwrap_or("");
        let rest = parts.next().unwrap_or("");
        match head {
            "GAME" => {
                games += 1;
                expected_next = None;
            }
            "POS" | "FINAL" => {
                if let Some(b) = current.take() {
                    if check_block(&b) {
                        default_diffs += 1;
                    }
                }
                let mut f = rest.split(' ');
                let pos = board(f.next().unwrap(), f.next().unwrap());
                if let Some(exp) = expected_next.take() {
                    assert_eq!(
                        exp, pos,
                        "played move does not lead to the recorded position"
                    );
                }
                if head == "POS" {
                    positions += 1;
                    current = Some(Block {
                        pos,
                        moves: BTreeSet::new(),
                        played: None,
                    });
                } else {
                    positions += 1;
                    assert!(
                        ludii.move_strings(&pos).is_empty(),
                        "FINAL position {pos} has moves"
                    );
                    final_pos = Some(pos);
                }
            }
            "MOVE" => {
                let b = current.as_mut().expect("MOVE after POS");
                if rest.contains('x') {
                    captures_seen += 1;
                }
                b.moves.insert(rest.to_string());
            }
            "PLAYED" => {
                let b = current.as_mut().expect("PLAYED after POS");
                b.played = Some(rest.to_string());
                let mv = ludii
                    .resolve_token(&b.pos, rest.as_bytes())
                    .unwrap_or_else(|p| panic!("played {rest} at {}: {}", b.pos, p.message));
                if mv.is_capture() && b.pos.kings(b.pos.side_to_move()) & mv.from().bit() != 0 {
                    flying_seen += 1;
                }
                assert_eq!(mv.full_path(), rest, "resolved path");
                let mut next = b.pos;
                ludii.play(&mut next, &mv);
                expected_next = Some(next);
                played += 1;
            }
            "RESULT" => {
                let p = final_pos.take().expect("RESULT after FINAL");
                let winner = rest.split(' ').next().unwrap();
                let seat = if winner == "W" { 0 } else { 1 };
                match ludii.terminal(&p) {
                    Some(Outcome::Win { winner, .. }) => assert_eq!(winner, Seat(seat)),
                    other => panic!("terminal {other:?} at {p}"),
                }
            }
            "" => {}
            _ => panic!("unknown line {line}"),
        }
    }
    if let Some(b) = current.take() {
        if check_block(&b) {
            default_diffs += 1;
        }
    }
    eprintln!(
        "oracle: {games} games, {positions} positions, {played} played moves replayed, \
         {captures_seen} capture lines, {flying_seen} king captures played, \
         {default_diffs} positions where the default rules differ, \
         {far_rank_positions} positions where a man can reach the far rank in a capture"
    );
    assert_eq!(games, 100);
    assert!(positions > 6000);
}
