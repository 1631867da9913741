//! The accumulators: what is counted per game, and how partial counts merge.
//!
//! Nothing here names a game: a game's [`game::GameInfo`] says which sections it has (its
//! [`game::Profile`]): games of chance count their throws, the others their captures,
//! promotions, material and capture squares.

use game::{GameInfo, Outcome};
use serde::{Serialize, Serializer};

use crate::hist::Histogram;
use crate::tally::{Agreement, Openings, ResultTally, TagResult, TagStats, Validation};
use crate::tree::OpeningTree;
use crate::GameInput;

/// Material is followed for this many plies; later plies are not averaged.
pub const MATERIAL_PLIES: usize = 1000;

/// Seats counted per game (results, material, turn order); seat numbers from this on are
/// counted as odd seating.
pub const MAX_SEATS: usize = 4;

/// Statistics of a corpus, accumulated game by game.
///
/// One [`GameStats`] per game of the registry that occurs, kept in the order of the games'
/// ids, plus the games arbiter could not identify ([`UnknownGames`]).
///
/// Memory is bounded whatever the number of games: histograms have at most
/// [`crate::HIST_CAP`] bins, material curves [`MATERIAL_PLIES`] points, the opening table at
/// most [`crate::OPENINGS_PRUNE_AT`] entries per game, player and event tables at most
/// [`crate::NAMES_PRUNE_AT`] entries each per game.
///
/// [`Stats::merge`] is associative and commutative: merging accumulators built from parts of a
/// corpus gives the accumulator of the whole corpus (exactly, as long as the bounded tables
/// were not pruned, see [`crate::Table`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Per game, ordered by id.
    pub games: Vec<GameStats>,
    /// Games arbiter could not identify.
    pub unknown: UnknownGames,
}

fn serialize_id<S: Serializer>(info: &&'static GameInfo, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(info.id)
}

/// One game's statistics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameStats {
    /// The game (serialized as its id).
    #[serde(serialize_with = "serialize_id")]
    pub info: &'static GameInfo,
    /// What every game counts.
    pub common: Common,
    /// Board-game counts (games without chance).
    pub board: Option<BoardStats>,
    /// Throw counts (games of chance).
    pub chance: Option<ChanceStats>,
    /// The seats named White and Black, if the game has both (found once, not per game).
    #[serde(skip)]
    sides: Option<(u8, u8)>,
}

impl GameStats {
    fn new(info: &'static GameInfo) -> Self {
        let chance = info.profile.chance.is_some();
        GameStats {
            info,
            common: Common::default(),
            board: (!chance).then(BoardStats::default),
            chance: chance.then(ChanceStats::default),
            sides: white_and_black(info),
        }
    }

    /// Counts one game: one pass over its plies feeds every section.
    fn add(&mut self, g: &GameInput<'_>) {
        let info = self.info;
        let mut captures = 0u64;
        if let Some(b) = &mut self.board {
            captures = b.add(info, g);
        }
        if let (Some(c), Some(chance)) = (&mut self.chance, info.profile.chance) {
            captures = c.add(chance.values, g);
        }
        self.common.add(info, g, captures, self.sides);
    }

    fn merge(&mut self, o: &GameStats) {
        self.common.merge(&o.common);
        if let (Some(a), Some(b)) = (&mut self.board, &o.board) {
            a.merge(b);
        }
        if let (Some(a), Some(b)) = (&mut self.chance, &o.chance) {
            a.merge(b);
        }
    }
}

/// Games played, won and drawn per seat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SeatTally {
    /// Games in which the seat played (was in the seat list).
    pub played: [u64; MAX_SEATS],
    /// Games the seat won (by rule, else as recorded).
    pub wins: [u64; MAX_SEATS],
    /// Drawn games the seat played.
    pub draws: [u64; MAX_SEATS],
}

impl SeatTally {
    fn add(&mut self, seats: &[u8], result: Option<Outcome>) {
        for &s in seats {
            if let Some(p) = self.played.get_mut(usize::from(s)) {
                *p += 1;
                if result == Some(Outcome::Draw) {
                    self.draws[usize::from(s)] += 1;
                }
            }
        }
        if let Some(Outcome::Win { winner, .. }) = result {
            if let Some(w) = self.wins.get_mut(usize::from(winner.0)) {
                *w += 1;
            }
        }
    }

