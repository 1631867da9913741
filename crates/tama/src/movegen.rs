//! Move generation: quiet moves, complete capture chains, the majority rule, perft.
//!
//! Generation keeps two steps apart on purpose: [`for_each_chain`] enumerates every complete
//! capture chain of the mover's pieces (rules 5, 7–10, 12), and the majority rule (rule 11) is
//! applied afterwards by the callers. The resolver uses the unfiltered chains to tell a legal
//! but non-maximal capture from an illegal move.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::square::{Dir, Side, Square};
use crate::Tama;

pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
pub(crate) const FILE_B: u64 = FILE_A << 1;
pub(crate) const FILE_G: u64 = FILE_A << 6;
pub(crate) const FILE_H: u64 = FILE_A << 7;

const fn ray(sq: usize, df: i32, dr: i32) -> u64 {
    let mut f = (sq % 8) as i32 + df;
    let mut r = (sq / 8) as i32 + dr;
    let mut bb = 0u64;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        bb |= 1u64 << (r * 8 + f);
        f += df;
        r += dr;
    }
    bb
}

const fn build_rays() -> [[u64; 64]; 8] {
    let deltas: [(i32, i32); 8] = [
        (0, 1),
        (1, 0),
        (0, -1),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, -1),
        (-1, 1),
    ];
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            t[d][s] = ray(s, deltas[d].0, deltas[d].1);
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[dir][sq]`: the squares from `sq` (exclusive) to the edge in `dir` (indexed as
/// [`Dir`]).
pub(crate) static RAYS: [[u64; 64]; 8] = build_rays();

const fn build_steps() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut df = -1;
            while df <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    t[s] |= 1u64 << (nr * 8 + nf);
                }
                df += 1;
            }
            dr += 1;
        }
        s += 1;
    }
    t
}

/// `STEPS[sq]`: the (up to eight) neighbours of `sq`, where a short-range king (the `schmidt`
/// option) steps.
pub(crate) static STEPS: [u64; 64] = build_steps();

/// True when the direction runs towards higher square indices.
#[inline]
const fn positive(d: usize) -> bool {
    // N, E, NE, NW
    matches!(d, 0 | 1 | 4 | 7)
}

/// The first set square of `bb` seen from the ray's origin in direction `d`.
#[inline]
fn first_on_ray(bb: u64, d: usize) -> usize {
    if positive(d) {
        bb.trailing_zeros() as usize
    } else {
        63 - bb.leading_zeros() as usize
    }
}

/// Squares a slider on `sq` reaches in direction `d` with blockers `occ`, the first blocker
/// included.
#[inline]
fn ray_attacks(sq: usize, d: usize, occ: u64) -> u64 {
    let r = RAYS[d][sq];
    let b = r & occ;
    if b == 0 {
        r
    } else {
        r ^ RAYS[d][first_on_ray(b, d)]
    }
}

/// Empty squares a king on `sq` slides to (rule 6), or steps to when kings are short-range.
#[inline]
pub(crate) fn king_quiet_targets(sq: usize, occ: u64, short: bool) -> u64 {
    if short {
        return STEPS[sq] & !occ;
    }
    let mut t = 0;
    for d in 0..8 {
        t |= ray_attacks(sq, d, occ);
    }
    t & !occ
}

/// For a king on `sq` jumping in orthogonal direction `d`: the captured square and the
/// bitboard of landing squares, if the jump exists.
#[inline]
pub(crate) fn king_jump(sq: usize, d: usize, occ: u64, enemy: u64) -> Option<(usize, u64)> {
    let r = RAYS[d][sq];
    let b = r & occ;
    if b == 0 {
        return None;
    }
    let victim = first_on_ray(b, d);
    if enemy & (1u64 << victim) == 0 {
        return None;
    }
    let landings = ray_attacks(victim, d, occ) & !occ;
    if landings == 0 {
        None
    } else {
        Some((victim, landings))
    }
}

/// For a short-range king (the `schmidt` option) on `sq` jumping in orthogonal direction
/// `d`: the captured square and the landing square as a bitboard, if the jump exists.
#[inline]
fn short_king_jump(sq: usize, d: usize, occ: u64, enemy: u64) -> Option<(usize, u64)> {
    let (mid, land) = short_jump(sq, d)?;
    (enemy & (1u64 << mid) != 0 && occ & (1u64 << land) == 0).then_some((mid, 1u64 << land))
}

/// Capture directions of a man of `side`: forward and both sideways (rule 5).
#[inline]
const fn man_capture_dirs(side: Side) -> [usize; 3] {
    match side {
        Side::White => [Dir::N as usize, Dir::E as usize, Dir::W as usize],
        Side::Black => [Dir::S as usize, Dir::E as usize, Dir::W as usize],
    }
}

const OPPOSITE: [usize; 8] = [2, 3, 0, 1, 6, 7, 4, 5];
const NO_DIR: usize = 8;

/// The square two steps from `sq` in orthogonal `d` and the one in between, if on the board.
#[inline]
fn short_jump(sq: usize, d: usize) -> Option<(usize, usize)> {
    let (f, r) = ((sq & 7) as i32, (sq >> 3) as i32);
    let (df, dr) = match d {
        0 => (0, 1),
        1 => (1, 0),
        2 => (0, -1),
        _ => (-1, 0),
    };
    let (lf, lr) = (f + 2 * df, r + 2 * dr);
    if (0..8).contains(&lf) && (0..8).contains(&lr) {
        Some((((r + dr) * 8 + f + df) as usize, (lr * 8 + lf) as usize))
    } else {
        None
    }
}

/// Pieces of the side to move that can make at least one jump now (flying kings).
#[inline]
pub fn capturers(pos: &Position) -> u64 {
    capturers_with(pos, false)
}

/// [`capturers`] with short-range kings when `short` is set (the `schmidt` option).
#[inline]
pub(crate) fn capturers_with(pos: &Position, short: bool) -> u64 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let enemy = pos.pieces(them);
    let empty = !pos.occupied();
    let men = pos.men(us);
    let mut c = match us {
        Side::White => men & (enemy >> 8) & (empty >> 16),
        Side::Black => men & (enemy << 8) & (empty << 16),
    };
    c |= men & !(FILE_G | FILE_H) & (enemy >> 1) & (empty >> 2);
    c |= men & !(FILE_A | FILE_B) & (enemy << 1) & (empty << 2);
    let occ = pos.occupied();
    let mut kings = pos.kings(us);
    while kings != 0 {
        let sq = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        for d in 0..4 {
            let jump = if short {
                short_king_jump(sq, d, occ, enemy)
            } else {
                king_jump(sq, d, occ, enemy)
            };
            if jump.is_some() {
                c |= 1u64 << sq;
                break;
            }
        }
    }
    c
}

/// True when the side to move has a capture (and so must capture, rule 8).
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    capturers(pos) != 0
}

/// [`has_capture`] under `rules`.
#[inline]
pub(crate) fn has_capture_with(pos: &Position, rules: Tama) -> bool {
    capturers_with(pos, rules.schmidt) != 0
}

struct ChainGen<'f, F: FnMut(&Move)> {
    ludii: bool,
    short_kings: bool,
    side: Side,
    far: u64,
    enemy: u64,
    occ: u64,
    mv: Move,
    f: &'f mut F,
}

impl<F: FnMut(&Move)> ChainGen<'_, F> {
    fn dfs(&mut self, sq: usize, king: bool, last: usize, promoted: bool) {
        let mut extended = false;
        let back = if last == NO_DIR {
            NO_DIR
        } else {
            OPPOSITE[last]
        };
        if king {
            for d in 0..4 {
                if d == back {
                    continue;
                }
                let jump = if self.short_kings {
                    short_king_jump(sq, d, self.occ, self.enemy)
                } else {
                    king_jump(sq, d, self.occ, self.enemy)
                };
                if let Some((victim, mut landings)) = jump {
                    extended = true;
                    let vbit = 1u64 << victim;
                    self.enemy &= !vbit;
                    self.occ &= !vbit;
                    while landings != 0 {
                        let l = landings.trailing_zeros() as usize;
                        landings &= landings - 1;
                        self.mv.push_jump(
                            Square::from_index_unchecked(victim as u8),
                            Square::from_index_unchecked(l as u8),
                        );
                        self.dfs(l, true, d, promoted);
                        self.mv.pop_jump();
                    }
                    self.enemy |= vbit;
                    self.occ |= vbit;
                }
            }
        } else {
            for d in man_capture_dirs(self.side) {
                if d == back {
                    continue;
                }
                let Some((mid, land)) = short_jump(sq, d) else {
                    continue;
                };
                let (mbit, lbit) = (1u64 << mid, 1u64 << land);
                if self.enemy & mbit == 0 || self.occ & lbit != 0 {
                    continue;
                }
                extended = true;
                self.enemy &= !mbit;
                self.occ &= !mbit;
                self.mv.push_jump(
                    Square::from_index_unchecked(mid as u8),
                    Square::from_index_unchecked(land as u8),
                );
                let reached = self.far & lbit != 0;
                if reached && !self.ludii {
                    // Rule 12: crowned at once, goes on as a king.
                    self.dfs(land, true, d, true);
                } else {
                    // `ludii`: goes on as a man, crowned when the chain ends.
                    self.dfs(land, false, d, promoted || reached);
                }
                self.mv.pop_jump();
                self.enemy |= mbit;
                self.occ |= mbit;
            }
        }
        if !extended && self.mv.capture_count() > 0 {
            self.mv.set_promotion(promoted);
            (self.f)(&self.mv);
        }
    }
}

/// Calls `f` for every complete capture chain of the piece on `from` (which must belong to the
/// side to move). Every distinct landing sequence is reported; nothing is filtered by the
/// majority rule.
pub fn for_each_chain_from(pos: &Position, ludii: bool, from: Square, f: &mut impl FnMut(&Move)) {
    chains_from(pos, Tama::DEFAULT.with_ludii(ludii), from, f);
}

/// [`for_each_chain_from`] under `rules`.
pub(crate) fn chains_from(pos: &Position, rules: Tama, from: Square, f: &mut impl FnMut(&Move)) {
    let us = pos.side_to_move();
    let b = from.bit();
    let king = if pos.kings(us) & b != 0 {
        true
    } else if pos.men(us) & b != 0 {
        false
    } else {
        return;
    };
    let mut g = ChainGen {
        ludii: rules.ludii,
        short_kings: rules.schmidt,
        side: us,
        far: us.far_rank_mask(),
        enemy: pos.pieces(us.opponent()),
        occ: pos.occupied() & !b,
        mv: Move::chain_start(from),
        f,
    };
    g.dfs(from.index() as usize, king, NO_DIR, false);
}

/// Calls `f` for every complete capture chain of every piece of the side to move (rules 5,
/// 7–10, 12), before the majority rule.
pub fn for_each_chain(pos: &Position, ludii: bool, f: &mut impl FnMut(&Move)) {
    chains(pos, Tama::DEFAULT.with_ludii(ludii), f);
}

/// [`for_each_chain`] under `rules`.
pub(crate) fn chains(pos: &Position, rules: Tama, f: &mut impl FnMut(&Move)) {
    let mut c = capturers_with(pos, rules.schmidt);
    while c != 0 {
        let sq = c.trailing_zeros() as u8;
        c &= c - 1;
        chains_from(pos, rules, Square::from_index_unchecked(sq), f);
    }
}

/// Appends every complete capture chain (all landing-square variants, no majority filter).
pub fn all_capture_chains(pos: &Position, ludii: bool, list: &mut MoveList) {
    all_chains_with(pos, Tama::DEFAULT.with_ludii(ludii), list);
}

/// [`all_capture_chains`] under `rules`.
pub(crate) fn all_chains_with(pos: &Position, rules: Tama, list: &mut MoveList) {
    list.clear();
    chains(pos, rules, &mut |m| list.push(*m));
}

/// The number of pieces the best capture chain takes (0 when no capture exists).
pub fn max_capture(pos: &Position, ludii: bool) -> usize {
    max_capture_with(pos, Tama::DEFAULT.with_ludii(ludii))
}

/// [`max_capture`] under `rules`.
pub(crate) fn max_capture_with(pos: &Position, rules: Tama) -> usize {
    let mut best = 0;
    chains(pos, rules, &mut |m| best = best.max(m.capture_count()));
    best
}

fn push_men_targets(list: &mut MoveList, targets: u64, shift: i32, far: u64) {
    let mut t = targets;
    while t != 0 {
        let to = t.trailing_zeros() as i32;
        t &= t - 1;
        let from = to - shift;
        list.push(Move::quiet(
            Square::from_index_unchecked(from as u8),
            Square::from_index_unchecked(to as u8),
            far & (1u64 << to) != 0,
        ));
    }
}

/// The five quiet-move target sets of the side's men as (targets, index shift from→to).
#[inline]
fn men_targets(side: Side, men: u64, empty: u64) -> [(u64, i32); 5] {
    let e = ((men & !FILE_H) << 1) & empty;
    let w = ((men & !FILE_A) >> 1) & empty;
    match side {
        Side::White => [
            ((men << 8) & empty, 8),
            ((men & !FILE_H) << 9 & empty, 9),
            ((men & !FILE_A) << 7 & empty, 7),
            (e, 1),
            (w, -1),
        ],
        Side::Black => [
            ((men >> 8) & empty, -8),
            ((men & !FILE_H) >> 7 & empty, -7),
            ((men & !FILE_A) >> 9 & empty, -9),
            (e, 1),
            (w, -1),
        ],
    }
}

/// Appends every quiet move of the side to move (rules 4, 6), whether or not a capture is
/// compulsory.
pub fn quiet_moves(pos: &Position, list: &mut MoveList) {
    quiet_moves_with(pos, false, list);
}

/// [`quiet_moves`], with short-range kings when `short` is set.
pub(crate) fn quiet_moves_with(pos: &Position, short: bool, list: &mut MoveList) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let far = us.far_rank_mask();
    for (t, s) in men_targets(us, pos.men(us), !occ) {
        push_men_targets(list, t, s, far);
    }
    let mut kings = pos.kings(us);
    while kings != 0 {
        let sq = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        let mut t = king_quiet_targets(sq, occ, short);
        while t != 0 {
            let to = t.trailing_zeros() as u8;
            t &= t - 1;
            list.push(Move::quiet(
                Square::from_index_unchecked(sq as u8),
                Square::from_index_unchecked(to),
                false,
            ));
        }
    }
}

/// Number of quiet moves of the side to move.
#[inline]
pub fn count_quiet(pos: &Position) -> u64 {
    count_quiet_with(pos, false)
}

/// [`count_quiet`], with short-range kings when `short` is set.
#[inline]
pub(crate) fn count_quiet_with(pos: &Position, short: bool) -> u64 {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let mut n = 0u64;
    for (t, _) in men_targets(us, pos.men(us), !occ) {
        n += u64::from(t.count_ones());
    }
    let mut kings = pos.kings(us);
    while kings != 0 {
        let sq = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        n += u64::from(king_quiet_targets(sq, occ, short).count_ones());
    }
    n
}

/// The quiet move `from`–`to` of the side to move, if it is one by rules 4 and 6 (ignoring
/// whether a capture is compulsory).
#[inline]
pub fn quiet_move(pos: &Position, from: Square, to: Square) -> Option<Move> {
    quiet_move_with(pos, false, from, to)
}

/// [`quiet_move`], with short-range kings when `short` is set.
#[inline]
pub(crate) fn quiet_move_with(
    pos: &Position,
    short: bool,
    from: Square,
    to: Square,
) -> Option<Move> {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    if occ & to.bit() != 0 {
        return None;
    }
    if pos.men(us) & from.bit() != 0 {
        let df = to.file() - from.file();
        let dr = (to.rank() - from.rank())
            * match us {
                Side::White => 1,
                Side::Black => -1,
            };
        let ok = (dr == 1 && df.abs() <= 1) || (dr == 0 && df.abs() == 1);
        ok.then(|| Move::quiet(from, to, to.rank() == us.far_rank()))
    } else if pos.kings(us) & from.bit() != 0 {
        if short {
            return (STEPS[from.index() as usize] & to.bit() != 0)
                .then(|| Move::quiet(from, to, false));
        }
        let d = Dir::between(from, to)? as usize;
        let between = RAYS[d][from.index() as usize] & !RAYS[d][to.index() as usize] & !to.bit();
        (between & occ == 0).then(|| Move::quiet(from, to, false))
    } else {
        None
    }
}

/// Fills `list` with every legal move: the maximal capture chains if any capture exists (all
/// landing-square variants of each), else the quiet moves.
pub fn legal_moves(pos: &Position, ludii: bool, list: &mut MoveList) {
    legal_moves_with(pos, Tama::DEFAULT.with_ludii(ludii), list);
}

/// [`legal_moves`] under `rules`.
pub(crate) fn legal_moves_with(pos: &Position, rules: Tama, list: &mut MoveList) {
    list.clear();
    if has_capture_with(pos, rules) {
        let mut best = 0;
        chains(pos, rules, &mut |m| {
            let c = m.capture_count();
            if c > best {
                best = c;
                list.clear();
            }
            if c == best {
                list.push(*m);
            }
        });
    } else {
        quiet_moves_with(pos, rules.schmidt, list);
    }
}

/// Like [`legal_moves`], keeping one move per resulting position.
pub fn legal_moves_distinct(pos: &Position, ludii: bool, list: &mut MoveList) {
    legal_moves_distinct_with(pos, Tama::DEFAULT.with_ludii(ludii), list);
}

/// [`legal_moves_distinct`] under `rules`.
pub(crate) fn legal_moves_distinct_with(pos: &Position, rules: Tama, list: &mut MoveList) {
    legal_moves_with(pos, rules, list);
    if list.first().is_some_and(Move::is_capture) {
        list.dedup_results();
    }
}

/// True when the side to move has at least one legal move (rule 13).
pub fn has_legal_move(pos: &Position) -> bool {
    has_capture(pos) || count_quiet(pos) != 0
}

/// [`has_legal_move`] under `rules`.
pub(crate) fn has_legal_move_with(pos: &Position, rules: Tama) -> bool {
    has_capture_with(pos, rules) || count_quiet_with(pos, rules.schmidt) != 0
}

/// Counts leaf positions `depth` plies ahead, moves that lead to the same position counted once.
pub fn perft(pos: &Position, depth: u32, ludii: bool) -> u64 {
    perft_with(pos, depth, Tama::DEFAULT.with_ludii(ludii))
}

/// [`perft`] under `rules`.
pub(crate) fn perft_with(pos: &Position, depth: u32, rules: Tama) -> u64 {
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_rec(pos, depth, rules, &mut lists)
}

fn perft_rec(pos: &Position, depth: u32, rules: Tama, lists: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let capture = has_capture_with(pos, rules);
    if depth == 1 && !capture {
        return count_quiet_with(pos, rules.schmidt);
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    list.clear();
    if capture {
        let mut best = 0;
        chains(pos, rules, &mut |m| {
            let c = m.capture_count();
            if c > best {
                best = c;
                list.clear();
            }
            if c == best {
                list.push(*m);
            }
        });
        list.dedup_results();
    } else {
        quiet_moves_with(pos, rules.schmidt, list);
    }
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for mv in list.iter() {
        let mut child = *pos;
        child.play(mv);
        n += perft_rec(&child, depth - 1, rules, rest);
    }
    n
}
