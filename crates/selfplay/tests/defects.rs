//! The hand-made broken records of `corpus/defects/`: each must produce exactly the problem
//! its name and the table in `corpus/README.md` promise — the code, and the ply for move
//! problems — first when replayed with the rules crates directly, and first again through
//! the referee. Games a file holds besides the listed ones must be clean.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");

/// One row of the defects table: file (relative to `corpus/defects`), game (1-based), code,
/// ply.
#[derive(Debug, Clone)]
struct Expect {
    file: String,
    game: usize,
    code: String,
    ply: Option<u32>,
}

/// Reads the defects table of `corpus/README.md`: rows `| `file` | game | `code` | ply | … |`.
fn table() -> Vec<Expect> {
    let readme = std::fs::read_to_string(Path::new(CORPUS).join("README.md")).expect("README");
    let mut rows = Vec::new();
    let section = readme
        .split_once("\n## Defects")
        .map_or("", |(_, rest)| rest);
    for line in section.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 6 || !cells[1].starts_with('`') || !cells[1].ends_with(".pdn`") {
            continue;
        }
        let unquote = |s: &str| s.trim_matches('`').to_string();
        rows.push(Expect {
            file: unquote(cells[1]),
            game: cells[2].parse().expect("game number"),
            code: unquote(cells[3]),
            ply: cells[4].parse().ok(),
        });
    }
    rows
}

fn defect_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let root = Path::new(CORPUS).join("defects");
    for dir in std::fs::read_dir(&root).expect("defects folder") {
        let dir = dir.expect("entry").path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("folder") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "pdn") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

fn relative(path: &Path) -> String {
    let root = Path::new(CORPUS).join("defects");
    path.strip_prefix(&root)
        .expect("under defects")
        .to_string_lossy()
        .replace('\\', "/")
}

#[test]
fn every_defect_file_is_in_the_table_and_named_by_its_code() {
    let rows = table();
    assert!(rows.len() >= 60, "only {} rows", rows.len());
    let files: Vec<String> = defect_files().iter().map(|p| relative(p)).collect();
    for f in &files {
        assert!(
            rows.iter().any(|r| &r.file == f),
            "{f} is not in corpus/README.md"
        );
    }
    let known_syntax = pdn::PROBLEM_KINDS;
    for r in &rows {
        assert!(files.contains(&r.file), "{} is listed but missing", r.file);
        let stem = r
            .file
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .trim_end_matches(".pdn");
        assert!(
            stem == r.code || stem.starts_with(&format!("{}-", r.code)),
            "{} does not carry its code {} in its name",
            r.file,
            r.code
        );
        let is_rules = games::games().registry().code(&r.code).is_some();
        assert!(
            is_rules || known_syntax.contains(&r.code.as_str()),
            "{}",
            r.code
        );
    }
    // Several files per code and game, as promised.
    let mut per: BTreeMap<(String, String), usize> = BTreeMap::new();
    for r in &rows {
        let folder = r.file.split('/').next().unwrap_or_default().to_string();
        *per.entry((folder, r.code.clone())).or_default() += 1;
    }
    for game in ["tama", "odnocvetnie"] {
        for code in [
            "illegal-move",
            "non-maximal-capture",
            "missed-capture",
            "ambiguous-move",
            "result-mismatch",
            "bad-fen",
        ] {
            assert!(
                per.get(&(game.into(), code.into())).copied().unwrap_or(0) >= 2,
                "{game} {code}"
            );
        }
    }
    assert!(per[&("odnocvetnie".into(), "locked-piece".into())] >= 2);
    for code in [
        "illegal-move",
        "unused-throw",
        "bad-throw-series",
        "result-mismatch",
    ] {
        assert!(per[&("thaayam".into(), code.into())] >= 2, "thaayam {code}");
    }
    assert!(per.keys().filter(|(folder, _)| folder == "syntax").count() >= 3);
}

#[test]
fn the_rules_crates_find_exactly_the_listed_problem() {
    let rows = table();
    for path in defect_files() {
        let rel = relative(&path);
        let text = std::fs::read(&path).expect("read");
        let records = pdn::read_all(&text);
        assert!(!records.is_empty(), "{rel}");
        for (i, rec) in records.iter().enumerate() {
            let game = i + 1;
            let found = common::check_strict(rec);
            match rows.iter().find(|r| r.file == rel && r.game == game) {
                Some(e) => {
                    if rel.starts_with("syntax/") {
                        // Reader problems only: the moves themselves are legal.
                        if let Err(f) = common::check_rules(rec) {
                            panic!("{rel} game {game}: the moves should be legal: {f:?}");
                        }
                    }
                    let f = found.expect_err(&format!("{rel} game {game} replays clean"));
                    assert_eq!(
                        (f.code.as_str(), f.ply),
                        (e.code.as_str(), e.ply),
                        "{rel} game {game}: {}",
                        f.message
                    );
                }
                None => {
                    if let Err(f) = found {
                        panic!("{rel} game {game} should be clean: {f:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_referee_reports_the_listed_problem_first() {
    let rows = table();
    for path in defect_files() {
        let rel = relative(&path);
        let text = std::fs::read(&path).expect("read");
        let mut reader = pdn::Reader::new(&text[..]);
        let mut referee = referee::Referee::new(games::games(), referee::Settings::default());
        let mut game = 0;
        while let Some(report) = reader.read_game(&mut referee).expect("read") {
            game += 1;
            let first = report.diagnostics.first();
            match rows.iter().find(|r| r.file == rel && r.game == game) {
                Some(e) => {
                    let d = first.unwrap_or_else(|| panic!("{rel} game {game}: no diagnostic"));
                    assert_eq!(
                        d.code.as_str(),
                        e.code,
                        "{rel} game {game}: {:?}",
                        report.diagnostics
                    );
                    if e.ply.is_some() {
                        assert_eq!(d.ply, e.ply, "{rel} game {game}: {}", d.message);
                    }
                }
                None => assert!(
                    report.diagnostics.is_empty(),
                    "{rel} game {game}: {:?}",
                    report.diagnostics
                ),
            }
        }
    }
}