    fn merge(&mut self, o: &SeatTally) {
        for i in 0..MAX_SEATS {
            self.played[i] += o.played[i];
            self.wins[i] += o.wins[i];
            self.draws[i] += o.draws[i];
        }
    }
}

/// What is counted for every known game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Common {
    /// Games counted.
    pub games: u64,
    /// Results as recorded.
    pub recorded: ResultTally,
    /// Results by rule (`none`: the game did not end by rule).
    pub by_rule: ResultTally,
    /// Recorded results compared with the results by rule.
    pub agreement: Agreement,
    /// Games played, won and drawn per seat.
    pub seats: SeatTally,
    /// Plies of the main line per game.
    pub length: Histogram,
    /// Pieces captured per game (over the replayed plies).
    pub captures: Histogram,
    /// Games whose facts cover fewer plies than the main line (replay stopped at an error).
    pub replay_stopped: u64,
    /// Validation outcome and diagnostic codes.
    pub validation: Validation,
    /// Opening frequencies and their results (games without chance only).
    pub openings: Openings,
    /// The opening tree by position key (games without chance only).
    #[serde(skip)]
    pub tree: OpeningTree,
    /// What the tags say.
    pub tags: TagStats,
}

/// The seat a game calls `name` (ignoring case), if any.
fn seat_named(info: &GameInfo, name: &str) -> Option<u8> {
    info.seat_names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
        .and_then(|i| u8::try_from(i).ok())
}

/// The seats a game names White and Black, if it has both.
fn white_and_black(info: &GameInfo) -> Option<(u8, u8)> {
    Some((seat_named(info, "White")?, seat_named(info, "Black")?))
}

/// The result for the sides named White and Black (`sides`: their seats, if the game has
/// them): from the replay when there are such seats and a result, else from the `Result` tag.
fn tag_result(sides: Option<(u8, u8)>, g: &GameInput<'_>) -> Option<TagResult> {
    if let (Some((white, black)), Some(result)) = (sides, g.result()) {
        return match result {
            Outcome::Draw => Some(TagResult::Draw),
            Outcome::Unfinished => Some(TagResult::Unfinished),
            Outcome::Win { winner, .. } if winner.0 == white => Some(TagResult::WhiteWins),
            Outcome::Win { winner, .. } if winner.0 == black => Some(TagResult::BlackWins),
            Outcome::Win { .. } => None,
        };
    }
    g.tags.result.and_then(TagResult::parse)
}

impl Common {
    /// Counts one game that captured `captures` pieces; `sides` are the seats named White
    /// and Black, if the game has them.
    fn add(&mut self, info: &GameInfo, g: &GameInput<'_>, captures: u64, sides: Option<(u8, u8)>) {
        self.games += 1;
        self.recorded.add(g.recorded);
        self.by_rule.add(g.terminal);
        self.agreement.add(g.recorded, g.terminal);
        self.seats.add(g.seats, g.result());
        self.length.add(u64::from(g.plies));
        self.captures.add(captures);
        if (g.facts.len() as u64) < u64::from(g.plies) {
            self.replay_stopped += 1;
        }
        self.validation.add(g.diagnostics);
        if info.profile.chance.is_none() {
            self.openings.add(g.opening, g.result());
            self.tree.add(&g.line, g.result());
        }
        self.tags.add(&g.tags, tag_result(sides, g));
    }

    fn merge(&mut self, o: &Common) {
        self.games += o.games;
        self.recorded.merge(&o.recorded);
        self.by_rule.merge(&o.by_rule);
        self.agreement.merge(&o.agreement);
        self.seats.merge(&o.seats);
        self.length.merge(&o.length);
        self.captures.merge(&o.captures);
        self.replay_stopped += o.replay_stopped;
        self.validation.merge(&o.validation);
        self.openings.merge(&o.openings);
        self.tree.merge(&o.tree);
        self.tags.merge(&o.tags);
    }
}

/// Mean material at one ply, as sums.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct MaterialAt {
    /// Games whose replay reached this ply.
    pub games: u64,
    /// Sum over those games of the pieces after the ply, per seat (games with shared pieces:
    /// the total in slot 0).
    pub sum: [u64; MAX_SEATS],
}

