//! The argument types shared by several subcommands: the game and its rules, the inputs, a
//! position, and the small value enums.

use std::io::{self, IsTerminal};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use game::{GameInfo, Options};
use referee::Settings;

use crate::exit::Stop;
use crate::report::Format;

/// Parses a `--game` value: a game's name or one of its aliases.
pub fn parse_game(name: &str) -> Result<&'static GameInfo, UnknownGame> {
    let registry = referee::Catalog::registry(games::games());
    registry.by_name(name).ok_or_else(|| UnknownGame {
        name: name.to_string(),
        known: registry.id_list(),
    })
}

/// A `--game` value that names no game of the registry.
#[derive(Debug)]
pub struct UnknownGame {
    name: String,
    /// The names of the games known, comma-separated.
    known: String,
}

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, known) = (&self.name, &self.known);
        write!(f, "`{name}` is not a game arbiter knows (known: {known})")
    }
}

impl std::error::Error for UnknownGame {}

/// Plies of the report's opening tree unless `stats --tree-plies` says otherwise.
pub const DEFAULT_TREE_PLIES: u32 = 10;

/// Output form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// Canonical PDN.
    Pdn,
    /// One JSON object per game, one game per line.
    Json,
    /// Ludii trials, one per game (games whose registry entry declares a trial converter).
    Trl,
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

/// Inputs: files, folders (searched for *.pdn, *.pdn.gz and *.trl) or `-` for standard input.
#[derive(Args, Debug, Clone)]
pub struct Inputs {
    /// Files, folders (searched for *.pdn, *.pdn.gz and *.trl) or `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl GameChoice {
    /// Replay settings for the records, with `--game` and `--rules` checked first: an
    /// unknown ruleset option is a usage error that lists the valid ones.
    pub fn settings(&self) -> Result<Settings, Stop> {
        if let Some(rules) = &self.rules {
            games::games()
                .registry()
                .check_rules(self.game.or(self.default_game), rules)
                .map_err(|e| Stop::Usage(e.to_string()))?;
        }
        Ok(Settings {
            game: self.game,
            default_game: self.default_game,
            rules: self.rules.clone(),
            ..Settings::default()
        })
    }
}

impl PositionArgs {
    /// The rules of `--game` under `--rules`, for looking at positions.
    pub fn explorer(&self) -> Result<Box<dyn games::Explorer>, Stop> {
        let options = match &self.rules {
            Some(r) => self
                .game
                .parse_options(r)
                .map_err(|e| Stop::Usage(e.to_string()))?,
            None => Options::default(),
        };
        games::games()
            .explorer(self.game, &options)
            .ok_or_else(|| Stop::Usage(format!("{} cannot be explored", self.game.label)))
    }
}

impl ColorArg {
    /// Colour for human output: `auto` means a terminal and no `NO_COLOR` in the
    /// environment.
    pub fn use_color(self, format: Format) -> bool {
        match self {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => {
                format == Format::Human
                    && io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}
