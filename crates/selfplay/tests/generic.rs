//! The one self-play (`selfplay::Generic`) over the contract alone: every game of the
//! registry with every agent replays clean through the referee, with tags from the game's
//! description; and a small game of chance defined here, which nothing else knows, is played
//! by the same code with its own evaluation and throws.

mod common;

use game::{
    Board, BoardPiece, BoardStyle, Code, Explore, Game, GameInfo, Notation, Outcome, PlyFacts,
    Problem, Profile, Seat,
};
use selfplay::{generate, Agent, Config, Generic, Player, Rng, Summary};

fn leak(player: impl Player + 'static) -> &'static dyn Player {
    Box::leak(Box::new(player))
}

fn run(player: &'static dyn Player, agent: Option<Agent>, games: u32, seed: u64) -> String {
    let mut config = Config::new(player);
    config.games = games;
    config.seed = seed;
    config.agent = agent;
    config.search_depth = Some(if player_needs_chance(player) { 1 } else { 2 });
    config.max_plies = Some(80);
    let mut out = Vec::new();
    let summary: Summary = generate(&config, &mut out).expect("generate");
    assert_eq!(summary.games, games);
    assert_eq!(summary.bytes, out.len() as u64);
    String::from_utf8(out).expect("UTF-8")
}

fn player_needs_chance(player: &dyn Player) -> bool {
    player.info().profile.chance.is_some()
}

/// Replays `text` through the referee: no diagnostic, and the recorded result is the rules'
/// one where the game is over. Returns (games, ended by rule).
fn referee_clean(text: &str, info: &GameInfo) -> (u32, u32) {
    let mut reader = pdn::Reader::new(text.as_bytes());
    let mut referee = referee::Referee::new(games::games(), referee::Settings::default());
    let (mut n, mut by_rule) = (0, 0);
    while let Some(report) = reader.read_game(&mut referee).expect("read") {
        n += 1;
        assert!(
            report.diagnostics.is_empty(),
            "{} game {n}: {:?}",
            info.id,
            report.diagnostics
        );
        assert_eq!(report.plies, report.plies_written, "{} game {n}", info.id);
        match report.terminal {
            Some(t) => {
                assert_eq!(report.recorded, Some(t), "{} game {n}", info.id);
                by_rule += 1;
            }
            // Stopped: at the cap (`*`), or after a long run of king moves (two-sided games
            // as an agreed draw).
            None => match report.recorded {
                Some(Outcome::Unfinished) => {}
                Some(Outcome::Draw) if info.profile.two_sides => {}
                other => panic!("{} game {n}: stopped game recorded as {other:?}", info.id),
            },
        }
    }
    (n, by_rule)
}

/// The tags of every record: Variant from the description, a player tag for every seat in
/// play under the seat's name, White before Black in a two-sided game, PlyCount before the
/// players of other games.
fn check_tags(text: &str, info: &GameInfo) {
    for rec in pdn::read_all(text.as_bytes()) {
        assert_eq!(rec.tag("Variant"), Some(info.variant_tag));
        let players = info
            .seat_names
            .iter()
            .filter(|s| rec.tag(s).is_some_and(|v| !v.is_empty()))
            .count();
        assert!(players >= 2, "{}: {players} player tags", info.id);
        let names: Vec<&str> = rec.tags.iter().map(|t| t.name.as_str()).collect();
        let at = |n: &str| names.iter().position(|&t| t == n);
        if info.profile.two_sides {
            assert!(
                at("White") < at("Black") && at("Black") < at("Result"),
                "{names:?}"
            );
        } else {
            assert!(at("PlyCount") < info.seat_names.iter().filter_map(|s| at(s)).min());
        }
    }
}

#[test]
fn every_registry_game_replays_clean_with_every_agent() {
    let games = games::games();
    for info in games.registry().games() {
        let player = games.entry(info).expect("entry").player();
        assert_eq!(player.info().id, info.id);
        assert_eq!(player.check(), Ok(()), "{}", info.id);
        for (k, agent) in [
            Some(Agent::Random),
            Some(Agent::Greedy),
            Some(Agent::Search),
            None,
        ]
        .into_iter()
        .enumerate()
        {
            let text = run(player, agent, 2, 40 + k as u64);
            let (n, _) = referee_clean(&text, info);
            assert_eq!(n, 2, "{} {agent:?}", info.id);
            check_tags(&text, info);
        }
    }
}

#[test]
fn generic_games_are_reproducible_and_stop_at_the_cap() {
    let games = games::games();
    for info in games.registry().games() {
        let player = games.entry(info).expect("entry").player();
        let mut config = Config::new(player);
        config.games = 2;
        config.seed = 8;
        config.search_depth = Some(1);
        config.max_plies = Some(30);
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        generate(&config, &mut a).expect("generate");
        generate(&config, &mut b).expect("generate");
        assert_eq!(a, b, "{}", info.id);
        config.seed = 9;
        generate(&config, &mut c).expect("generate");
        assert_ne!(a, c, "{}", info.id);

        config.max_plies = Some(7);
        config.agent = Some(Agent::Random);
        let mut out = Vec::new();
        let summary = generate(&config, &mut out).expect("generate");
        assert!(summary.longest <= 7, "{}", info.id);
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(referee_clean(&text, info).0, 2, "{}", info.id);
    }
}

#[test]
fn bad_configurations_are_refused_with_the_game_s_counts() {
    let games = games::games();
    for info in games.registry().games() {
        let player = games.entry(info).expect("entry").player();
        let counts = player.players();
        let mut config = Config::new(player);
        config.players = Some(counts.end() + 1);
        let e = config.check().unwrap_err().to_string();
        assert!(e.contains(info.label) && e.contains("players"), "{e}");
        config.players = Some(*counts.start());
        assert!(config.check().is_ok(), "{}", info.id);
    }
}

// A game nobody else knows: a race of one piece per seat on a track of `LENGTH` squares,
// each move an advance by the throw of a three-sided die (or one less), a piece landing on
// the other one sending it back to the start; the first to reach the end wins.

const LENGTH: u8 = 7;
const SEATS: [&str; 2] = ["South", "North"];

static RACE_INFO: GameInfo = GameInfo {
    id: "race",
    label: "Race",
    variant_tag: "Race",
    aliases: &[],
    game_types: &[],
    options: &[],
    seat_names: &SEATS,
    numeric_squares: false,
    profile: Profile {
        two_sides: false,
        shared_pieces: false,
        chance: Some(&game::Chance {
            name: "throw",
            values: &[1, 2, 3],
            probabilities: &[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0],
        }),
        board: game::BoardShape {
            files: LENGTH + 1,
            ranks: 1,
            style: BoardStyle::Plain,
        },
    },
    claims: &[],
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RacePos {
    at: [u8; 2],
    to_move: u8,
}

/// One advance: the steps taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Steps(u8);

#[derive(Debug, Clone, Copy, Default)]
struct Race;

impl Game for Race {
    type Position = RacePos;
    type Move = Steps;

    fn name(&self) -> &'static str {
        "Race"
    }
    fn seat_names(&self) -> &'static [&'static str] {
        &SEATS
    }
    fn start_position(&self, _: &dyn Fn(&str) -> Option<String>) -> Result<RacePos, Problem> {
        Ok(RacePos {
            at: [0, 0],
            to_move: 0,
        })
    }
    fn parse_position(&self, text: &str) -> Result<RacePos, Problem> {
        let bad = || Problem::new(Code::BadFen, format!("not a race position: {text}"));
        let v: Vec<u8> = text
            .split(',')
            .map(|p| p.trim().parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        match v[..] {
            [a, b, m] if a <= LENGTH && b <= LENGTH && m < 2 => Ok(RacePos {
                at: [a, b],
                to_move: m,
            }),
            _ => Err(bad()),
        }
    }
    fn write_position(&self, pos: &RacePos) -> String {
        format!("{},{},{}", pos.at[0], pos.at[1], pos.to_move)
    }
    fn to_move(&self, pos: &RacePos) -> Seat {
        Seat(pos.to_move)
    }
    fn resolve(&self, pos: &RacePos, tokens: &[&[u8]]) -> Result<Steps, Problem> {
        let illegal = |m: &str| Problem::new(Code::IllegalMove, m.to_string());
        if self.terminal(pos).is_some() {
            return Err(illegal("the race is over"));
        }
        // `from-to` with squares a1 (the start) to h1 (the end), from the mover's square.
        let [token] = tokens else {
            return Err(illegal("a move is one token"));
        };
        let text = std::str::from_utf8(token).unwrap_or("");
        let square = |t: &str| match t.as_bytes() {
            [f @ b'a'..=b'z', b'1'] => Some(f - b'a'),
            _ => None,
        };
        let (from, to) = text
            .split_once('-')
            .and_then(|(a, b)| Some((square(a)?, square(b)?)))
            .ok_or_else(|| illegal("a move is written from-to, e.g. c1-e1"))?;
        let steps = to.wrapping_sub(from);
        let fits = to < LENGTH || (to == LENGTH && steps <= 3);
        if from != pos.at[usize::from(pos.to_move)] || !(1..=3).contains(&steps) || !fits {
            return Err(illegal(
                "the piece moves 1 to 3 squares from where it stands",
            ));
        }
        Ok(Steps(steps))
    }
    fn play(&self, pos: &mut RacePos, mv: &Steps) {
        let me = usize::from(pos.to_move);
        pos.at[me] = (pos.at[me] + mv.0).min(LENGTH);
        if pos.at[me] == pos.at[1 - me] && pos.at[me] < LENGTH {
            pos.at[1 - me] = 0;
        }
        pos.to_move = 1 - pos.to_move;
    }
    fn terminal(&self, pos: &RacePos) -> Option<Outcome> {
        (0..2).find(|&s| pos.at[s] == LENGTH).map(|s| Outcome::Win {
            winner: Seat(s as u8),
            loser: Some(Seat(1 - s as u8)),
        })
    }
    fn parse_result(&self, text: &str) -> Option<Outcome> {
        match text {
            "S+" => self.terminal(&RacePos {
                at: [LENGTH, 0],
                to_move: 1,
            }),
            "N+" => self.terminal(&RacePos {
                at: [0, LENGTH],
                to_move: 0,
            }),
            "*" => Some(Outcome::Unfinished),
            _ => None,
        }
    }
    fn write_result(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Win {
                winner: Seat(0), ..
            } => "S+".into(),
            Outcome::Win { .. } => "N+".into(),
            _ => "*".into(),
        }
    }
    fn write_move(&self, pos: &RacePos, mv: &Steps, _: Notation) -> String {
        let from = pos.at[usize::from(pos.to_move)];
        let name = |i: u8| format!("{}1", char::from(b'a' + i));
        format!("{}-{}", name(from), name((from + mv.0).min(LENGTH)))
    }
    fn facts(&self, pos: &RacePos, _: &Steps) -> PlyFacts {
        PlyFacts {
            mover: pos.to_move,
            ..PlyFacts::default()
        }
    }
    fn board(&self, pos: &RacePos) -> Board {
        let mut b = Board::new(LENGTH + 1, 1, BoardStyle::Plain, &SEATS, Seat(pos.to_move));
        for s in 0..2u8 {
            b.pieces
                .push(BoardPiece::man(pos.at[usize::from(s)], 0, Some(s)));
        }
        b
    }
}

