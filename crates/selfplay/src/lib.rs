//! Seeded self-play for arbiter: agents that play any game of the registry against each
//! other and write the games as PDN, as a real archive would hold them.
//!
//! [`generate`] writes [`Config::games`] complete games of the game whose [`Player`] the
//! configuration holds. Tama, Odnocvetnie Shashki and Thaayam have their own players with
//! specialised agents ([`TamaPlayer`], [`OdnocvetniePlayer`], [`ThaayamPlayer`]); every other
//! game without chance is played by [`Generic`], written once over [`game::Explore`]. The
//! registry (crate `games`) gives each game its player, so nothing here chooses by game.
//!
//! The output depends only on the [`Config`]: the same configuration gives the same bytes on
//! every machine (the random numbers come from the crate's own xoshiro256** generator,
//! [`Rng`], never from the environment). Moves and results are written by each rules crate's
//! own writer ([`game::Game::write_move`], [`game::Game::write_result`]), so the notation is
//! the canonical one, with short capture forms wherever they are unambiguous.
//!
//! ```
//! use selfplay::{generate, Agent, Config, TamaPlayer};
//!
//! let mut config = Config::new(&TamaPlayer);
//! config.games = 2;
//! config.seed = 7;
//! config.agent = Some(Agent::Greedy);
//! let mut out = Vec::new();
//! let summary = generate(&config, &mut out).unwrap();
//! assert_eq!(summary.games, 2);
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.starts_with("[Event \"arbiter self-play\"]"));
//! assert!(text.contains("[Variant \"Tama\"]"));
//! ```
//!
//! # Agents
//!
//! - [`Agent::Random`]: a uniformly random legal move (draughts: one per resulting position,
//!   so a flying capture with several landing squares counts once) or legal play of the
//!   series (Thaayam).
//! - [`Agent::Greedy`]: the best immediate outcome. Tama: the most material after the move
//!   (men 1, kings 3), less the pieces the opponent can take back at once. Odnocvetnie
//!   Shashki, where the men belong to nobody: a move that leaves the next seat without a move
//!   (and so wins), else the one that leaves it the fewest moves. Thaayam: the best race
//!   progress — the mover's progress along its route (keep and borne-off pieces count most)
//!   against every opponent's (so sending pieces home counts), plus a bonus for each extra
//!   series earned.
//! - [`Agent::Search`]: Tama: negamax alpha-beta to a fixed depth (default 3 plies) with
//!   captures and forced replies extended, on material (man 100, king 300), advancement and
//!   mobility. Odnocvetnie Shashki: a *paranoid* alpha-beta search (default 3 plies: the
//!   three other seats are assumed to play against the searching one) on the mobility of the
//!   searching seat against that of the seat after it. Thaayam: no tree search (the dice make
//!   it costly for little gain) but the greedy race score with a safety term: own units
//!   within reach of enemy units that could capture them cost their progress, weighted by the
//!   chance of one series covering the distance.
//!
//! The generic player ([`Generic`]) has the same three agents for any game without chance:
//! random (uniform over [`game::Explore::legal_moves`]), greedy (the most pieces captured,
//! less the most the next seat can capture in reply; a move that wins at once first) and
//! search (a small alpha-beta search, default 3 plies, on the pieces the searching seat
//! captures less those the others capture — the material balance of a two-sided game; other
//! seats are assumed to play against the searching one). Long runs of quiet king moves are
//! stopped as in Tama (see [`Generic`]).
//!
//! Ties are broken by the seeded generator, and the Tama and Odnocvetnie search agents add a
//! little noise (more in the first plies of Tama), so that games differ. With [`Config::agent`] `None` every seat
//! of every game draws its own agent: random 1 in 5, greedy 3 in 10, search 1 in 2.
//!
//! # Games
//!
//! - Tama: White moves first; movetext `1. c3-c4 d6-d5 2. …`.
//! - Odnocvetnie Shashki: numeric squares, four moves per move number starting with the
//!   first seat. One game in eight starts with a seat other than South and says so with a
//!   `FirstSeat` tag. Many games never end by rule (a free damka can move for ever).
//! - Any other game (generic player): the rules' start position, move numbers every round
//!   (one ply per seat in play).
//! - Thaayam: two, three or four players (drawn 1:1:1 when [`Config::players`] is `None`;
//!   two players sit South and North, three leave out a random seat), a random first seat,
//!   real seeded throws of fair shells, one move number per round. Seats are listed in
//!   clockwise order from South in the `Seats` tag, with a `First` tag when the first player
//!   is not the first listed.
//!
//! A game the rules end carries the rules' result (`1-0`/`0-1`, `S+W-`, `N+`). Other games
//! stop, as a recorder would stop writing:
//!
//! - at the ply cap ([`Config::max_plies`]; defaults in [`Player::default_max_plies`]),
//!   with `*`;
//! - Tama: after 60 plies in which only kings moved and nothing was captured, as an agreed
//!   draw `1/2-1/2` (a recorded result, never derived by the rules);
//! - Odnocvetnie Shashki: after 80 plies (20 rounds) in which only damki moved and nothing was
//!   captured, with `*` (a free damka can be moved for ever);
//! - generic player: after 60 such plies as an agreed draw (two-sided games), or 20 such
//!   rounds with `*` (other games).
//!
//! Captures are written in the short form unless the rules crate's writer gives the full
//! path (an ambiguous short form); if a short form would not read back as the same move (a
//! king chain that passes its final square earlier in the chain: `g1xg6` for
//! `g1xg6xe6xc6xc2xe2xg6` reads as the one-jump chain that stops on g6), the full path is
//! written instead.
//!
//! # Tags
//!
//! Event ([`Config::event`]), Site (a town, from the seed), Date (from the seed: the archive
//! starts on a day between 1995 and 2019, three games a day), Round (the game's number),
//! the players of a two-sided game (`White` and `Black`: each player under the name of the
//! seat, `White` first), Result, Variant (the game's `variant_tag`), PlyCount (Thaayam:
//! turns), then the seat tags: `FirstSeat` (Odnocvetnie, when not South), `Seats` and `First`
//! (Thaayam), and for other games the players under the names of the seats in play (`South`,
//! `West`, `North`, `East`). Players are invented names drawn from a pool of sixteen per
//! archive ([`Names`]), so the same people meet again and again.
//!
//! # A new game
//!
//! A game without chance needs nothing here: its registry entry (`games::entry`) gives it
//! [`Generic`] over its default rules, with players from [`Names::International`]
//! (`.with_names(..)` on the entry picks another pool). A game of chance, or one that deserves
//! stronger agents, gets a [`Player`] of its own and `.with_player(..)` on its entry. Its
//! corpus files are lines of [`CORPUS_FILES`].
#![deny(missing_docs)]

