//! Statistics over corpora of recorded games: mergeable accumulators, charts, board diagrams
//! and a self-contained HTML report.
//!
//! The crate does not know the referee. A caller (the `arbiter` CLI) turns each replayed game
//! into a borrowed [`GameInput`] and feeds it to a [`Stats`] accumulator:
//!
//! ```
//! use stats::{GameInput, GameName, Stats};
//! let mut stats = Stats::default();
//! stats.add(&GameInput {
//!     game: GameName::Tama,
//!     seats: &[0, 1],
//!     recorded: Some(game::Outcome::Draw),
//!     terminal: None,
//!     plies: 0,
//!     facts: &[],
//!     opening: "",
//!     diagnostics: &[],
//! });
//! assert_eq!(stats.games(), 1);
//! ```
//!
//! Accumulators have bounded memory whatever the corpus size and merge associatively and
//! commutatively ([`Stats::merge`]), so a parallel run can fold per chunk and reduce.
//! [`Stats::summary`] derives every number the report shows; [`Stats::write_report`] writes
//! `report.html`, `stats.json` and each chart as SVG and PNG. [`Diagram`] draws a board
//! position for diagnostics, with [`ReportExtras`] carrying such problem examples into the
//! report.
//!
//! All text is drawn with the DejaVu Sans faces compiled into the crate ([`init_fonts`]), so
//! nothing depends on fonts installed on the machine.
#![deny(missing_docs)]

mod accum;
mod chart;
pub mod chi2;
mod diagram;
mod fonts;
mod hist;
mod png;
mod report;
mod summary;
mod tally;

pub use accum::{
    Common, Draughts, DraughtsGame, MaterialAt, OtherGames, Race, Stats, ThaayamGame,
    MATERIAL_PLIES,
};
pub use diagram::{
    numbered_square, Arrow, ArrowStyle, Diagram, Mark, PieceColour, PieceGlyph, SquareStyle,
    THAAYAM_SAFE,
};
pub use fonts::init_fonts;
pub use hist::{Bar, Histogram, HIST_CAP};
pub use report::{
    ChartFile, ProblemExample, ReportExtras, ReportFiles, MAX_EXAMPLES, MAX_EXAMPLES_PER_CODE,
};
pub use summary::{
    CodeRow, CommonSummary, Distribution, DraughtsSummary, GameCount, HeatCell, MaterialPoint,
    OpeningRow, OrderRow, ResultRow, Summary, ThaayamSummary, ThrowRow, ThrowTest,
    ValidationSummary, THROW_PROBABILITIES,
};
pub use tally::{
    Agreement, CodeTally, OpeningTally, Openings, ResultTally, Validation, MAX_CODES,
    OPENINGS_KEEP, OPENINGS_PRUNE_AT, OPENING_MAX_LEN,
};

use game::{Outcome, PlyFacts};
use serde::{Deserialize, Serialize};

/// Which game a record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameName {
    /// Tama (Armenian draughts), two seats: 0 = White, 1 = Black.
    Tama,
    /// Odnocvetnie Shashki, four seats: 0 = South, 1 = West, 2 = North, 3 = East.
    Odnocvetnie,
    /// Thaayam, two to four of the seats South, West, North, East.
    Thaayam,
    /// A game arbiter does not know: only counted, with its diagnostics.
    Other,
}

impl GameName {
    /// The name shown in the report.
    pub fn label(self) -> &'static str {
        match self {
            GameName::Tama => "Tama",
            GameName::Odnocvetnie => "Odnocvetnie Shashki",
            GameName::Thaayam => "Thaayam",
            GameName::Other => "Other games",
        }
    }

    /// Names of the seats, indexed by seat number.
    pub fn seat_names(self) -> &'static [&'static str] {
        match self {
            GameName::Tama => &["White", "Black"],
            GameName::Odnocvetnie | GameName::Thaayam => &["South", "West", "North", "East"],
            GameName::Other => &[],
        }
    }

    /// A short identifier used for element ids and file names (`tama`, `odnocvetnie`, …).
    pub fn slug(self) -> &'static str {
        match self {
            GameName::Tama => "tama",
            GameName::Odnocvetnie => "odnocvetnie",
            GameName::Thaayam => "thaayam",
            GameName::Other => "other",
        }
    }
}

/// One replayed game, as the statistics see it. Everything is borrowed, so building one per
/// game costs nothing beyond what the referee already produced.
#[derive(Debug, Clone, Copy)]
pub struct GameInput<'a> {
    /// The game.
    pub game: GameName,
    /// Seats in play, in turn order starting with the first to move (Tama: `[0, 1]`;
    /// four-seat games: a subset of `0..4`, e.g. `[0, 2]` for a two-player Thaayam game
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
    /// Every diagnostic of the game: its code (e.g. `illegal-move`) and whether it is an
    /// error (`false`: a warning).
    pub diagnostics: &'a [(&'a str, bool)],
}

impl GameInput<'_> {
    /// The result the statistics credit: by rule when the game ended by rule, else as
    /// recorded.
    pub fn result(&self) -> Option<Outcome> {
        self.terminal.or(self.recorded)
    }
}
