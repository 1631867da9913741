//! Building PDN text while recording where each token went.

use crate::SpanEntry;

/// Movetext lines are wrapped before this width.
const WIDTH: usize = 80;

/// PDN text under construction.
pub(crate) struct PdnText {
    pub(crate) out: String,
    pub(crate) map: Vec<SpanEntry>,
    line_len: usize,
}

impl PdnText {
    pub(crate) fn new() -> Self {
        PdnText {
            out: String::new(),
            map: Vec::new(),
            line_len: 0,
        }
    }

    /// A tag pair on its own line (`"` and a final `\` in the value are escaped).
    pub(crate) fn tag(&mut self, name: &str, value: &str) {
        let value = value.replace('"', "\\\"");
        self.out.push_str(&format!("[{name} \"{value}\"]\n"));
    }

    /// Ends the tag section.
    pub(crate) fn begin_movetext(&mut self) {
        self.out.push('\n');
        self.line_len = 0;
    }

    /// Starts a new line if `len` more bytes would not fit on this one.
    pub(crate) fn room(&mut self, len: usize) {
        if self.line_len > 0 && self.line_len + 1 + len > WIDTH {
            self.out.push('\n');
            self.line_len = 0;
        }
    }

    /// Writes a token (after a blank unless at a line start); returns its span.
    pub(crate) fn token(&mut self, tok: &str) -> (u64, u64) {
        self.room(tok.len());
        if self.line_len > 0 {
            self.out.push(' ');
            self.line_len += 1;
        }
        let start = self.out.len() as u64;
        self.out.push_str(tok);
        self.line_len += tok.len();
        (start, self.out.len() as u64)
    }

    /// Writes a token that came from a Ludii move, and maps it.
    pub(crate) fn mapped(&mut self, tok: &str, line: u32, number: u32) {
        let (pdn_start, pdn_end) = self.token(tok);
        self.map.push(SpanEntry {
            pdn_start,
            pdn_end,
            trl_line: line,
            ludii_move: number,
        });
    }

    /// Writes the result token and ends the game.
    pub(crate) fn finish(mut self, result: &str) -> (String, Vec<SpanEntry>) {
        self.token(result);
        self.out.push('\n');
        (self.out, self.map)
    }
}
