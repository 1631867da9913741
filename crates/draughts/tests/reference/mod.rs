//! A slow, independent reference generator: a plain array of squares indexed by (file, rank),
//! directions as coordinate steps, every rule written out directly from the variant's fields.
//! It shares nothing with the crate's generator but the `Variant` description.

use std::collections::BTreeSet;

use draughts::{CaptureRule, Color, KingRange, Movement, PromotionInCapture, Rules};

/// A piece: colour and king flag.
pub type Piece = (Color, bool);

/// A board: `cells[rank][file]`.
#[derive(Clone)]
pub struct Board {
    pub w: i32,
    pub h: i32,
    pub cells: Vec<Vec<Option<Piece>>>,
    pub side: Color,
}

/// A move's result: start, end, captured squares (sorted), promotion.
pub type Outcome = ((i32, i32), (i32, i32), Vec<(i32, i32)>, bool);

struct Chain {
    from: (i32, i32),
    king_start: bool,
    taken: Vec<(i32, i32)>,
    taken_kings: usize,
    /// Italian: one bit per king taken, `1 << (40 - i)` for the `i`th piece taken, so that
    /// the greater mask takes its kings earlier (the first king decides, then the second...).
    king_order: u64,
    end: (i32, i32),
    crowned: bool,
}

impl Board {
    fn get(&self, f: i32, r: i32) -> Option<Option<Piece>> {
        if f < 0 || r < 0 || f >= self.w || r >= self.h {
            None
        } else {
            Some(self.cells[r as usize][f as usize])
        }
    }

    fn crown_rank(&self, c: Color) -> i32 {
        match c {
            Color::White => self.h - 1,
            Color::Black => 0,
        }
    }

