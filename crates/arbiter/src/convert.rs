//! `arbiter convert`: canonical PDN or JSON, optionally in another move notation.

use std::io::{self, BufRead, BufReader, Read, Write};

use pdn::{GameRecord, Node, Severity};
use referee::{GameReport, Referee, Settings};

use crate::archive::Edits;
use crate::args::Target;
use ::archive::Source;

/// What a conversion met on its way.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ConvertTally {
    /// Games read (those written, and the [`ConvertTally::refused`]).
    pub games: u64,
    /// Moves written in the new notation.
    pub rewritten: u64,
    /// Problems found (syntax errors, moves that could not be rewritten).
    pub problems: u64,
    /// Inputs that could not be read, whole or from some game on (the games before are
    /// written).
    pub unreadable: u64,
    /// Games refused, not written: a part of them lay beyond a limit of the reader
    /// (variations nested too deep, a token too long to hold), and writing the rest would
    /// lose it silently.
    pub refused: u64,
}

impl ConvertTally {
    /// Adds the counts of another input.
    pub fn add(&mut self, other: &ConvertTally) {
        self.games += other.games;
        self.rewritten += other.rewritten;
        self.problems += other.problems;
        self.unreadable += other.unreadable;
        self.refused += other.refused;
    }

    /// The exit code: 2 when an input could not be read or a game was refused, else 1 when
    /// problems were found.
    pub fn exit_code(&self) -> u8 {
        if self.unreadable > 0 || self.refused > 0 {
            crate::exit::FAILURE
        } else {
            crate::exit::problems(self.problems)
        }
    }

    /// The closing line: `converted 3 games, 40 moves rewritten, 1 problem (see above)`.
    pub fn summary(&self, rewriting: bool) -> String {
        let written = self.games - self.refused;
        let mut line = format!(
            "converted {} game{}",
            written,
            if written == 1 { "" } else { "s" }
        );
        if rewriting {
            line.push_str(&format!(", {} moves rewritten", self.rewritten));
        }
        if self.problems > 0 {
            line.push_str(&format!(", {} problems (see above)", self.problems));
        }
        if self.unreadable > 0 {
            let s = if self.unreadable == 1 { "" } else { "s" };
            line.push_str(&format!(", {} unreadable input{s}", self.unreadable));
        }
        if self.refused > 0 {
            let s = if self.refused == 1 { "" } else { "s" };
            line.push_str(&format!(", {} game{s} refused (not written)", self.refused));
        }
        line
    }
}

/// Converts every game of `input` to `out` (a PDN writer, shared by the inputs of one run so
/// that their games stay apart; JSON lines and trials go to the writer underneath); notes
/// about problems go to `notes`. An input that cannot be read, whole or from some game on,
/// is noted and counted in the tally (the games read before are written); an error writing
/// `out` or `notes` is returned.
pub fn convert<W: Write>(
    input: &Source,
    target: Target,
    settings: &Settings,
    edits: &Edits,
    out: &mut pdn::Writer<W>,
    notes: &mut dyn Write,
) -> io::Result<ConvertTally> {
    let mut converter = Converter {
        name: input.name(),
        target,
        settings,
        edits,
        referee: (settings.rewrite.is_some() || edits.needs_replay())
            .then(|| Referee::new(games::games(), settings.clone())),
        out,
        notes,
        tally: ConvertTally::default(),
    };
    match converter.read(input) {
        Ok(()) => {}
        Err(e) if ::archive::is_read_error(&e) => {
            converter.tally.unreadable += 1;
            writeln!(converter.notes, "arbiter: {}: {e}", converter.name)?;
        }
        Err(e) => return Err(e),
    }
    Ok(converter.tally)
}

impl<W: Write> Converter<'_, W> {
    /// Reads and converts every game of `input`; errors of reading it are marked
    /// ([`::archive::read_error`]).
    fn read(&mut self, input: &Source) -> io::Result<()> {
        use ::archive::read_error;
        let opened = input
            .open(games::games())
            .map_err(|e| read_error(e.into()))?;
        let mut reader = BufReader::with_capacity(1 << 16, opened);
        let (json, head) = sniff_json(input, &mut reader).map_err(read_error)?;
        let reader = BufReader::with_capacity(1 << 16, io::Cursor::new(head).chain(reader));
        if !json {
            for record in pdn::Reader::new(reader).records() {
                self.game(record.map_err(read_error)?)?;
            }
            return Ok(());
        }
        for (i, line) in reader.lines().enumerate() {
            let line = line.map_err(read_error)?;
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            match GameRecord::from_json(trimmed) {
                Ok(record) => self.game(record)?,
                Err(e) => {
                    self.tally.problems += 1;
                    let name = &self.name;
                    writeln!(self.notes, "{name}:{}: not a game in JSON form: {e}", i + 1)?;
                }
            }
        }
        Ok(())
    }
}