/// What is counted for board games without chance.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BoardStats {
    /// Longest capture of each game (most pieces taken by one ply; 0 when nothing was taken).
    pub longest_chain: Histogram,
    /// Ply (1-based) of the first promotion, for games with one.
    pub first_promotion: Histogram,
    /// Games without a promotion (among the replayed plies).
    pub no_promotion: u64,
    /// Material after each ply, for the first [`MATERIAL_PLIES`] plies (index 0 = after ply 1).
    pub material: Vec<MaterialAt>,
    /// Captured pieces per square of the game's board, at `rank * files + file`.
    pub capture_squares: Vec<u64>,
    /// Captured squares outside the board (should not happen).
    pub capture_squares_off_board: u64,
}

/// Material slots a game's facts fill: one total for shared pieces, else one per seat.
pub(crate) fn material_slots(info: &GameInfo) -> usize {
    if info.profile.shared_pieces {
        1
    } else {
        info.seat_names.len().clamp(1, MAX_SEATS)
    }
}

impl BoardStats {
    /// Counts one game; returns the pieces it captured.
    fn add(&mut self, info: &GameInfo, g: &GameInput<'_>) -> u64 {
        let shape = info.profile.board;
        let (files, ranks) = (usize::from(shape.files), usize::from(shape.ranks));
        if self.capture_squares.len() != files * ranks {
            self.capture_squares.resize(files * ranks, 0);
        }
        let tracked = g.facts.len().min(MATERIAL_PLIES);
        if self.material.len() < tracked {
            self.material.resize(tracked, MaterialAt::default());
        }
        let slots = material_slots(info);
        // Slots past the game's are not counted (a mask instead of a loop bound keeps the
        // per-ply sum to four straight additions).
        let counted: [u64; MAX_SEATS] = std::array::from_fn(|k| if k < slots { !0 } else { 0 });
        let mut captures = 0u64;
        let mut longest = 0u64;
        let mut first_promotion = None;
        for (i, f) in g.facts.iter().enumerate() {
            if let Some(m) = self.material.get_mut(i) {
                m.games += 1;
                for ((sum, &n), &mask) in m.sum.iter_mut().zip(&f.material).zip(&counted) {
                    *sum += u64::from(n) & mask;
                }
            }
            captures += u64::from(f.captures);
            longest = longest.max(u64::from(f.captures));
            if f.promotion && first_promotion.is_none() {
                first_promotion = Some(i as u64 + 1);
            }
            for &(file, rank) in &f.capture_squares {
                let (file, rank) = (usize::from(file), usize::from(rank));
                if file < files && rank < ranks {
                    self.capture_squares[rank * files + file] += 1;
                } else {
                    self.capture_squares_off_board += 1;
                }
            }
        }
        self.longest_chain.add(longest);
        match first_promotion {
            Some(p) => self.first_promotion.add(p),
            None => self.no_promotion += 1,
        }
        captures
    }

