//! perft: the leaves of the move tree counted, with every leaf played or with bulk counting
//! at the last ply, on the generator's own sets where that is faster than building moves.

use super::*;

/// Number of leaf positions `depth` plies ahead, with bulk counting at the last ply.
pub fn perft(g: &Geometry, rules: &Rules, pos: &Position, depth: u32) -> u64 {
    perft_with(g, rules, pos, depth, true)
}

/// The moves perft counts in `pos`: [`legal_moves`], except that with
/// `rules.perft_merges_duplicates` false the captures with the same result are kept, one per
/// route ([`one_per_capture`]).
pub fn perft_moves(g: &Geometry, rules: &Rules, pos: &Position, out: &mut Vec<Move>) {
    let start = out.len();
    if has_capture(g, rules, pos) {
        allowed_chains(g, rules, pos, out);
        one_per_capture(g, rules, out, start);
    } else {
        quiet_moves(g, rules, pos, out);
    }
}

/// The captures of `out[start..]` as perft counts them: one per resulting position when
/// identical captures are merged; else one per route, a route being the pieces taken in
/// their order and the way the piece turns ([`stops_mid_run`]).
fn one_per_capture(g: &Geometry, rules: &Rules, out: &mut Vec<Move>, start: usize) {
    if rules.perft_merges_duplicates {
        dedup_results(out, start);
        return;
    }
    if rules.king != KingRange::Flying {
        // Only a king that may stop anywhere behind the piece it takes has such routes.
        return;
    }
    let mut w = start;
    for r in start..out.len() {
        if !stops_mid_run(g, &out[r]) {
            out[w] = out[r];
            w += 1;
        }
    }
    out.truncate(w);
}

/// True when a flying king's chain `mv` takes a piece and goes on the same way to take the
/// next, having stopped between the two elsewhere than on the first square behind the
/// first: the same route as the chain that stops there (the king flies on along the same
/// line from either square), which the published tables count once even where they keep
/// identical captures apart. The generator lists every such stop, as a record may name any.
fn stops_mid_run(g: &Geometry, mv: &Move) -> bool {
    let way = |k: usize| {
        let (t, l) = (g.coords(mv.taken[k]), g.coords(mv.landings[k]));
        (
            (i32::from(l.0) - i32::from(t.0)).signum(),
            (i32::from(l.1) - i32::from(t.1)).signum(),
        )
    };
    (1..mv.len as usize).any(|i| {
        let (taken, stop) = (mv.taken[i - 1], mv.landings[i - 1]);
        let right_behind = Dir::ALL.iter().any(|&d| g.step(taken, d) == stop);
        !right_behind && way(i - 1) == way(i)
    })
}

/// Number of leaf positions `depth` plies ahead. With `bulk`, the moves of the last ply are
/// counted without being played (whole-board shifts for the quiet ones); without it every
/// leaf is played, as a search visits it. Identical captures count once when
/// `rules.perft_merges_duplicates`, else apart.
pub fn perft_with(g: &Geometry, rules: &Rules, pos: &Position, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut scratch = Scratch {
        moves: Vec::with_capacity(256),
        keys: Vec::with_capacity(64),
        takings: Vec::with_capacity(256),
    };
    // `DIRECT`: the last ply's captures are made as the chains are found (every leaf
    // played, every chain a move), decided once here rather than at every node.
    match (bulk, every_chain_a_move(rules)) {
        (true, _) => perft_layout::<true, false>(g, rules, pos, depth, &mut scratch),
        (false, false) => perft_layout::<false, false>(g, rules, pos, depth, &mut scratch),
        (false, true) => perft_layout::<false, true>(g, rules, pos, depth, &mut scratch),
    }
}

/// [`perft_rec`] with its [`Layout`] chosen once for the count: the word and row length of
/// the board where the rules let men-only nodes be followed on whole sets.
fn perft_layout<const BULK: bool, const DIRECT: bool>(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    // The recursion changes the position in place and gives it back as it was.
    let pos = &mut pos.clone();
    if !men_rules(rules) {
        return perft_rec::<BULK, DIRECT, AnyLayout>(g, rules, pos, depth, scratch);
    }
    match (g.half, g.mask >> 64 == 0) {
        (4, true) => perft_rec::<BULK, DIRECT, MenLayout<u64, 4>>(g, rules, pos, depth, scratch),
        (5, true) => perft_rec::<BULK, DIRECT, MenLayout<u64, 5>>(g, rules, pos, depth, scratch),
        (4, false) => perft_rec::<BULK, DIRECT, MenLayout<Bits, 4>>(g, rules, pos, depth, scratch),
        (5, false) => perft_rec::<BULK, DIRECT, MenLayout<Bits, 5>>(g, rules, pos, depth, scratch),
        _ => perft_rec::<BULK, DIRECT, MenLayout<Bits, 6>>(g, rules, pos, depth, scratch),
    }
}

/// What perft's recursion knows of the board and rules for the whole count (a type
/// parameter, so that no node tests them): whether men-only nodes are followed on whole sets
/// ([`men_node`]), in which word and with how many squares a row.
trait Layout {
    /// The rules let men-only nodes be followed on whole sets ([`men_rules`]).
    const MEN: bool;
    /// [`men_node`] in this layout.
    fn men_node<const BULK: bool, const DIRECT: bool, L: Layout>(
        g: &Geometry,
        rules: &Rules,
        pos: &mut Position,
        depth: u32,
        scratch: &mut Scratch,
    ) -> u64;
    /// [`pieces_node`] in this layout.
    fn pieces_node<const BULK: bool, const DIRECT: bool, L: Layout>(
        g: &Geometry,
        rules: &Rules,
        pos: &mut Position,
        depth: u32,
        scratch: &mut Scratch,
    ) -> u64;
}

/// Men-only nodes followed on whole sets in the word `W`, `H` squares a row.
struct MenLayout<W, const H: i32>(std::marker::PhantomData<W>);

impl<W: Word, const H: i32> Layout for MenLayout<W, H> {
    const MEN: bool = true;
    #[inline(always)]
    fn men_node<const BULK: bool, const DIRECT: bool, L: Layout>(
        g: &Geometry,
        rules: &Rules,
        pos: &mut Position,
        depth: u32,
        scratch: &mut Scratch,
    ) -> u64 {
        men_node::<BULK, DIRECT, L, W, H>(g, rules, pos, depth, scratch)
    }
    fn pieces_node<const BULK: bool, const DIRECT: bool, L: Layout>(
        g: &Geometry,
        rules: &Rules,
        pos: &mut Position,
        depth: u32,
        scratch: &mut Scratch,
    ) -> u64 {
        pieces_node::<BULK, DIRECT, L, W, H>(g, rules, pos, depth, scratch)
    }
}

/// Every node through the general generator.
struct AnyLayout;

impl Layout for AnyLayout {
    const MEN: bool = false;
    fn men_node<const BULK: bool, const DIRECT: bool, L: Layout>(
        _: &Geometry,
        _: &Rules,
        _: &mut Position,
        _: u32,
        _: &mut Scratch,
    ) -> u64 {
        unreachable!("men-only nodes are not followed on whole sets in this layout")
    }
    fn pieces_node<const BULK: bool, const DIRECT: bool, L: Layout>(
        _: &Geometry,
        _: &Rules,
        _: &mut Position,
        _: u32,
        _: &mut Scratch,
    ) -> u64 {
        unreachable!("kings' captures are not followed on whole sets in this layout")
    }
}

/// Buffers perft reuses: the move lists of the current line, the keys counted at a leaf, and
/// the men's captures of the current line ([`men_node`]).
struct Scratch {
    moves: Vec<Move>,
    keys: Vec<(u16, Bits)>,
    takings: Vec<Taking>,
}

