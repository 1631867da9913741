//! Properties over random playouts: nothing panics, play keeps the invariants, and the
//! resolver gives back every legal move from its written forms; moves and positions written
//! into buffers read as the plain texts.

use game::{Code, Game, Notation};
use proptest::prelude::*;
use tama::{Move, MoveList, Position, Side, Tama};

fn check_position(rules: Tama, pos: &Position) {
    let mut legal = MoveList::new();
    rules.legal_moves(pos, &mut legal);
    let mut chains = MoveList::new();
    rules.all_capture_chains(pos, &mut chains);
    let max = rules.max_capture(pos);
    assert_eq!(
        chains.iter().map(Move::capture_count).max().unwrap_or(0),
        max
    );
    if max > 0 {
        assert!(legal.iter().all(|m| m.capture_count() == max));
    } else {
        assert!(legal.iter().all(|m| !m.is_capture()));
    }
    assert_eq!(rules.terminal(pos).is_some(), legal.is_empty());
    let us = pos.side_to_move();
    for m in legal.iter() {
        // The texts written into buffers for tables are the plain ones.
        game::conformance::writers_agree(&rules, pos, m).unwrap();
        game::conformance::facts_agree(&rules, pos, m).unwrap();
        // Play: captured pieces vanish, the mover's count is unchanged, the turn passes.
        let mut next = *pos;
        next.play(m);
        assert_eq!(next.count(us), pos.count(us));
        assert_eq!(
            next.count(us.opponent()) as usize,
            pos.count(us.opponent()) as usize - m.capture_count()
        );
        assert_eq!(next.side_to_move(), us.opponent());
        assert_eq!(next.pieces(us) & m.to().bit(), m.to().bit());
        // The position string round-trips.
        assert_eq!(Position::from_fen(&next.to_fen()).unwrap(), next);
        // Every written form resolves back to a move with the same result.
        for numeric in [false, true] {
            for full_captures in [false, true] {
                let text = rules.write_move(
                    pos,
                    m,
                    Notation {
                        numeric,
                        full_captures,
                    },
                );
                let back = rules
                    .resolve_token(pos, text.as_bytes())
                    .unwrap_or_else(|p| panic!("{text} at {pos}: {}", p.message));
                assert!(back.same_result(m), "{text} at {pos}");
            }
        }
        let back = rules.resolve_token(pos, m.full_path().as_bytes()).unwrap();
        assert_eq!(back.path(), m.path());
    }
    // Non-maximal chains are reported as such, quiet moves during a capture as missed —
    // unless the two squares written are also the short form of a legal capture.
    let short_of_legal = |from, to| {
        legal
            .iter()
            .any(|l: &Move| l.from() == from && l.to() == to)
    };
    for c in chains.iter().filter(|c| c.capture_count() < max) {
        let r = rules.resolve_token(pos, c.full_path().as_bytes());
        if c.path().len() == 1 && short_of_legal(c.from(), c.to()) {
            assert!(r.map_or_else(
                |e| e.code == Code::AmbiguousMove,
                |m| m.capture_count() == max
            ));
            continue;
        }
        assert_eq!(
            r.unwrap_err().code,
            Code::NonMaximalCapture,
            "{c:?} at {pos}"
        );
    }
    if max > 0 {
        let mut quiet = MoveList::new();
        tama::quiet_moves(pos, &mut quiet);
        for q in quiet.iter() {
            let r = rules.resolve_token(pos, q.full_path().as_bytes());
            if short_of_legal(q.from(), q.to()) {
                assert!(r.map_or_else(
                    |e| e.code == Code::AmbiguousMove,
                    |m| m.capture_count() == max
                ));
                continue;
            }
            assert_eq!(r.unwrap_err().code, Code::MissedCapture, "{q:?} at {pos}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_invariants(choices in prop::collection::vec(any::<u32>(), 1..160), ludii: bool) {
        let rules = Tama::DEFAULT.with_ludii(ludii);
        let mut pos = Position::start();
        let mut list = MoveList::new();
        for c in choices {
            check_position(rules, &pos);
            rules.legal_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list[c as usize % list.len()];
            pos.play(&m);
        }
    }

    #[test]
    fn arbitrary_tokens_never_panic(token in prop::collection::vec(any::<u8>(), 0..24), moves in 0usize..40) {
        let rules = Tama::DEFAULT;
        let mut pos = Position::start();
        let mut list = MoveList::new();
        for i in 0..moves {
            rules.legal_moves(&pos, &mut list);
            if list.is_empty() { break; }
            let m = list[i * 7 % list.len()];
            pos.play(&m);
        }
        let _ = rules.resolve_token(&pos, &token);
        let _ = Position::from_fen(&String::from_utf8_lossy(&token));
    }

    #[test]
    fn square_like_tokens_never_panic(a in 0u8..64, b in 0u8..64, c in 0u8..64, sep in "[-x: ]?", n in 0usize..30) {
        let name = |i: u8| format!("{}{}", (b'a' + i % 8) as char, i / 8 + 1);
        let rules = Tama::DEFAULT;
        let mut pos = Position::start();
        let mut list = MoveList::new();
        for i in 0..n {
            rules.legal_moves(&pos, &mut list);
            if list.is_empty() { break; }
            pos.play(&list[(i * 13) % list.len()]);
        }
        for t in [format!("{}{sep}{}", name(a), name(b)), format!("{}x{}x{}", name(a), name(b), name(c))] {
            match rules.resolve_token(&pos, t.as_bytes()) {
                Ok(m) => {
                    prop_assert_eq!(m.from().index(), a);
                }
                Err(p) => prop_assert!(!p.message.is_empty()),
            }
        }
    }

    #[test]
    fn random_fen_like_strings_never_panic(s in "[WB?]:[WBK]{0,2}[a-j0-9,\\-K.: ]{0,30}") {
        if let Ok(p) = Position::from_fen(&s) {
            prop_assert_eq!(Position::from_fen(&p.to_fen()).unwrap(), p);
            prop_assert!(p.count(Side::White) <= 16 && p.count(Side::Black) <= 16);
        }
    }
}
