//! Searches over the plays of one series: the greatest number of throws any play can use
//! (rule 17), a play that uses it, and the list of all plays.
//!
//! The maximum is found without trying every order of actions. Only the mover's own pieces
//! decide which throws can be used (captures change nothing for the mover), and every play
//! can be reordered as: entries, twin declarations on the opposite palace, one advance per
//! unit, bearing off. So the search picks how many pieces enter and how many twins are
//! declared, then hands each unit a sub-multiset of the throws (possibly none), and finally
//! bears off with the 1s left if every piece has reached the keep. Long series are memoised.

use std::collections::{HashMap, HashSet};

use crate::board::{route_square, KEEP_INDEX, TWIN_INDEX};
use crate::engine::{Action, Advance, Run};
use crate::position::{lowest_occupied, Position, Side};
use crate::throws::{Throws, VALUES};

/// Series with more usable throws than this are memoised.
const MEMO_FROM: u32 = 10;

#[derive(Clone, Copy)]
struct Unit {
    index: u8,
    twin: bool,
}

struct Dp {
    units: [Unit; 8],
    n: usize,
    ludii: bool,
    hand_left: u8,
    keep_old: u8,
    memo: Option<HashMap<u64, u8>>,
}

/// Calls `f` with every non-empty sub-multiset of `left` that `unit` can move by, and the
/// distance it moves.
fn for_each_move(left: Throws, unit: Unit, ludii: bool, mut f: impl FnMut(Throws, u8) -> bool) {
    let to_go = u32::from(KEEP_INDEX - unit.index);
    let c = left.counts();
    // Cost per throw value and the budget: singles move by the sum; twins by half the sum
    // (or, under `ludii`, by half of each throw, and never with a 1).
    let (weights, limit): ([u32; 5], u32) = match (unit.twin, ludii) {
        (false, _) => ([1, 2, 3, 4, 8], to_go),
        (true, false) => ([1, 2, 3, 4, 8], 2 * to_go + 1),
        (true, true) => ([0, 1, 1, 2, 4], to_go),
    };
    let max1 = if unit.twin && ludii { 0 } else { c[0] };
    let mut n = [0u8; 5];
    for n8 in (0..=c[4]).rev() {
        let s8 = u32::from(n8) * weights[4];
        if s8 > limit {
            continue;
        }
        n[4] = n8;
        for n4 in (0..=c[3]).rev() {
            let s4 = s8 + u32::from(n4) * weights[3];
            if s4 > limit {
                continue;
            }
            n[3] = n4;
            for n3 in (0..=c[2]).rev() {
                let s3 = s4 + u32::from(n3) * weights[2];
                if s3 > limit {
                    continue;
                }
                n[2] = n3;
                for n2 in (0..=c[1]).rev() {
                    let s2 = s3 + u32::from(n2) * weights[1];
                    if s2 > limit {
                        continue;
                    }
                    n[1] = n2;
                    for n1 in (0..=max1).rev() {
                        let s1 = s2 + u32::from(n1) * weights[0];
                        if s1 > limit {
                            continue;
                        }
                        n[0] = n1;
                        let t = Throws::from_counts(n);
                        if t.is_empty() {
                            continue;
                        }
                        let distance = match (unit.twin, ludii) {
                            (false, _) => s1,
                            (true, false) => s1 / 2,
                            (true, true) => s1,
                        };
                        if distance == 0 {
                            continue;
                        }
                        if !f(t, distance as u8) {
                            return;
                        }
                    }
                }
            }
        }
    }
}

impl Dp {
    fn key(&self, i: usize, left: Throws, all_keep: bool) -> u64 {
        let c = left.counts();
        let mut k = (i as u64) << 1 | u64::from(all_keep);
        for v in c {
            k = k << 6 | u64::from(v.min(63));
        }
        k
    }

