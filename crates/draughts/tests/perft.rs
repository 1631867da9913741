//! Runs every perft file under tests/perft/ with the shared runner. Counts up to `DEBUG_LIMIT`
//! leaves run in every build; the deeper ones run with `--ignored` (use a release build).

use std::path::Path;

use draughts::{
    run_perft_dir, Color, Draughts, Position, ENGLISH, INTERNATIONAL, RUSSIAN, VARIANTS,
};

const DEBUG_LIMIT: u64 = 200_000;

fn run(deep: bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let ran = run_perft_dir::<Draughts>(&dir, |c| (c.count > DEBUG_LIMIT) == deep)
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{ran} perft counts checked");
    assert!(ran > 0);
}

#[test]
fn perft_tables() {
    run(false);
}

#[test]
#[ignore = "deep counts: run in release with --ignored"]
fn perft_tables_deep() {
    run(true);
}

/// A king's ring: four pieces around a square, taken clockwise or anticlockwise from the same
/// start back to it (an identical capture). `(file, rank)` of the king is shifted one file
/// where the board's dark squares need it.
fn ring(d: &Draughts) -> Position {
    let g = d.geometry;
    for shift in 0..2u8 {
        let at = |f: u8, r: u8| g.at(f + shift, r);
        let squares = [(2, 2), (3, 3), (3, 5), (1, 5), (1, 3)];
        let Some(bits) = squares
            .iter()
            .map(|&(f, r)| at(f, r))
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let mut pos = Position::empty(Color::White);
        pos.kings[0] |= 1u128 << bits[0];
        for &b in &bits[1..] {
            pos.men[1] |= 1u128 << b;
        }
        return pos;
    }
    panic!("no ring on the board of {}", d.variant.id);
}

#[test]
fn identical_captures_are_kept_or_dropped_as_asked() {
    for v in [&ENGLISH, &INTERNATIONAL, &RUSSIAN] {
        let d = Draughts::new(v);
        let pos = ring(&d);
        let once = d.perft_with(&pos, 1, true, Some(false));
        let apart = d.perft_with(&pos, 1, true, Some(true));
        assert_eq!(
            apart,
            once + 1,
            "{}: {}",
            v.id,
            pos.to_fen(d.geometry, true)
        );
        // The variant's default is its published convention.
        let default = d.perft_with(&pos, 1, true, None);
        let want = if v.perft_merges_duplicates {
            once
        } else {
            apart
        };
        assert_eq!(default, want, "{}", v.id);
        // Playing the leaves counts the same.
        for keep in [false, true] {
            for depth in 1..=3 {
                assert_eq!(
                    d.perft_with(&pos, depth, false, Some(keep)),
                    d.perft_with(&pos, depth, true, Some(keep)),
                    "{} depth {depth} keep {keep}",
                    v.id
                );
            }
        }
    }
}

#[test]
fn a_king_going_on_the_same_way_is_one_capture_even_kept_apart() {
    // The king on 46 takes 41 and flies on to take 28: it may stop on 37 or 32 between the
    // two, and goes on the same way from either, so it is one route. It ends on 23, 19, 14,
    // 10 or 5: five captures in both conventions (kept apart, the stops counted them twice).
    let d = Draughts::new(&INTERNATIONAL);
    let pos = Position::from_fen(d.geometry, "W:WK46:B41,28", Color::White).unwrap();
    for keep in [false, true] {
        for bulk in [false, true] {
            assert_eq!(d.perft_with(&pos, 1, bulk, Some(keep)), 5, "keep {keep}");
        }
    }
    // The generator still lists every stop, as a record may name any of them.
    let mut stops = 0;
    draughts::for_each_chain(d.geometry, &d.rules, &pos, &mut |_| stops += 1);
    assert_eq!(stops, 10);
}

#[test]
fn counting_leaves_played_or_in_bulk_agree() {
    for v in VARIANTS {
        let d = Draughts::new(v);
        let pos = d.start();
        for depth in 0..=4 {
            assert_eq!(
                d.perft_with(&pos, depth, false, None),
                d.perft(&pos, depth),
                "{} depth {depth}",
                v.id
            );
        }
    }
}
