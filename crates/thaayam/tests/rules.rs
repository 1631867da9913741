//! One test (or more) per numbered rule of docs/rules/thaayam.md (rules.md section 3).
//! Positions are hand-built with the position string; expected positions are worked out by
//! hand from the routes:
//! South: c1 d1 e1 e2 e3 e4 e5 d5 c5 b5 a5 a4 a3 a2 a1 b1 | b2 b3 b4 c4 d4 d3 d2 c2 | c3.
//! North: c5 b5 a5 a4 a3 a2 a1 b1 c1 d1 e1 e2 e3 e4 e5 d5 | d4 d3 d2 c2 b2 b3 b4 c4 | c3.

mod common;

use common::{after, game, pos, problem};
use game::{Code, Game, Outcome, Seat};
use thaayam::{route_square, throw_from_bits, Options, Square, Thaayam};

fn sq(name: &str) -> Square {
    Square::parse(name.as_bytes()).unwrap()
}

fn ok(start: &str, turn: &str) -> String {
    match after(&game(), start, turn) {
        Ok(p) => p,
        Err(e) => panic!(
            "{turn} from {start}: {} ({} at token {})",
            e.message, e.code, e.token
        ),
    }
}

fn err(start: &str, turn: &str) -> (Code, usize, String) {
    let p = problem(&game(), start, turn);
    (p.code, p.token, p.message)
}

// Rule 1: 5x5 board; c3 and the four palaces are marked, whether or not a seat plays there.
#[test]
fn rule01_board_and_marked_squares() {
    let marked: Vec<String> = (0..25)
        .filter_map(Square::new)
        .filter(|s| s.is_marked())
        .map(|s| s.to_string())
        .collect();
    assert_eq!(marked, ["c1", "a3", "c3", "e3", "c5"]);
    // East does not play, yet its palace e3 protects North's piece.
    assert_eq!(
        ok("S:S=d1,h3/N=e3,h3", "S [3] d1+3-e3"),
        "N:S=h3,e3/N=h3,e3"
    );
    // On the unmarked e2 the same piece is captured.
    assert_eq!(
        ok("S:S=d1,h3/N=e2,h3", "S [2] d1+2xe2 [3] e2+3"),
        "N:S=h3,e5/N=h4"
    );
    assert!(Square::parse(b"f1").is_none() && Square::parse(b"a6").is_none());
}

// Rule 2: four pieces each, all off the board at the start.
#[test]
fn rule02_four_pieces_in_hand() {
    let g = game();
    let p = g.start_position(&|_| None).unwrap();
    assert_eq!(g.write_position(&p), "S:S=h4/N=h4");
    let four = |n: &str| (n == "Seats").then(|| "S W N E".to_string());
    let p = g.start_position(&four).unwrap();
    assert_eq!(g.write_position(&p), "S:S=h4/W=h4/N=h4/E=h4");
    for s in 0..4 {
        assert_eq!(p.hand(s), 4);
        assert_eq!(p.on_board(s), 0);
    }
    assert_eq!(
        g.parse_position("S:S=h3,c1x2/N=h4").unwrap_err().code,
        Code::BadFen
    );
    assert_eq!(
        g.parse_position("S:S=h3/N=h4").unwrap_err().code,
        Code::BadFen
    );
}

