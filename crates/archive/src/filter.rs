//! The filters of `select`: what they test and how they are read from the command line.

use std::borrow::Cow;

use game::GameInfo;
use regex::Regex;

use crate::date::{DateError, PartialDate};

/// One test a game must pass to be selected. Filters combine with "and".
#[derive(Debug, Clone)]
pub enum Filter {
    /// The tag `name` has exactly this value (`--tag NAME=VALUE`).
    TagEquals {
        /// Tag name, as written (case-sensitive, as PDN tag names are).
        name: String,
        /// The value.
        value: String,
    },
    /// The value of the tag `name` matches the regular expression (`--tag NAME~REGEX`,
    /// unanchored: anchor it with `^...$`).
    TagMatches {
        /// Tag name.
        name: String,
        /// The expression.
        regex: Regex,
    },
    /// White or Black (or a seat tag South, West, North, East) contains this text, ignoring
    /// case (`--player`). Stored in lower case.
    Player(String),
    /// The game's result (result token, else `Result` tag) says this result: compared as
    /// outcomes by the game's own result notation where the game is known, as text otherwise.
    Result(String),
    /// The game's date may lie on or after this date (a date with unknown parts stands for
    /// every day it could be; games without a known year never match a date filter).
    DateFrom(PartialDate),
    /// The game's date may lie on or before this date.
    DateTo(PartialDate),
    /// The main line has between `min` and `max` plies, both included (needs a replay).
    Plies {
        /// Fewest plies.
        min: u32,
        /// Most plies.
        max: u32,
    },
    /// The game is this game, as its Variant and GameType tags say.
    Game(&'static GameInfo),
    /// The replay finds these problems (needs a replay).
    Problems(Problems),
    /// The main line reaches this position (needs a replay). The text is the position string
    /// as given; it is compared after reading and writing it again in each game's dialect.
    Position(String),
}

/// Which problems `--problems` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problems {
    /// At least one error (syntax or rules).
    Any,
    /// No error at all (warnings allowed).
    None,
    /// At least one diagnostic, error or warning, with one of these codes.
    Codes(Vec<String>),
}

/// Why a filter's argument cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// `--tag` without `=` or `~`.
    #[error("`{0}` is not a tag test: write NAME=VALUE (exact) or NAME~REGEX")]
    TagSpec(String),
    /// A tag name that PDN cannot hold.
    #[error("`{0}` is not a tag name (a letter, then letters, digits or _)")]
    TagName(String),
    /// A bad regular expression.
    #[error("`{spec}`: {message}")]
    Regex {
        /// The expression.
        spec: String,
        /// What is wrong with it.
        message: String,
    },
    /// A bad ply range.
    #[error("`{0}` is not a ply range: write MIN..MAX, MIN.., ..MAX or N")]
    Plies(String),
    /// A bad problem list.
    #[error("`{0}` is not a problem selection: write any, none, or codes such as illegal-move,missed-capture")]
    Problems(String),
    /// A problem code nobody reports.
    #[error("`{code}` is not a problem code (known: {known})")]
    UnknownCode {
        /// The code given.
        code: String,
        /// The codes arbiter reports.
        known: String,
    },
    /// A bad date.
    #[error(transparent)]
    Date(#[from] DateError),
    /// An empty player text.
    #[error("--player needs some text to look for")]
    EmptyPlayer,
}

/// Tags that name a player: the two sides of draughts and the seats of four-seat games.
pub const PLAYER_TAGS: [&str; 6] = ["White", "Black", "South", "West", "North", "East"];

impl Filter {
    /// Reads `NAME=VALUE` or `NAME~REGEX`.
    ///
    /// ```
    /// use archive::Filter;
    /// assert!(matches!(Filter::tag("Site=Goris"), Ok(Filter::TagEquals { .. })));
    /// assert!(matches!(Filter::tag("Event~^Open"), Ok(Filter::TagMatches { .. })));
    /// assert!(Filter::tag("Site").is_err());
    /// ```
    pub fn tag(spec: &str) -> Result<Filter, FilterError> {
        let at = spec
            .find(['=', '~'])
            .ok_or_else(|| FilterError::TagSpec(spec.to_string()))?;
        let (name, rest) = spec.split_at(at);
        let name = name.trim();
        let mut chars = name.chars();
        let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok {
            return Err(FilterError::TagName(name.to_string()));
        }
        let value = &rest[1..];
        if rest.starts_with('=') {
            return Ok(Filter::TagEquals {
                name: name.to_string(),
                value: value.to_string(),
            });
        }
        let regex = Regex::new(value).map_err(|e| FilterError::Regex {
            spec: spec.to_string(),
            message: e.to_string(),
        })?;
        Ok(Filter::TagMatches {
            name: name.to_string(),
            regex,
        })
    }

