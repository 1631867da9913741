//! The one move generator: complete moves (a capture chain is one move) for every variant,
//! driven by [`Rules`].
//!
//! Capture chains are found square by square with the geometry's neighbour tables; whether a
//! side can capture at all, and how many quiet moves it has, are answered with whole-board
//! shifts, which is what makes perft's bulk counting at the leaves cheap.

use crate::geometry::{Bit, Bits, Dir, Geometry, NONE};
use crate::position::{Color, Position};
use crate::variant::{CaptureRule, KingRange, Movement, PromotionInCapture, Rules};

/// The most pieces one move can take (Canadian: 30 men a side).
pub const MAX_CAPTURES: usize = 30;

/// A complete move: a step, a king's slide, or a whole capture chain.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) from: Bit,
    pub(crate) to: Bit,
    pub(crate) len: u8,
    pub(crate) king: bool,
    pub(crate) promotes: bool,
    pub(crate) landings: [Bit; MAX_CAPTURES],
    pub(crate) taken: [Bit; MAX_CAPTURES],
    pub(crate) captured: Bits,
    pub(crate) captured_kings: Bits,
    /// The first part of a chain written over several tokens (see [`Position::pending`]).
    pub(crate) partial: bool,
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({} -> {:?} takes {:?})",
            self.from,
            self.path(),
            self.taken()
        )
    }
}

impl Move {
    fn new(from: Bit, king: bool) -> Move {
        Move {
            from,
            to: from,
            len: 0,
            king,
            promotes: false,
            landings: [0; MAX_CAPTURES],
            taken: [0; MAX_CAPTURES],
            captured: 0,
            captured_kings: 0,
            partial: false,
        }
    }

    /// True for the first part of a chain the record continues in its next token.
    #[inline]
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// This chain cut after its first `k` jumps, as a partial move (the piece stops there and
    /// the same side goes on capturing). `crowned` says the piece is crowned on the way.
    pub(crate) fn truncated(&self, k: usize, enemy_kings: Bits, crowned: bool) -> Move {
        let mut m = *self;
        m.len = k as u8;
        m.to = self.landings[k - 1];
        for &t in &self.taken[k..self.len as usize] {
            m.captured &= !(1u128 << t);
        }
        m.captured_kings = m.captured & (enemy_kings | self.captured_kings);
        m.promotes = crowned;
        m.partial = true;
        m
    }

    /// The start square.
    #[inline]
    pub fn from(&self) -> Bit {
        self.from
    }

    /// The square the piece ends on.
    #[inline]
    pub fn to(&self) -> Bit {
        self.to
    }

    /// Squares stopped on after the start: the destination of a quiet move, or every landing
    /// square of a capture chain.
    pub fn path(&self) -> &[Bit] {
        if self.len == 0 {
            std::slice::from_ref(&self.to)
        } else {
            &self.landings[..self.len as usize]
        }
    }

    /// Captured squares, in the order they were jumped.
    pub fn taken(&self) -> &[Bit] {
        &self.taken[..self.len as usize]
    }

    /// Every captured square.
    #[inline]
    pub fn captured(&self) -> Bits {
        self.captured
    }

    /// Number of pieces taken.
    #[inline]
    pub fn capture_count(&self) -> usize {
        self.len as usize
    }

    /// Captured kings.
    #[inline]
    pub fn captured_kings(&self) -> Bits {
        self.captured_kings
    }

    /// True for a capture.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.len > 0
    }

    /// True when a king moves.
    #[inline]
    pub fn is_king_move(&self) -> bool {
        self.king
    }

    /// True when a man is crowned by this move.
    #[inline]
    pub fn is_promotion(&self) -> bool {
        self.promotes
    }

    /// Same start, end and captured pieces: the same resulting position.
    #[inline]
    pub fn same_result(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

/// Everything the generator needs, set up once per position.
struct Ctx<'a> {
    g: &'a Geometry,
    rules: &'a Rules,
    us: Color,
    enemy: Bits,
    enemy_kings: Bits,
    /// Occupied squares with the moving piece's start square cleared (set per piece).
    occ: Bits,
    /// A flying king may stop on any landing square, even where another landing of the same
    /// jump lets it capture on (for diagnosing chains the rules do not allow).
    free_landing: bool,
    /// Men capture along diagonals only, with no rule on turning back: their chains are
    /// followed by [`Ctx::extend_man`].
    plain_men: bool,
}

/// The set holding square `b` alone, for every bit index (a table: a variable shift of a
/// `u128` takes several instructions and a branch-free select, a load takes one).
static BIT: [Bits; 128] = {
    let mut t = [0; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

#[inline(always)]
fn bit(b: Bit) -> Bits {
    // Squares are below 128; the mask only keeps the lookup free of a bounds check.
    BIT[usize::from(b) & 127]
}

#[inline(always)]
fn shift(b: Bits, off: i32) -> Bits {
    if off >= 0 {
        b << off
    } else {
        b >> (-off)
    }
}

/// The directions a man of `c` steps in.
#[inline(always)]
pub(crate) fn man_steps(rules: &Rules, c: Color) -> &'static [Dir] {
    match (rules.movement, c) {
        (Movement::Diagonal, Color::White) => &[Dir::NW, Dir::NE],
        (Movement::Diagonal, Color::Black) => &[Dir::SW, Dir::SE],
        (Movement::Orthogonal, Color::White) => &[Dir::N, Dir::W, Dir::E],
        (Movement::Orthogonal, Color::Black) => &[Dir::S, Dir::W, Dir::E],
    }
}

/// The directions a king moves in.
#[inline(always)]
fn king_steps(rules: &Rules) -> &'static [Dir] {
    match rules.movement {
        Movement::Diagonal => &Dir::DIAGONAL,
        Movement::Orthogonal => &Dir::ORTHOGONAL,
    }
}

