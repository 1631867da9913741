//! Dates as PDN files write them, possibly with unknown parts.

use std::fmt;

/// A date whose parts may be unknown: `2010.??.??` knows only the year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartialDate {
    /// The year, if known.
    pub year: Option<u16>,
    /// The month (1–12), if known.
    pub month: Option<u8>,
    /// The day (1–31), if known.
    pub day: Option<u8>,
}

/// Why a text is not a date.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a date (write YYYY.MM.DD, with ?? for unknown parts, DD.MM.YYYY or YYYY-MM-DD)")]
pub struct DateError {
    /// The text given.
    pub text: String,
}

impl PartialDate {
    /// Reads `YYYY.MM.DD` (any part may be `?`s, and the month and day may be left out),
    /// `DD.MM.YYYY` or `YYYY-MM-DD`.
    ///
    /// ```
    /// use archive::PartialDate;
    /// let d = PartialDate::parse("2010.??.??").unwrap();
    /// assert_eq!((d.year, d.month, d.day), (Some(2010), None, None));
    /// assert_eq!(PartialDate::parse("25.11.2000").unwrap(), PartialDate::parse("2000.11.25").unwrap());
    /// assert_eq!(PartialDate::parse("2024-12-14").unwrap(), PartialDate::parse("2024.12.14").unwrap());
    /// assert!(PartialDate::parse("yesterday").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<PartialDate, DateError> {
        let bad = || DateError {
            text: text.to_string(),
        };
        let t = text.trim();
        let parts: Vec<&str> = t.split(['.', '-', '/']).collect();
        if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
            return Err(bad());
        }
        // A four-character last part with a short first part is day first: DD.MM.YYYY.
        let day_first = parts.len() == 3 && parts[2].len() == 4 && parts[0].len() <= 2;
        let (y, m, d) = if day_first {
            (parts[2], Some(parts[1]), Some(parts[0]))
        } else {
            (parts[0], parts.get(1).copied(), parts.get(2).copied())
        };
        let year = field(y, 0, 9999).ok_or_else(bad)?;
        let month = m.map_or(Ok(None), |m| field(m, 1, 12).ok_or_else(bad))?;
        let day = d.map_or(Ok(None), |d| field(d, 1, 31).ok_or_else(bad))?;
        Ok(PartialDate {
            year: year.map(|y| y as u16),
            month: month.map(|m| m as u8),
            day: day.map(|d| d as u8),
        })
    }

    /// The earliest day the date may stand for, as `(year, month, day)`; `None` when the
    /// year is unknown.
    pub fn earliest(&self) -> Option<(u16, u8, u8)> {
        Some((self.year?, self.month.unwrap_or(1), self.day.unwrap_or(1)))
    }

    /// The latest day the date may stand for; `None` when the year is unknown.
    pub fn latest(&self) -> Option<(u16, u8, u8)> {
        Some((self.year?, self.month.unwrap_or(12), self.day.unwrap_or(31)))
    }
}

/// A number in `lo..=hi`, `Ok(None)`-like for a run of `?`; `None` (the outer) when invalid.
fn field(text: &str, lo: u32, hi: u32) -> Option<Option<u32>> {
    if text.bytes().all(|b| b == b'?') {
        return Some(None);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) || text.len() > 4 {
        return None;
    }
    let n: u32 = text.parse().ok()?;
    (lo..=hi).contains(&n).then_some(Some(n))
}

impl fmt::Display for PartialDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.year {
            Some(y) => write!(f, "{y:04}")?,
            None => f.write_str("????")?,
        }
        match self.month {
            Some(m) => write!(f, ".{m:02}")?,
            None => f.write_str(".??")?,
        }
        match self.day {
            Some(d) => write!(f, ".{d:02}"),
            None => f.write_str(".??"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_forms_real_files_write() {
        let full = PartialDate::parse("2000.11.25").unwrap();
        assert_eq!(full.to_string(), "2000.11.25");
        assert_eq!(PartialDate::parse("25.11.2000").unwrap(), full);
        assert_eq!(PartialDate::parse("2000-11-25").unwrap(), full);
        assert_eq!(PartialDate::parse(" 2000.11.25 ").unwrap(), full);
        let year = PartialDate::parse("2000").unwrap();
        assert_eq!(year.to_string(), "2000.??.??");
        assert_eq!(PartialDate::parse("2000.??.??").unwrap(), year);
        let none = PartialDate::parse("????.??.??").unwrap();
        assert_eq!(none.earliest(), None);
        for bad in [
            "",
            "2000.13.01",
            "2000.01.32",
            "x",
            "2000..01",
            "1.2.3.4",
            "20000",
        ] {
            assert!(PartialDate::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_parts_span_their_range() {
        let d = PartialDate::parse("2010.??.??").unwrap();
        assert_eq!(d.earliest(), Some((2010, 1, 1)));
        assert_eq!(d.latest(), Some((2010, 12, 31)));
        let d = PartialDate::parse("2010.06.??").unwrap();
        assert_eq!(d.earliest(), Some((2010, 6, 1)));
        assert_eq!(d.latest(), Some((2010, 6, 31)));
    }
}
