//! Seeded self-play for arbiter: agents that play any game of the registry against each
//! other and write the games as PDN, as a real archive would hold them.
//!
//! [`generate`] writes [`Config::games`] complete games of the game whose [`Player`] the
//! configuration holds. Every game is played by [`Generic`], written once over
//! [`game::Explore`]: the rules crate gives the legal moves, the outcomes of chance, the
//! seating of a game and how good a position is for a seat ([`game::Explore::evaluate`]).
//! The registry (crate `games`) gives each game its player, so nothing here names a game.
//!
//! The output depends only on the [`Config`]: the same configuration gives the same bytes on
//! every machine (the random numbers come from the crate's own xoshiro256** generator,
//! [`Rng`], never from the environment). Moves and results are written by each rules crate's
//! own writer ([`game::Game::write_move`], [`game::Game::write_result`]), so the notation is
//! the canonical one, with short capture forms wherever they are unambiguous.
//!
//! ```
//! use selfplay::{generate, Agent, Config};
//!
//! let games = games::games();
//! let first = games.registry().games()[0];
//! let mut config = Config::new(games.entry(first).unwrap().player());
//! config.games = 2;
//! config.seed = 7;
//! config.agent = Some(Agent::Greedy);
//! let mut out = Vec::new();
//! let summary = generate(&config, &mut out).unwrap();
//! assert_eq!(summary.games, 2);
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("[Event \"arbiter self-play\"]"));
//! assert!(text.contains(&format!("[Variant \"{}\"]", first.variant_tag)));
//! ```
//!
//! # Agents
//!
//! - [`Agent::Random`]: a uniformly random legal move (one per resulting position, so a
//!   flying capture with several landing squares counts once).
//! - [`Agent::Greedy`]: a move that wins at once, else the move whose worst immediate reply
//!   leaves the best evaluation for the mover (a game of chance: the best evaluation right
//!   after the move).
//! - [`Agent::Search`]: a fixed-depth search on the game's evaluation (default 3 plies; a
//!   game of chance 2): alpha-beta in which the searching seat maximises and every other
//!   seat minimises (with two seats, plain minimax), or in a game of chance expectimax over
//!   the outcomes [`game::Explore::outcomes`] gives.
//!
//! The evaluation is the game's: by default material (each piece one); a rules crate gives
//! its own where material says little (kings worth more, mobility where the pieces belong to
//! nobody, race progress in a race game). Ties are broken by the seeded generator, so that games differ. With
//! [`Config::agent`] `None` every seat of every game draws its own agent: random 1 in 5,
//! greedy 3 in 10, search 1 in 2.
//!
//! # Games
//!
//! A game is set up as its rules say ([`game::Explore::player_counts`],
//! [`game::Explore::seating`]): the number of players is drawn among the game's counts when
//! [`Config::players`] is `None`, and the seating tags the rules give (which seats play, which
//! moves first) are written after `PlyCount`. A game of chance throws with the seeded
//! generator ([`game::Explore::throw`]); moves of a seat that keeps the turn are joined into
//! one ply ([`game::Explore::join_moves`]). Move numbers start every round (one ply per seat in
//! play).
//!
//! A game the rules end carries the rules' result (`1-0`/`0-1`, `S+W-`, `N+`). Other games
//! stop, as a recorder would stop writing:
//!
//! - at the ply cap ([`Config::max_plies`]; defaults in [`Player::default_max_plies`]),
//!   with `*`;
//! - after 60 plies in which only kings moved and nothing was captured, as an agreed draw
//!   `1/2-1/2` (a two-sided game; a recorded result, never derived by the rules), or after 20
//!   such rounds with `*` (other games).
//!
//! Captures are written in the short form unless the rules crate's writer gives the full
//! path (an ambiguous short form); if a short form would not read back as the same move (a
//! king chain that passes its final square earlier in the chain), the full path is written
//! instead.
//!
//! # Tags
//!
//! Event ([`Config::event`]), Site (a town, from the seed), Date (from the seed: the archive
//! starts on a day between 1995 and 2019, three games a day), Round (the game's number),
//! the players of a two-sided game (`White` and `Black`: each player under the name of the
//! seat, `White` first), Result, Variant (the game's `variant_tag`), PlyCount (plies; a game
//! of chance: turns), then the seating tags, and for other games the players under the names
//! of the seats in play (`South`, `West`, `North`, `East`). Players are invented names drawn
//! from a pool of sixteen per archive ([`Names`]), so the same people meet again and again.
//!
//! # A new game
//!
//! Nothing here: its registry entry (`games::entry`) gives it [`Generic`] over its default
//! rules, with players from [`Names::International`] (`.with_names(..)` on the entry picks
//! another pool). A better evaluation, a seating or chance are methods of its
//! [`game::Explore`]. Its corpus files are lines of the registry's `CORPUS_FILES` (a
//! [`CorpusFile`] each).
#![deny(missing_docs)]

