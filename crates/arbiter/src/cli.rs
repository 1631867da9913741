//! The command line: one vocabulary for every subcommand.
//!
//! `--game` always names the game every record is read as (as on `arbiter games`),
//! `--default-game` the game of records whose tags name none, `--index N` a game within a file,
//! `-o/--output` what is written, `--format human|json` how results are printed, and
//! `--rules` ruleset options. Every subcommand's help ends with examples, which a test runs.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use game::GameInfo;

pub use crate::convert::Target;
pub use crate::report::Format;

/// Plies of the report's opening tree unless `stats --tree-plies` says otherwise.
pub const DEFAULT_TREE_PLIES: u32 = 10;
#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Re-check recorded draughts-family games move by move and say precisely what is wrong",
    long_about = "arbiter reads game records (PDN), replays every move against the rules and says \
                  precisely what is wrong: illegal moves, non-maximal or missed captures, \
                  ambiguous notation, locked pieces, unused throws, wrong results. It also \
                  converts between notations and writes statistics reports. \
                  `arbiter games` lists the games it knows.",
    after_help = "Examples:\n  arbiter validate corpus/tama\n  arbiter games\n  arbiter moves --game tama"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Parses a `--game` value: a game's name or one of its aliases.
fn parse_game(name: &str) -> Result<&'static GameInfo, String> {
    let registry = game_registry();
    registry.by_name(name).ok_or_else(|| {
        format!(
            "`{name}` is not a game arbiter knows (known: {})",
            registry.id_list()
        )
    })
}

fn game_registry() -> &'static game::Registry {
    referee::Catalog::registry(games::games())
}

/// When to colour human output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// When standard output is a terminal and NO_COLOR is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Columnar table formats of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// Apache Parquet, zstd-compressed.
    Parquet,
}

/// How squares are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SquaresArg {
    /// Names such as c3.
    Algebraic,
    /// Numbers such as 22.
    Numeric,
}

/// How captures are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CapturesArg {
    /// Start and end only (c3xe5), unless that is ambiguous.
    Short,
    /// Every landing square (c3xc5xe5).
    Full,
}

/// Which diagnostics `validate` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    /// Errors only.
    Error,
    /// Errors and warnings.
    Warning,
    /// Everything, notes included.
    Note,
}

impl SeverityArg {
    /// The least severity printed.
    pub fn least(self) -> referee::Severity {
        match self {
            SeverityArg::Error => referee::Severity::Error,
            SeverityArg::Warning => referee::Severity::Warning,
            SeverityArg::Note => referee::Severity::Note,
        }
    }
}

/// Self-play agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentArg {
    /// Uniform over the legal moves.
    Random,
    /// The best immediate material or race progress.
    Greedy,
    /// A small fixed-depth search.
    Search,
}

/// The game and its rules, for commands that read records (the records' tags are used where
/// these are not given).
#[derive(Args, Debug, Clone, Default)]
pub struct GameChoice {
    /// The game of every record, overriding the records' Variant and GameType tags (see
    /// `arbiter games`).
    #[arg(long, value_parser = parse_game, value_name = "GAME")]
    pub game: Option<&'static GameInfo>,
    /// The game of the records whose Variant and GameType tags name none (without it, their
    /// game is found from their moves).
    #[arg(long, value_parser = parse_game, value_name = "GAME", conflicts_with = "game")]
    pub default_game: Option<&'static GameInfo>,
    /// Ruleset options, comma-separated, overriding the records' Rules tags (see
    /// `arbiter games`).
    #[arg(long, value_name = "OPTIONS")]
    pub rules: Option<String>,
}

/// One position of one game, for `moves` and `perft`.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The game (see `arbiter games`).
    #[arg(long, value_parser = parse_game, value_name = "GAME")]
    pub game: &'static GameInfo,
    /// Ruleset options, comma-separated.
    #[arg(long, value_name = "OPTIONS")]
    pub rules: Option<String>,
    /// The position in the game's FEN dialect (default: the start position).
    #[arg(long, alias = "position", value_name = "FEN")]
    pub fen: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
}

