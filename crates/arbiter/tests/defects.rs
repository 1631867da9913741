//! Every record in `corpus/defects/` must produce exactly the diagnostics stored beside it in
//! `<name>.expected` (the JSON lines of `arbiter validate --format json`, run from the
//! record's folder). To regenerate after a deliberate change of messages, run with
//! `UPDATE_EXPECTED=1` and review the diff.

use std::path::{Path, PathBuf};
use std::process::Command;

fn defect_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/defects");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("corpus/defects is part of the repository") {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pdn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn validate(file: &Path) -> (String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(file.parent().unwrap())
        .args(["validate", "--format", "json"])
        .arg(file.file_name().unwrap())
        .output()
        .expect("run arbiter");
    (
        String::from_utf8(output.stdout).expect("UTF-8 output"),
        output.status.code().unwrap_or(-1),
    )
}

#[test]
fn every_defect_record_gives_its_expected_diagnostics() {
    let files = defect_files();
    assert!(files.len() >= 60, "only {} defect records", files.len());
    let update = std::env::var_os("UPDATE_EXPECTED").is_some();
    let mut failures = Vec::new();
    for file in &files {
        let (actual, code) = validate(file);
        let expected_path = file.with_extension("expected");
        // A defect record is broken on purpose: at least one diagnostic, and the right code.
        let has_error = actual.contains("\"severity\":\"error\"");
        assert_eq!(code, if has_error { 1 } else { 0 }, "{}", file.display());
        assert!(!actual.is_empty(), "{} gives no diagnostic", file.display());
        let stem = file.file_stem().unwrap().to_string_lossy();
        let named_code = [
            "illegal-move",
            "non-maximal-capture",
            "missed-capture",
            "ambiguous-move",
            "result-mismatch",
            "bad-fen",
            "locked-piece",
            "unused-throw",
            "bad-throw-series",
        ]
        .into_iter()
        .find(|c| stem.starts_with(c));
        if let Some(c) = named_code {
            let first = actual.lines().next().unwrap_or_default();
            assert!(
                first.contains(&format!("\"code\":\"{c}\"")),
                "{}: first diagnostic is not {c}: {first}",
                file.display()
            );
        }
        if update {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{}:\n--- expected\n{expected}--- actual\n{actual}",
                file.display()
            )),
            Err(_) => failures.push(format!("{}: no .expected file", file.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
