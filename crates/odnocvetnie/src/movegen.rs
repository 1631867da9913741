//! Moves, move generation, playing moves and perft.
//!
//! Generation is split so that a resolver can tell its cases apart:
//! - [`Position::capture_chains`]: every *complete* capture chain of every piece the mover may
//!   move (not filtered by the majority rule);
//! - [`Position::max_capture`]: the size of the largest of them;
//! - [`Position::legal_moves`]: the chains of maximal size, or the quiet moves if there is no
//!   capture;
//! - [`Position::locked_piece_moves`]: what the locked piece could do if it were not locked.
//!
//! Chains are deduplicated by (start, end, captured pieces): chains that differ only in a
//! damka's intermediate landing squares are one move. [`Position::paths`] lists every way to
//! write a move.

use std::fmt;

use crate::position::{Piece, Position};
use crate::square::{opposite, shift, Side, Square, SquareSet, NEXT, NONE, VALID};

/// A legal move: the piece on `from` goes to `to`, taking the pieces in `captured`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
    promotes: bool,
    captured: SquareSet,
}

impl Move {
    /// The start square.
    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The end square.
    #[inline]
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The captured pieces (empty for a quiet move).
    #[inline]
    pub const fn captured(&self) -> SquareSet {
        self.captured
    }

    /// Number of pieces captured.
    #[inline]
    pub const fn capture_count(&self) -> u32 {
        self.captured.len()
    }

    /// True for a capture.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// True if a man is crowned by this move.
    #[inline]
    pub const fn promotes(&self) -> bool {
        self.promotes
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_capture() {
            write!(f, "{}x{} {:?}", self.from, self.to, self.captured)?;
        } else {
            write!(f, "{}-{}", self.from, self.to)?;
        }
        if self.promotes {
            f.write_str(" (crowned)")?;
        }
        Ok(())
    }
}

/// One way of writing a move: every square the piece stands on, in order (for a capture, the
/// start and every landing square).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct MovePath {
    /// Start square, then every landing square.
    pub squares: Vec<Square>,
    /// True for a capture (written with `x`), false for a quiet move (`-`).
    pub capture: bool,
}

impl MovePath {
    /// Writes the path, numeric (`28x19x10`) or algebraic (`e5xg7xi9`).
    pub fn write(&self, numeric: bool) -> String {
        let mut s = String::new();
        self.push_to(&mut s, numeric);
        s
    }

    /// Appends [`MovePath::write`] to `s`.
    pub fn push_to(&self, s: &mut String, numeric: bool) {
        let sep = if self.capture { 'x' } else { '-' };
        for (i, sq) in self.squares.iter().enumerate() {
            if i > 0 {
                s.push(sep);
            }
            sq.push_styled(s, numeric);
        }
    }
}

impl fmt::Display for MovePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(true))
    }
}

/// Receives the chains found by [`Search`]. Paths are bit positions, `path[0]` being the start.
pub(crate) trait Sink {
    /// A complete chain (no further capture possible). Return true to stop the search.
    fn complete(&mut self, path: &[u8], captured: u64) -> bool;
    /// A chain prefix (called at every landing, complete or not). Return true to stop.
    #[inline]
    fn partial(&mut self, path: &[u8], captured: u64) -> bool {
        let _ = (path, captured);
        false
    }
}

/// Longest possible path: the start plus one landing per captured piece (at most 49).
const MAX_PATH: usize = 52;

/// Depth-first search of the capture chains of one piece.
struct Search<'s, S: Sink> {
    /// Every piece on the board except the capturing one (captured pieces stay in it).
    occ: u64,
    path: [u8; MAX_PATH],
    sink: &'s mut S,
}

