//! The resolver: every diagnostic code with its message, and the accepted token forms.

use game::{Code, Game, Notation};
use tama::{MoveList, Position, Tama};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn ok(fen: &str, token: &str) -> String {
    ok_with(Tama::DEFAULT, fen, token)
}

fn ok_with(rules: Tama, fen: &str, token: &str) -> String {
    match rules.resolve_token(&pos(fen), token.as_bytes()) {
        Ok(m) => m.full_path(),
        Err(p) => panic!("{token} at {fen}: {} {}", p.code, p.message),
    }
}

fn err(fen: &str, token: &str) -> (Code, String) {
    err_with(Tama::DEFAULT, fen, token)
}

fn err_with(rules: Tama, fen: &str, token: &str) -> (Code, String) {
    match rules.resolve_token(&pos(fen), token.as_bytes()) {
        Ok(m) => panic!("{token} at {fen} resolved to {m:?}"),
        Err(p) => (p.code, p.message),
    }
}

const START: &str = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";

#[test]
fn accepted_forms_of_a_quiet_move() {
    for t in [
        "c3-c4", "c3c4", "19-27", "1927", "19 - 27", "C3-C4", "c3-c4!", "c3-c4?!", "19x27",
    ] {
        assert_eq!(ok(START, t), "c3-c4", "{t}");
    }
}

#[test]
fn accepted_forms_of_a_capture() {
    let f = "W:Wc3,e2:Bc4,d5,e7";
    for t in [
        "c3xe5", "c3xc5xe5", "c3:e5", "c3:c5:e5", "19x37", "19x35x37", "c3-e5", "c3e5", "c3×e5",
    ] {
        assert_eq!(ok(f, t), "c3xc5xe5", "{t}");
    }
    // Start, some landing squares in order, end: also the "turning points" form of a king.
    assert_eq!(
        ok("W:WKa1,h2:Ba3,c5,d3,b2,a7,h7", "a1xa8"),
        "a1xa5xd5xd2xa2xa8"
    );
    assert_eq!(
        ok("W:WKa1,h2:Ba3,c5,d3,b2,a7,h7", "a1xa5xd5xd2xa8"),
        "a1xa5xd5xd2xa2xa8"
    );
}

#[test]
fn a_short_form_over_several_landing_variants_of_one_result_is_not_ambiguous() {
    // a1xa4xa7 and a1xa5xa7 take the same pieces: one move.
    assert!(ok("W:WKa1:Ba3,a6", "a1xa7").ends_with("xa7"));
}

#[test]
fn ambiguous_move() {
    let (code, msg) = err("W:WKb2:Bc2,e4,f4,c7", "b2xa7");
    assert_eq!(code, Code::AmbiguousMove);
    assert_eq!(
        msg,
        "b2xa7 is ambiguous: it fits 2 moves that capture different pieces \
         (b2xe2xe7xa7, b2xf2xf7xa7); write the full path"
    );
    // The diagram draws each move it fits along its landing squares, not b2 straight to a7.
    let p = Tama::DEFAULT
        .resolve_token(&pos("W:WKb2:Bc2,e4,f4,c7"), b"b2xa7")
        .unwrap_err();
    let mut played = p.played.clone();
    played.sort();
    assert_eq!(
        played,
        [
            vec![(1, 1), (4, 1), (4, 6), (0, 6)],
            vec![(1, 1), (5, 1), (5, 6), (0, 6)]
        ]
    );
    // The full path settles it.
    assert_eq!(ok("W:WKb2:Bc2,e4,f4,c7", "b2xe2xe7xa7"), "b2xe2xe7xa7");
    assert_eq!(ok("W:WKb2:Bc2,e4,f4,c7", "b2xf2xa7"), "b2xf2xf7xa7");
}

