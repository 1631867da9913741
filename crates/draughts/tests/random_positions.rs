//! The crate's generator against the independent reference generator (tests/reference), on
//! random positions of every variant: the same set of legal moves (start, end, captured
//! pieces, promotion) in each.

mod reference;

use std::collections::BTreeSet;

use draughts::{Color, Draughts, Geometry, Position, VARIANTS};
use reference::{Board, Outcome};

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

/// A random position: each square empty or holding a man or king of either colour; men never
/// on the row where they would be crowned.
fn random_position(d: &Draughts, rng: &mut Lcg, density: u32) -> (Position, Board) {
    let g: &Geometry = d.geometry;
    let (w, h) = (g.width as i32, g.height as i32);
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut pos = Position::empty(side);
    let mut board = Board {
        w,
        h,
        cells: vec![vec![None; w as usize]; h as usize],
        side,
    };
    for r in 0..h {
        for f in 0..w {
            let Some(b) = g.at(f as u8, r as u8) else {
                continue;
            };
            if rng.below(100) >= density {
                continue;
            }
            let c = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let crown = match c {
                Color::White => h - 1,
                Color::Black => 0,
            };
            let king = r == crown || rng.below(4) == 0;
            if king {
                pos.kings[c.index()] |= 1u128 << b;
            } else {
                pos.men[c.index()] |= 1u128 << b;
            }
            board.cells[r as usize][f as usize] = Some((c, king));
        }
    }
    (pos, board)
}

fn crate_moves(d: &Draughts, pos: &Position) -> BTreeSet<Outcome> {
    let g = d.geometry;
    let c = |b| {
        let (f, r) = g.coords(b);
        (f as i32, r as i32)
    };
    d.legal_moves(pos)
        .iter()
        .map(|m| {
            let mut taken: Vec<(i32, i32)> = m.taken().iter().map(|&b| c(b)).collect();
            taken.sort();
            (c(m.from()), c(m.to()), taken, m.is_promotion())
        })
        .collect()
}

#[test]
fn generator_agrees_with_reference_on_random_positions() {
    let per_variant = if cfg!(debug_assertions) { 300 } else { 5000 };
    // Every variant with its default rules, then with each ruleset option.
    let setups = VARIANTS.iter().flat_map(|v| {
        std::iter::once(Draughts::new(v)).chain(
            v.options
                .iter()
                .map(move |o| Draughts::with_options(v, o.name).expect("own option")),
        )
    });
    for d in setups {
        let v = d.variant;
        let rules = d.rules;
        let mut rng = Lcg(0x9e37_79b9_7f4a_7c15 ^ u64::from(v.game_type));
        for i in 0..per_variant {
            let density = [15, 30, 45][i % 3];
            let (pos, board) = random_position(&d, &mut rng, density);
            let mine = crate_moves(&d, &pos);
            let theirs = board.legal(&rules);
            assert_eq!(mine, theirs, "{}: {}", v.id, pos.to_fen(d.geometry, true));
            // (English perft keeps duplicate chains apart, the reference merges them.)
            if i % 25 == 0 && rules.perft_merges_duplicates {
                // Playing moves too: perft with kings on the board.
                let b = to_board(&d, &pos);
                assert_eq!(
                    d.perft(&pos, 3),
                    b.perft(&rules, 3),
                    "{} perft 3: {}",
                    v.id,
                    pos.to_fen(d.geometry, true)
                );
            }
        }
    }
}

/// The board of a crate position, for the reference.
fn to_board(d: &Draughts, pos: &Position) -> Board {
    let g = d.geometry;
    let (w, h) = (g.width as i32, g.height as i32);
    let mut board = Board {
        w,
        h,
        cells: vec![vec![None; w as usize]; h as usize],
        side: pos.side,
    };
    for c in [Color::White, Color::Black] {
        for (bits, king) in [(pos.men[c.index()], false), (pos.kings[c.index()], true)] {
            for b in Geometry::squares(bits) {
                let (f, r) = g.coords(b);
                board.cells[r as usize][f as usize] = Some((c, king));
            }
        }
    }
    board
}

#[test]
fn start_perft_agrees_with_reference() {
    // English keeps duplicate chains apart in perft, the reference merges them; none occur
    // this early.
    let depth = if cfg!(debug_assertions) { 4 } else { 6 };
    for v in VARIANTS {
        let d = Draughts::new(v);
        let pos = d.start();
        let b = to_board(&d, &pos);
        assert_eq!(d.perft(&pos, depth), b.perft(&d.rules, depth), "{}", v.id);
    }
}
