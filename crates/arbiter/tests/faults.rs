//! Fault injection: every writing command interrupted mid-run (SIGINT and SIGTERM), writing to
//! a disk that fills up (the `ARBITER_TEST_FAIL_WRITES_AFTER` hook of `outfile`, and
//! `/dev/full`), two runs at once into one folder, symlinks planted where outputs go. Each
//! time the previous output is intact or the new one complete, nothing is left behind and
//! nothing outside the folder changes. Also: records beyond a reader's limit are refused, not
//! cut; control characters never reach the terminal; a closed pipe keeps the verdict.
//!
//! No test waits on a clock: a run is interrupted once its temporary file is seen, and
//! blocks reading standard input until then.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

fn arbiter(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-faults-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every path under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let p = e.unwrap().path();
            out.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            if p.is_dir() && !p.is_symlink() {
                walk(root, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Whether any temporary of a run is left under `dir`.
fn leftovers(dir: &Path) -> Vec<String> {
    tree(dir)
        .into_iter()
        .filter(|p| p.contains(".arbiter-") || p.ends_with(".part"))
        .collect()
}

/// A draughts game (GameType 21), numbered.
fn game(n: usize) -> String {
    format!("[Event \"E{n}\"]\n[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 23-19 *\n\n")
}

/// Waits (without a clock: as long as it takes) until `found` holds.
fn wait_until(child: &mut Child, mut found: impl FnMut() -> bool) {
    while !found() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended before it could be interrupted: {status}");
        }
        std::thread::yield_now();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{sig}"), &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{sig}");
}

/// One writing command, interrupted while it reads standard input.
struct Case {
    name: &'static str,
    args: &'static [&'static str],
    /// What the folder holds before (the previous output), written by `prepare`.
    prepare: fn(&Path),
    /// Whether the run makes a temporary before it has read anything.
    temp_at_once: bool,
}

fn previous_file(dir: &Path) {
    std::fs::write(dir.join("out.pdn"), "previous output\n").unwrap();
}

fn previous_folder(dir: &Path) {
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::write(dir.join("out/games.parquet"), "previous tables").unwrap();
    std::fs::write(dir.join("out/report.html"), "previous report").unwrap();
    std::fs::write(dir.join("out/mine.txt"), "the user's own file").unwrap();
}

const CASES: &[Case] = &[
    Case {
        name: "convert",
        args: &["convert", "-", "-o", "out.pdn"],
        prepare: previous_file,
        temp_at_once: true,
    },
    Case {
        name: "select",
        args: &["select", "-", "--tag", "GameType=21", "-o", "out.pdn"],
        prepare: previous_file,
        temp_at_once: true,
    },
    Case {
        name: "split",
        args: &["split", "-", "--games", "1", "-o", "out"],
        prepare: previous_folder,
        temp_at_once: false,
    },
    Case {
        name: "export",
        args: &["export", "-", "-o", "out"],
        prepare: previous_folder,
        temp_at_once: true,
    },
    Case {
        name: "stats",
        args: &["stats", "-", "-o", "out"],
        prepare: previous_folder,
        temp_at_once: false,
    },
];

