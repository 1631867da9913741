//! Small counters: results, validation outcomes, openings.

use std::collections::{BTreeMap, HashMap};

use game::Outcome;
use serde::{Deserialize, Serialize};

/// Counts of game results by seat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultTally {
    /// Wins per seat index (in the order of the game's seat names).
    pub wins: [u64; 4],
    /// Losses per seat index, where the result names a loser.
    pub losses: [u64; 4],
    /// Draws.
    pub draws: u64,
    /// `*`: unfinished or unknown.
    pub unfinished: u64,
    /// No result at all (none recorded, or the game did not end by rule).
    pub none: u64,
    /// Wins credited to a seat index outside 0..4 (should not happen).
    pub bad_seat: u64,
}

impl ResultTally {
    /// Counts one result.
    pub fn add(&mut self, outcome: Option<Outcome>) {
        match outcome {
            None => self.none += 1,
            Some(Outcome::Draw) => self.draws += 1,
            Some(Outcome::Unfinished) => self.unfinished += 1,
            Some(Outcome::Win { winner, loser }) => {
                match self.wins.get_mut(winner.0 as usize) {
                    Some(w) => *w += 1,
                    None => self.bad_seat += 1,
                }
                if let Some(l) = loser.and_then(|l| self.losses.get_mut(l.0 as usize)) {
                    *l += 1;
                }
            }
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &ResultTally) {
        for i in 0..4 {
            self.wins[i] += other.wins[i];
            self.losses[i] += other.losses[i];
        }
        self.draws += other.draws;
        self.unfinished += other.unfinished;
        self.none += other.none;
        self.bad_seat += other.bad_seat;
    }

    /// Number of results counted.
    pub fn total(&self) -> u64 {
        self.wins.iter().sum::<u64>() + self.bad_seat + self.draws + self.unfinished + self.none
    }
}

/// How the recorded result compares with the result by rule.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agreement {
    /// The game ended by rule and the record says the same.
    pub agree: u64,
    /// The game ended by rule and the record says something else (including `*`).
    pub disagree: u64,
    /// The game ended by rule and no result is recorded.
    pub rule_only: u64,
    /// A result is recorded but the game did not end by rule (agreements, resignations, `*`).
    pub recorded_only: u64,
    /// Neither.
    pub neither: u64,
}

impl Agreement {
    /// Counts one game.
    pub fn add(&mut self, recorded: Option<Outcome>, terminal: Option<Outcome>) {
        match (recorded, terminal) {
            (Some(r), Some(t)) if same_result(r, t) => self.agree += 1,
            (Some(_), Some(_)) => self.disagree += 1,
            (None, Some(_)) => self.rule_only += 1,
            (Some(_), None) => self.recorded_only += 1,
            (None, None) => self.neither += 1,
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Agreement) {
        self.agree += other.agree;
        self.disagree += other.disagree;
        self.rule_only += other.rule_only;
        self.recorded_only += other.recorded_only;
        self.neither += other.neither;
    }
}

/// Same result, where a loser left out on one side is not a difference (`S+` matches `S+W-`).
fn same_result(a: Outcome, b: Outcome) -> bool {
    match (a, b) {
        (
            Outcome::Win {
                winner: wa,
                loser: la,
            },
            Outcome::Win {
                winner: wb,
                loser: lb,
            },
        ) => wa == wb && (la.is_none() || lb.is_none() || la == lb),
        _ => a == b,
    }
}

/// Counts of one diagnostic code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeTally {
    /// Diagnostics of this code that are errors.
    pub errors: u64,
    /// Diagnostics of this code that are warnings.
    pub warnings: u64,
    /// Games with at least one diagnostic of this code.
    pub games: u64,
}

impl CodeTally {
    fn merge(&mut self, other: &CodeTally) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.games += other.games;
    }
}

/// Distinct diagnostic codes counted by name; further codes are counted together in
/// [`Validation::other_codes`]. The project has about twenty codes, so the cap only guards
/// against a converter passing free text as codes.
pub const MAX_CODES: usize = 64;

/// What validation found, game by game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validation {
    /// Games without any diagnostic.
    pub clean: u64,
    /// Games with warnings but no error.
    pub warnings_only: u64,
    /// Games with at least one error.
    pub with_errors: u64,
    /// Counts per diagnostic code.
    pub codes: BTreeMap<String, CodeTally>,
    /// Counts of the codes beyond [`MAX_CODES`] distinct ones.
    pub other_codes: CodeTally,
}

