//! `arbiter analyse`: every ply of every game searched by arbiter's engine and judged, with
//! per-game and per-player figures; optionally the games written back annotated.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use analysis::pipeline::Players;
use analysis::{Class, Figures, PlyAnalysis};
use clap::Args;
use search::Limits;

use crate::analyse::{self, Analysed};
use crate::args::{GameChoice, Inputs};
use crate::exit::{Outcome, Stop, CLEAN, PROBLEMS};
use crate::output::Output;
use crate::report::Format;

#[derive(Args)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub inputs: Inputs,
    #[command(flatten)]
    pub game: GameChoice,
    /// Nodes searched per position (default 20000). The same nodes give the same analysis on
    /// any machine and any number of cores.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Plies searched per position at most.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Milliseconds per position (the analysis then depends on the machine's speed).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Transposition table per game being analysed, in MB.
    #[arg(long, value_name = "MB", default_value = "16", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Output format: notes in the style of `validate`, or one JSON object per analysed ply,
    /// then one per game and one per player.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Write the games annotated (an `[%eval]` comment after every analysed move, `?!`, `?`
    /// or `??` after classed moves and the engine's line as a variation) to `-o FILE`.
    #[arg(long, requires = "output")]
    pub annotate: bool,
    /// The annotated games' file (with `--annotate`).
    #[arg(short, long, value_name = "FILE", requires = "annotate")]
    pub output: Option<PathBuf>,
    /// Also write the analysis as tables into DIR: analysis.parquet (one row per analysed
    /// ply; joins export's plies.parquet on game_id and ply) and players.parquet.
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
    /// Analyse only the first N games (of all inputs together).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Print only the players' figures and the summary.
    #[arg(short, long)]
    pub quiet: bool,
    /// Also write a report to this folder: report.html (the players' table, charts, every
    /// game in the viewer with its evaluation graph), analysis.json and the charts.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Search with an external engine speaking the Hub protocol, started as this command
    /// line (words separated by spaces), e.g. "dame hub" or "scan hub"; one process per game.
    /// `--nodes`, `--depth` and `--movetime` are passed on as its level.
    #[arg(long, value_name = "COMMAND")]
    pub engine: Option<String>,
    /// Seconds the external engine may stay silent while an answer is due; then it is ended
    /// and the run stops.
    #[arg(long, value_name = "SECONDS", default_value = "60", requires = "engine", value_parser = clap::value_parser!(u64).range(1..))]
    pub engine_timeout: u64,
}

