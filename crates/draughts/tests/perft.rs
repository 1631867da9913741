//! Runs every perft file under tests/perft/ with the shared runner. Counts up to `DEBUG_LIMIT`
//! leaves run in every build; the deeper ones run with `--ignored` (use a release build).

use std::path::Path;

use draughts::{run_perft_dir, Draughts};

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
