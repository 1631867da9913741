//! How commands treat their inputs and outputs: merges keep every game, a written PDN file is
//! never taken for JSON, folders are read by every reading command, `-o -` is standard output,
//! a failed command leaves no file, a path without records is an error, and a cut gzip file
//! is the same error everywhere.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arbiter(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-manners-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The names in a folder, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

const TAGS_ONLY: &str =
    "[Event \"Arena\"]\n[Site \"https://lidraughts.org/x\"]\n[GameType \"20\"]\n";
const MOVES_ONLY: &str = "1. 32-28 19-23 2. 28x19 14x23 *\n";
const GAME: &str = "[Event \"e\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-0\n";

#[test]
fn a_tags_only_file_and_a_moves_only_file_merge_into_two_games() {
    let dir = scratch("merge");
    std::fs::write(dir.join("a.pdn"), TAGS_ONLY).unwrap();
    std::fs::write(dir.join("b.pdn"), MOVES_ONLY).unwrap();
    // A game without a result, last in its file, then another file's game.
    std::fs::write(
        dir.join("c.pdn"),
        "[Event \"c\"]\n[GameType \"20\"]\n1. 32-28",
    )
    .unwrap();
    let out = arbiter(
        &dir,
        &["convert", "a.pdn", "b.pdn", "c.pdn", "a.pdn", "-o", "m.pdn"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("converted 4 games"),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(dir.join("m.pdn")).unwrap();
    let games = pdn::read_all(text.as_bytes());
    assert_eq!(games.len(), 4, "{text}");
    assert!(
        games
            .iter()
            .all(|g| g.result.is_some() && g.problems.is_empty()),
        "{text}"
    );
    assert_eq!(games[2].result_token(), "*");
    // The merged file is clean: no missing-result, exit 0.
    let out = arbiter(&dir, &["validate", "m.pdn"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // select and split write the tag section with `*` after it.
    let out = arbiter(&dir, &["select", "a.pdn", "b.pdn", "-o", "s.pdn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        pdn::read_all(&std::fs::read(dir.join("s.pdn")).unwrap()).len(),
        2
    );
    let out = arbiter(
        &dir,
        &["split", "a.pdn", "b.pdn", "--games", "2", "-o", "parts"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(listing(&dir.join("parts")), ["games-0001.pdn"]);
    let part = std::fs::read(dir.join("parts/games-0001.pdn")).unwrap();
    assert_eq!(pdn::read_all(&part).len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_written_pdn_starting_with_a_comment_converts_again() {
    let dir = scratch("comment");
    for (i, first) in ["{[Empty]}", "{3}", "{}", "{\"tags\":[]}"]
        .iter()
        .enumerate()
    {
        let input = format!("in{i}.pdn");
        // A first line that is a record's JSON is JSON: the last comment (written alone on
        // its line, it would be) comes before a tag on its line, and is written so.
        let sep = if i == 3 { " " } else { "\n" };
        std::fs::write(dir.join(&input), format!("{first}{sep}{GAME}\n{GAME}")).unwrap();
        let out = arbiter(&dir, &["convert", &input, "-o", "once.pdn"]);
        assert!(out.status.success(), "{first}: {}", stderr(&out));
        let out = arbiter(&dir, &["convert", "once.pdn", "-o", "twice.pdn"]);
        assert!(out.status.success(), "{first}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("converted 2 games"),
            "{first}: {}",
            stderr(&out)
        );
        let once = std::fs::read(dir.join("once.pdn")).unwrap();
        assert_eq!(
            once,
            std::fs::read(dir.join("twice.pdn")).unwrap(),
            "{first}"
        );
        let games = pdn::read_all(&once);
        assert_eq!(games[0].header_comments[0].text, first[1..first.len() - 1]);
    }
    // JSON lines are still known by their content, whatever the file's name.
    let out = arbiter(
        &dir,
        &["convert", "once.pdn", "--to", "json", "-o", "games.txt"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = arbiter(&dir, &["convert", "games.txt", "-o", "back.pdn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.join("back.pdn")).unwrap(),
        std::fs::read(dir.join("once.pdn")).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_reads_folders() {
    let dir = scratch("folders");
    std::fs::create_dir_all(dir.join("in/sub")).unwrap();
    std::fs::write(dir.join("in/a.pdn"), GAME).unwrap();
    std::fs::write(dir.join("in/sub/b.pdn"), format!("{GAME}\n{GAME}")).unwrap();
    std::fs::write(dir.join("in/notes.txt"), "not a record").unwrap();
    let out = arbiter(&dir, &["convert", "in", "-o", "all.pdn"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        pdn::read_all(&std::fs::read(dir.join("all.pdn")).unwrap()).len(),
        3
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dash_is_standard_output() {
    let dir = scratch("dash");
    std::fs::write(dir.join("g.pdn"), GAME).unwrap();
    let runs: [&[&str]; 4] = [
        &["convert", "g.pdn", "-o", "-"],
        &["select", "g.pdn", "-o", "-"],
        &["selfplay", "--game", "tama", "--games", "1", "-o", "-"],
        &["show", "g.pdn", "-o", "-"],
    ];
    for args in runs {
        let out = arbiter(&dir, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        let expected = if args[0] == "show" { "<svg" } else { "[Event" };
        assert!(text.starts_with(expected), "{args:?}: {text}");
        assert_eq!(listing(&dir), ["g.pdn"], "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A command that could read nothing, or was given what it cannot do, writes no file and
/// leaves an existing one as it was. (With some inputs read, the others' games are written:
/// see `unreadable_inputs_are_reported_and_the_others_copied` in `archive.rs`.)
#[test]
fn a_failed_command_leaves_no_file() {
    let dir = scratch("failed");
    std::fs::write(dir.join("g.pdn"), GAME).unwrap();
    std::fs::write(dir.join("kept.pdn"), "old").unwrap();
    let runs: [&[&str]; 5] = [
        &["convert", "missing.pdn", "-o", "out.pdn"],
        &["convert", "missing.pdn", "other.pdn", "-o", "kept.pdn"],
        &["select", "missing.pdn", "-o", "out.pdn"],
        &[
            "select",
            "missing.pdn",
            "--rest",
            "kept.pdn",
            "-o",
            "out.pdn",
        ],
        &["show", "g.pdn", "--index", "9", "-o", "out.svg"],
    ];
    for args in runs {
        let out = arbiter(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(listing(&dir), ["g.pdn", "kept.pdn"], "{args:?}");
    }
    assert_eq!(std::fs::read(dir.join("kept.pdn")).unwrap(), b"old");
    // An output that is an input is refused, as in every command: the input is kept.
    let before = std::fs::read(dir.join("g.pdn")).unwrap();
    let out = arbiter(&dir, &["convert", "g.pdn", "-o", "g.pdn"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.join("g.pdn")).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_path_without_records_is_an_error_everywhere() {
    let dir = scratch("empty");
    std::fs::create_dir_all(dir.join("none")).unwrap();
    std::fs::write(dir.join("none/readme.txt"), "no games here").unwrap();
    std::fs::write(dir.join("blank.pdn"), "\n  \r\n\n").unwrap();
    std::fs::write(dir.join("empty.pdn"), "").unwrap();
    std::fs::write(dir.join("prose.pdn"), "hello world, this is not a game\n").unwrap();
    for path in ["none", "blank.pdn", "empty.pdn", "prose.pdn"] {
        let runs: [&[&str]; 7] = [
            &["validate", path],
            &["stats", path, "-o", "report"],
            &["convert", path, "-o", "out.pdn"],
            &["select", path, "-o", "out.pdn"],
            &["split", path, "--games", "5", "-o", "parts"],
            &["export", path, "-o", "tables"],
            &["show", path, "-o", "out.svg"],
        ];
        for args in runs {
            if path == "none" && args[0] == "show" {
                continue;
            }
            let out = arbiter(&dir, args);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            let said = stderr(&out) + &String::from_utf8_lossy(&out.stdout);
            assert!(
                said.contains(&format!("no game records in {path}")),
                "{args:?}: {said}"
            );
            assert!(!said.contains("no problems found"), "{args:?}: {said}");
            assert!(!dir.join("out.pdn").exists(), "{args:?}");
        }
    }
    // Standard input alike: words alone, blanks alone.
    for text in ["hello world, this is not a game\n", "\n \n"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["validate", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{text:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("no game records in <stdin>"),
            "{}",
            stderr(&out)
        );
    }
    // Blanks before the first game are read as they are (line numbers do not move).
    std::fs::write(
        dir.join("late.pdn"),
        format!("{}1. 32-28 *\n", "\n".repeat(70_000)),
    )
    .unwrap();
    let out = arbiter(&dir, &["validate", "late.pdn", "--format", "json"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("\"line\":70001"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cut_gzip_file_is_the_same_error_in_every_command() {
    let dir = scratch("gzip");
    let mut text = String::new();
    for i in 0..400 {
        text.push_str(&format!("[Round \"{i}\"]\n{GAME}\n"));
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let packed = gz.finish().unwrap();
    std::fs::write(dir.join("whole.pdn.gz"), &packed).unwrap();
    std::fs::write(dir.join("cut.pdn.gz"), &packed[..packed.len() * 2 / 3]).unwrap();
    let out = arbiter(&dir, &["convert", "whole.pdn.gz", "-o", "-"]);
    assert_eq!(pdn::read_all(&out.stdout).len(), 400);
    let runs: [&[&str]; 7] = [
        &["validate", "cut.pdn.gz"],
        &["stats", "cut.pdn.gz", "-o", "report"],
        &["convert", "cut.pdn.gz", "-o", "out.pdn"],
        &["select", "cut.pdn.gz", "-o", "out.pdn"],
        &["split", "cut.pdn.gz", "--games", "50", "-o", "parts"],
        &["export", "cut.pdn.gz", "-o", "tables"],
        &["show", "cut.pdn.gz", "-o", "out.svg"],
    ];
    for args in runs {
        let out = arbiter(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("cut.pdn.gz: cannot read: the gzip data is cut short"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(!dir.join("out.pdn").exists() && !dir.join("out.svg").exists());
    }
    // Standard input alike.
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["convert", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let cut = packed[..packed.len() * 2 / 3].to_vec();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(&cut));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("the gzip data is cut short"),
        "{}",
        stderr(&out)
    );
    // Split wrote no file.
    assert!(!dir.join("parts").exists() || listing(&dir.join("parts")).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `export` exits as `validate` and `stats` do (docs/user-guide.md): 1 when records have
/// errors, 0 when they have none; the tables are written either way.
#[test]
fn export_exits_1_on_records_with_errors_as_validate_does() {
    let dir = scratch("export-exit");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let defects = repo.join("corpus/defects/english");
    let clean = repo.join("corpus/tama");
    for (input, code) in [(&defects, 1), (&clean, 0)] {
        let input = input.display().to_string();
        let validated = arbiter(&dir, &["validate", "-q", &input]);
        assert_eq!(validated.status.code(), Some(code), "{input}");
        let _ = std::fs::remove_dir_all(dir.join("tables"));
        let out = arbiter(&dir, &["export", &input, "-o", "tables"]);
        assert_eq!(out.status.code(), Some(code), "{input}: {}", stderr(&out));
        assert!(dir.join("tables/games.parquet").exists());
    }
}

/// Counts are worded for their number ("1 game", "1 ply", "2 plies"), and `--help` names every
/// kind of file a folder search finds.
#[test]
fn counts_are_worded_for_their_number_and_help_names_trial_files() {
    let dir = scratch("wording");
    std::fs::write(dir.join("one.pdn"), "[GameType \"20\"]\n\n1. 32-28 *\n").unwrap();
    let out = arbiter(&dir, &["export", "one.pdn", "-o", "tables"]);
    let said = stderr(&out);
    assert!(
        said.contains("wrote 1 game, 1 ply and 0 diagnostics"),
        "{said}"
    );
    let out = arbiter(&dir, &["view", "one.pdn", "-o", "v.html"]);
    let said = stderr(&out);
    assert!(said.contains("(1 game, no problems)"), "{said}");
    let out = arbiter(&dir, &["validate", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("*.trl"), "{help}");
}
