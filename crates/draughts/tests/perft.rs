//! Runs every perft file under tests/perft/. Counts up to `DEBUG_LIMIT` leaves run in every
//! build; the deeper ones run with `--ignored` (use a release build).

use std::path::Path;

const DEBUG_LIMIT: u64 = 200_000;

fn cases() -> Vec<draughts::PerftCase> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/perft exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut all = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        all.extend(
            draughts::parse_perft_file(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display())),
        );
    }
    assert!(!all.is_empty());
    all
}

fn run(deep: bool) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for c in cases() {
        if (c.count > DEBUG_LIMIT) != deep {
            continue;
        }
        ran += 1;
        if let Err(e) = c.check() {
            failures.push(e);
        }
    }
    eprintln!("{ran} perft counts checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
