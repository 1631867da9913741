//! The archivist's commands through the binary: `select`, `split`, and `convert` merging
//! inputs in order, stripping, fixing and exporting plies.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arbiter(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn corpus(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(rel)
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-archive-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    err
}

fn records(path: &Path) -> Vec<pdn::GameRecord> {
    pdn::read_all(&std::fs::read(path).unwrap())
}

/// The games of a file, each as its bytes from first to last.
fn games(path: &Path) -> Vec<Vec<u8>> {
    let text = std::fs::read(path).unwrap();
    let mut reader = pdn::Reader::new(&text[..]);
    let mut b = pdn::RecordBuilder::new();
    let mut out = Vec::new();
    while let Some(r) = reader.read_game(&mut b).unwrap() {
        let s = reader.source();
        out.push(s.text[(r.span.start - s.offset) as usize..].to_vec());
    }
    out.sort();
    out
}

#[test]
fn convert_merges_inputs_in_order() {
    let dir = scratch("merge");
    let (a, b) = (
        corpus("tama/tama-random.pdn"),
        corpus("odnocvetnie/odnocvetnie-random.pdn"),
    );
    ok(&arbiter(&["convert", &b, &a, "-o", "merged.pdn"], &dir));
    let merged = records(&dir.join("merged.pdn"));
    let expected: Vec<_> = [&b, &a]
        .iter()
        .flat_map(|p| records(Path::new(p)))
        .collect();
    assert_eq!(merged.len(), expected.len());
    assert!(merged.iter().zip(&expected).all(|(m, e)| m.same_content(e)));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn select_partitions_and_invert_swaps() {
    let dir = scratch("select");
    let input = corpus("tama");
    let err = ok(&arbiter(
        &[
            "select",
            &input,
            "--tag",
            "Site=Goris",
            "-o",
            "out.pdn",
            "--rest",
            "rest.pdn",
        ],
        &dir,
    ));
    assert!(err.contains("read 1100 games"), "{err}");
    let mut both = games(&dir.join("out.pdn"));
    both.extend(games(&dir.join("rest.pdn")));
    both.sort();
    let mut all: Vec<Vec<u8>> = std::fs::read_dir(&input)
        .unwrap()
        .flat_map(|e| games(&e.unwrap().path()))
        .collect();
    all.sort();
    assert_eq!(both.len(), all.len());
    assert!(both == all, "OUT + REST is the input, game for game");
    assert!(records(&dir.join("out.pdn"))
        .iter()
        .all(|r| r.tag("Site") == Some("Goris")));
    ok(&arbiter(
        &[
            "select",
            &input,
            "--tag",
            "Site=Goris",
            "--invert",
            "-o",
            "inv.pdn",
            "--rest",
            "inv-rest.pdn",
        ],
        &dir,
    ));
    let read = |n: &str| std::fs::read(dir.join(n)).unwrap();
    assert_eq!(read("inv.pdn"), read("rest.pdn"));
    assert_eq!(read("inv-rest.pdn"), read("out.pdn"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn select_refuses_bad_arguments() {
    let dir = scratch("refuse");
    let input = corpus("tama/tama-random.pdn");
    for args in [
        vec!["select", input.as_str(), "--tag", "Site", "-o", "x.pdn"],
        vec!["select", input.as_str(), "--plies", "9..3", "-o", "x.pdn"],
        vec![
            "select",
            input.as_str(),
            "--problems",
            "nonsense",
            "-o",
            "x.pdn",
        ],
        vec![
            "select",
            input.as_str(),
            "--date-from",
            "soon",
            "-o",
            "x.pdn",
        ],
        vec!["select", input.as_str(), "-o", input.as_str()],
        vec!["convert", input.as_str(), "--positions", "-o", "x.pdn"],
        vec!["convert", input.as_str(), "--strip", "moves", "-o", "x.pdn"],
    ] {
        let out = arbiter(&args, &dir);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn split_by_count_and_by_tag() {
    let dir = scratch("split");
    let input = corpus("tama/tama-random.pdn");
    let n = records(Path::new(&input)).len();
    ok(&arbiter(
        &["split", &input, "--games", "30", "-o", "parts"],
        &dir,
    ));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("parts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), n.div_ceil(30));
    let counts: Vec<usize> = files.iter().map(|f| records(f).len()).collect();
    assert!(
        counts[..counts.len() - 1].iter().all(|c| *c == 30),
        "{counts:?}"
    );
    assert_eq!(counts.iter().sum::<usize>(), n);
    ok(&arbiter(
        &["split", &input, "--by", "Site", "-o", "sites"],
        &dir,
    ));
    let mut total = 0;
    for e in std::fs::read_dir(dir.join("sites")).unwrap() {
        let path = e.unwrap().path();
        let site = path.file_stem().unwrap().to_string_lossy().into_owned();
        let recs = records(&path);
        assert!(
            recs.iter().all(|r| r.tag("Site") == Some(site.as_str())),
            "{site}"
        );
        total += recs.len();
    }
    assert_eq!(total, n);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_strips_fixes_and_exports_plies() {
    let dir = scratch("convert");
    let input = corpus("tama/tama-random.pdn");
    let err = ok(&arbiter(
        &[
            "convert",
            &input,
            "--fix",
            "plycount",
            "--strip",
            "comments,variations",
            "-o",
            "f.pdn",
        ],
        &dir,
    ));
    // The self-play games carry correct PlyCount tags: nothing to say.
    assert!(!err.contains("PlyCount"), "{err}");
    let broken = corpus("defects/tama/result-mismatch-unfinished.pdn");
    let err = ok(&arbiter(
        &["convert", &broken, "--fix", "results", "-o", "r.pdn"],
        &dir,
    ));
    assert!(err.contains("result * -> 0-1"), "{err}");
    assert_eq!(
        records(&dir.join("r.pdn"))[0]
            .result
            .as_ref()
            .unwrap()
            .token,
        "0-1"
    );
    ok(&arbiter(
        &[
            "convert",
            &input,
            "--to",
            "json",
            "--positions",
            "-o",
            "g.jsonl",
        ],
        &dir,
    ));
    let text = std::fs::read_to_string(dir.join("g.jsonl")).unwrap();
    let recs = records(Path::new(&input));
    for (line, rec) in text.lines().zip(&recs) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let plies = v["plies"].as_array().unwrap();
        let count: usize = rec.tag("PlyCount").unwrap().parse().unwrap();
        assert_eq!(plies.len(), count);
        assert!(plies
            .iter()
            .all(|p| p["position"].is_string() && p["mover"].is_string()));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An input that cannot be read is named on stderr and skipped; the games of the others are
/// all written, in order, and the exit code is 2 (an I/O error), for every command that
/// copies games.
#[test]
fn unreadable_inputs_are_reported_and_the_others_copied() {
    let dir = scratch("unreadable");
    std::fs::write(dir.join("a.pdn"), "[Event \"a\"]\n1. 32-28 *\n").unwrap();
    std::fs::write(dir.join("b.pdn"), "[Event \"b\"]\n1. 33-29 *\n").unwrap();
    std::fs::write(dir.join("binary.pdn"), [0u8, 159, 146, 150, 0, 1, 2]).unwrap();
    let inputs = ["missing.pdn", "a.pdn", "binary.pdn", "b.pdn"];
    let events = |path: &Path| -> Vec<String> {
        records(path)
            .iter()
            .map(|r| r.tag("Event").unwrap_or_default().to_string())
            .collect()
    };
    let runs: [(&str, &[&str], &str); 4] = [
        ("convert", &["convert", "-o", "out.pdn"], "out.pdn"),
        ("select", &["select", "-o", "sel.pdn"], "sel.pdn"),
        (
            "select, replaying",
            &["select", "--problems", "none", "-o", "none.pdn"],
            "none.pdn",
        ),
        (
            "split",
            &["split", "--games", "5", "-o", "parts"],
            "parts/games-0001.pdn",
        ),
    ];
    for (what, args, written) in runs {
        let mut all = args.to_vec();
        all.extend(inputs);
        let out = arbiter(&all, &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains("missing.pdn: cannot read"), "{what}: {err}");
        assert!(
            err.contains("binary.pdn: cannot read: not a text file"),
            "{what}: {err}"
        );
        assert!(err.contains("2 unreadable inputs"), "{what}: {err}");
        assert_eq!(events(&dir.join(written)), ["a", "b"], "{what}: {err}");
    }
}
