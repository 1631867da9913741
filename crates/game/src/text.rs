//! [`TextList`]: many short texts kept in one buffer.

/// A list of texts stored one after another in one `String`, so that filling it allocates
/// only when it outgrows what it held before. Rules crates write the texts of a move into it
/// ([`crate::Explore::describe_into`]); the referee keeps the texts of a whole game in one.
///
/// An entry is written in two steps: append to [`TextList::open`], then [`TextList::close`]
/// it; [`TextList::push`] does both.
///
/// ```
/// let mut list = game::TextList::new();
/// list.push("32-28");
/// list.open().push_str("3");
/// list.open().push('2');
/// list.close();
/// assert_eq!(list.len(), 2);
/// assert_eq!(list.get(1), Some("32"));
/// assert_eq!(list.range(0..2).collect::<Vec<_>>(), ["32-28", "32"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextList {
    text: String,
    ends: Vec<u32>,
}

impl TextList {
    /// An empty list.
    pub fn new() -> Self {
        TextList::default()
    }

    /// Removes every entry, keeping the memory.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Entries closed so far.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when no entry is closed.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The buffer of the entry being written: append to it, then [`TextList::close`].
    pub fn open(&mut self) -> &mut String {
        &mut self.text
    }

    /// Ends the entry being written (possibly empty).
    pub fn close(&mut self) {
        // Texts longer than 4 GiB in one game are not a record anyone keeps; saturate rather
        // than wrap so that a bound check still holds.
        let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.ends.push(end);
    }

    /// Adds a whole entry.
    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
        self.close();
    }

    /// Entry `i`, if closed.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1] as usize,
        };
        self.text.get(start..end)
    }

    /// Entries `range` (those that exist).
    pub fn range(&self, range: std::ops::Range<usize>) -> impl ExactSizeIterator<Item = &str> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        (start..end).map(|i| self.get(i).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::TextList;

    #[test]
    fn entries_come_back_as_written_and_clear_keeps_nothing() {
        let mut list = TextList::new();
        assert_eq!(list.get(0), None);
        list.push("");
        list.push("é1");
        list.open().push_str("ab");
        assert_eq!(list.len(), 2, "an open entry is not counted");
        list.close();
        assert_eq!(list.get(0), Some(""));
        assert_eq!(list.get(1), Some("é1"));
        assert_eq!(list.get(2), Some("ab"));
        assert_eq!(list.get(3), None);
        assert_eq!(list.range(1..9).collect::<Vec<_>>(), ["é1", "ab"]);
        assert_eq!(list.range(5..9).len(), 0);
        list.clear();
        assert!(list.is_empty());
        list.push("x");
        assert_eq!(list.get(0), Some("x"));
    }
}
