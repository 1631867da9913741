//! Diagnostic codes: the generic ones every game may report, and the codes a game declares
//! for problems only its rules have (Odnocvetnie's locked man, Thaayam's unused throws).

use std::fmt;

/// A diagnostic code a game declares for itself: its stable name and the texts that explain
/// it. A rules crate writes one as a constant (`Code::Game(&CodeInfo { .. })`) and lists it
/// in [`crate::GameInfo::codes`], so that the registry knows its name.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CodeInfo {
    /// The stable kebab-case name shown to users and written in JSON (`locked-piece`).
    pub name: &'static str,
    /// One line saying what the code means (the user guide's table, `arbiter games`).
    pub help: &'static str,
    /// What a diagram's suggested path shows for this code, where the rules crate gives one
    /// (`a play that uses more of the throws`); `None` for the generic wording.
    pub suggested: Option<&'static str>,
}

/// What kind of problem a diagnostic reports. The string form (`as_str`) is the stable code
/// shown to users and written in JSON output.
///
/// Every variant but [`Code::Game`] is generic: any game may report them. A problem only one
/// game's rules have is a [`Code::Game`] that game declares (see [`CodeInfo`]).
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
    /// A code of one game's own, declared in its [`crate::GameInfo::codes`].
    Game(&'static CodeInfo),
    /// The game was not named by a tag but found from the record itself (a note).
    GameInferred,
}

impl Code {
    /// The generic codes, in a stable order (a game's own codes follow them in listings).
    pub const GENERIC: [Code; 10] = [
        Code::Syntax,
        Code::UnknownGame,
        Code::BadTag,
        Code::IllegalMove,
        Code::NonMaximalCapture,
        Code::MissedCapture,
        Code::AmbiguousMove,
        Code::ResultMismatch,
        Code::BadFen,
        Code::GameInferred,
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
            Code::GameInferred => "game-inferred",
            Code::Game(info) => info.name,
        }
    }

    /// One line saying what the code means.
    pub fn help(self) -> &'static str {
        match self {
            Code::Syntax => "the record is not well-formed PDN at this point",
            Code::UnknownGame => "the game of the record could not be identified",
            Code::BadTag => "a tag the replay depends on has a value arbiter cannot use",
            Code::IllegalMove => "no legal move matches the token",
            Code::NonMaximalCapture => {
                "a capture that takes fewer pieces than the rules demand, or stops before its end"
            }
            Code::MissedCapture => "a quiet move while a capture was compulsory",
            Code::AmbiguousMove => "a short token that fits several legal moves",
            Code::ResultMismatch => "the result contradicts the game, or moves follow its end",
            Code::BadFen => "a position string that cannot be read or is not legal",
            Code::GameInferred => "no tag names the game; it was found from the record",
            Code::Game(info) => info.help,
        }
    }

    /// What a diagram's suggested path shows for this code; `None` where the generic
    /// wording ("what the rules accept instead") fits.
    pub fn suggested(self) -> Option<&'static str> {
        match self {
            Code::NonMaximalCapture | Code::MissedCapture => {
                Some("a capture that takes as many pieces as the rules demand")
            }
            Code::Game(info) => info.suggested,
            _ => None,
        }
    }

    /// The generic code of this name (a game's own codes are found through
    /// [`crate::Registry::code`]).
    pub fn generic(name: &str) -> Option<Code> {
        Code::GENERIC.into_iter().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWN: Code = Code::Game(&CodeInfo {
        name: "own-code",
        help: "a problem of one game",
        suggested: Some("another way"),
    });

    #[test]
    fn a_game_code_is_compared_and_named_by_its_info() {
        let same = Code::Game(&CodeInfo {
            name: "own-code",
            help: "a problem of one game",
            suggested: Some("another way"),
        });
        assert_eq!(OWN, same);
        assert_ne!(OWN, Code::IllegalMove);
        assert_eq!(OWN.to_string(), "own-code");
        assert_eq!(OWN.suggested(), Some("another way"));
        assert_eq!(Code::generic("own-code"), None);
        assert_eq!(Code::generic("bad-fen"), Some(Code::BadFen));
        let names: Vec<_> = Code::GENERIC.iter().map(|c| c.as_str()).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
    }
}
