//! The perft file format shared by the draughts crates, and its runner.
//!
//! Plain text, one count per line: `variant ; position ; depth ; count`. `#` starts a comment
//! (whole line or trailing). `position` is a FEN string in the variant's dialect or the word
//! `start`. `variant` may carry options after a `+`: `pool+promotion-ends`. Blank lines are
//! ignored.

use crate::{Draughts, Position, Variant};

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

impl PerftCase {
    /// The rules and position of this case.
    pub fn setup(&self) -> Result<(Draughts, Position), String> {
        let mut parts = self.variant.split('+');
        let id = parts.next().unwrap_or("");
        let v = Variant::by_id(id)
            .ok_or_else(|| format!("line {}: unknown variant `{id}`", self.line))?;
        let opts: Vec<&str> = parts.collect();
        let d = Draughts::with_options(v, &opts.join(","))
            .map_err(|o| format!("line {}: unknown option `{o}`", self.line))?;
        let pos = if self.fen.eq_ignore_ascii_case("start") {
            d.start()
        } else {
            Position::from_fen(d.geometry, &self.fen, v.first)
                .map_err(|e| format!("line {}: {e}", self.line))?
        };
        Ok((d, pos))
    }

    /// Runs the case: `Ok` when the count matches, else a message with both figures.
    pub fn check(&self) -> Result<(), String> {
        let (d, pos) = self.setup()?;
        let got = d.perft(&pos, self.depth);
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
