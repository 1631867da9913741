//! A rule of the house, checked over every crate's tests: a test that reads the archives of
//! `../shared` (directly, or through a helper or constant of its file or of its `common`
//! module that names that folder) says so in its name, ending in `_in_shared`. Where the
//! folder is absent such a test passes without checking anything, and cargo keeps its notice
//! to itself: the name is what tells (`scripts/test-all` also says so when it is absent).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const CRATES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level functions and constants of a file: (name, text up to the next item).
fn items(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let head = line
            .strip_prefix("fn ")
            .or_else(|| line.strip_prefix("pub fn "))
            .or_else(|| line.strip_prefix("pub(crate) fn "))
            .or_else(|| line.strip_prefix("const "))
            .or_else(|| line.strip_prefix("static "));
        match head {
            Some(rest) => {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push((name, format!("{line}\n")));
            }
            None => {
                if let Some((_, body)) = out.last_mut() {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    out
}

/// The names among `items` that reach `../shared`: those naming it, then those using one
/// that does, and those using one of `known` (the common module's) as `common::NAME`.
fn reaching(items: &[(String, String)], known: &BTreeSet<String>) -> BTreeSet<String> {
    let mut set: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = set.len();
        for (name, body) in items {
            let code: String = body
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            if code.contains("shared/")
                || set
                    .iter()
                    .filter(|n| *n != name)
                    .any(|n| mentions(&code, n.as_str()))
                || known.iter().any(|n| code.contains(&format!("common::{n}")))
            {
                set.insert(name.clone());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// Whether `code` uses `name`: calls it (a function) or names it as a whole word (a
/// constant, in capitals).
fn mentions(code: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let constant = name.chars().all(|c| !c.is_lowercase());
    code.match_indices(name).any(|(i, _)| {
        let next = code[i + name.len()..].chars().next();
        !word(code[..i].chars().next_back())
            && if constant {
                !word(next)
            } else {
                next == Some('(')
            }
    })
}

#[test]
fn tests_reading_shared_data_say_so_in_their_names() {
    let mut files = Vec::new();
    for krate in std::fs::read_dir(CRATES).unwrap().flatten() {
        rust_files(&krate.path().join("tests"), &mut files);
    }
    assert!(
        files.len() > 30,
        "the crates' tests are missing: {}",
        files.len()
    );
    let mut wrong = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let common = file.parent().unwrap().join("common/mod.rs");
        let known = match std::fs::read_to_string(&common) {
            Ok(c) if text.contains("mod common;") => reaching(&items(&c), &BTreeSet::new()),
            _ => BTreeSet::new(),
        };
        let items = items(&text);
        let reach = reaching(&items, &known);
        for (name, _) in &items {
            let is_test = text.contains(&format!("#[test]\nfn {name}("));
            if is_test && reach.contains(name) {
                checked += 1;
                if !name.ends_with("_in_shared") && !name.contains("shared") {
                    wrong.push(format!("{}: {name}", file.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "tests reading ../shared without saying so:\n{}",
        wrong.join("\n")
    );
    assert!(checked > 20, "only {checked} tests found reading ../shared");
}
