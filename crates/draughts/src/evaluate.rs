//! How good a position is, for the search ([`game::Engine::value`]): a weighted sum of
//! features counted with bit boards, in hundredths of a man.
//!
//! Every feature is counted for each side and scored as the side's count less the other's:
//! material (men, kings), the men's advance (tempo), men in the centre, men still guarding
//! their own back row, men close to the crowning row with the way ahead open (runaways), men
//! on the side files, and men that cannot step forward. The weights are data
//! ([`crate::weights`]), fitted from games by `scripts/tune-eval` (see docs/analysis.md).

use std::sync::OnceLock;

use crate::geometry::{Bits, Geometry};
use crate::position::{Color, Position};
use crate::variant::WinRule;
use crate::weights::Weights;
use crate::Draughts;

/// The number of features.
pub const FEATURES: usize = 8;

/// The features' names, in the order of [`features`] and [`Weights::terms`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "man", "king", "advance", "centre", "back", "runaway", "edge", "blocked",
];

/// Square sets of one board the features are counted on.
struct Masks {
    /// Squares by rank (0 = White's back row).
    ranks: Vec<Bits>,
    /// The middle of the board.
    centre: Bits,
    /// The first and last files.
    edge: Bits,
}

fn masks(g: &Geometry) -> &'static Masks {
    static CELLS: [OnceLock<Masks>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let i = match (g.width, g.turned, g.all_squares) {
        (_, _, true) => 0,
        (8, false, _) => 1,
        (8, true, _) => 2,
        (10, _, _) => 3,
        _ => 4,
    };
    CELLS[i].get_or_init(|| build_masks(g))
}

fn build_masks(g: &Geometry) -> Masks {
    let (w, h) = (g.width, g.height);
    let mut m = Masks {
        ranks: vec![0; usize::from(h)],
        centre: 0,
        edge: 0,
    };
    for b in Geometry::squares(g.mask) {
        let (f, r) = g.coords(b);
        let bit: Bits = 1 << b;
        m.ranks[usize::from(r)] |= bit;
        if (w / 2 - 2..w / 2 + 2).contains(&f) && (h / 2 - 2..h / 2 + 2).contains(&r) {
            m.centre |= bit;
        }
        if f == 0 || f == w - 1 {
            m.edge |= bit;
        }
    }
    m
}

/// The features of `c` in `pos`, in the order of [`FEATURE_NAMES`].
pub fn side_features(d: &Draughts, pos: &Position, c: Color) -> [i32; FEATURES] {
    let g = d.geometry;
    let m = masks(g);
    let h = usize::from(g.height);
    let men = pos.men[c.index()];
    let them = pos.pieces(c.opponent());
    let empty = g.mask & !pos.occupied();
    // Rank counted from the side's own back row.
    let rank = |r: usize| if c == Color::White { r } else { h - 1 - r };
    let mut advance = 0;
    let mut runaway = 0;
    for (r, &row) in m.ranks.iter().enumerate() {
        let here = (men & row).count_ones() as i32;
        let ahead = rank(r);
        advance += here * ahead as i32;
        // Two rows or fewer from the crown, with both rows ahead clear of the other side.
        if here > 0 && ahead + 3 >= h && ahead + 1 < h {
            let rows_ahead: Bits = (r + 1..h)
                .chain(0..r)
                .filter(|&q| rank(q) > ahead)
                .map(|q| m.ranks[q])
                .fold(0, |a, b| a | b);
            if rows_ahead & them == 0 {
                runaway += here * (ahead as i32 + 3 - h as i32 + 1);
            }
        }
    }
    let back = m.ranks[if c == Color::White { 0 } else { h - 1 }];
    [
        men.count_ones() as i32,
        pos.kings[c.index()].count_ones() as i32,
        advance,
        (men & m.centre).count_ones() as i32,
        (men & back).count_ones() as i32,
        runaway,
        (men & m.edge).count_ones() as i32,
        blocked(d, men, empty, c),
    ]
}

/// Men of `c` with no empty square to step forward to.
fn blocked(d: &Draughts, men: Bits, empty: Bits, c: Color) -> i32 {
    let g = d.geometry;
    let mut free: Bits = 0;
    for &dir in crate::movegen::man_steps(&d.rules, c) {
        let off = g.offset(dir);
        let to = if off > 0 {
            empty >> off as u32
        } else {
            empty << (-off) as u32
        };
        free |= to;
    }
    (men & !free).count_ones() as i32
}

/// The features of the side to move less those of the other side.
pub fn features(d: &Draughts, pos: &Position) -> [i32; FEATURES] {
    let us = side_features(d, pos, pos.side);
    let them = side_features(d, pos, pos.side.opponent());
    std::array::from_fn(|i| us[i] - them[i])
}

/// The value of `pos` for `c`, in hundredths of a man.
pub fn value(d: &Draughts, pos: &Position, c: Color) -> i32 {
    let w = Weights::of(d.variant);
    let us = side_features(d, pos, c);
    let them = side_features(d, pos, c.opponent());
    let mut score: i32 = (0..FEATURES).map(|i| w.terms[i] * (us[i] - them[i])).sum();
    // The back row guards only while the other side still has men to crown.
    if pos.men[c.opponent().index()] == 0 {
        score -= w.terms[4] * us[4];
    }
    if pos.men[c.index()] == 0 {
        score += w.terms[4] * them[4];
    }
    match d.variant.win {
        // Losing every piece wins: material is a burden.
        WinRule::NoMoveWins => -score,
        _ => score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn game(id: &str) -> Draughts {
        Draughts::new(Variant::by_id(id).unwrap())
    }

    #[test]
    fn the_start_is_balanced_and_values_are_symmetric() {
        for id in [
            "international",
            "english",
            "russian",
            "italian",
            "turkish",
            "frisian",
        ] {
            let d = game(id);
            let pos = d.start();
            let w = value(&d, &pos, Color::White);
            assert_eq!(w, -value(&d, &pos, Color::Black), "{id}");
            assert_eq!(w, 0, "{id}: the start is symmetric");
        }
    }

    #[test]
    fn a_man_more_is_worth_about_a_man_and_a_king_more() {
        let d = game("international");
        let even = Position::from_fen(d.geometry, "W:W46,47:B4,5", Color::White).unwrap();
        let up = Position::from_fen(d.geometry, "W:W46,47,48:B4,5", Color::White).unwrap();
        let king = Position::from_fen(d.geometry, "W:W46,47,K48:B4,5", Color::White).unwrap();
        let gain = value(&d, &up, Color::White) - value(&d, &even, Color::White);
        assert!((70..=160).contains(&gain), "{gain}");
        assert!(value(&d, &king, Color::White) > value(&d, &up, Color::White));
    }

    #[test]
    fn advanced_open_men_count_as_runaways() {
        let d = game("international");
        let f = side_features(
            &d,
            &Position::from_fen(d.geometry, "W:W7:B45", Color::White).unwrap(),
            Color::White,
        );
        assert!(f[5] > 0, "{f:?}");
        let blocked = side_features(
            &d,
            &Position::from_fen(d.geometry, "W:W7:B2", Color::White).unwrap(),
            Color::White,
        );
        assert_eq!(blocked[5], 0, "{blocked:?}");
    }
}
