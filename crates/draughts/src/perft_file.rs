//! The perft file format (`game::perft_file`) for the standard variants' engine.

use crate::{Draughts, Position, Variant};

pub use game::perft_file::{parse_perft_file, run_perft_dir, split_variant, PerftCase, PerftRules};

impl PerftRules for Draughts {
    fn from_variant(variant: &str) -> Result<Draughts, String> {
        let (id, options) = split_variant(variant);
        let v = Variant::by_id(id).ok_or_else(|| format!("unknown variant `{id}`"))?;
        Draughts::with_options(v, &options).map_err(|o| format!("unknown option `{o}`"))
    }

    fn perft_fen(&self, fen: &str, depth: u32) -> Result<u64, String> {
        let pos = if fen.eq_ignore_ascii_case("start") {
            self.start()
        } else {
            Position::from_fen(self.geometry, fen, self.variant.first).map_err(|e| e.to_string())?
        };
        Ok(self.perft(&pos, depth))
    }
}