    /// Most throws units `i..` (and bearing off after them) can use out of `left`.
    fn best(&mut self, i: usize, left: Throws, all_keep: bool) -> u8 {
        if i == self.n {
            return if all_keep && self.hand_left == 0 {
                left.count(1).min(self.keep_old)
            } else {
                0
            };
        }
        let key = self.key(i, left, all_keep);
        if let Some(memo) = &self.memo {
            if let Some(&v) = memo.get(&key) {
                return v;
            }
        }
        let total = left.len() as u8;
        let unit = self.units[i];
        let mut best = self.best(i + 1, left, false);
        if best < total {
            let to_go = KEEP_INDEX - unit.index;
            let ludii = self.ludii;
            for_each_move(left, unit, ludii, |t, d| {
                let mut rest = left;
                rest.take(&t);
                let v = t.len() as u8 + self.best(i + 1, rest, all_keep && d == to_go);
                best = best.max(v);
                best < total
            });
        }
        if let Some(memo) = &mut self.memo {
            memo.insert(key, best);
        }
        best
    }

    /// A choice of throws per unit that reaches `best(i, left, all_keep)`.
    fn witness(
        &mut self,
        i: usize,
        left: Throws,
        all_keep: bool,
        out: &mut Vec<Option<Throws>>,
    ) -> Throws {
        if i == self.n {
            return left;
        }
        let target = self.best(i, left, all_keep);
        if self.best(i + 1, left, false) == target {
            out.push(None);
            return self.witness(i + 1, left, false, out);
        }
        let unit = self.units[i];
        let to_go = KEEP_INDEX - unit.index;
        let mut found: Option<(Throws, bool)> = None;
        let ludii = self.ludii;
        for_each_move(left, unit, ludii, |t, d| {
            let mut rest = left;
            rest.take(&t);
            let keep = all_keep && d == to_go;
            if t.len() as u8 + self.best(i + 1, rest, keep) == target {
                found = Some((t, keep));
                return false;
            }
            true
        });
        match found {
            Some((t, keep)) => {
                out.push(Some(t));
                let mut rest = left;
                rest.take(&t);
                self.witness(i + 1, rest, keep, out)
            }
            None => {
                out.push(None);
                self.witness(i + 1, left, false, out)
            }
        }
    }
}

/// The mover's state that decides which throws can still be used.
struct Mover<'a> {
    side: &'a Side,
    moved_s: &'a [u8; 24],
    moved_t: &'a [u8; 24],
    fresh: u8,
    /// Bit `i` set: the mover has a single or a twin on route index `i`.
    occupied: u32,
}

impl<'a> Mover<'a> {
    fn new(side: &'a Side, moved_s: &'a [u8; 24], moved_t: &'a [u8; 24], fresh: u8) -> Self {
        let occupied = (0..24)
            .filter(|&i| side.singles[i] | side.twins[i] != 0)
            .fold(0u32, |m, i| m | 1 << i);
        Mover {
            side,
            moved_s,
            moved_t,
            fresh,
            occupied,
        }
    }

    /// The route indices the mover has units on, lowest first.
    fn occupied_indices(&self) -> impl Iterator<Item = usize> {
        let mut bits = self.occupied;
        std::iter::from_fn(move || {
            let i = bits.trailing_zeros();
            bits &= bits.wrapping_sub(1);
            (i < 32).then_some(i as usize)
        })
    }

    fn unmoved_singles(&self, i: usize, ludii: bool) -> u8 {
        if ludii {
            self.side.singles[i]
        } else {
            self.side.singles[i] - self.moved_s[i].min(self.side.singles[i])
        }
    }

    /// Pieces on the route that can no longer move in this series.
    fn stuck(&self, ludii: bool) -> bool {
        self.occupied_indices().any(|i| {
            let held_t = self.moved_t[i].min(self.side.twins[i]) > 0;
            let held_s = !ludii && self.moved_s[i].min(self.side.singles[i]) > 0;
            held_s || held_t
        })
    }

