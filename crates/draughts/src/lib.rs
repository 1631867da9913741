//! One draughts engine for the standard variants, in which a variant is data.
//!
//! A [`Variant`] describes a game: board, first mover, how men and kings move and capture,
//! which capture must be chosen, what happens when a man reaches the far row during a capture,
//! notation and result style, and the ruleset options for disputed readings. [`VARIANTS`] lists
//! them all. One generator ([`legal_moves`], [`for_each_chain`]) produces complete moves for
//! every variant; one resolver turns a move token into a legal move or a structured
//! [`Refusal`]; [`Draughts`] implements [`game::Game`].
//!
//! ```
//! use draughts::{Draughts, INTERNATIONAL};
//! let rules = Draughts::new(&INTERNATIONAL);
//! let pos = rules.start();
//! assert_eq!(rules.perft(&pos, 3), 658);
//! ```
#![deny(missing_docs)]

mod color;
mod engine_impl;
pub mod evaluate;
mod game_impl;
mod geometry;
mod movegen;
pub mod patterns;
mod perft_file;
mod position;
mod registry;
mod resolve;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod token_tests;

use game::token;
mod variant;
pub mod weights;

pub use game_impl::{MoveInfo, Names};
pub use perft_file::{
    parse_perft_file, run_perft_dir, split_variant, PerftCase, PerftFileError, PerftRules,
    PerftRulesError,
};
pub use registry::game_info;
pub use resolve::{fit, Fit, Refusal};
pub use token::{
    parse_squares, parse_token, FixedToken, Separator, SquareNames, Token, TokenError,
};

pub use geometry::{Bit, Bits, Dir, Geometry, NONE as NO_SQUARE};
pub use movegen::{
    allowed_chains, capturers, count_quiet, for_each_chain, for_each_chain_free_landing,
    for_each_chain_from, has_capture, has_legal_move, legal_moves, perft, perft_moves, perft_with,
    play, quiet_moves, Move, MAX_CAPTURES,
};
pub use position::{parse_algebraic, Color, FenError, Position};
pub use variant::*;

/// The option every variant has: capture chains written one jump per token are accepted.
pub static SPLIT_CHAINS: RuleOption = RuleOption {
    name: "split-chains",
    help: "a capture chain may be written one jump per token (as playstrategy does)",
    effect: OptionEffect::SplitChains,
};

/// A variant's rules with options chosen: the value that implements [`game::Game`].
#[derive(Debug, Clone, Copy)]
pub struct Draughts {
    /// The variant.
    pub variant: &'static Variant,
    /// The rules in force (the variant's, with options applied).
    pub rules: Rules,
    /// The board.
    pub geometry: &'static Geometry,
    /// The start position, read once.
    start: Position,
    /// The evaluation's weights, looked up once.
    pub(crate) weights: &'static weights::Weights,
    /// The evaluation's pattern weights, where the variant has them.
    pub(crate) patterns: Option<&'static patterns::Patterns>,
    /// Accept capture chains written one jump per token in every record (option
    /// `split-chains`; records from playstrategy are recognised by their `Site` tag anyway).
    pub split_chains: bool,
}

impl Draughts {
    /// The default rules of `variant`.
    pub fn new(variant: &'static Variant) -> Draughts {
        let geometry = Geometry::of(variant);
        let start = Position::from_fen(geometry, variant.start, variant.first)
            .expect("every variant's start position is valid");
        Draughts {
            variant,
            rules: Rules::of(variant),
            geometry,
            start,
            weights: weights::Weights::of(variant),
            patterns: weights::patterns(variant),
            split_chains: false,
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.start
    }

    /// Every legal move, one per resulting position.
    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut v = Vec::new();
        legal_moves(self.geometry, &self.rules, pos, &mut v);
        v
    }

    /// perft: leaf positions `depth` plies ahead.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        perft(self.geometry, &self.rules, pos, depth)
    }

    /// perft under the counting options: `bulk` counts the last ply's moves without playing
    /// them; `keep_duplicates` (`None`: the variant's convention,
    /// [`Variant::perft_merges_duplicates`]) counts identical captures apart.
    pub fn perft_with(
        &self,
        pos: &Position,
        depth: u32,
        bulk: bool,
        keep_duplicates: Option<bool>,
    ) -> u64 {
        let rules = self.perft_rules(keep_duplicates);
        perft_with(self.geometry, &rules, pos, depth, bulk)
    }

    /// The rules with perft's convention for identical captures set (`None`: the variant's).
    pub(crate) fn perft_rules(&self, keep_duplicates: Option<bool>) -> Rules {
        let mut rules = self.rules;
        if let Some(keep) = keep_duplicates {
            rules.perft_merges_duplicates = !keep;
        }
        rules
    }

    /// Plays a legal move.
    pub fn play_move(&self, pos: &mut Position, mv: &Move) {
        play(self.geometry, &self.rules, pos, mv);
    }
}