    fn forward(&self, c: Color) -> i32 {
        match c {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// Every legal move's result, as a set.
    pub fn legal(&self, rules: &Rules) -> BTreeSet<Outcome> {
        let chains = self.all_chains(rules);
        if chains.is_empty() {
            return self.quiet(rules);
        }
        let key = |c: &Chain| -> (usize, usize, usize, usize) {
            let n = c.taken.len();
            match rules.capture {
                CaptureRule::Free => (0, 0, 0, 0),
                CaptureRule::MajorityCount => (n, 0, 0, 0),
                CaptureRule::MajorityValue => (
                    100 * (n - c.taken_kings) + 199 * c.taken_kings,
                    c.king_start as usize,
                    0,
                    0,
                ),
                CaptureRule::MajorityValueHalf => {
                    (2 * n + c.taken_kings, c.king_start as usize, 0, 0)
                }
                CaptureRule::Italian => (
                    n,
                    c.king_start as usize,
                    c.taken_kings,
                    c.king_order as usize,
                ),
                CaptureRule::CountThenKings => (n, c.taken_kings, 0, 0),
                CaptureRule::KingFirst => (c.king_start as usize, 0, 0, 0),
            }
        };
        let best = chains.iter().map(key).max().unwrap();
        chains
            .iter()
            .filter(|c| key(c) == best)
            .map(|c| {
                let mut t = c.taken.clone();
                t.sort();
                (c.from, c.end, t, c.crowned)
            })
            .collect()
    }

    fn quiet(&self, rules: &Rules) -> BTreeSet<Outcome> {
        let mut out = BTreeSet::new();
        for r in 0..self.h {
            for f in 0..self.w {
                let Some(Some((c, king))) = self.get(f, r) else {
                    continue;
                };
                if c != self.side {
                    continue;
                }
                let steps: Vec<(i32, i32)> = match rules.movement {
                    Movement::Diagonal => vec![(-1, 1), (1, 1), (-1, -1), (1, -1)],
                    Movement::Orthogonal => vec![(0, 1), (0, -1), (-1, 0), (1, 0)],
                };
                for (df, dr) in steps {
                    // Men go forward (and, moving orthogonally, sideways).
                    let back = dr == -self.forward(c);
                    let sideways = dr == 0;
                    if !king && (back || (sideways && rules.movement == Movement::Diagonal)) {
                        continue;
                    }
                    let (mut x, mut y) = (f + df, r + dr);
                    while let Some(None) = self.get(x, y) {
                        let crowned = !king && y == self.crown_rank(c);
                        out.insert(((f, r), (x, y), vec![], crowned));
                        if !king || rules.king == KingRange::Short {
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
        }
        out
    }

    fn all_chains(&self, rules: &Rules) -> Vec<Chain> {
        let mut out = Vec::new();
        for r in 0..self.h {
            for f in 0..self.w {
                let Some(Some((c, king))) = self.get(f, r) else {
                    continue;
                };
                if c != self.side {
                    continue;
                }
                let mut b = self.clone();
                b.cells[r as usize][f as usize] = None;
                let mut chain = Chain {
                    from: (f, r),
                    king_start: king,
                    taken: vec![],
                    taken_kings: 0,
                    king_order: 0,
                    end: (f, r),
                    crowned: false,
                };
                b.jumps(rules, (f, r), king, None, &mut chain, &mut out);
            }
        }
        out
    }

    fn dirs(&self, rules: &Rules, king: bool) -> Vec<(i32, i32)> {
        let mut d = vec![];
        let fwd = self.forward(self.side);
        if rules.movement == Movement::Orthogonal {
            for (df, dr) in [(0, 1), (0, -1), (-1, 0), (1, 0)] {
                if king || dr != -fwd {
                    d.push((df, dr));
                }
            }
            return d;
        }
        for (df, dr) in [(-1, 1), (1, 1), (-1, -1), (1, -1)] {
            if king || rules.men_capture_backwards || rules.orthogonal_captures || dr == fwd {
                d.push((df, dr));
            }
        }
        if rules.orthogonal_captures {
            d.extend([(0, 2), (0, -2), (2, 0), (-2, 0)]);
        }
        d
    }

    fn jumps(
        &self,
        rules: &Rules,
        at: (i32, i32),
        king: bool,
        last: Option<(i32, i32)>,
        chain: &mut Chain,
        out: &mut Vec<Chain>,
    ) {
        let mut any = false;
        let flying = king && rules.king != KingRange::Short;
        // With immediate removal the taken pieces are gone: their squares read as empty.
        let taken_now = chain.taken.clone();
        let get = |x: i32, y: i32| -> Option<Option<Piece>> {
            let v = self.get(x, y)?;
            if rules.immediate_removal && taken_now.contains(&(x, y)) {
                Some(None)
            } else {
                Some(v)
            }
        };
        for (df, dr) in self.dirs(rules, king) {
            if rules.no_turn_back && last == Some((-df, -dr)) {
                continue;
            }
            let (mut x, mut y) = (at.0 + df, at.1 + dr);
            if flying {
                while let Some(None) = get(x, y) {
                    x += df;
                    y += dr;
                }
            }
            let Some(Some((c, vk))) = get(x, y) else {
                continue;
            };
            if c == self.side || chain.taken.contains(&(x, y)) {
                continue;
            }
            if !king && !chain.king_start && vk && !rules.man_takes_king {
                continue;
            }
            // Landing squares; a flying king must take one from which it can capture on, if
            // there is such a square.
            let mut landings = vec![];
            let (mut lx, mut ly) = (x + df, y + dr);
            while let Some(None) = get(lx, ly) {
                landings.push((lx, ly));
                if !flying || rules.king == KingRange::FlyingLandsBehind {
                    break;
                }
                lx += df;
                ly += dr;
            }
            if flying && rules.king == KingRange::Flying {
                chain.taken.push((x, y));
                let goes_on: Vec<bool> = landings
                    .iter()
                    .map(|&l| self.king_has_jump(rules, l, (df, dr), &chain.taken))
                    .collect();
                chain.taken.pop();
                if goes_on.iter().any(|&g| g) {
                    landings = landings
                        .into_iter()
                        .zip(goes_on)
                        .filter(|&(_, g)| g)
                        .map(|(l, _)| l)
                        .collect();
                }
            }
            for (lx, ly) in landings {
                any = true;
                chain.taken.push((x, y));
                if vk {
                    chain.taken_kings += 1;
                    chain.king_order |= 1 << (40 - (chain.taken.len() - 1));
                }
                let reaches = !king && ly == self.crown_rank(self.side);
                if reaches && rules.promotion == PromotionInCapture::EndsMove {
                    out.push(Chain {
                        from: chain.from,
                        king_start: chain.king_start,
                        taken: chain.taken.clone(),
                        taken_kings: chain.taken_kings,
                        king_order: chain.king_order,
                        end: (lx, ly),
                        crowned: true,
                    });
                } else {
                    let as_king =
                        king || (reaches && rules.promotion == PromotionInCapture::ContinueAsKing);
                    self.jumps(rules, (lx, ly), as_king, Some((df, dr)), chain, out);
                }
                chain.taken.pop();
                if vk {
                    chain.taken_kings -= 1;
                    chain.king_order &= !(1 << (40 - chain.taken.len()));
                }
            }
        }
        if !any && !chain.taken.is_empty() {
            let crowned = !chain.king_start && (king || at.1 == self.crown_rank(self.side));
            out.push(Chain {
                from: chain.from,
                king_start: chain.king_start,
                taken: chain.taken.clone(),
                taken_kings: chain.taken_kings,
                king_order: chain.king_order,
                end: at,
                crowned,
            });
        }
    }
}

impl Board {
    /// Whether a king on `at`, having come along `came`, can jump again (`taken` already
    /// captured).
    fn king_has_jump(
        &self,
        rules: &Rules,
        at: (i32, i32),
        came: (i32, i32),
        taken: &[(i32, i32)],
    ) -> bool {
        let get = |x: i32, y: i32| -> Option<Option<Piece>> {
            let v = self.get(x, y)?;
            if rules.immediate_removal && taken.contains(&(x, y)) {
                Some(None)
            } else {
                Some(v)
            }
        };
        for (df, dr) in self.dirs(rules, true) {
            if rules.no_turn_back && (df, dr) == (-came.0, -came.1) {
                continue;
            }
            let (mut x, mut y) = (at.0 + df, at.1 + dr);
            while let Some(None) = get(x, y) {
                x += df;
                y += dr;
            }
            let Some(Some((c, _))) = get(x, y) else {
                continue;
            };
            if c == self.side || taken.contains(&(x, y)) {
                continue;
            }
            if let Some(None) = get(x + df, y + dr) {
                return true;
            }
        }
        false
    }

    /// The board after a move given by its result.
    pub fn after(&self, o: &Outcome) -> Board {
        let mut b = self.clone();
        let ((ff, fr), (tf, tr), taken, crowned) = o;
        let (c, king) = b.cells[*fr as usize][*ff as usize]
            .take()
            .expect("a piece moves");
        for &(x, y) in taken {
            b.cells[y as usize][x as usize] = None;
        }
        b.cells[*tr as usize][*tf as usize] = Some((c, king || *crowned));
        b.side = match b.side {
            Color::White => Color::Black,
            Color::Black => Color::White,
        };
        b
    }

    /// perft, counting each distinct result once.
    pub fn perft(&self, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal(rules);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|o| self.after(o).perft(rules, depth - 1))
            .sum()
    }
}
