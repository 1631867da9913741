//! How a command ends: its exit code (0 clean, 1 problems in the records, 2 usage or I/O
//! error), or why it stopped.

use std::io;

/// Exit code: records are clean.
pub const CLEAN: u8 = 0;
/// Exit code: problems were found in the records.
pub const PROBLEMS: u8 = 1;
/// Exit code: usage or I/O error.
pub const FAILURE: u8 = 2;

/// Why a command stopped: a message for the user (exit code 2), or a closed output pipe
/// (a quiet exit, as the part written was wanted).
#[derive(Debug)]
pub enum Stop {
    /// A usage or I/O error, said in this message.
    Usage(String),
    /// The reader of standard output went away.
    ClosedPipe,
}

impl From<String> for Stop {
    fn from(message: String) -> Self {
        Stop::Usage(message)
    }
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Stop::ClosedPipe
        } else {
            Stop::Usage(e.to_string())
        }
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Usage(message) => f.write_str(message),
            Stop::ClosedPipe => f.write_str("the output was closed"),
        }
    }
}

impl std::error::Error for Stop {}

/// The exit code of a command, or why it stopped.
pub type Outcome = Result<u8, Stop>;

/// The exit code of a run that found `problems` problems in the records.
pub fn problems(problems: u64) -> u8 {
    if problems > 0 {
        PROBLEMS
    } else {
        CLEAN
    }
}
