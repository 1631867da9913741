//! The one game loop of the games without chance: Tama, Odnocvetnie Shashki and every game
//! the generic player plays. Each game brings a [`Mover`] (its move list and agents); the
//! loop asks the seat to move for a move, writes it, plays it, and stops when the rules end
//! the game, a dead run has gone on too long or the ply cap is reached.

use game::{Game, Notation};

use crate::player::{Played, Table};
use crate::rng::Rng;
use crate::Agent;

/// A position of the mover's game.
pub(crate) type Pos<M> = <<M as Mover>::Rules as Game>::Position;
/// A move of the mover's game.
pub(crate) type Mv<M> = <<M as Mover>::Rules as Game>::Move;

/// A game's moves and agents, as the loop uses them.
pub(crate) trait Mover {
    /// The rules.
    type Rules: Game;

    /// The rules, for terminal positions, writing and playing moves.
    fn rules(&self) -> &Self::Rules;

    /// Every legal move of `pos`, each once (one per resulting position), into `out`.
    fn legal_moves(&mut self, pos: &Pos<Self>, out: &mut Vec<Mv<Self>>);

    /// The index in `moves` (not empty) of the move `agent` plays at ply `ply` (0-based).
    fn choose(
        &mut self,
        agent: Agent,
        pos: &Pos<Self>,
        moves: &[Mv<Self>],
        ply: u32,
        rng: &mut Rng,
    ) -> usize;

    /// The dead-run rule: after this many plies in a row for which
    /// [`Mover::quiet_king_move`] holds, the game is stopped with this result.
    fn dead_run(&self) -> Option<(u32, &'static str)> {
        None
    }

    /// True when `mv` moves a king without capturing (a ply of a dead run).
    fn quiet_king_move(&self, pos: &Pos<Self>, mv: &Mv<Self>) -> bool {
        let _ = (pos, mv);
        false
    }

    /// True when `read` (the written move read back) is the move `mv` of `pos`. Default:
    /// both lead to the same position string.
    fn same_move(&self, pos: &Pos<Self>, read: &Mv<Self>, mv: &Mv<Self>) -> bool {
        let rules = self.rules();
        let after = |m: &Mv<Self>| {
            let mut p = pos.clone();
            rules.play(&mut p, m);
            rules.write_position(&p)
        };
        after(read) == after(mv)
    }
}

/// Plays a game from `start` with the agents, cap and move generator of `table`, and
/// returns its movetext and result (no players or seat tags).
pub(crate) fn play_out<M: Mover>(mover: &mut M, start: Pos<M>, table: &mut Table<'_>) -> Played {
    let seats = mover.rules().seats_in_play(&start).len().max(1) as u32;
    let mut pos = start;
    let mut played = Played::default();
    let mut list = Vec::new();
    let mut ply = 0u32;
    let mut run = 0u32;
    played.result = loop {
        if let Some(outcome) = mover.rules().terminal(&pos) {
            played.ended_by_rule = true;
            break mover.rules().write_result(outcome);
        }
        if let Some((plies, result)) = mover.dead_run() {
            if run >= plies {
                break result.to_string();
            }
        }
        if ply >= table.max_plies {
            break "*".to_string();
        }
        mover.legal_moves(&pos, &mut list);
        if list.is_empty() {
            // The rules say the game goes on but give no move: stop as a recorder would.
            break "*".to_string();
        }
        let agent = table.agent(mover.rules().to_move(&pos));
        let i = mover.choose(agent, &pos, &list, ply, &mut table.moves);
        let mv = list[i.min(list.len() - 1)].clone();
        let text = write_checked(mover, &pos, &mv);
        played.units.push(if ply % seats == 0 {
            format!("{}. {text}", ply / seats + 1)
        } else {
            text
        });
        run = if mover.quiet_king_move(&pos, &mv) {
            run + 1
        } else {
            0
        };
        mover.rules().play(&mut pos, &mv);
        ply += 1;
    };
    played.plies = ply;
    played
}

/// The move as the rules write it by default (short captures), or with every landing square
/// if the short form does not read back as the same move. (A king chain that passes its
/// final square earlier in the chain, such as Tama's `g1xg6xe6xc6xc2xe2xg6`, has the short
/// form `g1xg6`, which reads as the one-jump chain that stops on g6.)
fn write_checked<M: Mover>(mover: &M, pos: &Pos<M>, mv: &Mv<M>) -> String {
    let rules = mover.rules();
    let notation = rules.default_notation();
    let text = rules.write_move(pos, mv, notation);
    let tokens: Vec<&[u8]> = text.split_whitespace().map(str::as_bytes).collect();
    match rules.resolve(pos, &tokens) {
        Ok(read) if mover.same_move(pos, &read, mv) => text,
        _ => rules.write_move(
            pos,
            mv,
            Notation {
                full_captures: true,
                ..notation
            },
        ),
    }
}
