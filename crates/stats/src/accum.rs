//! The accumulators: what is counted per game, and how partial counts merge.

use game::Outcome;
use serde::{Deserialize, Serialize};

use crate::hist::Histogram;
use crate::tally::{Agreement, Openings, ResultTally, Validation};
use crate::{GameInput, GameName};

/// Material is followed for this many plies; later plies are not averaged.
pub const MATERIAL_PLIES: usize = 1000;

/// Board squares whose captures are counted (Tama 64, Odnocvetnie 50).
const HEAT_SQUARES: usize = 256;

/// The heat-map slot of a square: `rank * 16 + file`.
pub(crate) fn heat_index(file: u8, rank: u8) -> usize {
    usize::from(rank) * 16 + usize::from(file)
}

/// Statistics of a corpus, accumulated game by game.
///
/// Memory is bounded whatever the number of games: histograms have at most
/// [`crate::HIST_CAP`] bins, material curves [`MATERIAL_PLIES`] points, the opening table at most
/// [`crate::OPENINGS_PRUNE_AT`] entries per game.
///
/// [`Stats::merge`] is associative and commutative: merging accumulators built from parts of a
/// corpus gives the accumulator of the whole corpus (exactly, as long as the opening tables
/// were not pruned, see [`Openings`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Tama games.
    pub tama: DraughtsGame,
    /// Odnocvetnie Shashki games.
    pub odnocvetnie: DraughtsGame,
    /// Thaayam games.
    pub thaayam: ThaayamGame,
    /// Games of unknown kind.
    pub other: OtherGames,
}

/// What is counted for every known game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Common {
    /// Games counted.
    pub games: u64,
    /// Results as recorded.
    pub recorded: ResultTally,
    /// Results by rule (`none`: the game did not end by rule).
    pub by_rule: ResultTally,
    /// Recorded results compared with the results by rule.
    pub agreement: Agreement,
    /// Plies of the main line per game.
    pub length: Histogram,
    /// Pieces captured per game (over the replayed plies).
    pub captures: Histogram,
    /// Games whose facts cover fewer plies than the main line (replay stopped at an error).
    pub replay_stopped: u64,
    /// Validation outcome and diagnostic codes.
    pub validation: Validation,
    /// Opening frequencies and their results.
    pub openings: Openings,
}

impl Common {
    fn add(&mut self, g: &GameInput<'_>) {
        self.games += 1;
        self.recorded.add(g.recorded);
        self.by_rule.add(g.terminal);
        self.agreement.add(g.recorded, g.terminal);
        self.length.add(u64::from(g.plies));
        self.captures
            .add(g.facts.iter().map(|f| u64::from(f.captures)).sum());
        if (g.facts.len() as u64) < u64::from(g.plies) {
            self.replay_stopped += 1;
        }
        self.validation.add(g.diagnostics);
        self.openings.add(g.opening, g.result());
    }

    fn merge(&mut self, o: Common) {
        self.games += o.games;
        self.recorded.merge(&o.recorded);
        self.by_rule.merge(&o.by_rule);
        self.agreement.merge(&o.agreement);
        self.length.merge(&o.length);
        self.captures.merge(&o.captures);
        self.replay_stopped += o.replay_stopped;
        self.validation.merge(&o.validation);
        self.openings.merge(o.openings);
    }
}

/// Mean material at one ply, as sums.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaterialAt {
    /// Games whose replay reached this ply.
    pub games: u64,
    /// Sum over those games of the pieces after the ply: Tama White and Black; Odnocvetnie the
    /// total in slot 0.
    pub sum: [u64; 2],
}

