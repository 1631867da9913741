//! Thaayam, the race game with cowrie throws on a 5x5 board, for arbiter.
//!
//! The crate holds the rules as `docs/rules/thaayam.md` states them (rules 1–18 of the
//! project's reading), the movetext notation and position string of
//! `docs/notation.md (section Thaayam)`, and [`Thaayam`], which implements [`game::Game`] for the
//! referee. For tools and self-play it also lists the legal plays of a series
//! ([`Thaayam::plays`]) and throws series from any seeded source of random bits
//! ([`throw_series`]).
//!
//! A *turn* (one ply for the referee) is a seat letter followed by one or more *series*; a
//! series is its throws in brackets followed by its actions:
//!
//! ```
//! use game::Game;
//! use thaayam::Thaayam;
//!
//! let game = Thaayam::default();
//! let mut pos = game.parse_position("S:S=h4/N=h4").unwrap();
//! let tokens: Vec<&[u8]> = vec![b"S", b"[1 4 2]", b"in", b"c1+4+2"];
//! let turn = game.resolve(&pos, &tokens).unwrap();
//! game.play(&mut pos, &turn);
//! assert_eq!(game.write_position(&pos), "N:S=h3,e5/N=h4");
//! ```
#![deny(missing_docs)]

mod board;
mod diagram;
mod engine;
mod evaluate;
mod notation;
mod position;
mod resolve;
mod search;
mod throws;
mod trials;

use game::{
    smallvec, Board, Code, Game, Notation, Outcome, PlyFacts, Problem, Seat, SmallVec, SquarePath,
};

pub use board::{
    route_index, route_square, seat_from_letter, seat_letter, seat_name, Square, KEEP_INDEX,
    ROUTE_LEN, SEAT_LETTERS, SEAT_NAMES, TWIN_INDEX,
};
pub use engine::{Action, Advance};
pub use notation::{split_tokens, split_turns};
pub use position::Position;
pub use throws::{
    check_series, throw_from_bits, throw_series, SeriesError, ThrowSeq, Throws, MAX_SERIES, VALUES,
};
pub use trials::{ThaayamTrials, LUDII};

use engine::Run;

/// The most intermediate states [`Thaayam::plays`] visits before giving up.
pub const PLAY_LIMIT: usize = 300_000;

/// Ruleset options (all off by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Options {
    /// `ludii`: Ludii's reading. Each throw moves a unit on its own (an advance names one
    /// throw, and a unit may advance several times in a series, capturing at each stop);
    /// twins move half of each throw (a 1 cannot move them) and capture only twins; turn
    /// order is South, East, North, West.
    pub ludii: bool,
    /// `lenient-unused`: instead of rule 17's maximum, only check that no throw left unused
    /// could still be used at the end of the series.
    pub lenient_unused: bool,
}

impl Options {
    /// The options of a validated set (see [`INFO`]).
    pub fn from_options(options: &game::Options) -> Options {
        Options {
            ludii: options.has(&LUDII_OPTION),
            lenient_unused: options.has(&LENIENT_UNUSED_OPTION),
        }
    }

    /// Reads a comma-separated list of option names (`ludii`, `lenient-unused`); an empty
    /// list or `default` gives the default rules.
    pub fn parse(list: &str) -> Result<Options, game::OptionError> {
        INFO.parse_options(list).map(|o| Options::from_options(&o))
    }
}

/// Why seats cannot start a game (see [`Thaayam::start`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeatsError {
    /// A seat number above 3.
    #[error("{0} is not a seat")]
    NotASeat(u8),
    /// A seat given twice.
    #[error("{} is named twice", seat_name(*.0))]
    Twice(u8),
    /// Fewer than two seats.
    #[error("Thaayam is played by two, three or four players")]
    Count,
    /// Seats not in the rules' turn order from the first of them.
    #[error(
        "turn order is {}; with these seats and {} first it is {}",
        if *ludii { "South, East, North, West (ludii)" } else { "clockwise: South, West, North, East" },
        seat_name(order[0]),
        order.iter().map(|&s| seat_letter(s).to_string()).collect::<Vec<_>>().join(" ")
    )]
    TurnOrder {
        /// The `ludii` option's turn order is in force.
        ludii: bool,
        /// The seats in the turn order from the first one given (never empty).
        order: Vec<u8>,
    },
}

