//! Every number the report shows, derived from the accumulators. `stats.json` is this type
//! serialized, and the HTML report is rendered from it, so the two always agree.

use serde::Serialize;

use crate::accum::{heat_index, Common, Draughts, DraughtsGame, Race, ThaayamGame, THROW_VALUES};
use crate::chi2;
use crate::hist::{Bar, Histogram};
use crate::tally::{Agreement, ResultTally, Validation};
use crate::{GameName, Stats};

/// Most bars a distribution chart shows (values are grouped into wider bars beyond that).
pub(crate) const MAX_BARS: usize = 40;
/// Openings listed per game.
pub(crate) const TOP_OPENINGS: usize = 12;
/// Fair probabilities of the Thaayam throws 1, 2, 3, 4, 8 (four cowries: 4, 6, 4, 1, 1 in 16).
pub const THROW_PROBABILITIES: [f64; 5] =
    [4.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0, 1.0 / 16.0];

/// The derived statistics of a corpus.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Games of every kind.
    pub games: u64,
    /// Games and validation outcome per game kind (Tama, Odnocvetnie, Thaayam, other).
    pub by_game: Vec<GameCount>,
    /// Tama.
    pub tama: DraughtsSummary,
    /// Odnocvetnie Shashki.
    pub odnocvetnie: DraughtsSummary,
    /// Thaayam.
    pub thaayam: ThaayamSummary,
    /// Games of unknown kind: their validation.
    pub other: ValidationSummary,
}

/// Games of one kind and their validation outcome.
#[derive(Debug, Clone, Serialize)]
pub struct GameCount {
    /// The game.
    pub game: GameName,
    /// Its name in the report.
    pub label: &'static str,
    /// Games.
    pub games: u64,
    /// Games without diagnostics.
    pub clean: u64,
    /// Games with warnings only.
    pub warnings_only: u64,
    /// Games with errors.
    pub with_errors: u64,
}

/// A distribution of per-game numbers.
#[derive(Debug, Clone, Serialize)]
pub struct Distribution {
    /// Games counted.
    pub count: u64,
    /// Mean, if any game.
    pub mean: Option<f64>,
    /// Smallest value.
    pub min: Option<u64>,
    /// Median (nearest rank).
    pub median: Option<u64>,
    /// 90th percentile (nearest rank).
    pub p90: Option<u64>,
    /// Largest value.
    pub max: Option<u64>,
    /// Values too large to be binned ([`crate::HIST_CAP`] and above), not in `bars`.
    pub overflow: u64,
    /// The bars of the chart.
    pub bars: Vec<Bar>,
}

impl Distribution {
    pub(crate) fn of(h: &Histogram) -> Self {
        Distribution {
            count: h.count(),
            mean: h.mean(),
            min: h.min(),
            median: h.quantile(0.5),
            p90: h.quantile(0.9),
            max: h.max(),
            overflow: h.overflow(),
            bars: h.bars(MAX_BARS),
        }
    }
}

/// One result category, as recorded and by rule.
#[derive(Debug, Clone, Serialize)]
pub struct ResultRow {
    /// e.g. `White wins`, `Draw`, `Unfinished (*)`, `No result`.
    pub label: String,
    /// Games with this result as recorded.
    pub recorded: u64,
    /// Games with this result by rule.
    pub by_rule: u64,
}

/// Counts of one diagnostic code.
#[derive(Debug, Clone, Serialize)]
pub struct CodeRow {
    /// The code (`other codes` for the ones beyond the cap).
    pub code: String,
    /// Error diagnostics.
    pub errors: u64,
    /// Warning diagnostics.
    pub warnings: u64,
    /// Games with the code.
    pub games: u64,
}

/// Validation outcome of a set of games.
#[derive(Debug, Clone, Serialize)]
pub struct ValidationSummary {
    /// Games.
    pub games: u64,
    /// Games without diagnostics.
    pub clean: u64,
    /// Games with warnings only.
    pub warnings_only: u64,
    /// Games with errors.
    pub with_errors: u64,
    /// Share of clean games (0 to 1), if any game.
    pub clean_share: Option<f64>,
    /// Per code, most frequent first.
    pub codes: Vec<CodeRow>,
}

impl ValidationSummary {
    pub(crate) fn of(v: &Validation) -> Self {
        let mut codes: Vec<CodeRow> = v
            .codes
            .iter()
            .map(|(code, t)| CodeRow {
                code: code.clone(),
                errors: t.errors,
                warnings: t.warnings,
                games: t.games,
            })
            .collect();
        let o = v.other_codes;
        if o.errors + o.warnings > 0 {
            codes.push(CodeRow {
                code: "other codes".into(),
                errors: o.errors,
                warnings: o.warnings,
                games: o.games,
            });
        }
        codes.sort_by(|a, b| {
            (b.errors + b.warnings)
                .cmp(&(a.errors + a.warnings))
                .then_with(|| a.code.cmp(&b.code))
        });
        let games = v.games();
        ValidationSummary {
            games,
            clean: v.clean,
            warnings_only: v.warnings_only,
            with_errors: v.with_errors,
            clean_share: share(v.clean, games),
            codes,
        }
    }
}

