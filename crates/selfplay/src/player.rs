//! What a game's self-play provides ([`Player`]), what one game is played with ([`Table`])
//! and what comes out of it ([`Played`]).

use std::fmt;
use std::ops::RangeInclusive;

use game::{GameInfo, Seat};

use crate::names::{Names, People};
use crate::rng::Rng;
use crate::Agent;

/// The self-play of one game: how many players it takes, its defaults and its game loop.
///
/// Every game of the registry is played by [`crate::Generic`]; a game may bring a player of
/// its own. [`crate::generate`] names no game: it asks the player.
pub trait Player: Send + Sync {
    /// The game played: its seat names name the player tags, its `variant_tag` is written in
    /// the `Variant` tag.
    fn info(&self) -> &'static GameInfo;

    /// The numbers of players the game can be played by. When it allows several and the
    /// configuration asks for none, [`Player::play`] draws one per game.
    fn players(&self) -> RangeInclusive<u8>;

    /// The ply cap (a game of chance: turns) when the configuration gives none.
    fn default_max_plies(&self) -> u32;

    /// The search agent's depth in plies when the configuration gives none (0: its search
    /// agent does not search a tree, so the depth is ignored).
    fn default_search_depth(&self) -> u32;

    /// Where the invented players come from.
    fn names(&self) -> Names;

    /// Why the game cannot be played, if it cannot (default: it can).
    fn check(&self) -> Result<(), crate::ConfigError> {
        Ok(())
    }

    /// Plays one game at `table`: seats the players, plays until the rules end the game or
    /// the ply cap stops it, and writes the movetext.
    fn play(&self, table: &mut Table<'_>) -> Played;
}

impl fmt::Debug for dyn Player + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Player({})", self.info().id)
    }
}

/// Two players are the same when they play the same game (registry ids are unique).
impl PartialEq for dyn Player + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.info().id == other.info().id
    }
}

impl Eq for dyn Player + '_ {}

/// The numbers of `range`, as a sentence writes them: `2`, `2 or 3`, `2, 3 or 4`.
pub(crate) fn player_counts(range: RangeInclusive<u8>) -> String {
    let all: Vec<String> = range.map(|n| n.to_string()).collect();
    match all.split_last() {
        None => "no".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// What one game is played with: the configuration's settings, the agents drawn for it and
/// its two random generators.
///
/// The draws of one game come in a fixed order, so that an archive is the same on every
/// machine: [`Table::setup`] seats the players ([`Table::pick_players`], first seat, number of
/// players, the seating, the fork that throws a game's chance), [`Table::moves`] makes the agents'
/// choices.
pub struct Table<'a> {
    /// The agent of each seat, by seat number.
    pub agents: [Agent; 4],
    /// The ply cap (a game of chance: turns).
    pub max_plies: u32,
    /// The search agent's depth in plies.
    pub depth: u32,
    /// The number of players asked for (`None`: the game's only number, or a mix).
    pub players: Option<u8>,
    /// The generator of the seating.
    pub setup: &'a mut Rng,
    /// The generator of the agents' choices.
    pub moves: Rng,
    people: &'a People,
}

impl<'a> Table<'a> {
    pub(crate) fn new(
        agents: [Agent; 4],
        max_plies: u32,
        depth: u32,
        players: Option<u8>,
        people: &'a People,
        setup: &'a mut Rng,
        moves: Rng,
    ) -> Table<'a> {
        Table {
            agents,
            max_plies,
            depth,
            players,
            setup,
            moves,
            people,
        }
    }

    /// The agent of `seat` (seats past the fourth share the agents of the first four).
    pub fn agent(&self, seat: Seat) -> Agent {
        self.agents[usize::from(seat.0) % self.agents.len()]
    }

    /// `n` distinct players from the archive's pool (at most sixteen), drawn with
    /// [`Table::setup`].
    pub fn pick_players(&mut self, n: usize) -> Vec<String> {
        self.people.pick(n, self.setup)
    }
}

/// One game as a game loop played it, before the archive's tags are added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Played {
    /// The seats in play with their players, in the order their tags are written (each
    /// under the seat's name).
    pub players: Vec<(Seat, String)>,
    /// Tags about the seating, written after `PlyCount` (which seats play, which moves
    /// first), as [`game::Explore::seating`] gives them.
    pub seat_tags: Vec<(&'static str, String)>,
    /// Movetext units, each kept on one line: `1. c3-c4`, `d6-d5`, `2. S [1 2] in c1+2`.
    pub units: Vec<String>,
    /// The result token.
    pub result: String,
    /// Plies played (a game of chance: turns).
    pub plies: u32,
    /// True when the rules ended the game (not the ply cap or a dead run).
    pub ended_by_rule: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_counts_read_as_a_sentence() {
        assert_eq!(player_counts(2..=2), "2");
        assert_eq!(player_counts(2..=3), "2 or 3");
        assert_eq!(player_counts(2..=4), "2, 3 or 4");
        #[allow(clippy::reversed_empty_ranges)]
        let none = 3..=2;
        assert_eq!(player_counts(none), "no");
    }
}
