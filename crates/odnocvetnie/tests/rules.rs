//! One test (or more) per numbered rule of docs/rules/odnocvetnie.md (section 2 of the shared
//! rules page), on hand-built positions. Square numbers: 1 = b10 … 50 = i1.

use game::{Code, Game, Outcome, Seat};
use odnocvetnie::{Odnocvetnie, Piece, Position, Side, Square};

fn pos(fen: &str) -> Position {
    Position::parse(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal move as full paths, sorted.
fn legal(p: &Position) -> Vec<String> {
    Odnocvetnie::default().legal_move_texts(p, true)
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

fn play(p: &mut Position, token: &str) {
    let mv = odnocvetnie::resolve(p, token.as_bytes()).unwrap_or_else(|e| panic!("{token}: {e:?}"));
    p.play(&mv);
}

fn code(p: &Position, token: &str) -> Code {
    odnocvetnie::resolve(p, token.as_bytes()).unwrap_err().code
}

#[test]
fn rule_01_board_has_50_dark_squares_and_a1_is_dark() {
    assert!(Square::parse("a1").is_some());
    assert!(Square::parse("b1").is_none());
    assert!(Square::parse("j10").is_some());
    assert_eq!(odnocvetnie::SquareSet::ALL.len(), 50);
    assert_eq!(sq("a1").number(), 46);
    assert_eq!(sq("b10").number(), 1);
    assert_eq!(sq("i1").number(), 50);
}

#[test]
fn rule_02_four_seats_with_their_edges() {
    let g = Odnocvetnie::default();
    assert_eq!(g.seat_names(), ["South", "West", "North", "East"]);
    // A man's far edge is the edge opposite its seat.
    assert!(Side::South.far_edge().contains(sq("b10")));
    assert!(Side::North.far_edge().contains(sq("a1")));
    assert!(Side::West.far_edge().contains(sq("j2")));
    assert!(Side::East.far_edge().contains(sq("a9")));
    assert!(!Side::East.far_edge().contains(sq("j2")));
}

#[test]
fn rule_03_start_position() {
    let p = Position::start();
    assert_eq!(p.pieces().len(), 42);
    assert!(p.damki().is_empty());
    let empty: Vec<String> = p
        .pieces()
        .complement()
        .iter()
        .map(|s| s.algebraic().to_string())
        .collect();
    assert_eq!(empty, ["e7", "g7", "d6", "f6", "e5", "g5", "d4", "f4"]);
    assert_eq!(p.locked(), None);
    assert_eq!(p.side_to_move(), Side::South);
}

#[test]
fn rule_04_turn_order_and_first_seat_tag() {
    let mut q = Position::start();
    for expect in [Side::West, Side::North, Side::East, Side::South] {
        let mut moves = Vec::new();
        q.legal_moves(&mut moves);
        q.play(&moves[0]);
        assert_eq!(q.side_to_move(), expect);
    }

    let g = Odnocvetnie::default();
    let none = |_: &str| None;
    assert_eq!(g.start_position(&none).unwrap().side_to_move(), Side::South);
    let west = |t: &str| (t == "FirstSeat").then(|| "W".to_string());
    assert_eq!(g.start_position(&west).unwrap().side_to_move(), Side::West);
    let alias = |t: &str| (t == "First").then(|| "north".to_string());
    assert_eq!(
        g.start_position(&alias).unwrap().side_to_move(),
        Side::North
    );
    let bad = |t: &str| (t == "FirstSeat").then(|| "Q".to_string());
    assert_eq!(g.start_position(&bad).unwrap_err().code, Code::BadTag);
}

#[test]
fn rule_05_and_06_every_seat_moves_every_piece_forward_from_its_own_edge() {
    // One man on e5 (28): each seat moves it away from its own edge.
    assert_eq!(legal(&pos("S:M28")), ["28-22", "28-23"]); // to d6, f6: +rank
    assert_eq!(legal(&pos("W:M28")), ["28-23", "28-33"]); // to f6, f4: +file
    assert_eq!(legal(&pos("N:M28")), ["28-32", "28-33"]); // to d4, f4: -rank
    assert_eq!(legal(&pos("E:M28")), ["28-22", "28-32"]); // to d6, d4: -file
}

#[test]
fn rule_07_man_steps_one_square_diagonally_forward_to_an_empty_square() {
    assert_eq!(legal(&pos("S:M28")), ["28-22", "28-23"]);
    // c9 (7): b10 is taken (and cannot be jumped: there is no square behind it).
    assert_eq!(legal(&pos("S:M7,1")), ["7-2"]);
    assert_eq!(code(&pos("S:M7,1"), "7-1"), Code::IllegalMove, "occupied");
    assert_eq!(code(&pos("S:M28"), "28-33"), Code::IllegalMove, "backwards");
    assert_eq!(
        code(&pos("S:M28"), "28-17"),
        Code::IllegalMove,
        "two squares"
    );
}

#[test]
fn rule_08_man_captures_forward_over_any_piece_and_may_zigzag() {
    // c3 jumps d4 to e5, then d6 to c7: the two forward diagonals in turn.
    assert_eq!(legal(&pos("S:M37,32,22")), ["37x28x17"]);
    // Any piece can be jumped, a damka too.
    // (The damka on d4 may capture the man on c3 as well: one piece each.)
    assert_eq!(legal(&pos("S:M37,K32")), ["32x41", "32x46", "37x28"]);
    // Never backwards: South cannot jump b2 from c3, North must.
    // a3 (36) has b2 (41) behind it and c1 empty: South may not jump backwards, North must.
    assert_eq!(legal(&pos("S:M36,41")), ["36-31", "41-37"]);
    assert_eq!(legal(&pos("N:M36,41")), ["36x47"]);
}

#[test]
fn rule_09_damka_flies_and_captures_flying() {
    // a1 (46) alone: the whole long diagonal.
    assert_eq!(
        legal(&pos("S:K46")),
        ["46-5", "46-10", "46-14", "46-19", "46-23", "46-28", "46-32", "46-37", "46-41"]
    );
    // A piece far away on the diagonal, any landing square beyond it.
    assert_eq!(
        legal(&pos("S:K46:M32")),
        ["46x5", "46x10", "46x14", "46x19", "46x23", "46x28"]
    );
    // Two pieces in a row cannot be jumped (the man on d4 may capture instead).
    assert_eq!(legal(&pos("S:K46:M32,28")), ["32x23"]);
}

#[test]
fn rule_10_captured_pieces_stay_until_the_move_ends() {
    // Damka i9 (10), men 9, 14, 42, 43. If captured pieces vanished at once the damka could
    // take four (10x37x48x25x3, re-crossing c3 = 37's line over h8 = 14); as they stay and
    // block, three is the most.
    let p = pos("S:K10:M9,14,42,43");
    assert_eq!(p.max_capture(), 3);
    let e = odnocvetnie::resolve(&p, b"10x37x48x25x3").unwrap_err();
    assert_eq!(e.code, Code::IllegalMove);
    assert!(
        e.message.contains("captured pieces stay on the board"),
        "{}",
        e.message
    );
    // A captured piece cannot be jumped twice: c1 round the diamond and back to c1 takes
    // four; it may not go on over d2 again.
    let p = pos("S:K47:M42,32,31,41");
    assert_eq!(legal(&p), ["47x36x27x38x47", "47x38x27x36x47"]);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1, "two paths, one move");
    // ... and its start square is empty once left: it lands on c1 (47) again.
    assert_eq!(moves[0].from(), moves[0].to());
    let mut q = p;
    q.play(&moves[0]);
    assert_eq!(q.to_fen(), "W:MK47");
    // All captured pieces are removed together at the end.
    assert_eq!(q.pieces().len(), 1);
}

#[test]
fn rule_11_no_180_degree_turn() {
    // a1 takes c3 and may land anywhere beyond; it can never come straight back.
    let p = pos("S:K46:M37");
    assert_eq!(
        legal(&p),
        ["46x5", "46x10", "46x14", "46x19", "46x23", "46x28", "46x32"]
    );
    let e = odnocvetnie::resolve(&p, b"46x32x46").unwrap_err();
    assert_eq!(e.code, Code::IllegalMove);
    assert!(e.message.contains("180°"), "{}", e.message);
}

#[test]
fn rule_12_capture_is_compulsory_and_majority_over_all_pieces() {
    // 37 can take two (37x28x17), 45 only one (45x34): only the two-piece chain is legal.
    let p = pos("S:M37,32,22,45,40");
    assert_eq!(legal(&p), ["37x28x17"]);
    assert_eq!(p.max_capture(), 2);
    let mut chains = Vec::new();
    p.capture_chains(&mut chains);
    assert_eq!(chains.len(), 2, "all chains, before the majority filter");
    assert_eq!(code(&p, "45x34"), Code::NonMaximalCapture);
    assert_eq!(code(&p, "22-17"), Code::MissedCapture);
    // Damki count one each, like men; a damka may be the piece that must capture.
    let q = pos("S:K46:M37,28,23,45,40");
    assert_eq!(q.max_capture(), 1);
    assert_eq!(legal(&q), ["28x19", "45x34", "46x32"]);
    let r = pos("S:K46:M37,23,45,40");
    // The damka takes two (c3 and f6) and beats the man's one; landing on d4 or e5 in
    // between gives the same move, written two ways.
    assert_eq!(
        legal(&r),
        [
            "46x28x5", "46x28x10", "46x28x14", "46x28x19", "46x32x5", "46x32x10", "46x32x14",
            "46x32x19"
        ]
    );
    let mut moves = Vec::new();
    r.legal_moves(&mut moves);
    assert_eq!(moves.len(), 4);
}

#[test]
fn rule_13_promotion() {
    // Quiet move onto the far edge.
    let mut p = pos("S:M7");
    assert_eq!(legal(&p), ["7-1", "7-2"]);
    play(&mut p, "7-2");
    assert_eq!(p.piece_at(sq("d10")), Some(Piece::Damka));
    // West reaching rank 10 is not on its far edge (file j): no promotion.
    let mut w = pos("W:M7");
    assert_eq!(legal(&w), ["7-2", "7-12"]);
    play(&mut w, "7-2");
    assert_eq!(w.piece_at(sq("d10")), Some(Piece::Man));
    // Crowned by a capture: the move ends there, though a damka on d10 could go on taking
    // f8 (13).
    let mut c = pos("S:M11,7,13");
    let mut moves = Vec::new();
    c.legal_moves(&mut moves);
    assert_eq!(legal(&c), ["11x2"]);
    assert!(moves[0].promotes());
    assert_eq!(code(&c, "11x2x19"), Code::IllegalMove);
    play(&mut c, "11x2");
    assert_eq!(c.piece_at(sq("d10")), Some(Piece::Damka));
    // Its flying capture starts in a later move (any seat may make it).
    assert_eq!(legal(&c), ["2x19", "2x24", "2x30", "2x35"]);
    // Men standing on an edge from the start are not crowned by standing there.
    let s = Position::start();
    assert!(s.damki().is_empty());
    let mut n = pos("N:M3");
    play(&mut n, "3-9"); // a man from rank 10, moved by North: still a man
    assert_eq!(n.piece_at(sq("g9")), Some(Piece::Man));
}

#[test]
fn rule_14_lock() {
    // The man on e5 (28) moved last: West may not move it.
    let p = pos("W:M28,33:L28");
    assert_eq!(legal(&p), ["33-29", "33-39"]);
    let e = odnocvetnie::resolve(&p, b"28-23").unwrap_err();
    assert_eq!(e.code, odnocvetnie::LOCKED_PIECE);
    assert_eq!(
        e.message,
        "West cannot play 28-23: the man on 28 was moved in the previous turn (South's) and is locked for West this turn; it can still be captured"
    );
    // It can still be captured.
    assert_eq!(legal(&pos("W:M32,28:L28")), ["32x23"]);
    // It is left out of the compulsory capture: its own capture does not oblige anything.
    let q = pos("W:M32,28:L32");
    assert_eq!(legal(&q), ["28-23", "28-33"]);
    assert_eq!(code(&q, "32x23"), odnocvetnie::LOCKED_PIECE);
    // ... and out of the majority: the locked man could take two, the free one takes one.
    assert_eq!(legal(&pos("S:M37,32,22,45,40:L37")), ["45x34"]);
    // A damka is never locked.
    let mut k = pos("S:K46:M7");
    play(&mut k, "46-41");
    assert_eq!(k.locked(), None);
    assert!(Position::parse("S:K28:L28").is_err());
    // A man crowned in the last move is a damka and is free by default...
    let mut c = pos("S:M7,38");
    play(&mut c, "7-1");
    assert_eq!(c.locked(), None);
    assert!(legal(&c).iter().any(|m| m.starts_with("1-")));
    // ... but stays locked under `lock-any-piece`.
    let g = Odnocvetnie {
        lock_any_piece: true,
        ..Default::default()
    };
    let mut c = pos("S:M7,38");
    let mv = g.resolve(&c, &[b"7-1"]).unwrap();
    g.play(&mut c, &mv);
    assert_eq!(c.locked(), Some(sq("b10")));
    assert_eq!(
        g.resolve(&c, &[b"1-7"]).unwrap_err().code,
        odnocvetnie::LOCKED_PIECE
    );
    // The first move of the game has no lock.
    assert_eq!(Position::start().locked(), None);
    // The lock lasts one turn: after West's move, North may move South's man again.
    let mut t = pos("S:M37,16");
    play(&mut t, "37-32");
    assert_eq!(t.locked(), Some(sq("d4")));
    assert_eq!(legal(&t), ["16-11", "16-21"]);
    assert_eq!(code(&t, "32-28"), odnocvetnie::LOCKED_PIECE);
    play(&mut t, "16-21");
    assert_eq!(t.locked(), Some(sq("b6")));
    assert_eq!(legal(&t), ["32-37", "32-38"]);
}

#[test]
fn rule_15_the_first_seat_without_a_move_loses_and_the_last_mover_wins() {
    let g = Odnocvetnie::default();
    // East to move: 14 is locked and the man on a1 (46) cannot go further west.
    let p = pos("E:M14,46:L14");
    assert!(legal(&p).is_empty());
    let outcome = g.terminal(&p).unwrap();
    assert_eq!(
        outcome,
        Outcome::Win {
            winner: Seat(2),
            loser: Some(Seat(3))
        }
    );
    assert_eq!(g.write_result(outcome), "N+E-");
    assert_eq!(g.parse_result("N+E-"), Some(outcome));
    // No pieces at all: South, to move, loses; East moved last and wins.
    assert_eq!(g.write_result(g.terminal(&pos("S:M")).unwrap()), "E+S-");
    // While anyone can move, the game goes on.
    assert_eq!(g.terminal(&Position::start()), None);
    // A free damka can be moved by every seat for ever: no end by rule.
    let mut d = pos("S:K28");
    let mut moves = Vec::new();
    for i in 0..400 {
        assert_eq!(g.terminal(&d), None);
        d.legal_moves(&mut moves);
        let mv = moves[i % moves.len()];
        d.play(&mv);
    }
    // Results that can only be recorded.
    assert_eq!(g.parse_result("*"), Some(Outcome::Unfinished));
    assert_eq!(g.parse_result("1/2-1/2"), Some(Outcome::Draw));
    assert_eq!(g.parse_result("1-0"), None);
    assert_eq!(g.parse_result("S+S-"), None);
    assert_eq!(
        g.parse_result("W+"),
        Some(Outcome::Win {
            winner: Seat(1),
            loser: None
        })
    );
}
