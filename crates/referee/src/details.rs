//! The plies of a main line described for a table ([`crate::Settings::details`]).
//!
//! A game's plies are kept in one [`TextList`] (notation, squares and position of every ply,
//! one after another) and one list of throws, so describing a ply allocates nothing once the
//! buffers have grown to the size of a game.

use game::TextList;

/// Every replayed ply of a main line, described: read them with [`PlyDetails::iter`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlyDetails {
    texts: TextList,
    throws: Vec<u8>,
    plies: Vec<Entry>,
}

/// Where one ply's values are. Its texts are entries `first..`: notation, from, to, the
/// captured squares, the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    key: u64,
    ply: u32,
    first: u32,
    captured: u32,
    throws_start: u32,
    throws_end: u32,
    mover: u8,
    lost_throws: u8,
    promotion: bool,
}

/// What is known of a ply besides its texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PlyHead<'a> {
    pub ply: u32,
    pub key: u64,
    pub mover: u8,
    pub promotion: bool,
    pub throws: &'a [u8],
    pub lost_throws: u8,
}

/// One ply of a main line, described for a table: what was played, where, and the position
/// after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyDetail<'a> {
    /// 1-based ply.
    pub ply: u32,
    /// The seat that played it.
    pub mover: u8,
    /// The move in the game's standard notation.
    pub notation: &'a str,
    /// Where the (first) piece started, in the game's square names.
    pub from: Option<&'a str>,
    /// Where the (last) piece ended.
    pub to: Option<&'a str>,
    /// Squares of the captured pieces, in the order taken.
    pub captured: Squares<'a>,
    /// A piece was crowned.
    pub promotion: bool,
    /// The position after the ply, in the game's position-string dialect; empty unless
    /// [`crate::Settings::positions`] asked for it.
    pub position: &'a str,
    /// The key of the position after the ply ([`game::Game::position_key`]).
    pub key: u64,
    /// Games of chance: the outcomes thrown in the ply.
    pub throws: &'a [u8],
    /// Games of chance: throws that could not be used.
    pub lost_throws: u8,
}

/// Square names of a [`PlyDetail`], in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Squares<'a> {
    texts: &'a TextList,
    next: usize,
    end: usize,
}

impl<'a> Iterator for Squares<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.next >= self.end {
            return None;
        }
        self.next += 1;
        self.texts.get(self.next - 1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares<'_> {}

impl PlyDetails {
    /// Plies described.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// True when no ply is described.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// Ply `i` (0-based) of the list.
    pub fn get(&self, i: usize) -> Option<PlyDetail<'_>> {
        let e = self.plies.get(i)?;
        let first = e.first as usize;
        let text = |k: usize| self.texts.get(first + k).unwrap_or_default();
        let square = |k: usize| Some(text(k)).filter(|s| !s.is_empty());
        let captured = e.captured as usize;
        Some(PlyDetail {
            ply: e.ply,
            mover: e.mover,
            notation: text(0),
            from: square(1),
            to: square(2),
            captured: Squares {
                texts: &self.texts,
                next: first + 3,
                end: first + 3 + captured,
            },
            promotion: e.promotion,
            position: text(3 + captured),
            key: e.key,
            throws: self
                .throws
                .get(e.throws_start as usize..e.throws_end as usize)
                .unwrap_or_default(),
            lost_throws: e.lost_throws,
        })
    }

    /// The plies in order.
    pub fn iter(&self) -> impl Iterator<Item = PlyDetail<'_>> {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// Removes every ply, keeping the memory.
    pub fn clear(&mut self) {
        self.texts.clear();
        self.throws.clear();
        self.plies.clear();
    }

    /// Adds a ply: `describe` appends its texts as [`game::Explore::describe_into`] does,
    /// `position` the position after it.
    pub(crate) fn push(
        &mut self,
        head: PlyHead<'_>,
        describe: impl FnOnce(&mut TextList),
        position: impl FnOnce(&mut String),
    ) {
        let first = self.texts.len();
        describe(&mut self.texts);
        // Notation, from and to are always there, even from a describer that wrote less.
        while self.texts.len() < first + 3 {
            self.texts.push("");
        }
        let captured = self.texts.len() - first - 3;
        position(self.texts.open());
        self.texts.close();
        let throws_start = self.throws.len();
        self.throws.extend_from_slice(head.throws);
        let index = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.plies.push(Entry {
            key: head.key,
            ply: head.ply,
            first: index(first),
            captured: index(captured),
            throws_start: index(throws_start),
            throws_end: index(self.throws.len()),
            mover: head.mover,
            lost_throws: head.lost_throws,
            promotion: head.promotion,
        });
    }
}