/// One child of a perft node: a leaf (without bulk counting) is only made, and kept from
/// being optimised away, here rather than in a call of [`perft_rec`].
#[inline(always)]
fn visit<const BULK: bool, const DIRECT: bool, L: Layout>(
    g: &Geometry,
    rules: &Rules,
    child: &mut Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    if !BULK && depth == 0 {
        std::hint::black_box(&*child);
        return 1;
    }
    perft_rec::<BULK, DIRECT, L>(g, rules, child, depth, scratch)
}

/// The count below `pos` (`depth` >= 1), which is changed while its subtree is counted (the
/// children are written over it where that saves a copy) and given back as it was.
#[inline(always)]
fn perft_rec<const BULK: bool, const DIRECT: bool, L: Layout>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    // Leaves are counted by `visit` and `perft_with`, never here.
    debug_assert!(depth > 0);
    // The last ply above the leaves has a body of its own, in which every test of the depth
    // is known when compiled (and the children of a node all take the same one).
    if depth == 1 {
        perft_node::<BULK, DIRECT, L, true>(g, rules, pos, 1, scratch)
    } else {
        perft_node::<BULK, DIRECT, L, false>(g, rules, pos, depth, scratch)
    }
}

/// [`perft_rec`] at the last ply above the leaves (`LAST`: `depth` is 1) or above it.
fn perft_node<const BULK: bool, const DIRECT: bool, L: Layout, const LAST: bool>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    let depth = if LAST { 1 } else { depth.max(2) };
    if L::MEN && men_to_move(pos) {
        return L::men_node::<BULK, DIRECT, L>(g, rules, pos, depth, scratch);
    }
    let capture = has_capture(g, rules, pos);
    if BULK && depth == 1 && !capture {
        return count_quiet(g, rules, pos);
    }
    if L::MEN && capture && kings_followed(rules, pos) {
        return L::pieces_node::<BULK, DIRECT, L>(g, rules, pos, depth, scratch);
    }
    if !capture && rules.movement == Movement::Diagonal {
        let small = g.mask >> 64 == 0;
        return match (g.half, small) {
            (4, true) => perft_quiet::<BULK, DIRECT, L, u64, 4>(g, rules, pos, depth, scratch),
            (5, true) => perft_quiet::<BULK, DIRECT, L, u64, 5>(g, rules, pos, depth, scratch),
            (4, false) => perft_quiet::<BULK, DIRECT, L, Bits, 4>(g, rules, pos, depth, scratch),
            (5, false) => perft_quiet::<BULK, DIRECT, L, Bits, 5>(g, rules, pos, depth, scratch),
            _ => perft_quiet::<BULK, DIRECT, L, Bits, 6>(g, rules, pos, depth, scratch),
        };
    }
    if !capture {
        let start = scratch.moves.len();
        quiet_moves(g, rules, pos, &mut scratch.moves);
        return below_list::<BULK, DIRECT, L>(g, rules, pos, depth, start, scratch);
    }
    capture_node::<BULK, DIRECT, L>(g, rules, pos, depth, scratch)
}

/// perft below a position with a capture, through the move list.
fn capture_node<const BULK: bool, const DIRECT: bool, L: Layout>(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    if BULK && depth == 1 {
        return count_captures(g, rules, pos, &mut scratch.keys);
    }
    let start = scratch.moves.len();
    allowed_chains(g, rules, pos, &mut scratch.moves);
    one_per_capture(g, rules, &mut scratch.moves, start);
    below_list::<BULK, DIRECT, L>(g, rules, pos, depth, start, scratch)
}

/// The count below the children of `pos` made from the moves `scratch.moves[start..]`, which
/// are then dropped from the list.
#[inline(always)]
fn below_list<const BULK: bool, const DIRECT: bool, L: Layout>(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
    depth: u32,
    start: usize,
    scratch: &mut Scratch,
) -> u64 {
    let n = scratch.moves.len() - start;
    let mut total = 0;
    if !BULK && depth == 1 {
        // The children are leaves: each is made (copy and play) and counted, with no copy of
        // its move.
        for mv in &scratch.moves[start..] {
            let mut child = *pos;
            play(g, rules, &mut child, mv);
            std::hint::black_box(&child);
        }
        total = n as u64;
    } else {
        for i in start..start + n {
            let mv = scratch.moves[i];
            let mut child = *pos;
            play(g, rules, &mut child, &mv);
            total += visit::<BULK, DIRECT, L>(g, rules, &mut child, depth - 1, scratch);
        }
    }
    scratch.moves.truncate(start);
    total
}

/// Number of legal captures, counted as perft counts them, without building a move list
/// (`keys` is scratch space). The men's chains are followed without a move where the rules
/// allow ([`Ctx::count_men_chains`]), the kings' through [`Ctx::chains_from`].
pub(super) fn count_captures(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
    keys: &mut Vec<(u16, Bits)>,
) -> u64 {
    keys.clear();
    let mut tally = Tally {
        keys,
        best: 0,
        merge: rules.perft_merges_duplicates,
    };
    let mut cx = Ctx::new(g, rules, pos);
    let us = pos.side.index();
    let countable = cx.men_countable(pos);
    let can = if pos.kings[us] == 0 && countable && g.mask >> 64 == 0 {
        // Men only: the men that can jump, read off the position's jumps.
        pos.men[us] & cx.man_jumps::<u64>(0).starts().bits()
    } else {
        capturers(g, rules, pos)
    };
    let men = can & pos.men[us];
    let counted = men != 0
        && countable
        && if g.mask >> 64 == 0 {
            cx.count_men_chains::<u64>(men, &mut tally)
        } else {
            cx.count_men_chains::<Bits>(men, &mut tally)
        };
    if !counted {
        tally.keys.clear();
        tally.best = 0;
    }
    let rest = if counted { can & !men } else { can };
    for from in Geometry::squares(rest) {
        cx.chains_from(pos, from, &mut |m| {
            if tally.merge || rules.king != KingRange::Flying || !stops_mid_run(g, m) {
                tally.note(m.from, m.to, m.captured, priority(rules, m))
            }
        });
    }
    tally.keys.len() as u64
}

/// The legal captures counted so far: the best priority met, and one key per capture of that
/// priority (identical captures once when `merge`).
struct Tally<'a> {
    keys: &'a mut Vec<(u16, Bits)>,
    best: u64,
    merge: bool,
}

impl Tally<'_> {
    #[inline(always)]
    fn note(&mut self, from: Bit, to: Bit, captured: Bits, p: u64) {
        if p < self.best {
            return;
        }
        if p > self.best {
            self.best = p;
            self.keys.clear();
        }
        let key = (u16::from(from) << 8 | u16::from(to), captured);
        if self.merge && self.keys.contains(&key) {
            return;
        }
        self.keys.push(key);
    }
}

impl Ctx<'_> {
    /// Counts the chains of the men `men` into `tally`; false (with the tally unfinished) when
    /// a man is crowned in a chain that goes on as a king, which only the moves can follow.
    fn count_men_chains<W: Word>(&mut self, men: Bits, tally: &mut Tally) -> bool {
        let full = self.occ;
        let mut ok = true;
        for from in Geometry::squares(men) {
            self.occ = full & !bit(from);
            let j = self.man_jumps::<W>(0);
            let start = Chain {
                from,
                cur: from,
                captured: W::of(0),
                len: 0,
                kings: 0,
            };
            ok = self.count_man_chain(&j, start, tally);
            if !ok {
                break;
            }
        }
        self.occ = full;
        ok
    }

    /// One step of [`Ctx::count_men_chains`].
    fn count_man_chain<W: Word>(&self, j: &ManJumps<W>, c: Chain<W>, tally: &mut Tally) -> bool {
        let mut any = false;
        for k in 0..j.dirs.len() {
            if !j.from[k].has(u32::from(c.cur)) {
                continue;
            }
            let victim = (i32::from(c.cur) + j.offsets[k]) as Bit;
            if c.captured.has(u32::from(victim)) {
                continue;
            }
            let land = (i32::from(victim) + j.offsets[k]) as Bit;
            any = true;
            let next = Chain {
                cur: land,
                captured: c.captured | W::single(victim),
                len: c.len + 1,
                kings: c.kings + u8::from(self.enemy_kings & bit(victim) != 0),
                ..c
            };
            let ok = match (j.crown.has(u32::from(land)), self.rules.promotion) {
                (true, PromotionInCapture::EndsMove) => {
                    next.note(self.rules, tally);
                    true
                }
                (true, PromotionInCapture::ContinueAsKing) => false,
                _ => self.count_man_chain(j, next, tally),
            };
            if !ok {
                return false;
            }
        }
        if !any && c.len > 0 {
            c.note(self.rules, tally);
        }
        true
    }
}