impl<S: Sink> Search<'_, S> {
    /// Man chains: short jumps along the two forward diagonals `dirs`. Returns true to stop.
    /// (The directions travel as bytes, in a register: an array of two `usize` is passed
    /// through memory, and every call's load of it waited for the caller's two stores.)
    fn man(&mut self, at: u8, cap: u64, depth: usize, dirs: [u8; 2]) -> bool {
        let mut extended = false;
        for d in dirs {
            let d = usize::from(d);
            let over = NEXT[d][at as usize];
            if over == NONE {
                continue;
            }
            let ob = 1u64 << over;
            if self.occ & ob == 0 || cap & ob != 0 {
                continue;
            }
            let land = NEXT[d][over as usize];
            if land == NONE || self.occ & (1u64 << land) != 0 {
                continue;
            }
            extended = true;
            self.path[depth + 1] = land;
            if self.sink.partial(&self.path[..depth + 2], cap | ob)
                || self.man(land, cap | ob, depth + 1, dirs)
            {
                return true;
            }
        }
        if !extended && depth > 0 {
            return self.sink.complete(&self.path[..depth + 1], cap);
        }
        false
    }

    /// Damka chains: flying captures along the four diagonals, never reversing the previous
    /// jump (`last` = 4 before the first jump). Returns true to stop.
    fn damka(&mut self, at: u8, cap: u64, last: usize, depth: usize) -> bool {
        let mut extended = false;
        for (d, next) in NEXT.iter().enumerate() {
            if last < 4 && d == opposite(last) {
                continue;
            }
            let mut s = next[at as usize];
            while s != NONE && self.occ & (1u64 << s) == 0 {
                s = next[s as usize];
            }
            if s == NONE || cap & (1u64 << s) != 0 {
                continue;
            }
            let taken = cap | 1u64 << s;
            let mut land = next[s as usize];
            while land != NONE && self.occ & (1u64 << land) == 0 {
                extended = true;
                self.path[depth + 1] = land;
                if self.sink.partial(&self.path[..depth + 2], taken)
                    || self.damka(land, taken, d, depth + 1)
                {
                    return true;
                }
                land = next[land as usize];
            }
        }
        if !extended && depth > 0 {
            return self.sink.complete(&self.path[..depth + 1], cap);
        }
        false
    }
}

/// Runs the chain search for the piece on `from` (which must hold `piece`), moved by `side`.
/// Returns true if the sink stopped the search.
pub(crate) fn search_chains<S: Sink>(
    pos: &Position,
    from: Square,
    piece: Piece,
    sink: &mut S,
) -> bool {
    let mut search = Search {
        occ: pos.occ() & !from.bit(),
        path: [0; MAX_PATH],
        sink,
    };
    search.path[0] = from.pos();
    match piece {
        Piece::Man => {
            let [a, b] = pos.side.forward();
            search.man(from.pos(), 0, 0, [a as u8, b as u8])
        }
        Piece::Damka => search.damka(from.pos(), 0, 4, 0),
    }
}

/// Collects complete chains as moves, deduplicated per piece.
struct Collect<'a> {
    out: &'a mut Vec<Move>,
    start: usize,
    from: Square,
    crown: u64,
    dedup: bool,
}

impl Sink for Collect<'_> {
    #[inline]
    fn complete(&mut self, path: &[u8], captured: u64) -> bool {
        let to = Square::from_pos(path[path.len() - 1]);
        // A man's chain is fixed by its captured pieces (the k-th jump always takes the piece
        // k ranks/files ahead), so only a damka's chains can repeat.
        if self.dedup
            && self.out[self.start..]
                .iter()
                .any(|m| m.to == to && m.captured.0 == captured)
        {
            return false;
        }
        {
            self.out.push(Move {
                from: self.from,
                to,
                promotes: self.crown & to.bit() != 0,
                captured: SquareSet(captured),
            });
        }
        false
    }
}

/// Finds the largest complete chain.
pub(crate) struct MaxCount(pub(crate) u32);

impl Sink for MaxCount {
    #[inline]
    fn complete(&mut self, _path: &[u8], captured: u64) -> bool {
        self.0 = self.0.max(captured.count_ones());
        false
    }
}

/// Stops as soon as a chain takes more than `.0` pieces; `.1` tells whether one did.
pub(crate) struct Exceeds(pub(crate) u32, pub(crate) bool);

