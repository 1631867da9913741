//! The perft file format shared by the draughts-family rules crates, and its runner.
//!
//! Plain text, one count per line: `variant ; position ; depth ; count`. `#` starts a comment
//! (whole line or trailing). `position` is a FEN string in the variant's dialect or the word
//! `start`. `variant` may carry options after a `+`: `pool+promotion-ends`. Blank lines are
//! ignored. [`run_perft_dir`] checks a directory of such files with any engine that implements
//! [`PerftRules`] (each rules crate implements it for its rules).

use std::path::PathBuf;

/// Why a perft file, a case of it or a directory of them fails.
#[derive(Debug, thiserror::Error)]
pub enum PerftFileError {
    /// A line without its four fields.
    #[error("line {line}: expected `variant ; position ; depth ; count`")]
    Fields {
        /// Line number (1-based).
        line: usize,
    },
    /// A depth or count that is not a number.
    #[error("line {line}: `{text}` is not a number")]
    NotANumber {
        /// Line number (1-based).
        line: usize,
        /// The field as written.
        text: String,
    },
    /// The engine refused the case's variant or position.
    #[error("line {line}: {source}")]
    Rules {
        /// Line number (1-based).
        line: usize,
        /// What the engine said.
        source: PerftRulesError,
    },
    /// The engine counted another number of leaves.
    #[error("line {line}: {variant} {fen} depth {depth}: expected {expected}, got {got}")]
    Count {
        /// Line number (1-based).
        line: usize,
        /// The variant field.
        variant: String,
        /// The position field.
        fen: String,
        /// The depth.
        depth: u32,
        /// The count in the file.
        expected: u64,
        /// The engine's count.
        got: u64,
    },
    /// A file or directory could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// An error in one file of a directory.
    #[error("{}: {error}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// The error in it.
        error: Box<PerftFileError>,
    },
    /// A directory with no case at all.
    #[error("{}: no perft case", dir.display())]
    NoCase {
        /// The directory.
        dir: PathBuf,
    },
    /// Every failing case of a directory, one per line.
    #[error("{}", failures.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Failures {
        /// The failures, in file and line order.
        failures: Vec<PerftFileError>,
    },
}

/// Why an engine refuses a perft case (see [`PerftRules`]).
#[derive(Debug, thiserror::Error)]
pub enum PerftRulesError {
    /// The variant field names no variant of the engine.
    #[error("unknown variant `{0}`")]
    UnknownVariant(String),
    /// The variant field names another game than the engine's.
    #[error("`{given}` is not {game}")]
    OtherGame {
        /// The variant field's id.
        given: String,
        /// The engine's game.
        game: &'static str,
    },
    /// An option the variant does not have.
    #[error(transparent)]
    Option(#[from] crate::OptionError),
    /// The position does not read.
    #[error(transparent)]
    Position(Box<dyn std::error::Error + Send + Sync>),
}

/// One line of a perft file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftCase {
    /// Line number (1-based).
    pub line: usize,
    /// The variant id, with `+option` suffixes.
    pub variant: String,
    /// The position (`start` or FEN).
    pub fen: String,
    /// Depth.
    pub depth: u32,
    /// Expected leaf count.
    pub count: u64,
}

/// Reads a perft file. The error names the line.
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftCase>, PerftFileError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        if f.len() != 4 {
            return Err(PerftFileError::Fields { line: i + 1 });
        }
        let num = |s: &str| -> Result<u64, PerftFileError> {
            s.replace(['_', ' '], "")
                .parse()
                .map_err(|_| PerftFileError::NotANumber {
                    line: i + 1,
                    text: s.to_string(),
                })
        };
        out.push(PerftCase {
            line: i + 1,
            variant: f[0].to_string(),
            fen: f[1].to_string(),
            depth: num(f[2])? as u32,
            count: num(f[3])?,
        });
    }
    Ok(out)
}

/// A rules engine the shared perft runner can drive: it builds its rules from a perft file's
/// variant field and counts leaves from a position written in its own FEN dialect.
pub trait PerftRules: Sized {
    /// The rules named by a perft file's variant field (`id` or `id+option+option`). The
    /// error is a sentence (unknown variant or option).
    fn from_variant(variant: &str) -> Result<Self, PerftRulesError>;
    /// Leaf positions `depth` plies ahead of `fen` (`start` means the start position). The
    /// error is a sentence (the position does not read).
    fn perft_fen(&self, fen: &str, depth: u32) -> Result<u64, PerftRulesError>;
}

/// Splits a perft file's variant field `id+option+option` into the id and the options as a
/// comma-separated list (the form the engines' `with_options` read).
pub fn split_variant(field: &str) -> (&str, String) {
    let mut parts = field.split('+').map(str::trim);
    let id = parts.next().unwrap_or("");
    (id, parts.collect::<Vec<_>>().join(","))
}

impl PerftCase {
    /// Runs the case with the engine `R`: `Ok` when the count matches, else an error naming
    /// the line (with both figures when the counts differ).
    pub fn check_with<R: PerftRules>(&self) -> Result<(), PerftFileError> {
        let at = |source| PerftFileError::Rules {
            line: self.line,
            source,
        };
        let rules = R::from_variant(&self.variant).map_err(at)?;
        let got = rules.perft_fen(&self.fen, self.depth).map_err(at)?;
        if got == self.count {
            Ok(())
        } else {
            Err(PerftFileError::Count {
                line: self.line,
                variant: self.variant.clone(),
                fen: self.fen.clone(),
                depth: self.depth,
                expected: self.count,
                got,
            })
        }
    }
}

/// Reads every `*.txt` perft file in `dir` (sorted by name) and checks, with the engine `R`,
/// the cases `select` keeps. Returns how many were checked, or every failure (file and line
/// named), one per line. A directory with no case at all is an error.
pub fn run_perft_dir<R: PerftRules>(
    dir: &std::path::Path,
    select: impl Fn(&PerftCase) -> bool,
) -> Result<usize, PerftFileError> {
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| PerftFileError::Io { path, source }
    };
    let in_file = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |error| PerftFileError::InFile {
            path,
            error: Box::new(error),
        }
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let (mut ran, mut seen, mut failures) = (0, 0, Vec::new());
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(io(&f))?;
        let cases = parse_perft_file(&text).map_err(in_file(&f))?;
        seen += cases.len();
        for c in cases.iter().filter(|c| select(c)) {
            ran += 1;
            if let Err(e) = c.check_with::<R>() {
                failures.push(in_file(&f)(e));
            }
        }
    }
    if seen == 0 {
        return Err(PerftFileError::NoCase {
            dir: dir.to_path_buf(),
        });
    }
    if failures.is_empty() {
        Ok(ran)
    } else {
        Err(PerftFileError::Failures { failures })
    }
}
