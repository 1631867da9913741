//! The evaluation's patterns: what the men make of small parts of the board together.
//!
//! The board is covered by overlapping regions of 4 × 4 squares (8 dark squares each),
//! placed every second file and rank: 16 regions on a 10x10 board, 9 on an 8x8. Each dark
//! square of a region is empty or holds a man of the side looked at or of the other side
//! (kings count as empty: they are valued as material), so a region is in one of
//! 3^8 = 6561 states; each (region, state) pair has a weight, fitted from self-played games
//! (`scripts/tune-patterns`, docs/analysis.md). A side's pattern score is the sum over the
//! regions of their weights as that side sees the board (turned by half a turn for Black, so
//! both colours share one table); the value adds the mover's score less the other side's.
//! Each weight has an opening and an ending value, mixed by the number of men on the board.
//!
//! The state of a region is read with two bit extractions (`pext`, where the processor has
//! it, found at run time) and a table from the extracted bits to their base-3 digits.

use std::sync::OnceLock;

use crate::geometry::{Bits, Geometry};
use crate::position::{Color, Position};

/// Dark squares of a region.
pub const REGION_SQUARES: usize = 8;

/// States of one region: each square empty, the side's man or the other side's.
pub const STATES: usize = 6561;

/// Weights are stored in this fraction of a hundredth of a man.
pub const SCALE: i32 = 8;

/// The regions of one board.
#[derive(Debug)]
pub struct Regions {
    /// Per region, the squares as White sees them and as Black does (the region turned by
    /// half a turn), each a mask whose bits, from the lowest, are the region's squares in
    /// White's order (for Black: in reverse).
    masks: Vec<[Bits; 2]>,
    /// Per region, the region it becomes when the board is turned by half a turn (the
    /// regions are placed so that one always does).
    turned: Vec<usize>,
    /// `digits[b]`: the base-3 value of the 8 bits of `b` read as digits 0/1, lowest bit
    /// first; `reversed[b]`: the same, highest bit first.
    digits: [u16; 256],
    reversed: [u16; 256],
    /// Men on the board at the start (the opening weights count fully there).
    full: i32,
}

impl Regions {
    /// The regions of `g`, or `None` for a board whose squares are all playable.
    pub fn of(g: &Geometry) -> Option<&'static Regions> {
        static CELLS: [OnceLock<Option<Regions>>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        // The regions are numbered by the squares' names, so a turned board has its own.
        let i = match (g.all_squares, g.width, g.turned) {
            (true, _, _) => return None,
            (false, 8, false) => 0,
            (false, 8, true) => 1,
            (false, 10, _) => 2,
            _ => 3,
        };
        CELLS[i].get_or_init(|| Regions::build(g)).as_ref()
    }

    fn build(g: &Geometry) -> Option<Regions> {
        let (w, h) = (g.width, g.height);
        if w % 2 != 0 || h % 2 != 0 || w < 4 || h < 4 {
            return None;
        }
        let top = Geometry::squares(g.mask).max()?;
        let mut masks = Vec::new();
        for r0 in (0..=h - 4).step_by(2) {
            for f0 in (0..=w - 4).step_by(2) {
                let mut white: Bits = 0;
                for r in r0..r0 + 4 {
                    for f in f0..f0 + 4 {
                        if let Some(b) = g.at(f, r) {
                            white |= 1 << b;
                        }
                    }
                }
                // Half a turn is the bits read backwards (the layout numbers the squares
                // row by row with one unused bit every two rows); checked below.
                let mut black: Bits = 0;
                for b in Geometry::squares(white) {
                    let (f, r) = g.coords(b);
                    let turned = top - b;
                    if g.coords(turned) != (w - 1 - f, h - 1 - r) || g.mask >> turned & 1 == 0 {
                        return None;
                    }
                    black |= 1 << turned;
                }
                if white.count_ones() as usize != REGION_SQUARES {
                    return None;
                }
                masks.push([white, black]);
            }
        }
        let turned = masks
            .iter()
            .map(|m| masks.iter().position(|n| n[0] == m[1]))
            .collect::<Option<Vec<usize>>>()?;
        let mut digits = [0u16; 256];
        let mut reversed = [0u16; 256];
        for b in 0..256usize {
            for i in 0..REGION_SQUARES {
                if b >> i & 1 != 0 {
                    digits[b] += 3u16.pow(i as u32);
                    reversed[b] += 3u16.pow((REGION_SQUARES - 1 - i) as u32);
                }
            }
        }
        let full = (g.count - usize::from(w)) as i32;
        Some(Regions {
            masks,
            turned,
            digits,
            reversed,
            full: full.max(1),
        })
    }

