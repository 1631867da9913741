//! Building PDN text while recording where each token went.

use crate::{Converted, SpanEntry};

/// Movetext lines are wrapped before this width.
const WIDTH: usize = 80;

/// The PDN text of one record under construction, with the span map of its move tokens:
/// tags, then the movetext wrapped before 80 columns, then the result.
#[derive(Debug, Default)]
pub struct PdnText {
    out: String,
    map: Vec<SpanEntry>,
    line_len: usize,
}

impl PdnText {
    /// An empty record.
    pub fn new() -> Self {
        PdnText {
            out: String::new(),
            map: Vec::new(),
            line_len: 0,
        }
    }

    /// A tag pair on its own line (`"` and a final `\` in the value are escaped).
    pub fn tag(&mut self, name: &str, value: &str) {
        let value = value.replace('"', "\\\"");
        self.out.push_str(&format!("[{name} \"{value}\"]\n"));
    }

    /// Ends the tag section.
    pub fn begin_movetext(&mut self) {
        self.out.push('\n');
        self.line_len = 0;
    }

    /// Starts a new line if `len` more bytes would not fit on this one.
    pub fn room(&mut self, len: usize) {
        if self.line_len > 0 && self.line_len + 1 + len > WIDTH {
            self.out.push('\n');
            self.line_len = 0;
        }
    }

    /// Writes a token (after a blank unless at a line start); returns its span.
    pub fn token(&mut self, tok: &str) -> (u64, u64) {
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
    pub fn mapped(&mut self, tok: &str, line: u32, number: u32) {
        let (pdn_start, pdn_end) = self.token(tok);
        self.map.push(SpanEntry {
            pdn_start,
            pdn_end,
            trl_line: line,
            ludii_move: number,
        });
    }

    /// Writes a comment `{text}` in the movetext (braces in `text` become parentheses).
    pub fn comment(&mut self, text: &str) {
        let text = format!("{{{}}}", text.replace('{', "(").replace('}', ")"));
        self.token(&text);
    }

    /// Writes the result token and ends the game.
    pub fn finish(mut self, result: &str) -> Converted {
        self.token(result);
        self.out.push('\n');
        Converted {
            pdn: self.out,
            map: self.map,
        }
    }
}
