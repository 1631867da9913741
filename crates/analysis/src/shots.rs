//! Shots: combinations that win material.
//!
//! A shot starts with a sacrifice: a move after which the other side must capture (a piece
//! given away). It is a shot when it wins at least a man: a search of the position among
//! its sacrifices alone (the whole budget on them) scores the best of them at least
//! [`SHOT_GAIN`] above the position's static value (what the mover has now). The search sees what a
//! forced line of captures alone would miss: a breakthrough to a king after the exchanges, a
//! quiet move between two sacrifices, the piece the other side wins back at the end.
//!
//! Only games of two seats with compulsory captures have shots
//! ([`game::Engine::must_capture`]), and only a side free to move (no capture due) starts
//! one. Under a node limit the answer is the same on every machine.

use game::{Engine, Seat};
use search::{Limits, Search};

/// What a shot must win, in hundredths of a man.
pub const SHOT_GAIN: i32 = 100;

/// The transposition table of the finder's own search, in megabytes.
const HASH_MB: usize = 1;

/// A shot found: its line (the first move first) and what it wins.
#[derive(Debug, Clone, PartialEq)]
pub struct Shot<M> {
    /// The search's line from the position, the sacrifice first.
    pub line: Vec<M>,
    /// The search's score less the position's static value, in hundredths of a man (at
    /// least [`SHOT_GAIN`]).
    pub gain: i32,
}

/// The shot of the side to move in `pos`, searching at most `budget` nodes (searched only
/// when the side to move has a sacrifice at hand).
pub fn find<G: Engine>(game: &G, pos: &G::Position, budget: u64) -> Option<Shot<G::Move>> {
    if game.seats_in_play(pos).len() != 2 || game.terminal(pos).is_some() || game.must_capture(pos)
    {
        return None;
    }
    let side = game.to_move(pos);
    let mut sacrifices = Vec::new();
    game.moves_into(pos, &[], &mut sacrifices);
    sacrifices.retain(|m| is_sacrifice(game, pos, side, m));
    if sacrifices.is_empty() {
        return None;
    }
    let mut search = Search::new(game, HASH_MB);
    let found = search.best_among(pos, &Limits::nodes(budget), sacrifices);
    found.best.as_ref()?;
    let gain = found.score.saturating_sub(game.value(pos, side));
    (gain >= SHOT_GAIN).then(|| Shot {
        line: found.line,
        gain,
    })
}

/// True when `mv`, played by `side` in `pos`, gives the other side a capture it must make.
pub fn is_sacrifice<G: Engine>(game: &G, pos: &G::Position, side: Seat, mv: &G::Move) -> bool {
    let mut child = pos.clone();
    game.play(&mut child, mv);
    game.to_move(&child) != side && game.must_capture(&child)
}
