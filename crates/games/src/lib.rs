//! The game registry: the one list of the games arbiter knows.
//!
//! Each entry joins a rules crate's [`GameInfo`] with a constructor of its rules from
//! ruleset options and the game's self-play. From that the registry builds, without naming
//! any game elsewhere: replay engines for the referee ([`referee::Catalog`]), explorers for
//! `moves` and `perft` ([`Explorer`]), players for `selfplay` ([`Entry::player`]) and the
//! engine as a player for `hub` and Python ([`Searcher`], from [`Games::searcher`]).
//!
//! Adding a game: write a rules crate that implements [`game::Game`], [`game::Explore`] and
//! [`game::Engine`] (whose methods all have defaults)
//! and describes itself with a static [`GameInfo`], then add one [`entry`] line to the list
//! in [`games`]. It is played by [`selfplay::Generic`] (on the game's own evaluation, seating
//! and chance, all methods of [`game::Explore`]) unless the line gives it a player of its own
//! ([`Entry::with_player`]).
#![deny(missing_docs)]

mod corpus;
mod searcher;

pub use corpus::CORPUS_FILES;
pub use searcher::{SearchAnswer, Searcher};

use std::marker::PhantomData;
use std::sync::OnceLock;

use game::{Engine, Explore, GameInfo, MoveInfo, Options, PerftOptions, Problem, Registry};
use ludii::{ConvertError, Converted, Trial, TrialFormat};
use rayon::prelude::*;
use referee::{Catalog, ReplayEngine};
use selfplay::{Generic, Names, Player};

/// The registry with every game arbiter knows, built once.
pub fn games() -> &'static Games {
    static GAMES: OnceLock<Games> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut list = vec![
            entry(&tama::INFO, tama::Tama::from_options)
                .with_names(Names::Armenian)
                .with_trials(&tama::LUDII),
            entry(&odnocvetnie::INFO, odnocvetnie::Odnocvetnie::from_options)
                .with_names(Names::Russian),
            entry(&thaayam::INFO, |o| {
                thaayam::Thaayam::new(thaayam::Options::from_options(o))
            })
            .with_names(Names::Tamil)
            .with_trials(&thaayam::LUDII),
        ];
        // The standard draughts variants: one engine, a variant is data.
        for &v in draughts::VARIANTS {
            let e = entry(draughts::game_info(v), move |o| {
                draughts::Draughts::from_options(v, o)
            });
            list.push(match v.id {
                "english" => e.with_names(Names::English),
                "russian" => e.with_names(Names::Russian),
                _ => e,
            });
        }
        Games::new(list)
    })
}

/// One game of the registry: its description, what can be built from it, and the
/// capabilities it declares (its Ludii trials).
pub struct Entry {
    /// The game's description.
    pub info: &'static GameInfo,
    rules: Box<dyn Rules>,
    player: Box<dyn Player>,
    trials: Option<&'static dyn TrialFormat>,
}

/// The registry entry of a game whose rules `make` builds from ruleset options. Its
/// self-play is the generic player over the default rules ([`selfplay::Generic`]).
pub fn entry<G>(
    info: &'static GameInfo,
    make: impl Fn(&Options) -> G + Send + Sync + 'static,
) -> Entry
where
    G: Engine + Send + Sync + 'static,
    G::Position: Send + Sync,
    G::Move: Send + Sync,
{
    let rules: Box<dyn Rules> = Box::new(Maker {
        make: Box::new(make),
        _game: PhantomData,
    });
    Entry {
        info,
        player: rules.generic_player(info, Names::International),
        rules,
        trials: None,
    }
}

impl Entry {
    /// The same entry, played by the generic player with players from `names` (the
    /// default is [`selfplay::Names::International`]).
    pub fn with_names(mut self, names: Names) -> Entry {
        self.player = self.rules.generic_player(self.info, names);
        self
    }