    fn dp(&self, left: Throws, ludii: bool, enters: u8, pairs: u8) -> Dp {
        let mut units = [Unit {
            index: 0,
            twin: false,
        }; 8];
        let mut n = 0;
        let mut push = |index: u8, twin: bool, count: u8| {
            for _ in 0..count {
                if n < units.len() {
                    units[n] = Unit { index, twin };
                    n += 1;
                }
            }
        };
        push(0, false, enters);
        for iu in self.occupied_indices() {
            let i = iu as u8;
            let mut singles = self.unmoved_singles(iu, ludii);
            let mut twins = self.side.twins[iu] - self.moved_t[iu].min(self.side.twins[iu]);
            if i == TWIN_INDEX {
                singles -= 2 * pairs;
                twins += pairs;
            }
            push(i, false, singles);
            push(i, true, twins);
        }
        Dp {
            units,
            n,
            ludii,
            hand_left: self.side.hand - enters,
            keep_old: self.side.keep.saturating_sub(self.fresh),
            memo: (left.len() > MEMO_FROM).then(HashMap::new),
        }
    }

    /// The greatest number of throws of `left` still usable, and the (enters, pairs) that
    /// reach it.
    fn best(&self, left: Throws, ludii: bool) -> (u32, u8, u8) {
        let total = left.len();
        let stuck = self.stuck(ludii);
        let mut best: Option<(u32, u8, u8)> = None;
        let pairs_max = self.unmoved_singles(usize::from(TWIN_INDEX), false) / 2;
        for enters in (0..=self.side.hand.min(left.count(1))).rev() {
            for pairs in (0..=pairs_max).rev() {
                let mut rest = left;
                for _ in 0..enters {
                    rest.remove(1);
                }
                let mut dp = self.dp(rest, ludii, enters, pairs);
                let used = u32::from(enters) + u32::from(dp.best(0, rest, !stuck));
                if best.is_none_or(|(b, _, _)| used > b) {
                    best = Some((used, enters, pairs));
                }
                if used == total {
                    return (used, enters, pairs);
                }
            }
        }
        best.unwrap_or((0, 0, 0))
    }
}

/// True when no play of a series starting with the mover's `side` and these `usable` throws
/// can use any throw of `left` (a sub-multiset of them): every value in `left` is longer
/// than any unit could go. Then no play uses more throws than the ones outside `left`, and
/// the rule-17 search can be skipped.
///
/// A unit only ever goes forward from where it stands when the series starts (a single by
/// the sum of its throws, a twin by half of it, rounded down), so it can never use a throw
/// longer than its way to the keep (doubled, plus one, for a twin). Pieces entered with a 1
/// start on the palace, 24 squares from the keep, and a 1 may also bear a piece off: a 1,
/// or any throw once a piece can enter, counts as usable.
pub(crate) fn beyond_reach(side: &Side, usable: Throws, left: Throws) -> bool {
    if left.count(1) > 0 || (side.hand > 0 && usable.count(1) > 0) {
        return false;
    }
    // The unit farthest from the keep goes farthest: the lowest occupied route index.
    let to_go = |units: &[u8; 24]| lowest_occupied(units).map(|i| u32::from(KEEP_INDEX - i));
    let single = to_go(&side.singles).unwrap_or(0);
    let twin = to_go(&side.twins).map_or(0, |d| 2 * d + 1);
    let reach = single.max(twin);
    left.counts()
        .iter()
        .zip(VALUES)
        .all(|(&count, v)| count == 0 || u32::from(v) > reach)
}