/// The values a throw can take and their probabilities with four fair cowries.
pub static THROWS: game::Chance = game::Chance {
    name: "throw",
    values: &[1, 2, 3, 4, 8],
    probabilities: &[4.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0, 1.0 / 16.0],
};

/// Throws left unused although a play using more of them existed: Thaayam's own code.
pub const UNUSED_THROW: game::Code = game::Code::Game(&game::CodeInfo {
    name: "unused-throw",
    help: "Thaayam: throws left unused although a play using more of them existed (rule 17)",
    suggested: Some("a play that uses more of the throws"),
});

/// A series of throws that cannot occur: Thaayam's own code.
pub const BAD_THROW_SERIES: game::Code = game::Code::Game(&game::CodeInfo {
    name: "bad-throw-series",
    help: "Thaayam: a throw value or series shape that cannot occur, or a missing or unearned extra series",
    suggested: None,
});

/// The slot of [`game::PlyFacts::counters`] that counts the twins a ply declares.
pub const TWINS_FORMED: usize = 0;

/// The `ludii` ruleset option (see [`Options::ludii`]).
pub const LUDII_OPTION: game::RuleOption = game::RuleOption {
    name: "ludii",
    help: "Ludii's reading: each throw moves a unit on its own, twins halve each throw, turn order S E N W",
};

/// The `lenient-unused` ruleset option (see [`Options::lenient_unused`]).
pub const LENIENT_UNUSED_OPTION: game::RuleOption = game::RuleOption {
    name: "lenient-unused",
    help: "only check that no lost throw could still be used at the end of the series",
};

/// Thaayam in the game registry.
pub static INFO: game::GameInfo = game::GameInfo {
    id: "thaayam",
    label: "Thaayam",
    variant_tag: "Thaayam",
    aliases: &[],
    game_types: &[],
    options: &[LUDII_OPTION, LENIENT_UNUSED_OPTION],
    seat_names: &["South", "West", "North", "East"],
    numeric_squares: false,
    profile: game::Profile {
        two_sides: false,
        shared_pieces: false,
        chance: Some(&THROWS),
        counters: &[game::Counter {
            id: "twins",
            noun: "twins",
            title: "Twins formed per game",
            axis: "twins declared in the game",
            caption: "Twins declared, per game.",
            row: "Twins per game",
        }],
        board: game::BoardShape {
            files: 5,
            ranks: 5,
            style: game::BoardStyle::Plain,
        },
    },
    codes: &[UNUSED_THROW, BAD_THROW_SERIES],
    claims: &[],
};

/// The actions of one series ([`Series::actions`]).
pub type Actions = SmallVec<[Action; 4]>;

/// The series of one turn ([`Turn::series`]).
pub type SeriesList = SmallVec<[Series; 1]>;

/// The throws and actions of one series, as played.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Series {
    /// Every throw of the series in the order thrown, discarded and lost throws included.
    pub throws: ThrowSeq,
    /// The actions in the order played (lost-throw notes `~4` are not kept: they are derived).
    /// Held inline up to four, which covers nearly every series: resolving a turn allocates
    /// nothing in the common case.
    pub actions: Actions,
}

impl Series {
    /// A series of no throws and no actions.
    pub const EMPTY: Series = Series {
        throws: ThrowSeq::EMPTY,
        actions: Actions::new_const(),
    };
}

/// A validated turn: the seat and its series (the first, then the extra series earned by
/// captures). This is [`Game::Move`] for Thaayam.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The seat that plays (0 South, 1 West, 2 North, 3 East).
    pub seat: u8,
    /// The series, in order (the first held inline: most turns have only it).
    pub series: SeriesList,
}

