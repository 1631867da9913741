//! Every generated game must replay clean under the rules crates, carry the result the rules
//! give (or `*` / an agreed draw when it was stopped), and be written canonically.

mod common;

use game::{Code, Game, Outcome};
use selfplay::{generate, Agent, Config};

/// The games with players of their own, by registry id.
const GAMES: [&str; 3] = ["tama", "odnocvetnie", "thaayam"];

fn config(game: &str, agent: Option<Agent>, games: u32, seed: u64) -> Config {
    let mut c = Config::new(common::player(game));
    c.games = games;
    c.seed = seed;
    c.agent = agent;
    c
}

fn run(config: &Config) -> (String, selfplay::Summary) {
    let mut out = Vec::new();
    let summary = generate(config, &mut out).expect("generation works");
    (String::from_utf8(out).expect("UTF-8"), summary)
}

/// Replays every game of `text` and checks it against what the generator says it wrote.
fn check_all(game: &str, text: &str, summary: &selfplay::Summary) -> Vec<common::Replayed> {
    let records = pdn::read_all(text.as_bytes());
    assert_eq!(records.len() as u32, summary.games);
    let mut replayed = Vec::new();
    let mut plies = 0u64;
    let mut by_rule = 0;
    for (i, rec) in records.iter().enumerate() {
        assert!(rec.problems.is_empty(), "game {i}: {:?}", rec.problems);
        let r = common::check(rec).unwrap_or_else(|f| panic!("game {i}: {f:?}\n{}", rec.to_pdn()));
        assert_eq!(common::variant(rec), Some(game));
        // The written result is the rules' result when the game is over, else `*` or an
        // agreed draw (Tama only).
        let token = rec.result.as_ref().map(|r| r.token.as_str());
        assert_eq!(rec.tag("Result"), token, "game {i}");
        match r.terminal {
            Some(t) => {
                assert_eq!(r.recorded, Some(t), "game {i}");
                by_rule += 1;
            }
            None => match r.recorded {
                Some(Outcome::Unfinished) => {}
                Some(Outcome::Draw) => assert_eq!(game, "tama", "game {i}"),
                other => panic!("game {i}: unfinished game recorded as {other:?}"),
            },
        }
        assert_eq!(rec.tag("PlyCount"), Some(r.plies.to_string().as_str()));
        assert_eq!(rec.tag("Round"), Some((i + 1).to_string().as_str()));
        for name in ["Event", "Site", "Date"] {
            assert!(rec.tag(name).is_some_and(|v| !v.is_empty()), "{name}");
        }
        let date = rec.tag("Date").unwrap_or_default();
        assert!(
            date.len() == 10 && date.as_bytes()[4] == b'.' && date.as_bytes()[7] == b'.',
            "{date}"
        );
        plies += u64::from(r.plies);
        replayed.push(r);
    }
    assert_eq!(plies, summary.plies);
    assert_eq!(by_rule, summary.ended_by_rule);
    // The writer's layout: no line over 80 characters, a blank line between games.
    assert!(text.lines().all(|l| l.chars().count() <= 80));
    assert!(
        text.ends_with(" *\n")
            || text.ends_with("-\n")
            || text.ends_with("+\n")
            || text.ends_with("-1\n")
            || text.ends_with("-0\n")
            || text.ends_with("1/2-1/2\n")
    );
    assert_eq!(summary.bytes, text.len() as u64);
    replayed
}

/// Move numbers follow each game's convention.
fn check_numbers(game: &str, rec: &pdn::GameRecord, r: &common::Replayed) {
    let seats = match game {
        "tama" => 2,
        "odnocvetnie" => 4,
        _ => rec
            .tag("Seats")
            .map(|s| s.split_whitespace().count())
            .unwrap_or(2),
    };
    for (i, (number, _)) in r.plies_written.iter().enumerate() {
        let expected = (i % seats == 0).then_some((i / seats) as u32 + 1);
        assert_eq!(*number, expected, "ply {}", i + 1);
    }
}

#[test]
fn every_game_and_agent_replays_clean() {
    for game in GAMES {
        for agent in [
            Some(Agent::Random),
            Some(Agent::Greedy),
            Some(Agent::Search),
            None,
        ] {
            let mut c = config(game, agent, 6, 11);
            // Keep the debug-build test quick: a shallower search.
            c.search_depth = Some(2);
            let (text, summary) = run(&c);
            let replayed = check_all(game, &text, &summary);
            let records = pdn::read_all(text.as_bytes());
            for (rec, r) in records.iter().zip(&replayed) {
                check_numbers(game, rec, r);
            }
        }
    }
}

