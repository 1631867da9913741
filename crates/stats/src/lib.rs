//! Statistics over corpora of recorded games: mergeable accumulators and the summaries
//! derived from them. The HTML report, its charts, board diagrams and the game viewer are the
//! `report` crate's.
//!
//! The crate does not know the referee. A caller (the `arbiter` CLI) turns each replayed game
//! into a borrowed [`GameInput`] and feeds it to a [`Stats`] accumulator:
//!
//! ```
//! use stats::{GameInput, Stats, Tags};
//! let mut stats = Stats::default();
//! stats.add(&GameInput {
//!     game: None, // a game arbiter could not identify: only its tags are counted
//!     recorded: Some(game::Outcome::Draw),
//!     tags: Tags { event: Some("Club match"), result: Some("1-1"), ..Tags::default() },
//!     ..GameInput::default()
//! });
//! assert_eq!(stats.games(), 1);
//! ```
//!
//! Nothing here names a game. A game is its registry entry ([`game::GameInfo`]), and its
//! [`game::Profile`] picks the sections: every game counts results, seats (games played, wins,
//! win rate), length, captures, diagnostics and tags (players, events, years); a game without
//! chance adds captures per move, promotions, material, a capture heat map over its
//! [`game::BoardShape`] and openings; a game of chance adds its throws (tested against
//! [`game::Chance::probabilities`]), lost throws, twins and wins by turn order. Games arbiter
//! could not identify (`game: None`) get a section of their tags alone.
//!
//! Accumulators have bounded memory whatever the corpus size and merge associatively and
//! commutatively ([`Stats::merge`]), so a parallel run can fold per chunk and reduce.
//! [`Stats::summary`] derives every number a report shows.
#![deny(missing_docs)]

mod accum;
pub mod chi2;
mod hist;
mod squares;
mod summary;
mod tally;
mod tree;

pub use accum::{
    BoardStats, ChanceStats, Common, GameStats, MaterialAt, SeatTally, Stats, UnknownGames,
    MATERIAL_PLIES, MAX_SEATS,
};
pub use hist::{Bar, Histogram, HIST_CAP};
pub use squares::{dark_square_number, is_dark, numbered_dark_square, square_name};
pub use summary::{
    tree_min_games, BoardSummary, ChanceSummary, CodeRow, CommonSummary, Counters, Distribution,
    GameCount, GameSummary, HeatCell, MaterialPoint, NameRow, OpeningRow, OrderRow, ResultRow,
    SeatRow, Summary, TagSummary, ThrowRow, ThrowTest, UnknownSummary, ValidationSummary,
    TREE_BRANCHES,
};
pub use tally::{
    Agreement, CodeTally, Counted, KeyMap, NameTally, Names, OpeningTally, Openings, ResultTally,
    Table, TagResult, TagStats, Validation, MAX_CODES, NAMES_KEEP, NAMES_PRUNE_AT, OPENINGS_KEEP,
    OPENINGS_PRUNE_AT, OPENING_MAX_LEN,
};
pub use tree::{
    OpeningLine, OpeningTree, Score, TreeMove, TreeSummary, TREE_KEEP, TREE_MAX_PLIES,
    TREE_MAX_SHOWN, TREE_MOVE_LEN, TREE_PRUNE_AT,
};

use game::{GameInfo, Outcome, PlyFacts};

/// The tags of a record the statistics read, as written (`None`: the tag is absent).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tags<'a> {
    /// `Event`.
    pub event: Option<&'a str>,
    /// `Date` (`2024.05.17`; the year is read from its first four characters).
    pub date: Option<&'a str>,
    /// `White`: the player of the seat named White (seat 0 in a game arbiter does not know).
    pub white: Option<&'a str>,
    /// `Black`: the player of the seat named Black (seat 1 in a game arbiter does not know).
    pub black: Option<&'a str>,
    /// `Result` (`1-0`, `0-1`, `2-0`, `1/2-1/2`, `1-1`, `*` …), read as White's score, then
    /// Black's.
    pub result: Option<&'a str>,
}

/// One replayed game, as the statistics see it. Everything is borrowed, so building one per
/// game costs nothing beyond what the referee already produced.
#[derive(Debug, Clone, Copy, Default)]
pub struct GameInput<'a> {
    /// The game, from the registry; `None` for a game arbiter could not identify (only its
    /// diagnostics, length and tags are counted).
    pub game: Option<&'static GameInfo>,
    /// Seats in play, in turn order starting with the first to move (two-sided games:
    /// `[0, 1]`; four-seat games: a subset of `0..4`, e.g. `[0, 2]` for a two-player game
    /// South–North).
    pub seats: &'a [u8],
    /// The result as recorded (result token, else `Result` tag).
    pub recorded: Option<Outcome>,
    /// The result by rule, if the game ended by rule.
    pub terminal: Option<Outcome>,
    /// Plies in the main line.
    pub plies: u32,
    /// Facts per ply of the main line; shorter than `plies` when the replay stopped at an
    /// error.
    pub facts: &'a [PlyFacts],
    /// The first plies (up to four) as written, separated by spaces.
    pub opening: &'a str,
    /// The first plies as position keys and moves, for the opening tree (games without
    /// chance; an empty line leaves the game out of the tree).
    pub line: OpeningLine<'a>,
    /// Every diagnostic of the game: its code (e.g. `illegal-move`) and whether it is an
    /// error (`false`: a warning).
    pub diagnostics: &'a [(&'a str, bool)],
    /// The tags the statistics read.
    pub tags: Tags<'a>,
}

impl GameInput<'_> {
    /// The result the statistics credit: by rule when the game ended by rule, else as
    /// recorded.
    pub fn result(&self) -> Option<Outcome> {
        self.terminal.or(self.recorded)
    }
}
