//! One test (or more) for every numbered rule of Tama (rules.md section 1, docs/rules/tama.md),
//! plus the three test positions listed there. Positions are built by hand; expected move
//! sets are worked out on paper.

use game::{Game, Outcome, Seat};
use tama::{MoveList, Position, Side, Square, Tama};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(fen: &str) -> Vec<String> {
    Tama::DEFAULT.move_strings(&pos(fen))
}

fn moves_ludii(fen: &str) -> Vec<String> {
    Tama::LUDII.move_strings(&pos(fen))
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    Square::from_coords((b[0] - b'a') as i8, (b[1] - b'1') as i8).unwrap()
}

#[test]
fn rule_1_all_64_squares_are_used() {
    // A man steps orthogonally, i.e. onto squares of the other chess colour too.
    assert_eq!(moves("W:Wa2:BKh8"), sorted(&["a2-a3", "a2-b2", "a2-b3"]));
    // A king on an empty board reaches 27 squares from d4: every square on its lines.
    assert_eq!(moves("W:WKd4:BKh1").len(), 27); // h1 is on none of d4's lines
    assert_eq!(moves("W:WKd4:BKh8").len(), 26); // h8 ends the diagonal and is occupied
    assert_eq!(moves("W:WKd4:B").len(), 27);
    // Squares are numbered 1..64 row by row.
    assert_eq!(Square::from_number(1), Some(sq("a1")));
    assert_eq!(Square::from_number(8), Some(sq("h1")));
    assert_eq!(Square::from_number(9), Some(sq("a2")));
    assert_eq!(Square::from_number(64), Some(sq("h8")));
}

#[test]
fn rule_2_start_position_white_first_alternating() {
    let p = Position::start();
    assert_eq!(p.side_to_move(), Side::White);
    assert_eq!(p.men(Side::White), 0x0000_0000_00FF_FF00);
    assert_eq!(p.men(Side::Black), 0x00FF_FF00_0000_0000);
    assert_eq!(p.count(Side::White), 16);
    assert_eq!(p.count(Side::Black), 16);
    let g = Tama::DEFAULT;
    let start = g.start_position(&|_| None).unwrap();
    assert_eq!(start, p);
    // 22 moves for White: the 8 men on rank 3 step forward or diagonally forward.
    assert_eq!(g.move_strings(&p).len(), 22);
    let mut q = p;
    let mv = g.resolve_token(&q, b"c3-c4").unwrap();
    q.play(&mv);
    assert_eq!(q.side_to_move(), Side::Black);
    assert_eq!(g.to_move(&q), Seat(1));
    // No pass: the only way not to move is to have no move (rule 13).
    assert!(g.resolve_token(&q, b"c3-c4").is_err());
}

#[test]
fn rule_3_forward_depends_on_the_side() {
    assert_eq!(
        moves("W:Wd4:BKh8"),
        sorted(&["d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"])
    );
    assert_eq!(
        moves("B:WKh1:Bd4"),
        sorted(&["d4-c3", "d4-c4", "d4-d3", "d4-e3", "d4-e4"])
    );
}

#[test]
fn rule_4_man_steps_one_square_never_backwards() {
    // Occupied squares block; nothing backwards or two squares away.
    assert_eq!(
        moves("W:Wd4,d5:BKh8"),
        sorted(&["d4-c4", "d4-c5", "d4-e4", "d4-e5", "d5-c5", "d5-c6", "d5-d6", "d5-e5", "d5-e6"])
    );
    // On the edge.
    assert_eq!(moves("W:Wa4:BKh8"), sorted(&["a4-a5", "a4-b4", "a4-b5"]));
}

