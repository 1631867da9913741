//! `arbiter hub`: arbiter's engine as a player, speaking the Hub protocol (version 2) on
//! standard input and output for the games on the 50 numbered squares of the 10x10 board
//! (the protocol's text is in the `hub` crate).
//!
//! Lines are read on a thread of their own, so that `ping` is answered and `stop` heard
//! while the engine searches (on another thread: the game's [`games::Searcher`]). Any other
//! command that arrives during a search waits until it has answered. Bad input is answered
//! with `error message="..."` and never ends the session; a `go` that cannot be searched
//! answers `error` and then a bare `done`, so that a GUI waiting for its move is not left
//! hanging. End of input and `quit` end the session (exit code 0).

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;
use game::{GameInfo, Options};
use games::{Explorer, SearchAnswer, Searcher};
use search::Limits;

use crate::args::parse_game;
use crate::exit::{Outcome, Stop, CLEAN};
use hub::protocol as wire;
use hub::{HubMove, Level, Line};

#[derive(Args)]
pub struct HubArgs {
    /// The game played until the GUI sets the `variant` parameter: one on the 50 numbered
    /// squares of the 10x10 board (default: International).
    #[arg(long, value_parser = parse_game, value_name = "GAME")]
    pub game: Option<&'static GameInfo>,
    /// Ruleset options, comma-separated (see `arbiter games`).
    #[arg(long, value_name = "OPTIONS")]
    pub rules: Option<String>,
    /// Transposition table in MB (the GUI may change it with the `hash` parameter).
    #[arg(long, value_name = "MB", default_value = "64", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
}

/// The time a `go think` takes when no `level` was given.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// The slices an endless search (`level infinite`, `go analyze` without a level) is made of:
/// `stop` is heard between them.
const SLICE: Duration = Duration::from_millis(500);