// Rule 3: the routes; other seats' routes are rotations of South's.
#[test]
fn rule03_routes() {
    let route = |seat: u8| -> String {
        (0..25)
            .map(|i| route_square(seat, i).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        route(0),
        "c1 d1 e1 e2 e3 e4 e5 d5 c5 b5 a5 a4 a3 a2 a1 b1 b2 b3 b4 c4 d4 d3 d2 c2 c3"
    );
    assert_eq!(
        route(3),
        "e3 e4 e5 d5 c5 b5 a5 a4 a3 a2 a1 b1 c1 d1 e1 e2 d2 c2 b2 b3 b4 c4 d4 d3 c3"
    );
    assert_eq!(
        route(2),
        "c5 b5 a5 a4 a3 a2 a1 b1 c1 d1 e1 e2 e3 e4 e5 d5 d4 d3 d2 c2 b2 b3 b4 c4 c3"
    );
    assert_eq!(
        route(1),
        "a3 a2 a1 b1 c1 d1 e1 e2 e3 e4 e5 d5 c5 b5 a5 a4 b4 c4 d4 d3 d2 c2 b2 b3 c3"
    );
    // 24 squares from the palace to the keep.
    assert_eq!(
        ok("S:S=c1,h3/N=h4", "S [8 8 4 4 3] c1+8+8+4+4-c3 ~3"),
        "N:S=h3,k1/N=h4"
    );
    // Each seat enters on its own palace and follows its own route.
    assert_eq!(ok("E:S=h4/E=h4", "E [1 2] in e3+2-e5"), "S:S=h4/E=h3,e5");
    assert_eq!(ok("N:S=h4/N=h4", "N [1 3] in c5+3-a4"), "S:S=h4/N=h3,a4");
    assert_eq!(ok("W:S=h4/W=h4", "W [1 3] in a3+3-b1"), "S:S=h4/W=h3,b1");
}

// Rule 4: a throw scores 1, 2, 3, 4 or 8 with the fair-shell odds; nothing else.
#[test]
fn rule04_throw_values() {
    let mut counts = [0u32; 9];
    for bits in 0..16 {
        counts[usize::from(throw_from_bits(bits))] += 1;
    }
    assert_eq!(counts, [0, 4, 6, 4, 1, 0, 0, 0, 1]);
    for bad in ["S [5 2]", "S [1 6 2]", "S [0 3]", "S [1 16 2]"] {
        let (code, token, _) = err("S:S=h4/N=h4", bad);
        assert_eq!((code, token), (thaayam::BAD_THROW_SERIES, 1), "{bad}");
    }
}

// Rule 5: a series is zero or more 1, 4, 8 ended by exactly one 2 or 3.
#[test]
fn rule05_series_shape() {
    assert_eq!(
        ok("S:S=h4/N=h4", "S [1 1 8 4 3] in in c1+8+4+3"),
        "N:S=h2,c1,b1/N=h4"
    );
    for bad in ["S [2 1] in", "S [3 2]", "S [1 4] in c1+4", "S [] ", "S [8]"] {
        let (code, token, _) = err("S:S=h4/N=h4", bad);
        assert_eq!((code, token), (thaayam::BAD_THROW_SERIES, 1), "{bad}");
    }
}

// Rule 6: with no piece on the board, throws before the first 1 are discarded.
#[test]
fn rule06_discard() {
    assert_eq!(ok("S:S=h4/N=h4", "S [4 1 2] in c1+2"), "N:S=h3,e1/N=h4");
    assert_eq!(ok("S:S=h4/N=h4", "S [4 1 2] in c1+2 ~4"), "N:S=h3,e1/N=h4");
    let (code, _, msg) = err("S:S=h4/N=h4", "S [4 1 2] in c1+4+2");
    assert_eq!(code, Code::IllegalMove);
    assert!(msg.contains("no unused 4"), "{msg}");
    // No 1 at all: the whole series is discarded.
    let g = game();
    let p = pos(&g, "S:S=h4/N=h4");
    let t = common::resolve(&g, &p, "S [4 8 3]").unwrap();
    assert_eq!(g.facts(&p, &t).lost_throws, 3);
    // A piece in the keep counts as on the board: nothing is discarded.
    assert_eq!(
        ok("S:S=h3,k1/N=h4", "S [4 1 2] in c1+4+2"),
        "N:S=h2,e5,k1/N=h4"
    );
    // A piece on the route: nothing is discarded either.
    assert_eq!(
        ok("S:S=h3,e1/N=h4", "S [4 1 2] in c1+4+2"),
        "N:S=h2,e1,e5/N=h4"
    );
}

// Rule 7: turn order clockwise S, W, N, E, skipping empty seats; the record names the seats.
#[test]
fn rule07_turn_order() {
    assert_eq!(
        ok("S:S=h4/W=h4/N=h4/E=h4", "S [3]"),
        "W:S=h4/W=h4/N=h4/E=h4"
    );
    assert_eq!(
        ok("W:S=h4/W=h4/N=h4/E=h4", "W [3]"),
        "N:S=h4/W=h4/N=h4/E=h4"
    );
    assert_eq!(
        ok("E:S=h4/W=h4/N=h4/E=h4", "E [3]"),
        "S:S=h4/W=h4/N=h4/E=h4"
    );
    assert_eq!(ok("S:S=h4/N=h4/E=h4", "S [3]"), "N:S=h4/N=h4/E=h4");
    assert_eq!(ok("N:S=h4/N=h4/E=h4", "N [3]"), "E:S=h4/N=h4/E=h4");
    let (code, token, msg) = err("S:S=h4/N=h4", "N [3]");
    assert_eq!((code, token), (Code::IllegalMove, 0));
    assert_eq!(msg, "it is South's turn, not North's");
    let (_, _, msg) = err("S:S=h4/N=h4", "W [3]");
    assert_eq!(msg, "West does not play in this game (seats: S N)");

    let g = game();
    let start = |tags: &[(&str, &str)]| {
        let tags: Vec<(String, String)> = tags
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        g.start_position(&|n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone()))
            .map(|p| g.write_position(&p))
    };
    assert_eq!(start(&[]).unwrap(), "S:S=h4/N=h4");
    assert_eq!(start(&[("Seats", "N S")]).unwrap(), "N:S=h4/N=h4");
    assert_eq!(start(&[("Seats", "E S N")]).unwrap(), "E:S=h4/N=h4/E=h4");
    assert_eq!(
        start(&[("Seats", "S W N E"), ("First", "N")]).unwrap(),
        "N:S=h4/W=h4/N=h4/E=h4"
    );
    assert_eq!(start(&[("Seats", "South, East")]).unwrap(), "S:S=h4/E=h4");
    assert_eq!(
        start(&[("West", "Ann"), ("East", "Bob")]).unwrap(),
        "W:W=h4/E=h4"
    );
    let e = start(&[("Seats", "S N W")]).unwrap_err();
    assert_eq!(e.code, Code::BadTag);
    assert!(e.message.contains("S W N"), "{}", e.message);
    assert_eq!(start(&[("Seats", "S")]).unwrap_err().code, Code::BadTag);
    assert_eq!(
        start(&[("Seats", "S N"), ("First", "E")]).unwrap_err().code,
        Code::BadTag
    );
    // Under `ludii` the order is South, East, North, West.
    let ludii = Thaayam::new(Options {
        ludii: true,
        lenient_unused: false,
    });
    let tags = |n: &str| (n == "Seats").then(|| "S E N W".to_string());
    assert!(ludii.start_position(&tags).is_ok());
    assert!(g.start_position(&tags).is_err());
}