/// The direction opposite `d`.
#[inline(always)]
fn opposite(d: Dir) -> Dir {
    match d {
        Dir::NW => Dir::SE,
        Dir::SE => Dir::NW,
        Dir::NE => Dir::SW,
        Dir::SW => Dir::NE,
        Dir::N => Dir::S,
        Dir::S => Dir::N,
        Dir::W => Dir::E,
        Dir::E => Dir::W,
    }
}

/// The directions a piece captures in.
pub(crate) fn capture_dirs(rules: &Rules, us: Color, king: bool) -> &'static [Dir] {
    const ALL: [Dir; 8] = Dir::ALL;
    const DIAG: [Dir; 4] = Dir::DIAGONAL;
    const WHITE_FWD: [Dir; 2] = [Dir::NW, Dir::NE];
    const BLACK_FWD: [Dir; 2] = [Dir::SW, Dir::SE];
    if rules.movement == Movement::Orthogonal {
        return if king {
            &Dir::ORTHOGONAL
        } else {
            man_steps(rules, us)
        };
    }
    if rules.orthogonal_captures {
        return &ALL;
    }
    if king || rules.men_capture_backwards {
        return &DIAG;
    }
    match us {
        Color::White => &WHITE_FWD,
        Color::Black => &BLACK_FWD,
    }
}

