//! `arbiter analyse` through the binary: its JSON, the same output on one core or two, the
//! annotated file that arbiter reads back with the same moves, exit codes for games it could
//! not analyse.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arbiter(args: &[&str], threads: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .env("RAYON_NUM_THREADS", threads)
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-analyse-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The first `n` games of a shipped corpus file, written to `dir`.
fn sample(dir: &Path, rel: &str, n: usize) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(rel);
    let text = std::fs::read_to_string(path).unwrap();
    let games: Vec<&str> = text.split("\n\n[Event").take(n).collect();
    let out = dir.join("sample.pdn");
    std::fs::write(&out, games.join("\n\n[Event") + "\n").unwrap();
    out.display().to_string()
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn json_has_every_ply_then_games_and_players_and_does_not_depend_on_cores() {
    let dir = scratch("json");
    let file = sample(&dir, "english/english-search.pdn", 3);
    let args = ["analyse", &file, "--nodes", "300", "--format", "json"];
    let one = arbiter(&args, "1");
    let two = arbiter(&args, "2");
    assert_eq!(
        one.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    assert_eq!(
        one.stdout, two.stdout,
        "one core and two give the same analysis"
    );
    let lines = json_lines(&one);
    let plies: Vec<_> = lines.iter().filter(|v| v["kind"] == "ply").collect();
    assert!(plies.len() > 30);
    for p in &plies {
        for key in [
            "file",
            "game",
            "ply",
            "move",
            "eval_before",
            "eval_after",
            "best",
            "line",
            "loss",
            "class",
        ] {
            assert!(p.get(key).is_some(), "{key} missing in {p}");
        }
        assert!(p["loss"].as_i64().unwrap() >= 0);
    }
    let games: Vec<_> = lines.iter().filter(|v| v["kind"] == "game").collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[2]["game"], 3);
    let players: Vec<_> = lines.iter().filter(|v| v["kind"] == "player").collect();
    assert!(players.len() >= 2);
    let moves: u64 = players.iter().map(|p| p["moves"].as_u64().unwrap()).sum();
    assert_eq!(
        moves,
        plies.len() as u64,
        "every analysed move counts for its player"
    );
}

#[test]
fn the_annotated_file_reads_back_with_the_same_moves_and_no_new_problem() {
    let dir = scratch("annotate");
    let file = sample(&dir, "international/international-search.pdn", 2);
    let annotated = dir.join("annotated.pdn").display().to_string();
    let out = arbiter(
        &[
            "analyse",
            &file,
            "--nodes",
            "300",
            "-q",
            "--annotate",
            "-o",
            &annotated,
        ],
        "2",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&annotated).unwrap();
    assert!(text.contains("{[%eval "), "{text}");
    // arbiter reads the annotated games back: the same main lines, no problem at all (the
    // engine's lines in the variations are legal).
    let validate = arbiter(&["validate", &annotated], "2");
    assert_eq!(
        validate.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&validate.stdout)
    );
    let main_line = |path: &str| -> Vec<Vec<String>> {
        pdn::read_all(&std::fs::read(path).unwrap())
            .iter()
            .map(|r| {
                r.movetext
                    .iter()
                    .filter_map(|n| match n {
                        pdn::Node::Move(m) => Some(m.token.clone()),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    };
    assert_eq!(main_line(&annotated), main_line(&file));
    let evals = text.matches("[%eval ").count();
    let moves: usize = main_line(&file).iter().map(Vec::len).sum();
    assert_eq!(evals, moves, "one evaluation per analysed move");
}

#[test]
fn games_that_cannot_be_analysed_are_said_and_the_exit_code_is_1() {
    let dir = scratch("partial");
    let file = dir.join("g.pdn");
    std::fs::write(
        &file,
        "[GameType \"20\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 50-45 *\n\n\
         [Variant \"Nothing known\"]\n[Result \"*\"]\n\n1. 99-98 *\n",
    )
    .unwrap();
    let out = arbiter(&["analyse", file.to_str().unwrap(), "--nodes", "200"], "1");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("game 1: analysed up to ply 5 only"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game 2: its game is not identified"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("1 not analysed, 1 analysed in part"),
        "{stderr}"
    );
}