    /// `--player TEXT`.
    pub fn player(text: &str) -> Result<Filter, FilterError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(FilterError::EmptyPlayer);
        }
        Ok(Filter::Player(text.to_lowercase()))
    }

    /// Reads `MIN..MAX`, `MIN..`, `..MAX` or a single number.
    ///
    /// ```
    /// use archive::Filter;
    /// assert!(matches!(Filter::plies("10..40"), Ok(Filter::Plies { min: 10, max: 40 })));
    /// assert!(matches!(Filter::plies("..40"), Ok(Filter::Plies { min: 0, max: 40 })));
    /// assert!(matches!(Filter::plies("7"), Ok(Filter::Plies { min: 7, max: 7 })));
    /// assert!(Filter::plies("40..10").is_err());
    /// ```
    pub fn plies(spec: &str) -> Result<Filter, FilterError> {
        let bad = || FilterError::Plies(spec.to_string());
        let num = |s: &str, default: u32| -> Result<u32, FilterError> {
            let s = s.trim();
            if s.is_empty() {
                Ok(default)
            } else {
                s.parse().map_err(|_| bad())
            }
        };
        let (min, max) = match spec.split_once("..") {
            Some((a, b)) => {
                let b = b.strip_prefix('=').unwrap_or(b);
                (num(a, 0)?, num(b, u32::MAX)?)
            }
            None if !spec.trim().is_empty() => {
                let n = num(spec, 0)?;
                (n, n)
            }
            None => return Err(bad()),
        };
        if min > max {
            return Err(bad());
        }
        Ok(Filter::Plies { min, max })
    }

    /// Reads `any`, `none` or a comma-separated list of codes, each checked against `known`
    /// (the codes the referee and the reader report).
    pub fn problems(spec: &str, known: &[&str]) -> Result<Filter, FilterError> {
        let selection = match spec.trim() {
            "any" => Problems::Any,
            "none" => Problems::None,
            "" => return Err(FilterError::Problems(spec.to_string())),
            list => {
                let mut codes = Vec::new();
                for code in list.split(',').map(str::trim) {
                    if code.is_empty() {
                        return Err(FilterError::Problems(spec.to_string()));
                    }
                    if !known.contains(&code) {
                        return Err(FilterError::UnknownCode {
                            code: code.to_string(),
                            known: known.join(", "),
                        });
                    }
                    codes.push(code.to_string());
                }
                Problems::Codes(codes)
            }
        };
        Ok(Filter::Problems(selection))
    }

    /// `--date-from DATE`.
    pub fn date_from(text: &str) -> Result<Filter, FilterError> {
        Ok(Filter::DateFrom(PartialDate::parse(text)?))
    }

    /// `--date-to DATE`.
    pub fn date_to(text: &str) -> Result<Filter, FilterError> {
        Ok(Filter::DateTo(PartialDate::parse(text)?))
    }

    /// True when the filter needs the game replayed (the others read only the tags).
    pub fn needs_replay(&self) -> bool {
        matches!(
            self,
            Filter::Plies { .. } | Filter::Problems(_) | Filter::Position(_)
        )
    }
}

/// The tag-only tests: true, false, or `None` when the filter needs more than the tags.
pub(crate) fn test_tags<'t>(
    filter: &Filter,
    tag: &dyn Fn(&str) -> Option<Cow<'t, str>>,
) -> Option<bool> {
    Some(match filter {
        Filter::TagEquals { name, value } => tag(name).is_some_and(|v| v == value.as_str()),
        Filter::TagMatches { name, regex } => tag(name).is_some_and(|v| regex.is_match(&v)),
        Filter::Player(text) => PLAYER_TAGS
            .iter()
            .any(|t| tag(t).is_some_and(|v| contains_ignoring_case(&v, text))),
        Filter::DateFrom(from) => {
            game_date(tag).is_some_and(|d| match (d.latest(), from.earliest()) {
                (Some(game), Some(from)) => game >= from,
                (Some(_), None) => true,
                _ => false,
            })
        }
        Filter::DateTo(to) => game_date(tag).is_some_and(|d| match (d.earliest(), to.latest()) {
            (Some(game), Some(to)) => game <= to,
            (Some(_), None) => true,
            _ => false,
        }),
        _ => return None,
    })
}