impl Ctx<'_> {
    fn new<'a>(g: &'a Geometry, rules: &'a Rules, pos: &Position) -> Ctx<'a> {
        let us = pos.side;
        let them = us.opponent();
        Ctx {
            g,
            rules,
            us,
            enemy: pos.pieces(them),
            enemy_kings: pos.kings[them.index()],
            occ: pos.occupied(),
            free_landing: false,
            plain_men: rules.movement == Movement::Diagonal
                && !rules.orthogonal_captures
                && !rules.no_turn_back,
        }
    }

    /// [`Ctx::extend`] for a man of a variant where men capture along diagonals only: each
    /// jump is the square one diagonal offset away and the one behind it (the ghost squares
    /// of the layout keep a step from wrapping onto the other edge), tested against whole
    /// sets, in the directions and order of `capture_dirs`, so the chains come in the same
    /// order as from [`Ctx::extend`].
    fn extend_man(&self, mv: &mut Move, cur: Bit, f: &mut dyn FnMut(&Move)) {
        let n = mv.len as usize;
        let mut any = false;
        let occ = if self.rules.immediate_removal {
            self.occ & !mv.captured
        } else {
            self.occ
        };
        let free = self.g.mask & !occ;
        let mut victims = self.enemy & !mv.captured;
        if !self.rules.man_takes_king {
            victims &= !self.enemy_kings;
        }
        let crown = self.g.crown[self.us.index()];
        for &d in capture_dirs(self.rules, self.us, false) {
            let off = self.g.offset(d);
            let (v, l) = (i32::from(cur) + off, i32::from(cur) + 2 * off);
            if !(0..128).contains(&v) || !(0..128).contains(&l) {
                continue;
            }
            let (victim, land) = (v as Bit, l as Bit);
            let (vb, lb) = (bit(victim), bit(land));
            if victims & vb == 0 || free & lb == 0 {
                continue;
            }
            any = true;
            mv.landings[n] = land;
            mv.taken[n] = victim;
            mv.len = n as u8 + 1;
            mv.captured |= vb;
            let victim_king = self.enemy_kings & vb != 0;
            if victim_king {
                mv.captured_kings |= vb;
            }
            match (crown & lb != 0, self.rules.promotion) {
                (true, PromotionInCapture::EndsMove) => {
                    mv.to = land;
                    mv.promotes = true;
                    f(mv);
                    mv.promotes = false;
                }
                (true, PromotionInCapture::ContinueAsKing) => {
                    self.extend(mv, land, true, Some(d), f)
                }
                _ => self.extend_man(mv, land, f),
            }
            mv.captured &= !vb;
            mv.captured_kings &= !vb;
            mv.len = n as u8;
        }
        if !any && n > 0 {
            mv.to = cur;
            mv.promotes = !mv.king && crown & bit(cur) != 0;
            f(mv);
            mv.promotes = false;
        }
    }

    /// Extends the chain `mv` from `cur`; calls `f` with every complete chain.
    fn extend(
        &self,
        mv: &mut Move,
        cur: Bit,
        king_now: bool,
        last: Option<Dir>,
        f: &mut dyn FnMut(&Move),
    ) {
        if !king_now && self.plain_men {
            return self.extend_man(mv, cur, f);
        }
        let mut any = false;
        let n = mv.len as usize;
        let flying = king_now && self.rules.king != KingRange::Short;
        // Pieces taken in this move still stand (and block) unless they leave at once.
        let occ = if self.rules.immediate_removal {
            self.occ & !mv.captured
        } else {
            self.occ
        };
        for &d in capture_dirs(self.rules, self.us, king_now) {
            if self.rules.no_turn_back && last.is_some_and(|l| opposite(l) == d) {
                continue;
            }
            let mut victim = self.g.step(cur, d);
            if flying {
                while victim != NONE && occ & bit(victim) == 0 {
                    victim = self.g.step(victim, d);
                }
            }
            if victim == NONE || self.enemy & bit(victim) == 0 || mv.captured & bit(victim) != 0 {
                continue;
            }
            let victim_king = self.enemy_kings & bit(victim) != 0;
            if !king_now && !mv.king && victim_king && !self.rules.man_takes_king {
                continue;
            }
            // A flying king must land where it can capture on, if any landing allows it.
            let mut must_continue = false;
            if flying && self.rules.king == KingRange::Flying && !self.free_landing {
                mv.captured |= bit(victim);
                let mut l = self.g.step(victim, d);
                while l != NONE && occ & bit(l) == 0 {
                    if self.king_can_jump(mv, l, d) {
                        must_continue = true;
                        break;
                    }
                    l = self.g.step(l, d);
                }
                mv.captured &= !bit(victim);
            }
            let mut land = self.g.step(victim, d);
            while land != NONE && occ & bit(land) == 0 {
                if must_continue {
                    mv.captured |= bit(victim);
                    let goes_on = self.king_can_jump(mv, land, d);
                    mv.captured &= !bit(victim);
                    if !goes_on {
                        land = self.g.step(land, d);
                        continue;
                    }
                }
                any = true;
                mv.landings[n] = land;
                mv.taken[n] = victim;
                mv.len = n as u8 + 1;
                mv.captured |= bit(victim);
                if victim_king {
                    mv.captured_kings |= bit(victim);
                }
                let crowns = !king_now && self.g.crown[self.us.index()] & bit(land) != 0;
                match (crowns, self.rules.promotion) {
                    (true, PromotionInCapture::EndsMove) => {
                        mv.to = land;
                        mv.promotes = true;
                        f(mv);
                        mv.promotes = false;
                    }
                    (true, PromotionInCapture::ContinueAsKing) => {
                        self.extend(mv, land, true, Some(d), f)
                    }
                    _ => self.extend(mv, land, king_now, Some(d), f),
                }
                mv.captured &= !bit(victim);
                mv.captured_kings &= !bit(victim);
                mv.len = n as u8;
                if !flying || self.rules.king == KingRange::FlyingLandsBehind {
                    break;
                }
                land = self.g.step(land, d);
            }
        }
        if !any && n > 0 {
            mv.to = cur;
            mv.promotes = !mv.king && (king_now || self.g.crown[self.us.index()] & bit(cur) != 0);
            f(mv);
            mv.promotes = false;
        }
    }

    /// True when a king standing on `at`, having arrived in direction `came`, has a further
    /// jump, the pieces of `mv.captured` being taken already.
    fn king_can_jump(&self, mv: &Move, at: Bit, came: Dir) -> bool {
        let occ = if self.rules.immediate_removal {
            self.occ & !mv.captured
        } else {
            self.occ
        };
        for &d in capture_dirs(self.rules, self.us, true) {
            if self.rules.no_turn_back && opposite(came) == d {
                continue;
            }
            let mut victim = self.g.step(at, d);
            while victim != NONE && occ & bit(victim) == 0 {
                victim = self.g.step(victim, d);
            }
            if victim == NONE || self.enemy & bit(victim) == 0 || mv.captured & bit(victim) != 0 {
                continue;
            }
            let land = self.g.step(victim, d);
            if land != NONE && occ & bit(land) == 0 {
                return true;
            }
        }
        false
    }

    /// Every complete chain of the piece on `from`.
    fn chains_from(&mut self, pos: &Position, from: Bit, f: &mut dyn FnMut(&Move)) {
        let king = pos.kings[self.us.index()] & bit(from) != 0;
        let full = pos.occupied();
        self.occ = full & !bit(from);
        let mut mv = Move::new(from, king);
        // A chain under way: the pieces already taken cannot be jumped again.
        mv.captured = pos.pending.taken;
        mv.captured_kings = pos.pending.taken_kings;
        if !king && self.plain_men && !self.rules.immediate_removal {
            if self.g.mask >> 64 == 0 {
                self.man_chains::<u64>(&mut mv, from, f);
            } else {
                self.man_chains::<Bits>(&mut mv, from, f);
            }
        } else {
            self.extend(&mut mv, from, king, None, f);
        }
        self.occ = full;
    }

    /// The chains of a man of a variant where men capture along diagonals and the pieces
    /// taken stay on the board until the move ends (so the empty squares do not change along
    /// the chain): for each capture direction, the squares from which a jump that way exists
    /// are found once, with two shifts of whole sets, and the chain only tests its square
    /// against them (and that the piece jumped is not taken already). Same chains, in the
    /// same order, as [`Ctx::extend_man`].
    fn man_chains<W: Word>(&self, mv: &mut Move, from: Bit, f: &mut dyn FnMut(&Move)) {
        let j = self.man_jumps::<W>(mv.captured_kings);
        self.man_chain(&j, mv, from, W::of(mv.captured), f);
    }

    /// The jumps a man of the side to move can make, the occupied squares being `self.occ`;
    /// `kings_taken` are the kings a chain under way has taken.
    #[inline(always)]
    fn man_jumps<W: Word>(&self, kings_taken: Bits) -> ManJumps<W> {
        let dirs = capture_dirs(self.rules, self.us, false);
        let mut victims = self.enemy;
        if !self.rules.man_takes_king {
            victims &= !self.enemy_kings;
        }
        let (victims, free) = (W::of(victims), W::of(self.g.mask & !self.occ));
        let mut j = ManJumps {
            dirs,
            offsets: [0; 4],
            from: [W::ZERO; 4],
            crown: W::of(self.g.crown[self.us.index()]),
            crown_stops: self.rules.promotion != PromotionInCapture::ContinueAsMan,
            kings_taken,
        };
        for (k, &d) in dirs.iter().enumerate() {
            let off = self.g.offset(d);
            j.offsets[k] = off;
            j.from[k] = shift_word(shift_word(free, -off) & victims, -off);
        }
        j
    }

    /// The chains of the men of `pos` (which has no kings to move) where men capture forwards
    /// only: a chain never comes back to where it began, so the position's jumps are each
    /// man's.
    #[inline(never)]
    fn forward_men_chains(&self, pos: &Position, f: &mut dyn FnMut(&Move)) {
        let all = self.man_jumps::<u64>(0);
        let men = pos.men[self.us.index()] as u64 & all.starts();
        for from in Geometry::squares(Bits::from(men)) {
            let mut mv = Move::new(from, false);
            self.man_chain(&all, &mut mv, from, 0, f);
        }
    }

    /// True when the men's chains of `pos` can be followed on whole sets, and counted without
    /// moves: men capture along diagonals, the pieces taken stay until the move ends, no chain
    /// is under way, and a man's chain is ranked by its length and the kings it takes alone
    /// (Italian men do not take kings, so the order of the kings taken does not arise).
    fn men_countable(&self, pos: &Position) -> bool {
        self.plain_men
            && !self.rules.immediate_removal
            && !pos.pending.is_active()
            && (self.rules.capture != CaptureRule::Italian || !self.rules.man_takes_king)
    }

    /// One step of [`Ctx::man_chains`]: the man stands on `cur`, having taken `taken` (the
    /// move's captured sets are written only when a chain is handed out).
    fn man_chain<W: Word>(
        &self,
        j: &ManJumps<W>,
        mv: &mut Move,
        cur: Bit,
        taken: W,
        f: &mut dyn FnMut(&Move),
    ) {
        let n = mv.len as usize;
        let mut any = false;
        for k in 0..j.dirs.len().min(4) {
            if !j.from[k].has(u32::from(cur)) {
                continue;
            }
            let victim = (i32::from(cur) + j.offsets[k]) as Bit;
            if taken.has(u32::from(victim)) {
                continue;
            }
            let land = (i32::from(victim) + j.offsets[k]) as Bit;
            any = true;
            mv.landings[n] = land;
            mv.taken[n] = victim;
            mv.len = n as u8 + 1;
            let now = taken | W::single(victim);
            if j.crown_stops && j.crown.has(u32::from(land)) {
                self.man_crowned(j, mv, land, now, j.dirs[k], f);
            } else {
                self.man_chain(j, mv, land, now, f);
            }
            mv.len = n as u8;
        }
        if !any && n > 0 {
            mv.to = cur;
            mv.promotes = !mv.king && j.crown.has(u32::from(cur));
            self.hand_out(j, mv, taken, f);
            mv.promotes = false;
        }
    }

    /// A man's chain reaching the crowning row where that ends the move or makes it a king.
    #[inline(never)]
    fn man_crowned<W: Word>(
        &self,
        j: &ManJumps<W>,
        mv: &mut Move,
        land: Bit,
        taken: W,
        d: Dir,
        f: &mut dyn FnMut(&Move),
    ) {
        if self.rules.promotion == PromotionInCapture::EndsMove {
            mv.to = land;
            mv.promotes = true;
            self.hand_out(j, mv, taken, f);
            mv.promotes = false;
        } else {
            let (captured, kings) = (mv.captured, mv.captured_kings);
            mv.captured = taken.bits();
            mv.captured_kings = j.kings_taken | (mv.captured & self.enemy_kings);
            self.extend(mv, land, true, Some(d), f);
            (mv.captured, mv.captured_kings) = (captured, kings);
        }
    }

    /// Hands a finished man's chain to `f`, its captured sets written from `taken`.
    #[inline(always)]
    fn hand_out<W: Word>(
        &self,
        j: &ManJumps<W>,
        mv: &mut Move,
        taken: W,
        f: &mut dyn FnMut(&Move),
    ) {
        let (captured, kings) = (mv.captured, mv.captured_kings);
        mv.captured = taken.bits();
        mv.captured_kings = j.kings_taken | (mv.captured & self.enemy_kings);
        f(mv);
        (mv.captured, mv.captured_kings) = (captured, kings);
    }
}

