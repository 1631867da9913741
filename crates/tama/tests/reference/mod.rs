//! A slow, obviously-correct Tama move generator on a plain array, written independently of
//! the crate's bitboard generator and used to cross-check it.
//!
//! Board: `[i8; 64]`, index = rank * 8 + file; 1 white man, 2 white king, -1 black man,
//! -2 black king, 0 empty. `side` is 1 for White, -1 for Black.

#![allow(dead_code)]

use std::collections::BTreeSet;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    pub cells: [i8; 64],
    pub side: i8,
}

/// A move as (from, landing squares, captured squares, promoted).
#[derive(Clone, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub struct RefMove {
    pub from: usize,
    pub path: Vec<usize>,
    pub captured: Vec<usize>,
    pub promoted: bool,
}

impl RefMove {
    pub fn to(&self) -> usize {
        *self.path.last().unwrap()
    }
    /// What makes two moves lead to the same position.
    pub fn key(&self) -> (usize, usize, Vec<usize>, bool) {
        let mut c = self.captured.clone();
        c.sort();
        (self.from, self.to(), c, self.promoted)
    }
    pub fn text(&self) -> String {
        let name = |s: usize| format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1);
        let mut t = name(self.from);
        let sep = if self.captured.is_empty() { "-" } else { "x" };
        for p in &self.path {
            t.push_str(sep);
            t.push_str(&name(*p));
        }
        t
    }
}