mod generic;
mod names;
mod odnocvetnie_play;
mod player;
mod playout;
mod record;
mod rng;
mod tama_play;
mod thaayam_play;

use std::fmt;
use std::io::{self, Write};

use names::People;
use rayon::prelude::*;
use record::Record;

pub use generic::Generic;
pub use names::Names;
pub use odnocvetnie_play::OdnocvetniePlayer;
pub use player::{Played, Player, Table};
pub use rng::Rng;
pub use tama_play::TamaPlayer;
pub use thaayam_play::ThaayamPlayer;

/// How a seat chooses its moves (see the crate documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agent {
    /// A uniformly random legal move.
    Random,
    /// The best immediate outcome: material (Tama, generic), squeeze (Odnocvetnie) or race
    /// progress (Thaayam).
    Greedy,
    /// A small fixed-depth search (Thaayam: the greedy score with a safety term).
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
    /// Number of players, one of [`Player::players`]. `None`: the game's number (Thaayam: a
    /// mix of 2, 3 and 4).
    pub players: Option<u8>,
    /// The agent of every seat; `None`: each seat of each game draws one (see the crate
    /// documentation).
    pub agent: Option<Agent>,
    /// Ply cap (Thaayam: turns); `None`: [`Player::default_max_plies`].
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
    pub fn check(&self) -> Result<(), String> {
        self.game.check()?;
        if let Some(n) = self.players {
            let allowed = self.game.players();
            if !allowed.contains(&n) {
                return Err(format!(
                    "{} is played by {} players, not {n}",
                    self.game.info().label,
                    player::player_counts(allowed)
                ));
            }
        }
        if self.max_plies == Some(0) {
            return Err("the ply cap must be at least 1".to_string());
        }
        if let Some(d) = self.search_depth {
            if !(1..=6).contains(&d) {
                return Err(format!("the search depth must be 1 to 6 plies, not {d}"));
            }
        }
        if self.event.contains(['"', '\n', '\r']) || self.event.ends_with('\\') {
            return Err("the event name cannot hold a quote or a line break".to_string());
        }
        Ok(())
    }
}