// Rule 8: the throws are used in any order, each whole and once.
#[test]
fn rule08_any_order_each_once() {
    assert_eq!(ok("S:S=d1,h3/N=h4", "S [4 1 2] d1+2+1+4"), "N:S=h3,c5/N=h4");
    assert_eq!(
        ok("S:S=d1,h3/N=h4", "S [4 1 2] d1+4+2 in"),
        "N:S=h2,c1,d5/N=h4"
    );
    let (code, token, msg) = err("S:S=d1,h3/N=h4", "S [4 1 2] in c1+4 d1+4");
    assert_eq!((code, token), (Code::IllegalMove, 4));
    assert_eq!(msg, "no unused 4 in this series (throws left: 2)");
    let (_, _, msg) = err("S:S=d1,h3/N=h4", "S [4 1 2] d1+4+4");
    assert!(msg.contains("no unused 4"), "{msg}");
}

// Rule 9: a 1 enters a piece from hand onto the own palace.
#[test]
fn rule09_enter() {
    assert_eq!(ok("S:S=h4/N=h3,c1", "S [1 2] in c1+2"), "N:S=h3,e1/N=h3,c1");
    assert_eq!(ok("N:S=h4/N=h4", "N [1 2] in c5+2"), "S:S=h4/N=h3,a5");
    let (code, token, msg) = err("S:S=d1,h3/N=h4", "S [2] in");
    assert_eq!((code, token), (Code::IllegalMove, 2));
    assert_eq!(msg, "no 1 left to enter a piece (throws left: 2)");
    let (_, _, msg) = err("S:S=c5x4/N=h4", "S [1 2] in");
    assert_eq!(msg, "South has no piece in hand to enter");
}

