//! Owned games for the tests, borrowed as `GameInput`s.
#![allow(dead_code)]

use game::{GameInfo, Outcome, PlyFacts, Seat};
use stats::{GameInput, Tags};

/// Three games as the registry would describe them (the statistics only read their
/// profiles): the synthetic corpus' own, shared with the benchmark.
#[path = "../../../stats/benches/common/synth.rs"]
mod synth;
pub use synth::{ODNOCVETNIE, TAMA, THAAYAM};

/// Owned tags.
#[derive(Debug, Clone, Default)]
pub struct OwnedTags {
    pub event: Option<String>,
    pub date: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    pub result: Option<String>,
}

#[derive(Debug, Clone)]
pub struct G {
    pub game: Option<&'static GameInfo>,
    pub seats: Vec<u8>,
    pub recorded: Option<Outcome>,
    pub terminal: Option<Outcome>,
    pub plies: u32,
    pub facts: Vec<PlyFacts>,
    pub opening: String,
    pub diagnostics: Vec<(&'static str, bool)>,
    pub tags: OwnedTags,
}

impl G {
    pub fn new(game: Option<&'static GameInfo>, seats: &[u8]) -> Self {
        G {
            game,
            seats: seats.to_vec(),
            recorded: None,
            terminal: None,
            plies: 0,
            facts: Vec::new(),
            opening: String::new(),
            diagnostics: Vec::new(),
            tags: OwnedTags::default(),
        }
    }

    pub fn is(&self, info: &GameInfo) -> bool {
        self.game.is_some_and(|g| g.id == info.id)
    }

    pub fn input(&self) -> GameInput<'_> {
        GameInput {
            game: self.game,
            seats: &self.seats,
            recorded: self.recorded,
            terminal: self.terminal,
            plies: self.plies,
            facts: &self.facts,
            opening: &self.opening,
            line: Default::default(),
            diagnostics: &self.diagnostics,
            tags: Tags {
                event: self.tags.event.as_deref(),
                date: self.tags.date.as_deref(),
                white: self.tags.white.as_deref(),
                black: self.tags.black.as_deref(),
                result: self.tags.result.as_deref(),
            },
        }
    }
}

pub fn win(w: u8, l: Option<u8>) -> Option<Outcome> {
    Some(Outcome::Win {
        winner: Seat(w),
        loser: l.map(Seat),
    })
}

/// A draughts ply.
pub fn ply(mover: u8, squares: &[(u8, u8)], promotion: bool, material: [u8; 2]) -> PlyFacts {
    PlyFacts {
        mover,
        captures: squares.len() as u8,
        capture_squares: squares.into(),
        promotion,
        material: [material[0], material[1], 0, 0],
        ..PlyFacts::default()
    }
}

/// A Thaayam turn.
pub fn turn(mover: u8, throws: &[u8], lost: u8, twins: u8, captures: u8) -> PlyFacts {
    PlyFacts {
        mover,
        throws: throws.into(),
        lost_throws: lost,
        counters: [twins, 0, 0, 0],
        captures,
        ..PlyFacts::default()
    }
}

/// Tama a1 = 0 … h8 = 63.
pub fn sq(name: &str) -> (u8, u8) {
    let b = name.as_bytes();
    (b[0] - b'a', b[1] - b'1')
}