    fn merge(&mut self, o: &BoardStats) {
        self.longest_chain.merge(&o.longest_chain);
        self.first_promotion.merge(&o.first_promotion);
        self.no_promotion += o.no_promotion;
        if self.material.len() < o.material.len() {
            self.material
                .resize(o.material.len(), MaterialAt::default());
        }
        for (m, x) in self.material.iter_mut().zip(&o.material) {
            m.games += x.games;
            for s in 0..MAX_SEATS {
                m.sum[s] += x.sum[s];
            }
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

/// What is counted for games of chance.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ChanceStats {
    /// How often each value of [`game::Chance::values`] was thrown, in that order (every
    /// throw of every series, discarded and lost ones included).
    pub throws: Vec<u64>,
    /// Throws of a value the game's throws cannot take (should not happen).
    pub odd_throws: u64,
    /// Lost throws per game.
    pub lost_throws: Histogram,
    /// Twins declared per game.
    pub twins: Histogram,
    /// Plies (turns) of games with a decisive result.
    pub finish_plies: Histogram,
    /// Games per number of players: index 0 = two players, 1 = three, 2 = four.
    pub players: [u64; MAX_SEATS - 1],
    /// Decisive games per number of players (same indexing).
    pub decisive: [u64; MAX_SEATS - 1],
    /// Wins by turn order, per number of players: `wins_by_order[n - 2][k]` counts wins of the
    /// `k`-th seat to move (0 = first) in games of `n` players.
    pub wins_by_order: [[u64; MAX_SEATS]; MAX_SEATS - 1],
    /// Games whose seat list is not 2 to 4 seats, or whose winner is not in it.
    pub odd_seating: u64,
}

impl ChanceStats {
    /// Counts one game; returns the pieces it captured.
    fn add(&mut self, values: &[u8], g: &GameInput<'_>) -> u64 {
        if self.throws.len() != values.len() {
            self.throws.resize(values.len(), 0);
        }
        let mut captures = 0u64;
        let mut lost = 0u64;
        let mut twins = 0u64;
        // The slot of each throw value (`NO_SLOT`: not an outcome of this game's throws).
        const NO_SLOT: u8 = u8::MAX;
        let mut slot = [NO_SLOT; 256];
        for (i, &v) in values.iter().enumerate().take(usize::from(NO_SLOT)).rev() {
            slot[usize::from(v)] = i as u8;
        }
        for f in g.facts {
            captures += u64::from(f.captures);
            for &t in &f.throws {
                match slot[usize::from(t)] {
                    NO_SLOT => self.odd_throws += 1,
                    i => self.throws[usize::from(i)] += 1,
                }
            }
            lost += u64::from(f.lost_throws);
            twins += u64::from(f.twins_formed);
        }
        self.lost_throws.add(lost);
        self.twins.add(twins);
        let n = g.seats.len();
        let table = (2..=MAX_SEATS).contains(&n).then(|| n - 2);
        if let Some(t) = table {
            self.players[t] += 1;
        }
        if let Some(Outcome::Win { winner, .. }) = g.result() {
            self.finish_plies.add(u64::from(g.plies));
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
        captures
    }

    fn merge(&mut self, o: &ChanceStats) {
        if self.throws.len() < o.throws.len() {
            self.throws.resize(o.throws.len(), 0);
        }
        for (a, b) in self.throws.iter_mut().zip(&o.throws) {
            *a += b;
        }
        self.odd_throws += o.odd_throws;
        self.lost_throws.merge(&o.lost_throws);
        self.twins.merge(&o.twins);
        self.finish_plies.merge(&o.finish_plies);
        for t in 0..MAX_SEATS - 1 {
            self.players[t] += o.players[t];
            self.decisive[t] += o.decisive[t];
            for k in 0..MAX_SEATS {
                self.wins_by_order[t][k] += o.wins_by_order[t][k];
            }
        }
        self.odd_seating += o.odd_seating;
    }
}

/// Games arbiter could not identify: their diagnostics, length and tags.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct UnknownGames {
    /// Games counted.
    pub games: u64,
    /// Their diagnostics.
    pub validation: Validation,
    /// Plies of the main line as written.
    pub length: Histogram,
    /// What their tags say.
    pub tags: TagStats,
}

impl UnknownGames {
    fn add(&mut self, g: &GameInput<'_>) {
        self.games += 1;
        self.validation.add(g.diagnostics);
        self.length.add(u64::from(g.plies));
        self.tags.add(&g.tags, tag_result(None, g));
    }

    fn merge(&mut self, o: &UnknownGames) {
        self.games += o.games;
        self.validation.merge(&o.validation);
        self.length.merge(&o.length);
        self.tags.merge(&o.tags);
    }
}

impl Stats {
    /// The accumulator of `info`, created (in id order) when it is the game's first. Found by
    /// pointer first (one comparison per game of the registry at most), by id otherwise.
    fn game_mut(&mut self, info: &'static GameInfo) -> &mut GameStats {
        let i = match self.games.iter().position(|g| std::ptr::eq(g.info, info)) {
            Some(i) => i,
            None => match self.games.binary_search_by(|g| g.info.id.cmp(info.id)) {
                Ok(i) => i,
                Err(i) => {
                    self.games.insert(i, GameStats::new(info));
                    i
                }
            },
        };
        &mut self.games[i]
    }

    /// Counts one game.
    pub fn add(&mut self, g: &GameInput<'_>) {
        match g.game {
            Some(info) => self.game_mut(info).add(g),
            None => self.unknown.add(g),
        }
    }

    /// Adds every count of `other` (associative and commutative).
    pub fn merge(&mut self, other: Stats) {
        for o in &other.games {
            self.game_mut(o.info).merge(o);
        }
        self.unknown.merge(&other.unknown);
    }

    /// Games counted, of every kind.
    pub fn games(&self) -> u64 {
        self.games.iter().map(|g| g.common.games).sum::<u64>() + self.unknown.games
    }

    /// The statistics of the game with this id, if any of its games was counted.
    pub fn game(&self, id: &str) -> Option<&GameStats> {
        self.games.iter().find(|g| g.info.id == id)
    }
}