#[test]
fn rule_5_man_captures_forward_or_sideways_over_any_piece() {
    // d5 (man) ahead, c4 (king) and e4 (man) beside, d3 behind, e5 and c5 diagonal.
    let p = pos("W:Wd4:Bd5,Kc4,e4,d3,e5,Kc5");
    let mut l = MoveList::new();
    Tama::DEFAULT.all_capture_chains(&p, &mut l);
    let mut got: Vec<String> = l.iter().map(|m| m.full_path()).collect();
    got.sort();
    // d4xd6 is blocked? d6 is empty: yes. Every chain is one jump here.
    assert_eq!(got, sorted(&["d4xb4", "d4xd6", "d4xf4"]));
    // Backwards and diagonal captures are never generated.
    assert!(moves("W:Wd4:Bd3,e5,Kh8").iter().all(|m| !m.contains('x')));
    // The landing square must be empty.
    assert!(moves("W:Wd4:Bd5,d6").iter().all(|m| !m.contains('x')));
}

#[test]
fn rule_6_king_slides_like_a_queen() {
    // Captures exist here (d4xd8 over d7, d4xa4 over b4): look at the quiet moves apart.
    let mut l = MoveList::new();
    tama::quiet_moves(&pos("W:WKd4,f6:Bd7,Kb4,h8"), &mut l);
    let got: Vec<String> = l
        .iter()
        .filter(|m| m.from() == sq("d4"))
        .map(|m| m.full_path())
        .collect();
    // North stops before d7, west before b4, NE before f6; no jumps over pieces for quiet moves.
    assert!(got.contains(&"d4-d6".to_string()));
    assert!(!got.contains(&"d4-d8".to_string()));
    assert!(got.contains(&"d4-a1".to_string()));
    assert!(got.contains(&"d4-e5".to_string()));
    assert!(!got.contains(&"d4-g7".to_string()));
    assert!(got.contains(&"d4-h4".to_string()));
    assert!(!got.contains(&"d4-a4".to_string()));
    // N 2, E 4, S 3, W 1, NE 1, SE 3, SW 3, NW 3.
    assert_eq!(got.len(), 20);
}

#[test]
fn rule_7_king_captures_orthogonally_with_any_landing() {
    // a1: north over a4, land a5 or a6 (a7 own); east: two pieces in a row (c1, d1);
    // diagonal b2 never. h1: its own h3 stands before h5.
    assert_eq!(
        moves("W:WKa1,a7,Kh1,h3:Ba4,Kc1,Kd1,b2,h5"),
        sorted(&["a1xa5", "a1xa6"])
    );
    // Any number of empty squares before the victim, landing up to the edge.
    assert_eq!(moves("W:WKa1:Ba5"), sorted(&["a1xa6", "a1xa7", "a1xa8"]));
    // Diagonal victim only: no capture, quiet moves stop before it.
    assert!(moves("W:WKa1:Bc3").iter().all(|m| !m.contains('x')));
}

#[test]
fn rule_8_capture_is_compulsory_and_the_chain_goes_on() {
    // h2 could step, but c3 must capture, and must go on after c5.
    assert_eq!(moves("W:Wc3,h2:Bc4,c6,h7"), sorted(&["c3xc5xc7"]));
    let p = pos("W:Wc3,h2:Bc4,c6,h7");
    let g = Tama::DEFAULT;
    assert_eq!(g.max_capture(&p), 2);
    assert_eq!(
        g.resolve_token(&p, b"h2-h3").unwrap_err().code,
        game::Code::MissedCapture
    );
    assert_eq!(
        g.resolve_token(&p, b"c3xc5").unwrap_err().code,
        game::Code::NonMaximalCapture
    );
}

#[test]
fn rule_9_captured_pieces_leave_at_once() {
    // Test position "re-crossing": the final jump a2xa8 passes a3 (taken first) and a4, a5
    // (crossed before). Were a3 still on the board, the king could not pass it.
    assert_eq!(
        moves("W:WKa1,h2:Ba3,c5,d3,b2,a7,h7"),
        sorted(&["a1xa5xd5xd2xa2xa8"])
    );
    // The start square is empty once left: this chain ends on it.
    let got = moves("W:WKa4:Ba6,c7,d5,b4");
    assert!(got.contains(&"a4xa7xd7xd4xa4".to_string()), "{got:?}");
    assert!(got.iter().all(|m| m.matches('x').count() == 4));
}

