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

mod code;
pub mod conformance;
mod engine;
mod error;
pub mod perft_file;
mod registry;
mod shape;
mod text;
pub mod token;
pub mod zobrist;

pub use code::{Code, CodeInfo};
pub use engine::{Engine, MOVE_IDS};
pub use shape::{Claim, RecordShape, SquareStyle};
/// The inline vector [`PlyFacts`] uses (re-exported so rules crates need no dependency).
pub use smallvec::{smallvec, SmallVec};
pub use text::TextList;

pub use registry::{
    BoardShape, Chance, Counter, GameInfo, OptionError, Options, Profile, Registry, RuleOption,
    RulesError, Unidentified,
};

/// Why a ply could not be accepted, as found by a rules crate.
///
/// `token` is the index, within the ply's tokens, of the token the problem is about (0 for the
/// single token of a draughts ply); the referee turns it into a file position.
///
/// `played` and `suggested` let a diagram show the problem: the squares the ply names, and
/// one way to play that the rules accept (e.g. a maximal capture chain). Both are lists of
/// [`SquarePath`]s; both stay empty (no allocation) unless a rules crate fills
/// them, which it does on the error path only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The diagnostic code.
    pub code: Code,
    /// A message a player understands, naming squares and pieces.
    pub message: String,
    /// Index of the offending token within the ply.
    pub token: usize,
    /// The moves the ply names, as far as they could be read: one path per piece moved
    /// (draughts: the start square and the squares written after it). A ply whose notation
    /// fits several moves ([`Code::AmbiguousMove`]) names each of them: one path per move it
    /// fits, through its landing squares.
    pub played: Vec<SquarePath>,
    /// What the rules would accept instead, where the message suggests it: for a
    /// non-maximal or missed capture, one maximal chain (start and every landing square);
    /// Thaayam: the advances of a play using more throws.
    pub suggested: Vec<SquarePath>,
}

impl Problem {
    /// A problem about the first token of the ply.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Problem {
            code,
            message: message.into(),
            token: 0,
            played: Vec::new(),
            suggested: Vec::new(),
        }
    }

    /// The same problem, pointing at token `index` of the ply.
    pub fn at_token(mut self, index: usize) -> Self {
        self.token = index;
        self
    }

    /// The same problem, with the paths the ply names.
    pub fn with_played(mut self, played: Vec<SquarePath>) -> Self {
        self.played = played;
        self
    }

    /// The same problem, with the paths the rules suggest instead.
    pub fn with_suggested(mut self, suggested: Vec<SquarePath>) -> Self {
        self.suggested = suggested;
        self
    }
}

/// The squares one piece visits in a move, in order, each as `(file, rank)` counted from 0 as
/// seen from the first seat (White / South), so `(0, 0)` is a1: where it starts, then every
/// square it stops on (each landing of a capture chain; Thaayam: the corners of its route and the
/// arrival). A path of one square marks a square without a move (a piece entered).
pub type SquarePath = Vec<(u8, u8)>;

/// How the squares of a board are laid out, for drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardStyle {
    /// Every square is used; light and dark alternate, a1 dark (Tama).
    Checkered,
    /// Only the dark squares are used, a1 dark (Odnocvetnie Shashki, International).
    DarkOnly,
    /// Only the dark squares are used, a1 light: the board turned a quarter (Italian,
    /// Spanish, Portuguese).
    DarkOnlyTurned,
    /// Every square is used and looks alike (Thaayam).
    Plain,
}

/// What the rules single out on a square, for drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SquareMark {
    /// A safe square (Thaayam: the keep and the four palaces).
    Safe,
    /// The piece there may not move this turn (Odnocvetnie Shashki: the man moved in the
    /// previous turn).
    Locked,
}

/// One piece, or a stack of alike pieces of one seat, on a square of a [`Board`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardPiece {
    /// File, 0 = a.
    pub file: u8,
    /// Rank, 0 = rank 1.
    pub rank: u8,
    /// The owner (index into [`Board::seat_names`]); `None` for a piece nobody owns
    /// (Odnocvetnie Shashki, where every seat moves every piece).
    pub seat: Option<u8>,
    /// A king (Tama's tama, Odnocvetnie's damka).
    pub king: bool,
    /// How many such units stand here (Thaayam stacks; a twin counts once).
    pub count: u8,
    /// The units are twins (Thaayam: two pieces moving as one).
    pub twin: bool,
}