/// The greatest number of throws of `left` that the seat owning `side` can use in one series
/// that starts here (rule 17), and one play that uses them (when `want_play`).
pub(crate) fn best_play(
    side: &Side,
    seat: u8,
    left: Throws,
    ludii: bool,
    want_play: bool,
) -> (u32, Vec<Action>) {
    let none = [0u8; 24];
    let mover = Mover::new(side, &none, &none, 0);
    let (used, enters, pairs) = mover.best(left, ludii);
    if !want_play {
        return (used, Vec::new());
    }
    let mut rest = left;
    for _ in 0..enters {
        rest.remove(1);
    }
    let mut dp = mover.dp(rest, ludii, enters, pairs);
    let mut choice = Vec::with_capacity(dp.n);
    let after = dp.witness(0, rest, true, &mut choice);
    let mut actions = Vec::new();
    actions.extend(std::iter::repeat_n(Action::Enter, usize::from(enters)));
    actions.extend(std::iter::repeat_n(Action::Twins, usize::from(pairs)));
    let mut all_keep = true;
    for (unit, t) in dp.units[..dp.n].iter().zip(choice) {
        let Some(t) = t else {
            all_keep = false;
            continue;
        };
        let mut at = unit.index;
        let steps: Vec<Throws> = if ludii {
            t.descending()
                .map(|v| Throws::from_values(&[v]).unwrap_or_default())
                .collect()
        } else {
            vec![t]
        };
        for step in steps {
            // Under `ludii` each step is one throw, so half the sum is half the throw.
            let d = if unit.twin {
                step.sum() / 2
            } else {
                step.sum()
            };
            let to = at + d as u8;
            actions.push(Action::Advance(Advance {
                from: route_square(seat, at),
                twin: unit.twin,
                throws: step,
                to: route_square(seat, to),
                captured: 0,
            }));
            at = to;
        }
        all_keep &= at == KEEP_INDEX;
    }
    if all_keep && dp.hand_left == 0 {
        let offs = after.count(1).min(dp.keep_old);
        actions.extend(std::iter::repeat_n(Action::BearOff, usize::from(offs)));
    }
    (used, actions)
}

/// Throws still usable from a run in progress.
fn best_from(run: &Run) -> u32 {
    if run.won {
        return 0;
    }
    let mover = Mover::new(
        &run.pos.sides[usize::from(run.seat)],
        &run.moved_s,
        &run.moved_t,
        run.fresh,
    );
    mover.best(run.left, run.ludii).0
}

/// Every distinct play of the series that `start` begins: the actions and the run at its
/// end. With `lenient`, the plays after which no throw left can be used; otherwise the plays
/// that use the most throws (rule 17). Plays are the same when they end in the same
/// position with the same number of capturing moves; the first found is kept. `None` when
/// more than `limit` intermediate states would have to be visited.
pub(crate) fn all_plays(
    start: &Run,
    lenient: bool,
    limit: usize,
) -> Option<Vec<(Vec<Action>, Run)>> {
    walk_plays(start, lenient, limit, true)
}

/// [`all_plays`]; `prune` skips states from which the maximum can no longer be reached (the
/// result is the same; without it the walk is a plain exhaustive search).
fn walk_plays(
    start: &Run,
    lenient: bool,
    limit: usize,
    prune: bool,
) -> Option<Vec<(Vec<Action>, Run)>> {
    let mut w = Walk {
        visited: HashSet::new(),
        ends: HashMap::new(),
        limit,
        lenient,
        target: (!lenient && prune).then(|| best_from(start)),
        overflow: false,
    };
    let mut path = Vec::new();
    walk(&mut w, start, &mut path);
    if w.overflow {
        return None;
    }
    let best = w.ends.values().map(|(_, r)| r.used).max().unwrap_or(0);
    Some(
        w.ends
            .into_values()
            .filter(|(_, r)| lenient || r.used == best)
            .collect(),
    )
}

/// The state of [`walk_plays`]: the states seen, the best play found for each end, and the
/// bounds of the search.
struct Walk {
    visited: HashSet<Run>,
    ends: HashMap<(Position, u8), (Vec<Action>, Run)>,
    limit: usize,
    lenient: bool,
    target: Option<u32>,
    overflow: bool,
}

