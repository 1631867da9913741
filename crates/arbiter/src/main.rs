//! `arbiter`: validate, convert and analyse archives of Tama, Odnocvetnie Shashki and Thaayam
//! games. This binary only parses arguments and wires the library crates together.

mod convert;
mod explore;
mod input;
mod report;
mod show;
mod validate;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use referee::{GameKind, Rewrite, RulesOptions, Settings};

/// Exit code: records are clean.
const CLEAN: u8 = 0;
/// Exit code: problems were found in the records.
const PROBLEMS: u8 = 1;
/// Exit code: usage or I/O error.
const FAILURE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Re-check recorded games of Tama, Odnocvetnie Shashki and Thaayam move by move",
    long_about = "arbiter reads game records (PDN), replays every move against the rules and says \
                  precisely what is wrong: illegal moves, non-maximal or missed captures, \
                  ambiguous notation, locked pieces, unused throws, wrong results."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which game, when the records do not say (or to override what they say).
#[derive(Debug, Clone, Copy, ValueEnum)]
enum GameArg {
    Tama,
    Odnocvetnie,
    Thaayam,
}

impl From<GameArg> for GameKind {
    fn from(g: GameArg) -> GameKind {
        match g {
            GameArg::Tama => GameKind::Tama,
            GameArg::Odnocvetnie => GameKind::Odnocvetnie,
            GameArg::Thaayam => GameKind::Thaayam,
        }
    }
}

