//! Ludii trial files (`.trl`) for arbiter: the file format, and what a game provides to have
//! its trials read and written.
//!
//! Ludii, the general game system, plays many of the games arbiter knows; its users keep
//! games as trial files. This crate names no game. It
//!
//! - reads a trial ([`read_trial`] → [`Trial`]): the game, the option block, every `Move=`
//!   line with its line number, the placement count and the result lines;
//! - defines what a game's converter is ([`TrialFormat`]): a rules crate that reads Ludii's
//!   trials of its game implements it, and the game's registry entry declares it;
//! - gives converters what they share: [`PdnText`] builds the PDN text of one record with a
//!   span map from byte offsets of that text back to trial lines ([`Converted::locate`]), so
//!   that a diagnostic on the PDN can name the `.trl` line of the Ludii move it came from;
//!   [`RecordView`] is a record's tags and main line for a writer; [`turns`] and
//!   [`recorded_winner`] read what every trial holds.
//!
//! Conversion is faithful: where Ludii played something a game's rules do not allow, the
//! PDN says what Ludii did, and arbiter's validation reports it at that ply. The mapping of
//! each game is documented in the repository's `docs/notation.md` (section "Ludii trials").
//!
//! ```
//! let trl = "game=/lud/board/Some Game.lud\nSTART GAME OPTIONS\nEND GAME OPTIONS\n\
//! Move=[Move:mover=1,from=16,to=24,actions=[Move:typeFrom=Cell,from=16,typeTo=Cell,to=24,decision=true]]\n\
//! numInitialPlacementMoves=0\n";
//! let trial = ludii::read_trial(trl.as_bytes()).unwrap();
//! assert_eq!(trial.game_name(), "Some Game");
//! let mut text = ludii::PdnText::new();
//! text.tag("Variant", "Some Game");
//! text.begin_movetext();
//! let m = &trial.play_moves()[0];
//! text.mapped("a3-a4", m.line, m.number);
//! let converted = text.finish("*");
//! assert!(converted.pdn.ends_with("\n\na3-a4 *\n"));
//! let at = converted.pdn.find("a3-a4").unwrap() as u64;
//! assert_eq!(converted.locate(at).map(|e| e.trl_line), Some(4));
//! ```
#![deny(missing_docs)]

mod pdn_text;
mod record;
mod trial;

pub use pdn_text::PdnText;
pub use record::RecordView;
pub use trial::{read_trial, Action, LudiiMove, Trial, TrialError};

use thiserror::Error;

/// Why a trial could not be converted to PDN.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConvertError {
    /// `game=` names a game no game of the registry reads trials of.
    #[error("the trial plays `{game}`; arbiter reads Ludii trials of {known}")]
    UnsupportedGame {
        /// The game the trial names.
        game: String,
        /// The games whose trials are read, as a sentence lists them.
        known: String,
    },
    /// An option in the option block the game has no ruleset for.
    #[error("the option `{option}` has no arbiter ruleset (known: {known})")]
    UnsupportedOption {
        /// The option.
        option: String,
        /// The options the game reads.
        known: String,
    },
    /// A move line that cannot be written as a move of the game at all.
    #[error("line {line} (Ludii move {number}): {message}")]
    BadMove {
        /// 1-based trial line.
        line: u32,
        /// Ludii move number.
        number: u32,
        /// What is wrong.
        message: String,
    },
}

/// One piece of the produced PDN text that came from Ludii moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanEntry {
    /// Byte offset of the first byte in the PDN text.
    pub pdn_start: u64,
    /// Byte offset one past the last byte.
    pub pdn_end: u64,
    /// 1-based line of the trial file of the (first) Ludii move it came from.
    pub trl_line: u32,
    /// That move's number in the trial (1-based, placement moves included).
    pub ludii_move: u32,
}

/// The PDN text of one record made from a trial, and where its pieces came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// The PDN text of one game (tags, movetext, result), ending with a newline.
    pub pdn: String,
    /// One entry per move token written, in text order.
    pub map: Vec<SpanEntry>,
}

