//! [`Problem`] as an error type: what the traits' fallible methods besides
//! [`crate::Game::resolve`] return ([`crate::Game::check_recorded`],
//! [`crate::Explore::legal_moves`]), so that callers can `?` it or show its message.

use std::fmt;

use crate::Problem;

/// The message alone, as a player reads it (the code is the diagnostic's).
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}