/// Self-play agents.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum AgentArg {
    /// Uniform over the legal moves.
    Random,
    /// The best immediate material or race progress.
    Greedy,
    /// A small fixed-depth search (draughts games).
    Search,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum SquaresArg {
    Algebraic,
    Numeric,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CapturesArg {
    Short,
    Full,
}

/// Options that choose the game and its rules.
#[derive(Args, Debug, Clone)]
struct GameOptions {
    /// The game, overriding the records' Variant tags.
    #[arg(long, value_enum)]
    game: Option<GameArg>,
    /// Ruleset options, comma-separated: ludii, lock-any-piece, lenient-unused.
    #[arg(long)]
    rules: Option<String>,
}

impl GameOptions {
    fn rules(&self) -> Result<Option<RulesOptions>, String> {
        self.rules.as_deref().map(RulesOptions::parse).transpose()
    }
}

/// One position of one game, for `moves` and `perft`.
#[derive(Args, Debug, Clone)]
struct PositionArgs {
    /// The game.
    #[arg(long, value_enum)]
    game: GameArg,
    /// Ruleset options, comma-separated.
    #[arg(long)]
    rules: Option<String>,
    /// The position (default: the start position).
    #[arg(long, alias = "position", value_name = "FEN")]
    fen: Option<String>,
}

impl PositionArgs {
    fn rules(&self) -> Result<RulesOptions, String> {
        Ok(self
            .rules
            .as_deref()
            .map(RulesOptions::parse)
            .transpose()?
            .unwrap_or_default())
    }
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game against the rules and report every problem.
    Validate {
        /// Files, directories (searched for *.pdn and *.pdn.gz) or `-` for standard input.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        game: GameOptions,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: report::Format,
        /// Colour in human output.
        #[arg(long, value_enum, default_value = "auto")]
        color: ColorArg,
        /// Also write the statistics report (report.html, charts, stats.json) to this folder.
        #[arg(long, value_name = "DIR")]
        report: Option<PathBuf>,
    },
    /// Write the games again as canonical PDN or JSON, optionally in another notation.
    Convert {
        /// A PDN file (plain or .gz), a JSON-lines file of games, or `-`.
        input: PathBuf,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Output form.
        #[arg(long, value_enum, default_value = "pdn")]
        to: convert::Target,
        /// Write squares as names (c3) or numbers.
        #[arg(long, value_enum)]
        squares: Option<SquaresArg>,
        /// Write captures short (c3xe5) or with every landing square (c3xc5xe5).
        #[arg(long, value_enum)]
        captures: Option<CapturesArg>,
        #[command(flatten)]
        game: GameOptions,
    },
    /// List every legal move of a position (Thaayam: every legal play of a series of throws).
    Moves {
        #[command(flatten)]
        position: PositionArgs,
        /// Thaayam: the throws of the series, e.g. "1 4 2".
        #[arg(long)]
        throws: Option<String>,
        /// Odnocvetnie: write squares as numbers (default) or names.
        #[arg(long, value_enum)]
        squares: Option<SquaresArg>,
    },
    /// Count the positions reachable in 1..N moves (draughts perft convention).
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// The deepest depth to count.
        #[arg(long)]
        depth: u32,
    },
    /// Draw the position of one game after some plies, as SVG or PNG.
    Show {
        /// A PDN file (plain or .gz), or `-` for standard input.
        file: PathBuf,
        /// Which game of the file, counting from 1.
        #[arg(long, default_value_t = 1, value_name = "N")]
        game: u64,
        /// Draw the position after this many plies of the main line (0: the start
        /// position; default: where the main line ends).
        #[arg(long, value_name = "P")]
        ply: Option<u32>,
        /// The game, overriding the record's Variant tag.
        #[arg(long, value_enum)]
        variant: Option<GameArg>,
        /// Ruleset options, comma-separated: ludii, lock-any-piece, lenient-unused.
        #[arg(long)]
        rules: Option<String>,
        /// The picture to write: a name ending in .svg or .png.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Generate games by self-play (identical bytes for the same arguments).
    Selfplay {
        /// The game.
        #[arg(long, value_enum)]
        game: GameArg,
        /// How many games.
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Seed of the random choices and the throws.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Thaayam: number of players (default: a mix of 2, 3 and 4).
        #[arg(long, value_parser = clap::value_parser!(u8).range(2..=4))]
        players: Option<u8>,
        /// The agent for every seat (default: a documented mix).
        #[arg(long, value_enum)]
        agent: Option<AgentArg>,
        /// Stop a game after this many plies and record it as unfinished.
        #[arg(long)]
        max_plies: Option<u32>,
        /// Depth of the search agent.
        #[arg(long)]
        depth: Option<u32>,
        /// The Event tag.
        #[arg(long)]
        event: Option<String>,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Replay a corpus and write a statistics report with charts.
    Stats {
        /// Files, directories (searched for *.pdn and *.pdn.gz) or `-`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Folder for report.html, the charts and stats.json.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[command(flatten)]
        game: GameOptions,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("arbiter: {message}");
            ExitCode::from(FAILURE)
        }
    }
}

fn run(command: Command) -> Result<u8, String> {
    match command {
        Command::Validate {
            paths,
            game,
            format,
            color,
            report,
        } => {
            let settings = Settings {
                game: game.game.map(Into::into),
                rules: game.rules()?,
                collect_facts: report.is_some(),
                rewrite: None,
                snapshots: report.is_some(),
                board_at: None,
            };
            let color = match color {
                ColorArg::Always => true,
                ColorArg::Never => false,
                ColorArg::Auto => format == report::Format::Human && io::stdout().is_terminal(),
            };
            let job = validate::Job {
                settings: &settings,
                format: Some(format),
                stats: report.is_some(),
            };
            corpus_run(&paths, &job, color, format, report.as_deref())
        }
        Command::Stats { paths, out, game } => {
            let settings = Settings {
                game: game.game.map(Into::into),
                rules: game.rules()?,
                collect_facts: true,
                rewrite: None,
                snapshots: true,
                board_at: None,
            };
            let job = validate::Job {
                settings: &settings,
                format: None,
                stats: true,
            };
            corpus_run(&paths, &job, false, report::Format::Human, Some(&out))
        }
        Command::Convert {
            input,
            output,
            to,
            squares,
            captures,
            game,
        } => {
            let rewrite = (squares.is_some() || captures.is_some()).then(|| Rewrite {
                numeric: squares.map(|s| matches!(s, SquaresArg::Numeric)),
                full_captures: captures.map(|c| matches!(c, CapturesArg::Full)),
            });
            let settings = Settings {
                game: game.game.map(Into::into),
                rules: game.rules()?,
                collect_facts: false,
                rewrite,
                ..Settings::default()
            };
            let source = if input.as_os_str() == "-" {
                input::Input::Stdin
            } else {
                input::Input::File(input)
            };
            let mut out: Box<dyn Write> = match &output {
                Some(path) => Box::new(io::BufWriter::new(
                    std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
                )),
                None => Box::new(io::BufWriter::new(io::stdout().lock())),
            };
            let tally = convert::convert(&source, to, &settings, &mut out, &mut io::stderr())
                .map_err(|e| format!("{}: {e}", source.name()))?;
            out.flush().map_err(|e| e.to_string())?;
            eprintln!(
                "converted {} game{}{}{}",
                tally.games,
                if tally.games == 1 { "" } else { "s" },
                if rewrite.is_some() {
                    format!(", {} moves rewritten", tally.rewritten)
                } else {
                    String::new()
                },
                if tally.problems > 0 {
                    format!(", {} problems (see above)", tally.problems)
                } else {
                    String::new()
                }
            );
            Ok(if tally.problems > 0 { PROBLEMS } else { CLEAN })
        }
        Command::Selfplay {
            game,
            games,
            seed,
            players,
            agent,
            max_plies,
            depth,
            event,
            output,
        } => {
            let mut config = selfplay::Config::new(match game {
                GameArg::Tama => selfplay::GameChoice::Tama,
                GameArg::Odnocvetnie => selfplay::GameChoice::Odnocvetnie,
                GameArg::Thaayam => selfplay::GameChoice::Thaayam,
            });
            config.games = games;
            config.seed = seed;
            config.players = players;
            config.agent = agent.map(|a| match a {
                AgentArg::Random => selfplay::Agent::Random,
                AgentArg::Greedy => selfplay::Agent::Greedy,
                AgentArg::Search => selfplay::Agent::Search,
            });
            config.max_plies = max_plies;
            config.search_depth = depth;
            if let Some(event) = event {
                config.event = event;
            }
            config.check()?;
            let mut out: Box<dyn Write> = match &output {
                Some(path) => Box::new(io::BufWriter::new(
                    std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
                )),
                None => Box::new(io::BufWriter::new(io::stdout().lock())),
            };
            let summary = selfplay::generate(&config, &mut out).map_err(|e| e.to_string())?;
            out.flush().map_err(|e| e.to_string())?;
            eprintln!(
                "wrote {} games ({} plies, {} ended by rule)",
                summary.games, summary.plies, summary.ended_by_rule
            );
            Ok(CLEAN)
        }
        Command::Moves {
            position,
            throws,
            squares,
        } => {
            let numeric = !matches!(squares, Some(SquaresArg::Algebraic));
            let lines = explore::moves(
                position.game.into(),
                &position.rules()?,
                position.fen.as_deref(),
                throws.as_deref(),
                numeric,
            )?;
            let mut out = io::stdout().lock();
            for line in lines {
                writeln!(out, "{line}").map_err(|e| e.to_string())?;
            }
            Ok(CLEAN)
        }
        Command::Show {
            file,
            game,
            ply,
            variant,
            rules,
            output,
        } => {
            let request = show::Request {
                input: if file.as_os_str() == "-" {
                    input::Input::Stdin
                } else {
                    input::Input::File(file)
                },
                game,
                ply,
                variant: variant.map(Into::into),
                rules: rules.as_deref().map(RulesOptions::parse).transpose()?,
                output,
            };
            let shown = show::show(&request)?;
            for note in &shown.notes {
                eprintln!("arbiter: {note}");
            }
            eprintln!("wrote {}: {}", request.output.display(), shown.title);
            Ok(CLEAN)
        }
        Command::Perft { position, depth } => {
            let rows = explore::perft(
                position.game.into(),
                &position.rules()?,
                position.fen.as_deref(),
                depth,
            )?;
            for (d, nodes) in rows {
                println!("{d} {nodes}");
            }
            Ok(CLEAN)
        }
    }
}

/// Validates a corpus, optionally writing the statistics report; returns the exit code.
fn corpus_run(
    paths: &[PathBuf],
    job: &validate::Job<'_>,
    color: bool,
    format: report::Format,
    report_dir: Option<&Path>,
) -> Result<u8, String> {
    let (inputs, missing) = input::collect(paths);
    for (path, e) in &missing {
        eprintln!("arbiter: {}: {e}", path.display());
    }
    let (mut tally, stats, extras) = validate::run(&inputs, job, color, true);
    tally.io_errors += missing.len() as u64;
    let line = validate::summary(&tally);
    match (job.format, format) {
        (Some(_), report::Format::Human) => println!("{line}"),
        _ => eprintln!("{line}"),
    }
    if let Some(dir) = report_dir {
        let files = stats
            .write_report_with(dir, &extras)
            .map_err(|e| format!("{}: cannot write the report: {e}", dir.display()))?;
        eprintln!(
            "report written to {} ({} charts, numbers in {})",
            files.html.display(),
            files.charts.len(),
            files.json.display()
        );
    }
    Ok(if tally.io_errors > 0 {
        FAILURE
    } else if tally.errors > 0 {
        PROBLEMS
    } else {
        CLEAN
    })
}