/// One legal play of a series, as listed by [`Thaayam::plays`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Play {
    /// The series: its throws and the actions of this play.
    pub series: Series,
    /// The position after the series (the same seat to move if it owes an extra series).
    pub after: Position,
    /// Capturing moves in the play (each earns an extra series).
    pub captures: u8,
    /// Throws used.
    pub used: u8,
    /// Throws lost: discarded ones (in the order thrown) and then unused ones.
    pub lost: Throws,
    /// The play in action notation, lost throws included (`in c1+4 ~2`).
    pub text: String,
}

/// What one series did, as [`Thaayam::apply_series`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SeriesReport {
    /// Throws discarded by rule 6.
    pub discarded: u8,
    /// Throws used.
    pub used: u8,
    /// Throws left unused (after the discarded ones).
    pub unused: u8,
    /// Capturing moves.
    pub captures: u8,
    /// Enemy pieces sent home.
    pub sent_home: u8,
    /// Twins declared.
    pub twins: u8,
    /// Pieces borne off.
    pub borne_off: u8,
    /// The mover bore off its fourth piece.
    pub won: bool,
}

/// The Thaayam rules with their options. Implements [`game::Game`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Thaayam {
    /// The ruleset options.
    pub options: Options,
}

impl Thaayam {
    /// The rules with these options.
    pub fn new(options: Options) -> Thaayam {
        Thaayam { options }
    }

    /// The rules named by a `Rules` tag value or `--rules` argument, e.g. `"ludii"`.
    pub fn with_rules(rules: &str) -> Result<Thaayam, game::OptionError> {
        Options::parse(rules).map(Thaayam::new)
    }

    /// The start position: all pieces in hand for `seats` (seat indices, 2 to 4 of them,
    /// in turn order), the first one to move. The order must follow the rules' turn order.
    pub fn start(&self, seats: &[u8]) -> Result<Position, SeatsError> {
        let mut mask = 0u8;
        for &s in seats {
            if s > 3 {
                return Err(SeatsError::NotASeat(s));
            }
            if mask & (1 << s) != 0 {
                return Err(SeatsError::Twice(s));
            }
            mask |= 1 << s;
        }
        if seats.len() < 2 {
            return Err(SeatsError::Count);
        }
        let pos = Position::start(mask, seats[0]);
        for k in 0..seats.len() {
            let next = self.next_seat(&pos, seats[k]);
            if next != seats[(k + 1) % seats.len()] {
                return Err(SeatsError::TurnOrder {
                    ludii: self.options.ludii,
                    order: self.turn_order(&pos, seats[0]),
                });
            }
        }
        Ok(pos)
    }

    /// The seat that plays after `seat` (rule 7, or `ludii`'s order).
    pub fn next_seat(&self, pos: &Position, seat: u8) -> u8 {
        engine::next_seat(pos, seat, self.options.ludii)
    }

    /// The seats in play in turn order, starting with `first`.
    pub fn turn_order(&self, pos: &Position, first: u8) -> Vec<u8> {
        let mut order = vec![first];
        let mut s = first;
        for _ in 0..3 {
            s = self.next_seat(pos, s);
            if s == first {
                break;
            }
            order.push(s);
        }
        order
    }

    /// The greatest number of `throws` that the seat to move can use in a series starting
    /// in `pos` (rule 17; discarded throws never count).
    pub fn max_throws(&self, pos: &Position, throws: &[u8]) -> Result<u32, Problem> {
        let seq =
            ThrowSeq::new(throws).map_err(|e| Problem::new(BAD_THROW_SERIES, e.to_string()))?;
        let (run, _) = Run::begin(pos.clone(), &seq, self.options.ludii);
        let side = &pos.sides[usize::from(pos.to_move)];
        Ok(search::best_play(side, pos.to_move, run.left, self.options.ludii, false).0)
    }

