//! `arbiter perft`: every depth printed, the same counts on any number of threads, in bulk or
//! not, `--divide`, `--duplicates`, and absurd depths refused.

use std::process::{Command, Output};

fn perft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("perft")
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The `depth nodes` lines of human output.
fn counts(text: &str) -> Vec<(u32, u64)> {
    text.lines()
        .filter_map(|l| {
            let (d, n) = l.split_once(' ')?;
            Some((d.parse().ok()?, n.parse().ok()?))
        })
        .collect()
}

#[test]
fn every_depth_alike_on_any_thread_count_and_with_or_without_bulk() {
    let want = vec![(1, 9), (2, 81), (3, 658), (4, 4265), (5, 27117)];
    for extra in [
        &["--threads", "1"][..],
        &["--threads", "2"],
        &["--threads", "3", "--bulk"],
        &[],
    ] {
        let mut args = vec!["--game", "international", "--depth", "5"];
        args.extend_from_slice(extra);
        let text = stdout(&perft(&args));
        assert_eq!(counts(&text), want, "{extra:?}");
        let last = text.lines().last().unwrap();
        assert!(last.starts_with("nodes/s: "), "{last}");
        assert!(last.contains("depth 5: 27117 nodes"), "{last}");
    }
}

#[test]
fn divide_counts_every_root_move_of_the_last_depth() {
    let text = stdout(&perft(&["--game", "english", "--depth", "3", "--divide"]));
    let lines: Vec<&str> = text.lines().collect();
    // Seven root moves, then the total, then the rate.
    assert_eq!(lines.len(), 9, "{text}");
    let sum: u64 = lines[..7]
        .iter()
        .map(|l| l.split_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 302);
    assert_eq!(lines[7], "3 302");
    let json = stdout(&perft(&[
        "--game", "english", "--depth", "2", "--divide", "--format", "json",
    ]));
    let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    assert_eq!(last["depth"], 2);
    assert_eq!(last["nodes"], 49);
    assert!(last["nodes_per_second"].as_u64().is_some());
}

#[test]
fn identical_captures_follow_the_option() {
    // A white king on 37 (International) takes 21, 22, 31 and 32 around 27 clockwise or
    // anticlockwise, back to 37: the same start, end and captured pieces.
    let fen = "W:WK37:B21,22,31,32";
    let count = |dups: &str| {
        let text = stdout(&perft(&[
            "--game",
            "international",
            "--fen",
            fen,
            "--depth",
            "1",
            "--duplicates",
            dups,
        ]));
        counts(&text)[0].1
    };
    // 37x37 twice, and four captures ending elsewhere.
    assert_eq!((count("keep"), count("drop")), (6, 5));
}

#[test]
fn absurd_depths_and_threads_are_refused() {
    let out = perft(&["--game", "international", "--depth", "4294967295"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("at most 64"), "{err}");
    let out = perft(&["--game", "tama", "--depth", "1", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
}