impl Explore for Race {
    fn needs_chance(&self) -> bool {
        true
    }
    fn legal_moves(&self, pos: &RacePos, chance: &[u8]) -> Result<Vec<Steps>, Problem> {
        match chance {
            _ if self.terminal(pos).is_some() => Ok(Vec::new()),
            [d @ 1..=3] => Ok((1..=*d).rev().take(2).map(Steps).collect()),
            _ => Err(Problem::new(
                Code::BadThrowSeries,
                format!("a throw is 1, 2 or 3, not {chance:?}"),
            )),
        }
    }
    fn describe(&self, pos: &RacePos, mv: &Steps) -> game::MoveInfo {
        game::MoveInfo {
            notation: self.write_move(pos, mv, Notation::default()),
            ..game::MoveInfo::default()
        }
    }
    /// The lead over the other piece.
    fn evaluate(&self, pos: &RacePos, seat: Seat) -> i32 {
        let me = usize::from(seat.0);
        i32::from(pos.at[me]) - i32::from(pos.at[1 - me])
    }
    fn throw(&self, _: &RacePos, random: &mut dyn FnMut() -> u32) -> Vec<u8> {
        vec![1 + game::below(random, 3) as u8]
    }
    fn outcomes(&self, _: &RacePos) -> Vec<(Vec<u8>, f64)> {
        (1..=3).map(|d| (vec![d], 1.0 / 3.0)).collect()
    }
}

