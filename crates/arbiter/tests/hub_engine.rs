//! `arbiter analyse --engine`: an external Hub engine that cannot be started, dies, goes
//! silent or answers out of protocol stops the run with exit code 2, a message naming the
//! engine and what happened, and no engine process left behind (also on an interrupt); games
//! it does not play are skipped with a note (exit code 1); with the real `dame` engine
//! (PyPI `dame-rs`), a real game is analysed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .env("RAYON_NUM_THREADS", "1")
        .args(args)
        .output()
        .expect("arbiter runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-hubeng-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A fake Hub engine (a shell script) behaving as `mode` says: `dies` ends at once after
/// the first line, saying why on standard error; `silent` writes its process id to `pid`
/// and sleeps; `nonsense` answers `hub` with a line of no protocol; `illegal` introduces
/// itself properly and answers every search with a move no position allows; `quitter`
/// ends when asked to search.
const FAKE: &str = r#"mode=$1
pidfile=$2
case "$mode" in
  silent) echo $$ > "$pidfile"; exec sleep 600 ;;
esac
while read -r cmd rest; do
  case "$mode:$cmd" in
    dies:*) echo "fake engine: out of luck" >&2; exit 3 ;;
    nonsense:hub) echo "banana split" ;;
    *:hub) echo "id name=fake"; echo "param name=hash value=1 type=int"; echo "wait" ;;
    *:init) echo "ready" ;;
    illegal:go) echo "info depth=1 score=0.10 nodes=5 pv=1-2"; echo "done move=1-2" ;;
    quitter:go) exit 4 ;;
    *:quit) exit 0 ;;
  esac
done
"#;

/// The command line of the fake engine in `mode`, and the file it writes its id to.
fn fake(dir: &Path, mode: &str) -> (String, PathBuf) {
    let script = dir.join("fake.sh");
    std::fs::write(&script, FAKE).unwrap();
    let pid = dir.join(format!("{mode}.pid"));
    (
        format!("sh {} {mode} {}", script.display(), pid.display()),
        pid,
    )
}

/// The first game of the shipped International corpus, written to `dir`.
fn international(dir: &Path) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/international/international-search.pdn");
    let text = std::fs::read_to_string(path).unwrap();
    let first = text.split("\n\n[Event").next().unwrap();
    let out = dir.join("one.pdn");
    std::fs::write(&out, format!("{first}\n")).unwrap();
    out.display().to_string()
}

/// True when process `pid` has ended (gone, or a zombie waiting to be reaped).
fn ended(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn fails_with(out: &Output, engine: &str, what: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("engine `{engine}`")), "{err}");
    assert!(err.contains(what), "{err}");
}

#[test]
fn a_missing_engine_is_said() {
    let dir = scratch("missing");
    let file = international(&dir);
    let out = arbiter(&[
        "analyse",
        &file,
        "--engine",
        "arbiter-test-no-such-engine hub",
    ]);
    fails_with(&out, "arbiter-test-no-such-engine hub", "cannot be started");
}

#[test]
fn an_engine_that_dies_is_said_with_its_last_words() {
    let dir = scratch("dies");
    let file = international(&dir);
    let (engine, _) = fake(&dir, "dies");
    let out = arbiter(&["analyse", &file, "--engine", &engine]);
    fails_with(&out, &engine, "ended (exit status: 3)");
    assert!(stderr(&out).contains("out of luck"), "{}", stderr(&out));
}

#[test]
fn a_silent_engine_is_ended_after_the_timeout() {
    let dir = scratch("silent");
    let file = international(&dir);
    let (engine, pid) = fake(&dir, "silent");
    let out = arbiter(&[
        "analyse",
        &file,
        "--engine",
        &engine,
        "--engine-timeout",
        "1",
    ]);
    fails_with(&out, &engine, "gave no answer within 1 s");
    let pid: u32 = std::fs::read_to_string(pid)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(ended(pid), "the silent engine {pid} was left running");
}

