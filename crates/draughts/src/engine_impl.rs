//! What the search needs of the draughts games ([`game::Engine`]): moves into the search's
//! buffer, whether a capture is due or threatened, and the evaluation of [`crate::evaluate`].

use game::{Engine, Seat};

use crate::evaluate;
use crate::movegen::{has_capture, legal_moves, Move};
use crate::position::{Color, Position};
use crate::Draughts;

fn color(seat: Seat) -> Color {
    if seat.0 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

impl Engine for Draughts {
    fn value(&self, pos: &Position, seat: Seat) -> i32 {
        evaluate::value(self, pos, color(seat))
    }

    fn curve(&self) -> f64 {
        crate::weights::Weights::of(self.variant).curve
    }

    fn moves_into(&self, pos: &Position, _chance: &[u8], out: &mut Vec<Move>) {
        out.clear();
        legal_moves(self.geometry, &self.rules, pos, out);
    }

    fn must_capture(&self, pos: &Position) -> bool {
        has_capture(self.geometry, &self.rules, pos)
    }

    fn threat(&self, pos: &Position) -> bool {
        let mut other = *pos;
        other.side = pos.side.opponent();
        has_capture(self.geometry, &self.rules, &other)
    }

    fn is_capture(&self, _pos: &Position, mv: &Move) -> bool {
        mv.is_capture()
    }

    fn piece_count(&self, pos: &Position, seat: Seat) -> u32 {
        pos.count(color(seat))
    }

    fn move_id(&self, _pos: &Position, mv: &Move) -> u16 {
        let g = self.geometry;
        let id = g.number(mv.from()) * 73 + g.number(mv.to());
        (id % game::MOVE_IDS as u32) as u16
    }
}