/// What [`Ctx::man_chain`] tests a man's jumps against: per capture direction, its offset and
/// the squares a jump that way starts from.
#[derive(Clone, Copy)]
struct ManJumps<W> {
    dirs: &'static [Dir],
    offsets: [i32; 4],
    from: [W; 4],
    crown: W,
    /// Reaching the crowning row ends the chain or makes the man a king.
    crown_stops: bool,
    /// Kings taken by a chain under way.
    kings_taken: Bits,
}

impl<W: Word> ManJumps<W> {
    /// Every square a jump starts from, in any direction: the men on them can capture.
    #[inline(always)]
    fn starts(&self) -> W {
        self.from.iter().fold(W::ZERO, |a, &b| a | b)
    }
}

/// Calls `f` with every complete capture chain of the side to move, before any capture-choice
/// rule: each path of landing squares once.
pub fn for_each_chain(g: &Geometry, rules: &Rules, pos: &Position, f: &mut dyn FnMut(&Move)) {
    let mut cx = Ctx::new(g, rules, pos);
    for from in Geometry::squares(capturers(g, rules, pos)) {
        cx.chains_from(pos, from, f);
    }
}

/// Calls `f` with every complete capture chain of the piece on `from`.
pub fn for_each_chain_from(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
    from: Bit,
    f: &mut dyn FnMut(&Move),
) {
    chains_of_piece(g, rules, pos, from, false, f);
}

/// Like [`for_each_chain_from`], but a flying king may stop on any landing square behind the
/// piece it takes, even where another landing square of the same jump would let it capture on
/// (every rule set forbids that: the chain must go on). Chains the rules do not allow are
/// among them; the resolver uses them to name what a refused token did.
pub fn for_each_chain_free_landing(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
    from: Bit,
    f: &mut dyn FnMut(&Move),
) {
    chains_of_piece(g, rules, pos, from, true, f);
}

/// The chains of the piece on `from`, if it is the side to move's and may capture now.
fn chains_of_piece(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
    from: Bit,
    free_landing: bool,
    f: &mut dyn FnMut(&Move),
) {
    if pos.pieces(pos.side) & bit(from) == 0 || (pos.pending.is_active() && pos.pending.at != from)
    {
        return;
    }
    let mut cx = Ctx::new(g, rules, pos);
    cx.free_landing = free_landing;
    cx.chains_from(pos, from, f);
}

/// The diagonal shifts `[NW, NE, SW, SE]` of a board with `H` squares per row.
#[inline(always)]
const fn diagonal_offsets<const H: i32>() -> [i32; 4] {
    [-(H + 1), -H, H, H + 1]
}

/// Calls `$body` with the board's squares-per-row as a constant `H`, so that shifts by the
/// diagonal offsets compile to constant shifts.
macro_rules! with_half {
    ($g:expr, $f:ident $(, $arg:expr)*) => {
        match $g.half {
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            _ => $f::<6>($($arg),*),
        }
    };
}

/// The men of the side to move that can make a first diagonal jump (found with whole-board
/// shifts).
#[inline]
fn diagonal_capturing_men(g: &Geometry, rules: &Rules, pos: &Position) -> Bits {
    if rules.movement != Movement::Diagonal {
        return 0;
    }
    with_half!(g, diagonal_capturing_men_h, g, rules, pos)
}