/// One of the most frequent openings.
#[derive(Debug, Clone, Serialize)]
pub struct OpeningRow {
    /// The first plies as written (empty for games without moves).
    pub opening: String,
    /// Games that began this way.
    pub games: u64,
    /// Share of the game kind's games.
    pub share: f64,
    /// Wins per seat (as many entries as the game has seats).
    pub wins: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// Unfinished (`*`).
    pub unfinished: u64,
    /// Without result.
    pub none: u64,
}

/// What the report shows for every known game.
#[derive(Debug, Clone, Serialize)]
pub struct CommonSummary {
    /// The game.
    pub game: GameName,
    /// Games.
    pub games: u64,
    /// Names of the seats, in seat order.
    pub seats: Vec<&'static str>,
    /// Results per category, as recorded and by rule.
    pub results: Vec<ResultRow>,
    /// Losses per seat (four-seat draughts names a loser), as recorded and by rule.
    pub losses: Vec<ResultRow>,
    /// Recorded results compared with the results by rule.
    pub agreement: Agreement,
    /// Plies per game.
    pub length: Distribution,
    /// Captured pieces per game.
    pub captures: Distribution,
    /// Games whose replay stopped before the end of the main line.
    pub replay_stopped: u64,
    /// Validation outcome.
    pub validation: ValidationSummary,
    /// The most frequent openings (results by rule where the game ended by rule, else as
    /// recorded).
    pub openings: Vec<OpeningRow>,
    /// Distinct openings in the table.
    pub distinct_openings: usize,
    /// Games whose opening was dropped when the table was pruned (0: counts are exact).
    pub openings_pruned_games: u64,
}

fn result_rows(seats: &[&str], rec: &ResultTally, rule: &ResultTally) -> Vec<ResultRow> {
    let mut rows: Vec<ResultRow> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| ResultRow {
            label: format!("{s} wins"),
            recorded: rec.wins[i],
            by_rule: rule.wins[i],
        })
        .collect();
    let fixed = [
        ("Draw", rec.draws, rule.draws),
        ("Unfinished (*)", rec.unfinished, rule.unfinished),
        ("No result", rec.none, rule.none),
    ];
    rows.extend(fixed.map(|(l, a, b)| ResultRow {
        label: l.into(),
        recorded: a,
        by_rule: b,
    }));
    rows
}

impl CommonSummary {
    fn of(game: GameName, c: &Common) -> Self {
        let seats: Vec<&'static str> = game.seat_names().to_vec();
        let losses =
            if seats.len() == 4 && (c.recorded.losses != [0; 4] || c.by_rule.losses != [0; 4]) {
                seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| ResultRow {
                        label: format!("{s} loses"),
                        recorded: c.recorded.losses[i],
                        by_rule: c.by_rule.losses[i],
                    })
                    .collect()
            } else {
                Vec::new()
            };
        let openings = c
            .openings
            .top(TOP_OPENINGS)
            .into_iter()
            .map(|(text, t)| OpeningRow {
                opening: text.to_owned(),
                games: t.games,
                share: share(t.games, c.games).unwrap_or(0.0),
                wins: t.results.wins[..seats.len()].to_vec(),
                draws: t.results.draws,
                unfinished: t.results.unfinished,
                none: t.results.none,
            })
            .collect();
        CommonSummary {
            game,
            games: c.games,
            results: result_rows(&seats, &c.recorded, &c.by_rule),
            losses,
            seats,
            agreement: c.agreement.clone(),
            length: Distribution::of(&c.length),
            captures: Distribution::of(&c.captures),
            replay_stopped: c.replay_stopped,
            validation: ValidationSummary::of(&c.validation),
            openings,
            distinct_openings: c.openings.table.len(),
            openings_pruned_games: c.openings.pruned_games,
        }
    }
}

/// Mean material after one ply.
#[derive(Debug, Clone, Serialize)]
pub struct MaterialPoint {
    /// The ply (1-based).
    pub ply: u32,
    /// Games whose replay reached it.
    pub games: u64,
    /// Mean pieces per side (Tama: White, Black) or in total (Odnocvetnie: one value).
    pub mean: Vec<f64>,
}

/// Captures on one square.
#[derive(Debug, Clone, Serialize)]
pub struct HeatCell {
    /// The square's name: `a1`…`h8` (Tama) or `1`…`50` (Odnocvetnie).
    pub square: String,
    /// File, 0 = a.
    pub file: u8,
    /// Rank, 0 = rank 1.
    pub rank: u8,
    /// Pieces captured on it.
    pub count: u64,
}