impl Converted {
    /// The entry for byte offset `offset` of [`Converted::pdn`]: the token that contains it,
    /// or else the last token before it (a diagnostic between tokens, or at the result, is
    /// about the moves before it). `None` before the first move.
    pub fn locate(&self, offset: u64) -> Option<&SpanEntry> {
        let i = self.map.partition_point(|e| e.pdn_start <= offset);
        i.checked_sub(1).map(|i| &self.map[i])
    }
}

/// Why a record could not be written as a trial.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WriteError {
    /// The game's trials cannot be written (only read).
    #[error("{0} trials are read, not written")]
    Unsupported(&'static str),
    /// The record plays another game than the converter's.
    #[error("the record plays `{found}`, not {game}")]
    OtherGame {
        /// The converter's game.
        game: &'static str,
        /// What the record's `Variant` tag says.
        found: String,
    },
    /// A `Rules` option Ludii has no ruleset for.
    #[error("the Rules tag `{rules}` has no Ludii ruleset ({known})")]
    Rules {
        /// The tag's value.
        rules: String,
        /// What can be written.
        known: &'static str,
    },
    /// The start position cannot be set up in Ludii, or cannot be read.
    #[error("{0}")]
    Start(String),
    /// A move of the record is not legal, or not legal under the Ludii ruleset written.
    #[error("ply {ply} ({token}): {message}")]
    Move {
        /// 1-based ply of the main line.
        ply: usize,
        /// The move token.
        token: String,
        /// Why.
        message: String,
    },
}

/// A game's Ludii trials: what a rules crate implements to have them read (and written),
/// and what its registry entry declares.
pub trait TrialFormat: Send + Sync {
    /// The names Ludii gives the game (the `game=` line's last component without `.lud`),
    /// compared ignoring case.
    fn ludii_names(&self) -> &'static [&'static str];

    /// True when `trial` plays this game.
    fn reads(&self, trial: &Trial) -> bool {
        let name = trial.game_name();
        self.ludii_names()
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
    }

    /// Converts a trial of this game to the PDN text of one record, with its span map.
    fn read(&self, trial: &Trial) -> Result<Converted, ConvertError>;

    /// Writes a record of this game (its tags and main line) as a trial Ludii loads.
    /// Default: the game's trials are read only.
    fn write(&self, record: &RecordView) -> Result<String, WriteError> {
        let _ = record;
        Err(WriteError::Unsupported(
            self.ludii_names().first().copied().unwrap_or("these"),
        ))
    }
}

/// Splits the moves after the placement into turns: a turn goes on while a move hands the
/// turn back to its mover (`SetNextPlayer` naming it) and the next move is by the same player.
pub fn turns(moves: &[LudiiMove]) -> Vec<&[LudiiMove]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 0..moves.len() {
        let last =
            i + 1 == moves.len() || !moves[i].keeps_turn() || moves[i + 1].mover != moves[i].mover;
        if last {
            out.push(&moves[start..=i]);
            start = i + 1;
        }
    }
    out
}

/// The winner recorded by a trial, as a player number (1, 2, ...), `Some(0)` for a draw (no
/// winner but a shared rank), `None` when the trial records no result.
pub fn recorded_winner(trial: &Trial) -> Option<u8> {
    match trial.winner {
        Some(w) if w >= 1 => u8::try_from(w).ok(),
        Some(_) => {
            let ranks = trial.rankings.get(1..).unwrap_or(&[]);
            let shared = ranks.len() >= 2
                && ranks[0] > 0.0
                && ranks.iter().all(|r| (r - ranks[0]).abs() < 1e-9);
            shared.then_some(0)
        }
        None => None,
    }
}

/// A converter error about Ludii move `m`.
pub fn bad_move(m: &LudiiMove, message: impl Into<String>) -> ConvertError {
    ConvertError::BadMove {
        line: m.line,
        number: m.number,
        message: message.into(),
    }
}
