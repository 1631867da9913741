//! `convert` through the command line: a Thaayam turn (several tokens) is rewritten whole,
//! and full and short forms convert into each other without loss.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

fn convert(input: &[u8], args: &[&str]) -> (String, String) {
    let mut child = arbiter()
        .arg("convert")
        .arg("-")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Feed standard input from another thread: the output can fill its pipe first.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn thaayam_turns_are_rewritten_whole_and_back() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/thaayam/thaayam-greedy.pdn.gz");
    let packed = std::fs::read(path).unwrap();
    let (canonical, _) = convert(&packed, &[]);
    let (full, notes) = convert(&packed, &["--captures", "full"]);
    assert!(
        notes.contains("moves rewritten") && !notes.contains(" 0 moves"),
        "{notes}"
    );
    assert_ne!(full, canonical);
    // Arrivals are written in the full form (`c1+2-e1`), and only there.
    let arrivals = |t: &str| {
        t.split_whitespace()
            .filter(|w| w.contains("+") && w.contains('-'))
            .count()
    };
    assert!(arrivals(&full) > 100);
    assert_eq!(arrivals(&canonical), 0);
    let (short, _) = convert(full.as_bytes(), &["--captures", "short"]);
    assert_eq!(short, canonical);
    let (_, notes) = convert(&packed, &["--squares", "numeric"]);
    assert!(notes.contains("no numeric form"), "{notes}");
}