#[test]
fn non_maximal_capture_complete_chain() {
    let (code, msg) = err("W:Wc3,e2:Bc4,d5,d3,f5", "c3xe3");
    assert_eq!(code, Code::NonMaximalCapture);
    assert_eq!(
        msg,
        "c3xe3 captures 1 piece but 3 are required: play a chain such as c3xc5xe5xg5"
    );
    // Another piece's longer chain makes this one non-maximal too.
    let (code, msg) = err("W:Wa3,e3:BKa4,e4,e6", "a3xa5");
    assert_eq!(code, Code::NonMaximalCapture);
    assert_eq!(
        msg,
        "a3xa5 captures 1 piece but 2 are required: play a chain such as e3xe5xe7"
    );
}

#[test]
fn non_maximal_capture_stopping_early() {
    let (code, msg) = err("W:Wc3,e2:Bc4,d5,f5", "c3xc5xe5");
    assert_eq!(code, Code::NonMaximalCapture);
    assert_eq!(
        msg,
        "c3xc5xe5 captures 2 pieces and stops although the piece can capture on; \
         3 are required: play a chain such as c3xc5xe5xg5"
    );
    let (code, _) = err("W:Wc3,e2:Bc4,d5,f5", "c3xe5");
    assert_eq!(code, Code::NonMaximalCapture);
    let (code, msg) = err("W:WKa1,h2:Ba3,c5,d3,b2,a7,h7", "a1xa5xd5xd1");
    assert_eq!(code, Code::NonMaximalCapture);
    assert_eq!(
        msg,
        "a1xa5xd5xd1 captures 3 pieces but 5 are required: play a chain such as a1xa5xd5xd2xa2xa8"
    );
}

#[test]
fn missed_capture() {
    let (code, msg) = err("W:Wc3,e2:Bc4,d5,e7", "e2-e3");
    assert_eq!(code, Code::MissedCapture);
    assert_eq!(
        msg,
        "e2-e3 is not allowed: capturing is compulsory and White can take 2 pieces (e.g. c3xc5xe5)"
    );
    // A king's quiet slide while it must capture.
    let (code, msg) = err("W:WKd4,a2:Bd6,d2,h7", "d4-h8");
    assert_eq!(code, Code::MissedCapture);
    assert!(msg.contains("White can take 1 piece (e.g. d4xd1)"), "{msg}");
    // Issue #17: a numeric record gets its suggestion in numbers (e2 = 13, e3 = 21, c3 = 19,
    // c5 = 35, e5 = 37), and an en dash is read as `-`.
    let (code, msg) = err("W:Wc3,e2:Bc4,d5,e7", "13\u{2013}21");
    assert_eq!(code, Code::MissedCapture);
    assert!(msg.ends_with("(e.g. 19x35x37)"), "{msg}");
    let (_, msg) = err("W:Wc3,e2:Bc4,d5,e7", "c3xc5");
    assert!(msg.ends_with("such as c3xc5xe5"), "{msg}");
    let (_, msg) = err("W:Wc3,e2:Bc4,d5,e7", "19x35");
    assert!(msg.ends_with("such as 19x35x37"), "{msg}");
}