/// True when men are not covered by the diagonal shifts and must be checked one by one.
#[inline(always)]
fn men_checked_one_by_one(rules: &Rules) -> bool {
    rules.orthogonal_captures || rules.movement != Movement::Diagonal
}

#[inline(always)]
fn diagonal_capturing_men_h<const H: i32>(g: &Geometry, rules: &Rules, pos: &Position) -> Bits {
    diagonal_capturing_men_w::<Bits, H>(g, rules, pos)
}

/// [`diagonal_capturing_men`] on a board that fits in a `u64`.
#[inline(always)]
fn diagonal_capturing_men_small<const H: i32>(g: &Geometry, rules: &Rules, pos: &Position) -> Bits {
    Bits::from(diagonal_capturing_men_w::<u64, H>(g, rules, pos))
}

/// [`diagonal_capturing_men`] in the word `W` (see [`Word`]).
#[inline(always)]
fn diagonal_capturing_men_w<W: Word, const H: i32>(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
) -> W {
    let us = pos.side;
    let them = us.opponent();
    let men = W::of(pos.men[us.index()]);
    if men == W::ZERO {
        return W::ZERO;
    }
    let empty = W::of(g.mask & !pos.occupied());
    let mut victims = pos.pieces(them);
    if !rules.man_takes_king {
        victims &= !pos.kings[them.index()];
    }
    let victims = W::of(victims);
    let [nw, ne, sw, se] = diagonal_offsets::<H>();
    let back = |off: i32| shift_word(shift_word(empty, -off) & victims, -off);
    let can = match (rules.men_capture_backwards, us) {
        (true, _) => back(nw) | back(ne) | back(sw) | back(se),
        (false, Color::White) => back(nw) | back(ne),
        (false, Color::Black) => back(sw) | back(se),
    };
    can & men
}

/// True when the piece on `from` (a king, or a Frisian man going orthogonally) has a first
/// jump: a ray check, no chain built.
fn can_jump(g: &Geometry, rules: &Rules, pos: &Position, from: Bit, king: bool) -> bool {
    let us = pos.side;
    let enemy = pos.pieces(us.opponent());
    let occ = pos.occupied() & !bit(from);
    let flying = king && rules.king != KingRange::Short;
    for &d in capture_dirs(rules, us, king) {
        let mut victim = g.step(from, d);
        if flying {
            while victim != NONE && occ & bit(victim) == 0 {
                victim = g.step(victim, d);
            }
        }
        if victim == NONE || enemy & bit(victim) == 0 {
            continue;
        }
        if !king && !rules.man_takes_king && pos.kings[us.opponent().index()] & bit(victim) != 0 {
            continue;
        }
        let land = g.step(victim, d);
        if land != NONE && occ & bit(land) == 0 {
            return true;
        }
    }
    false
}

/// The pieces of the side to move that have a capture.
pub fn capturers(g: &Geometry, rules: &Rules, pos: &Position) -> Bits {
    if pos.pending.is_active() {
        return bit(pos.pending.at);
    }
    let us = pos.side.index();
    let mut can = if rules.movement == Movement::Diagonal && g.mask >> 64 == 0 {
        with_half!(g, diagonal_capturing_men_small, g, rules, pos)
    } else {
        diagonal_capturing_men(g, rules, pos)
    };
    if men_checked_one_by_one(rules) {
        for from in Geometry::squares(pos.men[us] & !can) {
            if can_jump(g, rules, pos, from, false) {
                can |= bit(from);
            }
        }
    }
    for from in Geometry::squares(pos.kings[us]) {
        if can_jump(g, rules, pos, from, true) {
            can |= bit(from);
        }
    }
    can
}

/// True when the side to move has a capture.
pub fn has_capture(g: &Geometry, rules: &Rules, pos: &Position) -> bool {
    if pos.pending.is_active() {
        return true;
    }
    if !men_checked_one_by_one(rules) {
        // Diagonal captures only: every piece at once, with shifts, in one 64-bit word on
        // the boards that fit in one.
        let small = g.mask >> 64 == 0;
        return match (g.half, small) {
            (4, true) => diagonal_has_capture::<u64, 4>(g, rules, pos),
            (5, true) => diagonal_has_capture::<u64, 5>(g, rules, pos),
            (4, false) => diagonal_has_capture::<Bits, 4>(g, rules, pos),
            (5, false) => diagonal_has_capture::<Bits, 5>(g, rules, pos),
            _ => diagonal_has_capture::<Bits, 6>(g, rules, pos),
        };
    }
    if diagonal_capturing_men(g, rules, pos) != 0 {
        return true;
    }
    // Orthogonal captures: piece by piece.
    let us = pos.side.index();
    Geometry::squares(pos.men[us]).any(|from| can_jump(g, rules, pos, from, false))
        || Geometry::squares(pos.kings[us]).any(|from| can_jump(g, rules, pos, from, true))
}

/// A set of squares held in a machine word: `u128` for every board, `u64` for the boards
/// whose squares all fit in it (then half the work per shift).
trait Word:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    /// The squares of `b` (all below the word's width).
    fn of(b: Bits) -> Self;
    /// The set without its lowest square.
    fn clear_lowest(self) -> Self;
    /// Number of squares.
    fn count(self) -> u32;
    /// True when square `i` (below the word's width) is in the set.
    fn has(self, i: u32) -> bool;
    /// The set of square `i` alone (below the word's width).
    fn single(i: Bit) -> Self;
    /// The set holding the lowest square of a non-empty set alone.
    fn lowest_set(self) -> Self;
    /// The same squares as a [`Bits`].
    fn bits(self) -> Bits;
}

/// The two words, alike but for how a [`Bits`] is cut down to them.
macro_rules! impl_word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn of(b: Bits) -> $t {
                // The squares of every board held in a `u64` are below 64.
                b as $t
            }
            #[inline(always)]
            fn clear_lowest(self) -> $t {
                self & (self - 1)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn has(self, i: u32) -> bool {
                (self >> i) & 1 != 0
            }
            #[inline(always)]
            fn single(i: Bit) -> Self {
                1 << i
            }
            #[inline(always)]
            fn lowest_set(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn bits(self) -> Bits {
                Bits::from(self)
            }
        }
    };
}