/// One input's conversion under way.
struct Converter<'a, W: Write> {
    name: String,
    target: Target,
    settings: &'a Settings,
    edits: &'a Edits,
    /// Replays the games when a rewrite or an edit needs it.
    referee: Option<Referee<'static>>,
    out: &'a mut pdn::Writer<W>,
    notes: &'a mut dyn Write,
    tally: ConvertTally,
}

impl<W: Write> Converter<'_, W> {
    /// Converts one game: its syntax errors noted, replayed and edited if need be, written.
    fn game(&mut self, mut record: GameRecord) -> io::Result<()> {
        self.tally.games += 1;
        let game = self.tally.games;
        let name = crate::report::escape(&self.name);
        // A part the reader could not keep: refused whole rather than written without it.
        if let Some(p) = record
            .problems
            .iter()
            .find(|p| matches!(p.kind, pdn::SyntaxKind::TooDeep | pdn::SyntaxKind::TooLong))
        {
            let what = match p.kind {
                pdn::SyntaxKind::TooDeep => format!(
                    "a variation nested deeper than the limit of {}",
                    pdn::MAX_DEPTH
                ),
                _ => format!(
                    "a token longer than the limit of {} MiB",
                    (pdn::DEFAULT_MAX_CAPACITY / 2) >> 20
                ),
            };
            self.tally.refused += 1;
            writeln!(
                self.notes,
                "{name}: game {game}, byte {}: {what}; the game is refused, not written",
                p.span.start,
            )?;
            return Ok(());
        }
        for p in &record.problems {
            if p.severity == Severity::Error {
                self.tally.problems += 1;
                let done = match (p.kind, self.target) {
                    (pdn::SyntaxKind::MissingResult, Target::Pdn) => "`*` written",
                    _ => "kept as read",
                };
                writeln!(self.notes, "{name}: game {game}: {} ({done})", p.message)?;
            }
        }
        let plies = match self.referee.is_some() {
            true => self.replay(&mut record)?,
            false => None,
        };
        if !self.edits.strip.is_empty() {
            archive::strip(&mut record, self.edits.strip);
        }
        self.write(&record, plies)
    }

    /// Replays the game: notes on what cannot be rewritten, the rewrites and fixes applied;
    /// returns the report, whose plies `--positions` writes.
    fn replay(&mut self, record: &mut GameRecord) -> io::Result<Option<GameReport>> {
        let Some(referee) = self.referee.as_mut() else {
            return Ok(None);
        };
        let (name, game, notes) = (&self.name, self.tally.games, &mut *self.notes);
        let report = record.accept(referee);
        if let (Some(info), Some(true)) =
            (report.game, self.settings.rewrite.and_then(|r| r.numeric))
        {
            if !info.numeric_squares {
                writeln!(
                    notes,
                    "{name}: game {game}: {} squares have no numeric form; they are written as names",
                    info.label
                )?;
            }
        }
        if report.game.is_none() {
            let why = report
                .diagnostics
                .iter()
                .find(|d| d.code == "unknown-game")
                .map_or("the game is not identified", |d| d.message.as_str());
            writeln!(notes, "{name}: game {game}: {why}; moves kept as written")?;
        }
        for d in report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
        {
            if d.code.rules().is_none() || d.ply.is_none() {
                continue;
            }
            self.tally.problems += 1;
            writeln!(
                notes,
                "{name}: game {game}, ply {}: {} [{}]; the rest of that line is kept as written",
                d.ply.unwrap_or(0),
                d.message,
                d.code
            )?;
        }
        self.tally.rewritten += apply_rewrites(record, &report.rewrites);
        let rules = report
            .game
            .and_then(|g| games::games().explorer(g, &report.options));
        let fixes = archive::fix(record, &report, rules.as_deref(), self.edits.fix);
        for change in fixes {
            writeln!(notes, "{name}: game {game}: {change}")?;
        }
        Ok(self.edits.positions.then_some(report))
    }

    /// Writes the game in the target form.
    /// With `--positions`, the record's JSON form gets a `plies` array written as it is made
    /// from the report (a game of 200,000 plies is not held as a JSON value).
    fn write(&mut self, record: &GameRecord, plies: Option<GameReport>) -> io::Result<()> {
        match self.target {
            Target::Pdn => self.out.write(record)?,
            Target::Json => {
                let out = self.out.get_mut();
                match plies {
                    Some(report) => {
                        #[derive(serde::Serialize)]
                        struct WithPlies<'a> {
                            #[serde(flatten)]
                            record: &'a GameRecord,
                            plies: archive::PliesJson<'a>,
                        }
                        let value = WithPlies {
                            record,
                            plies: archive::PliesJson(&report),
                        };
                        serde_json::to_writer(&mut *out, &value)?;
                    }
                    None => out.write_all(record.to_json().as_bytes())?,
                }
                out.write_all(b"\n")?;
            }
            // Trials are written from this PDN, one per game, by the `trials` module.
            Target::Trl => self.out.write(record)?,
        }
        Ok(())
    }
}