/// What is counted for the draughts games (Tama, Odnocvetnie Shashki).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draughts {
    /// Longest capture of each game (most pieces taken by one ply; 0 when nothing was taken).
    pub longest_chain: Histogram,
    /// Ply (1-based) of the first promotion, for games with one.
    pub first_promotion: Histogram,
    /// Games without a promotion (among the replayed plies).
    pub no_promotion: u64,
    /// Material after each ply, for the first [`MATERIAL_PLIES`] plies (index 0 = after ply 1).
    pub material: Vec<MaterialAt>,
    /// Captured pieces per square, at [`heat_index`] of its file and rank.
    pub capture_squares: Vec<u64>,
    /// Captured-square indices outside the board (should not happen).
    pub capture_squares_off_board: u64,
}

impl Draughts {
    fn add(&mut self, g: &GameInput<'_>) {
        let two_sides = g.game == GameName::Tama;
        let mut longest = 0u64;
        let mut first_promotion = None;
        for (i, f) in g.facts.iter().enumerate() {
            longest = longest.max(u64::from(f.captures));
            if f.promotion && first_promotion.is_none() {
                first_promotion = Some(i as u64 + 1);
            }
            for &(file, rank) in &f.capture_squares {
                let sq = heat_index(file, rank);
                if file < 16 && sq < HEAT_SQUARES {
                    if self.capture_squares.len() <= sq {
                        self.capture_squares.resize(sq + 1, 0);
                    }
                    self.capture_squares[sq] += 1;
                } else {
                    self.capture_squares_off_board += 1;
                }
            }
        }
        let tracked = g.facts.len().min(MATERIAL_PLIES);
        if self.material.len() < tracked {
            self.material.resize(tracked, MaterialAt::default());
        }
        for (m, f) in self.material.iter_mut().zip(&g.facts[..tracked]) {
            m.games += 1;
            m.sum[0] += u64::from(f.material[0]);
            if two_sides {
                m.sum[1] += u64::from(f.material[1]);
            }
        }
        self.longest_chain.add(longest);
        match first_promotion {
            Some(p) => self.first_promotion.add(p),
            None => self.no_promotion += 1,
        }
    }

    fn merge(&mut self, o: Draughts) {
        self.longest_chain.merge(&o.longest_chain);
        self.first_promotion.merge(&o.first_promotion);
        self.no_promotion += o.no_promotion;
        if self.material.len() < o.material.len() {
            self.material
                .resize(o.material.len(), MaterialAt::default());
        }
        for (m, x) in self.material.iter_mut().zip(&o.material) {
            m.games += x.games;
            m.sum[0] += x.sum[0];
            m.sum[1] += x.sum[1];
        }
        if self.capture_squares.len() < o.capture_squares.len() {
            self.capture_squares.resize(o.capture_squares.len(), 0);
        }
        for (a, b) in self.capture_squares.iter_mut().zip(&o.capture_squares) {
            *a += b;
        }
        self.capture_squares_off_board += o.capture_squares_off_board;
    }
}

/// A draughts game's statistics.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DraughtsGame {
    /// What every game counts.
    pub common: Common,
    /// Draughts-specific counts.
    pub draughts: Draughts,
}

/// Throw values of Thaayam, in the order of [`Race::throws`].
pub(crate) const THROW_VALUES: [u8; 5] = [1, 2, 3, 4, 8];

/// What is counted for Thaayam.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Race {
    /// How often each throw value was thrown: 1, 2, 3, 4, 8 (every throw of every series,
    /// discarded and lost ones included).
    pub throws: [u64; 5],
    /// Throws with a value outside 1, 2, 3, 4, 8 (should not happen).
    pub odd_throws: u64,
    /// Lost throws per game.
    pub lost_throws: Histogram,
    /// Twins declared per game.
    pub twins: Histogram,
    /// Plies (turns) of games with a decisive result.
    pub finish_plies: Histogram,
    /// Wins per seat (result by rule, else as recorded).
    pub wins_by_seat: [u64; 4],
    /// Games per number of players: index 0 = two players, 1 = three, 2 = four.
    pub players: [u64; 3],
    /// Decisive games per number of players (same indexing).
    pub decisive: [u64; 3],
    /// Wins by turn order, per number of players: `wins_by_order[n - 2][k]` counts wins of the
    /// `k`-th seat to move (0 = first) in games of `n` players.
    pub wins_by_order: [[u64; 4]; 3],
    /// Games whose seat list is not 2 to 4 seats, or whose winner is not in it.
    pub odd_seating: u64,
}