/// A man's chain as [`Ctx::count_man_chain`] follows it: no landings kept, only what the
/// count needs.
#[derive(Clone, Copy)]
struct Chain<W> {
    from: Bit,
    cur: Bit,
    captured: W,
    len: u8,
    kings: u8,
}

impl<W: Word> Chain<W> {
    #[inline(always)]
    fn note(&self, rules: &Rules, tally: &mut Tally) {
        let p = rank(rules, u64::from(self.len), u64::from(self.kings), 0, 0);
        tally.note(self.from, self.cur, self.captured.bits(), p);
    }
}

/// The steps of `us`'s men (`sets`: the men, the empty squares and the crowning row) in
/// their two forward directions below `child` ([`quiet_steps`]). One call per direction with
/// the offset a constant, so that its shifts are constant.
#[inline(always)]
fn steps_forward<const BULK: bool, const DIRECT: bool, L: Layout, W: Word, const H: i32>(
    g: &Geometry,
    rules: &Rules,
    child: &mut Position,
    us: Color,
    (men, empty, crown): (W, W, W),
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    let [nw, ne, sw, se] = diagonal_offsets::<H>();
    let (a, b) = match us {
        Color::White => (nw, ne),
        Color::Black => (sw, se),
    };
    quiet_steps::<BULK, DIRECT, L, W>(g, rules, child, men, empty, crown, a, depth, scratch)
        + quiet_steps::<BULK, DIRECT, L, W>(g, rules, child, men, empty, crown, b, depth, scratch)
}

/// The men's steps in the direction of `off` below `child` (the position with the other side
/// to move; each step is made and unmade on it by two exclusive-ors): steps that do not crown
/// are found as the lowest target and the same set shifted back, with no square numbers.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn quiet_steps<const BULK: bool, const DIRECT: bool, L: Layout, W: Word>(
    g: &Geometry,
    rules: &Rules,
    child: &mut Position,
    men: W,
    empty: W,
    crown: W,
    off: i32,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    let u = child.side.opponent().index();
    let targets = shift_word(men, off) & empty;
    if !BULK && depth == 1 {
        return quiet_leaves(child, u, targets, crown, off, black_box_leaf);
    }
    let mut total = 0;
    let mut plain = targets & !crown;
    while plain != W::ZERO {
        let t = plain.lowest_set();
        plain = plain.clear_lowest();
        let ft = (t | shift_word(t, -off)).bits();
        child.men[u] ^= ft;
        total += visit::<BULK, DIRECT, L>(g, rules, child, depth - 1, scratch);
        child.men[u] ^= ft;
    }
    let mut crowning = targets & crown;
    while crowning != W::ZERO {
        let t = crowning.lowest_set();
        crowning = crowning.clear_lowest();
        let (f, t) = (shift_word(t, -off).bits(), t.bits());
        child.men[u] ^= f;
        child.kings[u] ^= t;
        total += visit::<BULK, DIRECT, L>(g, rules, child, depth - 1, scratch);
        child.men[u] ^= f;
        child.kings[u] ^= t;
    }
    total
}

/// A leaf made and kept from being optimised away.
#[inline(always)]
fn black_box_leaf(leaf: &Position) {
    std::hint::black_box(leaf);
}

/// The leaves [`quiet_steps`] makes at the last ply (every leaf played): each written over
/// the men (and kings) of `child` from the sets it had, with no step undone, handed to `leaf`
/// and counted.
#[inline(always)]
fn quiet_leaves<W: Word>(
    child: &mut Position,
    u: usize,
    targets: W,
    crown: W,
    off: i32,
    mut leaf: impl FnMut(&Position),
) -> u64 {
    // Written from the sets in the word `W`: on a board held in a `u64` the upper half of
    // each set is a constant zero, not a value to keep in a register.
    let (men, kings) = (W::of(child.men[u]), W::of(child.kings[u]));
    // Counted one by one: a population count is a dozen instructions on the baseline x86-64
    // this builds for, more than the few leaves of a direction.
    let mut n = 0;
    let mut rest = targets & !crown;
    while rest != W::ZERO {
        let t = rest.lowest_set();
        rest = rest.clear_lowest();
        child.men[u] = (men ^ t ^ shift_word(t, -off)).bits();
        leaf(child);
        n += 1;
    }
    let mut rest = targets & crown;
    while rest != W::ZERO {
        let t = rest.lowest_set();
        rest = rest.clear_lowest();
        child.men[u] = (men ^ shift_word(t, -off)).bits();
        child.kings[u] = (kings ^ t).bits();
        leaf(child);
        n += 1;
    }
    (child.men[u], child.kings[u]) = (men.bits(), kings.bits());
    n
}

/// perft below a position without captures (`depth` >= 2 with bulk counting): the children
/// are made straight from the bitboards, no move list. The men's steps are made and unmade
/// on one copy of the position (two exclusive-ors each way), found in the word `W`.
fn perft_quiet<const BULK: bool, const DIRECT: bool, L: Layout, W: Word, const H: i32>(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    let us = pos.side;
    let u = us.index();
    let empty = W::of(g.mask & !pos.occupied());
    let men = W::of(pos.men[u]);
    let crown = W::of(g.crown[u]);
    let mut child = *pos;
    child.side = us.opponent();
    if rules.king_quiet_limit > 0 {
        child.king_run[u] = (0, 0);
    }
    let sets = (men, empty, crown);
    let mut total =
        steps_forward::<BULK, DIRECT, L, W, H>(g, rules, &mut child, us, sets, depth, scratch);
    let kings = pos.kings[u];
    if kings == 0 {
        return total;
    }
    let empty = g.mask & !pos.occupied();
    let runs = rules.king_quiet_limit > 0;
    for from in Geometry::squares(kings) {
        if king_is_held(rules, pos, from) {
            continue;
        }
        for &d in king_steps(rules) {
            let mut to = g.step(from, d);
            while to != NONE && empty & bit(to) != 0 {
                if runs {
                    // Frisian: the king's run changes too; a copy of the position.
                    let mut next = *pos;
                    play_quiet(rules, &mut next, from, to, true, false);
                    total += visit::<BULK, DIRECT, L>(g, rules, &mut next, depth - 1, scratch);
                } else {
                    let ft = bit(from) | bit(to);
                    child.kings[u] ^= ft;
                    total += visit::<BULK, DIRECT, L>(g, rules, &mut child, depth - 1, scratch);
                    child.kings[u] ^= ft;
                }
                if rules.king == KingRange::Short {
                    break;
                }
                to = g.step(to, d);
            }
        }
    }
    total
}

/// A capture as perft plays it: all its child needs (a man is crowned when it ends on the
/// crowning row; `king`: the piece ends as a king, having been one or been crowned on the
/// way and gone on capturing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Taking {
    captured: Bits,
    from: Bit,
    to: Bit,
    king: bool,
}