fn race() -> &'static dyn Player {
    leak(Generic::new(&RACE_INFO, Race))
}

/// Replays a race record with the toy's rules: the plies read back, and the rules' result.
fn replay_race(rec: &pdn::GameRecord) -> (u32, Option<Outcome>) {
    let mut pos = Race.start_position(&|_| None).expect("start");
    let mut plies = 0;
    for node in &rec.movetext {
        if let pdn::Node::Move(m) = node {
            let mv = Race
                .resolve(&pos, &[m.token.as_bytes()])
                .unwrap_or_else(|p| panic!("{}: {}", m.token, p.message));
            Race.play(&mut pos, &mv);
            plies += 1;
        }
    }
    (plies, Race.terminal(&pos))
}

#[test]
fn a_game_of_chance_defined_here_is_played_with_every_agent() {
    for agent in [Agent::Random, Agent::Greedy, Agent::Search] {
        let mut config = Config::new(race());
        config.games = 6;
        config.seed = 3;
        config.agent = Some(agent);
        let mut out = Vec::new();
        let summary = generate(&config, &mut out).expect("generate");
        let text = String::from_utf8(out).expect("UTF-8");
        let records = pdn::read_all(text.as_bytes());
        assert_eq!(records.len(), 6, "{text}");
        for rec in &records {
            assert!(rec.problems.is_empty(), "{:?}", rec.problems);
            assert_eq!(rec.tag("Variant"), Some("Race"));
            assert!(rec.tag("South").is_some() && rec.tag("North").is_some());
            let (plies, end) = replay_race(rec);
            assert_eq!(rec.tag("PlyCount"), Some(plies.to_string().as_str()));
            let end = end.expect("a race of seven squares ends within the cap");
            assert_eq!(rec.tag("Result"), Some(Race.write_result(end).as_str()));
        }
        assert_eq!(summary.ended_by_rule, 6);
    }
}

