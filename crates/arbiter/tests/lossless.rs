//! Lossless writing over every real file of `../shared/corpora` (skipped with a notice where
//! that folder is absent): one `convert` pass is a fixed point, and what `convert`, `select`
//! and `split` write reads back with the same games and the same diagnostics; merging any two
//! files keeps every game.
//!
//! "The same diagnostics" is checked as: every diagnostic of the output is one of the input
//! (same game, code, severity, ply, move and message; positions aside, as the text moved),
//! none is new, and those the output no longer has are all reader problems about the form of
//! the text (codes of `pdn::PROBLEM_KINDS`: stray text kept as a comment, a malformed tag
//! written canonically, a missing result written as `*`, ...). The writer repairs the form;
//! what the replay says about the games (rules, results, tags) must not change.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpora() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is absent", dir.display());
        None
    }
}

/// The record files of the corpora, as a directory walk finds them.
fn record_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let name = path.to_string_lossy().to_ascii_lowercase();
            if path.is_dir() {
                stack.push(path);
            } else if name.ends_with(".pdn") || name.ends_with(".pdn.gz") || name.ends_with(".trl")
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn arbiter(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-lossless-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One diagnostic without its position: game, code, severity, ply, move, message.
type Diag = (
    Option<u64>,
    String,
    String,
    Option<u64>,
    Option<String>,
    String,
);

/// The diagnostics of `validate --format json` (with their count per kind) and the number of
/// games read.
fn validate(path: &Path, with_game: bool) -> (u64, HashMap<Diag, u64>) {
    let out = arbiter(&[&"validate", &path, &"--format", &"json"]);
    let mut diags = HashMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let text = |k: &str| v[k].as_str().map(str::to_string);
        let code = text("code").unwrap_or_default();
        assert_ne!(code, "unreadable", "{}: {line}", path.display());
        let key = (
            v["game"].as_u64().filter(|_| with_game),
            code,
            text("severity").unwrap_or_default(),
            v["ply"].as_u64(),
            text("move"),
            text("message").unwrap_or_default(),
        );
        *diags.entry(key).or_insert(0) += 1;
    }
    (games_read(&out), diags)
}

/// The number of games in the summary line (`checked 1 file, 13 games ...`).
fn games_read(out: &Output) -> u64 {
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("checked "))
        .unwrap_or_else(|| panic!("no summary line in {text}"));
    let words: Vec<&str> = line.split([' ', ',', '(']).collect();
    words
        .windows(2)
        .find(|w| w[1] == "game" || w[1] == "games")
        .and_then(|w| w[0].parse().ok())
        .unwrap_or_else(|| panic!("no game count in {line}"))
}

/// Checks the diagnostics of an output against those of its input (see the module's doc);
/// returns how many reader problems the output no longer has.
fn same_diagnostics(what: &str, input: &HashMap<Diag, u64>, output: &HashMap<Diag, u64>) -> u64 {
    for (d, n) in output {
        let had = input.get(d).copied().unwrap_or(0);
        assert!(
            *n <= had,
            "{what}: new diagnostic {d:?} ({n} against {had})"
        );
    }
    let mut repaired = 0;
    for (d, n) in input {
        let lost = n - output.get(d).copied().unwrap_or(0);
        if lost > 0 {
            assert!(
                pdn::PROBLEM_KINDS.contains(&d.1.as_str()),
                "{what}: diagnostic lost that is not about the text's form: {d:?}"
            );
            repaired += lost;
        }
    }
    repaired
}

/// The games of a PDN text, counted without building them.
fn count_games(text: &[u8]) -> u64 {
    struct Count;
    impl pdn::Visitor for Count {
        type Output = ();
        fn end_game(&mut self, _: pdn::Span) {}
    }
    let mut reader = pdn::Reader::new(text);
    let mut n = 0;
    while reader
        .read_game(&mut Count)
        .expect("read from memory")
        .is_some()
    {
        n += 1;
    }
    n
}

fn converted(input: &Path, output: &Path) {
    let out = arbiter(&[&"convert", &input, &"-o", &output]);
    assert!(
        out.status.code() != Some(2) && output.exists(),
        "{}: {}",
        input.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn convert_is_a_fixed_point_that_keeps_games_diagnostics_and_merges_in_shared() {
    let Some(dir) = corpora() else { return };
    let files = record_files(&dir);
    assert!(files.len() > 50, "{} files", files.len());
    let tmp = scratch("convert");
    let mut written = Vec::new();
    let mut repaired = 0;
    for (i, file) in files.iter().enumerate() {
        let (a, b) = (tmp.join(format!("{i}.pdn")), tmp.join("again.pdn"));
        converted(file, &a);
        converted(&a, &b);
        let once = std::fs::read(&a).unwrap();
        assert!(
            once == std::fs::read(&b).unwrap(),
            "{}: converting the output again changes it",
            file.display()
        );
        let (games_in, diags_in) = validate(file, true);
        let (games_out, diags_out) = validate(&a, true);
        assert_eq!(games_in, games_out, "{}: games", file.display());
        repaired += same_diagnostics(&file.display().to_string(), &diags_in, &diags_out);
        assert_eq!(pdn::read_all(&once).len() as u64, games_in);
        written.push((once, games_in));
    }
    eprintln!(
        "{} files: fixed points, same games; {repaired} problems of form repaired",
        files.len()
    );
    // Merging any two keeps every game. `convert x y` writes x's games, a blank line, then
    // y's (checked with the binary for neighbours), so every ordered pair is checked on the
    // texts.
    for i in 0..files.len() {
        let j = (i + 1) % files.len();
        let merged = tmp.join("merged.pdn");
        let out = arbiter(&[&"convert", &files[i], &files[j], &"-o", &merged]);
        assert_ne!(out.status.code(), Some(2));
        let mut expected = written[i].0.clone();
        expected.push(b'\n');
        expected.extend(&written[j].0);
        assert!(
            std::fs::read(&merged).unwrap() == expected,
            "{} + {}",
            files[i].display(),
            files[j].display()
        );
    }
    for (i, (x, nx)) in written.iter().enumerate() {
        for (j, (y, ny)) in written.iter().enumerate() {
            let mut both = x.clone();
            both.push(b'\n');
            both.extend(y);
            let n = count_games(&both);
            assert_eq!(
                n,
                nx + ny,
                "{} + {}",
                files[i].display(),
                files[j].display()
            );
        }
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn select_and_split_keep_games_and_diagnostics_in_shared() {
    let Some(dir) = corpora() else { return };
    let tmp = scratch("select-split");
    for (i, file) in record_files(&dir).iter().enumerate() {
        let name = file.display().to_string();
        let selected = tmp.join(format!("{i}.pdn"));
        let parts = tmp.join(format!("{i}-parts"));
        let out = arbiter(&[&"select", &file, &"-o", &selected]);
        assert!(out.status.success(), "{name}");
        let out = arbiter(&[&"split", &file, &"--games", &"7", &"-o", &parts]);
        assert!(out.status.success(), "{name}");
        let (games, diags) = validate(file, true);
        let (games_selected, diags_selected) = validate(&selected, true);
        assert_eq!(games, games_selected, "{name}: select");
        same_diagnostics(&format!("{name}: select"), &diags, &diags_selected);
        // Split shares the games between files: compared without their numbers.
        let (_, diags) = validate(file, false);
        let (games_split, diags_split) = validate(&parts, false);
        assert_eq!(games, games_split, "{name}: split");
        same_diagnostics(&format!("{name}: split"), &diags, &diags_split);
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}
