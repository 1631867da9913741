//! A Hub engine run as a child process: started, introduced, asked to search positions,
//! and always ended (on drop; on an interrupt through [`outfile`]'s signal handling, which
//! knows its process id). Every way it can fail (it cannot be started, it ends, it goes
//! silent, it answers out of protocol or reports an error) is a [`HubError`] that names the
//! engine.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use analysis::{Answer, EngineError, Engines, External, Started};
use game::MoveInfo;
use search::Limits;

use crate::protocol::{fen_to_position, read_score, HubMove, Line};

/// Lines of the engine's standard error kept for the message when it ends.
const STDERR_LINES: usize = 3;

/// How long an engine told to quit may take before it is killed.
const GRACE: Duration = Duration::from_millis(500);

/// What went wrong with an engine.
#[derive(Debug, thiserror::Error)]
pub enum What {
    /// The command line is empty.
    #[error("the command is empty")]
    Empty,
    /// The command could not be run.
    #[error("cannot be started: {0}")]
    Start(io::Error),
    /// The engine ended.
    #[error("ended ({status}) while arbiter waited for {waiting}{said}")]
    Ended {
        /// What arbiter was waiting for.
        waiting: String,
        /// How it ended.
        status: String,
        /// The last lines of its standard error, if any (with their lead-in).
        said: String,
    },
    /// The engine said nothing for too long; it was ended.
    #[error("gave no answer within {seconds} s while arbiter waited for {waiting}; it was ended")]
    Silent {
        /// What arbiter was waiting for.
        waiting: String,
        /// The time allowed.
        seconds: f64,
    },
    /// A line that is not the protocol's answer.
    #[error("answered out of protocol while arbiter waited for {waiting}: `{line}` ({why})")]
    Protocol {
        /// What arbiter was waiting for.
        waiting: String,
        /// The line.
        line: String,
        /// What is wrong with it.
        why: String,
    },
    /// The engine reported an error (`error message=...`).
    #[error("reported an error: {0}")]
    Reported(String),
    /// The engine does not play the variant.
    #[error("does not play the variant `{variant}` (it plays: {plays})")]
    Unsupported {
        /// Hub's name of the variant.
        variant: String,
        /// The variants it plays.
        plays: String,
    },
    /// A position that Hub cannot carry.
    #[error("{0}")]
    Position(String),
}

/// An engine's failure, naming the engine.
#[derive(Debug, thiserror::Error)]
#[error("engine `{engine}`: {what}")]
pub struct HubError {
    /// The engine's command line.
    pub engine: String,
    /// What happened.
    pub what: What,
}

impl From<HubError> for EngineError {
    fn from(e: HubError) -> Self {
        EngineError {
            engine: e.engine,
            what: e.what.to_string(),
        }
    }
}

/// How to run an engine: its command line (words separated by spaces; no quoting) and how
/// long it may stay silent while arbiter waits for an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineCommand {
    /// The command and its arguments.
    pub line: String,
    /// The longest silence allowed.
    pub timeout: Duration,
}

impl EngineCommand {
    /// The engine `line`, allowed `timeout` of silence.
    pub fn new(line: &str, timeout: Duration) -> EngineCommand {
        EngineCommand {
            line: line.trim().to_string(),
            timeout,
        }
    }

    /// Starts the engine, hears its introduction and ends it: the variants it plays (Hub's
    /// names; `normal` alone when it offers no `variant` parameter).
    pub fn probe(&self) -> Result<Vec<String>, HubError> {
        let client = Client::introduced(self)?;
        Ok(client.variants.clone())
    }

    /// Starts the engine for `variant` (Hub's name), ready to search.
    pub fn start(&self, variant: &str) -> Result<Client, HubError> {
        let mut client = Client::introduced(self)?;
        client.ready(variant)?;
        Ok(client)
    }
}

