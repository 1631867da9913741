//! Small counters: results, validation outcomes, openings.

use std::collections::{BTreeMap, HashMap};

use game::Outcome;
use serde::{Deserialize, Serialize};

/// Counts of game results by seat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultTally {
    /// Wins per seat index (Tama: 0 = White, 1 = Black; four-seat games: S, W, N, E).
    pub wins: [u64; 4],
    /// Losses per seat index, where the result names a loser (Odnocvetnie Shashki).
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
            if self.codes.len() < MAX_CODES && !self.codes.contains_key(code) {
                self.codes.insert(code.to_owned(), CodeTally::default());
            }
            let tally = match self.codes.get_mut(code) {
                Some(t) => t,
                None => &mut self.other_codes,
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

/// One opening's count and results.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningTally {
    /// Games that began this way.
    pub games: u64,
    /// Their results (by rule where the game ended by rule, else as recorded).
    pub results: ResultTally,
}

/// Opening frequencies, bounded.
///
/// Counts are **exact** while at most [`OPENINGS_PRUNE_AT`] distinct openings have been seen
/// (in one accumulator, and in a merge of two). Beyond that the table is pruned to the
/// [`OPENINGS_KEEP`] most frequent openings (ties broken by text), and the games of the dropped
/// ones are counted in [`Openings::pruned_games`]. After pruning, a kept count is a lower bound:
/// an opening dropped earlier and seen again starts from zero, so its count is low by at most
/// `pruned_games`. Frequent openings survive; rare ones are the ones lost.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Openings {
    /// Count and results per opening text.
    pub table: HashMap<String, OpeningTally>,
    /// Games whose opening was dropped by pruning.
    pub pruned_games: u64,
}

impl Openings {
    /// Counts one game that began with `opening`.
    pub fn add(&mut self, opening: &str, result: Option<Outcome>) {
        let opening = cut(opening.trim());
        let tally = match self.table.get_mut(opening) {
            Some(t) => t,
            None => self.table.entry(opening.to_owned()).or_default(),
        };
        tally.games += 1;
        tally.results.add(result);
        self.prune_if_needed();
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: Openings) {
        for (k, v) in other.table {
            match self.table.get_mut(&k) {
                Some(t) => {
                    t.games += v.games;
                    t.results.merge(&v.results);
                }
                None => {
                    self.table.insert(k, v);
                }
            }
        }
        self.pruned_games += other.pruned_games;
        self.prune_if_needed();
    }

    fn prune_if_needed(&mut self) {
        if self.table.len() <= OPENINGS_PRUNE_AT {
            return;
        }
        let mut all: Vec<(String, OpeningTally)> = self.table.drain().collect();
        all.sort_unstable_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(&b.0)));
        for (_, t) in all.drain(OPENINGS_KEEP..) {
            self.pruned_games += t.games;
        }
        self.table.extend(all);
    }

    /// The `n` most frequent openings, most frequent first (ties by text).
    pub fn top(&self, n: usize) -> Vec<(&str, &OpeningTally)> {
        let mut all: Vec<(&str, &OpeningTally)> =
            self.table.iter().map(|(k, v)| (k.as_str(), v)).collect();
        all.sort_unstable_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(b.0)));
        all.truncate(n);
        all
    }
}

fn cut(s: &str) -> &str {
    if s.len() <= OPENING_MAX_LEN {
        return s;
    }
    let mut end = OPENING_MAX_LEN;
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
    fn long_openings_are_cut_on_a_char_boundary() {
        let long = "é".repeat(OPENING_MAX_LEN);
        let mut o = Openings::default();
        o.add(&long, None);
        let key = o.table.keys().next().unwrap();
        assert!(key.len() <= OPENING_MAX_LEN && key.chars().all(|c| c == 'é'));
    }
}