/// The longest first line looked at to tell JSON from PDN (a record in JSON is one line).
const MAX_SNIFF: u64 = 64 << 20;

/// Whether the input holds records in JSON lines: by its name (`.json`, `.jsonl`), else by
/// its first line, which is a record's JSON object (see [`pdn::is_json_record`]). Returns the
/// bytes consumed to decide, to be read again.
fn sniff_json(
    input: &Source,
    reader: &mut BufReader<Box<dyn Read + Send>>,
) -> io::Result<(bool, Vec<u8>)> {
    if let Source::File(p) = input {
        let name = p.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".json") || name.ends_with(".jsonl") {
            return Ok((true, Vec::new()));
        }
    }
    let head = reader.fill_buf()?;
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if head.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Ok((false, Vec::new()));
    }
    let mut line = Vec::new();
    reader
        .by_ref()
        .take(MAX_SNIFF)
        .read_until(b'\n', &mut line)?;
    while line.iter().all(u8::is_ascii_whitespace) && !line.is_empty() {
        let at = line.len();
        reader
            .by_ref()
            .take(MAX_SNIFF)
            .read_until(b'\n', &mut line)?;
        if line.len() == at {
            break;
        }
    }
    let text = String::from_utf8_lossy(&line);
    let text = text.trim_start_matches('\u{feff}');
    Ok((pdn::is_json_record(text.trim()), line))
}

/// Writes the rewritten plies into the record; returns how many plies were rewritten. A
/// ply of several tokens (a Thaayam turn) is replaced as a whole: its new tokens take the
/// place of the old ones, with the old tokens' annotations after the last of them.
fn apply_rewrites(record: &mut GameRecord, rewrites: &[(u32, u32, String)]) -> u64 {
    let mut by_first: std::collections::HashMap<u32, (u32, &str)> =
        std::collections::HashMap::with_capacity(rewrites.len());
    for (first, len, text) in rewrites {
        by_first.insert(*first, (*len, text.as_str()));
    }
    let mut state = Rewriting {
        by_first,
        index: 0,
        skip: 0,
        carried: Vec::new(),
        count: 0,
    };
    let nodes = std::mem::take(&mut record.movetext);
    record.movetext = state.nodes(nodes);
    state.count
}

/// The walk of [`apply_rewrites`] over the movetext, in file order.
struct Rewriting<'a> {
    by_first: std::collections::HashMap<u32, (u32, &'a str)>,
    /// Index of the next move token, counting every token in file order from 0.
    index: u32,
    /// Old tokens of the current ply still to drop.
    skip: u32,
    /// Annotations of dropped tokens, given to the last new token once the ply is done.
    carried: Vec<pdn::Annotation>,
    count: u64,
}

