//! Perft against `tests/perft/tama.txt` (the shared perft file format, run by the draughts
//! crate's runner), and the crate's generator against an independent slow reference generator
//! (`tests/reference`).
//!
//! The table was computed with the reference implementation (`cargo test --release --test
//! perft -- --ignored print_reference_table --nocapture`) and is checked here against the
//! crate's fast perft. Lines with many nodes are checked only by the ignored test
//! `perft_table_full` (run it in release).

mod reference;

use std::collections::BTreeSet;

use std::path::Path;

use game::perft_file::PerftRules;
use reference::Board;
use tama::{Move, MoveList, Position, Tama};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft");

/// Counts checked in a debug build; the rest run in `perft_table_full` (release).
const DEBUG_LIMIT: u64 = 400_000;

/// The table's cases (shared perft file format), with the rules each names.
fn table() -> Vec<(game::perft_file::PerftCase, Tama)> {
    let text = std::fs::read_to_string(format!("{DIR}/tama.txt")).expect("tama.txt");
    game::perft_file::parse_perft_file(&text)
        .expect("tama.txt reads")
        .into_iter()
        .map(|c| {
            let rules = <Tama as PerftRules>::from_variant(&c.variant).expect("tama rules");
            (c, rules)
        })
        .collect()
}

fn check_table(limit: u64) -> usize {
    game::perft_file::run_perft_dir::<Tama>(Path::new(DIR), |c| c.count <= limit)
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn perft_table_small() {
    let checked = check_table(if cfg!(debug_assertions) {
        DEBUG_LIMIT
    } else {
        50_000_000
    });
    eprintln!("perft lines checked: {checked}");
    assert!(checked >= 20, "only {checked} lines checked");
}

#[test]
#[ignore = "large depths; run with --release -- --ignored"]
fn perft_table_full() {
    check_table(u64::MAX);
}

#[test]
fn reference_agrees_with_table_on_small_counts() {
    let mut n = 0;
    for (c, rules) in table() {
        if c.count > 20_000 {
            continue;
        }
        let b = Board::from_fen(&c.fen);
        assert_eq!(b.perft(c.depth, rules.ludii), c.count, "line {}", c.line);
        n += 1;
    }
    assert!(n >= 10);
}

fn texts_ref(b: &Board, ludii: bool) -> BTreeSet<(String, Vec<usize>, bool)> {
    b.legal(ludii)
        .iter()
        .map(|m| (m.text(), m.captured.clone(), m.promoted))
        .collect()
}

fn texts_crate(pos: &Position, ludii: bool) -> BTreeSet<(String, Vec<usize>, bool)> {
    let mut l = MoveList::new();
    Tama::DEFAULT.with_ludii(ludii).legal_moves(pos, &mut l);
    l.iter()
        .map(|m: &Move| {
            (
                m.full_path(),
                m.captured().iter().map(|s| s.index() as usize).collect(),
                m.is_promotion(),
            )
        })
        .collect()
}

/// A small deterministic generator (xorshift) so the test needs no extra crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Random playouts from the start and from the table's positions: at every position the
/// crate's legal moves (paths, captured squares in order, promotion) equal the reference's,
/// and so do all chains before the majority rule, and the distinct-result counts.
#[test]
fn generator_matches_reference_on_random_playouts() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut starts: Vec<String> = table().into_iter().map(|(c, _)| c.fen).collect();
    starts.dedup();
    let games = if cfg!(debug_assertions) { 200 } else { 2000 };
    let mut positions = 0;
    for g in 0..games {
        let ludii = g % 2 == 1;
        let fen = &starts[g % starts.len()];
        let mut pos = Position::from_fen(fen).unwrap();
        let mut b = Board::from_fen(fen);
        for _ in 0..200 {
            assert_eq!(pos.to_fen(), b.fen(), "positions drifted apart");
            assert_eq!(
                texts_crate(&pos, ludii),
                texts_ref(&b, ludii),
                "at {}",
                b.fen()
            );
            let mut chains = MoveList::new();
            Tama::DEFAULT
                .with_ludii(ludii)
                .all_capture_chains(&pos, &mut chains);
            assert_eq!(chains.len(), b.chains(ludii).len(), "chains at {}", b.fen());
            let mut distinct = MoveList::new();
            Tama::DEFAULT
                .with_ludii(ludii)
                .legal_moves_distinct(&pos, &mut distinct);
            assert_eq!(
                distinct.len(),
                b.distinct(ludii).len(),
                "distinct at {}",
                b.fen()
            );
            positions += 1;
            let moves = b.legal(ludii);
            if moves.is_empty() {
                break;
            }
            let m = &moves[(rng.next() % moves.len() as u64) as usize];
            let mv = Tama::DEFAULT
                .with_ludii(ludii)
                .resolve_token(&pos, m.text().as_bytes())
                .expect("reference move resolves");
            pos.play(&mv);
            b = b.play(m);
        }
    }
    eprintln!("positions compared with the reference: {positions}");
    assert!(positions > 1000);
}

/// Prints the table lines from the reference implementation (used to write perft/tama.txt).
#[test]
#[ignore = "generator for perft/tama.txt"]
fn print_reference_table() {
    let cases: &[(&str, u32, bool)] = &[
        (&Position::start().to_fen(), 6, false),
        ("W:WKd4,a2,h2:Bd6,d2,a7,h7", 5, false),
        ("W:Wc6,a2,h3:Bc7,e8,a7,h6", 5, false),
        ("W:Wc6,a2,h3:Bc7,e8,a7,h6", 5, true),
        ("W:WKa1,h2:Ba3,c5,d3,b2,a7,h7", 5, false),
        ("W:WKb2,Ke5,c3,f3,g2:BKd7,b6,c6,f6,g6,h7", 4, false),
        ("B:WKe1,c3,d4,h3:BKb8,d5,e6,g6", 5, false),
        ("W:Wb4,d4,f4,c5,e5:Bb6,c6,d6,e6,f6,c7,e7", 5, false),
        ("W:Wb4,d4,f4,c5,e5:Bb6,c6,d6,e6,f6,c7,e7", 5, true),
        ("W:Wa6,c6,e6,g6,b5,h5:Ba7,b7,d7,f7,h7,c8,g8", 5, false),
        ("W:Wa6,c6,e6,g6,b5,h5:Ba7,b7,d7,f7,h7,c8,g8", 5, true),
    ];
    let boards = [
        "W B.....B...wwww.w.wwww..w...ww.......b..bb.bbbb.bbbbb.bb.........",
        "B ..B..........www.......w........b...w...bb.b.b...bbbbbb....W....",
        "W .........www.w.w..ww.....W...........b...B.b....b...bb..........",
        "B .........w..ww.w.w.www.w.............B.b.bb.bb...bb..bb.W.......",
    ];
    for (fen, depth, ludii) in cases {
        let b = Board::from_fen(fen);
        for d in 1..=*depth {
            let n = b.perft(d, *ludii);
            let variant = if *ludii { "tama+ludii" } else { "tama" };
            println!("{variant} ; {fen} ; {d} ; {n}");
        }
    }
    for s in boards {
        let (side, cells) = s.split_at(1);
        let cells = cells.trim();
        let mut b = Board::from_fen("W:W:B");
        b.side = if side == "W" { 1 } else { -1 };
        for (i, c) in cells.bytes().enumerate() {
            b.cells[i] = match c {
                b'w' => 1,
                b'W' => 2,
                b'b' => -1,
                b'B' => -2,
                _ => 0,
            };
        }
        for d in 1..=4 {
            println!("tama ; {} ; {d} ; {}", b.fen(), b.perft(d, false));
        }
    }
}
