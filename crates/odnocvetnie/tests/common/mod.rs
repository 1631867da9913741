//! A slow, obviously-correct reference implementation of the rules, written independently of
//! the crate: plain 10x10 arrays, (file, rank) coordinates, vectors and sets, no bitboards.
#![allow(dead_code)]

use std::collections::BTreeSet;

/// 0 = empty, 1 = man, 2 = damka; `board[file][rank]`, file 0 = a, rank 0 = rank 1.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ref {
    pub board: [[u8; 10]; 10],
    /// 0 South, 1 West, 2 North, 3 East.
    pub side: usize,
    pub lock: Option<(i32, i32)>,
}

/// A move as the reference sees it: start, end, captured squares (sorted), all in numbers.
pub type RefMove = (u8, u8, Vec<u8>);

type Sq = (i32, i32);
/// A complete chain: end square, captured squares, full path.
type Chain = (Sq, Vec<Sq>, Vec<Sq>);

/// The international numbering seen from South: 1 = b10 … 50 = i1.
pub fn number(f: i32, r: i32) -> u8 {
    assert!((f + r) % 2 == 0, "light square");
    (5 * (9 - r) + f / 2 + 1) as u8
}

pub fn coords(n: u8) -> (i32, i32) {
    let i = i32::from(n) - 1;
    let r = 9 - i / 5;
    let f = 2 * (i % 5) + (r % 2);
    (f, r)
}

fn forward(side: usize) -> [(i32, i32); 2] {
    match side {
        0 => [(-1, 1), (1, 1)],
        1 => [(1, 1), (1, -1)],
        2 => [(1, -1), (-1, -1)],
        _ => [(-1, -1), (-1, 1)],
    }
}

fn on_far_edge(side: usize, (f, r): (i32, i32)) -> bool {
    match side {
        0 => r == 9,
        1 => f == 9,
        2 => r == 0,
        _ => f == 0,
    }
}

fn inside(f: i32, r: i32) -> bool {
    (0..10).contains(&f) && (0..10).contains(&r)
}

const ALL_DIRS: [(i32, i32); 4] = [(-1, 1), (1, 1), (1, -1), (-1, -1)];

impl Ref {
    pub fn new(side: usize, men: &[u8], damki: &[u8], lock: Option<u8>) -> Ref {
        let mut board = [[0u8; 10]; 10];
        for &n in men {
            let (f, r) = coords(n);
            board[f as usize][r as usize] = 1;
        }
        for &n in damki {
            let (f, r) = coords(n);
            board[f as usize][r as usize] = 2;
        }
        Ref {
            board,
            side,
            lock: lock.map(coords),
        }
    }

    pub fn start(side: usize) -> Ref {
        let mut men = Vec::new();
        for n in 1..=50u8 {
            let (f, r) = coords(n);
            // the central 4x4 block d4..g7 stays empty
            if !((3..=6).contains(&f) && (3..=6).contains(&r)) {
                men.push(n);
            }
        }
        Ref::new(side, &men, &[], None)
    }

    fn at(&self, (f, r): (i32, i32)) -> u8 {
        self.board[f as usize][r as usize]
    }

    pub fn count(&self) -> usize {
        self.board.iter().flatten().filter(|&&c| c != 0).count()
    }

    /// Every complete capture chain of the piece on `start`, as (end, captured, path).
    fn chains(&self, start: Sq) -> Vec<Chain> {
        let mut out = Vec::new();
        let mut path = vec![start];
        let kind = self.at(start);
        self.chain_rec(
            start,
            start,
            kind,
            None,
            &mut Vec::new(),
            &mut path,
            &mut out,
        );
        out
    }

    fn free(&self, start: (i32, i32), sq: (i32, i32)) -> bool {
        sq == start || self.at(sq) == 0
    }

    #[allow(clippy::too_many_arguments)]
    fn chain_rec(
        &self,
        start: (i32, i32),
        at: (i32, i32),
        kind: u8,
        last: Option<(i32, i32)>,
        captured: &mut Vec<(i32, i32)>,
        path: &mut Vec<(i32, i32)>,
        out: &mut Vec<Chain>,
    ) {
        let mut extended = false;
        if kind == 1 {
            for (df, dr) in forward(self.side) {
                let over = (at.0 + df, at.1 + dr);
                let land = (at.0 + 2 * df, at.1 + 2 * dr);
                if !inside(land.0, land.1) {
                    continue;
                }
                if self.free(start, over) || captured.contains(&over) {
                    continue;
                }
                if !self.free(start, land) {
                    continue;
                }
                extended = true;
                captured.push(over);
                path.push(land);
                self.chain_rec(start, land, kind, Some((df, dr)), captured, path, out);
                path.pop();
                captured.pop();
            }
        } else {
            for (df, dr) in ALL_DIRS {
                if last == Some((-df, -dr)) {
                    continue;
                }
                let mut k = 1;
                while inside(at.0 + k * df, at.1 + k * dr)
                    && self.free(start, (at.0 + k * df, at.1 + k * dr))
                {
                    k += 1;
                }
                let victim = (at.0 + k * df, at.1 + k * dr);
                if !inside(victim.0, victim.1) || captured.contains(&victim) {
                    continue;
                }
                let mut j = 1;
                loop {
                    let land = (victim.0 + j * df, victim.1 + j * dr);
                    if !inside(land.0, land.1) || !self.free(start, land) {
                        break;
                    }
                    extended = true;
                    captured.push(victim);
                    path.push(land);
                    self.chain_rec(start, land, kind, Some((df, dr)), captured, path, out);
                    path.pop();
                    captured.pop();
                    j += 1;
                }
            }
        }
        if !extended && !captured.is_empty() {
            out.push((at, captured.clone(), path.clone()));
        }
    }

