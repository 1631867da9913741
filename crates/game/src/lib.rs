//! The contract between the rules crates and the referee.
//!
//! Every game arbiter knows (Tama, Odnocvetnie Shashki, Thaayam) implements [`Game`]. The
//! referee replays PDN movetext through this trait only, so a new game is a new rules crate,
//! not a change to the referee.
//!
//! The trait works on *plies*: one player's whole turn. For the draughts games a ply is one
//! movetext token (`c3xc5xe5`); for Thaayam it is a seat token followed by its series and
//! actions (`S [1 4 2] in c1+4+2`). [`Game::starts_ply`] tells the referee where a ply begins.
#![deny(missing_docs)]

use std::fmt;

/// What kind of problem a diagnostic reports. The string form (`as_str`) is the stable code
/// shown to users and written in JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// The record is not well-formed PDN at this point.
    Syntax,
    /// The game could not be identified, or is not one arbiter knows.
    UnknownGame,
    /// A tag value is malformed (warning unless it prevents replay).
    BadTag,
    /// No legal move matches the token.
    IllegalMove,
    /// A capture that takes fewer pieces than the majority rule demands.
    NonMaximalCapture,
    /// A quiet move was played while a capture was compulsory.
    MissedCapture,
    /// A short token matches several legal moves leading to different positions.
    AmbiguousMove,
    /// The result tag or token contradicts the game, or moves follow the end.
    ResultMismatch,
    /// A position string (FEN tag or setup command) cannot be read or is not legal.
    BadFen,
    /// A move of the man locked by the previous turn (Odnocvetnie Shashki).
    LockedPiece,
    /// Throws were left unused although a play using more of them existed (Thaayam).
    UnusedThrow,
    /// A series of throws that cannot occur (Thaayam).
    BadThrowSeries,
}

impl Code {
    /// Every code, in a stable order (used for reports and documentation).
    pub const ALL: [Code; 12] = [
        Code::Syntax,
        Code::UnknownGame,
        Code::BadTag,
        Code::IllegalMove,
        Code::NonMaximalCapture,
        Code::MissedCapture,
        Code::AmbiguousMove,
        Code::ResultMismatch,
        Code::BadFen,
        Code::LockedPiece,
        Code::UnusedThrow,
        Code::BadThrowSeries,
    ];

    /// The stable kebab-case name of the code, e.g. `non-maximal-capture`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "syntax",
            Code::UnknownGame => "unknown-game",
            Code::BadTag => "bad-tag",
            Code::IllegalMove => "illegal-move",
            Code::NonMaximalCapture => "non-maximal-capture",
            Code::MissedCapture => "missed-capture",
            Code::AmbiguousMove => "ambiguous-move",
            Code::ResultMismatch => "result-mismatch",
            Code::BadFen => "bad-fen",
            Code::LockedPiece => "locked-piece",
            Code::UnusedThrow => "unused-throw",
            Code::BadThrowSeries => "bad-throw-series",
        }
    }

    /// Parses the kebab-case name back into a code.
    pub fn from_name(name: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a ply could not be accepted, as found by a rules crate.
///
/// `token` is the index, within the ply's tokens, of the token the problem is about (0 for the
/// single token of a draughts ply); the referee turns it into a file position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The diagnostic code.
    pub code: Code,
    /// A message a player understands, naming squares and pieces.
    pub message: String,
    /// Index of the offending token within the ply.
    pub token: usize,
}

impl Problem {
    /// A problem about the first token of the ply.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Problem {
            code,
            message: message.into(),
            token: 0,
        }
    }

    /// The same problem, pointing at token `index` of the ply.
    pub fn at_token(mut self, index: usize) -> Self {
        self.token = index;
        self
    }
}

/// A seat (player) of a game, as an index into [`Game::seat_names`]. Tama: 0 = White,
/// 1 = Black. Four-seat games: 0 = South, 1 = West, 2 = North, 3 = East.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub u8);

