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
    /// Per colour and rank: every square of the ranks ahead of it, from that colour's side.
    ahead: [Vec<Bits>; 2],
    /// Per square: its rank, and its flags ([`CENTRE`], [`EDGE`], [`BACK`] shifted by the
    /// colour whose back row it is).
    square: [(u8, u8); 128],
}

const CENTRE: u8 = 1;
const EDGE: u8 = 2;
const BACK: u8 = 4;

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
        ahead: [vec![0; usize::from(h)], vec![0; usize::from(h)]],
        square: [(0, 0); 128],
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
        let mut flags = 0;
        flags |= if m.centre & bit != 0 { CENTRE } else { 0 };
        flags |= if m.edge & bit != 0 { EDGE } else { 0 };
        flags |= if r == 0 { BACK } else { 0 };
        flags |= if r == h - 1 { BACK << 1 } else { 0 };
        m.square[usize::from(b)] = (r, flags);
    }
    for r in 0..usize::from(h) {
        m.ahead[0][r] = m.ranks[r + 1..].iter().fold(0, |a, b| a | b);
        m.ahead[1][r] = m.ranks[..r].iter().fold(0, |a, b| a | b);
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
    // Each man in turn (a side has at most a few dozen): cheaper than counting bits per rank
    // where the processor has no population count.
    let ahead_of = &m.ahead[c.index()];
    let white = c == Color::White;
    let (mut count, mut advance, mut runaway) = (0, 0, 0);
    let (mut centre, mut edge, mut back) = (0, 0, 0);
    let mut bits = men;
    while bits != 0 {
        let b = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let (r, flags) = m.square[b & 127];
        let r = usize::from(r);
        let ahead = if white { r } else { h - 1 - r };
        count += 1;
        advance += ahead as i32;
        centre += i32::from(flags & CENTRE != 0);
        edge += i32::from(flags & EDGE != 0);
        back += i32::from(flags & (BACK << c.index()) != 0);
        // Two rows or fewer from the crown, with every row ahead clear of the other side.
        if ahead + 3 >= h && ahead + 1 < h && ahead_of[r] & them == 0 {
            runaway += ahead as i32 + 3 - h as i32 + 1;
        }
    }
    [
        count,
        bit_count(pos.kings[c.index()]),
        advance,
        centre,
        back,
        runaway,
        edge,
        blocked(d, men, empty, c),
    ]
}

/// Set bits, one at a time (few are set).
fn bit_count(mut bits: Bits) -> i32 {
    let mut n = 0;
    while bits != 0 {
        bits &= bits - 1;
        n += 1;
    }
    n
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
    bit_count(men & !free)
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