/// A Hub engine for the analysis of many games: its command, the games Hub carries and the
/// variants the engine plays (heard once, at [`HubEngines::new`]); one process a game.
pub struct HubEngines {
    command: EngineCommand,
    variants: Vec<(String, &'static game::GameInfo)>,
    plays: Vec<String>,
}

impl HubEngines {
    /// Probes the engine of `command` (see [`EngineCommand::probe`]); `variants` are the games
    /// Hub carries (from [`crate::variants`]).
    pub fn new(
        command: EngineCommand,
        variants: Vec<(String, &'static game::GameInfo)>,
    ) -> Result<HubEngines, HubError> {
        let plays = command.probe()?;
        Ok(HubEngines {
            command,
            variants,
            plays,
        })
    }
}

impl Engines for HubEngines {
    fn start(&self, game: &'static game::GameInfo) -> Result<Started, EngineError> {
        let Some(variant) = crate::variant_name(&self.variants, game) else {
            return Ok(Started::NotPlayed(format!(
                "the Hub protocol does not carry {} (it plays the games on the 50 numbered \
                 squares of the 10x10 board)",
                game.label
            )));
        };
        if !self.plays.iter().any(|v| v.eq_ignore_ascii_case(&variant)) {
            return Ok(Started::NotPlayed(format!(
                "engine `{}` does not play {} (Hub's `{variant}`; it plays: {})",
                self.command.line,
                game.label,
                self.plays.join(", ")
            )));
        }
        let client = self.command.start(&variant)?;
        Ok(Started::Ready(Box::new(client)))
    }
}

/// A running Hub engine. Dropping it ends the process (`quit`, then a kill if it lingers).
pub struct Client {
    engine: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Closed when the engine's standard error has been read to its end.
    stderr_read: Option<Receiver<()>>,
    timeout: Duration,
    /// Hub's names of the variants it plays.
    variants: Vec<String>,
    /// It offered a `variant` parameter.
    variant_param: bool,
}

impl Client {
    fn error(&self, what: What) -> HubError {
        HubError {
            engine: self.engine.clone(),
            what,
        }
    }

    /// Starts the process and reads its standard output and error on threads of their own.
    fn spawn(command: &EngineCommand) -> Result<Client, HubError> {
        let fail = |what| HubError {
            engine: command.line.clone(),
            what,
        };
        let mut words = command.line.split_whitespace();
        let program = words.next().ok_or_else(|| fail(What::Empty))?;
        let mut process = Command::new(program);
        process
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        outfile::unblock_signals_in(&mut process);
        let mut child = process.spawn().map_err(|e| fail(What::Start(e)))?;
        outfile::register_child(child.id());
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (sender, lines) = mpsc::channel();
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (read_to_end, stderr_read) = mpsc::channel::<()>();
        let client = Client {
            engine: command.line.clone(),
            child,
            stdin,
            lines,
            stderr: Arc::clone(&tail),
            stderr_read: stderr.is_some().then_some(stderr_read),
            timeout: command.timeout,
            variants: Vec::new(),
            variant_param: false,
        };
        let started = stdout.map(|out| {
            thread::Builder::new()
                .name("hub-engine-out".into())
                .spawn(move || read_lines(out, |line| sender.send(line).is_ok()))
        });
        if let Some(err) = stderr {
            let _ = thread::Builder::new()
                .name("hub-engine-err".into())
                .spawn(move || {
                    read_lines(err, |line| {
                        let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
                        if tail.len() == STDERR_LINES {
                            tail.pop_front();
                        }
                        tail.push_back(line);
                        true
                    });
                    drop(read_to_end);
                });
        }
        match started {
            Some(Ok(_)) => Ok(client),
            Some(Err(e)) => Err(client.error(What::Start(e))),
            None => Err(client.error(What::Start(io::Error::other("no standard output")))),
        }
    }