// Rule 10: one advance per unit per series, by the sum, nothing happening on the way.
#[test]
fn rule10_advance_by_the_sum() {
    // North's single on e1 is passed over, not captured.
    assert_eq!(
        ok("S:S=c1,h3/N=e1,h3", "S [4 2] c1+4+2-e5"),
        "N:S=h3,e5/N=h3,e1"
    );
    let (code, token, msg) = err("S:S=c1,h3/N=h4", "S [4 2] c1+4 e3+2");
    assert_eq!((code, token), (Code::IllegalMove, 3));
    assert_eq!(msg, "the piece on e3 already moved in this series");
    // Another piece may still move, and a piece entered in the series may advance.
    assert_eq!(
        ok("S:S=c1x2,h2/N=h4", "S [4 2] c1+4 c1+2"),
        "N:S=h2,e1,e3/N=h4"
    );
    assert_eq!(ok("S:S=h4/N=h4", "S [1 4 2] in c1+4+2"), "N:S=h3,e5/N=h4");
}

// Rule 11: the keep is reached by an exact count only.
#[test]
fn rule11_exact_keep() {
    let (code, _, msg) = err("S:S=d2,h3/N=h4", "S [3] d2+3");
    assert_eq!(code, Code::IllegalMove);
    assert_eq!(msg, "d2+3 would pass the keep (3 squares, 2 to go)");
    assert_eq!(ok("S:S=d2,h3/N=h4", "S [3] ~3"), "N:S=h3,d2/N=h4");
    assert_eq!(ok("S:S=d2,h3/N=h4", "S [2] d2+2-c3"), "N:S=h3,k1/N=h4");
    let (_, _, msg) = err("S:S=c2,k3/N=h4", "S [2] c3+2");
    assert!(msg.contains("pieces in the keep do not advance"), "{msg}");
}

// Rule 12: any number of pieces share a square.
#[test]
fn rule12_sharing() {
    assert_eq!(ok("S:S=c1,e1,h2/N=h4", "S [2] c1+2-e1"), "N:S=h2,e1x2/N=h4");
    // Enemies share a marked square (North's own palace c5).
    assert_eq!(
        ok("S:S=e1,h3/N=c5,h3", "S [4 2] e1+4+2-c5"),
        "N:S=h3,c5/N=h3,c5"
    );
}

// Rule 13: captures. Singles take singles; twins take singles and twins; marked squares are safe.
#[test]
fn rule13_captures() {
    // A single captures every enemy single there.
    assert_eq!(
        ok("S:S=d1,h3/N=e2x2,h2", "S [2] d1+2xe2 [3] e2+3"),
        "N:S=h3,e5/N=h4"
    );
    // A single shares with an enemy twin.
    assert_eq!(
        ok("S:S=d1,h3/N=Te2,h2", "S [2] d1+2-e2"),
        "N:S=h3,e2/N=h2,Te2"
    );
    let (_, _, msg) = err("S:S=d1,h3/N=Te2,h2", "S [2] d1+2xe2");
    assert_eq!(
        msg,
        "nothing is captured on e2 (a single cannot capture twins)"
    );
    // A twin captures singles and twins; the twin goes home as two singles.
    assert_eq!(
        ok("S:S=Tb2,h2/N=b3,Tb3,h1", "S [2] Tb2+2xb3 [3] Tb3+3"),
        "N:S=h2,Tb4/N=h4"
    );
    // Several seats at once: North's single and East's twin.
    let g = game();
    let p = pos(&g, "S:S=Td4,h2/N=d2,h3/E=Td2,h2");
    let t = common::resolve(&g, &p, "S [1 3] Td4+3+1xd2 [2] Td2+2").unwrap();
    let f = g.facts(&p, &t);
    assert_eq!(f.captures, 3, "pieces sent home");
    let d2 = sq("d2");
    assert_eq!(f.capture_squares[..], [(d2.file(), d2.rank())]);
    let mut q = p.clone();
    g.play(&mut q, &t);
    assert_eq!(g.write_position(&q), "N:S=h2,Tc2/N=h4/E=h4");
    // Nothing is captured on a marked square: a twin arriving on a3 (West's palace).
    assert_eq!(
        ok("S:S=Tb5,h2/N=a3,h3", "S [4 2] Tb5+4+2-a3"),
        "N:S=h2,Ta3/N=h3,a3"
    );
    let (_, _, msg) = err("S:S=Tb5,h2/N=a3,h3", "S [4 2] Tb5+4+2xa3");
    assert_eq!(
        msg,
        "nothing is captured on a3 (nothing is ever captured on a marked square)"
    );
}