impl BoardPiece {
    /// A single man of `seat` on `(file, rank)`.
    pub fn man(file: u8, rank: u8, seat: Option<u8>) -> Self {
        BoardPiece {
            file,
            rank,
            seat,
            king: false,
            count: 1,
            twin: false,
        }
    }
}

/// A game-independent description of a position, as a diagram draws it: the board, the
/// pieces on it, marked squares, the seat to move and lines of text about what is off the
/// board. Made by [`Game::board`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Files (columns).
    pub files: u8,
    /// Ranks (rows).
    pub ranks: u8,
    /// How the squares are laid out.
    pub style: BoardStyle,
    /// The game's seat names, indexed by [`Seat`] (two names: the pieces are drawn light
    /// and dark; four: in the seats' colours).
    pub seat_names: &'static [&'static str],
    /// The pieces; several entries may share a square (different seats, or singles and
    /// twins of one seat).
    pub pieces: Vec<BoardPiece>,
    /// Marked squares.
    pub marks: Vec<(u8, u8, SquareMark)>,
    /// The seat to move.
    pub to_move: Seat,
    /// What the board does not show, one line each, e.g. `South: 2 in hand, 1 borne off`.
    pub notes: Vec<String>,
}

impl Board {
    /// An empty board.
    pub fn new(
        files: u8,
        ranks: u8,
        style: BoardStyle,
        seat_names: &'static [&'static str],
        to_move: Seat,
    ) -> Self {
        Board {
            files,
            ranks,
            style,
            seat_names,
            pieces: Vec::new(),
            marks: Vec::new(),
            to_move,
            notes: Vec::new(),
        }
    }

    /// The name of `seat`, or `?` if the game has no such seat.
    pub fn seat_name(&self, seat: Seat) -> &'static str {
        self.seat_names
            .get(usize::from(seat.0))
            .copied()
            .unwrap_or("?")
    }

    /// The pieces on `(file, rank)`.
    pub fn pieces_at(&self, file: u8, rank: u8) -> impl Iterator<Item = &BoardPiece> {
        self.pieces
            .iter()
            .filter(move |p| p.file == file && p.rank == rank)
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

impl Outcome {
    /// True when two results say the same: equal, or the same winner where one of them does
    /// not name the loser (`S+` agrees with `S+W-`).
    pub fn agrees_with(self, other: Outcome) -> bool {
        match (self, other) {
            (
                Outcome::Win {
                    winner: w1,
                    loser: l1,
                },
                Outcome::Win {
                    winner: w2,
                    loser: l2,
                },
            ) => w1 == w2 && (l1.is_none() || l2.is_none() || l1 == l2),
            _ => self == other,
        }
    }
}

/// How many counters of its own ([`Profile::counters`]) a game may declare.
pub const MAX_COUNTERS: usize = 4;

/// Facts about one ply, for statistics. Rules crates fill what applies to their game and leave
/// the rest at the default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlyFacts {
    /// The seat that played the ply.
    pub mover: u8,
    /// Pieces captured by the ply.
    pub captures: u8,
    /// Squares of the captured pieces, as `(file, rank)` counted from 0 as seen from the
    /// first seat (see [`SquarePath`]). Held inline up to eight (no allocation per ply).
    pub capture_squares: SmallVec<[(u8, u8); 8]>,
    /// A piece was crowned by this ply.
    pub promotion: bool,
    /// Games of chance: every throw of the ply's series, in order (inline up to sixteen).
    pub throws: SmallVec<[u8; 16]>,
    /// Games of chance: throws lost (discarded or unusable).
    pub lost_throws: u8,
    /// The game's own counts for the ply, in the order of its [`Profile::counters`]
    /// (e.g. Thaayam's twins formed); statistics sum them per game. Slots past the game's
    /// counters stay 0.
    pub counters: [u8; MAX_COUNTERS],
    /// Pieces on the board after the ply, per seat (draughts: per colour; Odnocvetnie: total
    /// in slot 0).
    pub material: [u8; 4],
}

impl PlyFacts {
    /// The facts of a ply before anything is known of it (the same as the default). A
    /// constant is copied into place whole, where a default assembled field by field on the
    /// stack and then copied makes the copy wait for those narrow stores.
    pub const BLANK: PlyFacts = PlyFacts {
        mover: 0,
        captures: 0,
        capture_squares: SmallVec::new_const(),
        promotion: false,
        throws: SmallVec::new_const(),
        lost_throws: 0,
        counters: [0; MAX_COUNTERS],
        material: [0; 4],
    };
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