    /// Started and introduced (`hub` answered with `id`, `param`s and `wait`).
    fn introduced(command: &EngineCommand) -> Result<Client, HubError> {
        let mut client = Client::spawn(command)?;
        client.send(&Line::new("hub"), "its introduction")?;
        let waiting = "its introduction (id, param and wait)";
        loop {
            let line = client.receive(waiting)?;
            match line.command.as_str() {
                "id" => {}
                "param" if line.get("name") == Some("variant") => {
                    client.variant_param = true;
                    let values = line.get("values").or(line.get("value")).unwrap_or("");
                    client.variants = values.split_whitespace().map(str::to_string).collect();
                }
                "param" => {}
                "wait" => break,
                _ => return Err(client.unexpected(waiting, &line)),
            }
        }
        if !client.variant_param {
            client.variants = vec![crate::DEFAULT_VARIANT.to_string()];
        }
        Ok(client)
    }

    /// Sets the variant, waits for `ready` and starts a game (`new-game`).
    fn ready(&mut self, variant: &str) -> Result<(), HubError> {
        if !self
            .variants
            .iter()
            .any(|v| v.eq_ignore_ascii_case(variant))
        {
            let plays = self.variants.join(", ");
            return Err(self.error(What::Unsupported {
                variant: variant.to_string(),
                plays,
            }));
        }
        if self.variant_param {
            let set = Line::new("set-param")
                .arg("name", "variant")
                .arg("value", variant);
            self.send(&set, "ready")?;
        }
        self.send(&Line::new("init"), "ready")?;
        loop {
            let line = self.receive("ready")?;
            match line.command.as_str() {
                "ready" => return self.send(&Line::new("new-game"), "a search"),
                "info" => {}
                _ => return Err(self.unexpected("ready", &line)),
            }
        }
    }

    /// Searches a Hub position within `limits`.
    pub fn think(&mut self, position: &str, limits: &Limits) -> Result<Answer, HubError> {
        let waiting = "a search's info and done";
        self.send(&Line::new("pos").arg("pos", position), waiting)?;
        let mut level = Line::new("level");
        if let Some(d) = limits.depth {
            level = level.arg("depth", d);
        }
        if let Some(n) = limits.nodes {
            level = level.arg("nodes", n);
        }
        if let Some(t) = limits.time {
            level = level.arg("move-time", format!("{:.3}", t.as_secs_f64()));
        }
        self.send(&level, waiting)?;
        self.send(&Line::new("go").flag("think"), waiting)?;
        // A search given a time may use all of it before it says anything.
        let allowed = self.timeout + limits.time.unwrap_or_default();
        let mut answer = Answer::default();
        loop {
            let line = self.receive_within(waiting, allowed)?;
            match line.command.as_str() {
                "info" => self.info(&line, waiting, &mut answer)?,
                "done" => {
                    if let Some(m) = line.get("move") {
                        HubMove::parse(m).map_err(|why| {
                            self.error(What::Protocol {
                                waiting: waiting.into(),
                                line: line.to_string(),
                                why,
                            })
                        })?;
                        answer.best = Some(m.to_string());
                    }
                    return Ok(answer);
                }
                "pong" => {}
                _ => return Err(self.unexpected(waiting, &line)),
            }
        }
    }

    /// Takes what an `info` line says into `answer`.
    fn info(&self, line: &Line, waiting: &str, answer: &mut Answer) -> Result<(), HubError> {
        let bad = |why: String| {
            self.error(What::Protocol {
                waiting: waiting.into(),
                line: line.to_string(),
                why,
            })
        };
        if let Some(score) = line.get("score") {
            let (score, decided) = read_score(score).map_err(bad)?;
            answer.score = score;
            answer.decided_in = decided;
        }
        if let Some(depth) = line.get("depth") {
            let digits: String = depth.chars().take_while(char::is_ascii_digit).collect();
            answer.depth = digits
                .parse()
                .map_err(|_| bad(format!("depth `{depth}` is not a number")))?;
        }
        if let Some(nodes) = line.get("nodes") {
            answer.nodes = nodes
                .parse()
                .map_err(|_| bad(format!("nodes `{nodes}` is not a number")))?;
        }
        if let Some(pv) = line.get("pv") {
            answer.line = pv.split_whitespace().map(str::to_string).collect();
        }
        Ok(())
    }