#[test]
fn rule_10_no_180_degree_turn() {
    // Test position "180° rule": d6 and d2 cannot both be taken.
    let p = pos("W:WKd4:Bd6,d2");
    assert_eq!(Tama::DEFAULT.max_capture(&p), 1);
    assert_eq!(moves("W:WKd4:Bd6,d2"), sorted(&["d4xd1", "d4xd7", "d4xd8"]));
    // Straight on is allowed…
    assert_eq!(
        moves("W:WKa1:Ba3,a6"),
        sorted(&["a1xa4xa7", "a1xa4xa8", "a1xa5xa7", "a1xa5xa8"])
    );
    // …and so is a 90° turn.
    assert_eq!(
        moves("W:WKa1:Ba3,c4"),
        sorted(&["a1xa4xd4", "a1xa4xe4", "a1xa4xf4", "a1xa4xg4", "a1xa4xh4"])
    );
}

#[test]
fn rule_11_majority_over_all_pieces_kings_count_one() {
    // a3 can take a king (1 piece), e3 two men: the two men must be taken. g3 ties with e3.
    assert_eq!(
        moves("W:Wa3,e3,g3:BKa4,e4,e6,g4,g6"),
        sorted(&["e3xe5xe7", "g3xg5xg7"])
    );
    // Free choice of the king's landing square.
    assert_eq!(moves("W:WKa1:Ba3").len(), 5);
    // Non-maximal chains exist before the filter.
    let mut l = MoveList::new();
    Tama::DEFAULT.all_capture_chains(&pos("W:Wa3,e3,g3:BKa4,e4,e6,g4,g6"), &mut l);
    assert_eq!(l.len(), 3);
}

#[test]
fn rule_12_promotion() {
    // A quiet move onto the far rank crowns.
    let g = Tama::DEFAULT;
    let mut p = pos("W:Wd7:BKh1");
    let mv = g.resolve_token(&p, b"d7-d8").unwrap();
    assert!(mv.is_promotion());
    p.play(&mv);
    assert_eq!(p.kings(Side::White), sq("d8").bit());
    // Black is crowned on rank 1.
    let mv = g.resolve_token(&pos("B:WKh8:Be2"), b"e2-d1").unwrap();
    assert!(mv.is_promotion());

    // Test position "mid-capture promotion", default: crowned on c8, goes on as a king.
    assert_eq!(
        moves("W:Wc6:Bc7,e8"),
        sorted(&["c6xc8xf8", "c6xc8xg8", "c6xc8xh8"])
    );
    let m = g.resolve_token(&pos("W:Wc6:Bc7,e8"), b"c6xh8").unwrap();
    assert!(m.is_promotion());
    assert_eq!(m.capture_count(), 2);
    // Under `ludii`: c6xc8 only, crowned at the end.
    assert_eq!(moves_ludii("W:Wc6:Bc7,e8"), sorted(&["c6xc8"]));
    let m = Tama::LUDII
        .resolve_token(&pos("W:Wc6:Bc7,e8"), b"c6xc8")
        .unwrap();
    assert!(m.is_promotion());

    // The 180° rule holds across the promotion: no way back down the c-file to c4.
    assert_eq!(moves("W:Wc6:Bc7,c4"), sorted(&["c6xc8"]));

    // Captures after the crowning count for the majority rule: a2xa4 (1) loses to c6's 2
    // under the default rules; under `ludii` both take 1 and both are legal.
    assert_eq!(
        moves("W:Wc6,a2:Bc7,e8,a3"),
        sorted(&["c6xc8xf8", "c6xc8xg8", "c6xc8xh8"])
    );
    assert_eq!(
        moves_ludii("W:Wc6,a2:Bc7,e8,a3"),
        sorted(&["a2xa4", "c6xc8"])
    );

    // `ludii`: on the far rank the man goes on sideways, as a man.
    assert_eq!(moves_ludii("W:Wc6:Bc7,d8"), sorted(&["c6xc8xe8"]));
    assert_eq!(
        moves("W:Wc6:Bc7,d8"),
        sorted(&["c6xc8xe8", "c6xc8xf8", "c6xc8xg8", "c6xc8xh8"])
    );
}