impl Sink for Exceeds {
    #[inline]
    fn complete(&mut self, _path: &[u8], captured: u64) -> bool {
        if captured.count_ones() > self.0 {
            self.1 = true;
        }
        self.1
    }
}

/// Counts the chains of the largest size (men only: their chains never repeat).
struct CountBest {
    best: u32,
    count: u64,
}

impl Sink for CountBest {
    #[inline]
    fn complete(&mut self, _path: &[u8], captured: u64) -> bool {
        let k = captured.count_ones();
        if k > self.best {
            self.best = k;
            self.count = 1;
        } else if k == self.best {
            self.count += 1;
        }
        false
    }
}

/// Collects every landing path of the chains equal to one move.
struct Paths<'a> {
    to: u8,
    captured: u64,
    out: &'a mut Vec<MovePath>,
}

impl Sink for Paths<'_> {
    fn complete(&mut self, path: &[u8], captured: u64) -> bool {
        if captured == self.captured && path[path.len() - 1] == self.to {
            self.out.push(MovePath {
                squares: path.iter().map(|&p| Square::from_pos(p)).collect(),
                capture: true,
            });
        }
        false
    }
}

impl Position {
    /// Every occupied square, as a padded bitboard.
    #[inline]
    pub(crate) const fn occ(&self) -> u64 {
        self.men | self.damki
    }

    /// The locked square as a bitboard (0 if none).
    #[inline]
    pub(crate) fn lock_bit(&self) -> u64 {
        match self.lock {
            Some(sq) => sq.bit(),
            None => 0,
        }
    }

    /// The pieces the seat to move may move (all but the locked one).
    #[inline]
    pub(crate) fn movers(&self) -> u64 {
        self.occ() & !self.lock_bit()
    }

    /// The same position without the lock.
    pub fn without_lock(&self) -> Position {
        Position {
            lock: None,
            ..*self
        }
    }

    /// Men among `movers` that have at least one capture, by bulk bitboard test.
    #[inline]
    pub(crate) fn capturing_men(&self, movers: u64) -> u64 {
        let occ = self.occ();
        let empty = !occ & VALID;
        let mut r = 0;
        for d in self.side.forward() {
            let o = opposite(d);
            r |= shift(shift(empty, o) & occ, o);
        }
        r & movers & self.men
    }

    /// True if the damka on bit `p` has a capture.
    #[inline]
    fn damka_can_capture(&self, p: u8) -> bool {
        let occ = self.occ();
        for next in &NEXT {
            let mut s = next[p as usize];
            while s != NONE && occ & (1u64 << s) == 0 {
                s = next[s as usize];
            }
            if s != NONE {
                let land = next[s as usize];
                if land != NONE && occ & (1u64 << land) == 0 {
                    return true;
                }
            }
        }
        false
    }

    /// True if some piece of `movers` can capture.
    #[inline]
    pub(crate) fn any_capture(&self, movers: u64) -> bool {
        if self.capturing_men(movers) != 0 {
            return true;
        }
        let mut k = self.damki & movers;
        while k != 0 {
            let p = k.trailing_zeros() as u8;
            k &= k - 1;
            if self.damka_can_capture(p) {
                return true;
            }
        }
        false
    }