/// South's wins in `games` races, South playing `south`, North random.
fn south_wins(south: Agent, games: u64) -> u32 {
    let player = race();
    let agents = [south, Agent::Random, Agent::Random, Agent::Random];
    (0..games)
        .map(|seed| u32::from(selfplay::play_one(player, agents, seed).result == "S+"))
        .sum()
}

#[test]
fn the_game_s_evaluation_makes_greedy_and_search_win_more_than_random() {
    let random = south_wins(Agent::Random, 200);
    let greedy = south_wins(Agent::Greedy, 200);
    let search = south_wins(Agent::Search, 200);
    eprintln!("South wins of 200: random {random}, greedy {greedy}, search {search}");
    assert!(greedy > random + 10, "greedy {greedy}, random {random}");
    assert!(search > random + 10, "search {search}, random {random}");
}

#[test]
fn greedy_and_search_take_a_winning_move() {
    // South two squares from the end throws a 2: +2 wins, +1 does not.
    let player = Generic::new(&RACE_INFO, Race);
    let pos = Race.parse_position("5,2,0").expect("position");
    let moves = Race.legal_moves(&pos, &[2]).expect("moves");
    assert_eq!(moves, [Steps(2), Steps(1)]);
    for seed in 0..20 {
        let mut rng = Rng::new(seed);
        for (agent, depth) in [(Agent::Greedy, 1), (Agent::Search, 1), (Agent::Search, 3)] {
            let i = player.choose(agent, depth, &pos, &moves, &mut rng);
            assert_eq!(moves[i], Steps(2), "{agent:?} depth {depth}");
        }
    }
    // Sending the other piece home is worth more than a plain step: from 1 against 3 with
    // a throw of 2, +2 lands on 3.
    let pos = Race.parse_position("1,3,0").expect("position");
    let moves = Race.legal_moves(&pos, &[2]).expect("moves");
    let i = player.choose(Agent::Greedy, 1, &pos, &moves, &mut Rng::new(1));
    assert_eq!(moves[i], Steps(2));
}