impl_word!(u64);
impl_word!(Bits);

/// [`shift`] for any [`Word`]: squares pushed past either end are dropped, which is right
/// because every shift of a search goes the same way (nothing comes back onto the board).
#[inline(always)]
fn shift_word<W: Word>(b: W, off: i32) -> W {
    if off >= 0 {
        b << off as u32
    } else {
        b >> (-off) as u32
    }
}

/// [`has_capture`] for diagonal captures only (no orthogonal ones), in the word `W`: first the
/// men's first jumps ([`diagonal_capturing_men_w`]); then every king in all four
/// directions at once: each ray is grown through empty squares, its first occupied square is
/// a victim when it holds an enemy piece, and the jump exists when the square behind is empty
/// (for flying kings too: whatever the landing rule, the square right behind must be free).
#[inline(always)]
fn diagonal_has_capture<W: Word, const H: i32>(
    g: &Geometry,
    rules: &Rules,
    pos: &Position,
) -> bool {
    if diagonal_capturing_men_w::<W, H>(g, rules, pos) != W::ZERO {
        return true;
    }
    let us = pos.side;
    let kings = W::of(pos.kings[us.index()]);
    if kings == W::ZERO {
        return false;
    }
    let them = us.opponent();
    let empty = W::of(g.mask & !pos.occupied());
    let enemy = W::of(pos.pieces(them));
    let [nw, ne, sw, se] = diagonal_offsets::<H>();
    let flying = rules.king != KingRange::Short;
    #[inline(always)]
    fn along<W: Word>(off: i32, kings: W, empty: W, enemy: W, flying: bool) -> bool {
        let mut ray = shift_word(kings, off);
        let mut seen = ray;
        while flying && ray & empty != W::ZERO {
            ray = shift_word(ray & empty, off);
            seen = seen | ray;
        }
        shift_word(seen & enemy, off) & empty != W::ZERO
    }
    along(nw, kings, empty, enemy, flying)
        || along(ne, kings, empty, enemy, flying)
        || along(sw, kings, empty, enemy, flying)
        || along(se, kings, empty, enemy, flying)
}

/// The quiet moves of the side to move, appended to `out`.
pub fn quiet_moves(g: &Geometry, rules: &Rules, pos: &Position, out: &mut Vec<Move>) {
    if pos.pending.is_active() {
        return;
    }
    let us = pos.side;
    let occ = pos.occupied();
    if rules.movement == Movement::Diagonal && g.mask >> 64 == 0 {
        quiet_men_small(g, rules, pos, out);
    } else {
        for from in Geometry::squares(pos.men[us.index()]) {
            for &d in man_steps(rules, us) {
                let t = g.step(from, d);
                if t != NONE && occ & bit(t) == 0 {
                    let mut mv = Move::new(from, false);
                    mv.to = t;
                    mv.promotes = g.crown[us.index()] & bit(t) != 0;
                    out.push(mv);
                }
            }
        }
    }
    for from in Geometry::squares(pos.kings[us.index()]) {
        if king_is_held(rules, pos, from) {
            continue;
        }
        for &d in king_steps(rules) {
            let mut t = g.step(from, d);
            while t != NONE && occ & bit(t) == 0 {
                let mut mv = Move::new(from, true);
                mv.to = t;
                out.push(mv);
                if rules.king == KingRange::Short {
                    break;
                }
                t = g.step(t, d);
            }
        }
    }
}

/// The men's steps of the side to move on a diagonal board that fits in a `u64`, in the
/// order of the square-by-square walk (squares up, then the directions of [`man_steps`]):
/// the men that can step each way are found with one shift per direction, and only those are
/// visited.
fn quiet_men_small(g: &Geometry, rules: &Rules, pos: &Position, out: &mut Vec<Move>) {
    let us = pos.side;
    let [a, b] = match man_steps(rules, us) {
        [a, b] => [*a, *b],
        _ => unreachable!("diagonal men step two ways"),
    };
    let (oa, ob) = (g.offset(a), g.offset(b));
    let empty = (g.mask & !pos.occupied()) as u64;
    let men = pos.men[us.index()] as u64;
    let (can_a, can_b) = (shift_word(empty, -oa) & men, shift_word(empty, -ob) & men);
    let crown = g.crown[us.index()];
    let mut push = |from: Bit, off: i32| {
        let mut mv = Move::new(from, false);
        mv.to = (i32::from(from) + off) as Bit;
        mv.promotes = crown & bit(mv.to) != 0;
        out.push(mv);
    };
    let mut movers = can_a | can_b;
    while movers != 0 {
        let from = movers.trailing_zeros() as Bit;
        movers &= movers - 1;
        if can_a.has(u32::from(from)) {
            push(from, oa);
        }
        if can_b.has(u32::from(from)) {
            push(from, ob);
        }
    }
}

/// The quiet move from `from` to `to`, if the side to move has it (captures aside). Inlined so
/// that the replay builds the move where it keeps it (see `Draughts::resolve_for_replay`).
#[inline(always)]
pub fn quiet_move(g: &Geometry, rules: &Rules, pos: &Position, from: Bit, to: Bit) -> Option<Move> {
    if pos.pending.is_active() {
        return None;
    }
    let us = pos.side;
    let occ = pos.occupied();
    if occ & bit(to) != 0 {
        return None;
    }
    if pos.men[us.index()] & bit(from) != 0 {
        man_steps(rules, us)
            .iter()
            .find(|&&d| g.step(from, d) == to)?;
        let mut mv = Move::new(from, false);
        mv.to = to;
        mv.promotes = g.crown[us.index()] & bit(to) != 0;
        return Some(mv);
    }
    if pos.kings[us.index()] & bit(from) == 0 || king_is_held(rules, pos, from) {
        return None;
    }
    for &d in king_steps(rules) {
        let mut t = g.step(from, d);
        while t != NONE && occ & bit(t) == 0 {
            if t == to {
                let mut mv = Move::new(from, true);
                mv.to = to;
                return Some(mv);
            }
            if rules.king == KingRange::Short {
                break;
            }
            t = g.step(t, d);
        }
    }
    None
}

