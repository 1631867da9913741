//! Random games: never a panic, every turn written in notation resolves back to itself, and
//! turns and positions written into buffers read as the plain texts.

mod common;

use common::{game, random_game};
use game::{Game, PlyFacts};
use proptest::prelude::*;
use thaayam::{split_tokens, Action, Options, Position, Square, Thaayam};

fn check_game(g: &Thaayam, start: &str, seed: u64, max_turns: usize) {
    let start = g.parse_position(start).unwrap();
    let turns = random_game(g, &start, seed, max_turns);
    let mut pos = start.clone();
    for (before, turn) in &turns {
        assert_eq!(&pos, before);
        // The texts written into buffers for tables are the plain ones.
        game::conformance::writers_agree(g, before, turn).unwrap();
        game::conformance::facts_agree(g, before, turn).unwrap();
        for full in [false, true] {
            let text = g.write_turn(before, turn, full);
            let toks = split_tokens(&text);
            let bytes: Vec<&[u8]> = toks.iter().map(|t| t.as_bytes()).collect();
            match g.resolve(before, &bytes) {
                Ok(t) => assert_eq!(&t, turn, "{text} from {}", g.write_position(before)),
                Err(e) => panic!(
                    "{text} from {}: {} ({})",
                    g.write_position(before),
                    e.message,
                    e.code
                ),
            }
            // Resolving while playing gives the same turn and position, or the same
            // refusal for the turn cut short, whatever the scratch position held.
            let mut scratch = start.clone();
            for cut in [bytes.len(), bytes.len().saturating_sub(1)] {
                game::conformance::resolve_and_play_agrees(g, before, &bytes[..cut], &mut scratch)
                    .unwrap_or_else(|e| panic!("{text} from {}: {e}", g.write_position(before)));
            }
        }
        // Every play listed uses the maximum the rule-17 search finds.
        let mut p = before.clone();
        let mut want = PlyFacts {
            mover: turn.seat,
            ..PlyFacts::default()
        };
        for s in &turn.series {
            let max = g.max_throws(&p, s.throws.as_slice()).unwrap();
            let plays = g.plays(&p, s.throws.as_slice()).unwrap();
            for play in &plays {
                // With `lenient-unused` a listed play may use fewer throws than the maximum.
                let ok = if g.options.lenient_unused {
                    u32::from(play.used) <= max
                } else {
                    u32::from(play.used) == max
                };
                assert!(
                    ok,
                    "{} {} from {}",
                    s.throws,
                    play.text,
                    g.write_position(&p)
                );
            }
            let report = g.apply_series(&mut p, s).unwrap();
            want.throws.extend_from_slice(s.throws.as_slice());
            want.captures = want.captures.saturating_add(report.sent_home);
            want.lost_throws += report.discarded + report.unused;
            want.counters[thaayam::TWINS_FORMED] += report.twins;
            for a in &s.actions {
                if let Action::Advance(adv) = a {
                    if adv.captured > 0 {
                        want.capture_squares.push((adv.to.file(), adv.to.rank()));
                    }
                }
            }
        }
        // The facts replay the turn on their own; they agree with the checked replay.
        for (seat, m) in want.material.iter_mut().enumerate() {
            *m = pieces_on_board(&p, seat as u8);
        }
        assert_eq!(g.facts(before, turn), want, "{}", g.write_position(before));
        // Playing with the facts gives the same facts and the same position as playing.
        let mut with_facts = pos.clone();
        let mut facts = PlyFacts::default();
        g.play_with_facts(&mut with_facts, turn, &mut facts);
        assert_eq!(facts, want);
        g.play(&mut pos, turn);
        assert_eq!(pos, p);
        assert_eq!(with_facts, p);
        let back = g.parse_position(&g.write_position(&pos)).unwrap();
        assert_eq!(back, pos);
    }
}

/// Pieces of `seat` on the board, counted square by square (the keep's are its singles).
fn pieces_on_board(pos: &Position, seat: u8) -> u8 {
    if !pos.plays(seat) {
        return 0;
    }
    (0..25)
        .filter_map(Square::new)
        .map(|sq| pos.singles_at(seat, sq) + 2 * pos.twins_at(seat, sq))
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn two_players(seed in any::<u64>()) {
        check_game(&game(), "S:S=h4/N=h4", seed, 600);
    }

    #[test]
    fn four_players(seed in any::<u64>()) {
        check_game(&game(), "S:S=h4/W=h4/N=h4/E=h4", seed, 600);
    }

    #[test]
    fn three_players_ludii(seed in any::<u64>()) {
        let g = Thaayam::new(Options { ludii: true, lenient_unused: false });
        check_game(&g, "E:S=h4/N=h4/E=h4", seed, 600);
    }

    #[test]
    fn two_players_lenient(seed in any::<u64>()) {
        let g = Thaayam::new(Options { ludii: false, lenient_unused: true });
        check_game(&g, "N:S=h4/N=h4", seed, 600);
    }
}
