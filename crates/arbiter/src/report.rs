//! Printing diagnostics: `file:line:col: error[code]: message` with a source snippet, or one
//! JSON object per line.

use std::io::Write;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::termcolor::{Buffer, WriteColor};
use codespan_reporting::term::{self, Config, DisplayStyle};
use referee::{Diagnostic, Severity};
use serde::Serialize;

/// Output format of `validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `file:line:col: error[code]: message` with a source snippet, and a summary line.
    Human,
    /// One JSON object per line.
    Json,
}

/// Where a diagnostic is, in the terms a person reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
    /// The text of the line, decoded.
    pub text: String,
    /// The diagnostic's range within `text` (bytes of the decoded line).
    pub range: Range<usize>,
    /// For a record made from a Ludii trial: the number of the Ludii move.
    pub ludii_move: Option<u32>,
}

/// Where a diagnostic on a record made from a Ludii trial is in the trial: the line of the
/// Ludii move it came from (the first line for the record's tags).
pub fn trial_place(trial: &::archive::Trial, span: referee::Span) -> Place {
    let (line, ludii_move) = match trial.origin(span.start) {
        Some((line, number)) => (line, Some(number)),
        None => (1, None),
    };
    let text = trial
        .lines
        .get(line.saturating_sub(1) as usize)
        .map_or("", String::as_str);
    let (text, range) = snippet(text, 0..text.len());
    Place {
        line: u64::from(line),
        column: 1,
        text,
        range,
        ludii_move,
    }
}

/// Finds the line and column of `span` in the source of the game just read.
#[cfg(test)]
pub fn place(source: &pdn::Source<'_>, span: referee::Span) -> Place {
    Locator::new(source).place(span)
}

/// Bytes of a line kept on either side of a diagnostic: what the snippet shows is far less
/// (see [`SNIPPET_CHARS`]), and a very long line costs no more than this per diagnostic.
const WINDOW: usize = 1024;

/// The places of many diagnostics of one game: lines and columns are counted on from the
/// last place asked for when it lies before, so a game's diagnostics in order cost time
/// linear in its text (80,000 on one long line took 11 s when each counted from the start).
pub struct Locator<'s> {
    source: &'s pdn::Source<'s>,
    /// The last place: offset in the text, start of its line, line number, column (0-based
    /// characters).
    mark: Option<(usize, usize, u64, u64)>,
}

impl<'s> Locator<'s> {
    /// A locator over the source of the game just read.
    pub fn new(source: &'s pdn::Source<'s>) -> Locator<'s> {
        Locator { source, mark: None }
    }

    /// The place of `span`.
    pub fn place(&mut self, span: referee::Span) -> Place {
        let source = self.source;
        let text = source.text;
        let rel = (span.start.saturating_sub(source.offset) as usize).min(text.len());
        let (from, from_line_start, from_line, from_col) = match self.mark {
            Some(m) if m.0 <= rel => m,
            _ => (0, 0, source.line, 0),
        };
        let (line_start, line, col) = match memchr_rev(b'\n', &text[from..rel]) {
            Some(i) => {
                let line_start = from + i + 1;
                let lines = text[from..rel].iter().filter(|&&b| b == b'\n').count() as u64;
                let col = pdn::decode(&text[line_start..rel]).chars().count() as u64;
                (line_start, from_line + lines, col)
            }
            None => {
                let more = pdn::decode(&text[from..rel]).chars().count() as u64;
                (from_line_start, from_line, from_col + more)
            }
        };
        self.mark = Some((rel, line_start, line, col));
        // The part of the line shown: at most WINDOW bytes on either side (the end of the
        // line is looked for only that far), cut at UTF-8 character boundaries.
        let span_end = (span.end.saturating_sub(source.offset) as usize).clamp(rel, text.len());
        let limit = span_end.saturating_add(WINDOW).min(text.len());
        let (line_end, ends_line) = match text[rel..limit].iter().position(|&b| b == b'\n') {
            Some(i) => (rel + i, true),
            None => (limit, limit == text.len()),
        };
        let boundary = |mut i: usize, forward: bool| {
            while i > line_start && i < line_end && (text[i] & 0xC0) == 0x80 {
                i = if forward { i + 1 } else { i - 1 };
            }
            i
        };
        let win_start = boundary(rel.saturating_sub(WINDOW).max(line_start), true);
        let end_rel = span_end.min(line_end);
        let win_end = boundary(line_end, false);
        let mut raw_line = &text[win_start..win_end];
        if ends_line && win_end == line_end && raw_line.last() == Some(&b'\r') {
            raw_line = &raw_line[..raw_line.len() - 1];
        }
        let col_raw = (rel - win_start).min(raw_line.len());
        let end_raw = (end_rel - win_start).min(raw_line.len());
        let prefix = pdn::decode(&raw_line[..col_raw]);
        let decoded = pdn::decode(raw_line).into_owned();
        let start = prefix.len().min(decoded.len());
        let end = (pdn::decode(&raw_line[..end_raw]).len()).clamp(start, decoded.len());
        // The first line of `text` may start after the real start of its line.
        let shift = if line_start == 0 {
            source.column.saturating_sub(1)
        } else {
            0
        };
        let (mut shown, mut range) = snippet(&decoded, start..end.max(start));
        if win_start > line_start && !shown.starts_with('…') {
            shown.insert(0, '…');
            range = range.start + '…'.len_utf8()..range.end + '…'.len_utf8();
        }
        if !ends_line && !shown.ends_with('…') {
            shown.push('…');
        }
        Place {
            line,
            column: col + 1 + shift,
            text: shown,
            range,
            ludii_move: None,
        }
    }
}