    /// The number of regions.
    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// True when there are none (never, for a board that has regions at all).
    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// Men on the board at the start, where the opening weights count fully.
    pub fn full(&self) -> i32 {
        self.full
    }

    /// The state of every region as `c` sees the board, into `out` (one per region).
    pub fn states(&self, pos: &Position, c: Color, out: &mut [u16]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the processor has just been found to have the instructions.
            return unsafe { self.states_bmi2(pos, c, out) };
        }
        self.states_with(pos, c, out, extract)
    }

    /// [`Regions::states`] with the processor's bit extraction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    fn states_bmi2(&self, pos: &Position, c: Color, out: &mut [u16]) {
        self.states_with(pos, c, out, |x, mask| pext(x, mask))
    }

    #[inline(always)]
    fn states_with(
        &self,
        pos: &Position,
        c: Color,
        out: &mut [u16],
        extract: impl Fn(Bits, Bits) -> usize,
    ) {
        let own = pos.men[c.index()];
        let other = pos.men[c.opponent().index()];
        let view = c.index();
        let table = if c == Color::White {
            &self.digits
        } else {
            &self.reversed
        };
        for (o, m) in out.iter_mut().zip(&self.masks) {
            let mask = m[view];
            *o = table[extract(own, mask) & 255] + 2 * table[extract(other, mask) & 255];
        }
    }
}

/// The bits of `x` under `mask`, packed from the lowest (what `pext` does), by a loop.
fn extract(x: Bits, mask: Bits) -> usize {
    let mut out = 0usize;
    let mut m = mask;
    let mut i = 0;
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x & low != 0 {
            out |= 1 << i;
        }
        i += 1;
        m ^= low;
    }
    out
}

/// A variant's fitted pattern weights: per region and state, an opening and an ending value
/// in 1/[`SCALE`] of a hundredth of a man.
#[derive(Debug)]
pub struct Patterns {
    regions: &'static Regions,
    weights: Vec<[i16; 2]>,
    /// Per region: its mask and where its weights start for White's view and for Black's
    /// (the turned region's).
    reads: Vec<(Bits, usize, usize)>,
    /// The board fits in 64 bits (one extraction a mask).
    small: bool,
}

impl Patterns {
    /// Reads weights stored as little-endian `i16` pairs (opening, ending), region after
    /// region, state after state; `None` when their number does not fit the board's regions.
    pub fn from_bytes(g: &Geometry, bytes: &[u8]) -> Option<Patterns> {
        let regions = Regions::of(g)?;
        if bytes.len() != regions.len() * STATES * 4 {
            return None;
        }
        let weights = bytes
            .chunks_exact(4)
            .map(|c| {
                [
                    i16::from_le_bytes([c[0], c[1]]),
                    i16::from_le_bytes([c[2], c[3]]),
                ]
            })
            .collect();
        let reads = (regions.masks.iter().enumerate())
            .map(|(k, m)| (m[0], k * STATES, regions.turned[k] * STATES))
            .collect();
        Some(Patterns {
            regions,
            weights,
            reads,
            small: g.mask >> 64 == 0,
        })
    }

