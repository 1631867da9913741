//! The position and the turns as a diagram draws them (see [`game::Board`]).

use game::{Board, BoardPiece, BoardStyle, Seat, SquareMark, SquarePath};

use crate::board::{route_index, route_square, Square, KEEP_INDEX, SEAT_NAMES};
use crate::engine::{Action, Run};
use crate::position::Position;
use crate::throws::ThrowSeq;

/// The 5×5 board with the safe squares marked; every unit in its seat's colour (singles and
/// twins of a seat apart, stacks counted, the keep's pieces on c3), and a note per seat on
/// what is off the board.
pub(crate) fn board(pos: &Position) -> Board {
    let mut board = Board::new(5, 5, BoardStyle::Plain, &SEAT_NAMES, Seat(pos.to_move()));
    for index in 0..25u8 {
        if let Some(sq) = Square::new(index) {
            if sq.is_marked() {
                board.marks.push((sq.file(), sq.rank(), SquareMark::Safe));
            }
        }
    }
    for seat in pos.seats() {
        for i in 0..=KEEP_INDEX {
            let sq = route_square(seat, i);
            let (singles, twins) = (pos.singles_at(seat, sq), pos.twins_at(seat, sq));
            for (count, twin) in [(singles, false), (twins, true)] {
                if count > 0 {
                    board.pieces.push(BoardPiece {
                        count,
                        twin,
                        ..BoardPiece::man(sq.file(), sq.rank(), Some(seat))
                    });
                }
            }
        }
        let (hand, off) = (pos.hand(seat), pos.off(seat));
        let mut parts = Vec::new();
        if hand > 0 {
            parts.push(format!("{hand} in hand"));
        }
        if pos.keep(seat) > 0 {
            parts.push(format!("{} in the keep", pos.keep(seat)));
        }
        if off > 0 {
            parts.push(format!("{off} borne off"));
        }
        if !parts.is_empty() {
            board.notes.push(format!(
                "{}: {}",
                SEAT_NAMES[usize::from(seat)],
                parts.join(", ")
            ));
        }
    }
    if pos.owed() > 0 {
        board.notes.push(format!(
            "{} still throws {} extra series this turn",
            SEAT_NAMES[usize::from(pos.to_move())],
            pos.owed()
        ));
    }
    board
}

/// The squares a unit of `seat` passes from `from` to `to` along its route: the start, every
/// corner where the route turns, and the arrival.
pub(crate) fn advance_path(seat: u8, from: Square, to: Square) -> SquarePath {
    let (a, b) = (route_index(seat, from), route_index(seat, to));
    let squares: Vec<Square> = (a..=b.max(a)).map(|i| route_square(seat, i)).collect();
    let step = |p: Square, q: Square| {
        (
            i16::from(q.file()) - i16::from(p.file()),
            i16::from(q.rank()) - i16::from(p.rank()),
        )
    };
    let mut path = vec![(from.file(), from.rank())];
    for w in squares.windows(3) {
        if step(w[0], w[1]) != step(w[1], w[2]) {
            path.push((w[1].file(), w[1].rank()));
        }
    }
    if squares.len() > 1 {
        path.push((to.file(), to.rank()));
    }
    path
}

/// Paths of actions already applied (advances with their arrival): one per advance, and the
/// palace alone for a piece entered.
pub(crate) fn applied_paths(seat: u8, actions: &[Action], out: &mut Vec<SquarePath>) {
    for a in actions {
        match a {
            Action::Advance(adv) => out.push(advance_path(seat, adv.from, adv.to)),
            Action::Enter => {
                let p = route_square(seat, 0);
                out.push(vec![(p.file(), p.rank())]);
            }
            Action::Twins | Action::BearOff => {}
        }
    }
}

/// Replays one series on `pos` (left as the series ends it) and adds the paths of its
/// actions.
pub(crate) fn series_paths(
    pos: &mut Position,
    throws: &ThrowSeq,
    actions: &[Action],
    ludii: bool,
    out: &mut Vec<SquarePath>,
) {
    let (mut run, _) = Run::begin(pos, throws, ludii);
    let seat = run.seat;
    let mut done = Vec::with_capacity(actions.len());
    for a in actions {
        if let Ok(a) = run.apply(a) {
            done.push(a);
        }
    }
    applied_paths(seat, &done, out);
    run.finish(ludii);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name.as_bytes()).unwrap()
    }

    #[test]
    fn advance_paths_keep_the_corners() {
        // South: c1 d1 e1 | e2 e3 e4 e5 | d5 …
        assert_eq!(advance_path(0, sq("c1"), sq("e1")), [(2, 0), (4, 0)]);
        assert_eq!(
            advance_path(0, sq("c1"), sq("e3")),
            [(2, 0), (4, 0), (4, 2)]
        );
        assert_eq!(
            advance_path(0, sq("d1"), sq("d5")),
            [(3, 0), (4, 0), (4, 4), (3, 4)]
        );
        // Into the keep: … d4 d3 d2 c2 c3.
        assert_eq!(
            advance_path(0, sq("d4"), sq("c3")),
            [(3, 3), (3, 1), (2, 1), (2, 2)]
        );
        assert_eq!(advance_path(0, sq("c1"), sq("c1")), [(2, 0)]);
    }
}