    /// Every legal play of one series of `throws` (in the order thrown) for the seat to
    /// move: the plays that use the greatest number of throws (rule 17; with
    /// `lenient-unused`, the plays after which no throw left can be used). Plays that end
    /// in the same position with the same number of capturing moves count once (the first
    /// found is shown). Sorted by their text.
    pub fn plays(&self, pos: &Position, throws: &[u8]) -> Result<Vec<Play>, Problem> {
        let seq =
            ThrowSeq::new(throws).map_err(|e| Problem::new(BAD_THROW_SERIES, e.to_string()))?;
        if let Some(w) = pos.winner() {
            return Err(Problem::new(
                Code::ResultMismatch,
                format!(
                    "the game is over: {} has borne off all four pieces",
                    seat_name(w)
                ),
            ));
        }
        let (run, discarded) = Run::begin(pos.clone(), &seq, self.options.ludii);
        let found =
            search::all_plays(&run, self.options.lenient_unused, PLAY_LIMIT).ok_or_else(|| {
                Problem::new(
                    Code::IllegalMove,
                    format!(
                        "more than {PLAY_LIMIT} intermediate positions: too many plays to list"
                    ),
                )
            })?;
        let discarded_values = &seq.as_slice()[..discarded];
        let mut plays: Vec<Play> = found
            .into_iter()
            .map(|(actions, end)| {
                let seat = end.seat;
                let mut text = String::new();
                notation::write_actions(
                    &mut text,
                    seat,
                    &actions,
                    false,
                    Some((discarded_values, end.left)),
                );
                let mut lost = end.left;
                for &v in discarded_values {
                    let _ = lost.add(v);
                }
                let (captures, used) = (end.captures, end.used);
                Play {
                    series: Series {
                        throws: seq,
                        actions: Actions::from_vec(actions),
                    },
                    after: end.finish(self.options.ludii),
                    captures,
                    used,
                    lost,
                    text,
                }
            })
            .collect();
        plays.sort_by(|a, b| a.text.cmp(&b.text));
        Ok(plays)
    }

    /// The lines of `arbiter moves`: [`Thaayam::plays`] as text, one play per line.
    pub fn moves(&self, pos: &Position, throws: &[u8]) -> Result<Vec<String>, Problem> {
        Ok(self
            .plays(pos, throws)?
            .into_iter()
            .map(|p| p.text)
            .collect())
    }

    /// Plays one series for the seat to move, checking every action (not rule 17: use
    /// [`Thaayam::plays`] or [`Game::resolve`] for that). On error `pos` is unchanged.
    pub fn apply_series(
        &self,
        pos: &mut Position,
        series: &Series,
    ) -> Result<SeriesReport, Problem> {
        let mut next = pos.clone();
        let report = self.run_series(&mut next, series, true)?;
        *pos = next;
        Ok(report)
    }

    /// Plays a series already validated, in place, without checking it again (see
    /// [`engine::replay_series`]).
    pub(crate) fn play_series(&self, pos: &mut Position, series: &Series) {
        engine::replay_series(
            pos,
            &series.throws,
            &series.actions,
            self.options.ludii,
            |_| {},
        );
    }

    /// Plays `series` on `pos` and ends it. With `strict`, stops at the first action that
    /// does not apply (`pos` is then left mid-series); otherwise skips such actions.
    fn run_series(
        &self,
        pos: &mut Position,
        series: &Series,
        strict: bool,
    ) -> Result<SeriesReport, Problem> {
        let (mut run, discarded) = Run::begin(pos, &series.throws, self.options.ludii);
        let mut report = SeriesReport {
            discarded: discarded as u8,
            ..SeriesReport::default()
        };
        for (k, a) in series.actions.iter().enumerate() {
            match run.apply(a) {
                Ok(_) => match a {
                    Action::Twins => report.twins += 1,
                    Action::BearOff => report.borne_off += 1,
                    _ => {}
                },
                Err(why) if strict => {
                    let mut tok = String::new();
                    notation::write_action(&mut tok, run.seat, a, false);
                    return Err(Problem::new(
                        Code::IllegalMove,
                        resolve::explain(why, &run, tok.as_bytes()),
                    )
                    .at_token(k));
                }
                Err(_) => {}
            }
        }
        report.used = run.used;
        report.unused = run.left.len() as u8;
        report.captures = run.captures;
        report.sent_home = run.sent_home;
        report.won = run.won;
        run.finish(self.options.ludii);
        Ok(report)
    }

