//! Synthetic games with plausible facts, for the benchmark and the demo report. Shared through
//! `#[path]` so it is not part of the library.
#![allow(dead_code)]

use game::{BoardShape, BoardStyle, Chance, GameInfo, Outcome, PlyFacts, Profile, Seat};
use stats::{GameInput, Tags};

const fn info(
    id: &'static str,
    label: &'static str,
    seat_names: &'static [&'static str],
    profile: Profile,
) -> GameInfo {
    GameInfo {
        id,
        label,
        variant_tag: label,
        aliases: &[],
        game_types: &[],
        options: &[],
        seat_names,
        numeric_squares: true,
        profile,
        claims: &[],
    }
}

const fn board(files: u8, ranks: u8, style: BoardStyle) -> BoardShape {
    BoardShape {
        files,
        ranks,
        style,
    }
}

/// The synthetic corpus' games, as a registry would describe them.
pub static TAMA: GameInfo = info(
    "tama",
    "Tama",
    &["White", "Black"],
    Profile {
        two_sides: true,
        shared_pieces: false,
        chance: None,
        board: board(8, 8, BoardStyle::Checkered),
    },
);
pub static ODNOCVETNIE: GameInfo = info(
    "odnocvetnie",
    "Odnocvetnie Shashki",
    &["South", "West", "North", "East"],
    Profile {
        two_sides: false,
        shared_pieces: true,
        chance: None,
        board: board(10, 10, BoardStyle::DarkOnly),
    },
);
static COWRIES: Chance = Chance {
    name: "throw",
    values: &[1, 2, 3, 4, 8],
    probabilities: &[4.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0, 1.0 / 16.0],
};
pub static THAAYAM: GameInfo = info(
    "thaayam",
    "Thaayam",
    &["South", "West", "North", "East"],
    Profile {
        two_sides: false,
        shared_pieces: false,
        chance: Some(&COWRIES),
        board: board(5, 5, BoardStyle::Plain),
    },
);

/// SplitMix64: small, fast, good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }

    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    /// Index drawn with the given weights.
    pub fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
        }
        weights.len() - 1
    }
}

/// An owned synthetic game.
pub struct SynthGame {
    pub game: Option<&'static GameInfo>,
    pub seats: Vec<u8>,
    pub recorded: Option<Outcome>,
    pub terminal: Option<Outcome>,
    pub plies: u32,
    pub facts: Vec<PlyFacts>,
    pub opening: String,
    pub diagnostics: Vec<(&'static str, bool)>,
    /// Event, date, White, Black, Result.
    pub tags: [Option<String>; 5],
}

impl SynthGame {
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
                event: self.tags[0].as_deref(),
                date: self.tags[1].as_deref(),
                white: self.tags[2].as_deref(),
                black: self.tags[3].as_deref(),
                result: self.tags[4].as_deref(),
            },
        }
    }
}

/// Tags of a game: a player pool of a few hundred names (a few play most games), a dozen
/// events, dates over twenty years, the result written as White's and Black's score.
fn tags(rng: &mut Rng, result: Option<Outcome>) -> [Option<String>; 5] {
    let player = |rng: &mut Rng| Some(format!("Player {:03}", central(rng, 400)));
    let event = format!("Event {}", rng.below(12));
    let date = format!(
        "{}.{:02}.{:02}",
        2004 + rng.below(20),
        1 + rng.below(12),
        1 + rng.below(28)
    );
    let result = match result {
        Some(Outcome::Win { winner, .. }) if winner.0 == 0 => "2-0",
        Some(Outcome::Win { .. }) => "0-2",
        Some(Outcome::Draw) => "1-1",
        _ => "*",
    };
    [
        Some(event),
        (!rng.chance(0.05)).then_some(date),
        player(rng),
        player(rng),
        Some(result.to_string()),
    ]
}

fn win(w: u8, l: Option<u8>) -> Option<Outcome> {
    Some(Outcome::Win {
        winner: Seat(w),
        loser: l.map(Seat),
    })
}

