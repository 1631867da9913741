//! How good a position is, for the search ([`game::Engine::value`]): a weighted sum of
//! features counted with bit boards, in hundredths of a man.
//!
//! Every feature is counted for each side and scored as the side's count less the other's:
//! material (men, kings), the men's advance (tempo), men in the centre, men still guarding
//! their own back row, men close to the crowning row with the way ahead open (runaways), men
//! on the side files, and men that cannot step forward. Where a variant has fitted pattern
//! weights ([`crate::patterns`]), what its men make of each small region of the board is
//! added. The weights are data ([`crate::weights`]), fitted by `scripts/tune-eval` and
//! `scripts/tune-patterns` (see docs/analysis.md).

use std::sync::OnceLock;

use crate::geometry::{Bits, Geometry};
use crate::position::{Color, Position};
use crate::variant::WinRule;
use crate::Draughts;

/// The number of features.
pub const FEATURES: usize = 8;

/// The features' names, in the order of [`features`] and [`Weights::terms`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "man", "king", "advance", "centre", "back", "runaway", "edge", "blocked",
];

/// Square sets of one board the features are counted on.
struct Masks {
    /// The middle of the board.
    centre: Bits,
    /// The first and last files.
    edge: Bits,
    /// Per colour: its own back row.
    back: [Bits; 2],
    /// Per colour: bit `k` of each square's advance (rows from that colour's back row) as a
    /// set, so that the men's total advance is a few population counts.
    advance: [[Bits; ADVANCE_BITS]; 2],
    /// Per colour: the rows a runaway may stand on (two rows or fewer from the crown), each
    /// with every square of the rows ahead of it and the runaway's weight.
    runaway: [[(Bits, Bits, i32); 2]; 2],
}

/// Bits of the largest advance (11 rows on a 12x12 board).
const ADVANCE_BITS: usize = 4;

/// The boards with masks of their own (see [`masks`]).
const BOARDS: usize = 5;

fn masks(g: &Geometry) -> &'static Masks {
    static CELLS: [OnceLock<Masks>; BOARDS] = [
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
    let mut ranks = vec![0 as Bits; usize::from(h)];
    let mut m = Masks {
        centre: 0,
        edge: 0,
        back: [0; 2],
        advance: [[0; ADVANCE_BITS]; 2],
        runaway: [[(0, 0, 0); 2]; 2],
    };
    for b in Geometry::squares(g.mask) {
        let (f, r) = g.coords(b);
        let bit: Bits = 1 << b;
        ranks[usize::from(r)] |= bit;
        if (w / 2 - 2..w / 2 + 2).contains(&f) && (h / 2 - 2..h / 2 + 2).contains(&r) {
            m.centre |= bit;
        }
        if f == 0 || f == w - 1 {
            m.edge |= bit;
        }
        for (c, ahead) in [(0, r), (1, h - 1 - r)] {
            for k in 0..ADVANCE_BITS {
                if ahead >> k & 1 != 0 {
                    m.advance[c][k] |= bit;
                }
            }
            if ahead == 0 {
                m.back[c] |= bit;
            }
        }
    }
    let h = usize::from(h);
    let above = |r: usize| ranks[r + 1..].iter().fold(0, |a, b| a | b);
    let below = |r: usize| ranks[..r].iter().fold(0, |a, b| a | b);
    // Two rows from the crown weighs 1, the row before it 2.
    for (i, weight) in [(0, 1), (1, 2)] {
        let ahead = h - 3 + i;
        m.runaway[0][i] = (ranks[ahead], above(ahead), weight);
        m.runaway[1][i] = (ranks[h - 1 - ahead], below(h - 1 - ahead), weight);
    }
    m
}

/// The features of `c` in `pos`, in the order of [`FEATURE_NAMES`]: population counts of the
/// men against the masks of their board, with the processor's own count where it has one.
pub fn side_features(d: &Draughts, pos: &Position, c: Color) -> [i32; FEATURES] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has just been found to have the instruction.
        return unsafe { side_features_popcnt(d, pos, c) };
    }
    side_features_on(d, pos, c)
}

/// [`side_features`] compiled with the `popcnt` instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn side_features_popcnt(d: &Draughts, pos: &Position, c: Color) -> [i32; FEATURES] {
    side_features_on(d, pos, c)
}

#[inline(always)]
fn side_features_on(d: &Draughts, pos: &Position, c: Color) -> [i32; FEATURES] {
    if d.geometry.mask >> 64 == 0 {
        counts::<true>(d, pos, c)
    } else {
        counts::<false>(d, pos, c)
    }
}