/// The hand-made corpus the expectations of `tests/report.rs` are computed from.
pub fn corpus() -> Vec<G> {
    let mut out = Vec::new();
    let tama_opening = "c3-c4 f6-f5 d3-d4 e6-e5";

    // T1: White wins by rule and as recorded; captures on ply 3 (d5) and ply 5 (e6, c6),
    // promotion on ply 4.
    let mut g = G::new(Some(&TAMA), &[0, 1]);
    g.recorded = win(0, Some(1));
    g.terminal = win(0, Some(1));
    g.plies = 6;
    g.facts = vec![
        ply(0, &[], false, [16, 16]),
        ply(1, &[], false, [16, 16]),
        ply(0, &[sq("d5")], false, [16, 15]),
        ply(1, &[], true, [16, 15]),
        ply(0, &[sq("e6"), sq("c6")], false, [16, 13]),
        ply(1, &[], false, [16, 13]),
    ];
    g.opening = tama_opening.into();
    g.tags.white = Some("Ann".into());
    g.tags.black = Some("Bo".into());
    out.push(g);

    // T2: recorded draw, a warning.
    let mut g = G::new(Some(&TAMA), &[0, 1]);
    g.recorded = Some(Outcome::Draw);
    g.plies = 4;
    g.facts = vec![ply(0, &[], false, [16, 16]); 4];
    g.opening = tama_opening.into();
    g.diagnostics = vec![("bad-tag", false)];
    g.tags.white = Some("Bo".into());
    g.tags.black = Some("Ann".into());
    out.push(g);

    // T3: recorded `*`, replay stopped after 3 of 10 plies at an illegal move.
    let mut g = G::new(Some(&TAMA), &[0, 1]);
    g.recorded = Some(Outcome::Unfinished);
    g.plies = 10;
    g.facts = vec![
        ply(0, &[], false, [16, 16]),
        ply(1, &[sq("a1")], false, [15, 16]),
        ply(0, &[], false, [15, 16]),
    ];
    g.opening = "d3-d4 e6-e5".into();
    g.diagnostics = vec![
        ("illegal-move", true),
        ("illegal-move", true),
        ("bad-tag", false),
    ];
    out.push(g);

    // T4: nothing recorded, Black wins by rule.
    let mut g = G::new(Some(&TAMA), &[0, 1]);
    g.terminal = win(1, Some(0));
    g.plies = 2;
    g.facts = vec![ply(0, &[], false, [12, 14]), ply(1, &[], false, [12, 14])];
    g.opening = tama_opening.into();
    out.push(g);

    // O1: South wins, West loses; captures on squares 1 and 50 (indices 0 and 49).
    let mut g = G::new(Some(&ODNOCVETNIE), &[0, 1, 2, 3]);
    g.recorded = win(0, Some(1));
    g.terminal = win(0, Some(1));
    g.plies = 3;
    g.facts = vec![
        ply(0, &[(1, 9)], false, [39, 0]), // square 1 = b10
        ply(1, &[], false, [39, 0]),
        ply(2, &[(8, 0)], false, [38, 0]), // square 50 = i1
    ];
    g.opening = "32-28 19-23 28x19".into();
    out.push(g);

    // O2: unfinished.
    let mut g = G::new(Some(&ODNOCVETNIE), &[0, 1, 2, 3]);
    g.recorded = Some(Outcome::Unfinished);
    g.plies = 1;
    g.facts = vec![ply(0, &[], false, [40, 0])];
    g.opening = "32-28".into();
    out.push(g);

    // H1: two players South and North; North (second to move) wins.
    let mut g = G::new(Some(&THAAYAM), &[0, 2]);
    g.recorded = win(2, None);
    g.terminal = win(2, None);
    g.plies = 3;
    g.facts = vec![
        turn(0, &[1, 2], 0, 0, 1),
        turn(2, &[3], 0, 1, 0),
        turn(0, &[4, 8, 2], 1, 0, 0),
    ];
    g.opening = "S [1 2] in N [3]".into();
    out.push(g);

    // H2: four players, unfinished.
    let mut g = G::new(Some(&THAAYAM), &[0, 1, 2, 3]);
    g.recorded = Some(Outcome::Unfinished);
    g.plies = 2;
    g.facts = vec![turn(0, &[2], 0, 0, 0), turn(1, &[1, 1, 3], 0, 0, 0)];
    g.opening = "S [2] W [1 1 3] in in".into();
    out.push(g);

    // H3: two players West and East; East (second to move) wins by rule, nothing recorded.
    let mut g = G::new(Some(&THAAYAM), &[1, 3]);
    g.terminal = win(3, None);
    g.plies = 5;
    g.facts = vec![turn(1, &[8, 3], 0, 0, 0)];
    g.opening = "W [8 3]".into();
    out.push(g);

    // Two games of a variant arbiter does not know: only their tags and length count.
    let mut g = G::new(None, &[]);
    g.diagnostics = vec![("unknown-game", false)];
    g.plies = 40;
    g.tags = OwnedTags {
        event: Some("Club cup".into()),
        date: Some("1999.03.04".into()),
        white: Some("Ann".into()),
        black: Some("Bo".into()),
        result: Some("2-0".into()),
    };
    out.push(g);
    let mut g = G::new(None, &[]);
    g.diagnostics = vec![("unknown-game", false)];
    g.plies = 51;
    g.tags = OwnedTags {
        event: Some("Club cup".into()),
        date: Some("2001".into()),
        white: Some("Bo".into()),
        black: Some("Ann".into()),
        result: Some("1-1".into()),
    };
    out.push(g);
    out
}