/// What the report shows for a draughts game.
#[derive(Debug, Clone, Serialize)]
pub struct DraughtsSummary {
    /// What every game shows.
    pub common: CommonSummary,
    /// Longest capture per game.
    pub longest_chain: Distribution,
    /// Ply of the first promotion, for games with one.
    pub first_promotion: Distribution,
    /// Games without a promotion.
    pub no_promotion: u64,
    /// What the material values are: `["White", "Black"]` or `["All pieces"]`.
    pub material_sides: Vec<&'static str>,
    /// Mean material by ply.
    pub material: Vec<MaterialPoint>,
    /// Captures per square, every playable square.
    pub heat: Vec<HeatCell>,
    /// Captured-square indices off the board.
    pub heat_off_board: u64,
    /// Board size (files, ranks).
    pub board: (u8, u8),
}

/// (file, rank) of the Odnocvetnie square number `n` (1–50), numbered as in international
/// draughts seen from South: 1 = b10, 5 = j10, 6 = a9, 46 = a1, 50 = i1.
pub(crate) fn numbered_square(n: u8) -> (u8, u8) {
    let row = (n - 1) / 5; // 0 = rank 10
    let col = (n - 1) % 5;
    let file = if row & 1 == 0 { 2 * col + 1 } else { 2 * col };
    (file, 9 - row)
}

impl DraughtsSummary {
    fn of(game: GameName, g: &DraughtsGame) -> Self {
        let d: &Draughts = &g.draughts;
        let two = game == GameName::Tama;
        let material = d
            .material
            .iter()
            .enumerate()
            .filter(|(_, m)| m.games > 0)
            .map(|(i, m)| {
                let n = m.games as f64;
                MaterialPoint {
                    ply: i as u32 + 1,
                    games: m.games,
                    mean: if two {
                        vec![m.sum[0] as f64 / n, m.sum[1] as f64 / n]
                    } else {
                        vec![m.sum[0] as f64 / n]
                    },
                }
            })
            .collect();
        let count = |i: usize| d.capture_squares.get(i).copied().unwrap_or(0);
        let heat: Vec<HeatCell> = if two {
            (0..64u8)
                .map(|i| HeatCell {
                    square: format!("{}{}", char::from(b'a' + i % 8), i / 8 + 1),
                    file: i % 8,
                    rank: i / 8,
                    count: count(heat_index(i % 8, i / 8)),
                })
                .collect()
        } else {
            (1..=50u8)
                .map(|n| {
                    let (file, rank) = numbered_square(n);
                    HeatCell {
                        square: n.to_string(),
                        file,
                        rank,
                        count: count(heat_index(file, rank)),
                    }
                })
                .collect()
        };
        let on_board: u64 = heat.iter().map(|c: &HeatCell| c.count).sum();
        let off = d.capture_squares_off_board + d.capture_squares.iter().sum::<u64>() - on_board;
        DraughtsSummary {
            common: CommonSummary::of(game, &g.common),
            longest_chain: Distribution::of(&d.longest_chain),
            first_promotion: Distribution::of(&d.first_promotion),
            no_promotion: d.no_promotion,
            material_sides: if two {
                vec!["White", "Black"]
            } else {
                vec!["All pieces"]
            },
            material,
            heat,
            heat_off_board: off,
            board: if two { (8, 8) } else { (10, 10) },
        }
    }
}

/// Observed against expected frequency of one throw value.
#[derive(Debug, Clone, Serialize)]
pub struct ThrowRow {
    /// The throw: 1, 2, 3, 4 or 8.
    pub value: u8,
    /// Its probability with fair shells.
    pub probability: f64,
    /// How often it was thrown.
    pub observed: u64,
    /// How often fair shells would give it in as many throws.
    pub expected: f64,
    /// Observed share of all throws.
    pub share: f64,
}

/// Chi-square goodness-of-fit test of the throws against 4:6:4:1:1.
#[derive(Debug, Clone, Serialize)]
pub struct ThrowTest {
    /// One row per value.
    pub rows: Vec<ThrowRow>,
    /// Throws counted.
    pub total: u64,
    /// Throws of a value that cannot occur (not in the test).
    pub odd_throws: u64,
    /// Pearson's statistic, if any throw.
    pub chi_square: Option<f64>,
    /// Degrees of freedom (4).
    pub df: u32,
    /// Probability of a statistic at least this large with fair shells.
    pub p_value: Option<f64>,
    /// Every expected count is at least 5 (the usual condition for the test to be reliable).
    pub reliable: bool,
}

