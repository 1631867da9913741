//! Throws and series of throws (rules 4–6).

use std::fmt;

/// The values a throw can have, in ascending order (rule 4).
pub const VALUES: [u8; 5] = [1, 2, 3, 4, 8];

/// The most throws one series may hold. Longer series cannot be read (a series of 33 throws
/// has a probability below 10⁻¹³ with fair shells).
pub const MAX_SERIES: usize = 32;

/// Slot of a throw value in [`VALUES`].
pub(crate) const fn slot(value: u8) -> Option<usize> {
    match value {
        1 => Some(0),
        2 => Some(1),
        3 => Some(2),
        4 => Some(3),
        8 => Some(4),
        _ => None,
    }
}

/// A multiset of throws: how many of each value (1, 2, 3, 4, 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Throws {
    counts: [u8; 5],
}

impl Throws {
    /// The empty multiset.
    pub const EMPTY: Throws = Throws { counts: [0; 5] };

    /// The multiset of the given values; `None` if one of them cannot be thrown or a value
    /// occurs more than 255 times.
    pub fn from_values(values: &[u8]) -> Option<Throws> {
        let mut t = Throws::EMPTY;
        for &v in values {
            t.add(v)?;
        }
        Some(t)
    }

    /// Builds a multiset from counts of 1s, 2s, 3s, 4s and 8s.
    pub const fn from_counts(counts: [u8; 5]) -> Throws {
        Throws { counts }
    }

    /// Counts of 1s, 2s, 3s, 4s and 8s.
    pub const fn counts(&self) -> [u8; 5] {
        self.counts
    }

    /// How many throws of `value` the multiset holds.
    pub fn count(&self, value: u8) -> u8 {
        slot(value).map_or(0, |s| self.counts[s])
    }

    /// Adds a throw; `None` if the value cannot be thrown.
    pub fn add(&mut self, value: u8) -> Option<()> {
        let s = slot(value)?;
        self.counts[s] = self.counts[s].checked_add(1)?;
        Some(())
    }

    /// Removes one throw of `value`; false if there is none.
    pub fn remove(&mut self, value: u8) -> bool {
        match slot(value) {
            Some(s) if self.counts[s] > 0 => {
                self.counts[s] -= 1;
                true
            }
            _ => false,
        }
    }

    /// True if `other` is contained in `self` (as multisets).
    pub fn contains(&self, other: &Throws) -> bool {
        self.counts.iter().zip(other.counts).all(|(&a, b)| a >= b)
    }

    /// Removes `other` from `self`; the caller checks [`Throws::contains`] first.
    pub(crate) fn take(&mut self, other: &Throws) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a = a.saturating_sub(b);
        }
    }

    /// Number of throws.
    pub fn len(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// True when there is no throw.
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    /// Sum of the values.
    pub fn sum(&self) -> u32 {
        self.counts
            .iter()
            .zip(VALUES)
            .map(|(&c, v)| u32::from(c) * u32::from(v))
            .sum()
    }

    /// The values, largest first (the order the writer uses).
    pub fn descending(&self) -> impl Iterator<Item = u8> + '_ {
        (0..5)
            .rev()
            .flat_map(move |s| std::iter::repeat_n(VALUES[s], usize::from(self.counts[s])))
    }
}

impl fmt::Display for Throws {
    /// The values, largest first, separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for v in self.descending() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

/// The throws of one series in the order thrown (at most [`MAX_SERIES`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ThrowSeq {
    len: u8,
    values: [u8; MAX_SERIES],
}

impl ThrowSeq {
    /// An empty sequence.
    pub const EMPTY: ThrowSeq = ThrowSeq {
        len: 0,
        values: [0; MAX_SERIES],
    };

    /// Checks that `values` form a series that can be thrown (rule 5) and stores them.
    pub fn new(values: &[u8]) -> Result<ThrowSeq, SeriesError> {
        check_series(values)?;
        let mut s = ThrowSeq::EMPTY;
        s.values[..values.len()].copy_from_slice(values);
        s.len = values.len() as u8;
        Ok(s)
    }

    /// The sequence of `len` throws (at most [`MAX_SERIES`]) given as the bytes of two
    /// little-endian words; the bytes from `len` on must be zero, as in every sequence. The
    /// caller keeps rule 5 (values and where the series ends).
    pub(crate) fn from_words(words: [u128; 2], len: usize) -> ThrowSeq {
        let mut values = [0u8; MAX_SERIES];
        values[..16].copy_from_slice(&words[0].to_le_bytes());
        values[16..].copy_from_slice(&words[1].to_le_bytes());
        let len = len.min(MAX_SERIES);
        debug_assert!(values[len..].iter().all(|&v| v == 0));
        ThrowSeq {
            len: len as u8,
            values,
        }
    }

    /// The sequence as [`ThrowSeq::from_words`] takes it.
    pub(crate) fn words(&self) -> (u128, u128, usize) {
        let word = |at: usize| {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(&self.values[at..at + 16]);
            u128::from_le_bytes(bytes)
        };
        (word(0), word(16), usize::from(self.len))
    }

    /// The throws, in order.
    pub fn as_slice(&self) -> &[u8] {
        &self.values[..usize::from(self.len)]
    }

    /// The throws as a multiset.
    pub fn multiset(&self) -> Throws {
        self.multiset_from(0)
    }