impl Validation {
    /// Counts one game's diagnostics (`(code, is_error)`).
    pub fn add(&mut self, diagnostics: &[(&str, bool)]) {
        let errors = diagnostics.iter().filter(|d| d.1).count();
        if diagnostics.is_empty() {
            self.clean += 1;
        } else if errors == 0 {
            self.warnings_only += 1;
        } else {
            self.with_errors += 1;
        }
        for (i, &(code, is_error)) in diagnostics.iter().enumerate() {
            let first_in_game = !diagnostics[..i].iter().any(|d| d.0 == code);
            let tally = if self.codes.contains_key(code) || self.codes.len() < MAX_CODES {
                // Allocates only for a code not seen before.
                match self.codes.get_mut(code) {
                    Some(t) => t,
                    None => self.codes.entry(code.to_owned()).or_default(),
                }
            } else {
                &mut self.other_codes
            };
            if is_error {
                tally.errors += 1;
            } else {
                tally.warnings += 1;
            }
            if first_in_game {
                tally.games += 1;
            }
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Validation) {
        self.clean += other.clean;
        self.warnings_only += other.warnings_only;
        self.with_errors += other.with_errors;
        for (code, t) in &other.codes {
            if let Some(mine) = self.codes.get_mut(code) {
                mine.merge(t);
            } else if self.codes.len() < MAX_CODES {
                self.codes.insert(code.clone(), *t);
            } else {
                self.other_codes.merge(t);
            }
        }
        self.other_codes.merge(&other.other_codes);
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.clean + self.warnings_only + self.with_errors
    }
}

/// Openings kept after pruning.
pub const OPENINGS_KEEP: usize = 2048;
/// Distinct openings that trigger pruning down to [`OPENINGS_KEEP`].
pub const OPENINGS_PRUNE_AT: usize = 4096;
/// Openings longer than this many bytes are cut (at a character boundary).
pub const OPENING_MAX_LEN: usize = 160;
/// Player and event names kept after pruning (per game).
pub const NAMES_KEEP: usize = 2048;
/// Distinct player (or event) names that trigger pruning down to [`NAMES_KEEP`].
pub const NAMES_PRUNE_AT: usize = 4096;
/// Names longer than this many bytes are cut (at a character boundary).
const NAME_MAX_LEN: usize = 80;

/// A row of a [`Table`]: something counted per game that two partial tables can add up.
pub trait Counted: Default + Clone {
    /// Games counted in the row.
    fn games(&self) -> u64;
    /// Adds every count of `other`.
    fn merge(&mut self, other: &Self);
}

/// One opening's count and results.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningTally {
    /// Games that began this way.
    pub games: u64,
    /// Their results (by rule where the game ended by rule, else as recorded).
    pub results: ResultTally,
}

impl Counted for OpeningTally {
    fn games(&self) -> u64 {
        self.games
    }
    fn merge(&mut self, other: &Self) {
        self.games += other.games;
        self.results.merge(&other.results);
    }
}

/// The hash map of a [`Table`]: text keys hashed with `rustc-hash`'s Fx hash. The keys are
/// read from the games, not chosen against the table, and a table never holds more than a
/// few thousand of them, so the flooding resistance of the standard hasher buys nothing
/// here; its cost was most of what counting players, events and openings took.
pub type KeyMap<T> = HashMap<String, T, rustc_hash::FxBuildHasher>;

/// Counts per text key (an opening, a player, an event), bounded.
///
/// Counts are **exact** while at most `prune_at` distinct keys have been seen (in one
/// accumulator, and in a merge of two). Beyond that the table is pruned to the `keep` most
/// frequent keys (ties broken by text), and the games of the dropped ones are counted in
/// [`Table::pruned_games`]. After pruning, a kept count is a lower bound: a key dropped earlier
/// and seen again starts from zero, so its count is low by at most `pruned_games`. Frequent
/// keys survive; rare ones are the ones lost. Memory: at most `prune_at` keys of bounded
/// length.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table<T> {
    /// Counts per key.
    pub table: KeyMap<T>,
    /// Games whose key was dropped by pruning.
    pub pruned_games: u64,
}

impl<T: Counted> Table<T> {
    /// Updates the row of `key` (created empty if new) with `update`, then prunes if the
    /// table grew beyond `prune_at` keys. Allocates only for a key not in the table.
    fn update(&mut self, key: &str, limits: (usize, usize), update: impl FnOnce(&mut T)) {
        match self.table.get_mut(key) {
            Some(t) => update(t),
            None => update(self.table.entry(key.to_owned()).or_default()),
        }
        self.prune_if_needed(limits);
    }