/// True when the side to move of `pos` has men only, whose chains [`men_node`] follows:
/// diagonal captures with the pieces taken staying until the move ends, no chain under way,
/// no Frisian king runs to keep.
#[cfg(test)]
fn men_only_node(rules: &Rules, pos: &Position) -> bool {
    men_rules(rules) && men_to_move(pos)
}

/// True when perft lists the captures of `pos` as [`Taking`]s: [`men_only_node`], or a
/// node whose side to move has kings and a capture ([`pieces_node`]).
#[cfg(test)]
fn taking_node(g: &Geometry, rules: &Rules, pos: &Position) -> bool {
    men_only_node(rules, pos)
        || men_rules(rules) && kings_followed(rules, pos) && has_capture(g, rules, pos)
}

/// True when the side to move of `pos` has men only and no chain is under way.
#[inline(always)]
fn men_to_move(pos: &Position) -> bool {
    pos.kings[pos.side.index()] == 0 && !pos.pending.is_active()
}

/// The rules under which [`men_node`] follows a men-only node: diagonal captures with the
/// pieces taken staying until the move ends, no Frisian king runs, and a man's chain ranked
/// by its length and the kings it takes alone.
#[inline(always)]
fn men_rules(rules: &Rules) -> bool {
    rules.movement == Movement::Diagonal
        && !rules.orthogonal_captures
        && !rules.no_turn_back
        && !rules.immediate_removal
        && rules.king_quiet_limit == 0
        && (rules.capture != CaptureRule::Italian || !rules.man_takes_king)
}

/// Calls `$f::<BULK, DIRECT, L, W, H, D0, N>` (the generic parameters in scope) with the
/// men's capture directions of the rules and the side to move, in the order of
/// `capture_dirs`: the first index into `diagonal_offsets` and how many.
macro_rules! by_capture_dirs {
    ($f:ident, $g:expr, $rules:expr, $pos:expr, $depth:expr, $scratch:expr) => {
        match ($rules.men_capture_backwards, $pos.side) {
            (true, _) => $f::<BULK, DIRECT, L, W, H, 0, 4>($g, $rules, $pos, $depth, $scratch),
            (false, Color::White) => {
                $f::<BULK, DIRECT, L, W, H, 0, 2>($g, $rules, $pos, $depth, $scratch)
            }
            (false, Color::Black) => {
                $f::<BULK, DIRECT, L, W, H, 2, 2>($g, $rules, $pos, $depth, $scratch)
            }
        }
    };
}

/// perft below a position whose side to move has men only ([`men_only_node`]), on a
/// diagonal board of `H` squares a row held in the word `W`: the men's jumps are found once
/// with whole-board shifts, which also says whether there is a capture; the captures are
/// listed as [`Taking`]s (no [`Move`]s) and each child made from one.
#[inline(always)]
fn men_node<const BULK: bool, const DIRECT: bool, L: Layout, W: Word, const H: i32>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    by_capture_dirs!(men_node_dirs, g, rules, pos, depth, scratch)
}

/// True when the captures of a position whose side to move has kings are followed on whole
/// sets ([`pieces_node`]), the rules being [`men_rules`]: no chain under way, and a rank
/// that does not look at the order of the kings taken (Italian), which is not kept.
#[inline(always)]
fn kings_followed(rules: &Rules, pos: &Position) -> bool {
    !pos.pending.is_active() && rules.capture != CaptureRule::Italian
}

/// perft below a position with a capture whose side to move has kings, the rules being
/// [`men_rules`] ([`kings_followed`]): the men's jumps found as at a men-only node
/// ([`men_node`]), the kings' chains followed square by square on whole sets
/// ([`MenWalk::king_chain`]), all listed as [`Taking`]s.
#[inline(never)]
fn pieces_node<const BULK: bool, const DIRECT: bool, L: Layout, W: Word, const H: i32>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    by_capture_dirs!(pieces_node_dirs, g, rules, pos, depth, scratch)
}

/// [`pieces_node`] with the men's capture directions `D0..D0 + N` of `diagonal_offsets`.
#[inline(always)]
fn pieces_node_dirs<
    const BULK: bool,
    const DIRECT: bool,
    L: Layout,
    W: Word,
    const H: i32,
    const D0: usize,
    const N: usize,
>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    let (jumps, free, victims, capturing) = men_jumps::<W, H, D0, N>(g, rules, pos);
    let walk = MenWalk::new(g, rules, pos, jumps, free, victims);
    let movers = (capturing, W::of(pos.kings[pos.side.index()]));
    captures_below::<BULK, DIRECT, L, W, H, D0, N>(g, rules, pos, &walk, movers, depth, scratch)
}

/// True when every chain of a man is a move perft counts (free choice of capture: English,
/// Russian, Pool), but for the identical ones where the rules merge them, which
/// [`LeafSink`] drops as it meets them.
#[inline(always)]
fn every_chain_a_move(rules: &Rules) -> bool {
    rules.capture == CaptureRule::Free
}

/// True when a man's chains that take `len` pieces may have the same result as another
/// route: a route is its pieces in the order taken, and up to three pieces there is one
/// order only. (A man's first victim is next to its square; any other piece of a route of
/// up to three jumps lies two rows or more away, or would be taken twice. Men that capture
/// forwards only take each piece a row further, so never meet one route twice.) A man
/// crowned on the way goes on as a king along the one line its crowning jump leaves open,
/// so its first piece as a king is fixed too, and two orders need three more; the routes
/// that differ only in where the king stops before going on the same way are not followed
/// ([`MenWalk::king_chain`]). Nor does such a chain repeat one that is not crowned: both
/// take the piece in front of the crowning row, which a man takes only by landing on it.
/// A king's chains (`king`: the chain ends with a king) are all kept, as some may repeat
/// another at any length.
#[inline(always)]
fn may_repeat(len: u8, king: bool) -> bool {
    king || len >= 4
}

/// [`men_node`] with the men's capture directions `D0..D0 + N` of `diagonal_offsets`.
#[inline(always)]
fn men_node_dirs<
    const BULK: bool,
    const DIRECT: bool,
    L: Layout,
    W: Word,
    const H: i32,
    const D0: usize,
    const N: usize,
>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    let (jumps, free, victims, capturing) = men_jumps::<W, H, D0, N>(g, rules, pos);
    if capturing == W::ZERO {
        if depth == 1 {
            return men_steps_last::<BULK, W, H>(g, pos, free, black_box_leaf);
        }
        return men_steps_below::<BULK, DIRECT, L, W, H>(g, rules, pos, free, depth, scratch);
    }
    let walk = MenWalk::new(g, rules, pos, jumps, free, victims);
    let movers = (capturing, W::ZERO);
    captures_below::<BULK, DIRECT, L, W, H, D0, N>(g, rules, pos, &walk, movers, depth, scratch)
}

/// perft below a position with a capture, found on whole sets ([`men_node`], and
/// [`pieces_node`] with kings): the chains of the `movers`, the men with a jump and the
/// kings ([`men_chains`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn captures_below<
    const BULK: bool,
    const DIRECT: bool,
    L: Layout,
    W: Word,
    const H: i32,
    const D0: usize,
    const N: usize,
>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    walk: &MenWalk<W>,
    movers: (W, W),
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    if DIRECT && depth == 1 {
        let seen = &mut scratch.takings;
        return last_captures::<W, H, D0, N>(g, rules, pos, walk, movers, seen);
    }
    let start = scratch.takings.len();
    men_takings::<W, H, D0, N>(rules, walk, movers, &mut scratch.takings);
    let n = scratch.takings.len() - start;
    if BULK && depth == 1 {
        scratch.takings.truncate(start);
        return n as u64;
    }
    let crown = W::of(g.crown[pos.side.index()]);
    if !BULK && depth == 1 {
        capture_leaves(pos, &scratch.takings[start..], crown, black_box_leaf);
        scratch.takings.truncate(start);
        return n as u64;
    }
    let total =
        takings_below::<BULK, DIRECT, L, W>(g, rules, pos, crown, start..start + n, depth, scratch);
    scratch.takings.truncate(start);
    total
}