    /// The same entry with a self-play of its own instead of the generic one.
    pub fn with_player(mut self, player: impl Player + 'static) -> Entry {
        self.player = Box::new(player);
        self
    }

    /// The game's self-play, for [`selfplay::Config::new`].
    pub fn player(&self) -> &dyn Player {
        self.player.as_ref()
    }

    /// The same entry, declaring that the game's Ludii trials are read (and perhaps
    /// written) by `format`.
    pub fn with_trials(mut self, format: &'static dyn TrialFormat) -> Entry {
        self.trials = Some(format);
        self
    }

    /// The game's Ludii trials, if it declares them.
    pub fn trials(&self) -> Option<&'static dyn TrialFormat> {
        self.trials
    }
}

/// The games, in registry order, with their entries.
pub struct Games {
    registry: Registry,
    entries: Vec<Entry>,
}

impl Games {
    /// A registry of these entries.
    pub fn new(entries: Vec<Entry>) -> Self {
        Games {
            registry: Registry::new(entries.iter().map(|e| e.info).collect()),
            entries,
        }
    }

    /// The games, for identification and lookups by name.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The entry of a game.
    pub fn entry(&self, info: &GameInfo) -> Option<&Entry> {
        self.entries.iter().find(|e| e.info.id == info.id)
    }

    /// Converts a Ludii trial with the converter of the game it plays (see
    /// [`Entry::with_trials`]).
    pub fn read_trial(&self, trial: &Trial) -> Result<Converted, ConvertError> {
        let format = self
            .entries
            .iter()
            .filter_map(|e| e.trials)
            .find(|f| f.reads(trial));
        match format {
            Some(f) => f.read(trial),
            None => Err(ConvertError::UnsupportedGame {
                game: trial.game.clone(),
                known: self.trial_games(),
            }),
        }
    }

    /// The games whose Ludii trials are read, as a sentence lists them (`Tama and
    /// Thaayam`; `no game` when none).
    pub fn trial_games(&self) -> String {
        let names: Vec<&str> = self
            .entries
            .iter()
            .filter(|e| e.trials.is_some())
            .map(|e| e.info.label)
            .collect();
        match names.split_last() {
            None => "no game".to_string(),
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }

    /// Looks at positions of `game` under `options`.
    pub fn explorer(&self, game: &GameInfo, options: &Options) -> Option<Box<dyn Explorer>> {
        self.entry(game).map(|e| e.rules.explorer(options))
    }

    /// The engine of `game` under `options`, with a transposition table of about `hash_mb`
    /// megabytes kept from one search to the next.
    pub fn searcher(
        &self,
        game: &GameInfo,
        options: &Options,
        hash_mb: usize,
    ) -> Option<Box<dyn Searcher>> {
        self.entry(game).map(|e| e.rules.searcher(options, hash_mb))
    }
}

impl analysis::Catalog for Games {
    fn analyser(
        &self,
        game: &'static GameInfo,
        options: &Options,
        settings: analysis::Settings,
    ) -> Option<Box<dyn analysis::Analyser>> {
        self.entry(game)
            .map(|e| e.rules.analyser(options, settings, None))
    }

    fn analyser_with(
        &self,
        game: &'static GameInfo,
        options: &Options,
        settings: analysis::Settings,
        engine: Box<dyn analysis::External>,
    ) -> Option<Box<dyn analysis::Analyser>> {
        self.entry(game)
            .map(|e| e.rules.analyser(options, settings, Some(engine)))
    }
}

impl Catalog for Games {
    fn registry(&self) -> &Registry {
        &self.registry
    }