    /// The pieces of `movers` that have a capture, as (square, piece).
    fn capturers(&self, movers: u64) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let men = SquareSet(self.capturing_men(movers))
            .iter()
            .map(|s| (s, Piece::Man));
        let damki = SquareSet(self.damki & movers)
            .iter()
            .filter(|s| self.damka_can_capture(s.pos()))
            .map(|s| (s, Piece::Damka));
        men.chain(damki)
    }

    /// True if the seat to move must capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.any_capture(self.movers())
    }

    /// The most pieces the seat to move can capture in one move (0 if it cannot capture).
    pub fn max_capture(&self) -> u32 {
        self.max_capture_of(self.movers())
    }

    pub(crate) fn max_capture_of(&self, movers: u64) -> u32 {
        let mut best = MaxCount(0);
        for (sq, piece) in self.capturers(movers) {
            search_chains(self, sq, piece, &mut best);
        }
        best.0
    }

    /// True if some piece of `movers` other than `skip` can capture more than `limit` pieces.
    pub(crate) fn others_exceed(&self, movers: u64, skip: Square, limit: u32) -> bool {
        for (sq, piece) in self.capturers(movers & !skip.bit()) {
            let mut sink = Exceeds(limit, false);
            search_chains(self, sq, piece, &mut sink);
            if sink.1 {
                return true;
            }
        }
        false
    }

    /// True if another legal capture goes from `mv`'s start to its end, taking other pieces:
    /// the short form `from x to` would not tell the two apart. `mv` must be legal. Only the
    /// moving piece's chains are searched (a rival of a legal capture takes as many pieces,
    /// so it is legal too).
    pub fn has_rival_capture(&self, mv: &Move) -> bool {
        struct Rival {
            to: u8,
            count: u32,
            captured: u64,
            found: bool,
        }
        impl Sink for Rival {
            #[inline]
            fn complete(&mut self, path: &[u8], captured: u64) -> bool {
                self.found |= path[path.len() - 1] == self.to
                    && captured != self.captured
                    && captured.count_ones() == self.count;
                self.found
            }
        }
        if !mv.is_capture() {
            return false;
        }
        let piece = if self.damki & mv.from.bit() != 0 {
            Piece::Damka
        } else {
            Piece::Man
        };
        let mut rival = Rival {
            to: mv.to.pos(),
            count: mv.captured.0.count_ones(),
            captured: mv.captured.0,
            found: false,
        };
        search_chains(self, mv.from, piece, &mut rival);
        rival.found
    }

    fn append_chains(&self, movers: u64, out: &mut Vec<Move>) {
        for (sq, piece) in self.capturers(movers) {
            let start = out.len();
            let crown = match piece {
                Piece::Man => self.side.far_edge().0,
                Piece::Damka => 0,
            };
            let mut sink = Collect {
                out,
                start,
                from: sq,
                crown,
                dedup: piece == Piece::Damka,
            };
            search_chains(self, sq, piece, &mut sink);
        }
    }

    fn append_quiet(&self, movers: u64, out: &mut Vec<Move>) {
        let occ = self.occ();
        let empty = !occ & VALID;
        let men = self.men & movers;
        let crown = self.side.far_edge().0;
        for d in self.side.forward() {
            let mut t = shift(men, d) & empty;
            let back = opposite(d);
            while t != 0 {
                let p = t.trailing_zeros() as u8;
                t &= t - 1;
                out.push(Move {
                    from: Square::from_pos(NEXT[back][p as usize]),
                    to: Square::from_pos(p),
                    promotes: crown >> p & 1 != 0,
                    captured: SquareSet::EMPTY,
                });
            }
        }
        let mut k = self.damki & movers;
        while k != 0 {
            let p = k.trailing_zeros() as u8;
            k &= k - 1;
            let from = Square::from_pos(p);
            for next in &NEXT {
                let mut s = next[p as usize];
                while s != NONE && occ & (1u64 << s) == 0 {
                    out.push(Move {
                        from,
                        to: Square::from_pos(s),
                        promotes: false,
                        captured: SquareSet::EMPTY,
                    });
                    s = next[s as usize];
                }
            }
        }
    }

    /// Every complete capture chain of every piece the seat to move may move, deduplicated by
    /// (start, end, captured pieces), *not* filtered by the majority rule. Clears `out` first.
    pub fn capture_chains(&self, out: &mut Vec<Move>) {
        out.clear();
        self.append_chains(self.movers(), out);
    }

    /// Every quiet move of the pieces the seat to move may move, whether or not a capture is
    /// compulsory. Clears `out` first.
    pub fn quiet_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        self.append_quiet(self.movers(), out);
    }

    /// The legal moves: the capture chains that take the most pieces if any capture exists
    /// (majority rule), otherwise the quiet moves. The locked piece is left out. Clears `out`.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let movers = self.movers();
        self.append_chains(movers, out);
        if out.is_empty() {
            self.append_quiet(movers, out);
        } else {
            let best = out.iter().map(Move::capture_count).max().unwrap_or(0);
            out.retain(|m| m.capture_count() == best);
        }
    }

    /// What the locked piece could do if it were not locked: its complete capture chains (any
    /// size) and its quiet moves. Empty if there is no lock. Clears `out` first.
    pub fn locked_piece_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if let Some(sq) = self.lock {
            let unlocked = self.without_lock();
            unlocked.append_chains(sq.bit(), out);
            unlocked.append_quiet(sq.bit(), out);
        }
    }

    /// The number of legal moves (as [`Position::legal_moves`] would list them), counted
    /// without building the list where possible.
    pub fn legal_move_count(&self) -> u64 {
        let movers = self.movers();
        let occ = self.occ();
        let empty = !occ & VALID;
        let capturing_men = self.capturing_men(movers);
        let damki = self.damki & movers;
        let mut capturing_damki = 0u64;
        let mut k = damki;
        while k != 0 {
            let p = k.trailing_zeros() as u8;
            k &= k - 1;
            if self.damka_can_capture(p) {
                capturing_damki |= 1u64 << p;
            }
        }
        if capturing_men == 0 && capturing_damki == 0 {
            let men = self.men & movers;
            let mut n = 0;
            for d in self.side.forward() {
                n += u64::from((shift(men, d) & empty).count_ones());
            }
            for d in 0..4 {
                let mut ray = shift(damki, d) & empty;
                while ray != 0 {
                    n += u64::from(ray.count_ones());
                    ray = shift(ray, d) & empty;
                }
            }
            return n;
        }
        let mut sink = CountBest { best: 0, count: 0 };
        for sq in SquareSet(capturing_men).iter() {
            search_chains(self, sq, Piece::Man, &mut sink);
        }
        if capturing_damki == 0 {
            return sink.count;
        }
        let mut chains = Vec::new();
        for sq in SquareSet(capturing_damki).iter() {
            let start = chains.len();
            let mut collect = Collect {
                out: &mut chains,
                start,
                from: sq,
                crown: 0,
                dedup: true,
            };
            search_chains(self, sq, Piece::Damka, &mut collect);
        }
        let best = chains.iter().map(Move::capture_count).max().unwrap_or(0);
        match best.cmp(&sink.best) {
            std::cmp::Ordering::Less => sink.count,
            std::cmp::Ordering::Equal => {
                sink.count + chains.iter().filter(|m| m.capture_count() == best).count() as u64
            }
            std::cmp::Ordering::Greater => {
                chains.iter().filter(|m| m.capture_count() == best).count() as u64
            }
        }
    }

    /// True if the seat to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        let movers = self.movers();
        if self.any_capture(movers) {
            return true;
        }
        let occ = self.occ();
        let empty = !occ & VALID;
        let men = self.men & movers;
        for d in self.side.forward() {
            if shift(men, d) & empty != 0 {
                return true;
            }
        }
        let k = self.damki & movers;
        (0..4).any(|d| shift(k, d) & empty != 0)
    }

    /// The quiet move `from`-`to` of the piece on `from`, if the piece can make it (lock and
    /// compulsory capture are not checked).
    pub(crate) fn quiet_move(&self, from: Square, to: Square) -> Option<Move> {
        let occ = self.occ();
        if occ & to.bit() != 0 {
            return None;
        }
        let (d, n) = crate::square::diagonal(from, to)?;
        match self.piece_at(from)? {
            Piece::Man => {
                if n != 1 || !self.side.forward().contains(&d) {
                    return None;
                }
                Some(Move {
                    from,
                    to,
                    promotes: self.side.far_edge().contains(to),
                    captured: SquareSet::EMPTY,
                })
            }
            Piece::Damka => {
                let mut p = NEXT[d][from.pos() as usize];
                while p != to.pos() {
                    if p == NONE || occ & (1u64 << p) != 0 {
                        return None;
                    }
                    p = NEXT[d][p as usize];
                }
                Some(Move {
                    from,
                    to,
                    promotes: false,
                    captured: SquareSet::EMPTY,
                })
            }
        }
    }

    /// Builds the capture move of the piece on `from` ending on bit `to` with `captured`.
    pub(crate) fn chain_move(&self, from: Square, to: u8, captured: u64) -> Move {
        let to = Square::from_pos(to);
        Move {
            from,
            to,
            promotes: self.men & from.bit() != 0 && self.side.far_edge().contains(to),
            captured: SquareSet(captured),
        }
    }

    /// Plays `mv` under the default lock rule (see [`Position::play_with`]).
    #[inline]
    pub fn play(&mut self, mv: &Move) {
        self.play_with(mv, false);
    }

    /// Plays `mv` (which must be legal here): the captured pieces are removed, a man ending on
    /// the mover's far edge is crowned, the moved piece becomes the lock if it is still a man
    /// (with `lock_any_piece`, also if it was a man crowned by this move), and the turn passes
    /// to the next seat clockwise.
    #[inline]
    pub fn play_with(&mut self, mv: &Move, lock_any_piece: bool) {
        let fb = mv.from.bit();
        let tb = mv.to.bit();
        let was_man = self.men & fb != 0;
        let crowned = was_man && self.side.far_edge().0 & tb != 0;
        let clear = !(fb | mv.captured.0);
        self.men &= clear;
        self.damki &= clear;
        if was_man && !crowned {
            self.men |= tb;
        } else {
            self.damki |= tb;
        }
        self.lock = if was_man && (!crowned || lock_any_piece) {
            Some(mv.to)
        } else {
            None
        };
        self.side = self.side.next();
    }

    /// Every way to write `mv` as a full path (start and every landing square), sorted. A
    /// quiet move has one path; a damka's capture may have several (different intermediate
    /// landing squares). Empty if `mv` is not a chain of the piece on its start square.
    pub fn paths(&self, mv: &Move) -> Vec<MovePath> {
        if !mv.is_capture() {
            return vec![MovePath {
                squares: vec![mv.from, mv.to],
                capture: false,
            }];
        }
        let mut out = Vec::new();
        if let Some(piece) = self.piece_at(mv.from) {
            let mut sink = Paths {
                to: mv.to.pos(),
                captured: mv.captured.0,
                out: &mut out,
            };
            search_chains(self, mv.from, piece, &mut sink);
        }
        out.sort();
        out.dedup();
        out
    }

    /// Every legal move written as full paths, every path of every move (so a damka capture
    /// with several possible intermediate landings appears once per path), sorted by squares.
    pub fn legal_paths(&self) -> Vec<MovePath> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let mut out: Vec<MovePath> = moves.iter().flat_map(|m| self.paths(m)).collect();
        out.sort_by(|a, b| a.squares.cmp(&b.squares));
        out
    }

    /// Number of leaf positions `depth` plies ahead under the default rules (moves counted once
    /// per (start, end, captured pieces)).
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_with(depth, false)
    }

    /// [`Position::perft`] with the lock rule chosen.
    pub fn perft_with(&self, depth: u32, lock_any_piece: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        perft_rec(self, depth, &mut bufs, lock_any_piece)
    }

    /// Perft per legal move at the root: each move with the number of leaves below it.
    pub fn perft_divide(&self, depth: u32, lock_any_piece: bool) -> Vec<(Move, u64)> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| {
                let mut p = *self;
                p.play_with(&m, lock_any_piece);
                (m, p.perft_with(depth.saturating_sub(1), lock_any_piece))
            })
            .collect()
    }
}

fn perft_rec(pos: &Position, depth: u32, bufs: &mut [Vec<Move>], lock_any: bool) -> u64 {
    if depth <= 1 {
        return pos.legal_move_count();
    }
    let Some((buf, rest)) = bufs.split_first_mut() else {
        return 1;
    };
    pos.legal_moves(buf);
    let mut n = 0;
    for mv in buf.iter() {
        let mut p = *pos;
        p.play_with(mv, lock_any);
        n += perft_rec(&p, depth - 1, rest, lock_any);
    }
    n
}

/// True if direction `d` is forward for men moved by `side`.
pub(crate) fn is_forward(side: Side, d: usize) -> bool {
    side.forward().contains(&d)
}
