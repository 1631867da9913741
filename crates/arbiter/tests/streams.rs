//! Stream hygiene: a closed pipe ends a run quietly (its exit code still the verdict), JSON output holds only JSON, binary
//! input is one diagnostic, gzip is read from standard input too, `--max-errors` and `-q`.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

#[test]
fn a_closed_pipe_ends_the_run_quietly_and_keeps_the_verdict() {
    let mut child = arbiter()
        .args(["validate", "--color", "never"])
        .arg(corpus())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(lines.next().is_some());
    drop(lines);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // The run goes on without printing: the corpus's broken records still give exit 1.
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
}

#[test]
fn json_output_is_only_json_and_binary_input_is_one_diagnostic() {
    let dir = std::env::temp_dir().join(format!("arbiter-streams-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("program");
    let mut bytes = b"\x7fELF\x02\x01".to_vec();
    bytes.extend((0..5000u32).map(|i| (i % 7) as u8));
    std::fs::write(&binary, bytes).unwrap();
    let out = arbiter()
        .args(["validate", "--format", "json"])
        .arg(&binary)
        .arg(dir.join("missing.pdn"))
        .arg(corpus().join("defects/tama"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let objects: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect();
    let unreadable: Vec<&serde_json::Value> = objects
        .iter()
        .filter(|o| o["code"] == "unreadable")
        .collect();
    assert_eq!(unreadable.len(), 2, "{stdout}");
    assert!(objects.len() > 10);
    assert!(unreadable[1]["message"]
        .as_str()
        .unwrap()
        .contains("not a text file"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gzip_on_standard_input_and_quiet_and_max_errors() {
    let text = std::fs::read(corpus().join("defects/tama/ambiguous-move.pdn")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).unwrap();
    let packed = gz.finish().unwrap();
    let run = |args: &[&str]| {
        let mut child = arbiter()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let packed = packed.clone();
        let feeder = std::thread::spawn(move || stdin.write_all(&packed));
        let out = child.wait_with_output().unwrap();
        feeder.join().unwrap().unwrap();
        out
    };
    let out = run(&["validate", "--format", "json", "-"]);
    assert_eq!(out.status.code(), Some(1));
    let lines = String::from_utf8(out.stdout).unwrap();
    assert!(lines.contains("\"ambiguous-move\""), "{lines}");
    let out = run(&["validate", "-q", "-"]);
    let quiet = String::from_utf8(out.stdout).unwrap();
    assert_eq!(quiet.lines().count(), 1, "{quiet}");
    assert!(quiet.starts_with("checked 1 file"));

    let all = arbiter()
        .args(["validate", "--format", "json"])
        .arg(corpus().join("defects"))
        .output()
        .unwrap();
    let capped = arbiter()
        .args(["validate", "--format", "json", "--max-errors", "3"])
        .arg(corpus().join("defects"))
        .output()
        .unwrap();
    // `--max-errors` counts errors: every warning is still printed.
    let count = |out: &std::process::Output, severity: &str| {
        let needle = format!("\"severity\":\"{severity}\"");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.contains(&needle))
            .count()
    };
    assert!(count(&all, "error") > 3);
    assert_eq!(count(&capped, "error"), 3);
    assert!(count(&all, "warning") > 0);
    assert_eq!(count(&capped, "warning"), count(&all, "warning"));
    assert_eq!(capped.status.code(), Some(1));
}
