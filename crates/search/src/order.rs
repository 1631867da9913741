//! Move ordering: which move to try first. A good order makes alpha-beta cut early.

use game::MOVE_IDS;

use crate::tree::MAX_PLY;

/// Ordering keys, higher first.
const HASH_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: [i32; 2] = [1 << 27, (1 << 27) - 1];

/// Killer moves per ply and history counts per seat, by [`game::Engine::move_id`].
pub(crate) struct Order {
    killers: Vec<[u16; 2]>,
    history: Vec<i32>,
}

/// No killer.
const NONE: u16 = u16::MAX;

impl Order {
    pub fn new() -> Order {
        Order {
            killers: vec![[NONE; 2]; MAX_PLY + 1],
            history: vec![0; 4 * MOVE_IDS],
        }
    }

    pub fn clear(&mut self) {
        self.killers.fill([NONE; 2]);
        self.history.fill(0);
    }

    /// The ordering key of a move: `hash` if it is the table's move, `capture` if it takes.
    pub fn key(&self, ply: usize, seat: u8, id: u16, hash: bool, capture: bool) -> i32 {
        if hash {
            return HASH_MOVE;
        }
        if capture {
            return CAPTURE;
        }
        let killers = self.killers[ply];
        if killers[0] == id {
            return KILLER[0];
        }
        if killers[1] == id {
            return KILLER[1];
        }
        self.history[history_index(seat, id)]
    }

    /// A quiet move caused a cut at `ply` after a search of `depth` plies.
    pub fn cut(&mut self, ply: usize, seat: u8, id: u16, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != id {
            k[1] = k[0];
            k[0] = id;
        }
        let h = &mut self.history[history_index(seat, id)];
        *h = (*h + depth * depth).min(KILLER[1] - 1);
    }
}

/// True for the key of a move that is neither the table's move, nor a capture, nor a killer:
/// one ordered by its history alone.
pub(crate) fn by_history(key: i32) -> bool {
    key < KILLER[1]
}

fn history_index(seat: u8, id: u16) -> usize {
    usize::from(seat % 4) * MOVE_IDS + usize::from(id) % MOVE_IDS
}

/// The index (into `keys`, from `from` on) of the highest key, swapped to `from`: picks the
/// next move to try without sorting the rest (most nodes cut after one or two moves).
pub(crate) fn pick_next(keys: &mut [i32], order: &mut [u16], from: usize) -> usize {
    let mut best = from;
    for i in from + 1..keys.len() {
        if keys[i] > keys[best] {
            best = i;
        }
    }
    keys.swap(from, best);
    order.swap(from, best);
    usize::from(order[from])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_move_comes_first_then_captures_killers_and_history() {
        let mut o = Order::new();
        assert!(o.key(3, 0, 7, true, true) > o.key(3, 0, 7, false, true));
        assert!(o.key(3, 0, 7, false, true) > o.key(3, 0, 7, false, false));
        o.cut(3, 0, 9, 4);
        assert_eq!(o.key(3, 0, 9, false, false), KILLER[0]);
        o.cut(3, 0, 10, 2);
        assert_eq!(o.key(3, 0, 10, false, false), KILLER[0]);
        assert_eq!(o.key(3, 0, 9, false, false), KILLER[1]);
        // History is per seat and outlives the killers of another ply.
        assert_eq!(o.key(4, 0, 9, false, false), 16);
        assert_eq!(o.key(4, 1, 9, false, false), 0);
    }

    #[test]
    fn moves_are_picked_best_first() {
        let mut keys = [3, 9, 1, 9];
        let mut order = [0u16, 1, 2, 3];
        let mut seen = Vec::new();
        for i in 0..4 {
            seen.push(pick_next(&mut keys, &mut order, i));
        }
        assert_eq!(seen, [1, 3, 0, 2]);
    }
}
