//! Ludii trials through the command line: validated where PDN is, with each problem at the
//! trial line of the Ludii move; and a Tama record written as a trial reads back the same.

use std::path::PathBuf;
use std::process::Command;

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

fn trials() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/ludii");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is absent", dir.display());
        None
    }
}

#[test]
fn trials_validate_with_places_in_the_trial_in_shared() {
    let Some(dir) = trials() else { return };
    let out = arbiter()
        .args(["validate", "--format", "json"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let diags: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The Tama trials are clean; each Thaayam trial stops at its first deviation from the
    // rules (Ludii's known deviations, see docs/notation.md).
    assert!(diags
        .iter()
        .all(|d| d["file"].as_str().unwrap().contains("thaayam")));
    let places: Vec<(u64, u64)> = diags
        .iter()
        .map(|d| {
            (
                d["line"].as_u64().unwrap(),
                d["ludii_move"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(places, [(49, 45), (93, 89)]);
}

#[test]
fn a_record_written_as_a_trial_reads_back() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/tama");
    let text = std::fs::read_to_string(corpus.join("tama-greedy.pdn")).unwrap();
    let first = text.split("\n\n[").next().unwrap().to_string() + "\n";
    let dir = std::env::temp_dir().join(format!("arbiter-trl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("one.pdn"), &first).unwrap();
    let status = arbiter()
        .arg("convert")
        .arg(dir.join("one.pdn"))
        .args(["--to", "trl", "-o"])
        .arg(dir.join("one.trl"))
        .status()
        .unwrap();
    assert!(status.success());
    // Both written with every landing square, so short and full captures compare.
    let full = |path: PathBuf| {
        let out = arbiter()
            .arg("convert")
            .arg(path)
            .args(["--captures", "full", "--game", "tama"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let back = full(dir.join("one.trl"));
    let first = full(dir.join("one.pdn"));
    let moves = |t: &str| -> String {
        let body = t.split("\n\n").nth(1).unwrap_or("");
        body.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert!(moves(&first).contains("h4xf4xf2xd2"), "{first}");
    assert_eq!(moves(&back), moves(&first));
    assert!(back.contains("[Rules \"ludii\"]") || back.contains("[Variant \"Tama\"]"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn many_games_to_trl_write_one_trial_per_game_into_a_folder() {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/tama");
    let text = std::fs::read_to_string(corpus.join("tama-greedy.pdn")).unwrap();
    let games: Vec<&str> = text.split("\n\n[").take(5).collect();
    let five = games.join("\n\n[") + "\n";
    let dir = std::env::temp_dir().join(format!("arbiter-trls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("five.pdn"), &five).unwrap();
    let out = arbiter()
        .arg("convert")
        .arg(dir.join("five.pdn"))
        .args(["--to", "trl", "-o"])
        .arg(dir.join("trials"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("converted 5 games"), "{stderr}");
    let mut names: Vec<String> = std::fs::read_dir(dir.join("trials"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "five-001.trl",
            "five-002.trl",
            "five-003.trl",
            "five-004.trl",
            "five-005.trl"
        ]
    );
    // Each trial reads back as its game: the folder validates clean, five games.
    let check = arbiter()
        .args(["validate"])
        .arg(dir.join("trials"))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{report}");
    assert!(report.contains("5 games"), "{report}");
    // Into one file, one game is written and one note says what was left out.
    let out = arbiter()
        .arg("convert")
        .arg(dir.join("five.pdn"))
        .args(["--to", "trl", "-o"])
        .arg(dir.join("one.trl"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.matches("not written").count(), 1, "{stderr}");
    assert!(stderr.contains("4 more games"), "{stderr}");
    assert!(std::fs::read_to_string(dir.join("one.trl"))
        .unwrap()
        .starts_with("game="));
    // A game without a trial converter is named, and the run goes on.
    std::fs::write(
        dir.join("mixed.pdn"),
        format!("[Variant \"International\"]\n\n1. 32-28 *\n\n{}", games[0]),
    )
    .unwrap();
    let out = arbiter()
        .arg("convert")
        .arg(dir.join("mixed.pdn"))
        .args(["--to", "trl", "-o"])
        .arg(dir.join("mixed"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("game 1: not written as a trial"),
        "{stderr}"
    );
    assert!(dir.join("mixed/mixed-002.trl").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}
