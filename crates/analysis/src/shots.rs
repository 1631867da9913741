//! Shots: forced combinations that win material.
//!
//! A shot of the side to move starts with a move after which the other side must capture (a
//! piece given away). From there the line is forced: the other side's moves are its
//! compulsory captures, every one of which is followed; the shooting side captures when it
//! must and may give more pieces away in the same manner, or stop. The line ends when the
//! other side is free to move, or the shooting side stops; the shot's gain is the balance
//! of pieces there less the balance before. A shot is a first move whose worst forced line
//! still gains at least one piece. Only games of two seats with compulsory captures have
//! shots ([`game::Engine::must_capture`]).

use game::{Engine, Seat};

/// The longest forced line followed, in plies.
const LONGEST: usize = 24;

/// A shot found: its line (the first move first) and the pieces it gains.
#[derive(Debug, Clone, PartialEq)]
pub struct Shot<M> {
    /// The forced line, as far as the shooting side's best play goes.
    pub line: Vec<M>,
    /// Pieces gained at the end of the line (at least one).
    pub gain: i32,
}

struct Finder<'g, G: Engine> {
    game: &'g G,
    side: Seat,
    other: Seat,
    nodes: u64,
    budget: u64,
}

/// The best shot of the side to move in `pos`, searching at most `budget` positions (none
/// is claimed when the budget runs out before a line is settled).
pub fn find<G: Engine>(game: &G, pos: &G::Position, budget: u64) -> Option<Shot<G::Move>> {
    if game.terminal(pos).is_some() || game.must_capture(pos) {
        return None;
    }
    let seats = game.seats_in_play(pos);
    if seats.len() != 2 {
        return None;
    }
    let side = game.to_move(pos);
    let other = if seats[0] == side { seats[1] } else { seats[0] };
    let mut f = Finder {
        game,
        side,
        other,
        nodes: 0,
        budget,
    };
    let before = f.balance(pos);
    let mut moves = Vec::new();
    game.moves_into(pos, &[], &mut moves);
    let mut best: Option<Shot<G::Move>> = None;
    for mv in &moves {
        let mut child = pos.clone();
        game.play(&mut child, mv);
        if !game.must_capture(&child) || game.to_move(&child) != other {
            continue;
        }
        let (value, mut line) = f.line(&child, 1)?;
        let gain = value - before;
        if gain >= 1 && best.as_ref().map_or(true, |b| gain > b.gain) {
            line.insert(0, mv.clone());
            best = Some(Shot { line, gain });
        }
    }
    best
}

impl<G: Engine> Finder<'_, G> {
    /// Pieces of the shooting side less the other's.
    fn balance(&self, pos: &G::Position) -> i32 {
        self.game.piece_count(pos, self.side) as i32 - self.game.piece_count(pos, self.other) as i32
    }

    /// The balance at the end of the forced line from `pos` with both sides' best play, and
    /// the line; `None` when the budget ran out.
    fn line(&mut self, pos: &G::Position, ply: usize) -> Option<(i32, Vec<G::Move>)> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        if let Some(outcome) = self.game.terminal(pos) {
            let won = matches!(outcome, game::Outcome::Win { winner, .. } if winner == self.side);
            return Some((if won { 100 } else { -100 }, Vec::new()));
        }
        let shooting = self.game.to_move(pos) == self.side;
        let forced = self.game.must_capture(pos);
        if !forced && (!shooting || ply >= LONGEST) {
            return Some((self.balance(pos), Vec::new()));
        }
        let mut moves = Vec::new();
        self.game.moves_into(pos, &[], &mut moves);
        let mut best: Option<(i32, Vec<G::Move>)> = None;
        if !forced {
            // The shooting side may stop here.
            best = Some((self.balance(pos), Vec::new()));
        }
        for mv in &moves {
            let mut child = pos.clone();
            self.game.play(&mut child, mv);
            if !forced && !self.game.must_capture(&child) {
                continue;
            }
            let (value, mut line) = self.line(&child, ply + 1)?;
            let better = match &best {
                None => true,
                Some((b, _)) if shooting => value > *b,
                Some((b, _)) => value < *b,
            };
            if better {
                line.insert(0, mv.clone());
                best = Some((value, line));
            }
        }
        Some(best.unwrap_or_else(|| (self.balance(pos), Vec::new())))
    }
}