    /// Appends [`Game::write_position`] to `out`. Rules crates override it to write without
    /// a `String` of their own (a table of positions writes one per ply).
    fn write_position_into(&self, pos: &Self::Position, out: &mut String) {
        out.push_str(&self.write_position(pos));
    }

    /// The position's 64-bit key (see [`zobrist`] and `docs/export.md`): the XOR of the
    /// [`zobrist::TABLE`] entries of its features. Two positions get the same key exactly when
    /// [`Game::write_position`] writes the same string for them (barring a 64-bit collision).
    /// The default, for a game that declares no features, is [`zobrist::text_key`] of the
    /// position string: right, but slower than XOR-ing the features a move changed.
    fn position_key(&self, pos: &Self::Position) -> u64 {
        zobrist::text_key(&self.write_position(pos))
    }

    /// The key of `after`, the position a move made from `before`, whose key is `key`. The
    /// default computes it afresh; a game whose features sit in bit boards overrides it to
    /// XOR only the features that changed.
    fn position_key_after(&self, before: &Self::Position, key: u64, after: &Self::Position) -> u64 {
        let _ = (before, key);
        self.position_key(after)
    }

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

    /// True when every ply is written as exactly one token: [`Game::starts_ply`] is true for
    /// every token, so a ply is complete as soon as its token is read and a replay may
    /// resolve it at once instead of keeping the token until the next one comes. Default:
    /// false (a game may still say so; a game whose plies span tokens never does).
    fn one_token_plies(&self) -> bool {
        false
    }

    /// Resolves the raw tokens of one ply against the position: the legal move they describe,
    /// or the problem that prevents it. In a position where [`Game::terminal`] is `Some`, every
    /// ply must be refused (the referee then reports that the game was already over).
    fn resolve(&self, pos: &Self::Position, tokens: &[&[u8]]) -> Result<Self::Move, Problem>;

    /// [`Game::resolve`], and when the tokens name a legal move, the position after it
    /// written into `after` (what [`Game::play`] makes of `pos`); on an error `after` holds
    /// anything. For a game that plays the move while resolving it, so that the replay need
    /// not play it again. Default: resolve, then copy `pos` and play.
    fn resolve_and_play(
        &self,
        pos: &Self::Position,
        tokens: &[&[u8]],
        after: &mut Self::Position,
    ) -> Result<Self::Move, Problem> {
        let mv = self.resolve(pos, tokens)?;
        after.clone_from(pos);
        self.play(after, &mv);
        Ok(mv)
    }

    /// Plays a resolved move.
    fn play(&self, pos: &mut Self::Position, mv: &Self::Move);

    /// Plays a resolved move and writes its statistics facts (what [`Game::facts`] gives
    /// for the position before it) into `facts`, which the caller passes as
    /// `PlyFacts::default()`. The default asks for the facts, then plays; a game whose facts
    /// come from playing the move overrides it to do the work once.
    ///
    /// The facts are written where the caller keeps them (the referee: in place in its list)
    /// rather than returned: a returned `PlyFacts` is assembled field by field and then copied
    /// whole, and that copy waits for the narrow stores just made, on every ply of `stats`.
    fn play_with_facts(&self, pos: &mut Self::Position, mv: &Self::Move, facts: &mut PlyFacts) {
        *facts = self.facts(pos, mv);
        self.play(pos, mv);
    }

    /// The outcome the rules give if the game is over in `pos`, `None` while it goes on.
    fn terminal(&self, pos: &Self::Position) -> Option<Outcome>;

    /// Reads a result (tag value or result token); `None` if it is not a result of this game.
    fn parse_result(&self, text: &str) -> Option<Outcome>;

    /// Writes a result in the game's result-token form.
    fn write_result(&self, outcome: Outcome) -> String;

    /// Checks a recorded result against a position where the game is not over by rule
    /// (a draughts game may be won by resignation; some games cannot). Default: any result
    /// may be recorded. The problem's code and message are what the referee reports.
    fn check_recorded(&self, pos: &Self::Position, recorded: Outcome) -> Result<(), Problem> {
        let _ = (pos, recorded);
        Ok(())
    }

    /// The notation the game's records use unless told otherwise.
    fn default_notation(&self) -> Notation {
        Notation::default()
    }

    /// Writes a move in the requested notation (used by `convert`).
    fn write_move(&self, pos: &Self::Position, mv: &Self::Move, notation: Notation) -> String;

    /// Appends [`Game::write_move`]'s text to `out`. The default appends the string it
    /// returns; a game that builds the text in place overrides it, sparing an allocation per
    /// move (the referee writes the first plies of every game for the opening tree).
    fn write_move_into(
        &self,
        pos: &Self::Position,
        mv: &Self::Move,
        notation: Notation,
        out: &mut String,
    ) {
        out.push_str(&self.write_move(pos, mv, notation));
    }

