//! The generic player (`selfplay::Generic`) on Tama and Odnocvetnie Shashki, and every game of
//! the registry through its own player: the games replay clean through the referee and
//! through the rules crates, carry the rules' result or `*`, and their tags come from the
//! game's description.

mod common;

use game::{GameInfo, Outcome};
use selfplay::{generate, Agent, Config, Generic, Player, Summary};

fn leak(player: impl Player + 'static) -> &'static dyn Player {
    Box::leak(Box::new(player))
}

fn tama() -> &'static dyn Player {
    leak(Generic::new(&tama::INFO, tama::Tama::default()))
}

fn odnocvetnie() -> &'static dyn Player {
    leak(Generic::new(
        &odnocvetnie::INFO,
        odnocvetnie::Odnocvetnie::default(),
    ))
}

fn run(player: &'static dyn Player, agent: Option<Agent>, games: u32, seed: u64) -> String {
    let mut config = Config::new(player);
    config.games = games;
    config.seed = seed;
    config.agent = agent;
    config.search_depth = Some(2);
    let mut out = Vec::new();
    let summary: Summary = generate(&config, &mut out).expect("generate");
    assert_eq!(summary.games, games);
    assert_eq!(summary.bytes, out.len() as u64);
    String::from_utf8(out).expect("UTF-8")
}

/// Replays `text` through the referee: no diagnostic, and the recorded result is the rules'
/// one where the game is over. Returns (games, ended by rule).
fn referee_clean(text: &str, info: &GameInfo) -> (u32, u32) {
    let mut reader = pdn::Reader::new(text.as_bytes());
    let mut referee = referee::Referee::new(games::games(), referee::Settings::default());
    let (mut n, mut by_rule) = (0, 0);
    while let Some(report) = reader.read_game(&mut referee).expect("read") {
        n += 1;
        assert!(
            report.diagnostics.is_empty(),
            "{} game {n}: {:?}",
            info.id,
            report.diagnostics
        );
        assert_eq!(report.plies, report.plies_written, "{} game {n}", info.id);
        match report.terminal {
            Some(t) => {
                assert_eq!(report.recorded, Some(t), "{} game {n}", info.id);
                by_rule += 1;
            }
            // Stopped: at the cap (`*`), or after a long run of king moves (two-sided games
            // as an agreed draw).
            None => match report.recorded {
                Some(Outcome::Unfinished) => {}
                Some(Outcome::Draw) if info.profile.two_sides => {}
                other => panic!("{} game {n}: stopped game recorded as {other:?}", info.id),
            },
        }
    }
    (n, by_rule)
}

/// The tags of every record: Variant from the description, one player tag per seat under
/// the seat's name, White before Black in a two-sided game.
fn check_tags(text: &str, info: &GameInfo) {
    for rec in pdn::read_all(text.as_bytes()) {
        assert_eq!(rec.tag("Variant"), Some(info.variant_tag));
        for seat in info.seat_names {
            assert!(
                rec.tag(seat).is_some_and(|v| !v.is_empty()),
                "no {seat} tag"
            );
        }
        let names: Vec<&str> = rec.tags.iter().map(|t| t.name.as_str()).collect();
        let at = |n: &str| names.iter().position(|&t| t == n);
        if info.profile.two_sides {
            assert!(
                at("White") < at("Black") && at("Black") < at("Result"),
                "{names:?}"
            );
        } else {
            assert!(at("PlyCount") < info.seat_names.iter().filter_map(|s| at(s)).min());
        }
    }
}

#[test]
fn generic_tama_and_odnocvetnie_replay_clean_with_every_agent() {
    for (player, info) in [(tama(), &tama::INFO), (odnocvetnie(), &odnocvetnie::INFO)] {
        let mut ended = 0;
        for (k, agent) in [
            Some(Agent::Random),
            Some(Agent::Greedy),
            Some(Agent::Search),
            None,
        ]
        .into_iter()
        .enumerate()
        {
            let text = run(player, agent, 5, 40 + k as u64);
            let (n, by_rule) = referee_clean(&text, info);
            assert_eq!(n, 5);
            ended += by_rule;
            check_tags(&text, info);
            // The independent replay with the rules crates agrees.
            for rec in pdn::read_all(text.as_bytes()) {
                let r = common::check(&rec).unwrap_or_else(|e| panic!("{e:?}"));
                assert_eq!(common::variant(&rec), Some(info.id));
                assert_eq!(rec.tag("PlyCount"), Some(r.plies.to_string().as_str()));
                // A move number opens every round.
                let seats = info.seat_names.len();
                for (i, (number, _)) in r.plies_written.iter().enumerate() {
                    let expected = (i % seats == 0).then_some((i / seats) as u32 + 1);
                    assert_eq!(*number, expected, "ply {}", i + 1);
                }
            }
        }
        eprintln!("{}: {ended} of 20 games ended by rule", info.id);
        assert!(ended > 0, "{}: no game ended by rule", info.id);
    }
}

#[test]
fn generic_games_are_reproducible_and_stop_at_the_cap() {
    let mut config = Config::new(tama());
    config.games = 3;
    config.seed = 8;
    config.search_depth = Some(1);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    generate(&config, &mut a).expect("generate");
    generate(&config, &mut b).expect("generate");
    assert_eq!(a, b);
    config.seed = 9;
    let mut c = Vec::new();
    generate(&config, &mut c).expect("generate");
    assert_ne!(a, c);

    config.max_plies = Some(7);
    config.agent = Some(Agent::Random);
    let mut out = Vec::new();
    let summary = generate(&config, &mut out).expect("generate");
    assert_eq!(summary.longest, 7);
    assert_eq!(summary.ended_by_rule, 0);
    let text = String::from_utf8(out).expect("UTF-8");
    assert_eq!(text.matches("[Result \"*\"]").count(), 3);
    assert_eq!(referee_clean(&text, &tama::INFO), (3, 0));
}

#[test]
fn every_registry_game_self_plays_clean_through_the_referee() {
    let games = games::games();
    for info in games.registry().games() {
        let player = games.entry(info).expect("entry").player();
        assert_eq!(player.info().id, info.id);
        let mut config = Config::new(player);
        config.games = 3;
        config.seed = 21;
        config.max_plies = Some(120);
        config.search_depth = Some(1);
        let mut out = Vec::new();
        generate(&config, &mut out).unwrap_or_else(|e| panic!("{}: {e}", info.id));
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(referee_clean(&text, info).0, 3, "{}", info.id);
        for rec in pdn::read_all(text.as_bytes()) {
            assert_eq!(rec.tag("Variant"), Some(info.variant_tag));
        }
    }
}

#[test]
fn bad_configurations_of_generic_games_are_refused() {
    let mut config = Config::new(odnocvetnie());
    config.players = Some(2);
    let e = config.check().unwrap_err();
    assert!(
        e.contains("Odnocvetnie Shashki is played by 4 players"),
        "{e}"
    );
    config.players = Some(4);
    assert!(config.check().is_ok());
    let thaayam = leak(Generic::new(&thaayam::INFO, thaayam::Thaayam::default()));
    let e = generate(&Config::new(thaayam), &mut Vec::new()).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    assert!(e.to_string().contains("chance"), "{e}");
}