/// The last ply's captures of the `movers` of `pos` ([`men_chains`]) made as the chains are
/// found ([`men_leaves`]), identical ones merged where the rules merge them.
#[inline(always)]
fn last_captures<W: Word, const H: i32, const D0: usize, const N: usize>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    walk: &MenWalk<W>,
    movers: (W, W),
    seen: &mut Vec<Taking>,
) -> u64 {
    let crown = W::of(g.crown[pos.side.index()]);
    let leaf = black_box_leaf;
    if rules.perft_merges_duplicates {
        men_leaves::<W, H, D0, N, true>(rules, pos, walk, movers, crown, seen, leaf)
    } else {
        men_leaves::<W, H, D0, N, false>(rules, pos, walk, movers, crown, seen, leaf)
    }
}

/// The count below the children of `pos` made with the captures `scratch.takings[listed]`:
/// each written over `pos` (its four sets and the side to move), which is given back as it
/// was at the end.
#[inline(always)]
fn takings_below<const BULK: bool, const DIRECT: bool, L: Layout, W: Word>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    crown: W,
    listed: std::ops::Range<usize>,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    let us = pos.side.index();
    let sets = sets_of(pos, us);
    pos.side = pos.side.opponent();
    let mut total = 0;
    for i in listed {
        let t = scratch.takings[i];
        put_sets(pos, us, taking_sets(sets, &t, crown));
        total += visit::<BULK, DIRECT, L>(g, rules, pos, depth - 1, scratch);
    }
    put_sets(pos, us, sets);
    pos.side = pos.side.opponent();
    total
}

/// The last ply below a men-only node without a capture ([`men_node_dirs`]): the men's steps
/// to the empty squares `free`, counted (with `BULK`) or each made and counted
/// ([`quiet_leaves`]). No Frisian king runs to reset ([`men_rules`]).
#[inline(always)]
fn men_steps_last<const BULK: bool, W: Word, const H: i32>(
    g: &Geometry,
    pos: &mut Position,
    free: W,
    mut leaf: impl FnMut(&Position),
) -> u64 {
    let u = pos.side.index();
    let men = W::of(pos.men[u]);
    let [nw, ne, sw, se] = diagonal_offsets::<H>();
    if BULK {
        let count = |off| u64::from((shift_word(men, off) & free).count());
        return match pos.side {
            Color::White => count(nw) + count(ne),
            Color::Black => count(sw) + count(se),
        };
    }
    let crown = W::of(g.crown[u]);
    // The leaves are written over `pos`, the other side to move, and it is given back.
    let side = pos.side;
    pos.side = side.opponent();
    let mut leaves = |off| quiet_leaves(pos, u, shift_word(men, off) & free, crown, off, &mut leaf);
    let n = match side {
        Color::White => leaves(nw) + leaves(ne),
        Color::Black => leaves(sw) + leaves(se),
    };
    pos.side = side;
    n
}

/// perft below a men-only node without a capture ([`men_node_dirs`]), `depth` >= 2: the
/// men's steps to the empty squares `free`, each made and unmade on `pos` itself
/// ([`quiet_steps`]) with the other side to move, and `pos` given back at the end.
fn men_steps_below<const BULK: bool, const DIRECT: bool, L: Layout, W: Word, const H: i32>(
    g: &Geometry,
    rules: &Rules,
    pos: &mut Position,
    free: W,
    depth: u32,
    scratch: &mut Scratch,
) -> u64 {
    let side = pos.side;
    let men = W::of(pos.men[side.index()]);
    let crown = W::of(g.crown[side.index()]);
    pos.side = side.opponent();
    let sets = (men, free, crown);
    let total = steps_forward::<BULK, DIRECT, L, W, H>(g, rules, pos, side, sets, depth, scratch);
    pos.side = side;
    total
}

/// The men's jumps of `pos` in the directions `D0..D0 + N` ([`men_node_dirs`]) and the men
/// that have one (none: the side to move has no capture).
#[cfg(test)]
fn men_walk<W: Word, const H: i32, const D0: usize, const N: usize>(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
) -> (MenWalk<W>, W) {
    let (jumps, free, victims, capturing) = men_jumps::<W, H, D0, N>(g, rules, pos);
    (MenWalk::new(g, rules, pos, jumps, free, victims), capturing)
}

/// The parts of [`men_walk`] as values, so that the walk is only written out where there is a
/// capture: per direction the squares a jump starts from, the empty squares, the pieces a
/// man may take, and the men that have a jump.
#[inline(always)]
fn men_jumps<W: Word, const H: i32, const D0: usize, const N: usize>(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
) -> ([W; 4], W, W, W) {
    let them = pos.side.opponent();
    let offs = diagonal_offsets::<H>();
    let mut victims = pos.pieces(them);
    if !rules.man_takes_king {
        victims &= !pos.kings[them.index()];
    }
    let victims = W::of(victims);
    let free = W::of(g.mask & !pos.occupied());
    let mut jumps = [W::ZERO; 4];
    let mut starts = W::ZERO;
    for k in 0..N {
        let off = offs[D0 + k];
        jumps[k] = shift_word(shift_word(free, -off) & victims, -off);
        starts = starts | jumps[k];
    }
    (
        jumps,
        free,
        victims,
        starts & W::of(pos.men[pos.side.index()]),
    )
}

/// For the tests' views of [`men_node`]: calls `$list::<W, H, D0, N>(g, rules, pos)` with the
/// word and row layout of `g` and the capture directions of the side to move, as perft
/// chooses them.
#[cfg(test)]
macro_rules! by_layout {
    ($list:ident, $g:expr, $rules:expr, $pos:expr) => {{
        let (g, rules, pos) = ($g, $rules, $pos);
        macro_rules! dirs {
            ($w:ty, $h:literal) => {
                match (rules.men_capture_backwards, pos.side) {
                    (true, _) => $list::<$w, $h, 0, 4>(g, rules, pos),
                    (false, Color::White) => $list::<$w, $h, 0, 2>(g, rules, pos),
                    (false, Color::Black) => $list::<$w, $h, 2, 2>(g, rules, pos),
                }
            };
        }
        match (g.half, g.mask >> 64 == 0) {
            (4, true) => dirs!(u64, 4),
            (5, true) => dirs!(u64, 5),
            (4, false) => dirs!(Bits, 4),
            (5, false) => dirs!(Bits, 5),
            _ => dirs!(Bits, 6),
        }
    }};
}

/// The captures [`men_node`] or [`pieces_node`] plays in `pos`, or `None` where they do not
/// list them ([`taking_node`]) or there is no capture.
#[cfg(test)]
pub(super) fn men_node_takings(g: &Geometry, rules: &Rules, pos: &Position) -> Option<Vec<Taking>> {
    fn list<W: Word, const H: i32, const D0: usize, const N: usize>(
        g: &Geometry,
        rules: &Rules,
        pos: &Position,
    ) -> Option<Vec<Taking>> {
        let (walk, capturing) = men_walk::<W, H, D0, N>(g, rules, pos);
        let mut out = Vec::new();
        let kings = W::of(pos.kings[pos.side.index()]);
        men_takings::<W, H, D0, N>(rules, &walk, (capturing, kings), &mut out);
        // A position with a capture has a chain.
        (!out.is_empty()).then_some(out)
    }
    if !taking_node(g, rules, pos) {
        return None;
    }
    by_layout!(list, g, rules, pos)
}