    fn merge_with(&mut self, other: &Table<T>, limits: (usize, usize)) {
        for (k, v) in &other.table {
            match self.table.get_mut(k) {
                Some(t) => t.merge(v),
                None => {
                    self.table.insert(k.clone(), v.clone());
                }
            }
        }
        self.pruned_games += other.pruned_games;
        self.prune_if_needed(limits);
    }

    fn prune_if_needed(&mut self, (keep, prune_at): (usize, usize)) {
        if self.table.len() <= prune_at {
            return;
        }
        let mut all: Vec<(String, T)> = self.table.drain().collect();
        all.sort_unstable_by(|a, b| b.1.games().cmp(&a.1.games()).then_with(|| a.0.cmp(&b.0)));
        for (_, t) in all.drain(keep..) {
            self.pruned_games += t.games();
        }
        self.table.extend(all);
    }

    /// The `n` most frequent keys, most frequent first (ties by text).
    pub fn top(&self, n: usize) -> Vec<(&str, &T)> {
        let mut all: Vec<(&str, &T)> = self.table.iter().map(|(k, v)| (k.as_str(), v)).collect();
        all.sort_unstable_by(|a, b| b.1.games().cmp(&a.1.games()).then_with(|| a.0.cmp(b.0)));
        all.truncate(n);
        all
    }
}

/// Opening frequencies and their results, bounded by [`OPENINGS_PRUNE_AT`] (see [`Table`]).
pub type Openings = Table<OpeningTally>;

impl Table<OpeningTally> {
    /// Counts one game that began with `opening`.
    pub fn add(&mut self, opening: &str, result: Option<Outcome>) {
        let key = cut(opening.trim(), OPENING_MAX_LEN);
        self.update(key, (OPENINGS_KEEP, OPENINGS_PRUNE_AT), |t| {
            t.games += 1;
            t.results.add(result);
        });
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Openings) {
        self.merge_with(other, (OPENINGS_KEEP, OPENINGS_PRUNE_AT));
    }
}

/// A game's result as the tags of its two named sides see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TagResult {
    /// The side named White won.
    WhiteWins,
    /// The side named Black won.
    BlackWins,
    /// A draw.
    Draw,
    /// `*`: not finished.
    Unfinished,
}

impl TagResult {
    /// Reads a `Result` tag: two scores separated by `-` (`1-0`, `0-2`, `1/2-1/2`, `½-½`,
    /// `1-1`), White's first; `*` is unfinished. Anything else is `None`.
    pub fn parse(text: &str) -> Option<TagResult> {
        let text = text.trim();
        if text == "*" {
            return Some(TagResult::Unfinished);
        }
        let (a, b) = text.split_once('-')?;
        let (a, b) = (score(a)?, score(b)?);
        Some(if a > b {
            TagResult::WhiteWins
        } else if b > a {
            TagResult::BlackWins
        } else {
            TagResult::Draw
        })
    }
}

fn score(s: &str) -> Option<f64> {
    let s = s.trim();
    match s {
        "½" | "1/2" => Some(0.5),
        _ => s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0),
    }
}

/// Games, wins, draws and losses of one player (or, for an event: White wins as `wins` and
/// Black wins as `losses`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameTally {
    /// Games.
    pub games: u64,
    /// Won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
}

