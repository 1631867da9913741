//! Engine analysis of recorded games: every ply of a main line searched, judged and classed,
//! and the figures of each player.
//!
//! The referee replays a record ([`referee::GameReport`] with details and positions); an
//! [`Analyser`] made for the record's game ([`analyser`], through the game registry) searches
//! every position of the main line with [`search::Search`] (or an external engine, an
//! [`External`] such as a Hub engine) and judges each move:
//! - `eval_before`: the position's value for the mover with the best move, `eval_after`: its
//!   value after the move played (both in hundredths of a man, from the mover's view);
//! - the loss (`eval_before - eval_after`, each capped at ±[`classify::LOSS_CAP`], at least 0);
//! - winning chances on the game's curve ([`game::Engine::curve`]) before and after, whose
//!   drop grades the move and gives its accuracy ([`classify`]);
//! - shots ([`shots`]): a forced combination on the board that the move did not start, or one
//!   the move gave the opponent.
//!
//! Everything depends only on the record and the [`Settings`]: under a node or depth limit
//! the output is the same on any machine and with any number of threads (each game is
//! searched on one thread, from an empty table).
#![deny(missing_docs)]

mod annotated;
pub mod classify;
mod figures;
pub mod pipeline;
mod replay;
mod searcher;
pub mod shots;

use game::Engine;
use referee::GameReport;
use search::Limits;
use serde::Serialize;

pub use annotated::{read_annotations, AnnotatedPly};
pub use classify::Class;
pub use figures::Figures;
pub use searcher::{Answer, EngineError, Engines, External, Searcher, Started};

/// How deep the analysis looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The limit of each position's search.
    pub limits: Limits,
    /// The transposition table's size, per game being analysed.
    pub hash_mb: usize,
    /// Nodes the shot finder may search per position.
    pub shot_nodes: u64,
}

impl Settings {
    /// Nodes per position searched by default.
    pub const DEFAULT_NODES: u64 = 20_000;
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            limits: Limits::nodes(Settings::DEFAULT_NODES),
            hash_mb: 16,
            shot_nodes: 20_000,
        }
    }
}

/// What the analysis says of one ply of a main line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlyAnalysis {
    /// 1-based ply of the main line.
    pub ply: u32,
    /// The seat that played it.
    pub seat: u8,
    /// The move played, in the game's notation.
    #[serde(rename = "move")]
    pub played: String,
    /// The position's value for the mover before the move, with the best move (hundredths
    /// of a man; a proven win is [`WON_SCORE`] less the plies to it).
    pub eval_before: i32,
    /// Its value for the mover after the move played.
    pub eval_after: i32,
    /// The engine's first choice (`None` when the mover had no choice to make).
    pub best: Option<String>,
    /// The line the engine expects, its first choice first.
    pub line: Vec<String>,
    /// What the move cost, in hundredths of a man (0 for the best move).
    pub loss: i32,
    /// The move's class, if it has one.
    pub class: Option<Class>,
    /// The move's accuracy, 0 to 100.
    pub accuracy: f64,
    /// The move played is the engine's first choice.
    pub agreed: bool,
    /// For a missed shot its line from the position before the move; for an allowed one the
    /// opponent's line after it; empty otherwise.
    pub shot: Vec<String>,
    /// Depth the search completed.
    pub depth: u32,
    /// Nodes searched for the position before the move.
    pub nodes: u64,
}

/// Why the analysis of a game stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unanalysed {
    /// The first ply not analysed.
    pub ply: u32,
    /// Why.
    pub why: String,
}

/// The analysis of one game.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GameAnalysis {
    /// Every analysed ply of the main line, in order.
    pub plies: Vec<PlyAnalysis>,
    /// Set when the plies from some point on could not be analysed.
    pub unanalysed: Option<Unanalysed>,
}

impl GameAnalysis {
    /// The figures of `seat` in this game (games: 1 if it moved at all).
    pub fn figures(&self, seat: u8) -> Figures {
        let mut f = Figures::default();
        for p in self.plies.iter().filter(|p| p.seat == seat) {
            f.add(p);
        }
        f.games = u32::from(f.moves > 0);
        f
    }
}

/// Scores shown for a proven win: this less the plies to it (and its negation for a loss).
pub const WON_SCORE: i32 = 100_000;

/// A search score as outputs show it: evaluations as they are, proven wins as
/// [`WON_SCORE`] less the plies to the win.
pub fn shown(score: i32) -> i32 {
    if score.abs() >= search::DECIDED {
        score.signum() * (WON_SCORE - (search::WIN - score.abs()))
    } else {
        score
    }
}

/// Analyses the games of one game's rules.
pub trait Analyser: Send {
    /// Analyses a game the referee replayed with [`referee::Settings::details`] and
    /// [`referee::Settings::positions`]. Only an external engine fails (it died, went silent
    /// or answered out of protocol); arbiter's own search always answers.
    fn analyse(&mut self, report: &GameReport) -> Result<GameAnalysis, EngineError>;

    /// True when a movetext token begins a new ply ([`game::Game::starts_ply`]).
    fn starts_ply(&self, token: &[u8]) -> bool;
}

/// The analyser of `game`'s rules.
pub fn analyser<G>(game: G, settings: Settings) -> Box<dyn Analyser>
where
    G: Engine + Send + 'static,
    G::Position: Send,
{
    analyser_with(game, settings, None)
}

/// The analyser of `game`'s rules whose positions `engine` searches (arbiter's own search
/// when `None`). The external engine is asked only for games of two sides without chance.
pub fn analyser_with<G>(
    game: G,
    settings: Settings,
    engine: Option<Box<dyn External>>,
) -> Box<dyn Analyser>
where
    G: Engine + Send + 'static,
    G::Position: Send,
{
    Box::new(replay::Typed {
        game,
        settings,
        remote: engine.map(searcher::Remote),
    })
}

/// The games an analysis can be made of: an analyser for each game of a registry.
pub trait Catalog: Send + Sync {
    /// An analyser of `game` under `options`.
    fn analyser(
        &self,
        game: &'static game::GameInfo,
        options: &game::Options,
        settings: Settings,
    ) -> Option<Box<dyn Analyser>>;

    /// An analyser of `game` under `options` whose positions `engine` searches.
    fn analyser_with(
        &self,
        game: &'static game::GameInfo,
        options: &game::Options,
        settings: Settings,
        engine: Box<dyn External>,
    ) -> Option<Box<dyn Analyser>>;
}
