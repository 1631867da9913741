//! The perft file format shared by the draughts-family rules crates, and its runner.
//!
//! Plain text, one count per line: `variant ; position ; depth ; count`. `#` starts a comment
//! (whole line or trailing). `position` is a FEN string in the variant's dialect or the word
//! `start`. `variant` may carry options after a `+`: `pool+promotion-ends`. Blank lines are
//! ignored. [`run_perft_dir`] checks a directory of such files with any engine that implements
//! [`PerftRules`] (each rules crate implements it for its rules).

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
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(';').map(str::trim).collect();
        if f.len() != 4 {
            return Err(format!(
                "line {}: expected `variant ; position ; depth ; count`",
                i + 1
            ));
        }
        let num = |s: &str| -> Result<u64, String> {
            s.replace(['_', ' '], "")
                .parse()
                .map_err(|_| format!("line {}: `{s}` is not a number", i + 1))
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
    fn from_variant(variant: &str) -> Result<Self, String>;
    /// Leaf positions `depth` plies ahead of `fen` (`start` means the start position). The
    /// error is a sentence (the position does not read).
    fn perft_fen(&self, fen: &str, depth: u32) -> Result<u64, String>;
}

/// Splits a perft file's variant field `id+option+option` into the id and the options as a
/// comma-separated list (the form the engines' `with_options` read).
pub fn split_variant(field: &str) -> (&str, String) {
    let mut parts = field.split('+').map(str::trim);
    let id = parts.next().unwrap_or("");
    (id, parts.collect::<Vec<_>>().join(","))
}

impl PerftCase {
    /// Runs the case with the engine `R`: `Ok` when the count matches, else a message naming
    /// the line with both figures.
    pub fn check_with<R: PerftRules>(&self) -> Result<(), String> {
        let at = |e: String| format!("line {}: {e}", self.line);
        let rules = R::from_variant(&self.variant).map_err(at)?;
        let got = rules.perft_fen(&self.fen, self.depth).map_err(at)?;
        if got == self.count {
            Ok(())
        } else {
            Err(format!(
                "line {}: {} {} depth {}: expected {}, got {got}",
                self.line, self.variant, self.fen, self.depth, self.count
            ))
        }
    }
}

/// Reads every `*.txt` perft file in `dir` (sorted by name) and checks, with the engine `R`,
/// the cases `select` keeps. Returns how many were checked, or every failure (file and line
/// named), one per line. A directory with no case at all is an error.
pub fn run_perft_dir<R: PerftRules>(
    dir: &std::path::Path,
    select: impl Fn(&PerftCase) -> bool,
) -> Result<usize, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let (mut ran, mut seen, mut failures) = (0, 0, Vec::new());
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        let cases = parse_perft_file(&text).map_err(|e| format!("{}: {e}", f.display()))?;
        seen += cases.len();
        for c in cases.iter().filter(|c| select(c)) {
            ran += 1;
            if let Err(e) = c.check_with::<R>() {
                failures.push(format!("{}: {e}", f.display()));
            }
        }
    }
    if seen == 0 {
        return Err(format!("{}: no perft case", dir.display()));
    }
    if failures.is_empty() {
        Ok(ran)
    } else {
        Err(failures.join("\n"))
    }
}