pub fn run(args: AnalyseArgs) -> Outcome {
    let settings = {
        let mut s = args.game.settings()?;
        s.details = true;
        s.positions = true;
        s.keep_tags = true;
        s.boards = args.report.is_some();
        s
    };
    let limits = Limits {
        nodes: args.nodes.or(match (args.depth, args.movetime) {
            (None, None) => Some(analysis::Settings::DEFAULT_NODES),
            _ => None,
        }),
        depth: args.depth,
        time: args.movetime.map(Duration::from_millis),
    };
    let asettings = analysis::Settings {
        limits,
        hash_mb: args.hash as usize,
        ..analysis::Settings::default()
    };
    let engine = match &args.engine {
        Some(line) => {
            let timeout = Duration::from_secs(args.engine_timeout);
            let command = hub::EngineCommand::new(line, timeout);
            let variants = hub::variants(games::games().registry(), games::HUB_NAMES);
            Some(hub::HubEngines::new(command, variants).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let (inputs, missing) = ::archive::collect(&args.inputs.paths, ::archive::Dash::Stdin);
    let json = args.format == Format::Json;
    for (path, e) in &missing {
        crate::validate::unreadable(json, &path.display().to_string(), e)?;
    }
    if let Some(o) = args.output.as_deref() {
        crate::archive::refuse_overwrite(&inputs, &[o])?;
    }
    let mut annotated = match (&args.output, args.annotate) {
        (Some(path), true) => Some(pdn::Writer::new(Output::create(Some(path))?)),
        _ => None,
    };
    let mut page = args.report.as_ref().map(|_| {
        crate::analysis_page::Builder::new(match args.inputs.paths.as_slice() {
            [one] => format!("Engine analysis of {}", one.display()),
            paths => format!("Engine analysis of {} inputs", paths.len()),
        })
    });
    let mut tables = match &args.export {
        Some(dir) => Some(Tables::create(dir)?),
        None => None,
    };
    let mut run = Run {
        out: io::BufWriter::new(io::stdout().lock()),
        json,
        quiet: args.quiet,
        players: Players::default(),
        tally: Tally {
            unreadable: missing.len() as u64,
            ..Tally::default()
        },
    };
    let started = Instant::now();
    let mut left = args.limit.unwrap_or(u64::MAX);
    for source in &inputs {
        if left == 0 {
            break;
        }
        let name = source.name();
        let result = analyse::run(
            source,
            left,
            &settings,
            asettings,
            engine.as_ref().map(|e| e as &dyn analysis::Engines),
            &mut |game| {
                if let Some(e) = &game.failed {
                    return Err(io::Error::other(e.to_string()));
                }
                left -= 1;
                run.game(&name, &game)?;
                if let Some(p) = page.as_mut() {
                    p.add(&name, &game);
                }
                if let Some(w) = annotated.as_mut() {
                    w.write(&annotate(&game))?;
                }
                if let Some(t) = tables.as_mut() {
                    t.sink.push_game(&name, &game).map_err(io::Error::other)?;
                }
                Ok(())
            },
        );
        match result {
            Ok(()) => {}
            Err(e) if ::archive::is_read_error(&e) => {
                run.tally.unreadable += 1;
                crate::validate::unreadable(json, &name, &e)?;
            }
            Err(e) => return Err(e.into()),
        }
    }
    run.finish(started.elapsed())?;
    if let (Some(p), Some(dir)) = (&page, &args.report) {
        let charts = p
            .write(dir)
            .map_err(|e| format!("{}: cannot write the report: {e}", dir.display()))?;
        eprintln!(
            "report written to {} ({charts} charts)",
            dir.join("report.html").display()
        );
    }
    if let Some(w) = annotated {
        w.finish()?.commit()?;
    }
    if let Some(t) = tables {
        t.finish()?;
    }
    Ok(run.tally.exit_code())
}

/// The tables of `--export`, written in a staging folder that replaces the earlier tables
/// (and nothing else in the folder) only when complete.
struct Tables {
    staging: outfile::Staging,
    sink: export::AnalysisSink,
}

impl Tables {
    fn create(dir: &Path) -> Result<Tables, Stop> {
        let staging = outfile::Staging::create(dir).map_err(|e| Stop::Usage(e.to_string()))?;
        let sink = export::AnalysisSink::create(staging.path(), export::SinkOptions::default())
            .map_err(|e| Stop::Usage(e.to_string()))?;
        Ok(Tables { staging, sink })
    }

    fn finish(self) -> Result<(), Stop> {
        self.sink.finish().map_err(|e| Stop::Usage(e.to_string()))?;
        self.staging
            .commit(&[])
            .map_err(|e| Stop::Usage(e.to_string()))
    }
}

#[derive(Debug, Default)]
struct Tally {
    games: u64,
    plies: u64,
    /// Games not analysed at all.
    skipped: u64,
    /// Games whose analysis stopped before the end of the main line.
    partial: u64,
    /// Games with errors in the record.
    with_errors: u64,
    unreadable: u64,
    classes: [u64; 6],
}

impl Tally {
    /// 2 when an input could not be read; 1 when a game was not wholly analysed or a record
    /// has errors (never "clean" for what was not checked); else 0.
    fn exit_code(&self) -> u8 {
        if self.unreadable > 0 {
            crate::exit::FAILURE
        } else if self.skipped + self.partial + self.with_errors > 0 {
            PROBLEMS
        } else {
            CLEAN
        }
    }
}

struct Run<W: Write> {
    out: W,
    json: bool,
    quiet: bool,
    players: Players,
    tally: Tally,
}

impl<W: Write> Run<W> {
    fn game(&mut self, file: &str, g: &Analysed) -> io::Result<()> {
        self.tally.games += 1;
        self.tally.plies += g.analysis.plies.len() as u64;
        self.tally.with_errors += u64::from(g.errors() > 0);
        for p in &g.analysis.plies {
            if let Some(c) = p.class {
                self.tally.classes[class_index(c)] += 1;
            }
        }
        let seats: Vec<u8> = g.report.seats.clone();
        self.players.add(g);
        if let Some(why) = &g.skipped {
            self.tally.skipped += 1;
            return self.not_analysed(file, g, why);
        }
        if let Some(u) = &g.analysis.unanalysed {
            self.tally.partial += 1;
            self.not_analysed(
                file,
                g,
                &format!("analysed up to ply {} only: {}", u.ply - 1, u.why),
            )?;
        }
        if self.json {
            for (i, p) in g.analysis.plies.iter().enumerate() {
                self.json_ply(file, g, i, p)?;
            }
            return self.json_game(file, g, &seats);
        }
        if !self.quiet {
            for (i, p) in g.analysis.plies.iter().enumerate() {
                if p.class.is_some() {
                    self.human_ply(file, g, i, p)?;
                }
            }
            self.human_game(file, g, &seats)?;
        }
        Ok(())
    }

    fn not_analysed(&mut self, file: &str, g: &Analysed, why: &str) -> io::Result<()> {
        if self.json {
            let v = serde_json::json!({
                "kind": "not-analysed", "file": file, "game": g.index, "why": why,
            });
            return writeln!(self.out, "{v}");
        }
        writeln!(self.out, "{file}: game {}: {why}", g.index)
    }

    fn json_ply(&mut self, file: &str, g: &Analysed, i: usize, p: &PlyAnalysis) -> io::Result<()> {
        let (line, column) = g.places.get(i).copied().unwrap_or((0, 0));
        let mut v = serde_json::to_value(p).map_err(io::Error::other)?;
        if let Some(o) = v.as_object_mut() {
            o.insert("kind".into(), "ply".into());
            o.insert("file".into(), file.into());
            o.insert("game".into(), g.index.into());
            o.insert("player".into(), g.player(p.seat).into());
            o.insert("line_number".into(), line.into());
            o.insert("column".into(), column.into());
        }
        writeln!(self.out, "{v}")
    }

    fn json_game(&mut self, file: &str, g: &Analysed, seats: &[u8]) -> io::Result<()> {
        let players: Vec<serde_json::Value> = seats
            .iter()
            .map(|&s| figures_json(&g.player(s), Some(s), &g.analysis.figures(s)))
            .collect();
        let v = serde_json::json!({
            "kind": "game", "file": file, "game": g.index,
            "game_name": g.report.game.map(|i| i.label),
            "plies": g.analysis.plies.len(),
            "unanalysed": g.analysis.unanalysed,
            "seats": players,
        });
        writeln!(self.out, "{v}")
    }

    fn human_ply(&mut self, file: &str, g: &Analysed, i: usize, p: &PlyAnalysis) -> io::Result<()> {
        let (line, column) = g.places.get(i).copied().unwrap_or((0, 0));
        let class = p.class.map_or("", Class::name);
        let mark = p.class.map_or("", Class::mark);
        let number = move_number(p.ply, g.report.seats.len().max(1));
        write!(
            self.out,
            "{file}:{line}:{column}: note[{class}]: {number} {}{mark} ({}): {} -> {}, loses {}",
            p.played,
            g.player(p.seat),
            eval_text(p.eval_before),
            eval_text(p.eval_after),
            men(p.loss),
        )?;
        if let Some(best) = &p.best {
            write!(self.out, "; best {best}")?;
            if p.line.len() > 1 {
                write!(self.out, " ({})", p.line.join(" "))?;
            }
        }
        match p.class {
            Some(Class::MissedShot) => write!(self.out, "; the shot was {}", p.shot.join(" "))?,
            Some(Class::AllowedShot) => {
                write!(self.out, "; it allows the shot {}", p.shot.join(" "))?
            }
            _ => {}
        }
        writeln!(self.out)
    }

    fn human_game(&mut self, file: &str, g: &Analysed, seats: &[u8]) -> io::Result<()> {
        let parts: Vec<String> = seats
            .iter()
            .map(|&s| (s, g.analysis.figures(s)))
            .filter(|(_, f)| f.moves > 0)
            .map(|(s, f)| {
                format!(
                    "{} accuracy {:.1}, average loss {:.0}, {}",
                    g.player(s),
                    f.accuracy(),
                    f.average_loss(),
                    class_counts(&f)
                )
            })
            .collect();
        if parts.is_empty() {
            return Ok(());
        }
        writeln!(self.out, "{file}: game {}: {}", g.index, parts.join("; "))
    }

    fn finish(&mut self, took: Duration) -> io::Result<()> {
        if self.json {
            for (name, f) in self.players.iter() {
                writeln!(self.out, "{}", figures_json(name, None, f))?;
            }
        } else {
            self.player_table()?;
        }
        self.out.flush()?;
        let t = &self.tally;
        let mut line = format!(
            "analysed {} {} ({} {}) in {:.1} s",
            t.games,
            plural(t.games, "game"),
            t.plies,
            plural(t.plies, "ply"),
            took.as_secs_f64()
        );
        for (n, what) in [
            (t.skipped, "not analysed"),
            (t.partial, "analysed in part"),
            (t.with_errors, "with errors in the record"),
            (t.unreadable, "unreadable inputs"),
        ] {
            if n > 0 {
                line.push_str(&format!(", {n} {what}"));
            }
        }
        eprintln!("{line}");
        Ok(())
    }

    fn player_table(&mut self) -> io::Result<()> {
        if self.players.is_empty() {
            return Ok(());
        }
        let width = self
            .players
            .iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        writeln!(
            self.out,
            "\n{:width$}  games  moves  accuracy  avg loss   ?!    ?   ??  missed-win  missed-shot  allowed-shot  agreement",
            "player"
        )?;
        for (name, f) in self.players.iter() {
            writeln!(
                self.out,
                "{name:width$}  {:5}  {:5}  {:8.1}  {:8.1}  {:3}  {:3}  {:3}  {:10}  {:11}  {:12}  {:8.1}%",
                f.games,
                f.moves,
                f.accuracy(),
                f.average_loss(),
                f.count(Class::Inaccuracy),
                f.count(Class::Mistake),
                f.count(Class::Blunder),
                f.count(Class::MissedWin),
                f.count(Class::MissedShot),
                f.count(Class::AllowedShot),
                f.agreement(),
            )?;
        }
        Ok(())
    }
}

fn figures_json(name: &str, seat: Option<u8>, f: &Figures) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = Class::ALL
        .iter()
        .map(|&c| (c.name().to_string(), f.count(c).into()))
        .collect();
    let mut v = serde_json::json!({
        "kind": if seat.is_some() { "seat" } else { "player" },
        "player": name,
        "games": f.games,
        "moves": f.moves,
        "accuracy": round1(f.accuracy()),
        "average_loss": round1(f.average_loss()),
        "agreement": round1(f.agreement()),
        "classes": counts,
    });
    if let (Some(s), Some(o)) = (seat, v.as_object_mut()) {
        o.insert("seat".into(), s.into());
    }
    v
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn class_index(c: Class) -> usize {
    Class::ALL.iter().position(|&k| k == c).unwrap_or(0)
}

fn class_counts(f: &Figures) -> String {
    let parts: Vec<String> = Class::ALL
        .iter()
        .rev()
        .filter(|&&c| f.count(c) > 0)
        .map(|&c| format!("{} {}", f.count(c), c.name()))
        .collect();
    if parts.is_empty() {
        "no move classed".to_string()
    } else {
        parts.join(", ")
    }
}

fn plural(n: u64, word: &str) -> String {
    match (n, word) {
        (1, w) => w.to_string(),
        (_, "ply") => "plies".to_string(),
        (_, w) => format!("{w}s"),
    }
}

/// `12.` for the first seat's ply of round 12, `12...` for a later seat's.
pub fn move_number(ply: u32, seats: usize) -> String {
    let i = (ply as usize).saturating_sub(1);
    let n = i / seats + 1;
    if i.is_multiple_of(seats) {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

/// An evaluation as players read it: men with two decimals (`+1.25`), a proven result as
/// `#N` (`-#N` lost) in N plies.
pub fn eval_text(v: i32) -> String {
    let won = analysis::WON_SCORE;
    if v.abs() > won - 10_000 {
        let plies = won - v.abs();
        return format!("{}#{plies}", if v < 0 { "-" } else { "" });
    }
    format!("{:+.2}", f64::from(v) / 100.0)
}

fn men(loss: i32) -> String {
    format!("{:.2}", f64::from(loss) / 100.0)
}

/// The record with the analysis written in: after each analysed ply an `[%eval]` comment
/// (from the first seat's view in a two-seat game, else the mover's), and after a classed
/// move its mark and the engine's line as a variation.
fn annotate(g: &Analysed) -> pdn::GameRecord {
    let mut record = g.record.clone();
    let two = g.report.seats.len() == 2;
    for (p, &(_, last)) in g.analysis.plies.iter().zip(&g.nodes).rev() {
        let view = if two && p.seat != g.report.seats[0] {
            -p.eval_after
        } else {
            p.eval_after
        };
        let mut text = format!("[%eval {}]", eval_text(view));
        if let (Some(class), false) = (p.class, p.agreed) {
            text.push_str(&format!(" [%class {}]", class.name()));
        }
        let mut insert = vec![pdn::Node::Comment(pdn::Comment {
            text,
            kind: pdn::CommentKind::Brace,
            span: Default::default(),
        })];
        if let (Some(class), false) = (p.class, p.agreed) {
            if let Some(pdn::Node::Move(m)) = record.movetext.get_mut(last) {
                if m.strength().is_none() {
                    m.annotations.push(pdn::Annotation::Strength(pdn::Strength {
                        mark: class.mark().to_string(),
                        span: Default::default(),
                    }));
                }
            }
            if !p.line.is_empty() {
                insert.push(pdn::Node::Variation(variation(
                    p,
                    g.report.seats.len().max(1),
                )));
            }
        }
        let at = (last + 1).min(record.movetext.len());
        record.movetext.splice(at..at, insert);
    }
    record
}

/// The engine's line as a variation replacing the move played.
fn variation(p: &PlyAnalysis, seats: usize) -> pdn::Variation {
    let mut nodes = Vec::with_capacity(p.line.len() + 1);
    for (k, text) in p.line.iter().enumerate() {
        let ply = p.ply as usize + k;
        let i = ply - 1;
        if k == 0 || i.is_multiple_of(seats) {
            nodes.push(pdn::Node::MoveNumber(pdn::MoveNumber {
                number: (i / seats + 1) as u32,
                continuation: !i.is_multiple_of(seats),
                span: Default::default(),
            }));
        }
        nodes.push(pdn::Node::Move(pdn::Move {
            token: text.clone(),
            annotations: Vec::new(),
            span: Default::default(),
        }));
    }
    pdn::Variation {
        nodes,
        open: Default::default(),
        close: Default::default(),
    }
}