/// The result of a game, as recorded or as the rules give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One seat won; in four-seat draughts the losing seat is named too.
    Win {
        /// The winning seat.
        winner: Seat,
        /// The losing seat, where the game names one.
        loser: Option<Seat>,
    },
    /// A draw (recorded only: no game here derives a draw by rule).
    Draw,
    /// `*`: unfinished or unknown.
    Unfinished,
}

/// Facts about one ply, for statistics. Rules crates fill what applies to their game and leave
/// the rest at the default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlyFacts {
    /// The seat that played the ply.
    pub mover: u8,
    /// Pieces captured by the ply.
    pub captures: u8,
    /// Squares (the rules crate's square index) of the captured pieces.
    pub capture_squares: Vec<u8>,
    /// A piece was crowned by this ply.
    pub promotion: bool,
    /// Thaayam: every throw of the ply's series, in order.
    pub throws: Vec<u8>,
    /// Thaayam: throws lost (discarded or unusable).
    pub lost_throws: u8,
    /// Thaayam: twins declared in the ply.
    pub twins_formed: u8,
    /// Thaayam: pieces borne off in the ply.
    pub borne_off: u8,
    /// Pieces on the board after the ply, per seat (draughts: per colour; Odnocvetnie: total
    /// in slot 0).
    pub material: [u8; 4],
}

/// How moves are written when a game is converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Notation {
    /// Squares as numbers instead of algebraic names.
    pub numeric: bool,
    /// Captures with every landing square instead of the short from-to form.
    pub full_captures: bool,
}

/// A game's rules as the referee sees them.
pub trait Game {
    /// A complete game state: board, side to move, and anything the rules look back at.
    type Position: Clone;
    /// A resolved, legal ply.
    type Move: Clone;

    /// The game's name as written in the `Variant` tag by the writer, e.g. `"Tama"`.
    fn name(&self) -> &'static str;

    /// Names of the seats, indexed by [`Seat`].
    fn seat_names(&self) -> &'static [&'static str];

    /// The standard start position. `tags` lets a game honour tags such as a first-seat tag.
    fn start_position(
        &self,
        tags: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self::Position, Problem>;

    /// Reads a position string (the game's FEN dialect).
    fn parse_position(&self, text: &str) -> Result<Self::Position, Problem>;

    /// Writes a position string that [`Game::parse_position`] reads back.
    fn write_position(&self, pos: &Self::Position) -> String;

    /// The seat to move.
    fn to_move(&self, pos: &Self::Position) -> Seat;

    /// The seats taking part, in turn order starting with the first to move. Default: every
    /// seat of [`Game::seat_names`] in index order.
    fn seats_in_play(&self, pos: &Self::Position) -> Vec<Seat> {
        let _ = pos;
        (0..self.seat_names().len() as u8).map(Seat).collect()
    }

    /// True when `token` begins a new ply. Draughts: every token does.
    fn starts_ply(&self, token: &[u8]) -> bool {
        let _ = token;
        true
    }

    /// Resolves the raw tokens of one ply against the position: the legal move they describe,
    /// or the problem that prevents it. In a position where [`Game::terminal`] is `Some`, every
    /// ply must be refused (the referee then reports that the game was already over).
    fn resolve(&self, pos: &Self::Position, tokens: &[&[u8]]) -> Result<Self::Move, Problem>;

    /// Plays a resolved move.
    fn play(&self, pos: &mut Self::Position, mv: &Self::Move);

    /// The outcome the rules give if the game is over in `pos`, `None` while it goes on.
    fn terminal(&self, pos: &Self::Position) -> Option<Outcome>;

    /// Reads a result (tag value or result token); `None` if it is not a result of this game.
    fn parse_result(&self, text: &str) -> Option<Outcome>;

    /// Writes a result in the game's result-token form.
    fn write_result(&self, outcome: Outcome) -> String;

    /// The notation the game's records use unless told otherwise.
    fn default_notation(&self) -> Notation {
        Notation::default()
    }

    /// Writes a move in the requested notation (used by `convert`).
    fn write_move(&self, pos: &Self::Position, mv: &Self::Move, notation: Notation) -> String;

    /// Statistics facts of a move played from `before`.
    fn facts(&self, before: &Self::Position, mv: &Self::Move) -> PlyFacts;
}
