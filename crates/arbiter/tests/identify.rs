//! Records that name no game: their game is found from the record itself, `--default-game`
//! stands in for the tags, a record no rule identifies is an error, and what is printed is
//! chosen with `--severity` and `--max-errors` (repeats printed once per file).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn summary(out: &Output) -> String {
    let all = format!("{}{}", stdout(out), String::from_utf8_lossy(&out.stderr));
    all.lines()
        .rfind(|l| l.starts_with("checked "))
        .unwrap_or_default()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-identify-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(rel)
}

/// A shipped corpus file with its Variant and GameType tags taken out.
fn untagged(rel: &str, dir: &Path) -> String {
    let text = std::fs::read_to_string(corpus(rel)).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("[Variant ") && !l.starts_with("[GameType "))
        .collect();
    let path = dir.join(Path::new(rel).file_name().unwrap());
    std::fs::write(&path, kept.join("\n") + "\n").unwrap();
    path.display().to_string()
}

/// The JSON lines of a run with this code.
fn with_code<'a>(json: &'a str, code: &str) -> Vec<&'a str> {
    let needle = format!("\"code\":\"{code}\"");
    json.lines().filter(|l| l.contains(&needle)).collect()
}

#[test]
fn untagged_files_are_identified_by_their_moves() {
    let dir = scratch("shipped");
    for (rel, label, why) in [
        (
            "international/international-random.pdn",
            "International",
            "10x10 squares in numbers",
        ),
        (
            "english/english-random.pdn",
            "English",
            "8x8 squares in numbers, Black moving first",
        ),
        (
            "russian/russian-random.pdn",
            "Russian",
            "8x8 squares in algebraic names, White moving first",
        ),
    ] {
        let file = untagged(rel, &dir);
        let json = arbiter(&["validate", "--format", "json", &file]);
        assert_eq!(json.status.code(), Some(0), "{rel}: {}", summary(&json));
        let out = stdout(&json);
        let notes = with_code(&out, "game-inferred");
        // JSON keeps every diagnostic: one note per game.
        assert_eq!(notes.len(), 200, "{rel}");
        assert!(notes.iter().all(|n| n.contains("\"severity\":\"note\"")));
        assert!(
            summary(&json).contains("200 games replayed"),
            "{}",
            summary(&json)
        );
        assert!(
            summary(&json).contains("200 of them identified from their moves"),
            "{}",
            summary(&json)
        );
        // Human output: one note for the file.
        let human = arbiter(&["validate", "--color", "never", &file]);
        let lines: Vec<String> = stdout(&human)
            .lines()
            .filter(|l| l.contains("note[game-inferred]"))
            .map(str::to_string)
            .collect();
        assert_eq!(lines.len(), 1, "{rel}: {lines:?}");
        let expected = format!("{label} ({why}, no Variant or GameType tag) for 200 games");
        assert!(lines[0].ends_with(&expected), "{}", lines[0]);
        // Errors only: nothing printed.
        let quiet = arbiter(&["validate", "--severity", "error", &file]);
        assert_eq!(stdout(&quiet).lines().count(), 1, "{}", stdout(&quiet));
        // `--strict`: a record must name its game.
        let strict = arbiter(&["validate", "--strict", "-q", &file]);
        assert_eq!(strict.status.code(), Some(1));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_no_rule_identifies_is_an_error_until_a_default_is_given() {
    let dir = scratch("ballot");
    // An 8x8 position in numbers with White to move fits several games; with Black to move it
    // is English (PDN's first game moves Black first).
    let ballot = dir.join("ballot.pdn");
    std::fs::write(
        &ballot,
        "[FEN \"W:W21,22,23,24:B9,10,11,12\"]\n\n*\n\n\
         [FEN \"W:W21,22,23,25:B9,10,11,12\"]\n\n*\n\n\
         [FEN \"B:W21,22,23,24:B9,10,11,12\"]\n\n1. 11-15 *\n",
    )
    .unwrap();
    let path = ballot.display().to_string();
    let out = arbiter(&["validate", "--color", "never", &path]);
    assert_eq!(out.status.code(), Some(1), "{}", summary(&out));
    let text = stdout(&out);
    let unknown: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("error[unknown-game]"))
        .collect();
    assert_eq!(unknown.len(), 1, "{text}");
    assert!(
        unknown[0].contains("2 games: the record names no game"),
        "{}",
        unknown[0]
    );
    assert!(unknown[0].contains("Italian") && unknown[0].contains("Spanish"));
    assert!(unknown[0].contains("--default-game"));
    assert!(
        text.contains("note[game-inferred]: English (8x8 squares in numbers, Black moving first")
    );
    assert!(summary(&out).contains("2 not checked"), "{}", summary(&out));
    // The default game stands in where no tag names one.
    let out = arbiter(&["validate", "--default-game", "italian", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(summary(&out).contains("3 games replayed"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn default_game_leaves_tagged_records_alone_and_game_overrides_them() {
    let dir = scratch("default");
    let file = dir.join("mixed.pdn");
    let tagged = std::fs::read_to_string(corpus("international/international-random.pdn")).unwrap();
    let first = tagged.split("\n\n[").next().unwrap();
    std::fs::write(
        &file,
        format!("{first}\n\n[Event \"no tag\"]\n\n1. 11-15 23-19 *\n"),
    )
    .unwrap();
    let path = file.display().to_string();
    // Tagged International, untagged English: both clean with English as the default.
    let out = arbiter(&["validate", "--default-game", "english", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // `--game english` forces the International game too, which then fails.
    let out = arbiter(&["validate", "--game", "english", "--format", "json", &path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("\"game\":1"), "{}", stdout(&out));
    // The two cannot be given together.
    let out = arbiter(&[
        "validate",
        "--game",
        "english",
        "--default-game",
        "english",
        &path,
    ]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tag_that_contradicts_its_moves_says_so() {
    let dir = scratch("contradiction");
    let file = dir.join("tagged.pdn");
    std::fs::write(
        &file,
        "[GameType \"20\"]\n\n1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. g3-h4 d6-e5 *\n\n\
         [GameType \"20\"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n\n\
         [GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x32 *\n",
    )
    .unwrap();
    let out = arbiter(&["validate", "--format", "json", &file.display().to_string()]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("\"bad-tag\""), "{}", lines[0]);
    assert!(lines[0].contains("the moves are 8x8 squares in algebraic names"));
    assert!(
        lines[0].contains("Russian") && lines[0].contains("the GameType tag says International")
    );
    assert!(lines[1].contains("the moves are 8x8 squares in numbers (they fit English, Pool)"));
    // A real fault of an International game stays what it is.
    assert!(lines[2].contains("\"illegal-move\""), "{}", lines[2]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn select_filters_with_only_game_and_replays_with_default_game() {
    let dir = scratch("select");
    let file = untagged("english/english-random.pdn", &dir);
    let out_file = dir.join("out.pdn").display().to_string();
    // The tags name no game: the filter finds none, unless a default is given.
    let out = arbiter(&["select", &file, "--only-game", "english", "-o", &out_file]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&out_file).unwrap().is_empty());
    let out = arbiter(&[
        "select",
        &file,
        "--only-game",
        "english",
        "--default-game",
        "english",
        "-o",
        &out_file,
    ]);
    assert!(out.status.success());
    assert_eq!(pdn::read_all(&std::fs::read(&out_file).unwrap()).len(), 200);
    // Replaying filters find the game from the moves.
    let out = arbiter(&["select", &file, "--problems", "none", "-o", &out_file]);
    assert!(out.status.success());
    assert_eq!(pdn::read_all(&std::fs::read(&out_file).unwrap()).len(), 200);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The real archives of `../shared/corpora`, where present.
fn shared(rel: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpora")
        .join(rel);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("{} is absent: skipped", path.display());
        None
    }
}

#[test]
fn real_archives_are_checked_without_a_flag_in_shared() {
    let Some(real) = shared("real") else { return };
    let real = real.display().to_string();
    let out = arbiter(&["validate", "-q", &real]);
    let line = summary(&out);
    assert!(!line.contains("not checked"), "{line}");
    // The untagged International files find what `--game international` finds.
    let Some(intl) = shared("real/international") else {
        return;
    };
    let bruno: Vec<String> = std::fs::read_dir(&intl)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("bruno-")
        })
        .map(|p| p.display().to_string())
        .collect();
    let errors = |extra: &[&str]| {
        let mut args = vec!["validate", "--format", "json", "--severity", "error"];
        args.extend(extra);
        args.extend(bruno.iter().map(String::as_str));
        let mut lines: Vec<String> = stdout(&arbiter(&args))
            .lines()
            .map(str::to_string)
            .collect();
        lines.sort();
        lines
    };
    let found = errors(&[]);
    assert_eq!(found, errors(&["--game", "international"]));
    assert!(
        found.iter().any(|l| l.contains("BrunoVsScan31")
            && l.contains("\"game\":11")
            && l.contains("\"ply\":64")
            && l.contains("17-11")),
        "{found:?}"
    );
    // The KNDB exports' literal `\r` is one note per file in human output.
    let blitz = intl.join("bruno-4th_African_BLITZ_Championship_OUAGA_ZIIRI_2024.pdn");
    let out = arbiter(&["validate", "--color", "never", &blitz.display().to_string()]);
    let notes = stdout(&out)
        .lines()
        .filter(|l| l.contains("note[stray-text]"))
        .count();
    assert_eq!(notes, 1, "{}", stdout(&out));
    assert!(!stdout(&out).contains("warning[stray-text]"));
}

#[test]
fn tinsley_is_checked_as_english_in_shared() {
    let Some(tinsley) = shared("english/tinsley.pdn") else {
        return;
    };
    let out = arbiter(&["validate", "-q", &tinsley.display().to_string()]);
    let line = summary(&out);
    assert!(line.contains("724 games replayed"), "{line}");
    let forced = arbiter(&[
        "validate",
        "--format",
        "json",
        "--severity",
        "error",
        "--game",
        "english",
        &tinsley.display().to_string(),
    ]);
    let found = arbiter(&[
        "validate",
        "--format",
        "json",
        "--severity",
        "error",
        &tinsley.display().to_string(),
    ]);
    assert_eq!(stdout(&found), stdout(&forced));
}
