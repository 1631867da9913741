//! Property tests: random playouts keep the invariants, every legal move written in any
//! notation reads back as itself (and is written into buffers as the plain text is), and no
//! input makes the crate panic.

use game::{Game, Notation, Outcome, Seat};
use odnocvetnie::{resolve, Move, Odnocvetnie, Piece, Position, Side, Square, SquareSet};
use proptest::prelude::*;

const NOTATIONS: [Notation; 4] = [
    Notation {
        numeric: true,
        full_captures: false,
    },
    Notation {
        numeric: true,
        full_captures: true,
    },
    Notation {
        numeric: false,
        full_captures: false,
    },
    Notation {
        numeric: false,
        full_captures: true,
    },
];

fn check_round_trips(g: &Odnocvetnie, pos: &Position, moves: &[Move]) {
    for mv in moves {
        // The texts written into buffers for tables are the plain ones.
        game::conformance::writers_agree(g, pos, mv).unwrap();
        game::conformance::facts_agree(g, pos, mv).unwrap();
        // The short form is ambiguous exactly when another legal move joins the same squares.
        let rival = moves
            .iter()
            .any(|m| m.from() == mv.from() && m.to() == mv.to() && m != mv);
        assert_eq!(pos.has_rival_capture(mv), rival, "{mv:?} in {pos:?}");
        for n in NOTATIONS {
            let text = g.write_move(pos, mv, n);
            let back = g.resolve(pos, &[text.as_bytes()]);
            assert_eq!(back.as_ref(), Ok(mv), "{text} in {pos:?}");
        }
        for path in pos.paths(mv) {
            for numeric in [true, false] {
                let text = path.write(numeric);
                assert_eq!(
                    resolve(pos, text.as_bytes()).as_ref(),
                    Ok(mv),
                    "{text} in {pos:?}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_invariants(
        first in 0u8..4,
        lock_any_piece in any::<bool>(),
        choices in prop::collection::vec(any::<u16>(), 0..250),
    ) {
        let g = Odnocvetnie { lock_any_piece, elimination: false };
        let mut pos = Position::start_with(Side::from_index(first));
        let mut captured = 0u32;
        let mut moves = Vec::new();
        for c in choices {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                let side = pos.side_to_move();
                prop_assert_eq!(g.terminal(&pos), Some(Outcome::Win {
                    winner: Seat(side.prev().index()),
                    loser: Some(Seat(side.index())),
                }));
                break;
            }
            prop_assert_eq!(g.terminal(&pos), None);
            check_round_trips(&g, &pos, &moves);
            let mv = moves[c as usize % moves.len()];
            let facts = g.facts(&pos, &mv);
            let was_man = pos.piece_at(mv.from()) == Some(Piece::Man);
            let before = pos;
            g.play(&mut pos, &mv);
            captured += mv.capture_count();
            prop_assert_eq!(pos.pieces().len(), 42 - captured);
            prop_assert_eq!(u32::from(facts.captures), mv.capture_count());
            prop_assert_eq!(u32::from(facts.material[0]), pos.pieces().len());
            prop_assert_eq!(facts.mover, before.side_to_move().index());
            prop_assert_eq!(pos.side_to_move(), before.side_to_move().next());
            prop_assert!((pos.men() & pos.damki()).is_empty());
            // The lock: the piece just moved, if it is a man (or, under lock-any-piece, a man
            // crowned by this move); never anything else.
            let now = pos.piece_at(mv.to());
            let expect = match (was_man, now, lock_any_piece) {
                (true, Some(Piece::Man), _) => Some(mv.to()),
                (true, Some(Piece::Damka), true) => Some(mv.to()),
                _ => None,
            };
            prop_assert_eq!(pos.locked(), expect);
            if !lock_any_piece {
                if let Some(l) = pos.locked() {
                    prop_assert_eq!(pos.piece_at(l), Some(Piece::Man));
                }
            }
            prop_assert_eq!(facts.promotion, was_man && now == Some(Piece::Damka));
            let text = g.write_position(&pos);
            prop_assert_eq!(g.parse_position(&text), Ok(pos));
        }
    }

    #[test]
    fn arbitrary_tokens_never_panic_and_accepted_ones_are_legal(
        seed in prop::collection::vec(any::<u16>(), 0..40),
        token in "[0-9a-kx: -]{0,14}",
        bytes in prop::collection::vec(any::<u8>(), 0..16),
    ) {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for c in seed {
            pos.legal_moves(&mut moves);
            if moves.is_empty() { break; }
            pos.play(&moves[c as usize % moves.len()]);
        }
        pos.legal_moves(&mut moves);
        for t in [token.as_bytes(), &bytes[..]] {
            if let Ok(mv) = resolve(&pos, t) {
                prop_assert!(moves.contains(&mv), "{:?} accepted {:?}", String::from_utf8_lossy(t), mv);
            }
        }
    }

    #[test]
    fn random_positions_round_trip(
        cells in prop::collection::vec(0u8..6, 50),
        side in 0u8..4,
        lock_pick in any::<u16>(),
    ) {
        let mut men = SquareSet::EMPTY;
        let mut damki = SquareSet::EMPTY;
        for (i, c) in cells.iter().enumerate() {
            let sq = Square::from_index(i as u8).unwrap();
            match c { 0 | 1 => men.insert(sq), 2 => damki.insert(sq), _ => {} }
        }
        let lock = men.iter().nth(lock_pick as usize % (men.len() as usize + 1));
        let pos = Position::new(men, damki, Side::from_index(side), lock, false).unwrap();
        prop_assert_eq!(Position::parse(&pos.to_fen()), Ok(pos));
        let g = Odnocvetnie::default();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        check_round_trips(&g, &pos, &moves);
        // Quiet moves and captures of the locked piece are refused as locked-piece.
        let mut own = Vec::new();
        pos.locked_piece_moves(&mut own);
        let unlocked = pos.without_lock();
        let mut free = Vec::new();
        unlocked.legal_moves(&mut free);
        for mv in own.iter().filter(|m| free.contains(m)) {
            let text = odnocvetnie::write_move(&unlocked, mv, true, true);
            let e = resolve(&pos, text.as_bytes()).unwrap_err();
            prop_assert_eq!(e.code, odnocvetnie::LOCKED_PIECE, "{}", e.message);
        }
    }

    #[test]
    fn arbitrary_position_strings_never_panic(
        text in "[SWNEMKLswnemkl0-9a-j:,. -]{0,40}",
        wild in "\\PC{0,30}",
    ) {
        for t in [&text, &wild] {
            let _ = Position::parse(t);
            let _ = Position::parse_with(t, true);
        }
        let _ = Position::parse(&format!("S:{wild}"));
        let _ = resolve(&Position::start(), wild.as_bytes());
    }
}