    /// The regions these weights are for.
    pub fn regions(&self) -> &'static Regions {
        self.regions
    }

    /// The patterns' value of `pos` for `c`, in hundredths of a man.
    pub fn value(&self, pos: &Position, c: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the processor has just been found to have the instructions.
            return unsafe { self.value_bmi2(pos, c) };
        }
        self.value_with(pos, c, extract)
    }

    /// [`Patterns::value`] with the processor's bit extraction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    fn value_bmi2(&self, pos: &Position, c: Color) -> i32 {
        if self.small {
            use std::arch::x86_64::_pext_u64;
            return self.value_with(pos, c, |x, mask| _pext_u64(x as u64, mask as u64) as usize);
        }
        self.value_with(pos, c, |x, mask| pext(x, mask))
    }

    /// The opening and ending sums mixed by the men on the board, for `c`.
    #[inline(always)]
    fn mix(&self, pos: &Position, c: Color, open: i32, end: i32) -> i32 {
        let full = self.regions.full;
        let men = ((pos.men[0] | pos.men[1]).count_ones() as i32).min(full);
        let v = (open * men + end * (full - men)) / (full * SCALE);
        if c == Color::White {
            v
        } else {
            -v
        }
    }

    /// White's regions and Black's are read together: Black's view of the region a region
    /// becomes when turned holds the same squares, so each region's men are extracted once.
    #[inline(always)]
    fn value_with(&self, pos: &Position, c: Color, extract: impl Fn(Bits, Bits) -> usize) -> i32 {
        let r = self.regions;
        let (white, black) = (pos.men[0], pos.men[1]);
        let (mut open, mut end) = (0i32, 0i32);
        for &(mask, plus, minus) in &self.reads {
            let (w, b) = (extract(white, mask) & 255, extract(black, mask) & 255);
            let plus = self.weights[plus + usize::from(r.digits[w] + 2 * r.digits[b])];
            let minus = self.weights[minus + usize::from(r.reversed[b] + 2 * r.reversed[w])];
            open += i32::from(plus[0]) - i32::from(minus[0]);
            end += i32::from(plus[1]) - i32::from(minus[1]);
        }
        self.mix(pos, c, open, end)
    }
}