impl Counted for NameTally {
    fn games(&self) -> u64 {
        self.games
    }
    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

impl NameTally {
    fn count(&mut self, result: Option<TagResult>, white: bool) {
        self.games += 1;
        match (result, white) {
            (Some(TagResult::WhiteWins), true) | (Some(TagResult::BlackWins), false) => {
                self.wins += 1
            }
            (Some(TagResult::WhiteWins), false) | (Some(TagResult::BlackWins), true) => {
                self.losses += 1
            }
            (Some(TagResult::Draw), _) => self.draws += 1,
            _ => {}
        }
    }
}

/// Per-name counts bounded by [`NAMES_PRUNE_AT`] (see [`Table`]).
pub type Names = Table<NameTally>;

impl Table<NameTally> {
    fn count(&mut self, name: &str, result: Option<TagResult>, white: bool) {
        let name = cut(name.trim(), NAME_MAX_LEN);
        if name.is_empty() || name == "?" || name == "-" {
            return;
        }
        self.update(name, (NAMES_KEEP, NAMES_PRUNE_AT), |t| {
            t.count(result, white)
        });
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Names) {
        self.merge_with(other, (NAMES_KEEP, NAMES_PRUNE_AT));
    }
}

/// Years outside this range are counted as unreadable dates.
const YEARS: std::ops::RangeInclusive<u16> = 1000..=2999;

/// What the tags of a set of games say: results, players, events and years. Memory is
/// bounded: at most [`NAMES_PRUNE_AT`] players and as many events, and one count per year of
/// 1000–2999.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagStats {
    /// Results credited to the sides named White and Black, with draws and unfinished games.
    pub white_wins: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Unfinished (`*`).
    pub unfinished: u64,
    /// No result, or one that could not be read.
    pub no_result: u64,
    /// Per player: games, wins, draws, losses.
    pub players: Names,
    /// Per event: games, White wins (`wins`), draws, Black wins (`losses`).
    pub events: Names,
    /// Games per year of the `Date` tag.
    pub years: BTreeMap<u16, u64>,
    /// Games without a readable year.
    pub no_year: u64,
}

impl TagStats {
    /// Counts one game whose result for the White and Black sides is `result`.
    pub fn add(&mut self, tags: &crate::Tags<'_>, result: Option<TagResult>) {
        match result {
            Some(TagResult::WhiteWins) => self.white_wins += 1,
            Some(TagResult::BlackWins) => self.black_wins += 1,
            Some(TagResult::Draw) => self.draws += 1,
            Some(TagResult::Unfinished) => self.unfinished += 1,
            None => self.no_result += 1,
        }
        if let Some(w) = tags.white {
            self.players.count(w, result, true);
        }
        if let Some(b) = tags.black {
            self.players.count(b, result, false);
        }
        if let Some(e) = tags.event {
            self.events.count(e, result, true);
        }
        match tags.date.and_then(year) {
            Some(y) => *self.years.entry(y).or_insert(0) += 1,
            None => self.no_year += 1,
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, o: &TagStats) {
        self.white_wins += o.white_wins;
        self.black_wins += o.black_wins;
        self.draws += o.draws;
        self.unfinished += o.unfinished;
        self.no_result += o.no_result;
        self.players.merge(&o.players);
        self.events.merge(&o.events);
        for (&y, &n) in &o.years {
            *self.years.entry(y).or_insert(0) += n;
        }
        self.no_year += o.no_year;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.white_wins + self.black_wins + self.draws + self.unfinished + self.no_result
    }
}

/// The year of a `Date` tag: its first four characters, if they are digits of a year in
/// 1000–2999.
fn year(date: &str) -> Option<u16> {
    let d = date.trim().as_bytes();
    if d.len() < 4 || !d[..4].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let y = d[..4]
        .iter()
        .fold(0u16, |y, &c| y * 10 + u16::from(c - b'0'));
    YEARS.contains(&y).then_some(y)
}

fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Seat;

    fn win(w: u8, l: Option<u8>) -> Option<Outcome> {
        Some(Outcome::Win {
            winner: Seat(w),
            loser: l.map(Seat),
        })
    }

    #[test]
    fn results_by_seat() {
        let mut t = ResultTally::default();
        t.add(win(0, None));
        t.add(win(2, Some(1)));
        t.add(Some(Outcome::Draw));
        t.add(Some(Outcome::Unfinished));
        t.add(None);
        t.add(win(7, None));
        assert_eq!(t.wins, [1, 0, 1, 0]);
        assert_eq!(t.losses, [0, 1, 0, 0]);
        assert_eq!((t.draws, t.unfinished, t.none, t.bad_seat), (1, 1, 1, 1));
        assert_eq!(t.total(), 6);
    }

    #[test]
    fn agreement_ignores_missing_loser() {
        let mut a = Agreement::default();
        a.add(win(0, None), win(0, Some(1)));
        a.add(win(0, Some(3)), win(0, Some(1)));
        a.add(Some(Outcome::Unfinished), win(1, None));
        a.add(None, win(1, None));
        a.add(Some(Outcome::Draw), None);
        a.add(None, None);
        assert_eq!(
            a,
            Agreement {
                agree: 1,
                disagree: 2,
                rule_only: 1,
                recorded_only: 1,
                neither: 1
            }
        );
    }

