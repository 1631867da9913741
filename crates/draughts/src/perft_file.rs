//! The perft file format (`game::perft_file`) for the standard variants' engine.

use crate::{Draughts, Position, Variant};

pub use game::perft_file::{
    parse_perft_file, run_perft_dir, split_variant, PerftCase, PerftFileError, PerftRules,
    PerftRulesError,
};

impl PerftRules for Draughts {
    fn from_variant(variant: &str) -> Result<Draughts, PerftRulesError> {
        let (id, options) = split_variant(variant);
        let v = Variant::by_id(id).ok_or_else(|| PerftRulesError::UnknownVariant(id.into()))?;
        Ok(Draughts::with_options(v, &options)?)
    }

    fn perft_fen(&self, fen: &str, depth: u32) -> Result<u64, PerftRulesError> {
        let pos = if fen.eq_ignore_ascii_case("start") {
            self.start()
        } else {
            Position::from_fen(self.geometry, fen, self.variant.first)
                .map_err(|e| PerftRulesError::Position(e.into()))?
        };
        Ok(self.perft(&pos, depth))
    }
}