/// Visits `run` (reached by `path`) and every state one action further, depth first.
fn walk(w: &mut Walk, run: &Run, path: &mut Vec<Action>) {
    if w.overflow {
        return;
    }
    if w.visited.len() >= w.limit {
        w.overflow = true;
        return;
    }
    // Without `lenient`, only states from which the maximum is still reachable matter.
    if let Some(target) = w.target {
        if u32::from(run.used) + best_from(run) < target {
            return;
        }
    }
    if !w.visited.insert(run.clone()) {
        return;
    }
    if !w.lenient || !run.can_use_any() {
        let key = (run.pos.clone(), run.captures);
        match w.ends.get(&key) {
            Some((_, r)) if r.used >= run.used => {}
            _ => {
                w.ends.insert(key, (path.clone(), run.clone()));
            }
        }
    }
    if run.won {
        return;
    }
    let next = |w: &mut Walk, action: Action, path: &mut Vec<Action>| {
        let mut r = run.clone();
        if let Ok(done) = r.apply(&action) {
            path.push(done);
            walk(w, &r, path);
            path.pop();
        }
    };
    next(w, Action::Enter, path);
    let side = &run.pos.sides[usize::from(run.seat)];
    if side.singles[usize::from(TWIN_INDEX)] >= 2 {
        next(w, Action::Twins, path);
    }
    for i in 0..24u8 {
        for twin in [false, true] {
            for t in unit_moves(run, Unit { index: i, twin }) {
                let a = Action::Advance(Advance {
                    from: route_square(run.seat, i),
                    twin,
                    throws: t,
                    to: route_square(run.seat, i),
                    captured: 0,
                });
                next(w, a, path);
            }
        }
    }
    next(w, Action::BearOff, path);
}