    fn pieces(&self) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        for f in 0..10 {
            for r in 0..10 {
                if self.board[f as usize][r as usize] != 0 {
                    v.push((f, r));
                }
            }
        }
        v
    }

    /// All complete chains of every unlocked piece, deduplicated, any size.
    pub fn all_chains(&self) -> BTreeSet<RefMove> {
        let mut set = BTreeSet::new();
        for p in self.pieces() {
            if Some(p) == self.lock {
                continue;
            }
            for (end, caps, _) in self.chains(p) {
                let mut c: Vec<u8> = caps.iter().map(|&(f, r)| number(f, r)).collect();
                c.sort();
                set.insert((number(p.0, p.1), number(end.0, end.1), c));
            }
        }
        set
    }

    /// Every full path (numbers) of every legal move.
    pub fn legal_paths(&self) -> BTreeSet<Vec<u8>> {
        let legal = self.legal();
        let mut out = BTreeSet::new();
        for p in self.pieces() {
            if Some(p) == self.lock {
                continue;
            }
            for (end, caps, path) in self.chains(p) {
                let mut c: Vec<u8> = caps.iter().map(|&(f, r)| number(f, r)).collect();
                c.sort();
                if legal.contains(&(number(p.0, p.1), number(end.0, end.1), c)) {
                    out.insert(path.iter().map(|&(f, r)| number(f, r)).collect());
                }
            }
        }
        if out.is_empty() {
            for (a, b, _) in legal {
                out.insert(vec![a, b]);
            }
        }
        out
    }

    pub fn legal(&self) -> BTreeSet<RefMove> {
        let chains = self.all_chains();
        if let Some(max) = chains.iter().map(|m| m.2.len()).max() {
            return chains.into_iter().filter(|m| m.2.len() == max).collect();
        }
        let mut set = BTreeSet::new();
        for p in self.pieces() {
            if Some(p) == self.lock {
                continue;
            }
            if self.at(p) == 1 {
                for (df, dr) in forward(self.side) {
                    let t = (p.0 + df, p.1 + dr);
                    if inside(t.0, t.1) && self.at(t) == 0 {
                        set.insert((number(p.0, p.1), number(t.0, t.1), vec![]));
                    }
                }
            } else {
                for (df, dr) in ALL_DIRS {
                    let mut t = (p.0 + df, p.1 + dr);
                    while inside(t.0, t.1) && self.at(t) == 0 {
                        set.insert((number(p.0, p.1), number(t.0, t.1), vec![]));
                        t = (t.0 + df, t.1 + dr);
                    }
                }
            }
        }
        set
    }

    pub fn play(&mut self, mv: &RefMove, lock_any_piece: bool) {
        let from = coords(mv.0);
        let to = coords(mv.1);
        let kind = self.at(from);
        self.board[from.0 as usize][from.1 as usize] = 0;
        for &c in &mv.2 {
            let (f, r) = coords(c);
            self.board[f as usize][r as usize] = 0;
        }
        let crowned = kind == 1 && on_far_edge(self.side, to);
        self.board[to.0 as usize][to.1 as usize] = if kind == 1 && !crowned { 1 } else { 2 };
        self.lock = if kind == 1 && (!crowned || lock_any_piece) {
            Some(to)
        } else {
            None
        };
        self.side = (self.side + 1) % 4;
    }

    pub fn perft(&self, depth: u32, lock_any_piece: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut p = self.clone();
                p.play(m, lock_any_piece);
                p.perft(depth - 1, lock_any_piece)
            })
            .sum()
    }

    /// (side, men, damki, lock) numbers.
    pub fn parts(&self) -> (usize, Vec<u8>, Vec<u8>, Option<u8>) {
        let mut men = Vec::new();
        let mut damki = Vec::new();
        for n in 1..=50 {
            match self.at(coords(n)) {
                1 => men.push(n),
                2 => damki.push(n),
                _ => {}
            }
        }
        (self.side, men, damki, self.lock.map(|(f, r)| number(f, r)))
    }
}

/// A small deterministic random generator (xorshift), so tests are reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