/// Games played in parallel between two writes.
const BATCH: u32 = 256;

/// Figures about what [`generate`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Games written.
    pub games: u32,
    /// Plies (Thaayam: turns) over all games.
    pub plies: u64,
    /// Games that the rules ended.
    pub ended_by_rule: u32,
    /// Games stopped as an agreed draw `1/2-1/2` (Tama: only kings moved for a long time).
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
    /// The game, by its registry id (`tama`, `international`): the folder and file names.
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
    /// The file's path below `corpus/`, e.g. `tama/tama-search.pdn` or
    /// `thaayam/thaayam-mixed.pdn.gz`.
    pub fn file_name(&self) -> String {
        let agent = self.agent.map_or("mixed", Agent::name);
        let ext = if self.gzip { "pdn.gz" } else { "pdn" };
        format!("{}/{}-{agent}.{ext}", self.game, self.game)
    }
}

/// The recipe of the shipped corpus: each file is one [`generate`] call with the default
/// event, ply caps and search depths (`arbiter selfplay --game G --games N --seed S
/// [--agent A]`, piped through `gzip -9n` for a compressed file). A new game's files are new
/// lines here: the generator example and the corpus test read this list.
pub const CORPUS_FILES: &[CorpusFile] = {
    use Agent::{Greedy, Random, Search};
    const fn plain(game: &'static str, agent: Option<Agent>, games: u32, seed: u64) -> CorpusFile {
        CorpusFile {
            game,
            agent,
            games,
            seed,
            gzip: false,
        }
    }
    const fn gzip(game: &'static str, agent: Option<Agent>, games: u32, seed: u64) -> CorpusFile {
        CorpusFile {
            game,
            agent,
            games,
            seed,
            gzip: true,
        }
    }
    &[
        plain("tama", Some(Search), 300, 101),
        plain("tama", Some(Greedy), 200, 102),
        plain("tama", Some(Random), 200, 103),
        plain("tama", None, 400, 104),
        plain("odnocvetnie", Some(Search), 300, 201),
        plain("odnocvetnie", Some(Greedy), 200, 202),
        plain("odnocvetnie", Some(Random), 200, 203),
        plain("odnocvetnie", None, 400, 204),
        gzip("thaayam", Some(Search), 300, 301),
        gzip("thaayam", Some(Greedy), 200, 302),
        gzip("thaayam", Some(Random), 200, 303),
        gzip("thaayam", None, 400, 304),
        plain("international", Some(Search), 300, 401),
        plain("international", Some(Greedy), 200, 402),
        plain("international", Some(Random), 200, 403),
        plain("international", None, 400, 404),
        plain("english", Some(Search), 300, 501),
        plain("english", Some(Greedy), 200, 502),
        plain("english", Some(Random), 200, 503),
        plain("english", None, 400, 504),
        plain("russian", Some(Search), 300, 601),
        plain("russian", Some(Greedy), 200, 602),
        plain("russian", Some(Random), 200, 603),
        plain("russian", None, 400, 604),
    ]
};