/// The counts of [`side_features`]; `SMALL`: the board fits in 64 bits (half the work).
#[inline(always)]
fn counts<const SMALL: bool>(d: &Draughts, pos: &Position, c: Color) -> [i32; FEATURES] {
    let ones = |b: Bits| {
        if SMALL {
            (b as u64).count_ones() as i32
        } else {
            b.count_ones() as i32
        }
    };
    let m = masks(d.geometry);
    let men = pos.men[c.index()];
    let them = pos.pieces(c.opponent());
    let empty = d.geometry.mask & !pos.occupied();
    let advance = m.advance[c.index()]
        .iter()
        .enumerate()
        .map(|(k, &a)| ones(men & a) << k)
        .sum();
    let runaway = m.runaway[c.index()]
        .iter()
        .filter(|&&(_, ahead, _)| ahead & them == 0)
        .map(|&(row, _, weight)| weight * ones(men & row))
        .sum();
    [
        ones(men),
        ones(pos.kings[c.index()]),
        advance,
        ones(men & m.centre),
        ones(men & m.back[c.index()]),
        runaway,
        ones(men & m.edge),
        ones(men & !free_men(d, empty, c)),
    ]
}

/// The squares from which a man of `c` has an empty square to step forward to.
#[inline(always)]
fn free_men(d: &Draughts, empty: Bits, c: Color) -> Bits {
    let g = d.geometry;
    let mut free: Bits = 0;
    for &dir in crate::movegen::man_steps(&d.rules, c) {
        let off = g.offset(dir);
        free |= if off > 0 {
            empty >> off as u32
        } else {
            empty << (-off) as u32
        };
    }
    free
}

/// The features of the side to move less those of the other side.
pub fn features(d: &Draughts, pos: &Position) -> [i32; FEATURES] {
    let us = side_features(d, pos, pos.side);
    let them = side_features(d, pos, pos.side.opponent());
    std::array::from_fn(|i| us[i] - them[i])
}

/// The value of `pos` for `c`, in hundredths of a man.
pub fn value(d: &Draughts, pos: &Position, c: Color) -> i32 {
    let w = d.weights;
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
    if let Some(p) = d.patterns {
        score += p.value(pos, c);
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

    /// The features as their definitions read, man by man, from each square's coordinates.
    fn by_definition(d: &Draughts, pos: &Position, c: Color) -> [i32; FEATURES] {
        let g = d.geometry;
        let (w, h) = (g.width, g.height);
        let them = pos.pieces(c.opponent());
        let mut f = [0; FEATURES];
        f[1] = pos.kings[c.index()].count_ones() as i32;
        let empty = g.mask & !pos.occupied();
        for b in Geometry::squares(pos.men[c.index()]) {
            let free = crate::movegen::man_steps(&d.rules, c).iter().any(|&dir| {
                g.step(b, dir) != crate::geometry::NONE && empty & 1 << g.step(b, dir) != 0
            });
            f[7] += i32::from(!free);
        }
        for b in Geometry::squares(pos.men[c.index()]) {
            let (file, rank) = g.coords(b);
            let ahead = if c == Color::White {
                rank
            } else {
                h - 1 - rank
            };
            f[0] += 1;
            f[2] += i32::from(ahead);
            f[3] += i32::from(
                (w / 2 - 2..w / 2 + 2).contains(&file) && (h / 2 - 2..h / 2 + 2).contains(&rank),
            );
            f[4] += i32::from(ahead == 0);
            f[6] += i32::from(file == 0 || file == w - 1);
            let open = Geometry::squares(them).all(|t| {
                let r = g.coords(t).1;
                if c == Color::White {
                    r <= rank
                } else {
                    r >= rank
                }
            });
            if (h - 3..h - 1).contains(&ahead) && open {
                f[5] += i32::from(ahead + 4 - h);
            }
        }
        f
    }

    #[test]
    fn the_counts_match_the_definitions_on_played_positions() {
        for id in [
            "international",
            "english",
            "russian",
            "frisian",
            "canadian",
            "turkish",
        ] {
            let d = game(id);
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            let mut moves = Vec::new();
            for _ in 0..20 {
                let mut pos = d.start();
                for _ in 0..80 {
                    for c in [Color::White, Color::Black] {
                        assert_eq!(
                            side_features(&d, &pos, c),
                            by_definition(&d, &pos, c),
                            "{id} {c:?} {}",
                            pos.to_fen(d.geometry, true)
                        );
                    }
                    moves.clear();
                    crate::movegen::legal_moves(d.geometry, &d.rules, &pos, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let mv = moves[(seed % moves.len() as u64) as usize];
                    crate::movegen::play(d.geometry, &d.rules, &mut pos, &mv);
                }
            }
        }
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