#[test]
fn rule_13_no_move_loses() {
    let g = Tama::DEFAULT;
    // No pieces.
    let p = pos("B:WKd4:B");
    assert_eq!(
        g.terminal(&p),
        Some(Outcome::Win {
            winner: Seat(0),
            loser: Some(Seat(1))
        })
    );
    // All blocked: the black man on a2 can neither step (a1, b1, b2 full) nor jump (c2 full).
    let p = pos("B:WKa1,Kb1,b2,c2:Ba2");
    assert!(g.move_strings(&p).is_empty());
    assert_eq!(
        g.terminal(&p),
        Some(Outcome::Win {
            winner: Seat(0),
            loser: Some(Seat(1))
        })
    );
    // Not over while a move exists.
    assert_eq!(g.terminal(&Position::start()), None);
    // Results: recorded draws read, never derived.
    assert_eq!(g.parse_result("1/2-1/2"), Some(Outcome::Draw));
    assert_eq!(g.parse_result("1-1"), Some(Outcome::Draw));
    assert_eq!(g.parse_result("2-0"), g.parse_result("1-0"));
    assert_eq!(g.parse_result("0-2"), g.parse_result("0-1"));
    assert_eq!(g.parse_result("*"), Some(Outcome::Unfinished));
    assert_eq!(g.parse_result("3-1"), None);
    for r in ["1-0", "0-1", "1/2-1/2", "*"] {
        assert_eq!(g.write_result(g.parse_result(r).unwrap()), r);
    }
}

// The `schmidt` option: short-range kings (Ludii's "Observed" ruleset).

fn moves_schmidt(fen: &str) -> Vec<String> {
    Tama::SCHMIDT.move_strings(&pos(fen))
}

#[test]
fn schmidt_king_steps_one_square_in_eight_directions() {
    assert_eq!(
        moves_schmidt("W:WKd4:Ba8"),
        sorted(&["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e4", "d4-e5"])
    );
    // The default king slides: far more moves from the same square.
    assert!(moves("W:WKd4:Ba8").len() > 20);
}

#[test]
fn schmidt_king_captures_by_a_short_jump_only() {
    // d6 is two squares away: the flying king could take it, the short king cannot.
    assert_eq!(moves_schmidt("W:WKd4:Bd6,e4,a8"), sorted(&["d4xf4"]));
    assert_eq!(
        moves("W:WKd4:Bd6,e4,a8"),
        sorted(&["d4xd7", "d4xd8", "d4xf4", "d4xg4", "d4xh4"])
    );
}

#[test]
fn schmidt_king_captures_backwards_and_chains() {
    assert_eq!(moves_schmidt("W:WKd4:Bd3,c2"), sorted(&["d4xd2xb2"]));
    assert_eq!(moves("W:WKd4:Bd3,c2"), sorted(&["d4xd2xa2", "d4xd2xb2"]));
}

#[test]
fn schmidt_resolver_explains_a_long_king_move() {
    let rules = Tama::with_options("schmidt").unwrap();
    assert_eq!(rules, Tama::SCHMIDT);
    let p = pos("W:WKd4:Ba8");
    let err = rules.resolve_token(&p, b"d4-d7").unwrap_err();
    assert_eq!(err.code, game::Code::IllegalMove);
    assert!(err.message.contains("one square"), "{}", err.message);
    let err = rules
        .resolve_token(&pos("W:WKd4:Bd6,e4,a8"), b"d4xd7")
        .unwrap_err();
    assert!(err.message.contains("short jump"), "{}", err.message);
    assert!(rules.resolve_token(&p, b"d4-e5").is_ok());
    assert!(Tama::DEFAULT.resolve_token(&p, b"d4-d7").is_ok());
}