#[test]
fn nonsense_and_illegal_moves_are_out_of_protocol() {
    let dir = scratch("nonsense");
    let file = international(&dir);
    let (engine, _) = fake(&dir, "nonsense");
    let out = arbiter(&["analyse", &file, "--engine", &engine]);
    fails_with(&out, &engine, "answered out of protocol");
    assert!(stderr(&out).contains("banana split"), "{}", stderr(&out));
    let (engine, _) = fake(&dir, "illegal");
    let out = arbiter(&["analyse", &file, "--engine", &engine]);
    fails_with(&out, &engine, "answered the move 1-2, which is not legal");
    let (engine, _) = fake(&dir, "quitter");
    let out = arbiter(&["analyse", &file, "--engine", &engine]);
    fails_with(
        &out,
        &engine,
        "ended (exit status: 4) while arbiter waited for a search",
    );
}

#[test]
fn games_the_engine_does_not_play_are_skipped_with_a_note() {
    let dir = scratch("unplayed");
    let english =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/english/english-search.pdn");
    let (engine, _) = fake(&dir, "illegal");
    let out = arbiter(&[
        "analyse",
        &english.display().to_string(),
        "--engine",
        &engine,
        "--limit",
        "2",
    ]);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("the Hub protocol does not carry English"),
        "{text}"
    );
    // A game on the 50 squares that the engine does not offer (it has no `variant`
    // parameter: International alone).
    let frisian = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpora/real/frisian/lidraughts-frisian.pdn");
    if !frisian.exists() {
        eprintln!("skipped: {} is not there", frisian.display());
        return;
    }
    let out = arbiter(&[
        "analyse",
        &frisian.display().to_string(),
        "--engine",
        &engine,
        "--limit",
        "1",
    ]);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!("engine `{engine}` does not play Frisian")),
        "{text}"
    );
}

#[test]
fn an_interrupt_ends_the_engine_too() {
    let dir = scratch("interrupt");
    let file = international(&dir);
    let (engine, pid) = fake(&dir, "silent");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["analyse", &file, "--engine", &engine])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the engine runs (it writes its id), then interrupt arbiter alone.
    let pid: u32 = loop {
        if let Some(id) = std::fs::read_to_string(&pid)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            break id;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("arbiter ended before the engine started: {status}");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status}");
    // The engine was killed before arbiter ended; give the system the moment it takes.
    let mut gone = ended(pid);
    for _ in 0..400 {
        if gone {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
        gone = ended(pid);
    }
    assert!(gone, "the engine {pid} outlived the interrupted run");
}

/// The `dame` command (PyPI `dame-rs`): on the PATH, or in the project's Python environment
/// (`target/pyenv`, where scripts/test-all installs it).
pub fn dame() -> Option<String> {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/pyenv/bin/dame");
    let candidates = std::iter::once(venv).chain(
        std::env::var_os("PATH")
            .map(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join("dame"))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default(),
    );
    for c in candidates {
        let works = Command::new(&c)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if works {
            return Some(c.display().to_string());
        }
    }
    None
}

#[test]
fn dame_analyses_a_real_game() {
    let Some(dame) = dame() else {
        eprintln!("skipped: `dame` (pip install dame-rs) is not available");
        return;
    };
    let real = Path::new(
        "../../../shared/corpora/real/international/bruno-1er_Open_International_Allinges_2007.pdn",
    );
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join(real);
    if !real.exists() {
        eprintln!("skipped: {} is not there", real.display());
        return;
    }
    let engine = format!("{dame} hub");
    let out = arbiter(&[
        "analyse",
        &real.display().to_string(),
        "--engine",
        &engine,
        "--nodes",
        "1000",
        "--limit",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let plies: Vec<_> = lines.iter().filter(|v| v["kind"] == "ply").collect();
    assert!(plies.len() > 40, "{} plies", plies.len());
    for p in &plies {
        let best = p["best"].as_str().expect("a best move");
        assert_eq!(p["line"][0].as_str(), Some(best), "{p}");
        assert!(
            p["eval_before"].as_i64().unwrap() >= p["eval_after"].as_i64().unwrap(),
            "{p}"
        );
        assert!(p["loss"].as_i64().unwrap() >= 0, "{p}");
    }
    let agreed = plies.iter().filter(|p| p["agreed"] == true).count();
    assert!(
        agreed > 0 && agreed < plies.len(),
        "{agreed} of {} agreed",
        plies.len()
    );
    let players: Vec<_> = lines.iter().filter(|v| v["kind"] == "player").collect();
    assert_eq!(players.len(), 2);
}
