//! Keeping an archive of game records: the logic behind `arbiter select`, `split` and the
//! archivist's options of `convert`.
//!
//! - [`Selector`] and [`select`]: stream games once, test them against [`Filter`]s (tags,
//!   players, dates, results, plies, problems found by replaying, positions reached),
//!   optionally drop duplicates (a 16-byte hash per game), and pass every game on exactly as
//!   read, so that the selected and the other games together are the input again.
//! - [`Splitter`]: files of N games, or one file per tag value under a [`safe_name`].
//! - [`strip`], [`fix`], [`plies_json`]: edits of the owned record model for `convert`.
//! - [`Source`] and [`collect`]: the records every reading command (and the Python package)
//!   reads: files plain or gzip, folders, standard input, Ludii trials, texts in memory.
//!
//! Filters on tags, players and dates never replay a game: they run at reading speed.
#![deny(missing_docs)]

mod date;
mod edit;
mod filter;
mod select;
mod source;
mod split;

pub use date::{DateError, PartialDate};
pub use edit::{fix, plies_json, strip, Fixes, ListError, PliesJson, Strip, Stripped};
pub use filter::{Filter, FilterError, Problems, PLAYER_TAGS};
pub use select::{each_game, select, write_game, Input, SelectTally, Selector, Tags, Verdict};
pub use source::{
    collect, is_read_error, read_error, Dash, ReadError, Records, Source, SourceError, Trial,
    Unreadable,
};
pub use split::{safe_name, Namer, SplitBy, SplitFiles, Splitter, MAX_NAME};