    /// Writes a turn: `S [1 4 2] in c1+4+2`. Captures are marked (`xd2`); with `full`,
    /// every arrival (`-e2`) and every lost throw (`~4`) is written too. `pos` is the
    /// position before the turn.
    pub fn write_turn(&self, pos: &Position, turn: &Turn, full: bool) -> String {
        let mut out = String::with_capacity(32);
        self.push_turn(&mut out, pos, turn, full);
        out
    }

    /// Appends [`Thaayam::write_turn`] to `out`.
    pub fn push_turn(&self, out: &mut String, pos: &Position, turn: &Turn, full: bool) {
        self.push_turn_seeing(out, pos, turn, full, |_, _| {});
    }

    /// [`Thaayam::push_turn`], also showing `seen` every action that applies, as applied
    /// (an advance with its arrival and captures), with the mover's seat.
    fn push_turn_seeing(
        &self,
        out: &mut String,
        pos: &Position,
        turn: &Turn,
        full: bool,
        mut seen: impl FnMut(u8, &Action),
    ) {
        // The actions' writer looks back only as far as this turn's first character.
        out.push(notation::seat_token(turn.seat));
        let mut cur = pos.clone();
        for s in &turn.series {
            out.push(' ');
            notation::write_throws(out, &s.throws);
            let (mut run, discarded) = Run::begin(&mut cur, &s.throws, self.options.ludii);
            let mut done = Vec::with_capacity(s.actions.len());
            for a in &s.actions {
                done.push(match run.apply(a) {
                    Ok(applied) => {
                        seen(run.seat, &applied);
                        applied
                    }
                    Err(_) => *a,
                });
            }
            let lost = full.then(|| (&s.throws.as_slice()[..discarded], run.left));
            out.push(' ');
            notation::write_actions(out, turn.seat, &done, full, lost);
            if out.ends_with(' ') {
                out.pop();
            }
            run.finish(self.options.ludii);
        }
    }

    fn seats_from_tags(&self, tags: &dyn Fn(&str) -> Option<String>) -> Result<Position, Problem> {
        let bad = |m: String| Problem::new(Code::BadTag, m);
        let letter = |word: &str| -> Option<u8> {
            let w = word.to_ascii_lowercase();
            SEAT_NAMES
                .iter()
                .position(|n| n.to_ascii_lowercase() == w || n[..1].to_ascii_lowercase() == w)
                .map(|i| i as u8)
        };
        let mut seats: Vec<u8> = Vec::with_capacity(4);
        if let Some(list) = tags("Seats") {
            for word in list
                .split(|c: char| c.is_whitespace() || c == ',' || c == '-')
                .filter(|w| !w.is_empty())
            {
                let s = letter(word).ok_or_else(|| {
                    bad(format!("Seats \"{list}\": \"{word}\" is not a seat (S, W, N, E or South, West, North, East)"))
                })?;
                seats.push(s);
            }
        } else {
            for (i, name) in SEAT_NAMES.iter().enumerate() {
                if tags(name).is_some_and(|v| !v.trim().is_empty()) {
                    seats.push(i as u8);
                }
            }
            if seats.len() < 2 {
                seats = vec![0, 2];
            }
            // Put them in turn order from the first of them.
            let pos = Position::start(seats.iter().fold(0, |m, &s| m | 1 << s), seats[0]);
            seats = self.turn_order(&pos, seats[0]);
        }
        if let Some(first) = tags("First") {
            let f = letter(first.trim())
                .ok_or_else(|| bad(format!("First \"{first}\" is not a seat (S, W, N or E)")))?;
            let at = seats
                .iter()
                .position(|&s| s == f)
                .ok_or_else(|| bad(format!("First \"{first}\": {} does not play", seat_name(f))))?;
            seats.rotate_left(at);
        }
        self.start(&seats).map_err(|m| bad(format!("Seats: {m}")))
    }
}

impl Game for Thaayam {
    type Position = Position;
    type Move = Turn;

