//! The evaluation's weights, per variant: data, not code. `scripts/tune-eval` fits them from
//! games (logistic regression of results on positions) and rewrites the table below; the
//! figures of each fit are in docs/analysis.md.

use std::sync::OnceLock;

use crate::evaluate::FEATURES;
use crate::geometry::Geometry;
use crate::patterns::Patterns;
use crate::variant::{KingRange, Variant};

/// The weights of one variant, in hundredths of a man per unit of each feature (see
/// [`crate::evaluate::FEATURE_NAMES`]), and the constant of its winning-chances curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// One weight per feature.
    pub terms: [i32; FEATURES],
    /// `k` of the winning-chances curve `2 / (1 + exp(-k * score)) - 1`, score in hundredths
    /// of a man.
    pub curve: f64,
}

/// Fitted weights, by variant id (`scripts/tune-eval` writes this table, one row a variant;
/// the fits' figures are in docs/analysis.md).
#[rustfmt::skip]
pub static FITTED: &[(&str, Weights)] = &[
    ("english", Weights { terms: [100, 168, 1, -10, 15, 15, -18, 3], curve: 0.00816 }),
    ("international", Weights { terms: [100, 353, 6, -10, 31, 23, -9, -5], curve: 0.00687 }),
];

/// Weights for a variant no fit covers, by the reach of its kings.
const FLYING: Weights = Weights {
    terms: [100, 300, 3, 6, 5, 12, -4, -4],
    curve: 0.004,
};
const SHORT: Weights = Weights {
    terms: [100, 150, 3, 5, 6, 10, -3, -4],
    curve: 0.004,
};

impl Weights {
    /// The weights of `v`: fitted ones where a fit exists, else the defaults for its kings.
    pub fn of(v: &Variant) -> &'static Weights {
        if let Some((_, w)) = FITTED.iter().find(|(id, _)| *id == v.id) {
            return w;
        }
        match v.king {
            KingRange::Short => &SHORT,
            _ => &FLYING,
        }
    }
}

/// Fitted pattern weights, by variant id: files written by `scripts/tune-patterns` (see
/// [`crate::patterns`]).
static PATTERN_FILES: &[(&str, &[u8])] = &[(
    "international",
    include_bytes!("../weights/international.patterns"),
)];

/// The pattern weights of `v`, where a fit exists (read once).
pub fn patterns(v: &Variant) -> Option<&'static Patterns> {
    static READ: [OnceLock<Option<Patterns>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let i = PATTERN_FILES.iter().position(|(id, _)| *id == v.id)?;
    READ.get(i)?
        .get_or_init(|| Patterns::from_bytes(Geometry::of(v), PATTERN_FILES[i].1))
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_file_fits_its_board() {
        // A file that no longer fits (regions changed, file cut) would silently leave the
        // evaluation without its patterns.
        for (id, _) in PATTERN_FILES {
            let v = Variant::by_id(id).unwrap();
            assert!(patterns(v).is_some(), "{id}: the pattern file does not fit");
        }
        assert!(patterns(Variant::by_id("russian").unwrap()).is_none());
        assert!(PATTERN_FILES.len() <= 4, "one cell a file in `patterns`");
    }
}