/// The leaves [`men_node`] makes of `pos` at the last ply (every leaf played) where the side
/// to move has men only and no capture, and their number counted in bulk; `None` elsewhere.
#[cfg(test)]
pub(super) fn men_quiet_leaves(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
) -> Option<(Vec<Position>, u64)> {
    fn list<W: Word, const H: i32, const D0: usize, const N: usize>(
        g: &Geometry,
        rules: &Rules,
        pos: &Position,
    ) -> Option<(Vec<Position>, u64)> {
        let (walk, capturing) = men_walk::<W, H, D0, N>(g, rules, pos);
        let mut out = Vec::new();
        let mut p = *pos;
        let made = men_steps_last::<false, W, H>(g, &mut p, walk.free, |c| out.push(*c));
        let counted = men_steps_last::<true, W, H>(g, &mut p, walk.free, |_| ());
        assert_eq!(p, *pos, "the position given back");
        (capturing == W::ZERO && made == out.len() as u64).then_some((out, counted))
    }
    if !men_only_node(rules, pos) {
        return None;
    }
    by_layout!(list, g, rules, pos)
}

/// The child [`men_node`] makes of `pos` with the capture `t`.
#[cfg(test)]
pub(super) fn taking_child(g: &Geometry, pos: &Position, t: &Taking) -> Position {
    let mut child = *pos;
    let crown = g.crown[pos.side.index()];
    if g.mask >> 64 == 0 {
        play_taking(&mut child, t, crown as u64);
    } else {
        play_taking(&mut child, t, crown);
    }
    child
}

/// The leaves [`men_node`] or [`pieces_node`] makes of `pos` at the last ply as it finds the
/// chains, where every chain is a move ([`every_chain_a_move`]); `None` where it does not
/// make them so.
#[cfg(test)]
pub(super) fn direct_leaves(g: &Geometry, rules: &Rules, pos: &Position) -> Option<Vec<Position>> {
    fn list<W: Word, const H: i32, const D0: usize, const N: usize>(
        g: &Geometry,
        rules: &Rules,
        pos: &Position,
    ) -> Option<Vec<Position>> {
        let (walk, capturing) = men_walk::<W, H, D0, N>(g, rules, pos);
        let mut out = Vec::new();
        let crown = W::of(g.crown[pos.side.index()]);
        let mut seen = vec![Taking::default(); 3];
        let (p, push) = (&mut pos.clone(), |c: &Position| out.push(*c));
        let movers = (capturing, W::of(pos.kings[pos.side.index()]));
        let made = if rules.perft_merges_duplicates {
            men_leaves::<W, H, D0, N, true>(rules, p, &walk, movers, crown, &mut seen, push)
        } else {
            men_leaves::<W, H, D0, N, false>(rules, p, &walk, movers, crown, &mut seen, push)
        };
        assert_eq!(
            (*p, seen.len()),
            (*pos, 3),
            "the position and list given back"
        );
        (!out.is_empty() && made == out.len() as u64).then_some(out)
    }
    if !taking_node(g, rules, pos) || !every_chain_a_move(rules) {
        return None;
    }
    by_layout!(list, g, rules, pos)
}

/// The leaves [`men_node`] makes of `pos` at the last ply with the captures `takings`.
#[cfg(test)]
pub(super) fn taking_leaves(g: &Geometry, pos: &Position, takings: &[Taking]) -> Vec<Position> {
    let mut out = Vec::new();
    let crown = g.crown[pos.side.index()];
    if g.mask >> 64 == 0 {
        capture_leaves(pos, takings, crown as u64, |c| out.push(*c));
    } else {
        capture_leaves(pos, takings, crown, |c| out.push(*c));
    }
    out
}

/// The leaves of the captures `takings` of `pos` (every leaf played): each made on one copy
/// of the position, its four sets written from those of `pos` ([`taking_sets`]), and handed
/// to `leaf`.
#[inline(always)]
fn capture_leaves<W: Word>(
    pos: &Position,
    takings: &[Taking],
    crown: W,
    mut leaf: impl FnMut(&Position),
) {
    let us = pos.side.index();
    let mut child = *pos;
    child.side = pos.side.opponent();
    let sets = sets_of(pos, us);
    for t in takings {
        put_sets(&mut child, us, taking_sets(sets, t, crown));
        leaf(&child);
    }
}

/// Plays a man's capture: what [`play`] does with the [`Move`] of the same chain.
#[cfg(test)]
fn play_taking<W: Word>(pos: &mut Position, t: &Taking, crown: W) {
    let us = pos.side.index();
    put_sets(pos, us, taking_sets(sets_of(pos, us), t, crown));
    pos.side = pos.side.opponent();
}

/// The men and kings of the side `us` and of the other in `pos` (`[men, kings, their men,
/// their kings]`), in the word `W`.
#[inline(always)]
fn sets_of<W: Word>(pos: &Position, us: usize) -> [W; 4] {
    let them = 1 - us;
    [pos.men[us], pos.kings[us], pos.men[them], pos.kings[them]].map(W::of)
}

/// Writes `sets` ([`sets_of`]) into `pos` for the side `us`.
#[inline(always)]
fn put_sets<W: Word>(pos: &mut Position, us: usize, sets: [W; 4]) {
    let them = 1 - us;
    let [m, k, their_m, their_k] = sets;
    pos.men[us] = m.bits();
    pos.kings[us] = k.bits();
    pos.men[them] = their_m.bits();
    pos.kings[them] = their_k.bits();
}

/// The men and kings of the side that captures and of the other (`[men, kings, their men,
/// their kings]`) after the capture `t`, from those before it, in the word `W`.
#[inline(always)]
fn taking_sets<W: Word>(sets: [W; 4], t: &Taking, crown: W) -> [W; 4] {
    let [men, kings, their_men, their_kings] = sets;
    let (from, to, captured) = (W::single(t.from), W::single(t.to), W::of(t.captured));
    // The piece's end square as a king's (`to` or none), found without a branch: the
    // crowning row, or `t.king` shifted onto it. The start square leaves both sets (it is
    // in one only).
    let king_to = (crown & to) | W::of(Bits::from(t.king)) << u32::from(t.to);
    let m = (men & !from) | (to ^ king_to);
    let k = (kings & !from) | king_to;
    [m, k, their_men & !captured, their_kings & !captured]
}

/// The legal captures of the `movers` ([`men_chains`]), as perft counts them, appended to
/// `out` in the order of [`men_chains`].
#[inline(always)]
fn men_takings<W: Word, const H: i32, const D0: usize, const N: usize>(
    rules: &Rules,
    walk: &MenWalk<W>,
    movers: (W, W),
    out: &mut Vec<Taking>,
) {
    let mut c = Collect {
        rules,
        king_bonus: 0,
        start: out.len(),
        best: 0,
        out,
    };
    men_chains::<W, H, D0, N, _>(walk, movers, &mut c)
}

/// The leaves of the captures of the `movers` ([`men_chains`]) at the last ply, made over
/// `pos` as the chains are found and handed to `leaf` ([`LeafSink`], the chains that may
/// repeat another kept in `seen` past its length; both given back as they were), and how
/// many.
#[inline(always)]
fn men_leaves<W: Word, const H: i32, const D0: usize, const N: usize, const MERGE: bool>(
    rules: &Rules,
    pos: &mut Position,
    walk: &MenWalk<W>,
    movers: (W, W),
    crown: W,
    seen: &mut Vec<Taking>,
    leaf: impl FnMut(&Position),
) -> u64 {
    let mut sink = LeafSink::<W, _, MERGE>::new(rules, pos, crown, seen, leaf);
    men_chains::<W, H, D0, N, _>(walk, movers, &mut sink);
    let made = sink.made;
    sink.give_back();
    made
}