    /// Statistics facts of a move played from `before`.
    fn facts(&self, before: &Self::Position, mv: &Self::Move) -> PlyFacts;

    /// The position as a diagram draws it.
    fn board(&self, pos: &Self::Position) -> Board;

    /// The squares a legal move visits, one path per piece moved, for drawing it as arrows
    /// on the [`Game::board`] of `pos` (the position before the move). Default: none.
    fn move_paths(&self, pos: &Self::Position, mv: &Self::Move) -> Vec<SquarePath> {
        let _ = (pos, mv);
        Vec::new()
    }
}

/// A number below `n` (0 when `n` is 0) from `random`, a source of 32 random bits a call:
/// how the rules crates draw what [`Explore::seating`] and [`Explore::throw`] choose.
pub fn below(random: &mut dyn FnMut() -> u32, n: u32) -> u32 {
    ((u64::from(random()) * u64::from(n)) >> 32) as u32
}

/// One legal move described square by square, for other programs (`arbiter moves`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MoveInfo {
    /// The move in the game's standard notation.
    pub notation: String,
    /// The square the (first) piece starts on, in the game's own square names; `None` for a
    /// move that starts off the board (a piece entered).
    pub from: Option<String>,
    /// The square the (last) piece ends on; `None` for a piece borne off.
    pub to: Option<String>,
    /// Every square the piece stops on, start included.
    pub path: Vec<String>,
    /// The squares of the captured pieces, in the order taken.
    pub captured: Vec<String>,
}

/// How perft counts, for the games whose counter has a choice (the draughts variants); other
/// games count their one way and ignore it (see [`Explore::perft_with`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PerftOptions {
    /// The moves of the last ply are counted without being played (bulk counting); otherwise
    /// every leaf is played.
    pub bulk: bool,
    /// Identical captures (the same pieces taken from the same start to the same end along
    /// different routes): `Some(true)` counted apart, `Some(false)` once, `None` as the
    /// game's own convention says.
    pub keep_duplicates: Option<bool>,
}

/// Move generation, the other half of a game's rules: every legal move of a position. It is
/// what `moves`, `perft` and self-play are written once over.
///
/// A game of chance takes the outcome that fixes the moves as `chance` (Thaayam: the throws
/// of one series); other games ignore it.
pub trait Explore: Game {
    /// True when the legal moves depend on an outcome of chance that the position does not
    /// hold (then `perft` makes no sense and `chance` must be given).
    fn needs_chance(&self) -> bool {
        false
    }

    /// Every legal move of `pos`, each once (moves that lead to the same position through
    /// different intermediate squares count once). Errs when `chance` is malformed (or the
    /// moves cannot be listed), with the problem as a record would report it.
    fn legal_moves(&self, pos: &Self::Position, chance: &[u8]) -> Result<Vec<Self::Move>, Problem>;

    /// A move of `pos` described square by square.
    fn describe(&self, pos: &Self::Position, mv: &Self::Move) -> MoveInfo;

    /// Appends the texts of [`Explore::describe`] to `out` as entries: the notation, the start
    /// square, the end square (each empty when there is none), then one entry per captured
    /// square. The default goes through `describe`; rules crates override it to write without
    /// allocating (a table of plies describes every ply).
    fn describe_into(&self, pos: &Self::Position, mv: &Self::Move, out: &mut TextList) {
        let info = self.describe(pos, mv);
        out.push(&info.notation);
        out.push(info.from.as_deref().unwrap_or_default());
        out.push(info.to.as_deref().unwrap_or_default());
        for square in &info.captured {
            out.push(square);
        }
    }

    /// How good `pos` is for `seat`, for self-play's agents: higher is better, in any unit
    /// (wins and losses are scored apart, so only the order of positions matters). The
    /// default counts material on [`Game::board`]: the pieces of `seat` less those of every
    /// other seat, each piece one (twins two; pieces nobody owns count for no one). In a
    /// two-sided game its change along a line of play is the balance of captures.
    fn evaluate(&self, pos: &Self::Position, seat: Seat) -> i32 {
        let board = self.board(pos);
        board
            .pieces
            .iter()
            .map(|p| {
                let worth = i32::from(p.count) * if p.twin { 2 } else { 1 };
                match p.seat {
                    Some(s) if s == seat.0 => worth,
                    Some(_) => -worth,
                    None => 0,
                }
            })
            .sum()
    }