/// The processor's bit extraction of a board of up to 128 bits (two 64-bit halves).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
#[inline]
fn pext(x: Bits, mask: Bits) -> usize {
    use std::arch::x86_64::_pext_u64;
    let (lo, hi) = (mask as u64, (mask >> 64) as u64);
    let low = _pext_u64(x as u64, lo) as usize;
    if hi == 0 {
        return low;
    }
    low | (_pext_u64((x >> 64) as u64, hi) as usize) << lo.count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use crate::Draughts;

    fn game(id: &str) -> Draughts {
        Draughts::new(Variant::by_id(id).unwrap())
    }

    /// The state of region `k` as `c` sees it, square by square from the coordinates.
    fn by_definition(d: &Draughts, pos: &Position, c: Color, k: usize) -> u16 {
        let g = d.geometry;
        let per_row = usize::from(g.width - 4) / 2 + 1;
        let (f0, r0) = ((k % per_row * 2) as u8, (k / per_row * 2) as u8);
        let mut squares = Vec::new();
        for r in r0..r0 + 4 {
            for f in f0..f0 + 4 {
                if let Some(b) = g.at(f, r) {
                    squares.push(b);
                }
            }
        }
        squares.sort();
        let mut state = 0;
        for (i, &b) in squares.iter().enumerate() {
            // Black sees the square turned by half a turn.
            let seen = if c == Color::White {
                b
            } else {
                let (f, r) = g.coords(b);
                g.at(g.width - 1 - f, g.height - 1 - r).unwrap()
            };
            let digit = if pos.men[c.index()] >> seen & 1 != 0 {
                1
            } else if pos.men[c.opponent().index()] >> seen & 1 != 0 {
                2
            } else {
                0
            };
            state += digit * 3u16.pow(i as u32);
        }
        state
    }

    #[test]
    fn states_match_the_definition_on_played_positions() {
        let mut boards = 0;
        crate::testing::walk_random_games(0x2545_F491_4F6C_DD1D, 4, 60, |d, pos, _| {
            let Some(regions) = Regions::of(d.geometry) else {
                assert!(
                    d.geometry.all_squares,
                    "{}: a dark board has regions",
                    d.variant.id
                );
                return;
            };
            let g = d.geometry;
            assert_eq!(
                regions.len(),
                (usize::from(g.width) / 2 - 1) * (usize::from(g.height) / 2 - 1)
            );
            let mut states = vec![0; regions.len()];
            for c in [Color::White, Color::Black] {
                regions.states(pos, c, &mut states);
                for (k, &s) in states.iter().enumerate() {
                    assert_eq!(s, by_definition(d, pos, c, k), "{} {c:?} {k}", d.variant.id);
                }
            }
            boards += 1;
        });
        assert!(boards > 1000, "{boards}");
    }

    #[test]
    fn the_loop_packs_the_masked_bits_in_order() {
        let d = game("canadian");
        let regions = Regions::of(d.geometry).unwrap();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = Bits::from(seed) << 40 | Bits::from(seed.rotate_left(17));
            for m in &regions.masks {
                let got = extract(x, m[0]);
                let by_bits: usize = Geometry::squares(m[0])
                    .enumerate()
                    .map(|(i, b)| usize::from(x >> b & 1 != 0) << i)
                    .sum();
                assert_eq!(got, by_bits);
            }
        }
    }

    /// Weights drawn from a seeded generator, as a file's bytes.
    fn random_weights(regions: &Regions, seed: u64) -> Vec<u8> {
        let mut seed = seed | 1;
        (0..regions.len() * STATES * 2)
            .flat_map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                ((seed % 2001) as i16 - 1000).to_le_bytes()
            })
            .collect()
    }

    /// The value as the module's documentation defines it, from the regions' states.
    fn value_by_states(p: &Patterns, pos: &Position, c: Color) -> i32 {
        let r = p.regions;
        let mut states = vec![0; r.len()];
        let (mut open, mut end) = (0, 0);
        for (side, sign) in [(c, 1), (c.opponent(), -1)] {
            r.states(pos, side, &mut states);
            for (k, &s) in states.iter().enumerate() {
                let w = p.weights[k * STATES + usize::from(s)];
                open += sign * i32::from(w[0]);
                end += sign * i32::from(w[1]);
            }
        }
        let men = ((pos.men[0] | pos.men[1]).count_ones() as i32).min(r.full);
        // Division rounds towards zero, so either side's view is the other's negated.
        (open * men + end * (r.full - men)) / (r.full * SCALE)
    }

    #[test]
    fn values_read_together_match_the_states_and_are_symmetric() {
        // Random weights, one table a board, made when the board is first met.
        let mut tables: Vec<(*const Geometry, Patterns)> = Vec::new();
        crate::testing::walk_random_games(0x9E37_79B9_7F4A_7C15, 4, 60, |d, pos, _| {
            let Some(regions) = Regions::of(d.geometry) else {
                return;
            };
            let key: *const Geometry = d.geometry;
            if !tables.iter().any(|(g, _)| *g == key) {
                let p = Patterns::from_bytes(d.geometry, &random_weights(regions, 7)).unwrap();
                tables.push((key, p));
            }
            let p = &tables.iter().find(|(g, _)| *g == key).unwrap().1;
            let id = d.variant.id;
            let w = p.value(pos, Color::White);
            assert_eq!(w, -p.value(pos, Color::Black), "{id}");
            assert_eq!(w, value_by_states(p, pos, Color::White), "{id}");
            assert_eq!(w, p.value_with(pos, Color::White, extract), "{id}");
        });
        assert!(tables.len() >= 3, "{}", tables.len());
        let g = Geometry::of(Variant::by_id("international").unwrap());
        assert!(Patterns::from_bytes(g, &[0; 12]).is_none());
    }

    #[test]
    fn the_start_has_the_same_states_for_both_sides() {
        let d = game("international");
        let regions = Regions::of(d.geometry).unwrap();
        let (mut w, mut b) = (vec![0; 16], vec![0; 16]);
        regions.states(&d.start(), Color::White, &mut w);
        regions.states(&d.start(), Color::Black, &mut b);
        assert_eq!(w, b);
        assert!(Regions::of(game("turkish").geometry).is_none());
    }
}