// Rule 14: one extra series per capturing move, after the current one; no carry-over.
#[test]
fn rule14_extra_series() {
    let start = "S:S=c1,e1,h2/N=e2,e5,h2";
    assert_eq!(
        ok(start, "S [1 4 2] e1+1xe2 c1+4+2xe5 [2] e2+2 [3] e5+3"),
        "N:S=h2,e4,b5/N=h4"
    );
    let (code, token, msg) = err(start, "S [1 4 2] e1+1xe2 c1+4+2xe5 [2] e2+2");
    assert_eq!((code, token), (thaayam::BAD_THROW_SERIES, 3));
    assert_eq!(
        msg,
        "c1+4+2xe5 captured, so South throws an extra series after this one: it is missing"
    );
    // A capture in an extra series earns one more; the message names its token.
    let chain = "S:S=c1,e1,h2/N=e2,e5,d5,h1";
    let (code, token, msg) = err(chain, "S [1 2] e1+1xe2 c1+2 [1 3] e2+3xe5 e1+1");
    assert_eq!((code, token), (thaayam::BAD_THROW_SERIES, 5));
    assert_eq!(
        msg,
        "e2+3xe5 captured, so South throws an extra series after this one: it is missing"
    );
    let (code, token, msg) = err("S:S=h4/N=h4", "S [1 2] in c1+2 [3]");
    assert_eq!((code, token), (thaayam::BAD_THROW_SERIES, 4));
    assert_eq!(
        msg,
        "an extra series is thrown only after a capturing move, and no capture earned this one"
    );
    // The 8 lost in the first series is not available in the extra one.
    let carry = "S:S=b4,c2,h2/N=d4,h3";
    assert_eq!(ok(carry, "S [8 2] b4+2xd4 [3] d4+3"), "N:S=h2,c2x2/N=h4");
    let (_, token, msg) = err(carry, "S [8 2] b4+2xd4 [3] d4+8");
    assert_eq!(token, 4);
    assert_eq!(msg, "no unused 8 in this series (throws left: 3)");
}

// Rule 15: twins.
#[test]
fn rule15_twins() {
    // Declared on the opposite palace, they move half the sum rounded down: 11 -> 5.
    assert_eq!(
        ok("S:S=c5x2,h2/N=h4", "S [8 3] Tc5 Tc5+8+3-a2"),
        "N:S=h2,Ta2/N=h4"
    );
    assert_eq!(
        ok("S:S=c5x3,h1/N=h4", "S [4 2] Tc5 Tc5+4+2"),
        "N:S=h1,c5,Ta4/N=h4"
    );
    let (code, _, msg) = err("S:S=b5x2,h2/N=h4", "S [2] Tb5");
    assert_eq!(code, Code::IllegalMove);
    assert_eq!(msg, "twins can only be declared on your opposite palace c5");
    let (_, _, msg) = err("S:S=c5,h3/N=h4", "S [2] Tc5");
    assert_eq!(
        msg,
        "twins need two single pieces of South on c5 (there is 1)"
    );
    // North's opposite palace is c1.
    assert_eq!(
        ok("N:S=h4/N=c1x2,h2", "N [3] Tc1 Tc1+3-d1"),
        "S:S=h4/N=h2,Td1"
    );
    // At least one square: a lone 1 cannot move twins.
    let (_, _, msg) = err("S:S=Tb5,h2/N=h4", "S [1 2] Tb5+1");
    assert_eq!(msg, "twins move half the points: 1 moves them 0 squares");
    // On reaching the keep they are two singles again.
    assert_eq!(ok("S:S=Tc2,h2/N=h4", "S [2] Tc2+2-c3"), "N:S=h2,k2/N=h4");
    // Pieces that moved in this series may be declared, but the twins cannot move again.
    let (_, token, msg) = err("S:S=e5,d5,h2/N=h4", "S [1 4 2] d5+1 e5+2 Tc5 Tc5+4");
    assert_eq!(token, 5);
    assert_eq!(
        msg,
        "the twins on c5 already moved in this series, or were made of pieces that did"
    );
    // ... which is legal when nothing else could use the 4.
    assert_eq!(
        ok("S:S=e5,d5,k2/N=h4", "S [1 2] d5+1 e5+2 Tc5"),
        "N:S=Tc5,k2/N=h4"
    );
    // Twins are captured only by twins (see rule 13); the twin counts as one unit for
    // rule 10: both its pieces move once.
    let (_, token, msg) = err("S:S=c5x2,h2/N=h4", "S [8 3] Tc5 Tc5+8 Ta3+3");
    assert_eq!(token, 4);
    assert_eq!(
        msg,
        "the twins on a3 already moved in this series, or were made of pieces that did"
    );
}