    fn name(&self) -> &'static str {
        "Thaayam"
    }

    fn seat_names(&self) -> &'static [&'static str] {
        &SEAT_NAMES
    }

    /// Seats and first player from `[Seats "S N"]` (turn order, first listed starts) and
    /// `[First "N"]`; without a `Seats` tag, the seats that have a player tag (`[South
    /// "…"]`, …), or South and North.
    fn start_position(&self, tags: &dyn Fn(&str) -> Option<String>) -> Result<Position, Problem> {
        self.seats_from_tags(tags)
    }

    fn parse_position(&self, text: &str) -> Result<Position, Problem> {
        position::parse(text).map_err(|e| Problem::new(Code::BadFen, e.to_string()))
    }

    fn write_position(&self, pos: &Position) -> String {
        position::write(pos)
    }

    fn write_position_into(&self, pos: &Position, out: &mut String) {
        position::write_into(pos, out);
    }

    /// See `position::key`: pieces by seat, count and square, hand, keep and borne-off
    /// counts, the seat to move and the series still owed.
    fn position_key(&self, pos: &Position) -> u64 {
        position::key(pos)
    }

    fn to_move(&self, pos: &Position) -> Seat {
        Seat(pos.to_move)
    }

    /// The seats in play in turn order, starting with the seat to move in `pos`.
    fn seats_in_play(&self, pos: &Position) -> Vec<Seat> {
        self.turn_order(pos, pos.to_move)
            .into_iter()
            .map(Seat)
            .collect()
    }

    fn starts_ply(&self, token: &[u8]) -> bool {
        notation::is_seat(token)
    }

    fn resolve(&self, pos: &Position, tokens: &[&[u8]]) -> Result<Turn, Problem> {
        resolve::resolve(self, pos, tokens)
    }

    /// The turn is played while it is resolved: the position it leaves is the one after it.
    fn resolve_and_play(
        &self,
        pos: &Position,
        tokens: &[&[u8]],
        after: &mut Position,
    ) -> Result<Turn, Problem> {
        resolve::resolve_into(self, pos, tokens, after)
    }

    fn play(&self, pos: &mut Position, mv: &Turn) {
        for s in &mv.series {
            self.play_series(pos, s);
        }
    }

    fn terminal(&self, pos: &Position) -> Option<Outcome> {
        pos.winner().map(|w| Outcome::Win {
            winner: Seat(w),
            loser: None,
        })
    }

    fn parse_result(&self, text: &str) -> Option<Outcome> {
        match text.trim().as_bytes() {
            b"*" => Some(Outcome::Unfinished),
            b"1/2-1/2" => Some(Outcome::Draw),
            [l, b'+'] => seat_from_letter(*l).map(|s| Outcome::Win {
                winner: Seat(s),
                loser: None,
            }),
            _ => None,
        }
    }

    fn write_result(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Win { winner, .. } => format!("{}+", seat_letter(winner.0)),
            Outcome::Draw => "1/2-1/2".to_string(),
            Outcome::Unfinished => "*".to_string(),
        }
    }

    /// A win is only ever made by bearing off all four pieces (rule 18): a record that names
    /// a winner before that is wrong (resignations are recorded as `*`).
    fn check_recorded(&self, pos: &Position, recorded: Outcome) -> Result<(), Problem> {
        match recorded {
            Outcome::Win { winner, .. } if pos.winner() != Some(winner.0) => Err(Problem::new(
                Code::ResultMismatch,
                format!(
                    "the record gives {} as the winner, but {} has borne off {} of its 4 pieces \
                     and the game is not over; a Thaayam game is won only by bearing off all \
                     four (a game stopped early is recorded as *)",
                    self.write_result(recorded),
                    seat_name(winner.0),
                    pos.off(winner.0)
                ),
            )),
            _ => Ok(()),
        }
    }

    /// `notation.full_captures` writes arrivals and lost throws too; `numeric` has no
    /// meaning for Thaayam and is ignored.
    fn write_move(&self, pos: &Position, mv: &Turn, notation: Notation) -> String {
        self.write_turn(pos, mv, notation.full_captures)
    }

    fn write_move_into(&self, pos: &Position, mv: &Turn, notation: Notation, out: &mut String) {
        self.push_turn(out, pos, mv, notation.full_captures);
    }

    /// `captures` counts enemy *pieces* sent home (a twin counts two);
    /// `capture_squares` holds the square of each capturing move; `lost_throws` counts
    /// discarded and unused throws; `material` counts each seat's pieces on the board
    /// (route and keep) after the turn.
    fn facts(&self, before: &Position, mv: &Turn) -> PlyFacts {
        let mut facts = PlyFacts::default();
        self.play_with_facts(&mut before.clone(), mv, &mut facts);
        facts
    }

    /// The turn is replayed once: the facts are gathered while the position changes.
    fn play_with_facts(&self, pos: &mut Position, mv: &Turn, f: &mut PlyFacts) {
        f.mover = mv.seat;
        let thrown: usize = mv.series.iter().map(|s| s.throws.as_slice().len()).sum();
        f.throws.reserve_exact(thrown);
        for s in &mv.series {
            f.throws.extend_from_slice(s.throws.as_slice());
            let done =
                engine::replay_series(pos, &s.throws, &s.actions, self.options.ludii, |to| {
                    f.capture_squares.push((to.file(), to.rank()))
                });
            f.counters[TWINS_FORMED] += done.twins;
            f.captures = f.captures.saturating_add(done.sent_home);
            let lost = usize::from(done.discarded) + usize::from(done.unused);
            f.lost_throws = f.lost_throws.saturating_add(lost as u8);
        }
        for (s, m) in f.material.iter_mut().enumerate() {
            *m = pos.on_board(s as u8);
        }
    }

    /// The 5×5 board with the keep and the palaces marked safe; each seat's singles and
    /// twins (stacks counted, the keep's pieces on c3); notes on the pieces in hand, in the
    /// keep and borne off, and on extra series owed.
    fn board(&self, pos: &Position) -> Board {
        diagram::board(pos)
    }

    /// One path per advance of the turn, along the mover's route (start, every corner, the
    /// arrival); a piece entered is its palace alone.
    fn move_paths(&self, pos: &Position, mv: &Turn) -> Vec<SquarePath> {
        let mut out = Vec::new();
        let mut cur = pos.clone();
        for s in &mv.series {
            diagram::series_paths(
                &mut cur,
                &s.throws,
                &s.actions,
                self.options.ludii,
                &mut out,
            );
        }
        out
    }
}