impl ThrowTest {
    pub(crate) fn of(throws: &[u64; 5], odd: u64) -> Self {
        let total: u64 = throws.iter().sum();
        let rows = (0..5)
            .map(|i| ThrowRow {
                value: THROW_VALUES[i],
                probability: THROW_PROBABILITIES[i],
                observed: throws[i],
                expected: total as f64 * THROW_PROBABILITIES[i],
                share: share(throws[i], total).unwrap_or(0.0),
            })
            .collect::<Vec<_>>();
        let chi = (total > 0).then(|| chi2::chi_square_statistic(throws, &THROW_PROBABILITIES));
        ThrowTest {
            reliable: total > 0 && rows.iter().all(|r| r.expected >= 5.0),
            rows,
            total,
            odd_throws: odd,
            p_value: chi.map(|x| chi2::chi_square_sf(x, 4.0)),
            chi_square: chi,
            df: 4,
        }
    }
}

/// Wins by turn order in games of one number of players.
#[derive(Debug, Clone, Serialize)]
pub struct OrderRow {
    /// Number of players.
    pub players: u8,
    /// Games with that many players.
    pub games: u64,
    /// Of them, games with a winner.
    pub decisive: u64,
    /// Wins of the first, second … seat to move (`players` entries).
    pub wins: Vec<u64>,
}

/// What the report shows for Thaayam.
#[derive(Debug, Clone, Serialize)]
pub struct ThaayamSummary {
    /// What every game shows.
    pub common: CommonSummary,
    /// Throws against the fair expectation.
    pub throws: ThrowTest,
    /// Lost throws per game.
    pub lost_throws: Distribution,
    /// Twins declared per game.
    pub twins: Distribution,
    /// Plies (turns) of games with a winner.
    pub finish: Distribution,
    /// Wins per seat: South, West, North, East.
    pub wins_by_seat: Vec<u64>,
    /// Wins by turn order, for two, three and four players.
    pub by_order: Vec<OrderRow>,
    /// Games whose seat list was unusual (not 2–4 seats, or winner not seated).
    pub odd_seating: u64,
}

impl ThaayamSummary {
    fn of(g: &ThaayamGame) -> Self {
        let r: &Race = &g.race;
        ThaayamSummary {
            common: CommonSummary::of(GameName::Thaayam, &g.common),
            throws: ThrowTest::of(&r.throws, r.odd_throws),
            lost_throws: Distribution::of(&r.lost_throws),
            twins: Distribution::of(&r.twins),
            finish: Distribution::of(&r.finish_plies),
            wins_by_seat: r.wins_by_seat.to_vec(),
            by_order: (0..3)
                .map(|t| OrderRow {
                    players: t as u8 + 2,
                    games: r.players[t],
                    decisive: r.decisive[t],
                    wins: r.wins_by_order[t][..t + 2].to_vec(),
                })
                .collect(),
            odd_seating: r.odd_seating,
        }
    }
}

pub(crate) fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

impl Stats {
    /// Every number the report shows.
    pub fn summary(&self) -> Summary {
        let count = |game: GameName, games: u64, v: &Validation| GameCount {
            game,
            label: game.label(),
            games,
            clean: v.clean,
            warnings_only: v.warnings_only,
            with_errors: v.with_errors,
        };
        Summary {
            games: self.games(),
            by_game: vec![
                count(
                    GameName::Tama,
                    self.tama.common.games,
                    &self.tama.common.validation,
                ),
                count(
                    GameName::Odnocvetnie,
                    self.odnocvetnie.common.games,
                    &self.odnocvetnie.common.validation,
                ),
                count(
                    GameName::Thaayam,
                    self.thaayam.common.games,
                    &self.thaayam.common.validation,
                ),
                count(GameName::Other, self.other.games, &self.other.validation),
            ],
            tama: DraughtsSummary::of(GameName::Tama, &self.tama),
            odnocvetnie: DraughtsSummary::of(GameName::Odnocvetnie, &self.odnocvetnie),
            thaayam: ThaayamSummary::of(&self.thaayam),
            other: ValidationSummary::of(&self.other.validation),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_numbering_matches_international_draughts() {
        // (number, file, rank) with file 0 = a, rank 0 = rank 1
        for (n, f, r) in [
            (1, 1, 9),
            (5, 9, 9),
            (6, 0, 8),
            (10, 8, 8),
            (46, 0, 0),
            (50, 8, 0),
        ] {
            assert_eq!(numbered_square(n), (f, r), "square {n}");
        }
        // every numbered square is dark (a1 dark: file + rank even) and they are distinct
        let mut seen = std::collections::HashSet::new();
        for n in 1..=50 {
            let (f, r) = numbered_square(n);
            assert_eq!((f + r) % 2, 0);
            assert!(seen.insert((f, r)));
        }
    }
}
