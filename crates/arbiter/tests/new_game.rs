//! The contract's proof: a game defined here, which no shared crate knows, goes through the
//! library behind `validate` (the referee), `convert` (rewrites and the plies of
//! `--positions`), `stats` and `export`, with its own diagnostic code and its own counter,
//! from a registry built here. docs/architecture.md walks through it.
//!
//! The game: a one-track race. Two seats (South, North) each have one piece on a track of
//! squares a1..h1, both starting on a1; a move takes the mover's piece 1 to 3 squares on
//! (`c1-e1`, or just the square reached, `e1`); landing on the other piece sends it back to
//! a1 (a hit); the first to land exactly on h1 wins (`S+`, `N+`). Moving past h1 is a
//! problem of this game's own: `past-the-end`.

use game::{
    Board, BoardPiece, BoardShape, BoardStyle, Code, CodeInfo, Counter, Explore, Game, GameInfo,
    MoveInfo, Notation, Outcome, PlyFacts, Problem, Profile, Seat,
};
use referee::{Referee, Settings};

const END: u8 = 7;
const SEATS: [&str; 2] = ["South", "North"];

/// The race's own diagnostic code.
const PAST_THE_END: Code = Code::Game(&CodeInfo {
    name: "past-the-end",
    help: "Race: a move that would carry the piece beyond the last square",
    suggested: None,
});

/// The slot of `PlyFacts::counters` for hits.
const HITS: usize = 0;

static RACE: GameInfo = GameInfo {
    id: "race",
    label: "Race",
    variant_tag: "Race",
    aliases: &["One-track race"],
    game_types: &[],
    options: &[],
    seat_names: &SEATS,
    numeric_squares: false,
    profile: Profile {
        two_sides: false,
        shared_pieces: false,
        chance: None,
        counters: &[Counter {
            id: "hits",
            noun: "hits",
            title: "Hits per game",
            axis: "pieces sent back in the game",
            caption: "Pieces sent back to a1, per game.",
            row: "Hits per game",
        }],
        board: BoardShape {
            files: END + 1,
            ranks: 1,
            style: BoardStyle::Plain,
        },
    },
    codes: &[PAST_THE_END],
    claims: &[],
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pos {
    at: [u8; 2],
    to_move: u8,
}

/// A move: from where to where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Step {
    from: u8,
    to: u8,
}

struct Race;

fn square_name(i: u8) -> String {
    format!("{}1", char::from(b'a' + i))
}

fn square(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [f @ b'a'..=b'z', b'1'] => Some(f - b'a'),
        _ => None,
    }
}

impl Game for Race {
    type Position = Pos;
    type Move = Step;

    fn name(&self) -> &'static str {
        "Race"
    }
    fn seat_names(&self) -> &'static [&'static str] {
        &SEATS
    }
    fn start_position(&self, _: &dyn Fn(&str) -> Option<String>) -> Result<Pos, Problem> {
        Ok(Pos {
            at: [0, 0],
            to_move: 0,
        })
    }
    fn parse_position(&self, text: &str) -> Result<Pos, Problem> {
        let bad = || Problem::new(Code::BadFen, format!("not a race position: {text}"));
        let v: Vec<u8> = text
            .split(',')
            .map(|p| p.trim().parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        match v[..] {
            [a, b, m] if a <= END && b <= END && m < 2 => Ok(Pos {
                at: [a, b],
                to_move: m,
            }),
            _ => Err(bad()),
        }
    }
    fn write_position(&self, pos: &Pos) -> String {
        format!("{},{},{}", pos.at[0], pos.at[1], pos.to_move)
    }
    fn to_move(&self, pos: &Pos) -> Seat {
        Seat(pos.to_move)
    }
    fn resolve(&self, pos: &Pos, tokens: &[&[u8]]) -> Result<Step, Problem> {
        let illegal = |m: String| Problem::new(Code::IllegalMove, m);
        if self.terminal(pos).is_some() {
            return Err(Problem::new(Code::ResultMismatch, "the race is over"));
        }
        let [token] = tokens else {
            return Err(illegal("a move is one token".into()));
        };
        let text = std::str::from_utf8(token).unwrap_or("");
        let here = pos.at[usize::from(pos.to_move)];
        let (from, to) = match text.split_once('-') {
            Some((a, b)) => (square(a), square(b)),
            None => (Some(here), square(text)),
        };
        let (Some(from), Some(to)) = (from, to) else {
            return Err(illegal(format!(
                "`{text}` is not a move (e.g. c1-e1 or e1)"
            )));
        };
        if from != here {
            return Err(illegal(format!(
                "{} has no piece on {}: it stands on {}",
                SEATS[usize::from(pos.to_move)],
                square_name(from),
                square_name(here)
            )));
        }
        if !(1..=3).contains(&to.wrapping_sub(from)) {
            return Err(illegal(format!("{text}: a piece moves 1 to 3 squares on")));
        }
        if to > END {
            return Err(Problem::new(
                PAST_THE_END,
                format!("{text} goes past h1, the last square"),
            ));
        }
        Ok(Step { from, to })
    }
    fn play(&self, pos: &mut Pos, mv: &Step) {
        let me = usize::from(pos.to_move);
        pos.at[me] = mv.to;
        if pos.at[1 - me] == mv.to && mv.to < END {
            pos.at[1 - me] = 0;
        }
        pos.to_move = 1 - pos.to_move;
    }
    fn terminal(&self, pos: &Pos) -> Option<Outcome> {
        (0..2).find(|&s| pos.at[s] == END).map(|s| Outcome::Win {
            winner: Seat(s as u8),
            loser: Some(Seat(1 - s as u8)),
        })
    }
    fn parse_result(&self, text: &str) -> Option<Outcome> {
        let win = |s: u8| Outcome::Win {
            winner: Seat(s),
            loser: Some(Seat(1 - s)),
        };
        match text {
            "S+" => Some(win(0)),
            "N+" => Some(win(1)),
            "*" => Some(Outcome::Unfinished),
            _ => None,
        }
    }
    fn write_result(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Win {
                winner: Seat(0), ..
            } => "S+".into(),
            Outcome::Win { .. } => "N+".into(),
            _ => "*".into(),
        }
    }
    fn write_move(&self, _: &Pos, mv: &Step, _: Notation) -> String {
        format!("{}-{}", square_name(mv.from), square_name(mv.to))
    }
    fn facts(&self, pos: &Pos, mv: &Step) -> PlyFacts {
        let mut f = PlyFacts {
            mover: pos.to_move,
            ..PlyFacts::default()
        };
        let hit = pos.at[usize::from(1 - pos.to_move)] == mv.to && mv.to < END;
        f.captures = u8::from(hit);
        f.counters[HITS] = u8::from(hit);
        f
    }
    fn board(&self, pos: &Pos) -> Board {
        let mut b = Board::new(END + 1, 1, BoardStyle::Plain, &SEATS, Seat(pos.to_move));
        for s in 0..2u8 {
            b.pieces
                .push(BoardPiece::man(pos.at[usize::from(s)], 0, Some(s)));
        }
        b
    }
}

