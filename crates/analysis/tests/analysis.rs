//! The analysis over the registry: every game can be analysed, the output depends only on
//! the record and the settings, shots are found and named, a losing move is classed.

use analysis::{Catalog, Class, GameAnalysis, Settings};
use game::{Engine, Game};
use referee::{GameReport, Referee};
use search::Limits;

fn report_of(text: &str) -> Vec<GameReport> {
    let settings = referee::Settings {
        details: true,
        positions: true,
        keep_tags: true,
        ..Default::default()
    };
    let mut referee = Referee::new(games::games(), settings);
    pdn::read_all(text.as_bytes())
        .iter()
        .map(|r| r.accept(&mut referee))
        .collect()
}

fn analyse(report: &GameReport, settings: Settings) -> GameAnalysis {
    let info = report.game.expect("the game is identified");
    let mut a = games::games()
        .analyser(info, &report.options, settings)
        .expect("an analyser");
    a.analyse(report)
        .expect("arbiter's own search always answers")
}

fn small() -> Settings {
    Settings {
        limits: Limits::nodes(400),
        hash_mb: 1,
        shot_nodes: 2_000,
    }
}

/// A few short self-played games of `game`, as PDN.
fn selfplay(info: &'static game::GameInfo, plies: u32) -> String {
    let player = games::games().entry(info).expect("entry").player();
    let mut config = selfplay::Config::new(player);
    config.games = 2;
    config.seed = 11;
    config.agent = Some(selfplay::Agent::Random);
    config.max_plies = Some(plies);
    let mut out = Vec::new();
    selfplay::generate(&config, &mut out).expect("self-play");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn every_game_of_the_registry_is_analysed_to_the_end() {
    for info in games::games().registry().games() {
        let text = selfplay(info, 12);
        for report in report_of(&text) {
            let a = analyse(&report, small());
            assert!(report.plies > 0, "{}: nothing replayed", info.id);
            match &a.unanalysed {
                None => assert_eq!(a.plies.len() as u32, report.plies, "{}", info.id),
                // A turn of several joined plays (Thaayam's extra series) is not one legal
                // move: the analysis stops there and says so.
                Some(u) => {
                    assert!(info.profile.chance.is_some(), "{}: {}", info.id, u.why);
                    assert_eq!(a.plies.len() as u32 + 1, u.ply, "{}", info.id);
                }
            }
            for p in &a.plies {
                assert!(p.loss >= 0 && (0.0..=100.0).contains(&p.accuracy), "{p:?}");
                assert_eq!(
                    p.agreed,
                    p.best.as_deref() == Some(p.played.as_str()),
                    "{p:?}"
                );
            }
        }
    }
}

#[test]
fn the_same_record_and_settings_give_the_same_analysis() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/international/international-search.pdn"
    ))
    .expect("the shipped corpus");
    let game = text.split("\n\n[Event").next().expect("a game");
    let report = &report_of(game)[0];
    let settings = Settings {
        limits: Limits::nodes(1_500),
        ..small()
    };
    let a = analyse(report, settings);
    let b = analyse(report, settings);
    assert_eq!(a, b);
    assert!(a.plies.len() > 100);
    assert!(a.plies.iter().any(|p| p.class.is_some()));
}

const SHOT: &str = "W:W29,31,32,35,36,42,44,45,46:B10,19,20,21,22";

#[test]
fn a_shot_is_found_with_its_first_move_and_none_at_the_start() {
    let g = draughts::Draughts::new(draughts::Variant::by_id("international").unwrap());
    let pos = g.parse_position(SHOT).unwrap();
    let shot = analysis::shots::find(&g, &pos, 20_000).expect("a shot");
    assert!(shot.gain >= analysis::shots::SHOT_GAIN);
    let first = g.write_move(&pos, &shot.line[0], g.default_notation());
    assert_eq!(first, "31-27");
    // Confirmed by a deeper search: the first move of the shot wins material.
    let mut search = search::Search::new(&g, 4);
    let found = search.best(&pos, &Limits::depth(8));
    assert!(
        found.score >= g.value(&pos, game::Seat(0)) + 60,
        "{}",
        found.score
    );
    assert!(analysis::shots::find(&g, &g.start(), 20_000).is_none());
}

#[test]
fn a_move_that_misses_the_shot_is_classed_so_and_names_it() {
    let record = format!("[GameType \"20\"]\n[FEN \"{SHOT}\"]\n[Result \"*\"]\n\n1. 46-41 *\n");
    let report = &report_of(&record)[0];
    let a = analyse(
        report,
        Settings {
            limits: Limits::nodes(20_000),
            ..Settings::default()
        },
    );
    let p = &a.plies[0];
    assert_eq!(p.class, Some(Class::MissedShot), "{p:?}");
    assert_eq!(p.shot.first().map(String::as_str), Some("31-27"));
    assert!(p.loss >= 60, "{p:?}");
    assert_eq!(p.best.as_deref(), Some("31-27"));
}
