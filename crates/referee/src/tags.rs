//! The tags of the game being read.

use pdn::visitor::Span;

/// The tags of the current game, stored in one reused buffer.
#[derive(Default)]
pub(crate) struct TagStore {
    bytes: Vec<u8>,
    entries: Vec<(usize, usize, usize, Span)>,
}

impl TagStore {
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.entries.clear();
    }

    pub(crate) fn push(&mut self, name: &[u8], value: &[u8], span: Span) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(name);
        let mid = self.bytes.len();
        self.bytes.extend_from_slice(value);
        self.entries.push((start, mid, self.bytes.len(), span));
    }

    /// The tag a look-up of `name` finds ([`pdn::find_tag`]).
    fn find(&self, name: &[u8]) -> Option<&(usize, usize, usize, Span)> {
        let names = self.entries.iter().map(|e| &self.bytes[e.0..e.1]);
        self.entries.get(pdn::find_tag(names, name)?)
    }

    /// The unescaped, decoded value of the tag named `name` ([`TagStore::find`]).
    pub(crate) fn get(&self, name: &[u8]) -> Option<String> {
        self.find(name).map(|&(_, m, e, _)| {
            let raw = pdn::unescape(&self.bytes[m..e]);
            pdn::decode(&raw).trim().to_string()
        })
    }

    /// The raw values of the tags that identify a game (`Variant`, `GameType`), as one key:
    /// two records with the same key are the same game.
    /// Written into `key`, emptied first (a buffer kept from game to game).
    pub(crate) fn identity_key(&self, key: &mut Vec<u8>) {
        key.clear();
        for name in [&b"Variant"[..], b"GameType"] {
            match self.raw(name) {
                Some(value) => {
                    key.push(1);
                    key.extend_from_slice(&(value.len() as u64).to_le_bytes());
                    key.extend_from_slice(value);
                }
                None => key.push(0),
            }
        }
    }

    /// The raw value of the tag named `name` ([`TagStore::find`]).
    fn raw(&self, name: &[u8]) -> Option<&[u8]> {
        self.find(name).map(|&(_, m, e, _)| &self.bytes[m..e])
    }

    /// Every tag, in order, as read (decoded when the report asks).
    pub(crate) fn all(&self) -> crate::report::TagList {
        // The list keeps the same layout: one copy of the buffer, one of the bounds.
        let entries = self.entries.iter().map(|&(s, m, e, _)| (s, m, e)).collect();
        crate::report::TagList::from_parts(self.bytes.clone(), entries)
    }

    /// The span of the tag named `name` ([`TagStore::find`]).
    pub(crate) fn span(&self, name: &[u8]) -> Option<Span> {
        self.find(name).map(|e| e.3)
    }
}

/// Read access to the current game's tags.
pub(crate) struct TagView<'a>(pub(crate) &'a TagStore);

impl TagView<'_> {
    pub(crate) fn get(&self, name: &str) -> Option<String> {
        self.0.get(name.as_bytes())
    }

    pub(crate) fn span(&self, name: &str) -> Option<Span> {
        self.0.span(name.as_bytes())
    }
}