// Rule 16: bearing off.
#[test]
fn rule16_bearing_off() {
    assert_eq!(ok("S:S=k4/N=h4", "S [1 2] off"), "N:S=k3,o1/N=h4");
    let (code, _, msg) = err("S:S=c2,k3/N=h4", "S [1 2] off");
    assert_eq!(code, Code::IllegalMove);
    assert_eq!(
        msg,
        "pieces outside the keep: cannot bear off (South still has c2)"
    );
    let (_, _, msg) = err("S:S=h1,k3/N=h4", "S [1 2] off");
    assert_eq!(
        msg,
        "pieces outside the keep: cannot bear off (South still has 1 in hand)"
    );
    // The piece that arrives in this series stays; the others may leave once all are in.
    assert_eq!(
        ok("S:S=d2,k3/N=h4", "S [1 1 2] d2+2 off off"),
        "N:S=k2,o2/N=h4"
    );
    let (_, token, msg) = err("S:S=c2x4/N=h4", "S [1 1 1 1 1 2] c2+1 c2+1 c2+1 c2+1 off");
    assert_eq!(token, 6);
    assert_eq!(
        msg,
        "the pieces in the keep reached it in this series: they bear off from the next series on"
    );
    let (_, _, msg) = err("S:S=k4/N=h4", "S [2] off");
    assert_eq!(msg, "no 1 left to bear off a piece (throws left: 2)");
}

// Rule 17: the greatest possible number of throws must be used.
#[test]
fn rule17_use_the_most_throws() {
    let (code, token, msg) = err("S:S=c1,h3/N=h4", "S [4 2] c1+4");
    assert_eq!((code, token), (thaayam::UNUSED_THROW, 1));
    assert_eq!(
        msg,
        "uses 1 of the 2 usable throws (lost: 2), but a play using 2 exists: c1+4+2"
    );
    // Only one of the two can be used: either will do, but one must be.
    assert_eq!(ok("S:S=d4,k3/N=h4", "S [4 3] d4+4"), "N:S=k4/N=h4");
    assert_eq!(ok("S:S=d4,k3/N=h4", "S [4 3] d4+3"), "N:S=c2,k3/N=h4");
    assert_eq!(err("S:S=d4,k3/N=h4", "S [4 3]").0, thaayam::UNUSED_THROW);
    // Throws are counted, not their values: 4 then off, or 2+1, both use two of three.
    assert_eq!(ok("S:S=d4,k3/N=h4", "S [1 4 2] d4+4 off"), "N:S=k3,o1/N=h4");
    assert_eq!(ok("S:S=d4,k3/N=h4", "S [1 4 2] d4+2+1"), "N:S=c2,k3/N=h4");
    let (_, _, msg) = err("S:S=d4,k3/N=h4", "S [1 4 2] d4+4");
    assert_eq!(
        msg,
        "uses 1 of the 3 usable throws (lost: 2 1), but a play using 2 exists: d4+4 off"
    );
    // The best play may need an order: arrive in the keep first, then bear off.
    let (_, _, msg) = err("S:S=d2,k3/N=h4", "S [1 2] d2+1");
    assert!(msg.ends_with("a play using 2 exists: d2+2 off"), "{msg}");
    // Discarded throws are not counted.
    assert_eq!(ok("S:S=h4/N=h4", "S [4 3]"), "N:S=h4/N=h4");
    // With `lenient-unused` only the end of the series is checked.
    let lenient = Thaayam::new(Options {
        ludii: false,
        lenient_unused: true,
    });
    let p = pos(&lenient, "S:S=d4,k3/N=h4");
    let t = common::resolve(&lenient, &p, "S [1 4 2] d4+4");
    assert_eq!(
        t.unwrap_err().code,
        thaayam::UNUSED_THROW,
        "off could still use the 1"
    );
    // d4+2 leaves the 4 with nowhere to go; d4+4 d2+2 would have used both.
    let p = pos(&lenient, "S:S=d4,d2,k2/N=h4");
    assert!(common::resolve(&lenient, &p, "S [4 2] d4+2").is_ok());
    assert_eq!(
        err("S:S=d4,d2,k2/N=h4", "S [4 2] d4+2").0,
        thaayam::UNUSED_THROW
    );
}