/// Hands every chain of the men `men` (each of which has a first jump) to `sink`, in the
/// order of [`allowed_chains`] (but for the repeated routes of [`MenWalk::king_chain`]),
/// then those of the kings `kings` (none at a men-only node, known there when compiled).
#[inline(always)]
fn men_chains<W: Word, const H: i32, const D0: usize, const N: usize, S: ChainSink<W>>(
    walk: &MenWalk<W>,
    (men, kings): (W, W),
    sink: &mut S,
) {
    let mut rest = men;
    while rest != W::ZERO {
        let from = rest.bits().trailing_zeros() as Bit;
        rest = rest.clear_lowest();
        walk.jumps_from::<H, D0, N, S>(from, from, W::ZERO, 0, 0, sink);
    }
    if kings != W::ZERO {
        kings_chains::<W, H, S>(walk, kings, sink);
    }
}

/// Hands every chain of the kings `kings` to `sink`, which is told that a king moves.
#[inline(never)]
fn kings_chains<W: Word, const H: i32, S: ChainSink<W>>(walk: &MenWalk<W>, kings: W, sink: &mut S) {
    sink.king_moves(true);
    let mut rest = kings;
    while rest != W::ZERO {
        let from = rest.bits().trailing_zeros() as Bit;
        rest = rest.clear_lowest();
        let start = (W::single(from), W::ZERO, 0, 0);
        walk.king_chain::<H, S>(from, start, (0, true), sink);
    }
    sink.king_moves(false);
}

/// Where [`MenWalk`] hands a finished chain: the piece's start and end, the pieces taken, how
/// many, how many kings among them, and whether it ends with a king (a king's chain, or a
/// man's crowned on the way: [`MenWalk::king_chain`]).
trait ChainSink<W> {
    fn note(&mut self, from: Bit, to: Bit, taken: W, len: u8, kings: u8, king: bool);
    /// The chains noted next are a king's (`true`) or a man's.
    fn king_moves(&mut self, _king: bool) {}
    /// The rules: whether reaching the crowning row ends the chain (else the man goes on as a
    /// king), and how far a king moves.
    fn rules(&self) -> &Rules;
}

/// The last ply's leaves made as the chains are found, where every chain is a legal move
/// ([`every_chain_a_move`]), so that no list is needed: each is written over the position
/// ([`taking_sets`]), which is given back at the end ([`LeafSink::give_back`]), and handed
/// to `leaf`. Where identical captures are merged
/// (`MERGE`), the chains that may repeat another ([`may_repeat`]) are kept in `seen` (past
/// `start`) and a repeat is dropped.
struct LeafSink<'a, W, F, const MERGE: bool> {
    rules: &'a Rules,
    child: &'a mut Position,
    sets: [W; 4],
    crown: W,
    leaf: F,
    made: u64,
    seen: &'a mut Vec<Taking>,
    start: usize,
}

impl<'a, W: Word, F: FnMut(&Position), const MERGE: bool> LeafSink<'a, W, F, MERGE> {
    #[inline(always)]
    fn new(
        rules: &'a Rules,
        pos: &'a mut Position,
        crown: W,
        seen: &'a mut Vec<Taking>,
        leaf: F,
    ) -> Self {
        let sets = sets_of(pos, pos.side.index());
        pos.side = pos.side.opponent();
        LeafSink {
            rules,
            child: pos,
            sets,
            crown,
            leaf,
            made: 0,
            start: seen.len(),
            seen,
        }
    }

    /// Gives the position back as it was before [`LeafSink::new`], and `seen` too.
    #[inline(always)]
    fn give_back(self) {
        self.child.side = self.child.side.opponent();
        put_sets(self.child, self.child.side.index(), self.sets);
        if MERGE {
            self.seen.truncate(self.start);
        }
    }
}

impl<W: Word, F: FnMut(&Position), const MERGE: bool> ChainSink<W> for LeafSink<'_, W, F, MERGE> {
    fn rules(&self) -> &Rules {
        self.rules
    }

    #[inline(always)]
    fn note(&mut self, from: Bit, to: Bit, taken: W, len: u8, _kings: u8, king: bool) {
        let t = Taking {
            captured: taken.bits(),
            from,
            to,
            king,
        };
        if MERGE && may_repeat(len, king) {
            if self.seen[self.start..].contains(&t) {
                return;
            }
            self.seen.push(t);
        }
        let us = self.child.side.opponent().index();
        put_sets(self.child, us, taking_sets(self.sets, &t, self.crown));
        (self.leaf)(self.child);
        self.made += 1;
    }
}

/// What a man's chain is tested against: per capture direction (in the order of
/// `capture_dirs`), the squares a jump that way starts from.
#[derive(Clone, Copy)]
struct MenWalk<W> {
    jumps: [W; 4],
    crown: W,
    enemy_kings: W,
    /// Reaching the crowning row ends the chain or makes the man a king.
    crown_stops: bool,
    /// The pieces a man may take.
    victims: W,
    /// The empty squares of the position.
    free: W,
}

/// The captures listed so far: those of the best priority met, a chain dropped where it
/// repeats one listed and the rules merge identical captures ([`may_repeat`]).
struct Collect<'a> {
    rules: &'a Rules,
    /// What a king's chain adds to its rank while kings' chains are noted, else 0: the rank
    /// of a capture by a king is that of a man's with the same pieces, with the part for
    /// the king that moves set ([`rank`] keeps it apart from the rest).
    king_bonus: u64,
    out: &'a mut Vec<Taking>,
    start: usize,
    best: u64,
}

impl<W: Word> ChainSink<W> for Collect<'_> {
    fn rules(&self) -> &Rules {
        self.rules
    }

    fn king_moves(&mut self, king: bool) {
        self.king_bonus = rank(self.rules, 0, 0, u64::from(king), 0);
    }

    #[inline(always)]
    fn note(&mut self, from: Bit, to: Bit, taken: W, len: u8, kings: u8, king: bool) {
        let p = rank(self.rules, u64::from(len), u64::from(kings), 0, 0) | self.king_bonus;
        if p < self.best {
            return;
        }
        if p > self.best {
            self.best = p;
            self.out.truncate(self.start);
        }
        let t = Taking {
            captured: taken.bits(),
            from,
            to,
            king,
        };
        if self.rules.perft_merges_duplicates
            && may_repeat(len, king)
            && self.out[self.start..].contains(&t)
        {
            return;
        }
        self.out.push(t);
    }
}

impl<W: Word> MenWalk<W> {
    /// The walk of the men of the side to move of `pos` from the parts [`men_jumps`] finds.
    #[inline(always)]
    fn new(
        g: &Geometry,
        rules: &Rules,
        pos: &Position,
        jumps: [W; 4],
        free: W,
        victims: W,
    ) -> Self {
        let (us, them) = (pos.side.index(), pos.side.opponent().index());
        MenWalk {
            jumps,
            crown: W::of(g.crown[us]),
            enemy_kings: W::of(pos.kings[them]),
            crown_stops: rules.promotion != PromotionInCapture::ContinueAsMan,
            victims,
            free,
        }
    }

