//! No text makes a game's parsers panic: every game of the registry is fed arbitrary strings
//! (non-ASCII included, and strings built from the characters its notations use) as a
//! position, as move tokens, as ruleset options and as a result, through the registry, so a
//! game added to it is covered without a line here.

use std::ops::ControlFlow;

use games::games;
use pdn::visitor::{Span, Visitor};
use proptest::prelude::*;
use referee::{BoardAt, Options, Referee, Rewrite, Settings};

/// Text shaped like positions and moves of every game (squares, separators, counts, throws),
/// with some non-ASCII characters that records really contain.
fn notation_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        r"[0-9a-jA-JKkMmWBwbHFT:,.\-x×–—+~\[\]()/ ?üéÖ\u{0}\u{feff}]{0,40}",
    )
    .expect("a valid pattern")
}

/// Any text: arbitrary characters, or notation-like text.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), notation_like()]
}

/// Settings that ask for everything the replay can produce.
fn everything() -> Settings {
    Settings {
        collect_facts: true,
        rewrite: Some(Rewrite::default()),
        snapshots: true,
        board_at: Some(BoardAt::End),
        details: true,
        keep_tags: true,
        ..Settings::default()
    }
}

/// Replays one record of every game, driving the referee as the reader would.
fn replay_everywhere(fen: Option<&str>, rules: Option<&str>, tokens: &[String], result: &str) {
    let g = games();
    for info in g.registry().games() {
        let mut r = Referee::new(g, everything());
        let at = Span::new(0, 1);
        assert_eq!(r.begin_game(0), ControlFlow::Continue(()));
        let _ = r.tag(b"Variant", info.variant_tag.as_bytes(), at);
        if let Some(fen) = fen {
            let _ = r.tag(b"FEN", fen.as_bytes(), at);
        }
        if let Some(rules) = rules {
            let _ = r.tag(b"Rules", rules.as_bytes(), at);
        }
        let _ = r.begin_movetext();
        for (i, t) in tokens.iter().enumerate() {
            if i % 2 == 0 {
                let _ = r.move_number(i as u32 / 2 + 1, false, at);
            }
            let _ = r.mov(t.as_bytes(), at);
        }
        if let Some(fen) = fen {
            let _ = r.setup(fen.as_bytes(), at);
            let _ = r.mov(tokens.first().map_or(&b""[..], |t| t.as_bytes()), at);
        }
        let _ = r.result(result.as_bytes(), at);
        let report = r.end_game(Span::new(0, 2));
        assert_eq!(report.game.map(|g| g.id), Some(info.id));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn positions_results_and_options_never_panic(s in text(), chance in proptest::collection::vec(any::<u8>(), 0..6)) {
        let g = games();
        for info in g.registry().games() {
            let options = info.parse_options(&s).unwrap_or_default();
            let e = g.explorer(info, &options).expect("every game has an explorer");
            let _ = e.position_string(Some(&s));
            let _ = e.board(Some(&s));
            if let Ok(moves) = e.moves(Some(&s), &chance, Some(true)) {
                prop_assert!(moves.len() < 10_000);
            }
            let _ = e.moves(Some(&s), &chance, Some(false));
            if !e.needs_chance() {
                let _ = e.perft(Some(&s), 1);
            }
            if let Some(outcome) = e.parse_result(&s) {
                // A result read is written back in a form read as the same.
                prop_assert_eq!(e.parse_result(&e.write_result(outcome)), Some(outcome));
            }
        }
    }

    #[test]
    fn move_tokens_never_panic(tokens in proptest::collection::vec(text(), 0..8), result in text()) {
        replay_everywhere(None, None, &tokens, &result);
    }

    #[test]
    fn records_with_any_position_and_rules_never_panic(
        fen in text(),
        rules in text(),
        tokens in proptest::collection::vec(notation_like(), 0..6),
    ) {
        replay_everywhere(Some(&fen), Some(&rules), &tokens, "*");
    }
}

/// The engines are built for every option a game accepts, alone and all together.
#[test]
fn every_option_builds_an_engine() {
    let g = games();
    for info in g.registry().games() {
        let all: Vec<&str> = info.options.iter().map(|o| o.name).collect();
        let mut lists: Vec<String> = all.iter().map(|s| s.to_string()).collect();
        lists.push(all.join(","));
        for list in lists {
            let options: Options = info.parse_options(&list).expect("its own options");
            let e = g.explorer(info, &options).expect("an explorer");
            // An option may refuse to start (Odnocvetnie's `elimination` is not implemented).
            let _ = e.position_string(None);
            replay_everywhere(None, Some(&list), &["1".to_string()], "*");
        }
    }
}
