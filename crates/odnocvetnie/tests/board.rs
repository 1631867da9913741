//! The position as a diagram sees it, and the squares a problem carries for drawing.

use game::{BoardStyle, Code, Game, Seat, SquareMark};
use odnocvetnie::{resolve, Odnocvetnie, Position, Square};

/// `(file, rank)` of square number `n`.
fn at(n: u8) -> (u8, u8) {
    let s = Square::from_number(n).unwrap();
    (s.file(), s.rank())
}

#[test]
fn start_board_has_42_ownerless_men_and_the_centre_empty() {
    let g = Odnocvetnie::default();
    let board = g.board(&Position::start());
    assert_eq!((board.files, board.ranks), (10, 10));
    assert_eq!(board.style, BoardStyle::DarkOnly);
    assert_eq!(board.seat_name(board.to_move), "South");
    assert_eq!(board.pieces.len(), 42);
    assert!(board
        .pieces
        .iter()
        .all(|p| p.seat.is_none() && !p.king && (p.file + p.rank) % 2 == 0));
    // d4, f4, e5, g5, d6, f6, e7, g7 are empty.
    for (f, r) in [
        (3, 3),
        (5, 3),
        (4, 4),
        (6, 4),
        (3, 5),
        (5, 5),
        (4, 6),
        (6, 6),
    ] {
        assert_eq!(board.pieces_at(f, r).count(), 0, "({f}, {r})");
    }
    assert!(board.marks.is_empty() && board.notes.is_empty());
}

#[test]
fn damki_and_the_lock() {
    let g = Odnocvetnie::default();
    let pos = Position::parse("W:M28,33,K3:L28").unwrap();
    let board = g.board(&pos);
    assert_eq!(board.to_move, Seat(1));
    assert_eq!(board.pieces.len(), 3);
    let (f, r) = at(3);
    assert!(board.pieces_at(f, r).next().unwrap().king);
    let (f, r) = at(28);
    assert_eq!((f, r), (4, 4));
    assert!(!board.pieces_at(f, r).next().unwrap().king);
    assert_eq!(board.marks, [(4, 4, SquareMark::Locked)]);
    assert_eq!(
        board.notes,
        ["The man on 28 (e5) was moved by South in the previous turn and is locked."]
    );
}

#[test]
fn move_paths_give_start_and_landings() {
    let g = Odnocvetnie::default();
    let pos = Position::parse("S:K46:M37,23,45,40").unwrap();
    let mv = resolve(&pos, b"46x19").unwrap();
    // The damka's two capture paths (46x28x19, 46x32x19): the first in square order.
    assert_eq!(g.move_paths(&pos, &mv), [vec![at(46), at(28), at(19)]]);
    let pos = Position::parse("S:M28").unwrap();
    let mv = resolve(&pos, b"28-22").unwrap();
    assert_eq!(g.move_paths(&pos, &mv), [vec![at(28), at(22)]]);
}

#[test]
fn non_maximal_and_missed_captures_suggest_a_maximal_chain() {
    let pos = Position::parse("S:M37,32,22,45,40").unwrap();
    let e = resolve(&pos, b"45x34").unwrap_err();
    assert_eq!(e.code, Code::NonMaximalCapture);
    assert_eq!(e.played, [vec![at(45), at(34)]]);
    // 37x28x17 (c3 over d4 to e5, over d6 to c7) takes two.
    assert_eq!(e.suggested, [vec![(2, 2), (4, 4), (2, 6)]]);
    let e = resolve(&pos, b"22-17").unwrap_err();
    assert_eq!(e.code, Code::MissedCapture);
    assert_eq!(e.played, [vec![at(22), at(17)]]);
    assert_eq!(e.suggested, [vec![at(37), at(28), at(17)]]);
}

#[test]
fn locked_piece_names_its_move_and_suggests_nothing() {
    let pos = Position::parse("W:M28,33:L28").unwrap();
    let e = resolve(&pos, b"28-23").unwrap_err();
    assert_eq!(e.code, odnocvetnie::LOCKED_PIECE);
    assert_eq!(e.played, [vec![at(28), at(23)]]);
    assert!(e.suggested.is_empty());
    assert!(resolve(&pos, b"hello").unwrap_err().played.is_empty());
}