    fn engine(&self, game: &'static GameInfo, options: &Options) -> ReplayEngine {
        match self.entry(game) {
            Some(e) => e.rules.engine(options),
            None => unreachable!("the referee only asks for games of its registry"),
        }
    }
}

/// Why an [`Explorer`] cannot answer, as the player reads it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplorerError {
    /// The position string does not read.
    #[error("cannot read the position: {0}")]
    Position(Problem),
    /// The moves cannot be listed (Thaayam: the throws are not a series).
    #[error("{0}")]
    Moves(Problem),
    /// The move is not legal in the position or does not read.
    #[error("{0}")]
    Move(Problem),
    /// A perft depth beyond [`MAX_PERFT_DEPTH`].
    #[error(
        "perft counts at most {MAX_PERFT_DEPTH} plies deep (asked: {0}); a count that deep \
         would run for ages on any game"
    )]
    Depth(u32),
    /// The threads to count on could not be started.
    #[error("cannot start the threads to count on: {0}")]
    Threads(String),
    /// `perft` asked of a game whose moves depend on chance.
    #[error(
        "perft counts the positions of a game without chance; in {game} the moves depend \
         on the throws (list them with `arbiter moves --throws ...`)"
    )]
    Chance {
        /// The game's name.
        game: &'static str,
    },
    /// The engine cannot search (its thread could not be started or has stopped).
    #[error("{0}")]
    Engine(String),
}

/// The Hub protocol's names of its variants (Scan's words) and the ids of the games they
/// mean; any other game Hub can carry goes by its own id (see `hub::variants`).
pub const HUB_NAMES: &[(&str, &str)] = &[
    ("normal", "international"),
    ("frisian", "frisian"),
    ("losing", "antidraughts"),
    ("bt", "breakthrough"),
];

/// The deepest perft an [`Explorer`] counts. International's published tables stop at 15
/// plies and English's (OEIS A133046) at 28; every count up to 64 plies fits a `u64` in the
/// games arbiter knows, and one deeper would not finish in a lifetime anyway.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// How [`Explorer::perft_count`] counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PerftRun {
    /// The counting convention (bulk counting, identical captures).
    pub options: PerftOptions,
    /// The count of every root move is wanted too.
    pub divide: bool,
    /// Threads to count on; 0: one per core.
    pub threads: usize,
}

/// One depth of perft ([`Explorer::perft_count`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftCount {
    /// Leaves at the depth.
    pub nodes: u64,
    /// With `divide`: every root move (in the game's notation, sorted) with its leaves.
    pub divide: Vec<(String, u64)>,
}

/// A game's rules under fixed options, for looking at one position.
pub trait Explorer {
    /// True when the legal moves depend on an outcome of chance (see
    /// [`game::Explore::needs_chance`]).
    fn needs_chance(&self) -> bool;
    /// Every legal move of the position (`None`: the start position), described. `chance`
    /// is what a game of chance needs (Thaayam: the throws). With `numeric`, the moves are
    /// written with numeric (`Some(true)`) or algebraic squares instead of the game's default.
    fn moves(
        &self,
        position: Option<&str>,
        chance: &[u8],
        numeric: Option<bool>,
    ) -> Result<Vec<MoveInfo>, ExplorerError>;
    /// The perft count at every depth from 1 to `depth`.
    fn perft(&self, position: Option<&str>, depth: u32) -> Result<Vec<u64>, ExplorerError>;
    /// True when [`PerftRun::options`] change how this game counts (the draughts variants);
    /// the other games count their one way (bulk, no identical captures).
    fn perft_has_options(&self) -> bool;
    /// The perft count at `depth` alone, as `run` says: the work is split at the root, or a
    /// ply or two below when the root has few moves, counted on `run.threads` threads, and
    /// the sum is the one-thread count. With `run.divide`, the count of every root move too.
    fn perft_count(
        &self,
        position: Option<&str>,
        depth: u32,
        run: &PerftRun,
    ) -> Result<PerftCount, ExplorerError>;
    /// The position as a diagram draws it.
    fn board(&self, position: Option<&str>) -> Result<game::Board, ExplorerError>;
    /// The position string as the game writes it (`None`: the start position): a position
    /// read and written again, so that two spellings of one position compare equal.
    fn position_string(&self, position: Option<&str>) -> Result<String, ExplorerError>;
    /// The position's 64-bit key ([`game::Game::position_key`]; `None`: the start position).
    fn position_key(&self, position: Option<&str>) -> Result<u64, ExplorerError>;
    /// Reads a result in the game's notation (tag value or result token).
    fn parse_result(&self, text: &str) -> Option<game::Outcome>;
    /// Writes a result as the game's result token.
    fn write_result(&self, outcome: game::Outcome) -> String;
    /// Plays a move written as in a record (one ply: its tokens, e.g. `["11-15"]`, or for
    /// Thaayam `["S", "[4 2]", "c1+4"]`) and returns the position string after it.
    fn play(&self, position: Option<&str>, tokens: &[&str]) -> Result<String, ExplorerError>;
    /// The squares a move written as in a record (as for [`Explorer::play`]) visits, one path
    /// per piece moved, for drawing it as arrows ([`game::Game::move_paths`]).
    fn paths(
        &self,
        position: Option<&str>,
        tokens: &[&str],
    ) -> Result<Vec<game::SquarePath>, ExplorerError>;
    /// The result the rules give the position, if the game is over.
    fn outcome(&self, position: Option<&str>) -> Result<Option<game::Outcome>, ExplorerError>;
}

