//! Facts, details and opening lines handed back with `Referee::recycle_facts`,
//! `Referee::recycle_details` and `Referee::recycle_line` are reused for later games without
//! carrying anything over: every game's lists are what a referee that never recycles gives.

use referee::{Referee, Settings};

/// Games of different kinds and lengths, a long one before short ones (a recycled list is
/// longer than the next game needs) and a game of an unknown kind among them.
const GAMES: &str = r#"[Variant "International"]

1. 32-28 19-23 2. 28x19 14x23 3. 33-29 10-14 4. 39-33 5-10 *

[Variant "Tama"]

1. a3-a4 *

[Variant "No such game"]

1. a1-a2 *

[Variant "Russian"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 *

[Variant "Thaayam"]
[Seats "S N"]

1. S [4 2] N [3] 2. S [2] *
"#;

fn settings() -> Settings {
    Settings {
        collect_facts: true,
        details: true,
        opening_plies: 10,
        ..Settings::default()
    }
}

#[test]
fn recycled_lists_give_the_same_facts_and_details_as_new_ones() {
    let mut fresh = Vec::new();
    let mut referee = Referee::new(games::games(), settings());
    let mut reader = pdn::Reader::new(GAMES.as_bytes());
    while let Some(g) = reader.read_game(&mut referee).expect("in-memory read") {
        fresh.push((g.facts, g.details, g.line));
    }
    let mut recycled = Vec::new();
    let mut referee = Referee::new(games::games(), settings());
    let mut reader = pdn::Reader::new(GAMES.as_bytes());
    while let Some(mut g) = reader.read_game(&mut referee).expect("in-memory read") {
        recycled.push((g.facts.clone(), g.details.clone(), g.line.clone()));
        referee.recycle_facts(std::mem::take(&mut g.facts));
        referee.recycle_details(std::mem::take(&mut g.details));
        referee.recycle_line(std::mem::take(&mut g.line));
    }
    assert_eq!(fresh.len(), 5);
    let lengths = |list: &[(Vec<_>, referee::PlyDetails, referee::OpeningLine)]| {
        list.iter()
            .map(|(f, d, l)| (f.len(), d.len(), l.len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        lengths(&fresh),
        [(8, 8, 8), (1, 1, 1), (0, 0, 0), (4, 4, 4), (3, 3, 3)],
        "{fresh:?}"
    );
    assert_eq!(fresh[0].2.move_text(1), "19-23");
    assert_eq!(recycled, fresh);
}