pub fn run(args: HubArgs) -> Outcome {
    let offered = offered_games();
    let game = match args.game {
        Some(g) if offered.iter().any(|(_, o)| o.id == g.id) => g,
        Some(g) => {
            return Err(Stop::Usage(format!(
                "the Hub protocol plays on the 50 numbered squares of the 10x10 board, and {} \
                 is not played there (games it plays: {})",
                g.label,
                offered
                    .iter()
                    .map(|(_, g)| g.id)
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
        None => offered
            .first()
            .map(|(_, g)| *g)
            .ok_or_else(|| Stop::Usage("no game is played on 50 numbered squares".to_string()))?,
    };
    let options = match &args.rules {
        Some(r) => game
            .parse_options(r)
            .map_err(|e| Stop::Usage(e.to_string()))?,
        None => Options::default(),
    };
    let mut session = Session::new(offered, game, options, args.hash as usize)?;
    session.serve()
}

/// The games the protocol can play, with the name its `variant` parameter gives each.
fn offered_games() -> Vec<(String, &'static GameInfo)> {
    hub::variants(games::games().registry(), games::HUB_NAMES)
}

/// What the session hears: a line, the end of input, or the end of a search.
enum Event {
    Line(String),
    End,
    Searched(Box<dyn Searcher>, Result<Thought, String>),
}

/// What a search gave, for the `done` line.
struct Thought {
    answer: SearchAnswer,
}

struct Session {
    offered: Vec<(String, &'static GameInfo)>,
    game: &'static GameInfo,
    options: Options,
    hash_mb: usize,
    explorer: Box<dyn Explorer>,
    /// The engine, once made (at `init` or the first search); `None` while it searches.
    searcher: Option<Box<dyn Searcher>>,
    searching: bool,
    stop: Arc<AtomicBool>,
    /// The position to search (a FEN), or why the last `pos` could not be read.
    position: Result<Option<String>, String>,
    level: Level,
    events: mpsc::Receiver<Event>,
    sender: mpsc::Sender<Event>,
    /// Lines heard during a search that must wait for its end.
    waiting: VecDeque<String>,
    /// The input has ended: the session ends once the lines read are answered.
    ending: bool,
}

impl Session {
    fn new(
        offered: Vec<(String, &'static GameInfo)>,
        game: &'static GameInfo,
        options: Options,
        hash_mb: usize,
    ) -> Result<Session, Stop> {
        let (sender, events) = mpsc::channel();
        let reader = sender.clone();
        thread::Builder::new()
            .name("hub-input".to_string())
            .spawn(move || read_lines(reader))
            .map_err(|e| Stop::Usage(format!("cannot start the input thread: {e}")))?;
        Ok(Session {
            explorer: explorer(game, &options)?,
            offered,
            game,
            options,
            hash_mb,
            searcher: None,
            searching: false,
            stop: Arc::new(AtomicBool::new(false)),
            position: Ok(None),
            level: Level::default(),
            events,
            sender,
            waiting: VecDeque::new(),
            ending: false,
        })
    }

    fn serve(&mut self) -> Outcome {
        loop {
            if !self.searching {
                if let Some(line) = self.waiting.pop_front() {
                    if !self.hear(&line)? {
                        return Ok(CLEAN);
                    }
                    continue;
                }
                if self.ending {
                    return Ok(CLEAN);
                }
            }
            let Ok(event) = self.events.recv() else {
                return Ok(CLEAN);
            };
            match event {
                // The lines already read are answered (a search under way is told to stop).
                Event::End => {
                    self.ending = true;
                    self.stop.store(true, Ordering::Relaxed);
                }
                Event::Searched(searcher, thought) => {
                    self.searcher = Some(searcher);
                    self.searching = false;
                    match thought {
                        Ok(t) => say(&done(&t.answer))?,
                        Err(why) => {
                            say(&error(&why))?;
                            say(&Line::new("done"))?;
                        }
                    }
                }
                Event::Line(text) => {
                    if !self.hear(&text)? {
                        return Ok(CLEAN);
                    }
                }
            }
        }
    }

    /// Answers one line; false when the session ends.
    fn hear(&mut self, text: &str) -> Result<bool, Stop> {
        if text.trim().is_empty() {
            return Ok(true);
        }
        let line = match Line::parse(text) {
            Ok(line) => line,
            Err(why) => {
                say(&error(&why))?;
                return Ok(true);
            }
        };
        match line.command.as_str() {
            // Lines waiting for a search go first; else the session ends at once.
            "quit" if !self.searching || self.waiting.is_empty() => return Ok(false),
            "quit" => self.waiting.push_back(text.to_string()),
            "ping" => say(&Line::new("pong"))?,
            "stop" => self.stop.store(true, Ordering::Relaxed),
            "ponder-hit" => {}
            _ if self.searching => self.waiting.push_back(text.to_string()),
            "hub" => self.introduce()?,
            "set-param" => self.set_param(&line)?,
            "init" => {
                self.engine();
                say(&Line::new("ready"))?;
            }
            "new-game" => {
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
                self.position = Ok(None);
            }
            "pos" => {
                self.position = self.read_position(&line);
                if let Err(why) = &self.position {
                    say(&error(why))?;
                }
            }
            "level" => match Level::parse(&line) {
                Ok(level) => self.level = level,
                Err(why) => say(&error(&why))?,
            },
            "go" => self.go(&line)?,
            // The protocol asks for unknown commands to be ignored.
            _ => {}
        }
        Ok(true)
    }

    fn introduce(&self) -> Result<(), Stop> {
        say(&Line::new("id")
            .arg("name", "arbiter")
            .arg("version", env!("CARGO_PKG_VERSION"))
            .arg("author", "the arbiter authors"))?;
        let current = self.hub_name(self.game);
        let names: Vec<&str> = self.offered.iter().map(|(n, _)| n.as_str()).collect();
        say(&Line::new("param")
            .arg("name", "variant")
            .arg("value", current)
            .arg("type", "enum")
            .arg("values", names.join(" ")))?;
        say(&Line::new("param")
            .arg("name", "hash")
            .arg("value", self.hash_mb)
            .arg("type", "int")
            .arg("min", 1)
            .arg("max", 4096))?;
        say(&Line::new("wait"))
    }

    fn hub_name(&self, game: &GameInfo) -> &str {
        self.offered
            .iter()
            .find(|(_, g)| g.id == game.id)
            .map_or(game.id, |(n, _)| n.as_str())
    }

    fn set_param(&mut self, line: &Line) -> Result<(), Stop> {
        let (Some(name), Some(value)) = (line.get("name"), line.get("value")) else {
            return say(&error("set-param needs name=... and value=..."));
        };
        match name {
            "variant" => {
                let wanted = self.offered.iter().find(|(n, g)| {
                    n.eq_ignore_ascii_case(value) || g.id.eq_ignore_ascii_case(value)
                });
                match wanted {
                    Some((_, g)) if g.id == self.game.id => {}
                    Some((_, g)) => {
                        self.game = g;
                        self.options = Options::default();
                        self.explorer = explorer(g, &self.options)?;
                        self.searcher = None;
                        self.position = Ok(None);
                    }
                    None => {
                        let names: Vec<&str> =
                            self.offered.iter().map(|(n, _)| n.as_str()).collect();
                        say(&error(&format!(
                            "variant `{value}` is not one arbiter plays (it plays: {})",
                            names.join(", ")
                        )))?;
                    }
                }
            }
            "hash" => match value.trim().parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    if mb != self.hash_mb {
                        self.hash_mb = mb;
                        self.searcher = None;
                    }
                }
                _ => say(&error(&format!(
                    "hash `{value}` is not a number of MB from 1 to 4096"
                )))?,
            },
            // Unknown parameters are ignored, as the protocol asks.
            _ => {}
        }
        Ok(())
    }

    /// Makes the engine if it is not made yet.
    fn engine(&mut self) {
        if self.searcher.is_none() {
            self.searcher = games::games().searcher(self.game, &self.options, self.hash_mb);
        }
    }

    /// Reads `pos pos=... [moves="..."]` into a FEN, the moves played on it.
    fn read_position(&self, line: &Line) -> Result<Option<String>, String> {
        let text = line
            .get("pos")
            .ok_or("pos needs pos=<side to move and 50 squares>")?;
        let fen = wire::position_to_fen(text)?;
        let mut current = self
            .explorer
            .position_string(Some(&fen))
            .map_err(|e| format!("position `{text}`: {e}"))?;
        for token in line.get("moves").unwrap_or("").split_whitespace() {
            let wanted = HubMove::parse(token)?;
            let legal = self
                .explorer
                .moves(Some(&current), &[], None)
                .map_err(|e| e.to_string())?;
            let Some(m) = legal.iter().find(|m| wanted.matches(m)) else {
                return Err(format!("move {token} is not legal in {current}"));
            };
            current = self
                .explorer
                .play(Some(&current), &[m.notation.as_str()])
                .map_err(|e| format!("move {token}: {e}"))?;
        }
        Ok(Some(current))
    }

    fn go(&mut self, line: &Line) -> Result<(), Stop> {
        let position = match &self.position {
            Ok(p) => p.clone(),
            Err(why) => return self.cannot(&format!("no position to search: {why}")),
        };
        match self.explorer.moves(position.as_deref(), &[], None) {
            Ok(moves) if moves.is_empty() => {
                return self.cannot("the game is over in this position: there is no move to play")
            }
            Ok(_) => {}
            Err(e) => return self.cannot(&e.to_string()),
        }
        self.engine();
        let Some(mut searcher) = self.searcher.take() else {
            return self.cannot(&format!("{} has no engine", self.game.label));
        };
        let analyze = line.first() == Some("analyze");
        let level = self.level;
        let plan = if level.depth.is_some() || level.nodes.is_some() {
            Plan::Once(Limits {
                depth: level.depth,
                nodes: level.nodes,
                time: level.budget(),
            })
        } else if let Some(budget) = level.budget() {
            Plan::Once(Limits {
                time: Some(budget),
                ..Limits::default()
            })
        } else if level.infinite || analyze {
            Plan::Endless
        } else {
            Plan::Once(Limits {
                time: Some(DEFAULT_MOVE_TIME),
                ..Limits::default()
            })
        };
        self.stop.store(self.ending, Ordering::Relaxed);
        let stop = Arc::clone(&self.stop);
        let events = self.sender.clone();
        self.searching = true;
        thread::Builder::new()
            .name("hub-search".to_string())
            .spawn(move || {
                let thought = think(searcher.as_mut(), position.as_deref(), plan, &stop);
                let _ = events.send(Event::Searched(searcher, thought));
            })
            .map_err(|e| Stop::Usage(format!("cannot start the search: {e}")))?;
        Ok(())
    }

    /// A `go` that cannot be searched: the reason, then a bare `done`.
    fn cannot(&self, why: &str) -> Result<(), Stop> {
        say(&error(why))?;
        say(&Line::new("done"))
    }
}

fn explorer(game: &GameInfo, options: &Options) -> Result<Box<dyn Explorer>, Stop> {
    games::games()
        .explorer(game, options)
        .ok_or_else(|| Stop::Usage(format!("{} cannot be played", game.label)))
}

/// How long a search goes on.
#[derive(Clone, Copy)]
enum Plan {
    /// One search within these limits.
    Once(Limits),
    /// Slices of [`SLICE`] until `stop` (or a proven result).
    Endless,
}

fn think(
    searcher: &mut dyn Searcher,
    position: Option<&str>,
    plan: Plan,
    stop: &AtomicBool,
) -> Result<Thought, String> {
    let started = Instant::now();
    let answer = match plan {
        Plan::Once(limits) => searcher
            .search(position, &limits)
            .map_err(|e| e.to_string())?,
        Plan::Endless => {
            let mut nodes = 0;
            let mut best: Option<SearchAnswer> = None;
            loop {
                let slice = Limits {
                    time: Some(SLICE),
                    ..Limits::default()
                };
                let mut a = searcher
                    .search(position, &slice)
                    .map_err(|e| e.to_string())?;
                nodes += a.nodes;
                a.nodes = nodes;
                let deeper = best.as_ref().is_none_or(|b| a.depth >= b.depth);
                if deeper {
                    let _ = say(&info(&a, started.elapsed()));
                    best = Some(a);
                }
                let decided = best.as_ref().is_some_and(|b| b.decided_in().is_some());
                let deepest = best
                    .as_ref()
                    .is_some_and(|b| b.depth as usize >= search::MAX_PLY / 2);
                if stop.load(Ordering::Relaxed) || decided || deepest {
                    break;
                }
            }
            let mut a = best.ok_or("the search found nothing")?;
            a.nodes = nodes;
            return Ok(Thought { answer: a });
        }
    };
    let _ = say(&info(&answer, started.elapsed()));
    Ok(Thought { answer })
}

/// `info depth=... score=... nodes=... time=... nps=... pv="..."` (nps in millions, as
/// Scan writes it).
fn info(a: &SearchAnswer, elapsed: Duration) -> Line {
    let seconds = elapsed.as_secs_f64();
    let mnps = if seconds > 0.0 {
        a.nodes as f64 / seconds / 1e6
    } else {
        0.0
    };
    let pv: Vec<String> = a.line.iter().map(wire::write_move).collect();
    Line::new("info")
        .arg("depth", a.depth)
        .arg("score", wire::write_score(a.score, a.decided_in()))
        .arg("nodes", a.nodes)
        .arg("time", format!("{seconds:.3}"))
        .arg("nps", format!("{mnps:.2}"))
        .arg("pv", pv.join(" "))
}

/// `done move=... [ponder=...]`.
fn done(a: &SearchAnswer) -> Line {
    let mut line = Line::new("done");
    if let Some((_, m)) = &a.best {
        line = line.arg("move", wire::write_move(m));
        if let Some(reply) = a.line.get(1) {
            line = line.arg("ponder", wire::write_move(reply));
        }
    }
    line
}

fn error(message: &str) -> Line {
    Line::new("error").arg("message", message)
}

/// Writes one line to standard output at once.
fn say(line: &Line) -> Result<(), Stop> {
    let mut out = io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(())
}

/// Reads standard input line by line (bytes that are not UTF-8 read as U+FFFD) until its end.
fn read_lines(events: mpsc::Sender<Event>) {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buffer).trim_end().to_string();
                if events.send(Event::Line(text)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = events.send(Event::End);
}