    /// The throws from position `start` on, as a multiset.
    #[inline]
    pub(crate) fn multiset_from(&self, start: usize) -> Throws {
        // Slot of each value 0..=8 in `VALUES`; 5 for values no throw has (never stored).
        const SLOTS: [u8; 9] = [5, 0, 1, 2, 3, 5, 5, 5, 4];
        // One byte of a word per slot (a sequence holds at most 32 throws, so no byte
        // overflows); counting in a register is faster than in a byte array.
        let mut packed = 0u64;
        for &v in self.as_slice().get(start..).unwrap_or_default() {
            let slot = SLOTS.get(usize::from(v)).copied().unwrap_or(5);
            packed += 1 << (8 * slot);
        }
        let [a, b, c, d, e, ..] = packed.to_le_bytes();
        Throws {
            counts: [a, b, c, d, e],
        }
    }

    /// How many leading throws the discard rule (rule 6) removes when the player has no piece
    /// on the board: all throws before the first 1, or all of them when there is no 1.
    pub fn discard_count(&self) -> usize {
        let s = self.as_slice();
        s.iter().position(|&v| v == 1).unwrap_or(s.len())
    }
}

impl fmt::Debug for ThrowSeq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Why a list of throws is not a series that can be thrown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesError {
    /// No throw at all.
    Empty,
    /// A value that no throw scores (position in the series, value).
    BadValue(usize, u32),
    /// Throws follow the 2 or 3 that ended the series (position of the 2 or 3, its value).
    GoesOn(usize, u8),
    /// The series ends on a 1, 4 or 8.
    Unended(u8),
    /// More than [`MAX_SERIES`] throws.
    TooLong(usize),
}

impl fmt::Display for SeriesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SeriesError::Empty => {
                f.write_str("a series holds at least one throw and ends with a 2 or a 3")
            }
            SeriesError::BadValue(_, v) => {
                write!(f, "{v} cannot be thrown: a throw scores 1, 2, 3, 4 or 8")
            }
            SeriesError::GoesOn(_, v) => write!(
                f,
                "the series goes on after the {v}: a series ends at its first 2 or 3"
            ),
            SeriesError::Unended(v) => write!(
                f,
                "the series ends on a {v}: the player throws again until a 2 or a 3 comes"
            ),
            SeriesError::TooLong(n) => write!(
                f,
                "a series of {n} throws is longer than arbiter reads ({MAX_SERIES} at most)"
            ),
        }
    }
}

impl std::error::Error for SeriesError {}

/// Checks rule 5: zero or more throws of 1, 4 or 8, ended by exactly one 2 or 3.
pub fn check_series(values: &[u8]) -> Result<(), SeriesError> {
    check_series_u32(values.iter().map(|&v| u32::from(v)))
}

pub(crate) fn check_series_u32(values: impl IntoIterator<Item = u32>) -> Result<(), SeriesError> {
    let mut n = 0usize;
    let mut ended: Option<(usize, u8)> = None;
    let mut last = 0u8;
    for (i, v) in values.into_iter().enumerate() {
        n = i + 1;
        let v8 = match v {
            1 | 2 | 3 | 4 | 8 => v as u8,
            _ => return Err(SeriesError::BadValue(i, v)),
        };
        if let Some((at, e)) = ended {
            return Err(SeriesError::GoesOn(at, e));
        }
        if v8 == 2 || v8 == 3 {
            ended = Some((i, v8));
        }
        last = v8;
    }
    if n == 0 {
        return Err(SeriesError::Empty);
    }
    if ended.is_none() {
        return Err(SeriesError::Unended(last));
    }
    if n > MAX_SERIES {
        return Err(SeriesError::TooLong(n));
    }
    Ok(())
}

/// The value of one throw of four two-sided shells whose faces are the low four bits of
/// `bits` (a set bit is a mouth up): 1–4 mouths score 1–4, none scores 8. With uniform random
/// bits this gives the fair-shell odds of rule 4.
pub fn throw_from_bits(bits: u32) -> u8 {
    match (bits & 0xF).count_ones() {
        0 => 8,
        n => n as u8,
    }
}

/// Throws one series with a caller-supplied source of random bits (one call per throw, any
/// seeded generator): throws until a 2 or a 3 comes (rule 5). A series that reaches
/// [`MAX_SERIES`] throws is ended with a 2 so that it can always be recorded.
pub fn throw_series(mut random_bits: impl FnMut() -> u32) -> ThrowSeq {
    let mut s = ThrowSeq::EMPTY;
    loop {
        let mut v = throw_from_bits(random_bits());
        if usize::from(s.len) == MAX_SERIES - 1 && v != 3 {
            v = 2;
        }
        s.values[usize::from(s.len)] = v;
        s.len += 1;
        if v == 2 || v == 3 {
            return s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_shape() {
        assert!(check_series(&[2]).is_ok());
        assert!(check_series(&[1, 4, 8, 1, 3]).is_ok());
        assert_eq!(check_series(&[]), Err(SeriesError::Empty));
        assert_eq!(check_series(&[1, 5, 2]), Err(SeriesError::BadValue(1, 5)));
        assert_eq!(check_series(&[2, 1]), Err(SeriesError::GoesOn(0, 2)));
        assert_eq!(check_series(&[1, 4]), Err(SeriesError::Unended(4)));
        let long = [[1u8; 32].as_slice(), &[2]].concat();
        assert_eq!(check_series(&long), Err(SeriesError::TooLong(33)));
    }

    #[test]
    fn fair_shell_odds() {
        let mut counts = [0u32; 9];
        for bits in 0..16 {
            counts[usize::from(throw_from_bits(bits))] += 1;
        }
        assert_eq!(counts, [0, 4, 6, 4, 1, 0, 0, 0, 1]);
    }

    #[test]
    fn discard() {
        assert_eq!(ThrowSeq::new(&[4, 8, 1, 2]).unwrap().discard_count(), 2);
        assert_eq!(ThrowSeq::new(&[4, 3]).unwrap().discard_count(), 2);
        assert_eq!(ThrowSeq::new(&[1, 3]).unwrap().discard_count(), 0);
    }
}