    /// The numbers of players a game can be played by. Default: every seat of
    /// [`Game::seat_names`].
    fn player_counts(&self) -> std::ops::RangeInclusive<u8> {
        let n = u8::try_from(self.seat_names().len())
            .unwrap_or(u8::MAX)
            .max(1);
        n..=n
    }

    /// The tags that seat `players` players (one of [`Explore::player_counts`]) for a new
    /// game, chosen with `random` (32 random bits a call): which seats play and which moves
    /// first, as [`Game::start_position`] reads them. Default: no tag (the standard start).
    fn seating(&self, players: u8, random: &mut dyn FnMut() -> u32) -> Vec<(&'static str, String)> {
        let _ = (players, random);
        Vec::new()
    }

    /// Draws the outcome of chance that the next move of `pos` is played with (Thaayam: one
    /// series of throws), with `random` (32 random bits a call). Default: none.
    fn throw(&self, pos: &Self::Position, random: &mut dyn FnMut() -> u32) -> Vec<u8> {
        let _ = (pos, random);
        Vec::new()
    }

    /// The outcomes of chance for the next move of `pos` with their probabilities (adding
    /// up to 1), for searches that weigh them; where there are very many, the likeliest.
    /// Default: one certain outcome, no chance.
    fn outcomes(&self, pos: &Self::Position) -> Vec<(Vec<u8>, f64)> {
        let _ = pos;
        vec![(Vec::new(), 1.0)]
    }

    /// Joins `next` into `turn`, when the seat that played `turn` keeps the turn and plays
    /// `next` as part of the same ply (Thaayam: an extra series). Returns false when moves
    /// cannot be joined (the default: every move is a ply of its own).
    fn join_moves(&self, turn: &mut Self::Move, next: &Self::Move) -> bool {
        let _ = (turn, next);
        false
    }

    /// The moves perft counts in `pos` under `options` (the root of a split or divided
    /// count): by default [`Explore::legal_moves`] (none when they cannot be listed).
    fn perft_moves(&self, pos: &Self::Position, options: &PerftOptions) -> Vec<Self::Move> {
        let _ = options;
        self.legal_moves(pos, &[]).unwrap_or_default()
    }

    /// True when [`Explore::perft_with`] honours [`PerftOptions`] (the default: false, the
    /// game counts one way only).
    fn perft_has_options(&self) -> bool {
        false
    }

    /// [`Explore::perft`] under `options`. The default is [`Explore::perft`]: a game that
    /// counts one way only ignores the options.
    fn perft_with(&self, pos: &Self::Position, depth: u32, options: &PerftOptions) -> u64 {
        let _ = options;
        self.perft(pos, depth)
    }

    /// The number of move sequences of `depth` plies from `pos`. The default walks
    /// [`Explore::legal_moves`]; rules crates override it with their fast counter.
    fn perft(&self, pos: &Self::Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let Ok(moves) = self.legal_moves(pos, &[]) else {
            return 0;
        };
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|mv| {
                let mut next = pos.clone();
                self.play(&mut next, mv);
                self.perft(&next, depth - 1)
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_carry_paths_only_when_given() {
        let p = Problem::new(Code::IllegalMove, "no");
        assert!(p.played.is_empty() && p.suggested.is_empty());
        assert_eq!(p.token, 0);
        let p = p
            .at_token(2)
            .with_played(vec![vec![(2, 2), (4, 2)]])
            .with_suggested(vec![vec![(2, 2), (2, 4)], vec![(0, 0)]]);
        assert_eq!(p.token, 2);
        assert_eq!(p.played, [vec![(2, 2), (4, 2)]]);
        assert_eq!(p.suggested.len(), 2);
    }

    #[test]
    fn board_lookups() {
        let mut b = Board::new(5, 5, BoardStyle::Plain, &["South", "North"], Seat(1));
        b.pieces.push(BoardPiece::man(2, 4, Some(0)));
        b.pieces.push(BoardPiece {
            twin: true,
            ..BoardPiece::man(2, 4, Some(1))
        });
        b.pieces.push(BoardPiece::man(0, 0, None));
        assert_eq!(b.pieces_at(2, 4).count(), 2);
        assert_eq!(b.pieces_at(0, 0).next().map(|p| p.seat), Some(None));
        assert_eq!(b.pieces_at(1, 1).count(), 0);
        assert_eq!(b.seat_name(b.to_move), "North");
        assert_eq!(b.seat_name(Seat(3)), "?");
    }
}