/// Text for a terminal: control characters (ESC, BEL, CR, ...) shown escaped (`\u{1b}`),
/// so that a tag value, a file name or a message can never drive the terminal.
pub fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// Characters of a source line shown around a diagnostic at most.
const SNIPPET_CHARS: usize = 120;
/// Of those, how many come before the diagnostic's start when the line is cut.
const SNIPPET_BEFORE: usize = 40;

/// The line as shown: control characters escaped (`\u{7}`), and cut to about
/// [`SNIPPET_CHARS`] characters around `range` (`…` marks a cut). Returns the text and the
/// range within it.
fn snippet(line: &str, range: Range<usize>) -> (String, Range<usize>) {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let at = |byte: usize| {
        chars
            .iter()
            .position(|&(i, _)| i >= byte)
            .unwrap_or(chars.len())
    };
    let (first, last) = (at(range.start), at(range.end));
    let from = if chars.len() <= SNIPPET_CHARS {
        0
    } else {
        first.saturating_sub(SNIPPET_BEFORE)
    };
    let to = chars.len().min(from + SNIPPET_CHARS);
    let mut out = String::new();
    let mut mapped = 0..0;
    if from > 0 {
        out.push('…');
    }
    for (k, &(_, c)) in chars.iter().enumerate().take(to).skip(from) {
        if k == first {
            mapped.start = out.len();
        }
        if k == last {
            mapped.end = out.len();
        }
        if c == '\t' {
            out.push(' ');
        } else if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    if first >= to {
        mapped.start = out.len();
    }
    if last >= to {
        mapped.end = out.len();
    }
    if to < chars.len() {
        out.push('…');
    }
    mapped.end = mapped.end.max(mapped.start);
    (out, mapped)
}

fn memchr_rev(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().rposition(|&b| b == needle)
}

/// A one-line "file" for codespan that reports the real line number.
struct LineFile<'a> {
    name: &'a str,
    place: &'a Place,
}

impl<'a> Files<'a> for LineFile<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, _: ()) -> Result<&'a str, FilesError> {
        Ok(self.name)
    }
    fn source(&'a self, _: ()) -> Result<&'a str, FilesError> {
        Ok(&self.place.text)
    }
    fn line_index(&'a self, _: (), _byte: usize) -> Result<usize, FilesError> {
        Ok(0)
    }
    fn line_number(&'a self, _: (), _line_index: usize) -> Result<usize, FilesError> {
        Ok(self.place.line as usize)
    }
    fn line_range(&'a self, _: (), _line_index: usize) -> Result<Range<usize>, FilesError> {
        Ok(0..self.place.text.len())
    }
}

/// The JSON shape of one diagnostic.
#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    game: u64,
    line: u64,
    column: u64,
    ply: Option<u32>,
    #[serde(rename = "move")]
    move_number: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ludii_move: Option<u32>,
    code: &'a str,
    severity: &'static str,
    message: &'a str,
}

