//! `arbiter hub` in conversation: scripted sessions of the Hub protocol fed to the binary,
//! with node limits small enough for a debug build.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("hub")
            .args(args)
            .arg("--hash")
            .arg("1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("arbiter runs");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let input = child.stdin.take();
        Engine {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let input = self.input.as_mut().unwrap();
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
    }

    /// The lines answered up to and including the first that starts with `word`.
    fn until(&self, word: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no `{word}` line; got {got:?}"));
            let last = line.split_whitespace().next() == Some(word);
            got.push(line);
            if last {
                return got;
            }
        }
    }

    /// The `done` line of a search of `pos` (a `pos` line's arguments) under `level`.
    fn best(&mut self, pos: &str, level: &str) -> String {
        self.send(&format!("pos {pos}"));
        self.send(&format!("level {level}"));
        self.send("go think");
        self.until("done").pop().unwrap()
    }

    /// Closes the input; the exit code.
    fn finish(mut self) -> Option<i32> {
        drop(self.input.take());
        self.child.wait().unwrap().code()
    }
}

/// A Hub position from the squares of each kind (side to move `W` or `B`).
fn position(side: char, white: &[u32], black: &[u32], white_kings: &[u32]) -> String {
    let mut s = String::from(side);
    for sq in 1..=50 {
        s.push(if white.contains(&sq) {
            'w'
        } else if black.contains(&sq) {
            'b'
        } else if white_kings.contains(&sq) {
            'W'
        } else {
            'e'
        });
    }
    s
}

#[test]
fn the_handshake_declares_the_variants_and_readies() {
    let mut e = Engine::start(&[]);
    e.send("hub");
    let intro = e.until("wait");
    assert!(
        intro[0].starts_with("id name=arbiter version="),
        "{intro:?}"
    );
    let variant = intro
        .iter()
        .find(|l| l.starts_with("param name=variant"))
        .expect("a variant parameter");
    assert!(
        variant.contains("value=normal") && variant.contains("values=\"normal frisian losing bt"),
        "{variant}"
    );
    e.send("set-param name=variant value=frisian");
    e.send("set-param name=book value=false");
    e.send("init");
    assert_eq!(e.until("ready"), ["ready"]);
    e.send("ping");
    assert_eq!(e.until("pong"), ["pong"]);
    e.send("quit");
    assert_eq!(e.finish(), Some(0));
}

#[test]
fn a_forced_capture_is_played_in_hub_notation() {
    let mut e = Engine::start(&[]);
    e.send("init");
    e.until("ready");
    // White must take 22 (28x17); nothing else is legal.
    let forced = position('W', &[28], &[22, 3], &[]);
    let done = e.best(&format!("pos={forced}"), "nodes=50");
    assert!(done.starts_with("done move=28x17x22"), "{done}");
    // A king's capture: the captured square is named, not the squares it passes.
    let king = position('W', &[], &[23, 3], &[46]);
    let done = e.best(&format!("pos={king}"), "depth=1");
    assert!(
        done.starts_with("done move=46x") && done.contains("x23"),
        "{done}"
    );
    // The moves after the position are played first: 32-28 19-23 leaves White a capture.
    let done = e.best(&format!("pos={START} moves=\"32-28 19-23\""), "nodes=200");
    assert!(done.starts_with("done move=28x19x23"), "{done}");
    e.send("quit");
    assert_eq!(e.finish(), Some(0));
}

#[test]
fn node_limits_give_the_same_answer_every_time() {
    let mut e = Engine::start(&[]);
    let level = "nodes=3000";
    let first = e.best(&format!("pos={START}"), level);
    e.send("new-game");
    let second = e.best(&format!("pos={START}"), level);
    assert_eq!(first, second);
    assert!(
        first.starts_with("done move=") && first.contains(" ponder="),
        "{first}"
    );
    // An info line comes before the move, with the nodes and the line in Hub notation.
    e.send(&format!("pos pos={START}"));
    e.send("level depth=2");
    e.send("go think");
    let lines = e.until("done");
    let info = lines.iter().find(|l| l.starts_with("info ")).expect("info");
    assert!(info.contains("depth=2") && info.contains("pv=\""), "{info}");
    assert_eq!(e.finish(), Some(0));
}

#[test]
fn bad_input_is_answered_with_errors_and_the_session_goes_on() {
    let mut e = Engine::start(&[]);
    for bad in [
        "pos pos=Wbad",
        "pos pos=\"unterminated",
        &format!("pos pos={START} moves=\"32-27x\""),
        &format!("pos pos={START} moves=\"32-29\""),
        "level depth=x",
        "level move-time=-1",
        "set-param name=variant value=chess",
        "set-param name=hash value=0",
        "set-param",
        "=oops",
    ] {
        e.send(bad);
        let got = e.until("error");
        assert_eq!(got.len(), 1, "{bad}: {got:?}");
        assert!(got[0].starts_with("error message=\""), "{bad}: {got:?}");
    }
    // Unknown commands are ignored, as the protocol asks; the session still answers.
    e.send("frobnicate now");
    e.send("\u{7f}\u{1b}[A");
    e.send("ping");
    assert_eq!(e.until("pong"), ["pong"]);
    // A position that does not read cannot be searched: error, then a bare done.
    e.send("pos pos=Wbad");
    e.until("error");
    e.send("go think");
    let got = e.until("done");
    assert_eq!(got.last().unwrap(), "done");
    assert!(got[0].starts_with("error message="), "{got:?}");
    // Nor can a game that is over (White has no piece).
    let over = position('W', &[], &[3], &[]);
    e.send(&format!("pos pos={over}"));
    e.send("go think");
    let got = e.until("done");
    assert!(got[0].contains("game is over"), "{got:?}");
    // The session still plays.
    let done = e.best(&format!("pos={START}"), "nodes=100");
    assert!(done.starts_with("done move="), "{done}");
    assert_eq!(e.finish(), Some(0));
}

#[test]
fn an_endless_analysis_answers_ping_and_stops_on_stop() {
    let mut e = Engine::start(&[]);
    e.send(&format!("pos pos={START}"));
    e.send("level infinite");
    e.send("go analyze");
    e.send("ping");
    assert_eq!(e.until("pong"), ["pong"]);
    // Lines other than ping and stop wait for the search to end.
    e.send("level nodes=100");
    e.send("stop");
    let got = e.until("done");
    assert!(got.last().unwrap().starts_with("done move="), "{got:?}");
    e.send("go think");
    assert!(e.until("done").last().unwrap().starts_with("done move="));
    assert_eq!(e.finish(), Some(0));
}

#[test]
fn the_end_of_input_ends_the_session_after_the_lines_read() {
    let mut e = Engine::start(&["--game", "antidraughts"]);
    e.send("hub");
    e.send(&format!("pos pos={START}"));
    e.send("level nodes=100");
    e.send("go think");
    drop(e.input.take());
    let got = e.until("done");
    assert!(
        got.iter().any(|l| l.contains("value=losing")),
        "antidraughts is Hub's losing variant: {got:?}"
    );
    assert_eq!(e.finish(), Some(0));
    // A game off the 50 squares is refused at once.
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["hub", "--game", "english"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("50 numbered squares"));
}