    #[test]
    fn validation_counts_games_once_per_code() {
        let mut v = Validation::default();
        v.add(&[]);
        v.add(&[("bad-tag", false)]);
        v.add(&[
            ("illegal-move", true),
            ("illegal-move", true),
            ("bad-tag", false),
        ]);
        assert_eq!((v.clean, v.warnings_only, v.with_errors), (1, 1, 1));
        assert_eq!(
            v.codes["illegal-move"],
            CodeTally {
                errors: 2,
                warnings: 0,
                games: 1
            }
        );
        assert_eq!(
            v.codes["bad-tag"],
            CodeTally {
                errors: 0,
                warnings: 2,
                games: 2
            }
        );
    }

    #[test]
    fn openings_are_pruned_to_the_frequent_ones() {
        let mut o = Openings::default();
        for _ in 0..5 {
            o.add("c3-d4 f6-e5", win(0, None));
        }
        for i in 0..OPENINGS_PRUNE_AT + 10 {
            o.add(&format!("rare {i}"), None);
        }
        assert!(o.table.len() <= OPENINGS_PRUNE_AT);
        let top = o.top(1);
        assert_eq!(top[0].0, "c3-d4 f6-e5");
        assert_eq!(top[0].1.games, 5);
        assert_eq!(top[0].1.results.wins[0], 5);
        let kept: u64 = o.table.values().map(|t| t.games).sum();
        assert_eq!(kept + o.pruned_games, 5 + OPENINGS_PRUNE_AT as u64 + 10);
    }

    #[test]
    fn result_tags_are_read_as_white_then_black() {
        for (text, want) in [
            ("1-0", Some(TagResult::WhiteWins)),
            ("0-2", Some(TagResult::BlackWins)),
            ("2-0", Some(TagResult::WhiteWins)),
            ("1/2-1/2", Some(TagResult::Draw)),
            ("1-1", Some(TagResult::Draw)),
            (" * ", Some(TagResult::Unfinished)),
            ("", None),
            ("white", None),
            ("1-x", None),
        ] {
            assert_eq!(TagResult::parse(text), want, "{text}");
        }
    }

    #[test]
    fn tags_credit_players_events_and_years() {
        let mut t = TagStats::default();
        let tags = crate::Tags {
            event: Some("Open"),
            date: Some("2019.04.01"),
            white: Some("Ann"),
            black: Some("Bo"),
            result: None,
        };
        t.add(&tags, Some(TagResult::WhiteWins));
        let swapped = crate::Tags {
            white: Some("Bo"),
            black: Some("Ann"),
            date: Some("????.??.??"),
            ..tags
        };
        t.add(&swapped, Some(TagResult::Draw));
        t.add(&crate::Tags::default(), None);
        assert_eq!(
            (t.white_wins, t.draws, t.no_result, t.games()),
            (1, 1, 1, 3)
        );
        let ann = t.players.table["Ann"];
        assert_eq!((ann.games, ann.wins, ann.draws, ann.losses), (2, 1, 1, 0));
        let bo = t.players.table["Bo"];
        assert_eq!((bo.games, bo.wins, bo.draws, bo.losses), (2, 0, 1, 1));
        assert_eq!(t.events.table["Open"].games, 2);
        assert_eq!(t.years.get(&2019), Some(&1));
        assert_eq!(t.no_year, 2);
    }

    #[test]
    fn player_tables_are_bounded() {
        let mut t = TagStats::default();
        for i in 0..NAMES_PRUNE_AT * 2 {
            let name = format!("p{i}");
            let tags = crate::Tags {
                white: Some("Regular"),
                black: Some(&name),
                ..crate::Tags::default()
            };
            t.add(&tags, Some(TagResult::WhiteWins));
        }
        assert!(t.players.table.len() <= NAMES_PRUNE_AT);
        assert_eq!(t.players.top(1)[0].0, "Regular");
        assert_eq!(t.players.top(1)[0].1.wins, NAMES_PRUNE_AT as u64 * 2);
        let kept: u64 = t.players.table.values().map(|x| x.games).sum();
        assert_eq!(kept + t.players.pruned_games, NAMES_PRUNE_AT as u64 * 4);
    }

    #[test]
    fn long_openings_are_cut_on_a_char_boundary() {
        let long = "é".repeat(OPENING_MAX_LEN);
        let mut o = Openings::default();
        o.add(&long, None);
        let key = o.table.keys().next().unwrap();
        assert!(key.len() <= OPENING_MAX_LEN && key.chars().all(|c| c == 'é'));
    }
}