impl Race {
    fn add(&mut self, g: &GameInput<'_>) {
        let mut lost = 0u64;
        let mut twins = 0u64;
        for f in g.facts {
            for &t in &f.throws {
                match THROW_VALUES.iter().position(|&v| v == t) {
                    Some(i) => self.throws[i] += 1,
                    None => self.odd_throws += 1,
                }
            }
            lost += u64::from(f.lost_throws);
            twins += u64::from(f.twins_formed);
        }
        self.lost_throws.add(lost);
        self.twins.add(twins);
        let n = g.seats.len();
        let table = (2..=4).contains(&n).then(|| n - 2);
        if let Some(t) = table {
            self.players[t] += 1;
        }
        if let Some(Outcome::Win { winner, .. }) = g.result() {
            self.finish_plies.add(u64::from(g.plies));
            if let Some(w) = self.wins_by_seat.get_mut(usize::from(winner.0)) {
                *w += 1;
            }
            let order = g.seats.iter().position(|&s| s == winner.0);
            match (table, order) {
                (Some(t), Some(k)) => {
                    self.decisive[t] += 1;
                    self.wins_by_order[t][k] += 1;
                }
                _ => self.odd_seating += 1,
            }
        } else if table.is_none() {
            self.odd_seating += 1;
        }
    }

    fn merge(&mut self, o: Race) {
        for i in 0..5 {
            self.throws[i] += o.throws[i];
        }
        self.odd_throws += o.odd_throws;
        self.lost_throws.merge(&o.lost_throws);
        self.twins.merge(&o.twins);
        self.finish_plies.merge(&o.finish_plies);
        for i in 0..4 {
            self.wins_by_seat[i] += o.wins_by_seat[i];
        }
        for t in 0..3 {
            self.players[t] += o.players[t];
            self.decisive[t] += o.decisive[t];
            for k in 0..4 {
                self.wins_by_order[t][k] += o.wins_by_order[t][k];
            }
        }
        self.odd_seating += o.odd_seating;
    }
}

/// Thaayam's statistics.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThaayamGame {
    /// What every game counts.
    pub common: Common,
    /// Race-game counts.
    pub race: Race,
}

/// Games of unknown kind: only counted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtherGames {
    /// Games counted.
    pub games: u64,
    /// Their diagnostics.
    pub validation: Validation,
}

impl Stats {
    /// Counts one game.
    pub fn add(&mut self, g: &GameInput<'_>) {
        match g.game {
            GameName::Tama => {
                self.tama.common.add(g);
                self.tama.draughts.add(g);
            }
            GameName::Odnocvetnie => {
                self.odnocvetnie.common.add(g);
                self.odnocvetnie.draughts.add(g);
            }
            GameName::Thaayam => {
                self.thaayam.common.add(g);
                self.thaayam.race.add(g);
            }
            GameName::Other => {
                self.other.games += 1;
                self.other.validation.add(g.diagnostics);
            }
        }
    }

    /// Adds every count of `other` (associative and commutative).
    pub fn merge(&mut self, other: Stats) {
        self.tama.common.merge(other.tama.common);
        self.tama.draughts.merge(other.tama.draughts);
        self.odnocvetnie.common.merge(other.odnocvetnie.common);
        self.odnocvetnie.draughts.merge(other.odnocvetnie.draughts);
        self.thaayam.common.merge(other.thaayam.common);
        self.thaayam.race.merge(other.thaayam.race);
        self.other.games += other.other.games;
        self.other.validation.merge(&other.other.validation);
    }

    /// Games counted, of every kind.
    pub fn games(&self) -> u64 {
        self.tama.common.games
            + self.odnocvetnie.common.games
            + self.thaayam.common.games
            + self.other.games
    }
}