fn on(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn idx(f: i32, r: i32) -> usize {
    (r * 8 + f) as usize
}

impl Board {
    /// Parses `W:Wa2,Kd4:Bc7` (algebraic only, as written in the tests).
    pub fn from_fen(fen: &str) -> Board {
        let mut cells = [0i8; 64];
        let mut parts = fen.split(':');
        let side = if parts.next().unwrap().trim() == "W" {
            1
        } else {
            -1
        };
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let colour = if part.starts_with('W') { 1 } else { -1 };
            for item in part[1..].split(',').filter(|s| !s.is_empty()) {
                let (king, sq) = match item.strip_prefix('K') {
                    Some(s) => (true, s),
                    None => (false, item),
                };
                let b = sq.as_bytes();
                let i = idx((b[0] - b'a') as i32, (b[1] - b'1') as i32);
                cells[i] = colour * if king { 2 } else { 1 };
            }
        }
        Board { cells, side }
    }

    pub fn start() -> Board {
        let mut cells = [0i8; 64];
        cells[8..24].fill(1);
        cells[40..56].fill(-1);
        Board { cells, side: 1 }
    }

    fn far_rank(&self) -> i32 {
        if self.side == 1 {
            7
        } else {
            0
        }
    }

    /// Quiet moves (rules 4 and 6), ignoring whether a capture is compulsory.
    pub fn quiet(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        for from in 0..64 {
            let p = self.cells[from];
            if p * self.side <= 0 {
                continue;
            }
            let (f, r) = ((from % 8) as i32, (from / 8) as i32);
            if p.abs() == 1 {
                let fw = self.side as i32;
                for (df, dr) in [(0, fw), (1, fw), (-1, fw), (1, 0), (-1, 0)] {
                    let (nf, nr) = (f + df, r + dr);
                    if on(nf, nr) && self.cells[idx(nf, nr)] == 0 {
                        out.push(RefMove {
                            from,
                            path: vec![idx(nf, nr)],
                            captured: vec![],
                            promoted: nr == self.far_rank(),
                        });
                    }
                }
            } else {
                for df in -1..=1 {
                    for dr in -1..=1 {
                        if df == 0 && dr == 0 {
                            continue;
                        }
                        let (mut nf, mut nr) = (f + df, r + dr);
                        while on(nf, nr) && self.cells[idx(nf, nr)] == 0 {
                            out.push(RefMove {
                                from,
                                path: vec![idx(nf, nr)],
                                captured: vec![],
                                promoted: false,
                            });
                            nf += df;
                            nr += dr;
                        }
                    }
                }
            }
        }
        out
    }

    /// Every complete capture chain of every piece (before the majority rule).
    pub fn chains(&self, ludii: bool) -> Vec<RefMove> {
        let mut out = Vec::new();
        for from in 0..64 {
            let p = self.cells[from];
            if p * self.side <= 0 {
                continue;
            }
            let mut cells = self.cells;
            cells[from] = 0; // the start square is empty once the piece has left it
            let mut path = Vec::new();
            let mut captured = Vec::new();
            self.extend(
                &mut cells,
                from,
                from,
                p.abs() == 2,
                false,
                None,
                ludii,
                &mut path,
                &mut captured,
                &mut out,
            );
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        cells: &mut [i8; 64],
        from: usize,
        at: usize,
        king: bool,
        promoted: bool,
        last: Option<(i32, i32)>,
        ludii: bool,
        path: &mut Vec<usize>,
        captured: &mut Vec<usize>,
        out: &mut Vec<RefMove>,
    ) {
        let (f, r) = ((at % 8) as i32, (at / 8) as i32);
        let fw = self.side as i32;
        let dirs: Vec<(i32, i32)> = if king {
            vec![(0, 1), (0, -1), (1, 0), (-1, 0)]
        } else {
            vec![(0, fw), (1, 0), (-1, 0)]
        };
        let mut any = false;
        for (df, dr) in dirs {
            if let Some((lf, lr)) = last {
                if lf == -df && lr == -dr {
                    continue; // no 180° turn
                }
            }
            // Find the victim and the landing squares.
            let mut victim = None;
            let mut landings = Vec::new();
            if king {
                let (mut nf, mut nr) = (f + df, r + dr);
                while on(nf, nr) && cells[idx(nf, nr)] == 0 {
                    nf += df;
                    nr += dr;
                }
                if on(nf, nr) && cells[idx(nf, nr)] * self.side < 0 {
                    victim = Some(idx(nf, nr));
                    let (mut lf, mut lr) = (nf + df, nr + dr);
                    while on(lf, lr) && cells[idx(lf, lr)] == 0 {
                        landings.push(idx(lf, lr));
                        lf += df;
                        lr += dr;
                    }
                }
            } else {
                let (mf, mr, lf, lr) = (f + df, r + dr, f + 2 * df, r + 2 * dr);
                if on(lf, lr) && cells[idx(mf, mr)] * self.side < 0 && cells[idx(lf, lr)] == 0 {
                    victim = Some(idx(mf, mr));
                    landings.push(idx(lf, lr));
                }
            }
            let Some(v) = victim else { continue };
            for l in landings {
                any = true;
                let saved = cells[v];
                cells[v] = 0; // removed at once
                path.push(l);
                captured.push(v);
                let reached = !king && (l / 8) as i32 == self.far_rank();
                let (next_king, next_promoted) = if reached && !ludii {
                    (true, true)
                } else {
                    (king, promoted || reached)
                };
                self.extend(
                    cells,
                    from,
                    l,
                    next_king,
                    next_promoted,
                    Some((df, dr)),
                    ludii,
                    path,
                    captured,
                    out,
                );
                path.pop();
                captured.pop();
                cells[v] = saved;
            }
        }
        if !any && !path.is_empty() {
            out.push(RefMove {
                from,
                path: path.clone(),
                captured: captured.clone(),
                promoted,
            });
        }
    }

    /// Legal moves: maximal chains if any capture exists, else quiet moves.
    pub fn legal(&self, ludii: bool) -> Vec<RefMove> {
        let chains = self.chains(ludii);
        if chains.is_empty() {
            return self.quiet();
        }
        let max = chains.iter().map(|c| c.captured.len()).max().unwrap();
        chains
            .into_iter()
            .filter(|c| c.captured.len() == max)
            .collect()
    }

    /// One move per resulting position.
    pub fn distinct(&self, ludii: bool) -> Vec<RefMove> {
        let mut seen = BTreeSet::new();
        self.legal(ludii)
            .into_iter()
            .filter(|m| seen.insert(m.key()))
            .collect()
    }

    pub fn play(&self, m: &RefMove) -> Board {
        let mut b = self.clone();
        let p = b.cells[m.from];
        b.cells[m.from] = 0;
        for c in &m.captured {
            b.cells[*c] = 0;
        }
        b.cells[m.to()] = if m.promoted { 2 * self.side } else { p };
        b.side = -self.side;
        b
    }

    pub fn perft(&self, depth: u32, ludii: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.distinct(ludii);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| self.play(m).perft(depth - 1, ludii))
            .sum()
    }

    pub fn fen(&self) -> String {
        let name = |s: usize| format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1);
        let list = |colour: i8| {
            (0..64)
                .filter(|&i| self.cells[i] * colour > 0)
                .map(|i| {
                    if self.cells[i].abs() == 2 {
                        format!("K{}", name(i))
                    } else {
                        name(i)
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{}:W{}:B{}",
            if self.side == 1 { "W" } else { "B" },
            list(1),
            list(-1)
        )
    }
}