/// The search's hooks: the defaults (the race is searched and analysed like any game).
impl game::Engine for Race {}

impl Explore for Race {
    fn legal_moves(&self, pos: &Pos, _: &[u8]) -> Result<Vec<Step>, Problem> {
        if self.terminal(pos).is_some() {
            return Ok(Vec::new());
        }
        let from = pos.at[usize::from(pos.to_move)];
        Ok((from + 1..=(from + 3).min(END))
            .map(|to| Step { from, to })
            .collect())
    }
    fn describe(&self, pos: &Pos, mv: &Step) -> MoveInfo {
        MoveInfo {
            notation: self.write_move(pos, mv, Notation::default()),
            from: Some(square_name(mv.from)),
            to: Some(square_name(mv.to)),
            ..MoveInfo::default()
        }
    }
}

/// The registry of this test: the race alone, built as `games::games()` builds arbiter's.
fn catalog() -> games::Games {
    games::Games::new(vec![games::entry(&RACE, |_| Race)])
}

/// South wins: South a1-d1, North a1-c1, South d1-g1, North c1-f1, South g1-h1. No hit.
const CLEAN: &str = "[Event \"clean\"]\n[Variant \"Race\"]\n[Result \"S+\"]\n\
                     1. d1 c1 2. d1-g1 c1-f1 3. g1-h1 S+\n\n";
/// North lands on South (f1) at ply 4: a hit, South goes back to a1; North then moves past
/// the end at ply 8 (g1 to i1).
const BAD: &str = "[Event \"bad\"]\n[Variant \"One-track race\"]\n[Result \"*\"]\n\
                   1. a1-d1 a1-c1 2. d1-f1 c1-f1 3. a1-c1 f1-g1 4. c1-f1 g1-i1 *\n\n";

fn reports(catalog: &games::Games, text: &str, settings: Settings) -> Vec<referee::GameReport> {
    let mut reader = pdn::Reader::new(text.as_bytes());
    let mut referee = Referee::new(catalog, settings);
    let mut out = Vec::new();
    while let Some(r) = reader.read_game(&mut referee).expect("read") {
        out.push(r);
    }
    out
}

#[test]
fn validate_finds_the_game_and_its_own_code() {
    let catalog = catalog();
    let registry = referee::Catalog::registry(&catalog);
    assert_eq!(registry.code("past-the-end"), Some(PAST_THE_END));
    assert!(registry.codes().contains(&PAST_THE_END));

    let r = reports(&catalog, &format!("{CLEAN}{BAD}"), Settings::default());
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].game.map(|g| g.id), Some("race"));
    assert!(r[0].diagnostics.is_empty(), "{:?}", r[0].diagnostics);
    assert_eq!((r[0].plies, r[0].terminal), (5, Race.parse_result("S+")));

    assert_eq!(r[1].game.map(|g| g.id), Some("race"));
    let d: Vec<_> = r[1].diagnostics.iter().collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, PAST_THE_END);
    assert_eq!(d[0].code.as_str(), "past-the-end");
    assert_eq!(d[0].ply, Some(8));
    assert!(
        d[0].message.contains("g1-i1 goes past h1"),
        "{}",
        d[0].message
    );
    assert_eq!(r[1].plies, 7, "the replay stops before the refused ply");
}