/// Frisian: a king that has made the limit of quiet moves in a row may not make another while
/// its side still has men.
#[inline]
fn king_is_held(rules: &Rules, pos: &Position, from: Bit) -> bool {
    if rules.king_quiet_limit == 0 || pos.men[pos.side.index()] == 0 {
        return false;
    }
    let (sq, n) = pos.king_run[pos.side.index()];
    sq == from && n >= rules.king_quiet_limit
}

/// Number of quiet moves of the side to move (no move list built).
pub fn count_quiet(g: &Geometry, rules: &Rules, pos: &Position) -> u64 {
    if pos.pending.is_active() {
        return 0;
    }
    let us = pos.side;
    let empty = g.mask & !pos.occupied();
    let mut n = count_man_moves(g, rules, pos.men[us.index()], us, empty);
    let kings = pos.kings[us.index()];
    if kings != 0 {
        for from in Geometry::squares(kings) {
            if king_is_held(rules, pos, from) {
                continue;
            }
            for &d in king_steps(rules) {
                let mut t = g.step(from, d);
                while t != NONE && empty & bit(t) != 0 {
                    n += 1;
                    if rules.king == KingRange::Short {
                        break;
                    }
                    t = g.step(t, d);
                }
            }
        }
    }
    n
}

/// Number of steps of the men `men` of `us` to the `empty` squares.
#[inline(always)]
fn count_man_moves(g: &Geometry, rules: &Rules, men: Bits, us: Color, empty: Bits) -> u64 {
    if rules.movement == Movement::Diagonal {
        match (g.half, g.mask >> 64 == 0) {
            (4, true) => count_man_steps::<u64, 4>(men, us, empty),
            (5, true) => count_man_steps::<u64, 5>(men, us, empty),
            (4, false) => count_man_steps::<Bits, 4>(men, us, empty),
            (5, false) => count_man_steps::<Bits, 5>(men, us, empty),
            _ => count_man_steps::<Bits, 6>(men, us, empty),
        }
    } else {
        man_steps(rules, us)
            .iter()
            .map(|&d| u64::from((shift(men, g.offset(d)) & empty).count_ones()))
            .sum()
    }
}

#[inline(always)]
fn count_man_steps<W: Word, const H: i32>(men: Bits, us: Color, empty: Bits) -> u64 {
    let [nw, ne, sw, se] = diagonal_offsets::<H>();
    let (men, empty) = (W::of(men), W::of(empty));
    let n = match us {
        Color::White => {
            (shift_word(men, nw) & empty).count() + (shift_word(men, ne) & empty).count()
        }
        Color::Black => {
            (shift_word(men, sw) & empty).count() + (shift_word(men, se) & empty).count()
        }
    };
    u64::from(n)
}

/// The ranking key of a chain under the capture rule: only chains with the greatest key are
/// legal.
#[inline]
pub(crate) fn priority(rules: &Rules, mv: &Move) -> u64 {
    let count = mv.len as u64;
    match rules.capture {
        // The rules that do not look at the kings taken (counting them costs a population
        // count of the whole board on every chain).
        CaptureRule::Free | CaptureRule::MajorityCount | CaptureRule::KingFirst => {
            return rank(rules, count, 0, u64::from(mv.king), 0)
        }
        _ => {}
    }
    let kings = u64::from(mv.captured_kings.count_ones());
    let king_order = if rules.capture == CaptureRule::Italian {
        // Italian: on an equal count the capture that meets the kings earlier wins, the
        // first king decided first, then the second, and so on: one bit per king taken,
        // higher for an earlier one, so the greater mask is the earlier order.
        mv.taken()
            .iter()
            .enumerate()
            .filter(|&(_, &t)| mv.captured_kings & bit(t) != 0)
            .fold(0, |m, (i, _)| m | 1 << (31 - i))
    } else {
        0
    };
    rank(rules, count, kings, u64::from(mv.king), king_order)
}

/// [`priority`] from its parts: pieces taken, kings among them, 1 when a king captures, and
/// (Italian) the order in which the kings are taken (bit 31 - i set when the `i`th piece
/// taken is a king), or 0.
#[inline(always)]
fn rank(rules: &Rules, count: u64, kings: u64, mover_king: u64, king_order: u64) -> u64 {
    match rules.capture {
        CaptureRule::Free => 0,
        CaptureRule::MajorityCount => count,
        // Man 100, king 199; on equal value a king captures.
        CaptureRule::MajorityValue => ((100 * count + 99 * kings) << 1) | mover_king,
        // In halves: man 2, king 3.
        CaptureRule::MajorityValueHalf => ((2 * count + kings) << 1) | mover_king,
        CaptureRule::Italian => (count << 48) | (mover_king << 44) | (kings << 36) | king_order,
        CaptureRule::CountThenKings => (count << 8) | kings,
        CaptureRule::KingFirst => mover_king,
    }
}

