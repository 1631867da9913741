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
    pub score: i32,
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
        score: 0,
        best: NO_MOVE,
        depth: -1,
        bound: Bound::Upper,
    };
}

/// A fixed-size table, two entries a bucket: one kept by depth, one always replaced.
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
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
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
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
            score,
            best,
            depth,
            bound,
        };
        let deep = &mut self.entries[i];
        if deep.key == key || depth >= deep.depth {
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
        assert_eq!((e.score, e.best, e.depth), (120, 3, 5));
        // A shallower entry of another key in the same bucket goes to the second slot.
        let other = 42 + (t.mask as u64 + 2);
        t.store(other, 1, -7, Bound::Lower, NO_MOVE);
        assert_eq!(t.probe(42).unwrap().score, 120);
        assert_eq!(t.probe(other).unwrap().score, -7);
        // The same key again keeps its best move when the new search found none.
        t.store(42, 6, 99, Bound::Upper, NO_MOVE);
        assert_eq!(t.probe(42).unwrap().best, 3);
        t.clear();
        assert!(t.probe(42).is_none());
    }
}
