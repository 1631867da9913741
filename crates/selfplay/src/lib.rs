//! Seeded self-play for arbiter: agents that play Tama, Odnocvetnie Shashki and Thaayam
//! against each other and write the games as PDN, as a real archive would hold them.
//!
//! [`generate`] writes [`Config::games`] complete games. The output depends only on the
//! [`Config`]: the same configuration gives the same bytes on every machine (the random
//! numbers come from the crate's own xoshiro256** generator, never from the environment).
//! Moves and results are written by each rules crate's own writer
//! ([`game::Game::write_move`], [`game::Game::write_result`]), so the notation is the
//! canonical one, with short capture forms wherever they are unambiguous.
//!
//! ```
//! use selfplay::{generate, Agent, Config, GameChoice};
//!
//! let mut config = Config::new(GameChoice::Tama);
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
//! Ties are broken by the seeded generator, and the search agents add a little noise (more in
//! the first plies of Tama), so that games differ. With [`Config::agent`] `None` every seat
//! of every game draws its own agent: random 1 in 5, greedy 3 in 10, search 1 in 2.
//!
//! # Games
//!
//! - Tama: White moves first; movetext `1. c3-c4 d6-d5 2. …`.
//! - Odnocvetnie Shashki: numeric squares, four moves per move number starting with the
//!   first seat. One game in eight starts with a seat other than South and says so with a
//!   `FirstSeat` tag. Many games never end by rule (a free damka can move for ever).
//! - Thaayam: two, three or four players (drawn 1:1:1 when [`Config::players`] is `None`;
//!   two players sit South and North, three leave out a random seat), a random first seat,
//!   real seeded throws of fair shells, one move number per round. Seats are listed in
//!   clockwise order from South in the `Seats` tag, with a `First` tag when the first player
//!   is not the first listed.
//!
//! A game the rules end carries the rules' result (`1-0`/`0-1`, `S+W-`, `N+`). Other games
//! stop, as a recorder would stop writing:
//!
//! - at the ply cap ([`Config::max_plies`]; defaults in [`GameChoice::default_max_plies`]),
//!   with `*`;
//! - Tama: after 60 plies in which only kings moved and nothing was captured, as an agreed
//!   draw `1/2-1/2` (a recorded result, never derived by the rules);
//! - Odnocvetnie Shashki: after 80 plies (20 rounds) in which only damki moved and nothing was
//!   captured, with `*` (a free damka can be moved for ever).
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
//! White and Black (Tama), Result, Variant, PlyCount (Thaayam: turns), then the seat tags:
//! `FirstSeat` (Odnocvetnie, when not South), `Seats` and `First` (Thaayam), and the players
//! `South`, `West`, `North`, `East` of the seats in play. Players are invented names drawn from
//! a pool of sixteen per archive, so the same people meet again and again.
#![deny(missing_docs)]

mod names;
mod odnocvetnie_play;
mod record;
mod rng;
mod tama_play;
mod thaayam_play;

use std::fmt;
use std::io::{self, Write};

use names::People;
use rayon::prelude::*;
use record::Record;
use rng::Rng;

/// The game to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameChoice {
    /// Tama (Armenian draughts).
    Tama,
    /// Odnocvetnie Shashki (four-seat monochrome draughts).
    Odnocvetnie,
    /// Thaayam (the race game with cowrie throws).
    Thaayam,
}

impl GameChoice {
    /// Every game.
    pub const ALL: [GameChoice; 3] = [
        GameChoice::Tama,
        GameChoice::Odnocvetnie,
        GameChoice::Thaayam,
    ];

    /// Reads the command-line name: `tama`, `odnocvetnie`, `thaayam` (any case).
    pub fn from_name(name: &str) -> Option<GameChoice> {
        match name.trim().to_ascii_lowercase().as_str() {
            "tama" => Some(GameChoice::Tama),
            "odnocvetnie" => Some(GameChoice::Odnocvetnie),
            "thaayam" => Some(GameChoice::Thaayam),
            _ => None,
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            GameChoice::Tama => "tama",
            GameChoice::Odnocvetnie => "odnocvetnie",
            GameChoice::Thaayam => "thaayam",
        }
    }

