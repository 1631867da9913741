//! The transposition table: what earlier searches learnt of a position, by its 64-bit key.
//!
//! An entry keeps the move found best as its index in the position's move list (the
//! contract lists moves in the same order every time), so an entry is 16 bytes whatever
//! the size of a game's moves.

/// What a stored score says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value itself.
    Exact,
    /// At least this much (the search cut off above beta).
    Lower,
    /// At most this much (no move reached alpha).
    Upper,
}

/// One stored position.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    key: u64,
    /// The score shifted up a byte, the search that stored it in the low byte (so that an
    /// entry stays 16 bytes).
    packed: i32,
    /// Index of the best move in the position's move list; `u16::MAX` for none.
    pub best: u16,
    /// Depth searched, in plies (0: quiescence only).
    pub depth: i8,
    pub bound: Bound,
}

/// No move stored.
pub(crate) const NO_MOVE: u16 = u16::MAX;

impl Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        packed: 0,
        best: NO_MOVE,
        depth: -1,
        bound: Bound::Upper,
    };

    /// The stored score.
    pub fn score(&self) -> i32 {
        self.packed >> 8
    }

    /// The search that stored the entry (counted modulo 256).
    fn age(&self) -> u8 {
        self.packed as u8
    }
}

/// A fixed-size table, two entries a bucket: one kept by depth (until a later search
/// needs its place), one always replaced.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    /// The search under way, counted modulo 256.
    age: u8,
}

impl Table {
    /// A table of about `megabytes` MB (at least one bucket; a power of two of entries).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<Entry>();
        let mut size = 2usize;
        while size * 2 <= wanted {
            size *= 2;
        }
        Table {
            entries: vec![Entry::EMPTY; size],
            mask: size - 2,
            age: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.age = 0;
    }

    /// A new search begins: the deep entries of earlier ones stay readable, but give way
    /// to the new search's entries whatever their depth (else positions of moves long
    /// played would hold the deep slots for good).
    pub fn next_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// The entry of `key`, if one is stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = self.bucket(key);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.key == key && e.depth >= 0)
            .copied()
    }

    /// Stores what a search of `key` found.
    pub fn store(&mut self, key: u64, depth: i8, score: i32, bound: Bound, best: u16) {
        let i = self.bucket(key);
        let entry = Entry {
            key,
            packed: score << 8 | i32::from(self.age),
            best,
            depth,
            bound,
        };
        let deep = &mut self.entries[i];
        if deep.key == key || depth >= deep.depth || deep.age() != self.age {
            // Keep a known best move when the new search found none.
            let best = if best == NO_MOVE && deep.key == key {
                deep.best
            } else {
                best
            };
            *deep = Entry { best, ..entry };
        } else {
            self.entries[i + 1] = entry;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_by_key_and_kept_by_depth() {
        let mut t = Table::new(1);
        assert!(t.probe(42).is_none());
        t.store(42, 5, 120, Bound::Exact, 3);
        let e = t.probe(42).unwrap();
        assert_eq!((e.score(), e.best, e.depth), (120, 3, 5));
        // A shallower entry of another key in the same bucket goes to the second slot.
        let other = 42 + (t.mask as u64 + 2);
        t.store(other, 1, -7, Bound::Lower, NO_MOVE);
        assert_eq!(t.probe(42).unwrap().score(), 120);
        assert_eq!(t.probe(other).unwrap().score(), -7);
        // The same key again keeps its best move when the new search found none.
        t.store(42, 6, 99, Bound::Upper, NO_MOVE);
        assert_eq!(t.probe(42).unwrap().best, 3);
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn a_later_search_takes_the_deep_slot_of_an_earlier_one() {
        let mut t = Table::new(1);
        let other = 42 + (t.mask as u64 + 2);
        t.store(42, 9, -1_000_001, Bound::Lower, 1);
        t.store(other, 2, 5, Bound::Exact, 0);
        // Same search: the shallower entry goes to the second slot.
        assert_eq!(t.probe(42).unwrap().score(), -1_000_001);
        t.next_search();
        let third = other + (t.mask as u64 + 2);
        t.store(third, 1, 7, Bound::Upper, 2);
        // The next search's shallow entry replaces the old deep one.
        assert!(t.probe(42).is_none());
        assert_eq!(t.probe(third).unwrap().score(), 7);
        assert_eq!(t.probe(other).unwrap().score(), 5);
    }
}
