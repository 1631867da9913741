//! The perft file format (`game::perft_file`) for the standard variants' engine.
//!
//! Identical captures (the same pieces taken from the same start to the same end along
//! different routes) are counted as the variant's published tables count them (apart in
//! English, once elsewhere) unless the line's variant field says which convention its count
//! is in: `russian+duplicates=keep` (apart, as `arbiter perft --duplicates keep`) or
//! `english+duplicates=drop` (once). The marker may stand with the variant's own options
//! (`pool+promotion-ends+duplicates=keep`).

use crate::{Draughts, Position, Variant};

pub use game::perft_file::{
    parse_perft_file, run_perft_dir, split_variant, PerftCase, PerftFileError, PerftRules,
    PerftRulesError,
};

/// The convention marker of a perft line's variant field: `Some(true)` for
/// `duplicates=keep`, `Some(false)` for `duplicates=drop`, `None` for any other option.
fn duplicates_marker(option: &str) -> Option<bool> {
    match option {
        "duplicates=keep" => Some(true),
        "duplicates=drop" => Some(false),
        _ => None,
    }
}

impl PerftRules for Draughts {
    fn from_variant(variant: &str) -> Result<Draughts, PerftRulesError> {
        let (id, options) = split_variant(variant);
        let v = Variant::by_id(id).ok_or_else(|| PerftRulesError::UnknownVariant(id.into()))?;
        let mut keep = None;
        let rules: Vec<&str> = options
            .split(',')
            .filter(|o| !o.is_empty())
            .filter(|o| match duplicates_marker(o) {
                Some(k) => {
                    keep = Some(k);
                    false
                }
                None => true,
            })
            .collect();
        let mut d = Draughts::with_options(v, &rules.join(","))?;
        d.rules = d.perft_rules(keep);
        Ok(d)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_duplicates_marker_sets_the_convention_and_leaves_the_options() {
        let d = Draughts::from_variant("russian").unwrap();
        assert!(d.rules.perft_merges_duplicates);
        let d = Draughts::from_variant("russian+duplicates=keep").unwrap();
        assert!(!d.rules.perft_merges_duplicates);
        let d = Draughts::from_variant("english").unwrap();
        assert!(!d.rules.perft_merges_duplicates);
        let d = Draughts::from_variant("english+duplicates=drop").unwrap();
        assert!(d.rules.perft_merges_duplicates);
        // With an option of the variant, on either side of the marker.
        let plain = Draughts::with_options(&crate::POOL, "promotion-ends").unwrap();
        for field in [
            "pool+promotion-ends+duplicates=keep",
            "pool+duplicates=keep+promotion-ends",
        ] {
            let d = Draughts::from_variant(field).unwrap();
            assert!(!d.rules.perft_merges_duplicates, "{field}");
            assert_eq!(d.rules.promotion, plain.rules.promotion, "{field}");
        }
        assert!(Draughts::from_variant("russian+duplicates=maybe").is_err());
    }
}