/// The throws `unit` of the seat to move may advance by in `run` (none when it is not on
/// the board or has moved as often as it may).
fn unit_moves(run: &Run, unit: Unit) -> Vec<Throws> {
    let side = &run.pos.sides[usize::from(run.seat)];
    let (iu, twin) = (usize::from(unit.index), unit.twin);
    let (count, moved) = if twin {
        (side.twins[iu], run.moved_t[iu])
    } else {
        (side.singles[iu], run.moved_s[iu])
    };
    let mut moves = Vec::new();
    if count == 0 || (count <= moved && (twin || !run.ludii)) {
        return moves;
    }
    if run.ludii {
        for v in VALUES {
            if run.left.count(v) > 0 && !(twin && v == 1) {
                moves.push(Throws::from_values(&[v]).unwrap_or_default());
            }
        }
    } else {
        for_each_move(run.left, unit, false, |t, _| {
            moves.push(t);
            true
        });
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::throws::ThrowSeq;
    use proptest::prelude::*;

    /// A mover (South) with its four pieces anywhere, North all in hand.
    fn position(places: &[u8; 4], twin_pair: bool, off: u8) -> Position {
        let mut pos = Position::start(0b101, 0);
        let side = &mut pos.sides[0];
        side.hand = 0;
        if off > 0 {
            side.off = off;
            side.keep = 4 - off;
            return pos;
        }
        let mut k = 0;
        if twin_pair {
            // Pieces 0 and 1 form a twin on an index from 8 on.
            side.twins[usize::from(8 + places[0] % 16)] += 1;
            k = 2;
        }
        for &p in &places[k..] {
            match p % 27 {
                24 => side.hand += 1,
                25 | 26 => side.keep += 1,
                i => side.singles[usize::from(i)] += 1,
            }
        }
        pos
    }

    fn series() -> impl Strategy<Value = Vec<u8>> {
        (
            prop::collection::vec(prop::sample::select(vec![1u8, 4, 8, 1]), 0..5),
            prop::sample::select(vec![2u8, 3]),
        )
            .prop_map(|(mut v, last)| {
                v.push(last);
                v
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

        /// The reordering search agrees with the exhaustive walk over every order of actions.
        #[test]
        fn maximum_matches_exhaustive_search(
            places in prop::array::uniform4(0u8..27),
            twin_pair in prop::bool::weighted(0.3),
            on_palace in prop::bool::weighted(0.3),
            off in prop::sample::select(vec![0u8, 0, 0, 0, 1, 2, 3]),
            throws in series(),
            ludii in prop::bool::weighted(0.3),
        ) {
            let mut places = places;
            if on_palace {
                places[2] = 8;
                places[3] = 8;
            }
            let pos = position(&places, twin_pair, off);
            let seq = ThrowSeq::new(&throws).unwrap();
            let (run, _) = Run::begin(pos.clone(), &seq, ludii);
            let side = pos.sides[0];
            let (best, witness) = best_play(&side, 0, run.left, ludii, true);
            let all = walk_plays(&run, false, 2_000_000, false).unwrap();
            let exhaustive = all.iter().map(|(_, r)| u32::from(r.used)).max().unwrap_or(0);
            prop_assert_eq!(best, exhaustive, "{} {:?}", crate::position::write(&pos), throws);
            // The witness is a legal play that uses that many throws.
            let mut r = run.clone();
            for a in &witness {
                prop_assert!(r.apply(a).is_ok(), "{:?} in {:?}", a, witness);
            }
            prop_assert_eq!(u32::from(r.used), best);
            // The pruned walk finds the same plays.
            let pruned = all_plays(&run, false, 2_000_000).unwrap();
            let mut a: Vec<_> = all.iter().map(|(_, r)| (crate::position::write(&r.pos), r.captures)).collect();
            let mut b: Vec<_> = pruned.iter().map(|(_, r)| (crate::position::write(&r.pos), r.captures)).collect();
            a.sort();
            b.sort();
            prop_assert_eq!(a, b);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

        /// Throws found beyond reach are left unused by every play of the series. Pieces
        /// stand mostly near the keep, where long throws are often beyond reach.
        #[test]
        fn throws_beyond_reach_are_never_used(
            places in prop::array::uniform4(12u8..27),
            twin_pair in prop::bool::weighted(0.3),
            off in prop::sample::select(vec![0u8, 0, 0, 0, 1, 2, 3]),
            throws in series(),
            keep in prop::array::uniform5(0u8..3),
            ludii in prop::bool::weighted(0.3),
        ) {
            let pos = position(&places, twin_pair, off);
            let seq = ThrowSeq::new(&throws).unwrap();
            let (run, _) = Run::begin(pos.clone(), &seq, ludii);
            let mut counts = run.left.counts();
            for (c, k) in counts.iter_mut().zip(keep) {
                *c = (*c).min(k);
            }
            let left = Throws::from_counts(counts);
            if beyond_reach(&pos.sides[0], run.left, left) {
                let all = walk_plays(&run, false, 2_000_000, false).unwrap();
                for (actions, end) in &all {
                    prop_assert!(
                        end.left.contains(&left),
                        "{} {:?}: {:?} uses some of {}",
                        crate::position::write(&pos),
                        throws,
                        actions,
                        left
                    );
                }
            }
        }
    }

    #[test]
    fn reach_of_units() {
        let throws = |v: &[u8]| Throws::from_values(v).unwrap();
        // South's single on d2 (index 22) goes at most 2 squares; a twin there, 5 points.
        let pos = crate::position::parse("S:S=d2,k3/N=h4").unwrap();
        let side = &pos.sides[0];
        assert!(beyond_reach(side, throws(&[4, 3]), throws(&[4, 3])));
        assert!(!beyond_reach(side, throws(&[2]), throws(&[2])));
        let twin = crate::position::parse("S:S=Td2,k2/N=h4").unwrap();
        assert!(!beyond_reach(&twin.sides[0], throws(&[4]), throws(&[4])));
        assert!(beyond_reach(&twin.sides[0], throws(&[8]), throws(&[8])));
        // A 1 is never beyond reach, nor anything once a piece can enter.
        assert!(!beyond_reach(side, throws(&[1]), throws(&[1])));
        let hand = crate::position::parse("S:S=d2,h1,k2/N=h4").unwrap();
        assert!(!beyond_reach(
            &hand.sides[0],
            throws(&[1, 8, 2]),
            throws(&[8])
        ));
        assert!(beyond_reach(&hand.sides[0], throws(&[8, 3]), throws(&[8])));
    }
}