#[test]
fn illegal_moves_say_why() {
    let cases: &[(&str, &str, &str)] = &[
        (START, "c4-c5", "there is no piece on c4"),
        (START, "c6-c5", "c6 holds a black man but White is to move"),
        (START, "c3-c2", "a man cannot move backwards"),
        (START, "c2-c3", "c3 is occupied"),
        (START, "c3-c5", "a man moves one square"),
        (START, "c3-d5", "a man moves one square"),
        (START, "c3xc5", "there is no piece to capture between c3 and c5"),
        (START, "b3xd3", "a man cannot jump its own piece on c3"),
        ("W:Wc3,h2:Bd4,h7", "c3xe5", "men capture forward or sideways, not diagonally (c3xe5)"),
        ("W:Wc3,h2:Bd4,h7", "c3-e5", "men capture forward or sideways, not diagonally"),
        ("W:Wc3,h2:Bc2,h7", "c3xc1", "a man cannot capture backwards (c3xc1)"),
        ("W:WKd4,a2:Bd6,d2,h7", "d4xd7xd1", "a capturing piece may not turn back by 180° between two jumps (at d7)"),
        ("W:WKd4,a2:Bf6,h7", "d4xg7", "kings capture along ranks and files, not diagonally (d4xg7)"),
        ("W:WKd4,a2:Bf6,h7", "d4-g7", "a king's path is blocked at f6, and kings capture along ranks and files, not diagonally"),
        ("W:WKd4,a2:Bf6,h7", "d4-e6", "a king moves along a rank, file or diagonal"),
        ("W:WKd4,a2,e5:Bh7", "d4-f6", "a king's path is blocked at e5"),
        ("W:WKd4,a2:Bd6,d7,h7", "d4xd8", "a king takes one piece per jump, but d6 and d7 stand between d4 and d8"),
        ("W:WKd4,a2,d6:Bd7,h7", "d4xd8", "a king cannot jump its own piece on d6"),
        ("W:WKd4,a2:Bd6,h7", "d4xd7xd5", "a capturing piece may not turn back by 180° between two jumps (at d7)"),
        ("W:WKd4,a2:Bd6,d7,h7", "d4xd7", "d7 is occupied"),
        ("W:Wc3,e2:Bc4,d5,e7", "c3xc5xe5xe7", "there is no piece to capture between e5 and e7"),
        ("W:Wc3:Bc4,d5,e7", "c3xc5xc3", "a man cannot capture backwards (c5xc3)"),
        ("W:WKa1,h2:Ba3,c5,d3,b2,h7", "a1xa5xa8", "there is no piece to capture between a5 and a8"),
        ("W:WKa1:Ba3,c4,h7", "a1xa4xa1", "a capturing piece may not turn back by 180° between two jumps (at a4)"),
        ("W:WKa1:Ba3,a6,h7", "a1xa4xd4", "there is no piece to capture between a4 and d4"),
        ("W:WKc1:Bc3,a5,h7", "c1xc4xa4xa8", "there is no piece to capture between c4 and a4"),
        ("W:Wc3:Bd3,c4,h7", "c3xg3", "no capture of the man on c3 goes this way; it can play c3xc5"),
        ("W:Wc3,h2:Bh7", "c3xc7", "the man on c3 has nothing to capture"),
        ("W:WKe1:Be3,e7,h7", "e1xe5xe1", "a capturing piece may not turn back by 180° between two jumps (at e5)"),
    ];
    for (fen, token, reason) in cases {
        let (code, msg) = err(fen, token);
        assert_eq!(code, Code::IllegalMove, "{token} at {fen}: {msg}");
        assert_eq!(
            msg,
            format!("{token} is illegal: {reason}"),
            "{token} at {fen}"
        );
    }
}

#[test]
fn a_captured_piece_cannot_be_jumped_again() {
    // Going back over a piece just taken is a 180° turn; crossing it later finds nothing.
    let (code, msg) = err("W:WKa1:Ba3,h7", "a1xa4xa2");
    assert_eq!(code, Code::IllegalMove);
    assert_eq!(
        msg,
        "a1xa4xa2 is illegal: a capturing piece may not turn back by 180° between two jumps (at a4)"
    );
    let (_, msg) = err("W:WKa1,h2:Ba3,c5,d3,b2,a7,h7", "a1xa5xd5xd2xa2xa4");
    assert_eq!(
        msg,
        "a1xa5xd5xd2xa2xa4 is illegal: there is no piece to capture between a2 and a4 \
         (the piece on a3 was already taken in this move)"
    );
}

#[test]
fn unreadable_tokens() {
    for (t, m) in [
        // The shared draughts grammar's wording (the same for every draughts crate).
        ("zz", "`zz` is not a move"),
        ("c9-c4", "`c9-c4` names c9, which is not a playable square"),
        (
            "99-27",
            "`99-27` names square 99, which this board does not have",
        ),
        ("c3", "`c3` names only one square"),
        ("", "an empty move"),
        (
            "123-4",
            "`123-4` names square 123, which this board does not have",
        ),
    ] {
        let (code, msg) = err(START, t);
        assert_eq!(code, Code::IllegalMove);
        assert_eq!(msg, m);
    }
}