#[test]
fn default_depth_search_games_replay_clean() {
    for game in ["tama", "odnocvetnie"] {
        let (text, summary) = run(&config(game, Some(Agent::Search), 2, 5));
        check_all(game, &text, &summary);
    }
}

#[test]
fn many_thaayam_games_with_every_seat_count() {
    for players in [2u8, 3, 4] {
        let mut c = config("thaayam", None, 12, u64::from(players));
        c.players = Some(players);
        let (text, summary) = run(&c);
        let replayed = check_all("thaayam", &text, &summary);
        let records = pdn::read_all(text.as_bytes());
        for (rec, r) in records.iter().zip(&replayed) {
            let seats = rec.tag("Seats").unwrap_or_default();
            assert_eq!(
                seats.split_whitespace().count(),
                usize::from(players),
                "{seats}"
            );
            // Every seat in play has a player tag, and no other seat has one.
            for (letter, name) in [("S", "South"), ("W", "West"), ("N", "North"), ("E", "East")] {
                let plays = seats.split_whitespace().any(|s| s == letter);
                assert_eq!(rec.tag(name).is_some(), plays, "{name} in {seats}");
            }
            check_numbers("thaayam", rec, r);
            // A finished Thaayam game names its winner and nobody else.
            if let Some(Outcome::Win { loser, .. }) = r.terminal {
                assert_eq!(loser, None);
            }
        }
    }
}

#[test]
fn same_arguments_same_bytes_other_seed_other_games() {
    for game in GAMES {
        let mut c = config(game, None, 4, 99);
        c.search_depth = Some(2);
        let (a, _) = run(&c);
        let (b, _) = run(&c);
        assert_eq!(a, b);
        c.seed = 100;
        let (d, _) = run(&c);
        assert_ne!(a, d);
        // The first games do not depend on how many are asked for.
        c.seed = 99;
        c.games = 2;
        let (e, _) = run(&c);
        assert!(a.starts_with(&e));
    }
}

#[test]
fn ply_cap_stops_games_with_an_unfinished_result() {
    for game in GAMES {
        let mut c = config(game, Some(Agent::Random), 5, 3);
        c.max_plies = Some(10);
        let (text, summary) = run(&c);
        assert_eq!(summary.longest, 10);
        let replayed = check_all(game, &text, &summary);
        for r in replayed {
            assert_eq!(r.plies, 10);
            assert_eq!(r.recorded, Some(Outcome::Unfinished));
        }
    }
}

#[test]
fn captures_are_written_short_unless_that_would_misread() {
    // A capture written with more than two squares must be one whose short form is
    // ambiguous or reads as another move.
    let (text, _) = run(&config("tama", Some(Agent::Random), 60, 8));
    let tama = tama::Tama::default();
    let (mut long, mut ambiguous) = (0, 0);
    for rec in pdn::read_all(text.as_bytes()) {
        let mut pos = tama::Position::start();
        for node in &rec.movetext {
            let pdn::Node::Move(m) = node else { continue };
            let mv = tama.resolve(&pos, &[m.token.as_bytes()]).expect("legal");
            let squares: Vec<&str> = m.token.split(['x', '-']).collect();
            if squares.len() > 2 {
                long += 1;
                let short = format!("{}x{}", squares[0], squares[squares.len() - 1]);
                match tama.resolve(&pos, &[short.as_bytes()]) {
                    Err(e) if e.code == Code::AmbiguousMove => ambiguous += 1,
                    Ok(read) => assert!(!read.same_result(&mv), "{short} would do"),
                    Err(e) => assert_eq!(e.code, Code::NonMaximalCapture, "{short}: {}", e.message),
                }
            }
            tama.play(&mut pos, &mv);
        }
    }
    assert!(ambiguous > 0);
    eprintln!("{long} full-path captures, {ambiguous} of them ambiguous when short");
}

#[test]
fn bad_configurations_are_refused() {
    let mut c = Config::new(common::player("tama"));
    c.players = Some(3);
    let err = generate(&c, &mut Vec::new()).expect_err("3-player Tama");
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("2 players"));
    let mut c = Config::new(common::player("thaayam"));
    c.players = Some(5);
    assert!(c.check().is_err());
    c.players = Some(3);
    assert!(c.check().is_ok());
    c.event = "a \"quoted\" event".into();
    assert!(c.check().is_err());
    let mut c = Config::new(common::player("odnocvetnie"));
    c.search_depth = Some(9);
    assert!(c.check().is_err());
}