/// Diagnostics of a game: mostly clean, some warnings, some errors (the replay then stops
/// somewhere in the game).
fn diagnostics(rng: &mut Rng, errors: &[&'static str]) -> Vec<(&'static str, bool)> {
    let mut d = Vec::new();
    if rng.chance(0.07) {
        d.push(("bad-tag", false));
    }
    if rng.chance(0.09) {
        let code = errors[rng.weighted(&[6, 3, 2, 1, 1][..errors.len().min(5)])];
        d.push((code, true));
        if rng.chance(0.2) {
            d.push((code, true));
        }
    }
    d
}

/// A square index biased towards the middle of a `files` × `ranks` board.
fn central(rng: &mut Rng, n: u64) -> u64 {
    (rng.below(n) + rng.below(n) + rng.below(n)) / 3
}

fn tama(rng: &mut Rng) -> SynthGame {
    const WHITE: [&str; 6] = ["c3-c4", "d3-d4", "e3-e4", "f3-f4", "b3-b4", "g3-g4"];
    const BLACK: [&str; 6] = ["f6-f5", "e6-e5", "d6-d5", "c6-c5", "g6-g5", "b6-b5"];
    let opening = format!(
        "{} {} {} {}",
        WHITE[rng.weighted(&[30, 25, 20, 12, 8, 5])],
        BLACK[rng.weighted(&[30, 25, 20, 12, 8, 5])],
        WHITE[rng.weighted(&[10, 30, 25, 20, 8, 7])],
        BLACK[rng.weighted(&[10, 30, 25, 20, 8, 7])]
    );
    let plies = 30 + rng.below(60) as u32 + rng.below(60) as u32;
    let mut material = [16u8, 16u8];
    let mut facts = Vec::with_capacity(plies as usize);
    let mut terminal = None;
    for i in 0..plies {
        let mover = (i % 2) as u8;
        let other = 1 - mover as usize;
        let mut f = PlyFacts {
            mover,
            ..PlyFacts::default()
        };
        if i > 4 && rng.chance(0.22) {
            let n = 1 + rng.weighted(&[70, 20, 7, 2, 1]) as u8;
            let n = n.min(material[other]);
            f.captures = n;
            for _ in 0..n {
                let file = central(rng, 8);
                let rank = 1 + central(rng, 6);
                f.capture_squares.push((file as u8, rank as u8));
            }
            material[other] -= n;
        }
        f.promotion = i > 24 && rng.chance(0.03);
        f.material = [material[0], material[1], 0, 0];
        facts.push(f);
        if material[other] == 0 {
            terminal = win(mover, Some(other as u8));
            break;
        }
    }
    let plies = facts.len() as u32;
    let recorded = match terminal {
        Some(t) => Some(t),
        None => match rng.weighted(&[38, 34, 22, 6]) {
            0 => win(0, Some(1)),
            1 => win(1, Some(0)),
            2 => Some(Outcome::Draw),
            _ => Some(Outcome::Unfinished),
        },
    };
    let diagnostics = diagnostics(
        rng,
        &[
            "illegal-move",
            "missed-capture",
            "non-maximal-capture",
            "result-mismatch",
            "syntax",
        ],
    );
    if diagnostics.iter().any(|d| d.1) {
        let keep = rng.below(u64::from(plies) + 1) as usize;
        facts.truncate(keep);
    }
    SynthGame {
        game: Some(&TAMA),
        seats: vec![0, 1],
        recorded,
        terminal,
        plies,
        facts,
        opening,
        diagnostics,
        tags: tags(rng, recorded),
    }
}

fn odnocvetnie(rng: &mut Rng) -> SynthGame {
    const FIRST: [&str; 5] = ["32-28", "33-29", "31-27", "34-30", "35-30"];
    const SECOND: [&str; 5] = ["16-21", "15-20", "6-11", "26-22", "25-24"];
    let opening = format!(
        "{} {} {} {}",
        FIRST[rng.weighted(&[40, 30, 15, 10, 5])],
        SECOND[rng.weighted(&[40, 30, 15, 10, 5])],
        FIRST[rng.weighted(&[5, 10, 15, 30, 40])],
        SECOND[rng.weighted(&[5, 10, 15, 30, 40])]
    );
    let plies = 60 + rng.below(140) as u32 + rng.below(200) as u32;
    let mut material = 40u8;
    let mut facts = Vec::with_capacity(plies as usize);
    for i in 0..plies {
        let mut f = PlyFacts {
            mover: (i % 4) as u8,
            ..PlyFacts::default()
        };
        if i > 6 && material > 6 && rng.chance(0.07) {
            let n = (1 + rng.weighted(&[60, 25, 10, 4, 1]) as u8).min(material - 6);
            f.captures = n;
            for _ in 0..n {
                let n = central(rng, 50) as u8;
                let rank = 9 - n / 5;
                f.capture_squares.push((2 * (n % 5) + rank % 2, rank));
            }
            material -= n;
        }
        f.promotion = i > 40 && rng.chance(0.015);
        f.material = [material, 0, 0, 0];
        facts.push(f);
    }
    let (recorded, terminal) = if rng.chance(0.35) {
        let w = rng.below(4) as u8;
        let l = (w + 1 + rng.below(3) as u8) % 4;
        (win(w, Some(l)), win(w, Some(l)))
    } else if rng.chance(0.15) {
        (Some(Outcome::Draw), None)
    } else {
        (Some(Outcome::Unfinished), None)
    };
    let diagnostics = diagnostics(
        rng,
        &[
            "locked-piece",
            "illegal-move",
            "missed-capture",
            "ambiguous-move",
            "syntax",
        ],
    );
    if diagnostics.iter().any(|d| d.1) {
        let keep = rng.below(u64::from(plies) + 1) as usize;
        facts.truncate(keep);
    }
    SynthGame {
        game: Some(&ODNOCVETNIE),
        seats: vec![0, 1, 2, 3],
        recorded,
        terminal,
        plies,
        facts,
        opening,
        diagnostics,
        tags: [None, None, None, None, None],
    }
}

/// One throw of four fair cowries.
fn throw(rng: &mut Rng) -> u8 {
    [1, 2, 3, 4, 8][rng.weighted(&[4, 6, 4, 1, 1])]
}

fn thaayam(rng: &mut Rng) -> SynthGame {
    let seats: Vec<u8> = match rng.weighted(&[50, 15, 35]) {
        0 => vec![0, 2],
        1 => vec![0, 1, 2],
        _ => vec![0, 1, 2, 3],
    };
    let turns = 40 + rng.below(90) as u32 + rng.below(90) as u32;
    let letters = ["S", "W", "N", "E"];
    let mut facts = Vec::with_capacity(turns as usize);
    let mut opening = Vec::new();
    for i in 0..turns {
        let mover = seats[i as usize % seats.len()];
        let mut f = PlyFacts {
            mover,
            ..PlyFacts::default()
        };
        let mut series = 1;
        while series > 0 {
            series -= 1;
            loop {
                let t = throw(rng);
                f.throws.push(t);
                if t == 2 || t == 3 {
                    break;
                }
            }
            if rng.chance(0.08) {
                f.captures += 1;
                series += 1;
            }
        }
        f.lost_throws = f.throws.iter().filter(|_| rng.chance(0.07)).count() as u8;
        f.twins_formed = u8::from(i > 20 && rng.chance(0.012));
        if i < 4 {
            let ts: Vec<String> = f.throws.iter().map(|t| t.to_string()).collect();
            opening.push(format!(
                "{} [{}]",
                letters[usize::from(mover)],
                ts.join(" ")
            ));
        }
        facts.push(f);
    }
    let (recorded, terminal) = if rng.chance(0.85) {
        // A slight advantage for the first to move.
        let mut w = vec![10u64; seats.len()];
        w[0] = 13;
        let winner = seats[rng.weighted(&w)];
        (win(winner, None), win(winner, None))
    } else {
        (Some(Outcome::Unfinished), None)
    };
    let diagnostics = diagnostics(
        rng,
        &[
            "unused-throw",
            "bad-throw-series",
            "illegal-move",
            "syntax",
            "result-mismatch",
        ],
    );
    if diagnostics.iter().any(|d| d.1) {
        let keep = rng.below(u64::from(turns) + 1) as usize;
        facts.truncate(keep);
    }
    SynthGame {
        game: Some(&THAAYAM),
        seats,
        recorded,
        terminal,
        plies: turns,
        facts,
        opening: opening.join(" "),
        diagnostics,
        tags: [None, None, None, None, None],
    }
}

/// A game of a random kind: 45% Tama, 25% Odnocvetnie, 28% Thaayam, 2% unknown.
pub fn game(rng: &mut Rng) -> SynthGame {
    match rng.weighted(&[45, 25, 28, 2]) {
        0 => tama(rng),
        1 => odnocvetnie(rng),
        2 => thaayam(rng),
        _ => {
            let result = match rng.weighted(&[4, 3, 3]) {
                0 => win(0, Some(1)),
                1 => win(1, Some(0)),
                _ => Some(Outcome::Draw),
            };
            SynthGame {
                game: None,
                seats: Vec::new(),
                recorded: None,
                terminal: None,
                plies: 40 + rng.below(80) as u32,
                facts: Vec::new(),
                opening: String::new(),
                diagnostics: vec![("unknown-game", false)],
                tags: tags(rng, result),
            }
        }
    }
}