#[test]
fn convert_rewrites_the_short_moves_and_lists_the_positions() {
    let catalog = catalog();
    let settings = Settings {
        rewrite: Some(referee::Rewrite {
            numeric: None,
            full_captures: Some(true),
        }),
        details: true,
        positions: true,
        ..Settings::default()
    };
    let r = reports(&catalog, CLEAN, settings);
    // Every ply is written again in the game's own notation (the two short tokens `d1`, `c1`
    // in full), one move token each, in file order.
    let rewritten: Vec<(u32, u32, &str)> = r[0]
        .rewrites
        .iter()
        .map(|(at, n, t)| (*at, *n, t.as_str()))
        .collect();
    let full = ["a1-d1", "a1-c1", "d1-g1", "c1-f1", "g1-h1"];
    let want: Vec<(u32, u32, &str)> = (0..5).map(|i| (i, 1, full[i as usize])).collect();
    assert_eq!(rewritten, want);
    let plies = archive::plies_json(&r[0]);
    let plies = plies.as_array().expect("a list of plies");
    assert_eq!(plies.len(), 5);
    assert_eq!(plies[1]["mover"], "North");
    assert_eq!(plies[1]["move"], "a1-c1");
    assert_eq!(plies[4]["position"], "7,5,1");
}

#[test]
fn stats_sum_the_game_s_own_counter_under_its_captions() {
    let catalog = catalog();
    let settings = Settings {
        collect_facts: true,
        ..Settings::default()
    };
    let mut stats = stats::Stats::default();
    for r in reports(&catalog, &format!("{CLEAN}{BAD}"), settings) {
        let diagnostics: Vec<(&str, bool)> = r
            .diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.severity == pdn::Severity::Error))
            .collect();
        stats.add(&stats::GameInput {
            game: r.game,
            seats: &r.seats,
            recorded: r.recorded,
            terminal: r.terminal,
            plies: r.plies_written,
            facts: &r.facts,
            opening: &r.opening,
            diagnostics: &diagnostics,
            ..stats::GameInput::default()
        });
    }
    let summary = stats.summary();
    let json = serde_json::to_value(&summary).expect("json");
    let race = &json["per_game"][0];
    assert_eq!(race["id"], "race");
    // One hit in the second game (ply 4), none in the first.
    let hits = &race["board"]["hits"];
    assert_eq!(
        (hits["count"].as_u64(), hits["max"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(hits["min"].as_u64(), Some(0));
    assert!(race.to_string().contains("\"past-the-end\""), "{race}");

    let dir = std::env::temp_dir().join(format!("arbiter-new-game-{}", std::process::id()));
    report::write_report(&stats, &dir, &report::ReportExtras::default()).expect("report");
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    std::fs::remove_dir_all(&dir).ok();
    assert!(html.contains("Hits per game"), "the counter's own captions");
    assert!(html.contains("pieces sent back in the game"));
}

#[test]
fn export_rows_name_no_game_specific_column() {
    let catalog = catalog();
    let mut reader = pdn::Reader::new(BAD.as_bytes());
    let mut recorder = export::Recorder::new(&catalog, Settings::default());
    let rec = reader
        .read_game(&mut recorder)
        .expect("read")
        .expect("a game");
    let game = export::convert::game_row("race.pdn", 1, rec.offset, &rec);
    let plies = export::convert::ply_rows(&rec);
    let diags = export::convert::diagnostic_rows("race.pdn", &rec, |b| reader.locate(b));
    assert_eq!(game.variant.as_deref(), Some("race"));
    assert_eq!(game.first_error_code.as_deref(), Some("past-the-end"));
    assert_eq!(game.first_error_ply, Some(8));
    assert_eq!(plies.len(), 7);
    assert_eq!(
        (plies[3].mover.as_str(), plies[3].notation.as_deref()),
        ("North", Some("c1-f1"))
    );
    assert_eq!(plies[3].pieces_taken, 1, "the hit");
    assert_eq!(diags.len(), 1);
    assert_eq!((diags[0].code.as_str(), diags[0].line), ("past-the-end", 4));

    let mut tables = export::TableBatches::new(false);
    tables.push_game(&game, &plies, &diags);
    let [games, ply_table, diagnostics] = tables.take().expect("batches");
    assert_eq!(
        (
            games.num_rows(),
            ply_table.num_rows(),
            diagnostics.num_rows()
        ),
        (1, 7, 1)
    );
}