/// Writes one diagnostic in the chosen format.
pub fn write(
    out: &mut Buffer,
    format: Format,
    file: &str,
    game: u64,
    diagnostic: &Diagnostic,
    place: &Place,
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            let json = JsonDiagnostic {
                file,
                game,
                line: place.line,
                column: place.column,
                ply: diagnostic.ply,
                move_number: diagnostic.move_number,
                ludii_move: place.ludii_move,
                code: diagnostic.code.as_str(),
                severity: severity_name(diagnostic.severity),
                message: &diagnostic.message,
            };
            serde_json::to_writer(&mut *out, &json)?;
            out.write_all(b"\n")
        }
        Format::Human => {
            let file = escape(file);
            let files = LineFile { name: &file, place };
            let mut context = format!("game {game}");
            if let Some(m) = diagnostic.move_number {
                context.push_str(&format!(", move {m}"));
            }
            if let Some(p) = diagnostic.ply {
                context.push_str(&format!(", ply {p}"));
            }
            if let Some(m) = place.ludii_move {
                context.push_str(&format!(", Ludii move {m}"));
            }
            let cs = CsDiagnostic::new(match diagnostic.severity {
                Severity::Error => CsSeverity::Error,
                Severity::Warning => CsSeverity::Warning,
                Severity::Note => CsSeverity::Note,
            })
            .with_code(diagnostic.code)
            .with_message(escape(&diagnostic.message))
            .with_labels(vec![
                Label::primary((), place.range.clone()).with_message(context)
            ]);
            let short = Config {
                display_style: DisplayStyle::Short,
                ..Config::default()
            };
            term::emit(out, &short, &files, &cs).map_err(to_io)?;
            // The rich form repeats the header line: keep only its snippet.
            let mut rich = if out.supports_color() {
                Buffer::ansi()
            } else {
                Buffer::no_color()
            };
            term::emit(&mut rich, &Config::default(), &files, &cs).map_err(to_io)?;
            let rich = rich.into_inner();
            let body = rich
                .iter()
                .position(|&b| b == b'\n')
                .map_or(&rich[..0], |i| &rich[i + 1..]);
            out.write_all(body)
        }
    }
}

fn to_io(e: FilesError) -> std::io::Error {
    match e {
        FilesError::Io(e) => e,
        other => std::io::Error::other(other.to_string()),
    }
}

/// `error` or `warning`.
pub fn severity_name(severity: Severity) -> &'static str {
    severity.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &[u8], offset: u64, line: u64) -> pdn::Source<'_> {
        pdn::Source {
            text,
            offset,
            line,
            column: 1,
        }
    }

    #[test]
    fn place_counts_lines_and_characters() {
        let text = "[White \"Ölz\"]\n1. c3-c4 ÿ d6-d5\n".as_bytes();
        let at = text.windows(5).position(|w| w == b"d6-d5").unwrap() as u64;
        let p = place(
            &source(text, 100, 7),
            referee::Span::new(100 + at, 105 + at),
        );
        assert_eq!((p.line, p.column), (8, 12));
        assert_eq!(&p.text[p.range.clone()], "d6-d5");
    }

    #[test]
    fn escape_shows_control_characters() {
        assert_eq!(escape("plain é"), "plain é");
        let shown = escape("a\u{1b}[2J\u{7}b");
        assert_eq!(shown, "a\\u{1b}[2J\\u{7}b");
        assert!(!shown.chars().any(char::is_control));
    }

    #[test]
    fn long_lines_are_cut_and_control_characters_escaped() {
        let mut line = vec![b'x'; 5000];
        line[2000..2005].copy_from_slice(b"bad!!");
        line[1990] = 7;
        line.push(b'\n');
        let p = place(&source(&line, 0, 1), referee::Span::new(2000, 2005));
        assert_eq!(p.column, 2001);
        // 120 characters, the two cut marks and the escape of the one control character.
        assert_eq!(p.text.chars().count(), SNIPPET_CHARS + 2 + 4);
        assert!(p.text.starts_with('…') && p.text.ends_with('…'));
        assert_eq!(&p.text[p.range.clone()], "bad!!");
        assert!(p.text.contains("\\u{7}"));
        assert!(!p.text.chars().any(|c| c.is_control()));
        let short = snippet("a\tb", 2..3);
        assert_eq!(short, ("a b".to_string(), 2..3));
    }

    #[test]
    fn place_handles_latin1_and_crlf() {
        let text = b"[Event \"x\"]\r\n1. c3-c4 \xe9 d6-d5\r\n";
        let at = text.windows(5).position(|w| w == b"d6-d5").unwrap() as u64;
        let p = place(&source(text, 0, 1), referee::Span::new(at, at + 5));
        assert_eq!((p.line, p.column), (2, 12));
        assert_eq!(&p.text[p.range.clone()], "d6-d5");
        assert!(!p.text.ends_with('\r'));
    }
}
