//! Merging accumulators equals accumulating everything at once, in any order.

mod common;

use common::{OwnedTags, G, ODNOCVETNIE, TAMA, THAAYAM};
use game::{GameInfo, Outcome, PlyFacts, Seat};
use proptest::prelude::*;
use stats::Stats;

fn outcome() -> impl Strategy<Value = Option<Outcome>> {
    prop_oneof![
        Just(None),
        Just(Some(Outcome::Draw)),
        Just(Some(Outcome::Unfinished)),
        (0u8..5, proptest::option::of(0u8..4)).prop_map(|(w, l)| Some(Outcome::Win {
            winner: Seat(w),
            loser: l.map(Seat),
        })),
    ]
}

fn facts() -> impl Strategy<Value = PlyFacts> {
    (
        0u8..4,
        proptest::collection::vec((0u8..12, 0u8..12), 0..3),
        any::<bool>(),
        proptest::collection::vec(prop::sample::select(vec![1u8, 2, 3, 4, 8, 5]), 0..4),
        0u8..3,
        0u8..2,
        [0u8..20, 0u8..20, 0u8..3, 0u8..3],
    )
        .prop_map(
            |(mover, squares, promotion, throws, lost, twins, material)| PlyFacts {
                mover,
                captures: squares.len() as u8,
                capture_squares: squares.into(),
                promotion,
                throws: throws.into(),
                lost_throws: lost,
                counters: [twins, 0, 0, 0],
                material,
            },
        )
}

const CODES: [&str; 4] = ["illegal-move", "bad-tag", "syntax", "unused-throw"];
const OPENINGS: [&str; 5] = ["", "c3-c4", "c3-c4 f6-f5", "32-28 19-23", "S [1 2] in"];

const NAMES: [&str; 4] = ["Ann", "Bo", "Cy", " "];

fn name() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(prop::sample::select(NAMES.to_vec()).prop_map(String::from))
}

fn tags() -> impl Strategy<Value = OwnedTags> {
    (
        name(),
        proptest::option::of(prop::sample::select(vec!["1999.01.02", "2024", "????"])),
        name(),
        name(),
        proptest::option::of(prop::sample::select(vec!["1-0", "0-2", "1-1", "*", "?"])),
    )
        .prop_map(|(event, date, white, black, result)| OwnedTags {
            event,
            date: date.map(String::from),
            white,
            black,
            result: result.map(String::from),
        })
}

fn game() -> impl Strategy<Value = G> {
    (
        prop::sample::select(vec![
            Some(&TAMA as &'static GameInfo),
            Some(&ODNOCVETNIE),
            Some(&THAAYAM),
            None,
        ]),
        prop::sample::select(vec![
            vec![0u8, 1],
            vec![0, 2],
            vec![1, 3, 0],
            vec![0, 1, 2, 3],
            vec![2],
        ]),
        outcome(),
        outcome(),
        proptest::collection::vec(facts(), 0..8),
        0u32..4,
        prop::sample::select(OPENINGS.to_vec()),
        proptest::collection::vec((prop::sample::select(CODES.to_vec()), any::<bool>()), 0..3),
        tags(),
    )
        .prop_map(
            |(game, seats, recorded, terminal, facts, extra, opening, diagnostics, tags)| G {
                game,
                seats,
                recorded,
                terminal,
                plies: facts.len() as u32 + extra,
                facts,
                opening: opening.to_string(),
                diagnostics,
                tags,
            },
        )
}

fn accumulate(games: &[G]) -> Stats {
    let mut s = Stats::default();
    for g in games {
        s.add(&g.input());
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn merge_equals_adding_everything(
        games in proptest::collection::vec(game(), 0..24),
        cut in 0usize..24,
    ) {
        let cut = cut.min(games.len());
        let all = accumulate(&games);
        let (left, right) = games.split_at(cut);
        let mut a = accumulate(left);
        a.merge(accumulate(right));
        prop_assert_eq!(&a, &all);
        let mut b = accumulate(right);
        b.merge(accumulate(left));
        prop_assert_eq!(&b, &all);
        prop_assert_eq!(all.games(), games.len() as u64);
    }

    #[test]
    fn merge_is_associative(
        x in proptest::collection::vec(game(), 0..10),
        y in proptest::collection::vec(game(), 0..10),
        z in proptest::collection::vec(game(), 0..10),
    ) {
        let mut left = accumulate(&x);
        left.merge(accumulate(&y));
        left.merge(accumulate(&z));
        let mut yz = accumulate(&y);
        yz.merge(accumulate(&z));
        let mut right = accumulate(&x);
        right.merge(yz);
        prop_assert_eq!(&left, &right);
        // The derived numbers agree too.
        let a = serde_json::to_string(&left.summary()).unwrap();
        let b = serde_json::to_string(&right.summary()).unwrap();
        prop_assert_eq!(a, b);
    }
}

#[test]
fn memory_stays_bounded() {
    let mut s = Stats::default();
    let mut g = G::new(Some(&TAMA), &[0, 1]);
    g.facts = vec![PlyFacts::default(); 3];
    for i in 0..(stats::OPENINGS_PRUNE_AT as u32 * 3) {
        g.opening = format!("opening {i}");
        g.plies = 1_000_000 + i; // beyond the histogram cap
        s.add(&g.input());
    }
    let c = &s.game("tama").unwrap().common;
    assert!(c.openings.table.len() <= stats::OPENINGS_PRUNE_AT);
    assert_eq!(
        c.openings.table.values().map(|t| t.games).sum::<u64>() + c.openings.pruned_games,
        stats::OPENINGS_PRUNE_AT as u64 * 3
    );
    assert_eq!(c.length.overflow(), stats::OPENINGS_PRUNE_AT as u64 * 3);
    assert!(c.length.bars(40).is_empty());
    // A game far longer than the material window.
    let mut long = G::new(Some(&ODNOCVETNIE), &[0, 1, 2, 3]);
    long.facts = vec![PlyFacts::default(); stats::MATERIAL_PLIES * 3];
    long.plies = long.facts.len() as u32;
    s.add(&long.input());
    let board = s.game("odnocvetnie").unwrap().board.as_ref().unwrap();
    assert_eq!(board.material.len(), stats::MATERIAL_PLIES);
    // The heat map has one slot per square of the board, whatever the captures say.
    assert_eq!(board.capture_squares.len(), 100);
    // A game of chance has throw counts and no board section, and keeps no openings.
    let mut dice = G::new(Some(&THAAYAM), &[0, 2]);
    dice.opening = "S [1 2]".into();
    s.add(&dice.input());
    let t = s.game("thaayam").unwrap();
    assert!(t.board.is_none() && t.chance.is_some());
    assert!(t.common.openings.table.is_empty());
}