impl game::Explore for Thaayam {
    fn needs_chance(&self) -> bool {
        true
    }

    /// Race progress, extra series owed and the danger of being captured.
    fn evaluate(&self, pos: &Position, seat: Seat) -> i32 {
        evaluate::evaluate(pos, seat.0)
    }

    /// Two, three or four players.
    fn player_counts(&self) -> std::ops::RangeInclusive<u8> {
        2..=4
    }

    /// Two players sit South and North, three leave out a random seat; a random seat
    /// starts. Written as `Seats` (in turn order from South) and `First` (when it is not
    /// the first listed).
    fn seating(&self, players: u8, random: &mut dyn FnMut() -> u32) -> Vec<(&'static str, String)> {
        let seats: Vec<u8> = match players {
            2 => vec![0, 2],
            3 => {
                let left_out = game::below(random, 4) as u8;
                (0..4).filter(|&s| s != left_out).collect()
            }
            _ => vec![0, 1, 2, 3],
        };
        let letters: Vec<String> = seats.iter().map(|&s| seat_letter(s).to_string()).collect();
        let first = game::below(random, seats.len() as u32) as usize;
        let mut tags = vec![("Seats", letters.join(" "))];
        if first != 0 {
            tags.push(("First", letters[first].clone()));
        }
        tags
    }

    /// One series of fair shells (see [`throw_series`]).
    fn throw(&self, _pos: &Position, random: &mut dyn FnMut() -> u32) -> Vec<u8> {
        throw_series(random).as_slice().to_vec()
    }

