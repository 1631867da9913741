//! Every command takes time linear in every dimension of a record: a record ten times larger
//! in one dimension (tags, comments, comment length, NAGs, variations, nesting, moves, line
//! length) takes about ten times as long, never a hundred. Each command runs on a record of
//! `n` and of `10 n` units of one dimension, and the larger run must stay under
//! [`FACTOR`] times the smaller one (a quadratic step gives about a hundred; the smaller run
//! also carries the start-up, which only makes a linear command look better). No run is held
//! to a time of its own.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How much longer the run on ten times the input may take.
const FACTOR: f64 = 30.0;

/// The commands, each as its arguments around the input file (`IN`) and an output (`OUT`).
const COMMANDS: [&[&str]; 9] = [
    &["validate", "IN"],
    &["convert", "IN", "-o", "OUT/c.pdn"],
    &[
        "convert",
        "IN",
        "--to",
        "json",
        "--positions",
        "-o",
        "OUT/c.jsonl",
    ],
    &["select", "IN", "--player", "x", "-o", "OUT/s.pdn"],
    &["split", "IN", "--by", "Event", "-o", "OUT/split"],
    &["export", "IN", "-o", "OUT/export"],
    &[
        "export",
        "IN",
        "--positions",
        "--partition-by",
        "year",
        "-o",
        "OUT/parts",
    ],
    &["stats", "IN", "-o", "OUT/stats"],
    &["view", "IN", "-o", "OUT/v.html"],
];

const HEAD: &str = "[Event \"e\"]\n[GameType \"20\"]\n";

/// A record of `n` units of one dimension.
fn record(dimension: &str, n: usize) -> String {
    let mut s = String::new();
    match dimension {
        "tags" => {
            s.push_str(HEAD);
            for i in 0..n {
                s.push_str(&format!("[T{i} \"v{i}\"]\n"));
            }
            s.push_str("\n1. 32-28 19-23 *\n");
        }
        "comments" => s = format!("{HEAD}\n1. 32-28 {} 19-23 *\n", "{c} ".repeat(n)),
        "comment-length" => s = format!("{HEAD}\n1. 32-28 {{{}}} 19-23 *\n", "c".repeat(n)),
        "nags" => s = format!("{HEAD}\n1. 32-28 {} 19-23 *\n", "$1 ".repeat(n)),
        "variations" => s = format!("{HEAD}\n1. 32-28 {} 19-23 *\n", "(1. 33-29) ".repeat(n)),
        "depth" => {
            s = format!(
                "{HEAD}\n1. 32-28 {}{} 19-23 *\n",
                "(1. 33-29 ".repeat(n),
                ")".repeat(n)
            )
        }
        "moves" | "line-length" => {
            // Two kings going back and forth: every ply legal.
            let sep = if dimension == "moves" { "\n" } else { " " };
            s.push_str("[Event \"e\"]\n[GameType \"20\"]\n[FEN \"W:WK50:BK1\"]\n\n");
            let cycle = ["50-45", "1-6", "45-50", "6-1"];
            for i in 0..n {
                if i % 2 == 0 {
                    s.push_str(&format!("{}. ", i / 2 + 1));
                }
                s.push_str(cycle[i % 4]);
                s.push_str(sep);
            }
            s.push_str("*\n");
        }
        _ => unreachable!("{dimension}"),
    }
    s
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-linear-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs one command on `input`, writing under `out`; how long it took.
fn run(command: &[&str], input: &Path, out: &Path) -> Duration {
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out).unwrap();
    let args: Vec<String> = command
        .iter()
        .map(|a| {
            a.replace("IN", &input.display().to_string())
                .replace("OUT", &out.display().to_string())
        })
        .collect();
    let start = Instant::now();
    let done = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(&args)
        .output()
        .expect("arbiter runs");
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&done.stderr);
    // Variations nested past the reader's limit are refused by the commands that write
    // records (exit 2, saying so): refused in linear time is what is measured then.
    let refused = stderr.contains("nested deeper than the limit");
    assert!(
        matches!(done.status.code(), Some(0 | 1)) || (done.status.code() == Some(2) && refused),
        "{args:?}: {stderr}"
    );
    took
}

/// Every command on a record of `n` and of `10 n` units of `dimension`.
fn linear_in(dimension: &str, n: usize) {
    let dir = scratch(dimension);
    let (small, large) = (dir.join("small.pdn"), dir.join("large.pdn"));
    std::fs::write(&small, record(dimension, n)).unwrap();
    std::fs::write(&large, record(dimension, 10 * n)).unwrap();
    let out = dir.join("out");
    for command in COMMANDS {
        let mut t1 = run(command, &small, &out);
        let mut t10 = run(command, &large, &out);
        // A busy machine can slow one run down: measure again before failing, the best of
        // three.
        for _ in 0..2 {
            if t10.as_secs_f64() <= FACTOR * t1.as_secs_f64() {
                break;
            }
            t1 = t1.min(run(command, &small, &out));
            t10 = t10.min(run(command, &large, &out));
        }
        assert!(
            t10.as_secs_f64() <= FACTOR * t1.as_secs_f64(),
            "{command:?} on {dimension}: {n} took {t1:?}, {} took {t10:?}",
            10 * n
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn linear_in_tags() {
    linear_in("tags", 4_000);
}

#[test]
fn linear_in_comments() {
    linear_in("comments", 10_000);
}

#[test]
fn linear_in_comment_length() {
    linear_in("comment-length", 100_000);
}

#[test]
fn linear_in_nags() {
    linear_in("nags", 10_000);
}

#[test]
fn linear_in_variations() {
    linear_in("variations", 4_000);
}

#[test]
fn linear_in_variation_depth() {
    linear_in("depth", 4_000);
}

#[test]
fn linear_in_moves() {
    linear_in("moves", 10_000);
}

#[test]
fn linear_in_line_length() {
    linear_in("line-length", 10_000);
}

/// The records of the tests are what they say: the tags are read as tags of one game, the
/// moves are legal.
#[test]
fn the_records_are_one_game_each() {
    for (dimension, n) in [("tags", 10), ("moves", 10), ("depth", 3), ("variations", 3)] {
        let games = pdn::read_all(record(dimension, n).as_bytes());
        assert_eq!(games.len(), 1, "{dimension}");
    }
    assert_eq!(
        pdn::read_all(record("tags", 10).as_bytes())[0].tags.len(),
        12
    );
    let dir = scratch("legal");
    let file = dir.join("moves.pdn");
    std::fs::write(&file, record("moves", 100)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["validate", &file.display().to_string()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("100 plies") && text.contains("no problems found"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