    /// A man's chain from `cur` on, where it has a further jump (the same chains in the same
    /// order as [`Ctx::man_chain`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn walk<const H: i32, const D0: usize, const N: usize, S: ChainSink<W>>(
        &self,
        from: Bit,
        cur: Bit,
        taken: W,
        len: u8,
        kings: u8,
        c: &mut S,
    ) {
        self.jumps_from::<H, D0, N, S>(from, cur, taken, len, kings, c)
    }

    /// The jumps from `cur`: a chain that cannot go on from where it lands is noted here,
    /// without a call of [`MenWalk::walk`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn jumps_from<const H: i32, const D0: usize, const N: usize, S: ChainSink<W>>(
        &self,
        from: Bit,
        cur: Bit,
        taken: W,
        len: u8,
        kings: u8,
        c: &mut S,
    ) {
        // One call a direction, so that each has its offset as a constant.
        let mut any = false;
        let chain = (from, cur, taken, len, kings);
        self.jump_way::<H, D0, N, 0, S>(chain, c, &mut any);
        self.jump_way::<H, D0, N, 1, S>(chain, c, &mut any);
        if N > 2 {
            self.jump_way::<H, D0, N, 2, S>(chain, c, &mut any);
        }
        if N > 3 {
            self.jump_way::<H, D0, N, 3, S>(chain, c, &mut any);
        }
        if !any && len > 0 {
            c.note(from, cur, taken, len, kings, false);
        }
    }

    /// The jump of [`MenWalk::jumps_from`] the way `K` (of `D0..D0 + N`), if there is one, for
    /// the chain `(from, cur, taken, len, kings)`: noted where it ends, else followed on
    /// ([`MenWalk::walk`], or [`MenWalk::king_chain`] for a man crowned that goes on as a
    /// king); `any` set when there is a jump.
    #[inline(always)]
    fn jump_way<const H: i32, const D0: usize, const N: usize, const K: usize, S: ChainSink<W>>(
        &self,
        (from, cur, taken, len, kings): (Bit, Bit, W, u8, u8),
        c: &mut S,
        any: &mut bool,
    ) {
        let off = diagonal_offsets::<H>()[(D0 + K) % 4];
        if !self.jumps[K].has(u32::from(cur)) && !self.lands_home::<N>(from, cur, off, len) {
            return;
        }
        let victim = (i32::from(cur) + off) as Bit;
        if taken.has(u32::from(victim)) {
            return;
        }
        let land = (i32::from(victim) + off) as Bit;
        *any = true;
        let now = taken | W::single(victim);
        let kings = kings + u8::from(self.enemy_kings.has(u32::from(victim)));
        if self.crown_stops && self.crown.has(u32::from(land)) {
            if c.rules().promotion == PromotionInCapture::EndsMove {
                c.note(from, land, now, len + 1, kings, false);
            } else {
                self.crowned::<H, S>(from, (W::single(land), now, len + 1, kings), off, c);
            }
        } else if !self.goes_on::<H, D0, N>(from, land, now, len + 1) {
            c.note(from, land, now, len + 1, kings, false);
        } else {
            self.walk::<H, D0, N, S>(from, land, now, len + 1, kings, c);
        }
    }

    /// A man's chain that began on `from` crowned where it goes on as a king
    /// ([`MenWalk::king_chain`]), `chain` as there; `off` the way of the jump. Marked cold,
    /// so that the men's walk is laid out for the common case.
    #[cold]
    #[inline(never)]
    fn crowned<const H: i32, S: ChainSink<W>>(
        &self,
        from: Bit,
        chain: (W, W, u8, u8),
        off: i32,
        c: &mut S,
    ) {
        // Most such kings cannot take on: that is told at once on whole sets.
        let (at, taken, len, kings) = chain;
        let to = at.bits().trailing_zeros() as Bit;
        if self.king_goes_on::<H>(from, to, taken, c.rules().king != KingRange::Short) {
            self.king_chain::<H, S>(from, chain, (off, true), c);
        } else {
            c.note(from, to, taken, len, kings, true);
        }
    }

    /// A king's chain that began on `from` (a king's, or a man's crowned on the way): it
    /// stands on `at` (one square), having taken `len` pieces `taken`, `kings` of them
    /// kings, and came the way `came`, `behind` when it stopped right behind the piece it
    /// took last (or has taken none). Every chain is noted as ending with a king. The
    /// chains of [`Ctx::extend`], in its order, but for a route that stops further behind a
    /// piece and goes on the same way: it repeats the route stopping right behind (found
    /// first), which perft counts once, and is not followed.
    #[inline(never)]
    fn king_chain<const H: i32, S: ChainSink<W>>(
        &self,
        from: Bit,
        (at, taken, len, kings): (W, W, u8, u8),
        (came, behind): (i32, bool),
        c: &mut S,
    ) {
        let chain = (at, taken, len, kings);
        let mut any = false;
        for off in diagonal_offsets::<H>() {
            any |= self.king_way::<H, S>(from, chain, off, !behind && off == came, c);
        }
        if !any && len > 0 {
            let to = at.bits().trailing_zeros() as Bit;
            c.note(from, to, taken, len, kings, true);
        }
    }

    /// The king's jumps of [`MenWalk::king_chain`] the way `off`, each followed on (none with
    /// `repeat`, the way of a route already found); true when there is one. A flying king
    /// that can go on from some square behind the piece must stop on one of those.
    #[inline(always)]
    fn king_way<const H: i32, S: ChainSink<W>>(
        &self,
        from: Bit,
        (at, taken, len, kings): (W, W, u8, u8),
        off: i32,
        repeat: bool,
        c: &mut S,
    ) -> bool {
        let free = self.free | W::single(from);
        let range = c.rules().king;
        let flying = range != KingRange::Short;
        let mut victim = shift_word(at, off);
        while flying && victim & free != W::ZERO {
            victim = shift_word(victim, off);
        }
        let behind = shift_word(victim, off);
        let targets = (self.victims | self.enemy_kings) & !taken;
        if victim & targets == W::ZERO || behind & free == W::ZERO {
            return false;
        }
        if repeat {
            return true;
        }
        let now = taken | victim;
        let kings = kings + u8::from(victim & self.enemy_kings != W::ZERO);
        let goes_on =
            |l: W| self.king_goes_on::<H>(from, l.bits().trailing_zeros() as Bit, now, flying);
        let mut must = false;
        let mut l = behind;
        while range == KingRange::Flying && l & free != W::ZERO && !must {
            must = goes_on(l);
            l = shift_word(l, off);
        }
        let mut land = behind;
        while land & free != W::ZERO {
            if !must || goes_on(land) {
                let chain = (land, now, len + 1, kings);
                self.king_chain::<H, S>(from, chain, (off, land == behind), c);
            }
            if range != KingRange::Flying {
                break;
            }
            land = shift_word(land, off);
        }
        true
    }

    /// True when a man on `at`, having taken `len` pieces `taken`, has a further jump.
    #[inline(always)]
    fn goes_on<const H: i32, const D0: usize, const N: usize>(
        &self,
        from: Bit,
        at: Bit,
        taken: W,
        len: u8,
    ) -> bool {
        let offs = diagonal_offsets::<H>();
        (0..N).any(|k| {
            let off = offs[D0 + k];
            (self.jumps[k].has(u32::from(at)) || self.lands_home::<N>(from, at, off, len))
                && !taken.has((i32::from(at) + off) as u32)
        })
    }

    /// True when a man crowned on `at` in a chain that began on `from` and has taken `taken`
    /// goes on capturing as a king: on one of the four lines from `at`, the first piece (the
    /// next square's, unless the king is `flying`) is one of the other side's not yet
    /// taken, with an empty square right behind it. The pieces taken still stand and block,
    /// and the square the man left is empty.
    #[inline(never)]
    fn king_goes_on<const H: i32>(&self, from: Bit, at: Bit, taken: W, flying: bool) -> bool {
        let free = self.free | W::single(from);
        let targets = (self.victims | self.enemy_kings) & !taken;
        diagonal_offsets::<H>().into_iter().any(|off| {
            let mut first = shift_word(W::single(at), off);
            while flying && first & free != W::ZERO {
                first = shift_word(first, off);
            }
            first & targets != W::ZERO && shift_word(first, off) & free != W::ZERO
        })
    }

    /// True when a man that has taken `len` pieces and stands on `at` can jump the way of
    /// `off` back onto `from`, the square it started from, empty since it left, which the
    /// jumps of the position do not count: only where men capture backwards, and from the
    /// fourth jump on (a chain comes back to its start after an even number of jumps, and
    /// two would take the same piece twice).
    #[inline(always)]
    fn lands_home<const N: usize>(&self, from: Bit, at: Bit, off: i32, len: u8) -> bool {
        N == 4
            && len >= 3
            && i32::from(at) + 2 * off == i32::from(from)
            && self.victims.has((i32::from(at) + off) as u32)
    }
}