impl Rewriting<'_> {
    fn nodes(&mut self, nodes: Vec<Node>) -> Vec<Node> {
        let mut out = Vec::with_capacity(nodes.len());
        for node in nodes {
            match node {
                Node::Move(m) => self.token(m, &mut out),
                Node::Variation(mut v) => {
                    v.nodes = self.nodes(std::mem::take(&mut v.nodes));
                    out.push(Node::Variation(v));
                }
                other => out.push(other),
            }
        }
        out
    }

    fn token(&mut self, m: pdn::Move, out: &mut Vec<Node>) {
        let index = self.index;
        self.index += 1;
        if self.skip > 0 {
            self.skip -= 1;
            self.carried.extend(m.annotations);
            if self.skip == 0 {
                self.give_annotations(out);
            }
            return;
        }
        let Some(&(len, text)) = self.by_first.get(&index) else {
            out.push(Node::Move(m));
            return;
        };
        self.count += 1;
        self.carried = m.annotations;
        for token in ply_tokens(text) {
            out.push(Node::Move(pdn::Move {
                token: token.to_string(),
                annotations: Vec::new(),
                span: m.span,
            }));
        }
        self.skip = len.saturating_sub(1);
        if self.skip == 0 {
            self.give_annotations(out);
        }
    }

    fn give_annotations(&mut self, out: &mut [Node]) {
        if let Some(Node::Move(last)) = out.iter_mut().rev().find(|n| matches!(n, Node::Move(_))) {
            last.annotations.append(&mut self.carried);
        }
    }
}

/// The tokens of a written ply: split at blanks outside brackets (`S [1 4 2] in c1+4+2`).
fn ply_tokens(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut depth = 0u32;
    let mut start = None;
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c.is_whitespace() && depth == 0 {
            if let Some(s) = start.take() {
                tokens.push(&text[s..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        tokens.push(&text[s..]);
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee::Rewrite;

    fn run(text: &str, rewrite: Option<Rewrite>, target: Target) -> (String, String, ConvertTally) {
        let dir = std::env::temp_dir().join(format!(
            "arbiter-convert-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.pdn");
        std::fs::write(&path, text).unwrap();
        let settings = Settings {
            game: games::games().registry().by_name("tama"),
            rewrite,
            ..Settings::default()
        };
        let (mut out, mut notes) = (pdn::Writer::new(Vec::new()), Vec::new());
        let edits = Edits::default();
        let tally = convert(
            &Source::File(path),
            target,
            &settings,
            &edits,
            &mut out,
            &mut notes,
        )
        .unwrap();
        let out = out.finish().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(notes).unwrap(),
            tally,
        )
    }

    const GAME: &str =
        "[Event \"t\"]\n[Zebra \"kept\"]\n1. c3-c4 {hi} f6-f5 (1... b6-b5 $1) 2. c4-c5 *\n";

    #[test]
    fn numeric_squares_keep_comments_variations_and_tags() {
        let rewrite = Rewrite {
            numeric: Some(true),
            full_captures: None,
        };
        let (out, notes, tally) = run(GAME, Some(rewrite), Target::Pdn);
        assert!(notes.is_empty(), "{notes}");
        assert_eq!(tally.rewritten, 4);
        // c3 = 19, c4 = 27, f6 = 46, f5 = 38, b6 = 42, b5 = 34, c5 = 35 (1 = a1).
        assert!(
            out.contains("1. 19-27 {hi} 46-38 (1... 42-34 $1) 2. 27-35 *"),
            "{out}"
        );
        assert!(out.contains("[Zebra \"kept\"]"));
        // And back again.
        let back = Rewrite {
            numeric: Some(false),
            full_captures: None,
        };
        let (again, _, _) = run(&out, Some(back), Target::Pdn);
        assert!(
            again.contains("1. c3-c4 {hi} f6-f5 (1... b6-b5 $1) 2. c4-c5 *"),
            "{again}"
        );
    }

    #[test]
    fn json_round_trip_keeps_content() {
        let (json, _, _) = run(GAME, None, Target::Json);
        assert_eq!(json.lines().count(), 1);
        let (pdn_again, _, _) = run(&json, None, Target::Pdn);
        let a = pdn::read_all(GAME.as_bytes());
        let b = pdn::read_all(pdn_again.as_bytes());
        assert!(a[0].same_content(&b[0]));
    }

    #[test]
    fn illegal_move_is_reported_and_kept() {
        let rewrite = Rewrite {
            numeric: Some(true),
            full_captures: None,
        };
        let (out, notes, tally) = run("1. c3-c5 f6-f5 *\n", Some(rewrite), Target::Pdn);
        assert_eq!(tally.problems, 1);
        assert!(notes.contains("ply 1"), "{notes}");
        assert!(out.contains("c3-c5 f6-f5"), "{out}");
    }
}
