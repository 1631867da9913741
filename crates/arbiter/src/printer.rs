//! What `validate` prints of the diagnostics: the severities asked for, at most
//! `--max-errors` errors, and in human output each repeated warning or note of a file once,
//! with its count and its first place (JSON lines keep every diagnostic).

use std::io::{self, Write};

use codespan_reporting::term::termcolor::Buffer;
use referee::{Diagnostic, Severity};

use crate::report::{self, Format, Place};

/// How diagnostics are printed.
#[derive(Debug, Clone, Copy)]
pub struct Print {
    /// Print every diagnostic in this format (`None`: print nothing per diagnostic).
    pub format: Option<Format>,
    /// Colour human output.
    pub color: bool,
    /// Print at most this many errors (all are counted; warnings and notes do not count).
    pub max_errors: Option<u64>,
    /// Print diagnostics of this severity and above.
    pub severity: Severity,
    /// A game found from its moves, not named by a tag, is an error.
    pub strict: bool,
    /// The closing summary goes to standard output (else to standard error).
    pub summary_on_stdout: bool,
}

/// Codes about a game as a whole: their repeats are counted in games.
const GAME_LEVEL: [&str; 2] = ["game-inferred", "unknown-game"];

/// One kind of diagnostic repeated in a file, printed once at the end of the file.
struct Group {
    code: &'static str,
    first: (u64, Diagnostic, Place),
    count: u64,
    games: u64,
    last_game: u64,
}

/// Prints the diagnostics of a run, file by file.
pub struct Printer {
    format: Format,
    least: Severity,
    errors_left: u64,
    groups: Vec<Group>,
    /// The index in `groups` of each (code, severity, message): finding a group costs the
    /// same however many there are (notes of distinct messages make one group each).
    index: std::collections::HashMap<(&'static str, u8, String), usize>,
    out: Buffer,
    /// Standard output was closed (`validate corpus | head -1`): nothing more is printed,
    /// but the run goes on, so that its exit code still reflects every record.
    closed: bool,
}

impl Printer {
    /// A printer for `print`, or `None` when nothing is printed per diagnostic.
    pub fn new(print: &Print) -> Option<Printer> {
        Some(Printer {
            format: print.format?,
            least: print.severity,
            errors_left: print.max_errors.unwrap_or(u64::MAX),
            groups: Vec::new(),
            index: std::collections::HashMap::new(),
            closed: false,
            out: if print.color {
                Buffer::ansi()
            } else {
                Buffer::no_color()
            },
        })
    }

    /// Prints (or keeps for the end of the file) one diagnostic of game `game` of `file`.
    pub fn diagnostic(
        &mut self,
        file: &str,
        game: u64,
        d: &Diagnostic,
        place: &Place,
    ) -> io::Result<()> {
        if d.severity < self.least {
            return Ok(());
        }
        let code = d.code.as_str();
        let game_level = GAME_LEVEL.contains(&code);
        let grouped = d.severity < Severity::Error || game_level;
        if self.format == Format::Human && grouped {
            self.keep(game, d, place, game_level);
            return Ok(());
        }
        if d.severity == Severity::Error {
            if self.errors_left == 0 {
                return Ok(());
            }
            self.errors_left -= 1;
        }
        self.emit(file, game, d, place)
    }

    fn keep(&mut self, game: u64, d: &Diagnostic, place: &Place, game_level: bool) {
        let code = d.code.as_str();
        let message = if game_level || d.severity == Severity::Note {
            d.message.clone()
        } else {
            String::new()
        };
        let key = (code, d.severity as u8, message);
        match self.index.get(&key).map(|&i| &mut self.groups[i]) {
            Some(g) => {
                g.count += 1;
                if g.last_game != game {
                    g.games += 1;
                    g.last_game = game;
                }
            }
            None => {
                // The key's message is the message for notes and game-level codes (their
                // messages tell them apart), empty for warnings, grouped by code alone.
                self.index.insert(key, self.groups.len());
                self.groups.push(Group {
                    code,
                    first: (game, d.clone(), place.clone()),
                    count: 1,
                    games: 1,
                    last_game: game,
                });
            }
        }
    }

    /// The end of `file`: its repeated diagnostics, each once with its count.
    pub fn end_file(&mut self, file: &str) -> io::Result<()> {
        self.index.clear();
        for g in std::mem::take(&mut self.groups) {
            let (game, mut d, place) = g.first;
            if g.count > 1 {
                d.message = if GAME_LEVEL.contains(&g.code) && d.code == "unknown-game" {
                    format!("{} games: {}", g.games, d.message)
                } else if GAME_LEVEL.contains(&g.code) {
                    format!("{} for {} games", d.message, g.games)
                } else {
                    let games = match g.games {
                        1 => "one game".to_string(),
                        n => format!("{n} games"),
                    };
                    format!(
                        "{} ({} times in {games} of this file; the first is shown)",
                        d.message, g.count
                    )
                };
            }
            self.emit(file, game, &d, &place)?;
        }
        Ok(())
    }

    fn emit(&mut self, file: &str, game: u64, d: &Diagnostic, place: &Place) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        self.out.clear();
        report::write(&mut self.out, self.format, file, game, d, place)?;
        match io::stdout().lock().write_all(self.out.as_slice()) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}