/// What an entry can build, with the game's type erased.
trait Rules: Send + Sync {
    fn engine(&self, options: &Options) -> ReplayEngine;
    fn explorer(&self, options: &Options) -> Box<dyn Explorer>;
    fn searcher(&self, options: &Options, hash_mb: usize) -> Box<dyn Searcher>;
    fn analyser(
        &self,
        options: &Options,
        settings: analysis::Settings,
        engine: Option<Box<dyn analysis::External>>,
    ) -> Box<dyn analysis::Analyser>;
    /// The generic self-play of the default rules.
    fn generic_player(&self, info: &'static GameInfo, names: Names) -> Box<dyn Player>;
}

/// The rules of one game as a function of its options.
type Make<G> = Box<dyn Fn(&Options) -> G + Send + Sync>;

struct Maker<G> {
    make: Make<G>,
    _game: PhantomData<fn() -> G>,
}

impl<G> Rules for Maker<G>
where
    G: Engine + Send + Sync + 'static,
    G::Position: Send + Sync,
    G::Move: Send + Sync,
{
    fn engine(&self, options: &Options) -> ReplayEngine {
        referee::engine((self.make)(options))
    }

    fn explorer(&self, options: &Options) -> Box<dyn Explorer> {
        Box::new(Looking((self.make)(options)))
    }

    fn searcher(&self, options: &Options, hash_mb: usize) -> Box<dyn Searcher> {
        Box::new(searcher::Thinking::new((self.make)(options), hash_mb))
    }

    fn analyser(
        &self,
        options: &Options,
        settings: analysis::Settings,
        engine: Option<Box<dyn analysis::External>>,
    ) -> Box<dyn analysis::Analyser> {
        analysis::analyser_with((self.make)(options), settings, engine)
    }

    fn generic_player(&self, info: &'static GameInfo, names: Names) -> Box<dyn Player> {
        Box::new(Generic::new(info, (self.make)(&Options::default())).with_names(names))
    }
}

/// An [`Explorer`] over a game's rules.
struct Looking<G>(G);

impl<G: Explore> Looking<G> {
    fn position(&self, text: Option<&str>) -> Result<G::Position, ExplorerError> {
        let parsed = match text {
            Some(text) => self.0.parse_position(text.trim()),
            None => self.0.start_position(&|_| None),
        };
        parsed.map_err(ExplorerError::Position)
    }
}

impl<G> Explorer for Looking<G>
where
    G: Explore + Sync,
    G::Position: Send + Sync,
    G::Move: Send + Sync,
{
    fn needs_chance(&self) -> bool {
        self.0.needs_chance()
    }

    fn moves(
        &self,
        position: Option<&str>,
        chance: &[u8],
        numeric: Option<bool>,
    ) -> Result<Vec<MoveInfo>, ExplorerError> {
        let pos = self.position(position)?;
        let moves = self
            .0
            .legal_moves(&pos, chance)
            .map_err(ExplorerError::Moves)?;
        let notation = numeric.map(|numeric| game::Notation {
            numeric,
            ..self.0.default_notation()
        });
        let mut described: Vec<MoveInfo> = moves
            .iter()
            .map(|m| {
                let mut info = self.0.describe(&pos, m);
                if let Some(n) = notation {
                    info.notation = self.0.write_move(&pos, m, n);
                }
                info
            })
            .collect();
        described.sort_by(|a, b| a.notation.cmp(&b.notation));
        Ok(described)
    }

    fn perft(&self, position: Option<&str>, depth: u32) -> Result<Vec<u64>, ExplorerError> {
        if self.0.needs_chance() {
            return Err(ExplorerError::Chance {
                game: self.0.name(),
            });
        }
        if depth > MAX_PERFT_DEPTH {
            return Err(ExplorerError::Depth(depth));
        }
        let pos = self.position(position)?;
        Ok((1..=depth).map(|d| self.0.perft(&pos, d)).collect())
    }

    fn perft_has_options(&self) -> bool {
        self.0.perft_has_options()
    }

    fn perft_count(
        &self,
        position: Option<&str>,
        depth: u32,
        run: &PerftRun,
    ) -> Result<PerftCount, ExplorerError> {
        if self.0.needs_chance() {
            return Err(ExplorerError::Chance {
                game: self.0.name(),
            });
        }
        if depth > MAX_PERFT_DEPTH {
            return Err(ExplorerError::Depth(depth));
        }
        let pos = self.position(position)?;
        if depth == 0 {
            return Ok(PerftCount {
                nodes: 1,
                divide: Vec::new(),
            });
        }
        if run.threads == 0 {
            return Ok(self.split_perft(&pos, depth, &run.options, run.divide));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(run.threads)
            .build()
            .map_err(|e| ExplorerError::Threads(e.to_string()))?;
        Ok(pool.install(|| self.split_perft(&pos, depth, &run.options, run.divide)))
    }
    fn board(&self, position: Option<&str>) -> Result<game::Board, ExplorerError> {
        self.position(position).map(|p| self.0.board(&p))
    }

    fn position_string(&self, position: Option<&str>) -> Result<String, ExplorerError> {
        self.position(position).map(|p| self.0.write_position(&p))
    }

    fn position_key(&self, position: Option<&str>) -> Result<u64, ExplorerError> {
        self.position(position).map(|p| self.0.position_key(&p))
    }

    fn parse_result(&self, text: &str) -> Option<game::Outcome> {
        self.0.parse_result(text)
    }

    fn write_result(&self, outcome: game::Outcome) -> String {
        self.0.write_result(outcome)
    }

    fn play(&self, position: Option<&str>, tokens: &[&str]) -> Result<String, ExplorerError> {
        let mut pos = self.position(position)?;
        let bytes: Vec<&[u8]> = tokens.iter().map(|t| t.as_bytes()).collect();
        let mv = self.0.resolve(&pos, &bytes).map_err(ExplorerError::Move)?;
        self.0.play(&mut pos, &mv);
        Ok(self.0.write_position(&pos))
    }

    fn paths(
        &self,
        position: Option<&str>,
        tokens: &[&str],
    ) -> Result<Vec<game::SquarePath>, ExplorerError> {
        let pos = self.position(position)?;
        let bytes: Vec<&[u8]> = tokens.iter().map(|t| t.as_bytes()).collect();
        let mv = self.0.resolve(&pos, &bytes).map_err(ExplorerError::Move)?;
        Ok(self.0.move_paths(&pos, &mv))
    }

    fn outcome(&self, position: Option<&str>) -> Result<Option<game::Outcome>, ExplorerError> {
        self.position(position).map(|p| self.0.terminal(&p))
    }
}

impl<G> Looking<G>
where
    G: Explore + Sync,
    G::Position: Send + Sync,
    G::Move: Send + Sync,
{
    /// perft at `depth` >= 1 on the current rayon pool (see [`Explorer::perft_count`]).
    fn split_perft(
        &self,
        pos: &G::Position,
        depth: u32,
        options: &PerftOptions,
        divide: bool,
    ) -> PerftCount {
        let root = self.0.perft_moves(pos, options);
        // Tasks: (root move, position, plies left), split a ply lower while there are too
        // few of them to keep every thread busy to the end.
        let play = |p: &G::Position, m: &G::Move| {
            let mut next = p.clone();
            self.0.play(&mut next, m);
            next
        };
        let mut tasks: Vec<(usize, G::Position)> = root
            .iter()
            .enumerate()
            .map(|(i, m)| (i, play(pos, m)))
            .collect();
        let mut left = depth - 1;
        let enough = 8 * rayon::current_num_threads();
        while tasks.len() < enough && left >= 2 {
            tasks = tasks
                .par_iter()
                .flat_map_iter(|(i, p)| {
                    let moves = self.0.perft_moves(p, options);
                    moves
                        .into_iter()
                        .map(|m| (*i, play(p, &m)))
                        .collect::<Vec<_>>()
                })
                .collect();
            left -= 1;
        }
        let counts: Vec<u64> = tasks
            .par_iter()
            .with_max_len(1)
            .map(|(_, p)| self.0.perft_with(p, left, options))
            .collect();
        let mut per_root = vec![0u64; root.len()];
        for ((i, _), n) in tasks.iter().zip(counts) {
            per_root[*i] += n;
        }
        let nodes = per_root.iter().sum();
        let mut moves = Vec::new();
        if divide {
            moves = root
                .iter()
                .zip(per_root)
                .map(|(m, n)| (self.0.describe(pos, m).notation, n))
                .collect();
            moves.sort();
        }
        PerftCount {
            nodes,
            divide: moves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_followed_by_the_family_word_names_the_game() {
        let r = games().registry();
        let id = |name: &str| r.by_name(name).map(|g| g.id);
        for (name, want) in [
            ("International draughts", "international"),
            ("russian-draughts", "russian"),
            ("Brazilian Draughts", "brazilian"),
            ("American checkers", "english"),
            ("Canadian_checkers", "canadian"),
            ("Armenian draughts", "tama"),
            ("Draughts", "international"),
        ] {
            assert_eq!(id(name), Some(want), "{name}");
        }
        for name in [
            "Foo draughts",
            "Internationaldraughts!x",
            "Tama checkers draughts",
        ] {
            assert_eq!(id(name), None, "{name}");
        }
    }

    #[test]
    fn every_game_is_listed_once_with_distinct_names() {
        let g = games();
        let infos = g.registry().games();
        assert!(infos.len() >= 3);
        for (i, a) in infos.iter().enumerate() {
            for b in &infos[i + 1..] {
                assert_ne!(a.id, b.id);
                assert!(!b.answers_to(a.id), "{} answers to {}", b.id, a.id);
                for t in a.game_types {
                    assert!(!b.game_types.contains(t), "GameType {t} is used twice");
                }
            }
        }
    }

    #[test]
    fn no_two_games_claim_the_same_records() {
        let infos = games().registry().games();
        let size = |g: &GameInfo, numeric: bool| {
            let b = g.profile.board;
            if numeric {
                g.numbered_squares()
            } else {
                u32::from(b.files) * u32::from(b.ranks)
            }
        };
        let mut claims = 0;
        for (i, a) in infos.iter().enumerate() {
            for ca in a.claims {
                claims += 1;
                let numeric = ca.squares == game::SquareStyle::Numeric;
                assert!(!numeric || a.numeric_squares, "{}", a.id);
                for b in &infos[i + 1..] {
                    for cb in b.claims {
                        let overlap = ca.squares == cb.squares
                            && size(a, numeric) == size(b, numeric)
                            && (ca.first.is_none() || cb.first.is_none() || ca.first == cb.first);
                        assert!(!overlap, "{} and {} claim the same records", a.id, b.id);
                    }
                }
            }
        }
        assert!(claims >= 2);
        let described = |id: &str| {
            let g = games().registry().by_name(id).unwrap();
            g.describe_claim(&g.claims[0])
        };
        assert_eq!(described("international"), "10x10 squares in numbers");
        assert_eq!(
            described("english"),
            "8x8 squares in numbers, Black moving first"
        );
    }

    #[test]
    fn every_game_has_a_player_of_its_own_game() {
        let g = games();
        for info in g.registry().games() {
            let player = g.entry(info).expect("entry").player();
            assert_eq!(player.info().id, info.id);
            let counts = player.players();
            assert!(counts.start() >= &1 && counts.end() <= &4, "{}", info.id);
            // Every game can be played: games of chance have players of their own.
            assert_eq!(player.check(), Ok(()), "{}", info.id);
        }
        // A game of chance is played with its own counts of players and default depth.
        let thaayam = g.registry().by_name("thaayam").unwrap();
        let player = g.entry(thaayam).unwrap().player();
        assert_eq!(player.players(), 2..=4);
        assert_eq!(player.default_search_depth(), 2);
        assert_eq!(player.names(), selfplay::Names::Tamil);
    }

    #[test]
    fn an_entry_without_names_of_its_own_has_the_international_pool() {
        let plain = entry(&tama::INFO, tama::Tama::from_options);
        assert_eq!(plain.player().names(), selfplay::Names::International);
        assert_eq!(plain.player().info().id, "tama");
        assert_eq!(plain.player().players(), 2..=2);
        let english = entry(&tama::INFO, tama::Tama::from_options).with_names(Names::English);
        assert_eq!(english.player().names(), Names::English);
    }

    #[test]
    fn explorers_count_and_list_moves() {
        let g = games();
        let tama = g.registry().by_name("tama").unwrap();
        let e = g.explorer(tama, &Options::default()).unwrap();
        assert_eq!(e.perft(None, 3).unwrap(), [22, 484, 12_174]);
        let moves = e.moves(None, &[], None).unwrap();
        assert_eq!(moves.len(), 22);
        assert!(moves
            .iter()
            .all(|m| m.path.len() == 2 && m.captured.is_empty()));
        // The squares of a move written as in a record: one piece, from one square to another.
        let paths = e.paths(None, &[moves[0].notation.as_str()]).unwrap();
        assert_eq!(paths.len(), 1);
        assert_eq!(paths[0].len(), 2);
        assert_ne!(paths[0][0], paths[0][1]);
        assert!(e.paths(None, &["no-such-move"]).is_err());

        let thaayam = g.registry().by_name("Thaayam").unwrap();
        let e = g.explorer(thaayam, &Options::default()).unwrap();
        assert!(e.needs_chance());
        assert!(e.perft(None, 1).is_err());
        assert!(e.moves(None, &[], None).is_err());
        let plays = e.moves(None, &[1, 4, 2], None).unwrap();
        assert!(!plays.is_empty());
        assert!(plays.iter().all(|m| m.notation.contains("in")));
    }

    #[test]
    fn perft_counts_alike_on_any_number_of_threads() {
        let g = games();
        for info in g.registry().games() {
            let e = g.explorer(info, &Options::default()).unwrap();
            if e.needs_chance() {
                let run = PerftRun::default();
                assert!(e.perft_count(None, 1, &run).is_err());
                continue;
            }
            let depth = if info.id == "odnocvetnie" { 5 } else { 4 };
            let want = e.perft(None, depth).unwrap();
            for threads in [1, 2, 3] {
                for bulk in [false, true] {
                    let run = PerftRun {
                        options: PerftOptions {
                            bulk,
                            keep_duplicates: None,
                        },
                        divide: true,
                        threads,
                    };
                    for d in 1..=depth {
                        let got = e.perft_count(None, d, &run).unwrap();
                        let at = format!("{} depth {d} threads {threads} bulk {bulk}", info.id);
                        assert_eq!(got.nodes, want[d as usize - 1], "{at}");
                        assert_eq!(got.divide.iter().map(|m| m.1).sum::<u64>(), got.nodes);
                        assert!(!got.divide.is_empty(), "{at}");
                    }
                }
            }
        }
        let intl = g.registry().by_name("international").unwrap();
        let e = g.explorer(intl, &Options::default()).unwrap();
        assert!(e.perft_has_options());
        let run = PerftRun::default();
        assert_eq!(
            e.perft_count(None, MAX_PERFT_DEPTH + 1, &run),
            Err(ExplorerError::Depth(MAX_PERFT_DEPTH + 1))
        );
        assert!(e.perft(None, u32::MAX).is_err());
    }

    #[test]
    fn explorers_normalise_positions_and_read_results() {
        let g = games();
        let tama = g.registry().by_name("tama").unwrap();
        let e = g.explorer(tama, &Options::default()).unwrap();
        let start = e.position_string(None).unwrap();
        assert_eq!(e.position_string(Some(&start)).unwrap(), start);
        assert_eq!(
            e.position_string(Some(&format!("  {start} "))).unwrap(),
            start
        );
        assert!(e.position_string(Some("nonsense")).is_err());
        let white = e.parse_result("1-0").unwrap();
        assert_eq!(e.parse_result("2-0"), Some(white));
        assert_eq!(e.write_result(white), "1-0");
        assert_ne!(e.parse_result("0-1"), Some(white));
    }
    #[test]
    fn a_searcher_answers_in_the_games_notation_and_keeps_going() {
        let g = games();
        let international = g.registry().by_name("international").unwrap();
        let mut s = g
            .searcher(international, &Options::default(), 1)
            .expect("a searcher");
        // White must take: 28x17 is the only legal move.
        let forced = "W:W28:B22,3";
        let a = s.search(Some(forced), &search::Limits::depth(2)).unwrap();
        let (index, best) = a.best.clone().unwrap();
        assert_eq!(index, 0);
        assert_eq!(best.notation, "28x17");
        assert_eq!(best.captured, ["22"]);
        assert_eq!(a.line.first(), Some(&best));
        // Deterministic under a node limit, also after another search and a clear.
        let limits = search::Limits::nodes(3_000);
        let first = s.search(None, &limits).unwrap();
        s.clear();
        let again = s.search(None, &limits).unwrap();
        assert_eq!(first, again);
        assert!(first.nodes > 0 && first.depth >= 1);
        assert!(first.line.len() >= 2, "{:?}", first.line);
        // Explorer::play takes what the searcher writes.
        let e = g.explorer(international, &Options::default()).unwrap();
        let after = e.play(None, &[first.best.unwrap().1.notation.as_str()]);
        assert!(after.is_ok());
        // A game over has no move; a bad position is an error, not a panic.
        let over = s.search(Some("B:W28:B"), &limits).unwrap();
        assert!(over.best.is_none() && over.line.is_empty());
        assert!(matches!(
            s.search(Some("nonsense"), &limits),
            Err(ExplorerError::Position(_))
        ));
    }

    #[test]
    fn a_proven_win_says_in_how_many_plies() {
        let g = games();
        let international = g.registry().by_name("international").unwrap();
        let mut s = g.searcher(international, &Options::default(), 1).unwrap();
        // White takes the last black man.
        let a = s
            .search(Some("W:W28:B22"), &search::Limits::depth(3))
            .unwrap();
        assert_eq!(a.decided_in(), Some(1));
        assert_eq!(a.score, search::WIN - 1);
    }
}
