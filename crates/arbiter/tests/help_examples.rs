//! Every example that a `--help` page shows is run, and must succeed: exit code 0, or 1 where
//! the example validates records that have problems (which is what it shows). Examples run in
//! a scratch folder where `corpus` points at the repository's corpus.

use std::path::{Path, PathBuf};
use std::process::Command;

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

/// The `--help` text of the program and of each subcommand.
fn help_pages() -> Vec<(String, String)> {
    let top = arbiter().arg("--help").output().expect("arbiter runs");
    let text = String::from_utf8(top.stdout).unwrap();
    let mut pages = vec![("arbiter".to_string(), text.clone())];
    let commands: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 8, "{commands:?}");
    for c in commands {
        let out = arbiter().args([c.as_str(), "--help"]).output().unwrap();
        assert!(out.status.success(), "arbiter {c} --help failed");
        pages.push((c, String::from_utf8(out.stdout).unwrap()));
    }
    pages
}

/// The example command lines of a help page (the lines after `Examples:`).
fn examples(page: &str) -> Vec<String> {
    page.lines()
        .skip_while(|l| l.trim() != "Examples:")
        .skip(1)
        .map(str::trim)
        .take_while(|l| l.starts_with("arbiter "))
        .map(str::to_string)
        .collect()
}

/// Splits an example into arguments (double quotes group words).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-help-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let link = dir.join("corpus");
    if !link.exists() {
        std::os::unix::fs::symlink(corpus.canonicalize().unwrap(), &link).unwrap();
    }
    dir
}

#[test]
fn every_help_page_has_examples_and_they_succeed() {
    let dir = scratch();
    let mut ran = 0;
    for (command, page) in help_pages() {
        let lines = examples(&page);
        assert!(
            lines.len() >= 2,
            "`arbiter {command} --help` should end with two or three examples:\n{page}"
        );
        for line in lines {
            let args = words(&line);
            let out = arbiter()
                .args(&args[1..])
                .current_dir(&dir)
                .output()
                .unwrap();
            let code = out.status.code();
            let problems_shown =
                matches!(args[1].as_str(), "validate" | "stats" | "view" | "export")
                    && code == Some(1);
            assert!(
                code == Some(0) || problems_shown,
                "example `{line}` exited with {code:?}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 20, "only {ran} examples");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flag_that_does_not_apply_is_refused_with_a_reason() {
    let out = arbiter()
        .args(["moves", "--game", "tama", "--throws", "1 2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--throws is for games of chance"));

    let out = arbiter()
        .args(["perft", "--game", "tama", "--rules", "foo", "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`foo`") && err.contains("ludii"), "{err}");

    let out = arbiter()
        .args([
            "validate",
            "corpus",
            "--game",
            "tama",
            "--rules",
            "lock-any-piece",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));

    let out = arbiter()
        .args([
            "moves",
            "--game",
            "thaayam",
            "--throws",
            "1 2",
            "--squares",
            "numeric",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no numeric form"));

    let out = arbiter()
        .args(["show", "x.pdn", "--game", "chess", "-o", "x.svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("known: tama"));
}
