//! Every number the report shows, derived from the accumulators. `stats.json` is this type
//! serialized, and the HTML report is rendered from it, so the two always agree.

use game::GameInfo;
use serde::Serialize;

use crate::accum::{
    material_slots, BoardStats, ChanceStats, Common, GameStats, UnknownGames, MAX_SEATS,
};
use crate::chi2;
use crate::hist::{Bar, Histogram};
use crate::squares::{is_dark, square_name};
use crate::tally::{Agreement, Names, ResultTally, TagStats, Validation};
use crate::tree::TreeSummary;
use crate::Stats;

/// Most bars a distribution chart shows (values are grouped into wider bars beyond that).
pub(crate) const MAX_BARS: usize = 40;
/// Openings listed per game.
pub(crate) const TOP_OPENINGS: usize = 12;
/// Continuations shown per position of the opening tree.
pub const TREE_BRANCHES: usize = 5;

/// The fewest games a move of the opening tree needs to be shown: 0.5% of the games in the
/// tree, and at least 2 (a line of one game is no opening).
pub fn tree_min_games(games: u64) -> u64 {
    games.div_ceil(200).max(2)
}
/// Players and events listed per game.
pub(crate) const TOP_NAMES: usize = 15;

/// The derived statistics of a corpus.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Games of every kind.
    pub games: u64,
    /// Games and validation outcome per game (in id order), then the unidentified games.
    pub by_game: Vec<GameCount>,
    /// Per game with at least one game counted, in id order.
    pub per_game: Vec<GameSummary>,
    /// Games arbiter could not identify.
    pub unknown: UnknownSummary,
}