#[test]
fn an_interrupt_leaves_the_previous_output_and_nothing_else() {
    for case in CASES {
        for (sig, code) in [("INT", 130), ("TERM", 143)] {
            let dir = scratch(&format!("sig-{}-{sig}", case.name));
            (case.prepare)(&dir);
            let listed = tree(&dir);
            let before: Vec<(String, Vec<u8>)> = tree(&dir)
                .into_iter()
                .filter(|p| dir.join(p).is_file())
                .map(|p| {
                    let bytes = std::fs::read(dir.join(&p)).unwrap();
                    (p, bytes)
                })
                .collect();
            let mut child = Command::new(BIN)
                .current_dir(&dir)
                .args(case.args)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            // Enough games to fill the reader's first buffer: they are handed on while the
            // run waits for more.
            let games: String = (0..2000).map(game).collect();
            stdin.write_all(games.as_bytes()).unwrap();
            stdin.flush().unwrap();
            if case.temp_at_once || case.args[0] == "split" {
                wait_until(&mut child, || !leftovers(&dir).is_empty());
            }
            signal(&child, sig);
            let out = child.wait_with_output().unwrap();
            drop(stdin);
            let what = format!("{} on SIG{sig}", case.name);
            assert_eq!(out.status.code(), Some(code), "{what}: {}", stderr(&out));
            assert!(leftovers(&dir).is_empty(), "{what}: {:?}", leftovers(&dir));
            for (p, bytes) in &before {
                assert_eq!(&std::fs::read(dir.join(p)).unwrap(), bytes, "{what}: {p}");
            }
            assert_eq!(tree(&dir), listed, "{what}: entries added or removed");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

#[test]
fn an_interrupted_run_removes_the_folder_it_created() {
    let dir = scratch("created");
    let mut child = Command::new(BIN)
        .current_dir(&dir)
        .args(["export", "-", "-o", "new/tables"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Kept open until the run ends: an end of input would race the signal.
    let stdin = child.stdin.take();
    wait_until(&mut child, || !leftovers(&dir).is_empty());
    signal(&child, "INT");
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(!dir.join("new/tables").exists(), "{:?}", tree(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_disk_that_fills_up_leaves_the_previous_output() {
    let dir = scratch("full");
    let input: String = (0..300).map(game).collect();
    std::fs::write(dir.join("in.pdn"), &input).unwrap();
    for args in [
        &["convert", "in.pdn", "-o", "out.pdn"][..],
        &["select", "in.pdn", "--tag", "GameType=21", "-o", "out.pdn"][..],
        &["split", "in.pdn", "--games", "100", "-o", "parts"][..],
    ] {
        std::fs::write(dir.join("out.pdn"), "previous output\n").unwrap();
        std::fs::create_dir_all(dir.join("parts")).unwrap();
        std::fs::write(dir.join("parts/in-0001.pdn"), "previous part\n").unwrap();
        let out = Command::new(BIN)
            .current_dir(&dir)
            .args(args)
            .env("ARBITER_TEST_FAIL_WRITES_AFTER", "1000")
            .output()
            .unwrap();
        let what = args[0];
        assert_eq!(out.status.code(), Some(2), "{what}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("No space left on device"), "{what}: {err}");
        // The error names the output, not the input.
        assert!(
            err.contains("out.pdn") || err.contains("parts/"),
            "{what}: {err}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("out.pdn")).unwrap(),
            "previous output\n"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("parts/in-0001.pdn")).unwrap(),
            "previous part\n"
        );
        assert!(leftovers(&dir).is_empty(), "{what}: {:?}", leftovers(&dir));
    }
    // Standard output on a full device: an error, not a quiet success.
    if Path::new("/dev/full").exists() {
        let full = std::fs::File::create("/dev/full").unwrap();
        let out = Command::new(BIN)
            .current_dir(&dir)
            .args(["convert", "in.pdn"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether this machine lets a test mount a tmpfs at `mnt` in a mount namespace of its own.
fn tmpfs_can_be_mounted(mnt: &Path) -> bool {
    Command::new("unshare")
        .args([
            "-rm",
            "sh",
            "-c",
            "mount -t tmpfs -o size=64k none \"$1\"",
            "sh",
        ])
        .arg(mnt)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `export` and `stats` on a real file system that fills up (a 1 MiB tmpfs, nearly full,
/// mounted in a mount namespace of its own): an error that names the output, the previous
/// tables and report as they were, nothing left behind. Skipped, saying so, where the
/// machine allows no such mount.
#[test]
fn a_full_file_system_leaves_the_previous_tables_and_report() {
    let dir = scratch("tmpfs");
    let input: String = (0..3000).map(game).collect();
    std::fs::write(dir.join("in.pdn"), &input).unwrap();
    let mnt = dir.join("mnt");
    std::fs::create_dir_all(&mnt).unwrap();
    if !tmpfs_can_be_mounted(&mnt) {
        eprintln!("skipping: no tmpfs can be mounted here (unshare -rm); see a_disk_that_fills_up_leaves_the_previous_output");
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    }
    // In the namespace: the previous output, a filler that leaves three pages free, the run,
    // then everything but the filler copied out for the checks.
    let script = r#"
        set -e
        mount -t tmpfs -o size=1m none "$MNT"
        mkdir "$MNT/out"
        printf 'previous tables' > "$MNT/out/games.parquet"
        printf 'previous report' > "$MNT/out/report.html"
        head -c 1024000 /dev/zero > "$MNT/filler"
        cd "$MNT"
        set +e
        "$BIN" "$@" > "$REC/stdout" 2> "$REC/stderr"
        echo $? > "$REC/code"
        rm "$MNT/filler"
        cp -a "$MNT/." "$REC/after/"
    "#;
    for command in ["export", "stats"] {
        let rec = dir.join(format!("rec-{command}"));
        std::fs::create_dir_all(rec.join("after")).unwrap();
        let o = Command::new("unshare")
            .args(["-rm", "sh", "-c", script, "sh", command])
            .arg(dir.join("in.pdn"))
            .args(["-o", "out"])
            .env("MNT", &mnt)
            .env("REC", &rec)
            .env("BIN", BIN)
            .output()
            .unwrap();
        assert!(o.status.success(), "{command}: {}", stderr(&o));
        let read = |name: &str| std::fs::read_to_string(rec.join(name)).unwrap();
        let err = read("stderr");
        assert_eq!(read("code").trim(), "2", "{command}: {err}");
        assert!(err.contains("No space left on device"), "{command}: {err}");
        assert!(err.contains("out"), "{command}: {err}");
        let after = rec.join("after");
        assert_eq!(
            tree(&after),
            ["out", "out/games.parquet", "out/report.html"],
            "{command}"
        );
        assert_eq!(read("after/out/games.parquet"), "previous tables");
        assert_eq!(read("after/out/report.html"), "previous report");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_exports_at_once_into_one_folder_never_mix() {
    let dir = scratch("two");
    let a: String = (0..400).map(game).collect();
    let b = "[GameType \"21\"]\n[Result \"*\"]\n1. 9-13 22-18 *\n\n".repeat(700);
    std::fs::write(dir.join("a.pdn"), &a).unwrap();
    std::fs::write(dir.join("b.pdn"), &b).unwrap();
    for (input, out) in [("a.pdn", "solo-a"), ("b.pdn", "solo-b")] {
        let o = arbiter(&dir, &["export", input, "-o", out]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let tables = ["games.parquet", "plies.parquet", "diagnostics.parquet"];
    let set = |folder: &str| -> Vec<Vec<u8>> {
        tables
            .iter()
            .map(|t| std::fs::read(dir.join(folder).join(t)).unwrap())
            .collect()
    };
    let (solo_a, solo_b) = (set("solo-a"), set("solo-b"));
    assert_ne!(solo_a, solo_b);
    for round in 0..3 {
        let spawn = |input: &str| {
            Command::new(BIN)
                .current_dir(&dir)
                .args(["export", input, "-o", "shared"])
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (x, y) = (spawn("a.pdn"), spawn("b.pdn"));
        for c in [x, y] {
            let o = c.wait_with_output().unwrap();
            assert!(o.status.success(), "round {round}: {}", stderr(&o));
        }
        let shared = set("shared");
        assert!(
            shared == solo_a || shared == solo_b,
            "round {round}: the tables of two runs are mixed"
        );
        assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_partitioned_export_replaces_every_old_partition() {
    let dir = scratch("partitions");
    let year = |y: u32, n: usize| -> String {
        (0..n)
            .map(|i| {
                format!("[Date \"{y}.01.01\"]\n[Event \"{i}\"]\n[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 *\n\n")
            })
            .collect()
    };
    std::fs::write(dir.join("old.pdn"), year(2001, 3) + &year(2002, 3)).unwrap();
    std::fs::write(dir.join("new.pdn"), year(2003, 2)).unwrap();
    let run = |input: &str, by: &str| {
        let o = arbiter(&dir, &["export", input, "-o", "t", "--partition-by", by]);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    run("old.pdn", "year");
    assert!(dir.join("t/games/year=2001").is_dir());
    run("new.pdn", "year");
    let games: Vec<String> = tree(&dir.join("t/games"));
    assert_eq!(games, ["year=2003", "year=2003/part-0.parquet"]);
    // The plain form replaces the partitioned one, and the other way round.
    let o = arbiter(&dir, &["export", "new.pdn", "-o", "t"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        tree(&dir.join("t")),
        ["diagnostics.parquet", "games.parquet", "plies.parquet"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn outputs_never_follow_a_planted_symlink_and_keep_their_mode() {
    let dir = scratch("symlink");
    let outside = scratch("symlink-outside");
    let victim = outside.join("victim");
    std::fs::write(&victim, "must not change").unwrap();
    std::fs::write(dir.join("in.pdn"), game(1) + &game(2)).unwrap();
    // The output name itself a symlink: replaced, never written through.
    std::os::unix::fs::symlink(&victim, dir.join("out.pdn")).unwrap();
    let o = arbiter(&dir, &["convert", "in.pdn", "-o", "out.pdn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!dir.join("out.pdn").is_symlink());
    // A split file name planted as a symlink.
    std::fs::create_dir_all(dir.join("parts")).unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("parts/in-0001.pdn")).unwrap();
    let o = arbiter(&dir, &["split", "in.pdn", "--games", "1", "-o", "parts"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Temporary names planted in every form earlier versions used, for this and any pid.
    for name in [
        ".arbiter-1.out.pdn",
        ".out.pdn.1.part",
        "arbiter-select-1-0-0.out",
    ] {
        std::os::unix::fs::symlink(&victim, dir.join(name)).unwrap();
    }
    for args in [
        &["convert", "in.pdn", "-o", "out.pdn"][..],
        &["select", "in.pdn", "--tag", "GameType=21", "-o", "out.pdn"][..],
        &["export", "in.pdn", "-o", "."][..],
    ] {
        let o = arbiter(&dir, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "must not change");
    assert_eq!(tree(&outside), ["victim"]);
    // A replaced file keeps its mode.
    std::fs::set_permissions(dir.join("out.pdn"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let o = arbiter(&dir, &["convert", "in.pdn", "-o", "out.pdn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mode = std::fs::metadata(dir.join("out.pdn"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&outside).unwrap();
}

#[test]
fn no_command_writes_over_its_input() {
    let dir = scratch("own-input");
    std::fs::write(dir.join("untagged.pdn"), game(1)).unwrap();
    let o = arbiter(&dir, &["split", "untagged.pdn", "--by", "Round", "-o", "."]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is an input"), "{}", stderr(&o));
    for args in [
        &["convert", "untagged.pdn", "-o", "./untagged.pdn"][..],
        &[
            "select",
            "untagged.pdn",
            "--tag",
            "GameType=21",
            "-o",
            "untagged.pdn",
        ][..],
        &["view", "untagged.pdn", "-o", "untagged.pdn"][..],
    ] {
        let o = arbiter(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("both an input and an output"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("untagged.pdn")).unwrap(),
        game(1)
    );
    assert!(leftovers(&dir).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn variations_beyond_the_readers_depth_refuse_the_game_not_cut_it() {
    let dir = scratch("deep");
    let deep = format!(
        "[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 {}{} 23-18 *\n\n",
        "( 1. 9-13 ".repeat(40),
        ")".repeat(40)
    );
    let fine = format!(
        "[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 {}{} 23-18 *\n\n",
        "( 1. 9-13 ".repeat(32),
        ")".repeat(32)
    );
    std::fs::write(dir.join("d.pdn"), deep + &fine).unwrap();
    let o = arbiter(&dir, &["convert", "d.pdn", "-o", "o.pdn"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("game 1") && err.contains("limit of 32"),
        "{err}"
    );
    assert!(err.contains("refused"), "{err}");
    assert!(!err.contains("kept as read"), "{err}");
    // The game within the limit is written back whole: 32 variations, the move after them.
    let written = std::fs::read_to_string(dir.join("o.pdn")).unwrap();
    assert_eq!(written.matches('(').count(), 32, "{written}");
    assert!(written.contains("23-18"), "{written}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let dir = scratch("escape");
    let name = "e\u{7}.pdn";
    std::fs::write(
        dir.join(name),
        "[Rules \"\u{1b}[2J\"]\n[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 *\n",
    )
    .unwrap();
    let o = arbiter(&dir, &["validate", name]);
    let all = [o.stdout.as_slice(), o.stderr.as_slice()].concat();
    assert!(
        !all.contains(&0x1b) && !all.contains(&0x07),
        "{}",
        String::from_utf8_lossy(&all)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("\\u{1b}[2J"));
    // show: the SVG is valid XML whatever the file name, and its line on the terminal
    // escapes it.
    let o = arbiter(&dir, &["show", name, "-o", "x.svg"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!o.stderr.contains(&0x07), "{}", stderr(&o));
    let svg = std::fs::read_to_string(dir.join("x.svg")).unwrap();
    assert!(
        !svg.contains('\u{7}') && svg.contains("e\\u{7}.pdn"),
        "{svg}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs arbiter in `dir`, reads the first line of its standard output, closes it, and waits
/// for the end of the run.
fn first_line_then_closed(dir: &Path, args: &[&str]) -> (String, Output) {
    let mut child = Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    (first, child.wait_with_output().unwrap())
}

#[test]
fn a_closed_pipe_keeps_the_verdict_and_never_panics() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/defects");
    let corpus = corpus.to_str().unwrap();
    let (first, out) = first_line_then_closed(Path::new("."), &["validate", corpus]);
    assert!(first.contains("error"), "{first}");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    for args in [&["completions", "bash"][..], &["games"][..]] {
        let mut child = Command::new(BIN)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.signal().is_none(), "{args:?}");
        assert!(
            !stderr(&out).contains("panicked"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// `convert` and `select` on a closed standard output stop writing, not reading: an input
/// that cannot be read after the pipe closed still gives exit 2, and nothing is said of the
/// pipe.
#[test]
fn convert_and_select_keep_the_verdict_when_the_pipe_closes() {
    let dir = scratch("closed");
    // Far more than a pipe holds, then an input that is no text.
    let many: String = (0..4000).map(game).collect();
    std::fs::write(dir.join("many.pdn"), many).unwrap();
    std::fs::write(dir.join("zbinary.pdn"), [0u8, 159, 146, 150, 0, 1, 2]).unwrap();
    for args in [
        &["convert", "many.pdn", "zbinary.pdn"][..],
        &[
            "select",
            "many.pdn",
            "zbinary.pdn",
            "--tag",
            "GameType=21",
            "-o",
            "-",
        ][..],
    ] {
        let (first, out) = first_line_then_closed(&dir, args);
        assert!(first.starts_with("[Event"), "{args:?}: {first}");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("zbinary.pdn"), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_new_report_leaves_no_chart_of_the_old_one() {
    let dir = scratch("report");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/defects");
    let run = |sub: &str| {
        let o = Command::new(BIN)
            .current_dir(&dir)
            .args(["stats"])
            .arg(corpus.join(sub))
            .args(["-o", "report"])
            .output()
            .unwrap();
        assert!(o.status.code().is_some_and(|c| c < 2), "{}", stderr(&o));
        let mut files = tree(&dir.join("report"));
        files.retain(|f| f.ends_with(".svg"));
        files
    };
    std::fs::create_dir_all(dir.join("report")).unwrap();
    std::fs::write(dir.join("report/notes.txt"), "the user's").unwrap();
    let thaayam = run("thaayam");
    let english = run("english");
    // Charts only the first report had are gone with it.
    let only_first: Vec<&String> = thaayam.iter().filter(|c| !english.contains(c)).collect();
    assert!(
        !only_first.is_empty(),
        "the two reports have different charts"
    );
    assert_eq!(run("english"), english);
    let now = tree(&dir.join("report"));
    assert!(
        only_first.iter().all(|c| !now.contains(c)),
        "{only_first:?}"
    );
    assert!(now.contains(&"notes.txt".to_string()));
    assert!(leftovers(&dir).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_beyond_the_readers_limit_is_refused_by_split_select_and_validate_not_cut() {
    let dir = scratch("huge");
    // 70 MB in one game (many short comments), between two small games.
    let mut text = game(1);
    text.push_str("[Event \"huge\"]\n[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 ");
    let line = format!("{{{}}} ", "x".repeat(98)).repeat(10_000) + "\n";
    for _ in 0..70 {
        text.push_str(&line);
    }
    text.push_str("23-18 *\n\n");
    text.push_str(&game(3));
    std::fs::write(dir.join("in.pdn"), &text).unwrap();
    drop(text);
    let o = arbiter(&dir, &["split", "in.pdn", "--by", "Event", "-o", "parts"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("game 2") && err.contains("64 MiB") && err.contains("refused"),
        "{err}"
    );
    assert_eq!(tree(&dir.join("parts")), ["E1.pdn", "E3.pdn"]);
    let o = arbiter(
        &dir,
        &["select", "in.pdn", "--tag", "GameType=21", "-o", "out.pdn"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("64 MiB") && err.contains("refused"), "{err}");
    let written = std::fs::read_to_string(dir.join("out.pdn")).unwrap();
    assert!(
        !written.contains("xxxx"),
        "no part of the huge game is written"
    );
    assert_eq!(written.matches("[Event").count(), 2);
    // validate (which reads one file in chunks on every core) refuses the same game, names
    // its lines, and checks the game after it.
    let o = arbiter(&dir, &["validate", "in.pdn"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("in.pdn: cannot read: lines 6-") && err.contains("64 MiB"),
        "{err}"
    );
    let said = format!("{}{err}", String::from_utf8_lossy(&o.stdout));
    assert!(
        err.contains("refused") && said.contains(", 2 games"),
        "{said}"
    );
    assert!(leftovers(&dir).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every path under `dir` with its bytes (`None` for a folder).
fn snapshot(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    tree(dir)
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(dir.join(&p)).ok();
            (p, bytes)
        })
        .collect()
}

/// One writing command for [`every_writing_command_fails_whole_on_a_full_disk`]: its
/// arguments (run in a folder holding `in.pdn`) and the output its errors must name.
struct Writer {
    args: &'static [&'static str],
    output: &'static str,
}

/// Games with dates over three years (for `--partition-by year`).
fn dated_games(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "[Event \"E{i}\"]\n[Date \"{}.05.01\"]\n[White \"W{}\"]\n[Black \"B{}\"]\n[GameType \"21\"]\n[Result \"*\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n",
                2001 + i % 3,
                i % 5,
                i % 7
            )
        })
        .collect()
}

const WRITERS: &[Writer] = &[
    Writer {
        args: &["convert", "in.pdn", "-o", "out.pdn"],
        output: "out.pdn",
    },
    Writer {
        args: &["select", "in.pdn", "--tag", "GameType=21", "-o", "out.pdn"],
        output: "out.pdn",
    },
    Writer {
        args: &["split", "in.pdn", "--games", "100", "-o", "parts"],
        output: "parts/",
    },
    Writer {
        args: &["export", "in.pdn", "-o", "tables"],
        output: "tables",
    },
    Writer {
        args: &["export", "in.pdn", "-o", "parted", "--partition-by", "year"],
        output: "parted",
    },
    Writer {
        args: &["stats", "in.pdn", "-o", "report"],
        output: "report",
    },
    Writer {
        args: &["validate", "in.pdn", "--report", "vreport"],
        output: "vreport",
    },
    Writer {
        args: &["view", "in.pdn", "-o", "page.html"],
        output: "page.html",
    },
    Writer {
        args: &["show", "in.pdn", "-o", "pic.svg"],
        output: "pic.svg",
    },
    Writer {
        args: &["show", "in.pdn", "-o", "pic.png"],
        output: "pic.png",
    },
    Writer {
        args: &[
            "analyse", "in.pdn", "--limit", "2", "--nodes", "50", "-q", "--export", "atables",
        ],
        output: "atables",
    },
    Writer {
        args: &[
            "analyse", "in.pdn", "--limit", "2", "--nodes", "50", "-q", "--report", "areport",
        ],
        output: "areport",
    },
    Writer {
        args: &[
            "analyse",
            "in.pdn",
            "--limit",
            "2",
            "--nodes",
            "50",
            "-q",
            "--annotate",
            "-o",
            "annotated.pdn",
        ],
        output: "annotated.pdn",
    },
    Writer {
        args: &[
            "selfplay", "--game", "english", "--games", "2", "-o", "self.pdn",
        ],
        output: "self.pdn",
    },
    Writer {
        args: &["man", "-o", "man"],
        output: "man",
    },
];

/// Every command that writes files, on a disk that fills up (the `ARBITER_TEST_FAIL_WRITES_AFTER`
/// hook of `outfile`: every file it writes fails after 200 bytes, as a full disk would), where
/// an earlier run left its output: exit 2, an error naming the output (never a temporary
/// name), the earlier output byte for byte as it was, and no temporary left. This runs on
/// every machine; `a_full_file_system_leaves_the_previous_tables_and_report` does the same on
/// a real full file system where one can be mounted.
#[test]
fn every_writing_command_fails_whole_on_a_full_disk() {
    let dir = scratch("hook");
    std::fs::write(dir.join("in.pdn"), dated_games(300)).unwrap();
    for w in WRITERS {
        let what = w.args.join(" ");
        // The earlier output, complete.
        let o = arbiter(&dir, w.args);
        assert!(
            o.status.code().is_some_and(|c| c < 2),
            "{what}: {}",
            stderr(&o)
        );
        let before = snapshot(&dir);
        let o = Command::new(BIN)
            .current_dir(&dir)
            .args(w.args)
            .env("ARBITER_TEST_FAIL_WRITES_AFTER", "200")
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains("No space left on device"), "{what}: {err}");
        assert!(
            err.contains(w.output),
            "{what}: the error names {}: {err}",
            w.output
        );
        assert!(
            !err.contains(".arbiter-"),
            "{what}: a temporary name: {err}"
        );
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(leftovers(&dir).is_empty(), "{what}: {:?}", leftovers(&dir));
        let after = snapshot(&dir);
        assert_eq!(
            after.iter().map(|e| &e.0).collect::<Vec<_>>(),
            before.iter().map(|e| &e.0).collect::<Vec<_>>(),
            "{what}: entries added or removed"
        );
        for ((p, a), (_, b)) in after.iter().zip(&before) {
            assert!(a == b, "{what}: {p} changed");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// [`every_writing_command_fails_whole_on_a_full_disk`] on a real file system that fills up:
/// a 16 MiB tmpfs in a mount namespace of its own, where each command first writes its
/// output, then the disk is filled and the command run again. Skipped, saying so, where the
/// machine allows no such mount (the hook test covers every command there).
#[test]
fn every_writing_command_fails_whole_on_a_full_file_system() {
    let dir = scratch("tmpfs-all");
    std::fs::write(dir.join("in.pdn"), dated_games(300)).unwrap();
    let mnt = dir.join("mnt");
    std::fs::create_dir_all(&mnt).unwrap();
    if !tmpfs_can_be_mounted(&mnt) {
        eprintln!("skipping: no tmpfs can be mounted here (unshare -rm); see every_writing_command_fails_whole_on_a_full_disk");
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    }
    let script = r#"
        set -e
        mount -t tmpfs -o size=16m none "$MNT"
        cp "$IN" "$MNT/in.pdn"
        cd "$MNT"
        set +e
        "$BIN" "$@" > /dev/null 2> "$REC/first"
        echo $? > "$REC/first-code"
        cp -a "$MNT/." "$REC/before/"
        head -c 32m /dev/zero > "$MNT/filler" 2> /dev/null
        "$BIN" "$@" > /dev/null 2> "$REC/stderr"
        echo $? > "$REC/code"
        rm "$MNT/filler"
        cp -a "$MNT/." "$REC/after/"
    "#;
    for (i, w) in WRITERS.iter().enumerate() {
        let what = w.args.join(" ");
        let rec = dir.join(format!("rec-{i}"));
        std::fs::create_dir_all(rec.join("before")).unwrap();
        std::fs::create_dir_all(rec.join("after")).unwrap();
        let o = Command::new("unshare")
            .args(["-rm", "sh", "-c", script, "sh"])
            .args(w.args)
            .env("MNT", &mnt)
            .env("REC", &rec)
            .env("IN", dir.join("in.pdn"))
            .env("BIN", BIN)
            .output()
            .unwrap();
        assert!(o.status.success(), "{what}: {}", stderr(&o));
        let read = |name: &str| std::fs::read_to_string(rec.join(name)).unwrap();
        let first: u8 = read("first-code").trim().parse().unwrap();
        assert!(first < 2, "{what}: the first run: {}", read("first"));
        let err = read("stderr");
        assert_eq!(read("code").trim(), "2", "{what}: {err}");
        assert!(err.contains("No space left on device"), "{what}: {err}");
        assert!(
            err.contains(w.output),
            "{what}: the error names {}: {err}",
            w.output
        );
        assert!(
            !err.contains(".arbiter-"),
            "{what}: a temporary name: {err}"
        );
        assert_eq!(
            snapshot(&rec.join("after")),
            snapshot(&rec.join("before")),
            "{what}: the earlier output changed or something was left"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `man` writes a page per subcommand: a disk that fills up at a later page must leave every
/// earlier page as it was, not the first pages new and the rest old.
#[test]
fn man_pages_are_replaced_all_or_none() {
    let dir = scratch("man");
    let out = arbiter(&dir, &["man", "-o", "pages"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let pages = dir.join("pages");
    let mut sizes: Vec<(String, u64)> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, e.metadata().unwrap().len())
        })
        .collect();
    sizes.sort();
    // The first page written (arbiter.1) fits in the room the hook leaves; some later one does not.
    let room = sizes.iter().find(|(n, _)| n == "arbiter.1").unwrap().1;
    assert!(sizes.iter().any(|(_, len)| *len > room), "{sizes:?}");
    for (name, _) in &sizes {
        std::fs::write(pages.join(name), "old page\n").unwrap();
    }
    let failed = Command::new(BIN)
        .current_dir(&dir)
        .args(["man", "-o", "pages"])
        .env("ARBITER_TEST_FAIL_WRITES_AFTER", room.to_string())
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(2), "{}", stderr(&failed));
    for (name, _) in &sizes {
        let text = std::fs::read_to_string(pages.join(name)).unwrap();
        assert_eq!(
            text, "old page\n",
            "{name} was replaced by a run that failed"
        );
    }
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}