// Rule 18: the first to bear off all four wins at once.
#[test]
fn rule18_win() {
    let g = game();
    let mut p = pos(&g, "S:S=k4/N=h4");
    let t = common::resolve(&g, &p, "S [1 1 1 1 1 2] off off off off").unwrap();
    assert_eq!(g.facts(&p, &t).lost_throws, 2);
    g.play(&mut p, &t);
    assert_eq!(g.write_position(&p), "N:S=o4/N=h4");
    assert_eq!(
        g.terminal(&p),
        Some(Outcome::Win {
            winner: Seat(0),
            loser: None
        })
    );
    let (code, token, msg) = err("S:S=k4/N=h4", "S [1 1 1 1 1 2] off off off off off");
    assert_eq!((code, token), (Code::IllegalMove, 6));
    assert_eq!(
        msg,
        "South has borne off all four pieces: the game is over and the rest of the series is lost"
    );
    // An owed extra series is not thrown.
    assert_eq!(ok("S+1:S=k1,o3/N=h4", "S [1 2] off"), "N:S=o4/N=h4");
    let (code, token, _) = err("S+1:S=k1,o3/N=h4", "S [1 2] off [3]");
    assert_eq!((code, token), (thaayam::BAD_THROW_SERIES, 3));
    // Nothing is played after the end.
    let (code, _, msg) = err("N:S=o4/N=h4", "N [3]");
    assert_eq!(code, Code::ResultMismatch);
    assert_eq!(msg, "the game is over: South has borne off all four pieces");
    assert_eq!(g.terminal(&pos(&g, "S:S=k4/N=h4")), None);
}

// The `ludii` option: one throw per advance, several advances per unit, twins halve each throw
// and capture only twins.
#[test]
fn option_ludii() {
    let g = Thaayam::new(Options {
        ludii: true,
        lenient_unused: false,
    });
    let run = |start: &str, turn: &str| common::after(&g, start, turn);
    assert_eq!(
        run("S:S=c1,h3/N=h4", "S [4 2] c1+4 e3+2").unwrap(),
        "N:S=h3,e5/N=h4"
    );
    let e = run("S:S=c1,h3/N=h4", "S [4 2] c1+4+2").unwrap_err();
    assert_eq!(
        e.message,
        "under the ludii rules each throw moves a unit on its own: write one throw per advance"
    );
    // A capture at each stop, each earning an extra series.
    assert_eq!(
        run(
            "S:S=c1,h3/N=e1,e5,h2",
            "S [4 2] c1+2xe1 e1+4xe5 [3] e5+3 [2] b5+2"
        )
        .unwrap(),
        "N:S=h3,a4/N=h4"
    );
    // Twins do not capture singles, and a 1 does not move them.
    assert_eq!(
        run("S:S=Tb2,h2/N=b3,h3", "S [2] Tb2+2-b3").unwrap(),
        "N:S=h2,Tb3/N=h3,b3"
    );
    let e = run("S:S=Tb2,h2/N=h4", "S [1 2] Tb2+1").unwrap_err();
    assert_eq!(
        e.message,
        "under the ludii rules twins move half of each throw, so a 1 cannot move them"
    );
    // The default rules capture there.
    assert_eq!(
        ok("S:S=Tb2,h2/N=b3,h3", "S [2] Tb2+2xb3 [3] Tb3+3"),
        "N:S=h2,Tb4/N=h4"
    );
}