    /// The value written in the `Variant` tag.
    pub fn variant(self) -> &'static str {
        match self {
            GameChoice::Tama => "Tama",
            GameChoice::Odnocvetnie => "Odnocvetnie",
            GameChoice::Thaayam => "Thaayam",
        }
    }

    /// The ply cap used when [`Config::max_plies`] is `None`: Tama 300 plies, Odnocvetnie
    /// Shashki 400 plies (100 rounds), Thaayam 1000 turns.
    pub fn default_max_plies(self) -> u32 {
        match self {
            GameChoice::Tama => 300,
            GameChoice::Odnocvetnie => 400,
            GameChoice::Thaayam => 1000,
        }
    }

    /// The search depth used when [`Config::search_depth`] is `None` (Thaayam's `search`
    /// agent does not search a tree and ignores it).
    pub fn default_search_depth(self) -> u32 {
        match self {
            GameChoice::Tama => tama_play::DEFAULT_DEPTH,
            GameChoice::Odnocvetnie => odnocvetnie_play::DEFAULT_DEPTH,
            GameChoice::Thaayam => 0,
        }
    }

    fn seats(self) -> &'static [&'static str] {
        match self {
            GameChoice::Tama => &["White", "Black"],
            _ => &["South", "West", "North", "East"],
        }
    }
}