    /// The error for `line`, which is not an answer to what arbiter waited for.
    fn unexpected(&mut self, waiting: &str, line: &Line) -> HubError {
        if line.command == "error" {
            let message = line.get("message").unwrap_or("").to_string();
            return self.error(What::Reported(message));
        }
        self.error(What::Protocol {
            waiting: waiting.into(),
            line: line.to_string(),
            why: format!("`{}` is not an answer to that", line.command),
        })
    }

    fn send(&mut self, line: &Line, waiting: &str) -> Result<(), HubError> {
        let written = match self.stdin.as_mut() {
            Some(input) => writeln!(input, "{line}").and_then(|()| input.flush()),
            None => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        };
        match written {
            Ok(()) => Ok(()),
            Err(_) => Err(self.ended(waiting)),
        }
    }

    /// The next line that is not empty, within the time allowed.
    fn receive(&mut self, waiting: &str) -> Result<Line, HubError> {
        self.receive_within(waiting, self.timeout)
    }

    /// The next line that is not empty, within `allowed`.
    fn receive_within(&mut self, waiting: &str, allowed: Duration) -> Result<Line, HubError> {
        loop {
            match self.lines.recv_timeout(allowed) {
                Ok(text) if text.trim().is_empty() => {}
                Ok(text) => {
                    return Line::parse(&text).map_err(|why| {
                        self.error(What::Protocol {
                            waiting: waiting.into(),
                            line: text,
                            why,
                        })
                    })
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.end();
                    return Err(self.error(What::Silent {
                        waiting: waiting.into(),
                        seconds: allowed.as_secs_f64(),
                    }));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.ended(waiting)),
            }
        }
    }

    /// The error for an engine whose output or input closed: how it ended (it is ended if it
    /// has not) and the last lines of its standard error.
    fn ended(&mut self, waiting: &str) -> HubError {
        let status = self.end();
        // Its last words may still be in the pipe: read them to the end (unless something
        // else keeps the pipe open past a moment).
        if let Some(read) = self.stderr_read.take() {
            let _ = read.recv_timeout(GRACE);
        }
        let said = {
            let tail = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
            let lines: Vec<&str> = tail.iter().map(String::as_str).collect();
            if lines.is_empty() {
                String::new()
            } else {
                format!("; it said: {}", lines.join(" / "))
            }
        };
        self.error(What::Ended {
            waiting: waiting.into(),
            status,
            said,
        })
    }

    /// Ends the process: its input closed, a moment to go, then killed; how it ended.
    fn end(&mut self) -> String {
        drop(self.stdin.take());
        let deadline = Instant::now() + GRACE;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => {
                    let _ = self.child.kill();
                    break self.child.wait();
                }
            }
        };
        outfile::unregister_child(self.child.id());
        match status {
            Ok(s) => s.to_string(),
            Err(e) => e.to_string(),
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if self.stdin.is_some() {
            let _ = self.send(&Line::new("quit"), "its end");
        }
        self.end();
    }
}

impl External for Client {
    fn name(&self) -> &str {
        &self.engine
    }

    fn search(&mut self, fen: &str, limits: &Limits) -> Result<Answer, EngineError> {
        let position = fen_to_position(fen).map_err(|why| self.error(What::Position(why)))?;
        Ok(self.think(&position, limits)?)
    }

    fn same_move(&self, text: &str, info: &MoveInfo) -> bool {
        HubMove::parse(text).is_ok_and(|m| m.matches(info))
    }
}

/// Reads `input` line by line (bytes that are not UTF-8 read as U+FFFD) and hands each to
/// `each` until the input ends or `each` says to stop.
fn read_lines(input: impl Read, mut each: impl FnMut(String) -> bool) {
    let mut input = BufReader::new(input);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buffer).trim_end().to_string();
                if !each(text) {
                    return;
                }
            }
        }
    }
}
