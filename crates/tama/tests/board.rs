//! The position as a diagram sees it, and the squares a problem carries for drawing.

use game::{BoardStyle, Code, Game, Seat};
use tama::{Position, Tama};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn start_board_has_sixteen_men_a_side() {
    let rules = Tama::default();
    let board = rules.board(&Position::start());
    assert_eq!((board.files, board.ranks), (8, 8));
    assert_eq!(board.style, BoardStyle::Checkered);
    assert_eq!(board.to_move, Seat(0));
    assert_eq!(board.seat_name(board.to_move), "White");
    assert_eq!(board.pieces.len(), 32);
    // White on ranks 2 and 3, Black on ranks 6 and 7, no kings.
    for p in &board.pieces {
        let expect = match p.rank {
            1 | 2 => Some(0),
            5 | 6 => Some(1),
            r => panic!("piece on rank {}", r + 1),
        };
        assert_eq!(p.seat, expect);
        assert!(!p.king && !p.twin && p.count == 1);
    }
}

#[test]
fn kings_and_side_to_move() {
    let rules = Tama::default();
    let board = rules.board(&pos("B:WKd4,a2:Bd6,Kh7"));
    assert_eq!(board.to_move, Seat(1));
    let at = |f, r| board.pieces_at(f, r).copied().collect::<Vec<_>>();
    assert_eq!(at(3, 3).len(), 1);
    assert!(at(3, 3)[0].king && at(3, 3)[0].seat == Some(0));
    assert!(!at(0, 1)[0].king);
    assert!(!at(3, 5)[0].king && at(3, 5)[0].seat == Some(1));
    assert!(at(7, 6)[0].king);
    assert_eq!(board.pieces.len(), 4);
}

#[test]
fn move_paths_follow_the_landings() {
    let rules = Tama::default();
    let p = pos("W:Wc3,e2:Bc4,d5,d3,f5");
    let mv = rules.resolve_token(&p, b"c3xg5").unwrap();
    // c3xc5xe5xg5: start then every landing.
    assert_eq!(
        rules.move_paths(&p, &mv),
        [vec![(2, 2), (2, 4), (4, 4), (6, 4)]]
    );
}

#[test]
fn non_maximal_capture_carries_the_token_and_a_maximal_chain() {
    let rules = Tama::default();
    let e = rules
        .resolve_token(&pos("W:Wc3,e2:Bc4,d5,d3,f5"), b"c3xe3")
        .unwrap_err();
    assert_eq!(e.code, Code::NonMaximalCapture);
    assert_eq!(e.played, [vec![(2, 2), (4, 2)]]);
    // c3xc5xe5xg5, the chain the message names.
    assert!(e.message.ends_with("c3xc5xe5xg5"), "{}", e.message);
    assert_eq!(e.suggested, [vec![(2, 2), (2, 4), (4, 4), (6, 4)]]);
}

#[test]
fn missed_capture_suggests_the_capture() {
    let rules = Tama::default();
    let e = rules
        .resolve_token(&pos("W:Wc3,e2:Bc4,d5,e7"), b"e2-e3")
        .unwrap_err();
    assert_eq!(e.code, Code::MissedCapture);
    assert_eq!(e.played, [vec![(4, 1), (4, 2)]]);
    assert_eq!(e.suggested, [vec![(2, 2), (2, 4), (4, 4)]]);
}

#[test]
fn illegal_move_names_its_squares_but_suggests_nothing() {
    let rules = Tama::default();
    let e = rules
        .resolve_token(&Position::start(), b"c4-c5")
        .unwrap_err();
    assert_eq!(e.code, Code::IllegalMove);
    assert_eq!(e.played, [vec![(2, 3), (2, 4)]]);
    assert!(e.suggested.is_empty());
    // An unreadable token names no squares.
    let e = rules.resolve_token(&Position::start(), b"zz").unwrap_err();
    assert!(e.played.is_empty());
}
