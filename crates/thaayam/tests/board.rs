//! The position as a diagram sees it, and the squares a problem carries for drawing.

mod common;

use common::{game, pos, problem, resolve};
use game::{BoardStyle, Code, Game, Seat, SquareMark};

#[test]
fn start_board_is_empty_with_the_safe_squares_marked() {
    let g = game();
    let board = g.board(&pos(&g, "S:S=h4/N=h4"));
    assert_eq!((board.files, board.ranks), (5, 5));
    assert_eq!(board.style, BoardStyle::Plain);
    assert_eq!(board.seat_names.len(), 4);
    assert!(board.pieces.is_empty());
    let mut safe: Vec<(u8, u8)> = board
        .marks
        .iter()
        .map(|&(f, r, m)| {
            assert_eq!(m, SquareMark::Safe);
            (f, r)
        })
        .collect();
    safe.sort();
    // a3, c1, c3, c5, e3.
    assert_eq!(safe, [(0, 2), (2, 0), (2, 2), (2, 4), (4, 2)]);
    assert_eq!(board.notes, ["South: 4 in hand", "North: 4 in hand"]);
}

#[test]
fn stacks_twins_and_shared_squares() {
    let g = game();
    // South: two singles on d1, twins on c5. North: a single on c5 too (a safe square),
    // three in hand, and one extra series still to throw.
    let board = g.board(&pos(&g, "N+1:S=d1x2,Tc5/N=h3,c5"));
    assert_eq!(board.to_move, Seat(2));
    let at = |f, r| board.pieces_at(f, r).copied().collect::<Vec<_>>();
    let d1 = at(3, 0);
    assert_eq!(d1.len(), 1);
    assert_eq!((d1[0].seat, d1[0].count, d1[0].twin), (Some(0), 2, false));
    let mut c5 = at(2, 4);
    c5.sort_by_key(|p| p.seat);
    assert_eq!(c5.len(), 2);
    assert_eq!((c5[0].seat, c5[0].twin, c5[0].count), (Some(0), true, 1));
    assert_eq!((c5[1].seat, c5[1].twin, c5[1].count), (Some(2), false, 1));
    assert_eq!(board.pieces.len(), 3);
    assert_eq!(
        board.notes,
        [
            "North: 3 in hand",
            "North still throws 1 extra series this turn"
        ]
    );
}

#[test]
fn keep_and_borne_off() {
    let g = game();
    let board = g.board(&pos(&g, "S:S=k3,o1/N=h4"));
    let keep: Vec<_> = board.pieces_at(2, 2).collect();
    assert_eq!(keep.len(), 1);
    assert_eq!((keep[0].seat, keep[0].count), (Some(0), 3));
    assert_eq!(board.pieces.len(), 1);
    assert_eq!(
        board.notes,
        ["South: 3 in the keep, 1 borne off", "North: 4 in hand"]
    );
}

#[test]
fn move_paths_follow_the_route() {
    let g = game();
    let p = pos(&g, "S:S=h4/N=h4");
    let turn = resolve(&g, &p, "S [1 4 2] in c1+4+2").unwrap();
    // In on c1, then c1 → e1 (corner) → e5 (corner) → … c1+6 ends on e5.
    assert_eq!(
        g.move_paths(&p, &turn),
        [vec![(2, 0)], vec![(2, 0), (4, 0), (4, 4)]]
    );
}

#[test]
fn unused_throw_shows_the_play_and_a_longer_one() {
    let g = game();
    let e = problem(&g, "S:S=c1,h3/N=h4", "S [4 2] c1+4");
    assert_eq!(e.code, thaayam::UNUSED_THROW);
    // c1+4 ends on e3; c1+4+2 on e5.
    assert_eq!(e.played, [vec![(2, 0), (4, 0), (4, 2)]]);
    assert_eq!(e.suggested, [vec![(2, 0), (4, 0), (4, 4)]]);
}

#[test]
fn illegal_action_marks_the_unit_it_names() {
    let g = game();
    let e = problem(&g, "S:S=c1,h3/N=h4", "S [2] b2+2");
    assert_eq!(e.code, Code::IllegalMove);
    assert_eq!(e.played, [vec![(1, 1)]]);
    assert!(e.suggested.is_empty());
}