mod generic;
mod names;
mod player;
mod record;
mod rng;

use std::fmt;
use std::io::{self, Write};

use names::People;
use rayon::prelude::*;
use record::Record;

pub use generic::Generic;
pub use names::Names;
pub use player::{Played, Player, Table};
pub use rng::Rng;

/// How a seat chooses its moves (see the crate documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agent {
    /// A uniformly random legal move.
    Random,
    /// The best immediate outcome, on the game's evaluation.
    Greedy,
    /// A small fixed-depth search on the game's evaluation (expectimax in a game of chance).
    Search,
}

impl Agent {
    /// Every agent.
    pub const ALL: [Agent; 3] = [Agent::Random, Agent::Greedy, Agent::Search];

    /// Reads the command-line name: `random`, `greedy`, `search` (any case).
    pub fn from_name(name: &str) -> Option<Agent> {
        match name.trim().to_ascii_lowercase().as_str() {
            "random" => Some(Agent::Random),
            "greedy" => Some(Agent::Greedy),
            "search" => Some(Agent::Search),
            _ => None,
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Random => "random",
            Agent::Greedy => "greedy",
            Agent::Search => "search",
        }
    }

    /// The mix used when no agent is given: random 1 in 5, greedy 3 in 10, search 1 in 2.
    fn draw(rng: &mut Rng) -> Agent {
        match rng.below(10) {
            0 | 1 => Agent::Random,
            2..=4 => Agent::Greedy,
            _ => Agent::Search,
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What to generate. [`Config::new`] gives the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The game, as its self-play (`games::games().entry(info)` gives every game's).
    pub game: &'static dyn Player,
    /// Number of games.
    pub games: u32,
    /// The seed: the same seed (and the rest of the configuration) gives the same bytes.
    pub seed: u64,
    /// Number of players, one of [`Player::players`]. `None`: the game's number, or a mix
    /// of its numbers.
    pub players: Option<u8>,
    /// The agent of every seat; `None`: each seat of each game draws one (see the crate
    /// documentation).
    pub agent: Option<Agent>,
    /// Ply cap (a game of chance: turns); `None`: [`Player::default_max_plies`].
    pub max_plies: Option<u32>,
    /// Search depth in plies for the `search` agent; `None`:
    /// [`Player::default_search_depth`]. Must be 1 to 6.
    pub search_depth: Option<u32>,
    /// The `Event` tag value.
    pub event: String,
}

impl Config {
    /// One game of `game`, seed 0, default players, agents, cap and depth, event
    /// `"arbiter self-play"`.
    pub fn new(game: &'static dyn Player) -> Config {
        Config {
            game,
            games: 1,
            seed: 0,
            players: None,
            agent: None,
            max_plies: None,
            search_depth: None,
            event: "arbiter self-play".to_string(),
        }
    }

    /// Checks the configuration; the error is a sentence for the user.
    pub fn check(&self) -> Result<(), ConfigError> {
        self.game.check()?;
        if let Some(n) = self.players {
            let allowed = self.game.players();
            if !allowed.contains(&n) {
                return Err(ConfigError::Players {
                    game: self.game.info().label,
                    counts: player::player_counts(allowed),
                    given: n,
                });
            }
        }
        if self.max_plies == Some(0) {
            return Err(ConfigError::PlyCap);
        }
        if let Some(d) = self.search_depth {
            if !(1..=6).contains(&d) {
                return Err(ConfigError::Depth(d));
            }
        }
        if self.event.contains(['"', '\n', '\r']) || self.event.ends_with('\\') {
            return Err(ConfigError::Event);
        }
        Ok(())
    }
}

/// Why a configuration cannot be played (see [`Config::check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The game's rules give no start position.
    #[error("{game}: no start position: {problem}")]
    NoStart {
        /// The game's label.
        game: &'static str,
        /// What the rules said.
        problem: game::Problem,
    },
    /// A number of players the game is not played by.
    #[error("{game} is played by {counts} players, not {given}")]
    Players {
        /// The game's label.
        game: &'static str,
        /// The numbers it is played by, as a sentence writes them (`2 to 4`).
        counts: String,
        /// The number asked for.
        given: u8,
    },
    /// A ply cap of 0.
    #[error("the ply cap must be at least 1")]
    PlyCap,
    /// A search depth out of 1 to 6.
    #[error("the search depth must be 1 to 6 plies, not {0}")]
    Depth(u32),
    /// An event name that cannot be written in a tag.
    #[error("the event name cannot hold a quote or a line break")]
    Event,
}

/// Games played in parallel between two writes.
const BATCH: u32 = 256;

/// Figures about what [`generate`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Games written.
    pub games: u32,
    /// Plies (a game of chance: turns) over all games.
    pub plies: u64,
    /// Games that the rules ended.
    pub ended_by_rule: u32,
    /// Games stopped as an agreed draw `1/2-1/2` (only kings moved for a long time).
    pub agreed_draws: u32,
    /// Plies of the shortest game.
    pub shortest: u32,
    /// Plies of the longest game.
    pub longest: u32,
    /// Bytes written.
    pub bytes: u64,
}

/// Writes `config.games` complete games as PDN to `out`. Identical configurations give
/// identical bytes, however many threads play them (games are played in parallel on the
/// rayon thread pool, each with its own generator, and written in order). An invalid
/// configuration (see [`Config::check`]) is an [`io::ErrorKind::InvalidInput`] error and
/// writes nothing.
pub fn generate(config: &Config, out: &mut impl Write) -> io::Result<Summary> {
    config
        .check()
        .map_err(|m| io::Error::new(io::ErrorKind::InvalidInput, m))?;
    let mut master = Rng::new(config.seed);
    let people = People::new(config.game.names(), &mut master.fork());
    let mut summary = Summary {
        shortest: u32::MAX,
        ..Summary::default()
    };
    let mut text = String::with_capacity(8192);
    let mut index = 0;
    while index < config.games {
        // Each game has its own generator, forked in order from the master one, so games can
        // be played in parallel and still come out the same. A batch at a time bounds memory.
        let batch = (config.games - index).min(BATCH);
        let jobs: Vec<(u32, Rng)> = (index..index + batch).map(|i| (i, master.fork())).collect();
        let records: Vec<Record> = jobs
            .into_par_iter()
            .map(|(i, mut rng)| play_game(config, i, &people, &mut rng))
            .collect();
        for record in &records {
            text.clear();
            if index > 0 {
                text.push('\n');
            }
            record.write(&mut text);
            out.write_all(text.as_bytes())?;
            summary.games += 1;
            summary.plies += u64::from(record.plies);
            summary.ended_by_rule += u32::from(record.ended_by_rule);
            summary.agreed_draws += u32::from(record.result == "1/2-1/2");
            summary.shortest = summary.shortest.min(record.plies);
            summary.longest = summary.longest.max(record.plies);
            summary.bytes += text.len() as u64;
            index += 1;
        }
    }
    if summary.games == 0 {
        summary.shortest = 0;
    }
    Ok(summary)
}

/// Plays game number `index` (0-based) with its own generator and builds its record.
///
/// The generator's draws come in this order: the four seats' agents (drawn even when the
/// configuration fixes them), the fork of the agents' choices, then the player's seating.
fn play_game(config: &Config, index: u32, people: &People, rng: &mut Rng) -> Record {
    let player = config.game;
    let info = player.info();
    let max_plies = config.max_plies.unwrap_or(player.default_max_plies());
    let depth = config.search_depth.unwrap_or(player.default_search_depth());
    let mut agents = [Agent::Random; 4];
    for a in &mut agents {
        *a = config.agent.unwrap_or_else(|| Agent::draw(rng));
    }
    let moves = rng.fork();
    let mut table =
        player::Table::new(agents, max_plies, depth, config.players, people, rng, moves);
    let played = player.play(&mut table);
    let seat_name = |seat: game::Seat| {
        info.seat_names
            .get(usize::from(seat.0))
            .copied()
            .unwrap_or("Player")
    };
    let mut players: Vec<(&'static str, String)> = played
        .players
        .into_iter()
        .map(|(seat, name)| (seat_name(seat), name))
        .collect();
    let mut tags: Vec<(&'static str, String)> = vec![
        ("Event", config.event.clone()),
        ("Site", people.site.to_string()),
        ("Date", people.date(index)),
        ("Round", (index + 1).to_string()),
    ];
    if info.profile.two_sides {
        // The PDN roster order: White before Black, whichever seat moves first.
        players.sort_by_key(|(tag, _)| *tag != "White");
        tags.append(&mut players);
    }
    tags.push(("Result", played.result.clone()));
    tags.push(("Variant", info.variant_tag.to_string()));
    tags.push(("PlyCount", played.plies.to_string()));
    tags.extend(played.seat_tags);
    tags.append(&mut players);
    Record {
        tags,
        units: played.units,
        result: played.result,
        plies: played.plies,
        ended_by_rule: played.ended_by_rule,
    }
}

/// One game of `player` with these agents (by seat), the default ply cap and search depth
/// and its own players; the seating and the agents' choices come from `seed`. What
/// [`generate`] writes, before the archive's tags: for measuring agents against each other.
pub fn play_one(player: &dyn Player, agents: [Agent; 4], seed: u64) -> Played {
    let mut setup = Rng::new(seed);
    let people = People::new(player.names(), &mut setup.fork());
    let moves = setup.fork();
    let mut table = player::Table::new(
        agents,
        player.default_max_plies(),
        player.default_search_depth(),
        None,
        &people,
        &mut setup,
        moves,
    );
    player.play(&mut table)
}

/// The index of a highest score, ties broken at random.
pub(crate) fn pick_best(scores: &[i32], rng: &mut Rng) -> usize {
    let Some(&best) = scores.iter().max() else {
        return 0;
    };
    let ties = scores.iter().filter(|&&s| s == best).count();
    let mut k = rng.index(ties);
    for (i, &s) in scores.iter().enumerate() {
        if s == best {
            if k == 0 {
                return i;
            }
            k -= 1;
        }
    }
    0
}

/// One file of the shipped corpus (`corpus/<game id>/`): which game, made by which agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorpusFile {
    /// The game, by its registry id: the folder and file names.
    pub game: &'static str,
    /// The agent of every seat (`None`: the default mix).
    pub agent: Option<Agent>,
    /// How many games.
    pub games: u32,
    /// The seed.
    pub seed: u64,
    /// The file is gzip-compressed (`.pdn.gz`), to keep the corpus small.
    pub gzip: bool,
}

impl CorpusFile {
    /// The file's path below `corpus/`: `<game>/<game>-<agent or mixed>.pdn`, or `.pdn.gz`.
    pub fn file_name(&self) -> String {
        let agent = self.agent.map_or("mixed", Agent::name);
        let ext = if self.gzip { "pdn.gz" } else { "pdn" };
        format!("{}/{}-{agent}.{ext}", self.game, self.game)
    }
}