impl fmt::Display for GameChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a seat chooses its moves (see the crate documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agent {
    /// A uniformly random legal move.
    Random,
    /// The best immediate material (Tama), squeeze (Odnocvetnie) or race progress (Thaayam).
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
    /// The game.
    pub game: GameChoice,
    /// Number of games.
    pub games: u32,
    /// The seed: the same seed (and the rest of the configuration) gives the same bytes.
    pub seed: u64,
    /// Number of players: Tama 2, Odnocvetnie 4, Thaayam 2–4. `None`: the game's number
    /// (Thaayam: a mix of 2, 3 and 4).
    pub players: Option<u8>,
    /// The agent of every seat; `None`: each seat of each game draws one (see the crate
    /// documentation).
    pub agent: Option<Agent>,
    /// Ply cap (Thaayam: turns); `None`: [`GameChoice::default_max_plies`].
    pub max_plies: Option<u32>,
    /// Search depth in plies for the `search` agent; `None`:
    /// [`GameChoice::default_search_depth`]. Must be 1 to 6.
    pub search_depth: Option<u32>,
    /// The `Event` tag value.
    pub event: String,
}

impl Config {
    /// One game of `game`, seed 0, default players, agents, cap and depth, event
    /// `"arbiter self-play"`.
    pub fn new(game: GameChoice) -> Config {
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
        match (self.game, self.players) {
            (_, None) | (GameChoice::Tama, Some(2)) | (GameChoice::Odnocvetnie, Some(4)) => {}
            (GameChoice::Thaayam, Some(2..=4)) => {}
            (GameChoice::Tama, Some(n)) => {
                return Err(format!("Tama is played by 2 players, not {n}"))
            }
            (GameChoice::Odnocvetnie, Some(n)) => {
                return Err(format!(
                    "Odnocvetnie Shashki is played by 4 players, not {n}"
                ))
            }
            (GameChoice::Thaayam, Some(n)) => {
                return Err(format!("Thaayam is played by 2, 3 or 4 players, not {n}"))
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
/// rayon thread pool, each with its own generator, and written in order). An invalid configuration (see [`Config::check`]) is an
/// [`io::ErrorKind::InvalidInput`] error and writes nothing.
pub fn generate(config: &Config, out: &mut impl Write) -> io::Result<Summary> {
    config
        .check()
        .map_err(|m| io::Error::new(io::ErrorKind::InvalidInput, m))?;
    let mut master = Rng::new(config.seed);
    let people = People::new(config.game, &mut master.fork());
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
fn play_game(config: &Config, index: u32, people: &People, rng: &mut Rng) -> Record {
    let game = config.game;
    let max_plies = config.max_plies.unwrap_or(game.default_max_plies());
    let depth = config.search_depth.unwrap_or(game.default_search_depth());
    let mut agents = [Agent::Random; 4];
    for a in &mut agents {
        *a = config.agent.unwrap_or_else(|| Agent::draw(rng));
    }
    let mut rec = Record::default();
    let mut players: Vec<(&'static str, String)> = Vec::new();
    let mut seat_tags: Vec<(&'static str, String)> = Vec::new();
    let mut play_rng = rng.fork();
    match game {
        GameChoice::Tama => {
            let names = people.pick(2, rng);
            players.push(("White", names[0].clone()));
            players.push(("Black", names[1].clone()));
            tama_play::play(
                [agents[0], agents[1]],
                max_plies,
                depth,
                &mut play_rng,
                &mut rec,
            );
        }
        GameChoice::Odnocvetnie => {
            let names = people.pick(4, rng);
            let first = if rng.chance(1, 8) {
                odnocvetnie::Side::from_index(1 + rng.below(3) as u8)
            } else {
                odnocvetnie::Side::South
            };
            if first != odnocvetnie::Side::South {
                seat_tags.push(("FirstSeat", first.letter().to_string()));
            }
            for (seat, name) in game.seats().iter().zip(names) {
                players.push((*seat, name));
            }
            odnocvetnie_play::play(agents, first, max_plies, depth, &mut play_rng, &mut rec);
        }
        GameChoice::Thaayam => {
            let n = config.players.unwrap_or_else(|| 2 + rng.below(3) as u8);
            let seats: Vec<u8> = match n {
                2 => vec![0, 2],
                3 => {
                    let left_out = rng.below(4) as u8;
                    (0..4).filter(|&s| s != left_out).collect()
                }
                _ => vec![0, 1, 2, 3],
            };
            let first_at = rng.index(seats.len());
            let letters: Vec<String> = seats
                .iter()
                .map(|&s| thaayam::seat_letter(s).to_string())
                .collect();
            seat_tags.push(("Seats", letters.join(" ")));
            if first_at != 0 {
                seat_tags.push(("First", letters[first_at].clone()));
            }
            let names = people.pick(seats.len(), rng);
            for (&s, name) in seats.iter().zip(names) {
                players.push((game.seats()[usize::from(s)], name));
            }
            let mut order = seats.clone();
            order.rotate_left(first_at);
            let mut dice = rng.fork();
            thaayam_play::play(
                &order,
                agents,
                max_plies,
                &mut dice,
                &mut play_rng,
                &mut rec,
            );
        }
    }
    let mut tags: Vec<(&'static str, String)> = vec![
        ("Event", config.event.clone()),
        ("Site", people.site.to_string()),
        ("Date", people.date(index)),
        ("Round", (index + 1).to_string()),
    ];
    if game == GameChoice::Tama {
        tags.append(&mut players);
    }
    tags.push(("Result", rec.result.clone()));
    tags.push(("Variant", game.variant().to_string()));
    tags.push(("PlyCount", rec.plies.to_string()));
    tags.append(&mut seat_tags);
    tags.append(&mut players);
    rec.tags = tags;
    rec
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

/// One file of the shipped corpus (`corpus/<game>/`): which games, made by which agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorpusFile {
    /// The game.
    pub game: GameChoice,
    /// The agent of every seat (`None`: the default mix).
    pub agent: Option<Agent>,
    /// How many games.
    pub games: u32,
    /// The seed.
    pub seed: u64,
}

impl CorpusFile {
    /// The file's path below `corpus/`, e.g. `tama/tama-search.pdn`; Thaayam files are
    /// gzip-compressed (`.pdn.gz`) to keep the corpus small.
    pub fn file_name(&self) -> String {
        let agent = self.agent.map_or("mixed", Agent::name);
        let ext = if self.game == GameChoice::Thaayam {
            "pdn.gz"
        } else {
            "pdn"
        };
        format!("{}/{}-{agent}.{ext}", self.game.name(), self.game.name())
    }
}

/// The recipe of the shipped corpus: each file is one [`generate`] call with the default
/// event, ply caps and search depths (`arbiter selfplay --game G --games N --seed S
/// [--agent A]`).
pub const CORPUS_FILES: [CorpusFile; 12] = {
    use Agent::{Greedy, Random, Search};
    use GameChoice::{Odnocvetnie, Tama, Thaayam};
    const fn file(game: GameChoice, agent: Option<Agent>, games: u32, seed: u64) -> CorpusFile {
        CorpusFile {
            game,
            agent,
            games,
            seed,
        }
    }
    [
        file(Tama, Some(Search), 300, 101),
        file(Tama, Some(Greedy), 200, 102),
        file(Tama, Some(Random), 200, 103),
        file(Tama, None, 400, 104),
        file(Odnocvetnie, Some(Search), 300, 201),
        file(Odnocvetnie, Some(Greedy), 200, 202),
        file(Odnocvetnie, Some(Random), 200, 203),
        file(Odnocvetnie, None, 400, 204),
        file(Thaayam, Some(Search), 300, 301),
        file(Thaayam, Some(Greedy), 200, 302),
        file(Thaayam, Some(Random), 200, 303),
        file(Thaayam, None, 400, 304),
    ]
};