/// Games of one kind and their validation outcome.
#[derive(Debug, Clone, Serialize)]
pub struct GameCount {
    /// The game's id (`unknown` for unidentified games).
    pub id: String,
    /// Its name in the report.
    pub label: String,
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
    /// Distinct values seen (values at or above [`crate::HIST_CAP`] count as one); a
    /// distribution of fewer than two is reported as a sentence, not a chart.
    pub distinct: usize,
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
            distinct: h.distinct(),
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

/// Games played, won and drawn by one seat, and its win rate.
#[derive(Debug, Clone, Serialize)]
pub struct SeatRow {
    /// The seat's name.
    pub seat: &'static str,
    /// Games in which it played.
    pub played: u64,
    /// Games it won.
    pub wins: u64,
    /// Drawn games it played.
    pub draws: u64,
    /// Wins per game played (0 to 1), if it played.
    pub win_rate: Option<f64>,
}

/// What the report shows for every known game.
#[derive(Debug, Clone, Serialize)]
pub struct CommonSummary {
    /// Games.
    pub games: u64,
    /// Names of the seats, in seat order.
    pub seats: Vec<&'static str>,
    /// Results per category, as recorded and by rule.
    pub results: Vec<ResultRow>,
    /// Losses per seat (when results name a loser), as recorded and by rule.
    pub losses: Vec<ResultRow>,
    /// Recorded results compared with the results by rule.
    pub agreement: Agreement,
    /// Games played, wins and win rate per seat (seats that never played are left out).
    pub per_seat: Vec<SeatRow>,
    /// Plies per game.
    pub length: Distribution,
    /// Captured pieces per game.
    pub captures: Distribution,
    /// Games whose replay stopped before the end of the main line.
    pub replay_stopped: u64,
    /// Validation outcome.
    pub validation: ValidationSummary,
    /// The most frequent openings (results by rule where the game ended by rule, else as
    /// recorded); empty for games of chance, which have no openings.
    pub openings: Vec<OpeningRow>,
    /// Distinct openings in the table.
    pub distinct_openings: usize,
    /// Games whose opening was dropped when the table was pruned (0: counts are exact).
    pub openings_pruned_games: u64,
    /// The opening tree by position key (games without chance with a replayed start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening_tree: Option<TreeSummary>,
}

fn result_rows(seats: &[&str], rec: &ResultTally, rule: &ResultTally) -> Vec<ResultRow> {
    let mut rows: Vec<ResultRow> = seats
        .iter()
        .enumerate()
        .take(MAX_SEATS)
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
    fn of(info: &GameInfo, c: &Common) -> Self {
        let seats: Vec<&'static str> = info.seat_names.iter().take(MAX_SEATS).copied().collect();
        let any_loss = c.recorded.losses != [0; 4] || c.by_rule.losses != [0; 4];
        let losses = if seats.len() > 2 && any_loss {
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
        let per_seat = seats
            .iter()
            .enumerate()
            .filter(|&(i, _)| c.seats.played[i] > 0)
            .map(|(i, &seat)| SeatRow {
                seat,
                played: c.seats.played[i],
                wins: c.seats.wins[i],
                draws: c.seats.draws[i],
                win_rate: share(c.seats.wins[i], c.seats.played[i]),
            })
            .collect();
        CommonSummary {
            games: c.games,
            results: result_rows(&seats, &c.recorded, &c.by_rule),
            losses,
            seats,
            agreement: c.agreement.clone(),
            per_seat,
            length: Distribution::of(&c.length),
            captures: Distribution::of(&c.captures),
            replay_stopped: c.replay_stopped,
            validation: ValidationSummary::of(&c.validation),
            openings,
            distinct_openings: c.openings.table.len(),
            openings_pruned_games: c.openings.pruned_games,
            opening_tree: c
                .tree
                .summary(TREE_BRANCHES, tree_min_games(c.tree.games())),
        }
    }
}

/// One player or event.
#[derive(Debug, Clone, Serialize)]
pub struct NameRow {
    /// The name as written.
    pub name: String,
    /// Games.
    pub games: u64,
    /// Wins (events: White wins).
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses (events: Black wins).
    pub losses: u64,
    /// Score: (wins + draws / 2) per game, 0 to 1 (events: White's score).
    pub score: Option<f64>,
}

fn name_rows(t: &Names) -> Vec<NameRow> {
    t.top(TOP_NAMES)
        .into_iter()
        .map(|(name, n)| NameRow {
            name: name.to_owned(),
            games: n.games,
            wins: n.wins,
            draws: n.draws,
            losses: n.losses,
            score: (n.games > 0).then(|| (n.wins as f64 + n.draws as f64 / 2.0) / n.games as f64),
        })
        .collect()
}

/// What the tags of a set of games say.
#[derive(Debug, Clone, Serialize)]
pub struct TagSummary {
    /// Games.
    pub games: u64,
    /// Results for the sides named White and Black (`White wins`, `Black wins`, `Draw`,
    /// `Unfinished (*)`, `No result`), with counts.
    pub results: Vec<(String, u64)>,
    /// The players with most games.
    pub players: Vec<NameRow>,
    /// Distinct players in the table.
    pub distinct_players: usize,
    /// Player entries dropped when the table was pruned (0: exact).
    pub players_pruned: u64,
    /// The events with most games.
    pub events: Vec<NameRow>,
    /// Distinct events in the table.
    pub distinct_events: usize,
    /// Event entries dropped when the table was pruned (0: exact).
    pub events_pruned: u64,
    /// Games per year, in year order.
    pub years: Vec<(u16, u64)>,
    /// Games without a readable year.
    pub no_year: u64,
}

impl TagSummary {
    fn of(t: &TagStats) -> Self {
        TagSummary {
            games: t.games(),
            results: vec![
                ("White wins".into(), t.white_wins),
                ("Black wins".into(), t.black_wins),
                ("Draw".into(), t.draws),
                ("Unfinished (*)".into(), t.unfinished),
                ("No result".into(), t.no_result),
            ],
            players: name_rows(&t.players),
            distinct_players: t.players.table.len(),
            players_pruned: t.players.pruned_games,
            events: name_rows(&t.events),
            distinct_events: t.events.table.len(),
            events_pruned: t.events.pruned_games,
            years: t.years.iter().map(|(&y, &n)| (y, n)).collect(),
            no_year: t.no_year,
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
    /// Mean pieces per material side (see [`BoardSummary::material_sides`]).
    pub mean: Vec<f64>,
}

/// Captures on one square.
#[derive(Debug, Clone, Serialize)]
pub struct HeatCell {
    /// The square's name (see [`crate::square_name`]): `a1`… or, on a board of dark
    /// squares only, its number.
    pub square: String,
    /// File, 0 = a.
    pub file: u8,
    /// Rank, 0 = rank 1.
    pub rank: u8,
    /// Pieces captured on it.
    pub count: u64,
}

/// The game's own counters ([`game::Profile::counters`]), summed per game, each with how
/// the game asks for it to be shown. Serialized as one entry per counter, keyed by its id,
/// in the section that holds it.
#[derive(Debug, Clone, Default)]
pub struct Counters(pub Vec<(&'static game::Counter, Distribution)>);

impl Counters {
    fn of(info: &GameInfo, g: &GameStats) -> Self {
        Counters(
            info.profile
                .counters
                .iter()
                .zip(&g.counters)
                .map(|(c, h)| (c, Distribution::of(h)))
                .collect(),
        )
    }
}

impl Serialize for Counters {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (c, d) in &self.0 {
            map.serialize_entry(c.id, d)?;
        }
        map.end()
    }
}

/// What the report shows for a board game without chance.
#[derive(Debug, Clone, Serialize)]
pub struct BoardSummary {
    /// Longest capture per game.
    pub longest_chain: Distribution,
    /// Ply of the first promotion, for games with one.
    pub first_promotion: Distribution,
    /// Games without a promotion.
    pub no_promotion: u64,
    /// What the material values are: the seat names, or `["All pieces"]` for shared pieces.
    pub material_sides: Vec<&'static str>,
    /// Mean material by ply.
    pub material: Vec<MaterialPoint>,
    /// Captures per square, every playable square.
    pub heat: Vec<HeatCell>,
    /// Captures named a square off the board.
    pub heat_off_board: u64,
    /// Board size (files, ranks).
    pub board: (u8, u8),
    /// Only the dark squares are played (the heat map names them by number).
    pub dark_only: bool,
    /// The game's own counters per game.
    #[serde(flatten)]
    pub counters: Counters,
}

impl BoardSummary {
    fn of(info: &GameInfo, d: &BoardStats, counters: Counters) -> Self {
        let slots = material_slots(info);
        let material = d
            .material
            .iter()
            .enumerate()
            .filter(|(_, m)| m.games > 0)
            .map(|(i, m)| MaterialPoint {
                ply: i as u32 + 1,
                games: m.games,
                mean: m.sum[..slots]
                    .iter()
                    .map(|&s| s as f64 / m.games as f64)
                    .collect(),
            })
            .collect();
        let shape = info.profile.board;
        let dark_only = shape.style == game::BoardStyle::DarkOnly;
        let mut heat = Vec::new();
        for rank in 0..shape.ranks {
            for file in 0..shape.files {
                if dark_only && !is_dark(file, rank) {
                    continue;
                }
                let i = usize::from(rank) * usize::from(shape.files) + usize::from(file);
                heat.push(HeatCell {
                    square: square_name(&shape, file, rank),
                    file,
                    rank,
                    count: d.capture_squares.get(i).copied().unwrap_or(0),
                });
            }
        }
        let on_board: u64 = heat.iter().map(|c| c.count).sum();
        let off = d.capture_squares_off_board + d.capture_squares.iter().sum::<u64>() - on_board;
        BoardSummary {
            longest_chain: Distribution::of(&d.longest_chain),
            first_promotion: Distribution::of(&d.first_promotion),
            no_promotion: d.no_promotion,
            material_sides: if info.profile.shared_pieces {
                vec!["All pieces"]
            } else {
                info.seat_names.iter().take(slots).copied().collect()
            },
            material,
            heat,
            heat_off_board: off,
            board: (shape.files, shape.ranks),
            dark_only,
            counters,
        }
    }
}

/// Observed against expected frequency of one throw value.
#[derive(Debug, Clone, Serialize)]
pub struct ThrowRow {
    /// The value thrown.
    pub value: u8,
    /// Its probability with fair implements.
    pub probability: f64,
    /// How often it was thrown.
    pub observed: u64,
    /// How often fair implements would give it in as many throws.
    pub expected: f64,
    /// Observed share of all throws.
    pub share: f64,
    /// Its term of the chi-square statistic, (O − E)² / E (none when E = 0).
    pub contribution: Option<f64>,
}

/// Chi-square goodness-of-fit test of the throws against the fair probabilities.
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
    /// Degrees of freedom (values − 1).
    pub df: u32,
    /// Probability of a statistic at least this large with fair implements.
    pub p_value: Option<f64>,
    /// Every expected count is at least 5 (the usual condition for the test to be reliable).
    pub reliable: bool,
}

impl ThrowTest {
    /// The test of `throws` (counts per value of `chance`, in order).
    pub(crate) fn of(chance: &game::Chance, throws: &[u64], odd: u64) -> Self {
        let n = chance.values.len().min(chance.probabilities.len());
        let counts: Vec<u64> = (0..n)
            .map(|i| throws.get(i).copied().unwrap_or(0))
            .collect();
        let probs = &chance.probabilities[..n];
        let total: u64 = counts.iter().sum();
        let rows = (0..n)
            .map(|i| {
                let expected = total as f64 * probs[i];
                ThrowRow {
                    value: chance.values[i],
                    probability: probs[i],
                    observed: counts[i],
                    expected,
                    share: share(counts[i], total).unwrap_or(0.0),
                    contribution: (expected > 0.0)
                        .then(|| (counts[i] as f64 - expected).powi(2) / expected),
                }
            })
            .collect::<Vec<_>>();
        let df = n.saturating_sub(1) as u32;
        let chi = (total > 0 && df > 0).then(|| chi2::chi_square_statistic(&counts, probs));
        ThrowTest {
            reliable: total > 0 && rows.iter().all(|r| r.expected >= 5.0),
            rows,
            total,
            odd_throws: odd,
            p_value: chi.map(|x| chi2::chi_square_sf(x, f64::from(df))),
            chi_square: chi,
            df,
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
    /// The same as shares of the decisive games (0 to 1).
    pub win_shares: Vec<Option<f64>>,
}

/// What the report shows for a game of chance.
#[derive(Debug, Clone, Serialize)]
pub struct ChanceSummary {
    /// What one outcome is called (`throw`).
    pub name: &'static str,
    /// Throws against the fair expectation.
    pub throws: ThrowTest,
    /// Lost throws per game.
    pub lost_throws: Distribution,
    /// The game's own counters per game (Thaayam: twins).
    #[serde(flatten)]
    pub counters: Counters,
    /// Plies (turns) of games with a winner.
    pub finish: Distribution,
    /// Wins by turn order, for two, three and four players.
    pub by_order: Vec<OrderRow>,
    /// Games whose seat list was unusual (not 2–4 seats, or winner not seated).
    pub odd_seating: u64,
}

impl ChanceSummary {
    fn of(chance: &'static game::Chance, r: &ChanceStats, counters: Counters) -> Self {
        ChanceSummary {
            name: chance.name,
            throws: ThrowTest::of(chance, &r.throws, r.odd_throws),
            lost_throws: Distribution::of(&r.lost_throws),
            counters,
            finish: Distribution::of(&r.finish_plies),
            by_order: (0..MAX_SEATS - 1)
                .map(|t| OrderRow {
                    players: t as u8 + 2,
                    games: r.players[t],
                    decisive: r.decisive[t],
                    wins: r.wins_by_order[t][..t + 2].to_vec(),
                    win_shares: r.wins_by_order[t][..t + 2]
                        .iter()
                        .map(|&w| share(w, r.decisive[t]))
                        .collect(),
                })
                .collect(),
            odd_seating: r.odd_seating,
        }
    }
}

/// What the report shows for one game.
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    /// The game's id (also the report's section id).
    pub id: &'static str,
    /// Its name in the report.
    pub label: &'static str,
    /// What every game shows.
    pub common: CommonSummary,
    /// Board-game figures (games without chance).
    pub board: Option<BoardSummary>,
    /// Throw figures (games of chance).
    pub chance: Option<ChanceSummary>,
    /// Players, events and years from the tags.
    pub tags: TagSummary,
}

impl GameSummary {
    fn of(g: &GameStats) -> Self {
        let info = g.info;
        GameSummary {
            id: info.id,
            label: info.label,
            common: CommonSummary::of(info, &g.common),
            board: g
                .board
                .as_ref()
                .map(|b| BoardSummary::of(info, b, Counters::of(info, g))),
            chance: match (info.profile.chance, &g.chance) {
                (Some(c), Some(s)) => Some(ChanceSummary::of(c, s, Counters::of(info, g))),
                _ => None,
            },
            tags: TagSummary::of(&g.common.tags),
        }
    }
}

/// What the report shows for the games arbiter could not identify: their tags only.
#[derive(Debug, Clone, Serialize)]
pub struct UnknownSummary {
    /// Games.
    pub games: u64,
    /// Their diagnostics.
    pub validation: ValidationSummary,
    /// Plies per game as written.
    pub length: Distribution,
    /// Results, players, events and years from the tags.
    pub tags: TagSummary,
}

impl UnknownSummary {
    fn of(u: &UnknownGames) -> Self {
        UnknownSummary {
            games: u.games,
            validation: ValidationSummary::of(&u.validation),
            length: Distribution::of(&u.length),
            tags: TagSummary::of(&u.tags),
        }
    }
}

pub(crate) fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

fn count(id: &str, label: &str, games: u64, v: &Validation) -> GameCount {
    GameCount {
        id: id.to_owned(),
        label: label.to_owned(),
        games,
        clean: v.clean,
        warnings_only: v.warnings_only,
        with_errors: v.with_errors,
    }
}

impl Stats {
    /// Every number the report shows.
    pub fn summary(&self) -> Summary {
        let mut by_game: Vec<GameCount> = self
            .games
            .iter()
            .map(|g| {
                count(
                    g.info.id,
                    g.info.label,
                    g.common.games,
                    &g.common.validation,
                )
            })
            .collect();
        by_game.push(count(
            "unknown",
            "Unidentified games",
            self.unknown.games,
            &self.unknown.validation,
        ));
        Summary {
            games: self.games(),
            by_game,
            per_game: self
                .games
                .iter()
                .filter(|g| g.common.games > 0)
                .map(GameSummary::of)
                .collect(),
            unknown: UnknownSummary::of(&self.unknown),
        }
    }
}