    /// The series of one or two throws, with their chances.
    fn outcomes(&self, _pos: &Position) -> Vec<(Vec<u8>, f64)> {
        evaluate::likely_series()
    }

    /// An extra series joins the turn.
    fn join_moves(&self, turn: &mut Turn, next: &Turn) -> bool {
        if turn.seat != next.seat {
            return false;
        }
        turn.series.extend(next.series.iter().cloned());
        true
    }

    /// Every legal play of one series of `throws` (see [`Thaayam::plays`]), each as a turn
    /// of that one series.
    fn legal_moves(&self, pos: &Position, throws: &[u8]) -> Result<Vec<Turn>, Problem> {
        let seat = self.to_move(pos).0;
        let plays = self.plays(pos, throws)?;
        Ok(plays
            .into_iter()
            .map(|p| Turn {
                seat,
                series: smallvec![p.series],
            })
            .collect())
    }

    /// What [`game::Explore::describe`] gives, written into `out` with no `String` per text.
    /// One replay of the turn writes its notation and finds what `describe` finds with
    /// three: the ends of the first path that goes somewhere (else of the first path) and
    /// the squares of the captures.
    fn describe_into(&self, pos: &Position, turn: &Turn, out: &mut game::TextList) {
        let mut ends = PathEnds::default();
        let mut captures: SmallVec<[Square; 4]> = SmallVec::new();
        self.push_turn_seeing(out.open(), pos, turn, false, |seat, action| {
            ends.see(seat, action);
            if let Action::Advance(a) = action {
                if a.captured > 0 && a.to != Square::KEEP {
                    captures.push(a.to);
                }
            }
        });
        out.close();
        let name = |out: &mut game::TextList, square: Option<Square>| {
            if let Some(square) = square {
                let text = out.open();
                text.push(char::from(b'a' + square.file()));
                text.push(char::from(b'1' + square.rank()));
            }
            out.close();
        };
        let (from, to) = ends.chosen().unzip();
        name(out, from);
        name(out, to);
        for square in captures {
            name(out, Some(square));
        }
    }

    fn describe(&self, pos: &Position, turn: &Turn) -> game::MoveInfo {
        let name = |(file, rank): (u8, u8)| format!("{}{}", char::from(b'a' + file), rank + 1);
        let paths = self.move_paths(pos, turn);
        let path: Vec<String> = paths
            .iter()
            .find(|p| p.len() > 1)
            .or_else(|| paths.first())
            .map(|p| p.iter().copied().map(name).collect())
            .unwrap_or_default();
        let facts = self.facts(pos, turn);
        game::MoveInfo {
            notation: self.write_turn(pos, turn, false),
            from: path.first().cloned(),
            to: path.last().cloned(),
            captured: facts.capture_squares.into_iter().map(name).collect(),
            path,
        }
    }
}

/// The ends of the path [`game::Explore::describe`] reports for a turn, found as its
/// actions are applied: the first advance that leaves its square, else the first path of
/// all (an advance that stays, or an entry at the palace).
#[derive(Default)]
struct PathEnds {
    first: Option<(Square, Square)>,
    moving: Option<(Square, Square)>,
}

impl PathEnds {
    fn see(&mut self, seat: u8, action: &Action) {
        let ends = match action {
            Action::Advance(a) => {
                let moves = route_index(seat, a.to) > route_index(seat, a.from);
                if moves && self.moving.is_none() {
                    self.moving = Some((a.from, a.to));
                }
                (a.from, if moves { a.to } else { a.from })
            }
            Action::Enter => {
                let palace = route_square(seat, 0);
                (palace, palace)
            }
            Action::Twins | Action::BearOff => return,
        };
        self.first.get_or_insert(ends);
    }

    fn chosen(&self) -> Option<(Square, Square)> {
        self.moving.or(self.first)
    }
}

/// The search's hooks: the defaults (expectimax over the series of throws), over this game's
/// own evaluation (race progress and danger).
impl game::Engine for Thaayam {}
