//! A game filter that does not replay the records picks the game the referee would replay
//! them as, however the records spell their game tags (names differing in case).

use std::io::{self, Read};

use archive::{select, Filter, Input, Selector};

/// Records whose tags name two games; the referee replays each as English, named by the
/// exactly spelled tag. (A tag repeated with the same spelling starts another record.)
const RECORDS: [&str; 3] = [
    "[GAMETYPE \"20\"]\n[gametype \"21\"]\n\n1. 11-15 *\n",
    "[gametype \"20\"]\n[GameType \"21\"]\n\n1. 11-15 *\n",
    "[GameType \"21\"]\n[gametype \"20\"]\n\n1. 11-15 *\n",
];

fn selected(record: &'static str, game: &str) -> u64 {
    let info = games::games()
        .registry()
        .by_name(game)
        .expect("a known game");
    let selector = Selector {
        filters: vec![Filter::Game(info)],
        ..Selector::default()
    };
    let input = Input {
        name: "r.pdn".to_string(),
        open: Box::new(move || Ok(Box::new(io::Cursor::new(record)) as Box<dyn Read + Send>)),
    };
    let mut out = Vec::new();
    let tally = select(
        &selector,
        &[input],
        &mut out,
        None,
        &std::env::temp_dir(),
        &|_| {},
        &mut |name, e| panic!("{name}: {e}"),
    )
    .expect("in memory");
    tally.selected
}

#[test]
fn the_game_filter_agrees_with_the_referee_on_repeated_game_tags() {
    for record in RECORDS {
        let mut referee = referee::Referee::new(games::games(), referee::Settings::default());
        let report = pdn::Reader::new(record.as_bytes())
            .read_game(&mut referee)
            .unwrap()
            .unwrap();
        assert_eq!(report.game.map(|g| g.id), Some("english"), "{record}");
        assert_eq!(selected(record, "english"), 1, "{record}");
        assert_eq!(selected(record, "international"), 0, "{record}");
    }
}