#[test]
fn ludii_resolution_and_messages() {
    let f = "W:Wc6:Bc7,e8";
    assert_eq!(ok_with(Tama::LUDII, f, "c6xc8"), "c6xc8");
    let (code, msg) = err_with(Tama::LUDII, f, "c6xc8xf8");
    assert_eq!(code, Code::IllegalMove);
    assert_eq!(
        msg,
        "c6xc8xf8 is illegal: under the ludii rules a man that reaches the far rank during a \
         capture goes on as a man and is crowned only when the chain ends (c8xf8)"
    );
    // Default rules: c6xc8 alone stops too early.
    let (code, msg) = err(f, "c6xc8");
    assert_eq!(code, Code::NonMaximalCapture);
    assert_eq!(
        msg,
        "c6xc8 captures 1 piece and stops although the piece can capture on; 2 are required: \
         play a chain such as c6xc8xf8"
    );
}

#[test]
fn game_trait_resolve_and_write() {
    let g = Tama::DEFAULT;
    let p = pos("W:Wc3,e2:Bc4,d5,e7");
    let mv = g.resolve(&p, &[b"c3xe5"]).unwrap();
    assert_eq!(g.write_move(&p, &mv, Notation::default()), "c3xe5");
    let full = Notation {
        numeric: false,
        full_captures: true,
    };
    assert_eq!(g.write_move(&p, &mv, full), "c3xc5xe5");
    let numeric = Notation {
        numeric: true,
        full_captures: true,
    };
    assert_eq!(g.write_move(&p, &mv, numeric), "19x35x37");
    // The short form of an ambiguous move is written as the full path.
    let p = pos("W:WKb2:Bc2,e4,f4,c7");
    let mv = g.resolve(&p, &[b"b2xe2xe7xa7"]).unwrap();
    assert_eq!(g.write_move(&p, &mv, Notation::default()), "b2xe2xe7xa7");
    // Empty ply, extra tokens.
    assert_eq!(g.resolve(&p, &[]).unwrap_err().code, Code::IllegalMove);
    let e = g
        .resolve(&Position::start(), &[b"c3-c4", b"c6-c5"])
        .unwrap_err();
    assert_eq!(e.token, 1);
    // Facts.
    let p = pos("W:Wc6,a2:Bc7,e8,a4");
    let mv = g.resolve(&p, &[b"c6xf8"]).unwrap();
    let facts = g.facts(&p, &mv);
    assert_eq!(facts.mover, 0);
    assert_eq!(facts.captures, 2);
    assert_eq!(facts.capture_squares[..], [(2, 6), (4, 7)]); // c7, e8
    assert!(facts.promotion);
    assert_eq!(facts.material, [2, 1, 0, 0]);
}

/// A king chain that lands on its final square earlier in the chain too: the short form names
/// the whole (maximal) chain, and the writer's short form reads back to the same move.
#[test]
fn short_form_of_a_chain_that_returns_to_its_first_landing() {
    let pos =
        Position::from_fen("B:Wa2,e2,f2,h2,c3,e3,g3,a4,h4,f5,d6,Kc8:BKh1,a6,b6,g6,a7,h7").unwrap();
    let game = Tama::DEFAULT;
    let mv = game
        .resolve_token(&pos, b"h1xh3")
        .expect("short form of the maximal chain");
    assert_eq!(mv.capture_count(), game.max_capture(&pos));
    let mut list = MoveList::new();
    game.legal_moves(&pos, &mut list);
    for m in list.iter() {
        let short = game.format_move(&pos, m, game::Notation::default());
        let back = game.resolve_token(&pos, short.as_bytes()).unwrap();
        assert!(
            back.same_result(m),
            "{short} read back as {}",
            back.full_path()
        );
    }
}