/// The legal chains: every chain the capture rule allows (each path once, so moves with the
/// same result may appear several times), appended to `out`.
pub fn allowed_chains(g: &Geometry, rules: &Rules, pos: &Position, out: &mut Vec<Move>) {
    let start = out.len();
    let mut best = 0u64;
    let mut keep = |m: &Move| {
        let p = priority(rules, m);
        if p > best {
            best = p;
            out.truncate(start);
        }
        if p == best {
            out.push(*m);
        }
    };
    let mut cx = Ctx::new(g, rules, pos);
    if pos.kings[pos.side.index()] != 0 || !cx.men_countable(pos) || g.mask >> 64 != 0 {
        return for_each_chain(g, rules, pos, &mut keep);
    }
    // Men only: the men that can jump are read off the position's jumps, then each man's
    // chains are followed (in the order of `for_each_chain`, squares up).
    if !rules.men_capture_backwards {
        return cx.forward_men_chains(pos, &mut keep);
    }
    // A man capturing backwards may come back to its own square, free once it has left: its
    // jumps are found again without it (as `chains_from` does, without its other cases:
    // calling it here measured 4 % more instructions at International d7).
    let men = pos.men[pos.side.index()] & cx.man_jumps::<u64>(0).starts().bits();
    let full = cx.occ;
    for from in Geometry::squares(men) {
        let mut mv = Move::new(from, false);
        cx.occ = full & !bit(from);
        let j = cx.man_jumps::<u64>(0);
        cx.man_chain(&j, &mut mv, from, 0, &mut keep);
    }
}

/// Every legal move, one per resulting position (chains differing only in their route are
/// merged, the first found kept).
pub fn legal_moves(g: &Geometry, rules: &Rules, pos: &Position, out: &mut Vec<Move>) {
    let start = out.len();
    // The chains first: when there are none the side has no capture, so no separate test.
    allowed_chains(g, rules, pos, out);
    if out.len() > start {
        dedup_results(out, start);
    } else {
        quiet_moves(g, rules, pos, out);
    }
}

/// Removes later moves with the same result as an earlier one, from index `start` on.
fn dedup_results(out: &mut Vec<Move>, start: usize) {
    if out.len() - start < 2 {
        return;
    }
    let mut w = start;
    for r in start..out.len() {
        let m = out[r];
        if !out[start..w].iter().any(|k| k.same_result(&m)) {
            out[w] = m;
            w += 1;
        }
    }
    out.truncate(w);
}

/// True when the side to move has a legal move.
pub fn has_legal_move(g: &Geometry, rules: &Rules, pos: &Position) -> bool {
    has_quiet_move(g, rules, pos) || has_capture(g, rules, pos)
}

/// True when the side to move has a quiet move: [`count_quiet`] above zero, answered without
/// counting (the men with one shift a direction on the diagonal boards that fit a `u64`, a
/// king by its first step).
fn has_quiet_move(g: &Geometry, rules: &Rules, pos: &Position) -> bool {
    if pos.pending.is_active() {
        return false;
    }
    let us = pos.side;
    let empty = g.mask & !pos.occupied();
    if rules.movement == Movement::Diagonal && g.mask >> 64 == 0 {
        let (men, free) = (pos.men[us.index()] as u64, empty as u64);
        if man_steps(rules, us)
            .iter()
            .any(|&d| shift_word(men, g.offset(d)) & free != 0)
        {
            return true;
        }
    } else if count_man_moves(g, rules, pos.men[us.index()], us, empty) > 0 {
        return true;
    }
    Geometry::squares(pos.kings[us.index()]).any(|from| {
        !king_is_held(rules, pos, from)
            && king_steps(rules).iter().any(|&d| {
                let t = g.step(from, d);
                t != NONE && empty & bit(t) != 0
            })
    })
}

/// Plays a legal move.
#[inline(always)]
pub fn play(g: &Geometry, rules: &Rules, pos: &mut Position, mv: &Move) {
    if mv.partial {
        return play_partial(pos, mv);
    }
    if mv.len == 0 {
        play_quiet(rules, pos, mv.from, mv.to, mv.king, mv.promotes);
        return;
    }
    let us = pos.side.index();
    let them = 1 - us;
    let from = bit(mv.from);
    let to = bit(mv.to);
    pos.pending = crate::position::Pending::NONE;
    pos.men[us] &= !from;
    pos.kings[us] &= !from;
    pos.men[them] &= !mv.captured;
    pos.kings[them] &= !mv.captured;
    if mv.king || mv.promotes {
        pos.kings[us] |= to;
    } else {
        pos.men[us] |= to;
    }
    if rules.king_quiet_limit > 0 {
        end_king_runs(pos, mv);
    }
    let _ = g;
    pos.side = pos.side.opponent();
}

/// The first part of a chain the record continues in its next token: the piece moves, the
/// pieces it took stay on the board as pending, and the same side moves again.
fn play_partial(pos: &mut Position, mv: &Move) {
    let us = pos.side.index();
    let (from, to) = (bit(mv.from), bit(mv.to));
    let king = mv.king || mv.promotes || pos.kings[us] & from != 0;
    pos.men[us] &= !from;
    pos.kings[us] &= !from;
    if king {
        pos.kings[us] |= to;
    } else {
        pos.men[us] |= to;
    }
    pos.pending = crate::position::Pending {
        at: mv.to,
        taken: mv.captured,
        taken_kings: mv.captured_kings,
    };
}

/// Frisian, after a capture by the side to move: its king's run of quiet moves ends, and so
/// does the opponent's if the king that made it was taken.
fn end_king_runs(pos: &mut Position, mv: &Move) {
    let us = pos.side.index();
    let them = 1 - us;
    pos.king_run[us] = (0, 0);
    if pos.king_run[them].1 > 0 && mv.captured & bit(pos.king_run[them].0) != 0 {
        pos.king_run[them] = (0, 0);
    }
}

/// Plays a step or a king's slide.
#[inline(always)]
fn play_quiet(rules: &Rules, pos: &mut Position, from: Bit, to: Bit, king: bool, promotes: bool) {
    let us = pos.side.index();
    if king || promotes {
        pos.men[us] &= !bit(from);
        pos.kings[us] = (pos.kings[us] & !bit(from)) | bit(to);
    } else {
        pos.men[us] ^= bit(from) | bit(to);
    }
    if rules.king_quiet_limit > 0 {
        pos.king_run[us] = if king {
            let (sq, n) = pos.king_run[us];
            if n > 0 && sq == from {
                (to, n.saturating_add(1))
            } else {
                (to, 1)
            }
        } else {
            (0, 0)
        };
    }
    pos.side = pos.side.opponent();
}

mod perft;
pub use perft::{perft, perft_moves, perft_with};

#[cfg(test)]
mod tests;