/// Inputs: files, folders (searched for *.pdn and *.pdn.gz) or `-` for standard input.
#[derive(Args, Debug, Clone)]
pub struct Inputs {
    /// Files, folders (searched for *.pdn and *.pdn.gz) or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Replay every game against the rules and report every problem.
    #[command(after_help = "Examples:
  arbiter validate corpus
  arbiter validate corpus/tama --format json --max-errors 5
  arbiter validate corpus/defects/tama -q
  arbiter validate corpus/defects --severity error
  arbiter validate corpus/international --default-game international")]
    Validate {
        #[command(flatten)]
        inputs: Inputs,
        #[command(flatten)]
        game: GameChoice,
        /// Output format of the diagnostics.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
        /// Colour in human output (NO_COLOR in the environment turns `auto` off).
        #[arg(long, value_enum, default_value = "auto")]
        color: ColorArg,
        /// Also write the statistics report (report.html, charts, stats.json) to this folder.
        #[arg(long, value_name = "DIR")]
        report: Option<PathBuf>,
        /// Print only the summary line.
        #[arg(short, long)]
        quiet: bool,
        /// Stop printing errors after this many (they are still counted; warnings and notes
        /// do not count).
        #[arg(long, value_name = "N")]
        max_errors: Option<u64>,
        /// Print diagnostics of this severity and above.
        #[arg(long, value_enum, default_value = "note")]
        severity: SeverityArg,
        /// Every record must name its game: a game found from its moves alone is an error.
        #[arg(long)]
        strict: bool,
    },
    /// Replay a corpus and write a statistics report with charts.
    #[command(after_help = "Examples:
  arbiter stats corpus -o report
  arbiter stats corpus/thaayam -o thaayam-report")]
    Stats {
        #[command(flatten)]
        inputs: Inputs,
        /// Folder for report.html, the charts and stats.json.
        #[arg(short, long, alias = "out", value_name = "DIR")]
        output: PathBuf,
        /// Plies the opening tree follows (by position key; 0 leaves it out).
        #[arg(long, value_name = "N", default_value_t = DEFAULT_TREE_PLIES,
              value_parser = clap::value_parser!(u32).range(0..=16))]
        tree_plies: u32,
        #[command(flatten)]
        game: GameChoice,
    },
    /// Write every game of the inputs into one self-contained HTML page to step through, with
    /// every problem listed (no network needed to open it).
    #[command(after_help = "Examples:
  arbiter view corpus/defects -o viewer.html
  arbiter view corpus/tama/tama-random.pdn --game tama -o tama.html")]
    View {
        #[command(flatten)]
        inputs: Inputs,
        /// The page to write.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        #[command(flatten)]
        game: GameChoice,
    },
    /// Write the games again as PDN or JSON, optionally in another notation; several inputs
    /// are merged in order.
    #[command(after_help = "Examples:
  arbiter convert corpus/tama/tama-random.pdn --to json -o games.jsonl
  arbiter convert corpus/tama/tama-random.pdn --squares numeric --captures full -o numeric.pdn
  arbiter convert corpus/odnocvetnie/odnocvetnie-random.pdn corpus/tama/tama-random.pdn -o merged.pdn")]
    Convert {
        /// PDN files (plain or .gz), JSON-lines files of games, folders (searched for *.pdn,
        /// *.pdn.gz and *.trl), or `-` for standard input.
        #[arg(required = true, value_name = "INPUT")]
        inputs: Vec<PathBuf>,
        /// Output file, written whole or not at all (default or `-`: standard output).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Output form.
        #[arg(long, value_enum, default_value = "pdn")]
        to: Target,
        /// Write squares as names (c3) or numbers.
        #[arg(long, value_enum)]
        squares: Option<SquaresArg>,
        /// Write captures short (c3xe5) or with every landing square (c3xc5xe5).
        #[arg(long, value_enum)]
        captures: Option<CapturesArg>,
        #[command(flatten)]
        game: GameChoice,
        #[command(flatten)]
        archive: crate::archive::ConvertEdits,
    },
    /// Write the games that pass every filter to OUT (and the others to REST), each exactly
    /// as read; filters on tags, players and dates do not replay the games.
    #[command(after_help = "Examples:
  arbiter select corpus --player petrosyan -o petrosyan.pdn
  arbiter select corpus/tama --result 1-0 --plies 40..80 -o wins.pdn --rest others.pdn
  arbiter select corpus --problems any --dedupe -o broken.pdn")]
    Select {
        #[command(flatten)]
        inputs: Inputs,
        #[command(flatten)]
        filters: Box<crate::archive::SelectArgs>,
        #[command(flatten)]
        game: GameChoice,
    },
    /// Share the games out between files: N games per file, or one file per value of a tag.
    #[command(after_help = "Examples:
  arbiter split corpus/tama/tama-random.pdn --games 100 -o parts
  arbiter split corpus/tama --by Site -o by-site")]
    Split {
        #[command(flatten)]
        inputs: Inputs,
        /// Files of this many games.
        #[arg(
            long,
            value_name = "N",
            conflicts_with = "by",
            required_unless_present = "by"
        )]
        games: Option<u64>,
        /// One file per value of this tag (games without it go to untagged.pdn).
        #[arg(long, value_name = "TAG")]
        by: Option<String>,
        /// The folder to write the files to (created if missing).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
    },
    /// List every legal move of a position (games of chance: every legal play of the
    /// throws given).
    #[command(after_help = "Examples:
  arbiter moves --game tama
  arbiter moves --game odnocvetnie --format json
  arbiter moves --game thaayam --throws \"1 4 2\"")]
    Moves {
        #[command(flatten)]
        position: PositionArgs,
        /// Games of chance: the throws of the series, e.g. \"1 4 2\".
        #[arg(long, value_name = "THROWS")]
        throws: Option<String>,
        /// Write squares as names or numbers (default: as the game's records do).
        #[arg(long, value_enum)]
        squares: Option<SquaresArg>,
    },
    /// Count the move sequences of 1..N plies from a position (draughts perft convention).
    #[command(after_help = "Examples:
  arbiter perft --game tama --depth 4
  arbiter perft --game odnocvetnie --depth 5 --format json")]
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// The deepest depth to count.
        #[arg(long, value_name = "N")]
        depth: u32,
    },
    /// Draw the position of one game after some plies, as SVG or PNG.
    #[command(after_help = "Examples:
  arbiter show corpus/tama/tama-random.pdn --index 3 --ply 10 -o board.svg
  arbiter show corpus/defects/tama/ambiguous-move.pdn -o problem.png")]
    Show {
        /// A PDN file (plain or .gz), or `-` for standard input.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Which game of the file, counting from 1.
        #[arg(long, default_value_t = 1, value_name = "N")]
        index: u64,
        /// Draw the position after this many plies of the main line (0: the start
        /// position; default: where the main line ends).
        #[arg(long, value_name = "P")]
        ply: Option<u32>,
        #[command(flatten)]
        game: GameChoice,
        /// The picture to write: a name ending in .svg or .png, or `-` for SVG on standard
        /// output.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Generate games by self-play (identical bytes for the same arguments).
    #[command(after_help = "Examples:
  arbiter selfplay --game tama --games 5 --seed 7 -o tama.pdn
  arbiter selfplay --game thaayam --games 3 --players 4 --agent greedy")]
    Selfplay {
        /// The game (see `arbiter games`).
        #[arg(long, value_parser = parse_game, value_name = "GAME")]
        game: &'static GameInfo,
        /// How many games.
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Seed of the random choices and the throws.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games of chance for 2 to 4: number of players (default: a mix).
        #[arg(long, value_parser = clap::value_parser!(u8).range(2..=4))]
        players: Option<u8>,
        /// The agent for every seat (default: a documented mix).
        #[arg(long, value_enum)]
        agent: Option<AgentArg>,
        /// Stop a game after this many plies and record it as unfinished.
        #[arg(long, value_name = "N")]
        max_plies: Option<u32>,
        /// Depth of the search agent.
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        /// The Event tag.
        #[arg(long)]
        event: Option<String>,
        /// Output file, written whole or not at all (default or `-`: standard output).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Write every game, main-line ply and diagnostic as Parquet tables (games.parquet,
    /// plies.parquet, diagnostics.parquet) for DuckDB, Spark or pandas; see docs/export.md.
    #[command(after_help = "Examples:
  arbiter export corpus -o tables
  arbiter export corpus --positions --partition-by variant,year -o tables
  arbiter export corpus/tama --game tama -o tama-tables")]
    Export {
        #[command(flatten)]
        inputs: Inputs,
        /// The table format.
        #[arg(long, value_enum, default_value = "parquet")]
        to: TableFormat,
        /// The folder to write the three files to.
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
        /// Also write the position string after every ply (plies.fen_after); every ply has
        /// its 64-bit position_key either way.
        #[arg(long)]
        positions: bool,
        /// Write each table as Hive-style partition folders (games/variant=international/...)
        /// by these columns: variant, year, or variant,year.
        #[arg(long, value_name = "COLUMNS", value_delimiter = ',', value_parser = ["variant", "year"])]
        partition_by: Vec<String>,
        #[command(flatten)]
        game: GameChoice,
    },
    /// List the games arbiter knows, with their names, GameType numbers and ruleset options.
    #[command(after_help = "Examples:
  arbiter games
  arbiter games --format json")]
    Games {
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
    },
    /// Print a shell completion script.
    #[command(after_help = "Examples:
  arbiter completions bash
  arbiter completions zsh")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Write the manual page (arbiter.1 and one page per subcommand).
    #[command(after_help = "Examples:
  arbiter man -o man
  arbiter man --output man-pages")]
    Man {
        /// The folder to write the pages to.
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
    },
}