/// The game's date: the `Date` tag, else `EventDate`.
fn game_date<'t>(tag: &dyn Fn(&str) -> Option<Cow<'t, str>>) -> Option<PartialDate> {
    ["Date", "EventDate"]
        .iter()
        .find_map(|t| tag(t).and_then(|v| PartialDate::parse(&v).ok()))
}

/// `haystack` contains `needle_lower` (already in lower case), ignoring case.
fn contains_ignoring_case(haystack: &str, needle_lower: &str) -> bool {
    if haystack.is_ascii() && needle_lower.is_ascii() {
        let (h, n) = (haystack.as_bytes(), needle_lower.as_bytes());
        return n.len() <= h.len()
            && h.windows(n.len())
                .any(|w| w.iter().zip(n).all(|(a, b)| a.to_ascii_lowercase() == *b));
    }
    haystack.to_lowercase().contains(needle_lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<Cow<'a, str>> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| Cow::Borrowed(*v))
        }
    }

    #[test]
    fn tag_tests() {
        let t = tags(&[("Site", "Goris"), ("Event", "Open A")]);
        let yes = |spec: &str| test_tags(&Filter::tag(spec).unwrap(), &t).unwrap();
        assert!(yes("Site=Goris"));
        assert!(!yes("Site=goris"));
        assert!(!yes("Round=1"));
        assert!(yes("Event~^Open"));
        assert!(!yes("Event~^A"));
        assert!(yes("Site~r"));
        assert!(!yes("Site~^r"));
        assert!(matches!(Filter::tag("1x=2"), Err(FilterError::TagName(_))));
        assert!(matches!(
            Filter::tag("Site~("),
            Err(FilterError::Regex { .. })
        ));
    }

    #[test]
    fn players_ignore_case_and_include_seats() {
        let t = tags(&[("White", "Petrosyan, Mariam"), ("North", "Ёлкин")]);
        let yes = |text: &str| test_tags(&Filter::player(text).unwrap(), &t).unwrap();
        assert!(yes("petros"));
        assert!(yes("MARIAM"));
        assert!(yes("ёлк"));
        assert!(yes("ЁЛКИН"));
        assert!(!yes("Hayk"));
        assert!(Filter::player("  ").is_err());
    }

    #[test]
    fn dates_compare_as_ranges() {
        let t = tags(&[("Date", "2010.??.??")]);
        let from = |d: &str| test_tags(&Filter::date_from(d).unwrap(), &t).unwrap();
        let to = |d: &str| test_tags(&Filter::date_to(d).unwrap(), &t).unwrap();
        assert!(from("2010.06.01"));
        assert!(!from("2011"));
        assert!(to("2010.06.01"));
        assert!(!to("2009.12.31"));
        let dmy = tags(&[("Date", "25.11.2000")]);
        assert!(test_tags(&Filter::date_from("2000-11-25").unwrap(), &dmy).unwrap());
        assert!(!test_tags(&Filter::date_from("2000-11-26").unwrap(), &dmy).unwrap());
        let none = tags(&[("Date", "????.??.??")]);
        assert!(!test_tags(&Filter::date_to("2100").unwrap(), &none).unwrap());
        let missing = tags(&[]);
        assert!(!test_tags(&Filter::date_from("1900").unwrap(), &missing).unwrap());
    }

    #[test]
    fn ply_ranges_and_problem_lists() {
        assert!(matches!(
            Filter::plies("10.."),
            Ok(Filter::Plies {
                min: 10,
                max: u32::MAX
            })
        ));
        assert!(matches!(
            Filter::plies("3..=5"),
            Ok(Filter::Plies { min: 3, max: 5 })
        ));
        for bad in ["", "a..b", "5..3", "-1"] {
            assert!(Filter::plies(bad).is_err(), "{bad}");
        }
        let known = ["illegal-move", "missed-capture"];
        assert!(matches!(
            Filter::problems("any", &known),
            Ok(Filter::Problems(Problems::Any))
        ));
        assert!(matches!(
            Filter::problems("illegal-move, missed-capture", &known),
            Ok(Filter::Problems(Problems::Codes(c))) if c.len() == 2
        ));
        assert!(matches!(
            Filter::problems("illegal", &known),
            Err(FilterError::UnknownCode { .. })
        ));
        assert!(Filter::problems("a,,b", &known).is_err());
        assert!(Filter::problems("none", &known).unwrap().needs_replay());
        assert!(!Filter::player("x").unwrap().needs_replay());
    }
}
