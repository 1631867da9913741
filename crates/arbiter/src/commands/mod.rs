//! One module per subcommand, each with its argument struct and its `run`.

pub mod analyse;
pub mod completions;
pub mod convert;
pub mod export;
pub mod games;
pub mod hub;
pub mod man;
pub mod moves;
pub mod perft;
pub mod select;
pub mod selfplay;
pub mod show;
pub mod split;
pub mod stats;
pub mod validate;
pub mod view;
