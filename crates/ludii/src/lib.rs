//! Ludii trial files (`.trl`) for arbiter.
//!
//! Ludii, the general game system, is the only other program that plays Tama and Thaayam;
//! its users keep games as trial files. This crate
//!
//! - reads a trial ([`read_trial`] → [`Trial`]): the game, the option block, every `Move=`
//!   line with its line number, the placement count and the result lines;
//! - converts a Tama or Thaayam trial into the PDN text of one arbiter record ([`to_pdn`]),
//!   with a span map from byte offsets of that text back to trial lines ([`Converted::locate`]),
//!   so that a diagnostic on the PDN can name the `.trl` line of the Ludii move it came from;
//! - writes a Tama trial that Ludii can load from an arbiter Tama record ([`from_pdn_tama`]).
//!
//! Conversion is faithful: where Ludii played something arbiter's rules do not allow, the PDN
//! says what Ludii did, and arbiter's validation reports it at that ply. The mapping in both
//! directions is documented in the repository's `docs/notation.md` (section "Ludii trials").
//!
//! ```
//! let trl = "game=Tama\nSTART GAME OPTIONS\nEND GAME OPTIONS\n\
//! Move=[Move:mover=1,from=16,to=24,actions=[Move:typeFrom=Cell,from=16,typeTo=Cell,to=24,decision=true]]\n\
//! numInitialPlacementMoves=0\n";
//! let trial = ludii::read_trial(trl.as_bytes()).unwrap();
//! let converted = ludii::to_pdn(&trial).unwrap();
//! assert!(converted.pdn.contains("[Rules \"schmidt\"]"));
//! assert!(converted.pdn.contains("1. a3-a4 *"));
//! let at = converted.pdn.find("a3-a4").unwrap() as u64;
//! assert_eq!(converted.locate(at).map(|e| e.trl_line), Some(4));
//! ```
#![deny(missing_docs)]

mod pdn_text;
mod tama_trl;
mod thaayam_trl;
mod trial;

pub use tama_trl::{from_pdn_tama, write_tama_trial, WriteError};
pub use trial::{read_trial, Action, LudiiGame, LudiiMove, Trial, TrialError};

use thiserror::Error;

/// Why a trial could not be converted to PDN.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConvertError {
    /// `game=` names a game arbiter does not play.
    #[error("the trial plays `{0}`; arbiter converts Tama and Thaayam trials only")]
    UnsupportedGame(String),
    /// An option in the option block arbiter has no ruleset for.
    #[error("the option `{0}` has no arbiter ruleset (known: Variant/Wikipedia, Variant/Schmidt)")]
    UnsupportedOption(String),
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
    /// The game.
    pub game: LudiiGame,
    /// The PDN text of one game (tags, movetext, result), ending with a newline.
    pub pdn: String,
    /// One entry per move token written (Tama: one per ply; Thaayam: the seat letter, each
    /// throw group, each action), in text order.
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

/// Converts a trial to the PDN text of one arbiter record (see the crate docs).
pub fn to_pdn(trial: &Trial) -> Result<Converted, ConvertError> {
    match trial.ludii_game() {
        Some(LudiiGame::Tama) => tama_trl::to_pdn(trial),
        Some(LudiiGame::Thaayam) => thaayam_trl::to_pdn(trial),
        None => Err(ConvertError::UnsupportedGame(trial.game.clone())),
    }
}

/// The winner recorded by a trial, as a player number (1, 2, ...), `Some(0)` for a draw (no
/// winner but a shared rank), `None` when the trial records no result.
pub(crate) fn recorded_winner(trial: &Trial) -> Option<u8> {
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
