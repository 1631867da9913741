//! Reading an input whole and reading it cut into chunks give the same games: the same events
//! with the same absolute spans, the same problems at the same lines and columns. Checked on
//! the shipped corpus, on the archives in `/work/shared/corpora` (skipped when absent) and on
//! generated inputs with odd layouts.

use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use proptest::prelude::*;

use pdn::chunk::{boundaries, map_ordered, Chunk, Chunker};
use pdn::{CommentKind, Span, SyntaxProblem, Visitor};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");
const CORPORA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpora");

/// Writes every callback as a line of text, spans shifted to absolute offsets.
struct Log {
    base: u64,
    events: Vec<String>,
    problems: Vec<(u64, String)>,
}

impl Log {
    fn span(&self, s: Span) -> String {
        format!("{}..{}", s.start + self.base, s.end + self.base)
    }
    fn push(&mut self, what: String) -> ControlFlow<()> {
        self.events.push(what);
        ControlFlow::Continue(())
    }
}

impl Visitor for Log {
    type Output = ();
    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        self.push(format!("game {}", offset + self.base))
    }
    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        let e = format!("tag {:?}={:?} {}", name, value, self.span(span));
        self.push(e)
    }
    fn begin_movetext(&mut self) -> ControlFlow<()> {
        self.push("movetext".into())
    }
    fn move_number(&mut self, n: u32, cont: bool, span: Span) -> ControlFlow<()> {
        let e = format!("number {n} {cont} {}", self.span(span));
        self.push(e)
    }
    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        let e = format!("move {:?} {}", token, self.span(span));
        self.push(e)
    }
    fn strength(&mut self, mark: &[u8], span: Span) -> ControlFlow<()> {
        let e = format!("strength {:?} {}", mark, self.span(span));
        self.push(e)
    }
    fn nag(&mut self, nag: u16, span: Span) -> ControlFlow<()> {
        let e = format!("nag {nag} {}", self.span(span));
        self.push(e)
    }
    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) -> ControlFlow<()> {
        let e = format!("comment {:?} {kind:?} {}", text, self.span(span));
        self.push(e)
    }
    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        let e = format!("setup {:?} {}", fen, self.span(span));
        self.push(e)
    }
    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        let e = format!("( {}", self.span(span));
        self.push(e)
    }
    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        let e = format!(") {}", self.span(span));
        self.push(e)
    }
    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        let e = format!("result {:?} {}", token, self.span(span));
        self.push(e)
    }
    fn problem(&mut self, p: SyntaxProblem) {
        let e = format!("problem {} {:?} {}", p.kind, p.severity, self.span(p.span));
        self.events.push(e);
        self.problems.push((p.span.start, p.kind.to_string()));
    }
    fn end_game(&mut self, span: Span) {
        let e = format!("end {}", self.span(span));
        self.events.push(e);
    }
}

/// Everything read from `chunk`: events, game starts, and each problem as
/// `kind@line:column` in the whole input.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    events: Vec<String>,
    starts: Vec<u64>,
    located: Vec<String>,
}

fn read_chunk(chunk: &Chunk) -> Seen {
    let mut reader = chunk.reader();
    let mut log = Log {
        base: chunk.base_offset,
        events: Vec::new(),
        problems: Vec::new(),
    };
    let mut out = Seen::default();
    loop {
        let before = log.events.len();
        log.problems.clear();
        match reader.read_game(&mut log) {
            Ok(Some(())) => {}
            Ok(None) => break,
            Err(e) => panic!("reading from memory cannot fail: {e}"),
        }
        let start = log.events[before].strip_prefix("game ").unwrap();
        out.starts.push(start.parse().unwrap());
        for (at, kind) in &log.problems {
            let loc = chunk.absolute(reader.locate(*at));
            out.located
                .push(format!("{kind}@{}:{}:{}", loc.byte, loc.line, loc.column));
        }
    }
    out.events = log.events;
    out
}

fn whole(bytes: &[u8]) -> Seen {
    read_chunk(&Chunk {
        base_offset: 0,
        first_line: 1,
        index: 0,
        bytes: bytes.to_vec(),
        cut_before_tags: false,
    })
}

/// Reads `bytes` cut at about `target` bytes, in parallel, results in order.
fn chunked(bytes: &[u8], target: usize) -> (Seen, Vec<u64>) {
    let mut all = Seen::default();
    let mut cuts = Vec::new();
    map_ordered(
        Chunker::with_target(bytes, target),
        3,
        |c| (c.base_offset, read_chunk(c)),
        |(base, r)| -> std::io::Result<()> {
            cuts.push(base);
            all.events.extend(r.events);
            all.starts.extend(r.starts);
            all.located.extend(r.located);
            Ok(())
        },
    )
    .unwrap();
    (all, cuts)
}

/// The core check; returns how many chunks the smallest target made.
fn same_games(bytes: &[u8], targets: &[usize]) -> usize {
    let expected = whole(bytes);
    for &b in boundaries(bytes).collect::<Vec<_>>().iter() {
        assert!(
            expected.starts.contains(&(b as u64)),
            "boundary {b} is not where a game starts"
        );
    }
    let mut most = 0;
    for &t in targets {
        let (got, cuts) = chunked(bytes, t);
        for c in cuts.iter().skip(1) {
            assert!(
                expected.starts.contains(c),
                "cut at {c} is not a game start"
            );
        }
        assert_eq!(got.starts, expected.starts, "target {t}");
        assert_eq!(got.located, expected.located, "target {t}");
        assert_eq!(got.events, expected.events, "target {t}");
        most = most.max(cuts.len());
    }
    most
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "pdn" || x == "gz") {
            out.push(p);
        }
    }
}

fn load(p: &Path) -> Vec<u8> {
    let raw = std::fs::read(p).unwrap();
    if p.extension().is_some_and(|x| x == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        raw
    }
}

#[test]
fn shipped_corpus_reads_the_same_whole_and_chunked() {
    let mut list = Vec::new();
    files(Path::new(CORPUS), &mut list);
    assert!(list.len() > 60, "the corpus is missing: {}", list.len());
    let mut whole_input = Vec::new();
    for p in &list {
        let bytes = load(p);
        same_games(&bytes, &[1, 700]);
        whole_input.extend_from_slice(&bytes);
        whole_input.extend_from_slice(b"\n");
    }
    // All files as one stream: self-played games end with a result on its own line, so
    // there are many places to cut.
    let chunks = same_games(&whole_input, &[4096, 64 * 1024]);
    assert!(chunks > whole_input.len() / 8192, "only {chunks} chunks");
}

#[test]
fn shared_archives_read_the_same_whole_and_chunked() {
    let root = Path::new(CORPORA);
    if !root.exists() {
        eprintln!("skipping: {} not found", root.display());
        return;
    }
    let mut list = Vec::new();
    files(root, &mut list);
    list.sort();
    let mut cut = 0;
    for p in &list {
        let bytes = load(p);
        let n = same_games(&bytes, &[1, 2000]);
        if n > 1 {
            cut += 1;
        }
    }
    eprintln!(
        "{cut} of {} archives were cut into several chunks",
        list.len()
    );
    assert!(cut > list.len() / 2, "{cut} of {}", list.len());
}

/// Inputs in which the scan can prove no boundary (games with variations, games without a
/// result) are cut where a reader of them finds a game's start, and read the same: a game
/// the next one's tags end still has its `missing-result`.
#[test]
fn inputs_without_a_provable_boundary_are_cut_where_games_begin() {
    let mut text = String::new();
    for i in 0..4000 {
        match i % 3 {
            0 => text.push_str(&format!("[E \"{i}\"]\n1. 32-28 (1. 33-29) 19-23 1-0\n\n")),
            1 => text.push_str(&format!("[E \"{i}\"]\n1. 32-28 {{no result}} 19-23\n")),
            _ => text.push_str(&format!("[E \"{i}\"]\n1. 32-28 ( 19-23\n*\n")),
        }
    }
    assert!(boundaries(text.as_bytes()).next().is_none());
    let chunks = same_games(text.as_bytes(), &[1, 5000]);
    assert!(chunks > 1, "{chunks}");
    assert!(whole(text.as_bytes())
        .located
        .iter()
        .any(|p| p.starts_with("missing-result")));
}

#[test]
fn trailing_text_and_bom() {
    let t = b"\xEF\xBB\xBF[E \"a\"]\n1-0\n[E \"b\"]\n1. 32-28 {open\n1-0\n[E \"c\"]\n*\n  junk {";
    same_games(t, &[1, 5, 1000]);
}

/// Fragments whose concatenation makes inputs with odd layouts: comments across lines that
/// hold tags and results, line comments and tag values with braces, throw groups, seat
/// results, padded moves, variations, CR LF, missing results.
const FRAGMENTS: &[&str] = &[
    "[Event \"x\"]",
    "[Event \"{\"]",
    "[Site \"a } 1-0\"]",
    "[Ev \"unterminated 1-0",
    "[Bad 1-0",
    "[1 4 2]",
    "[3",
    "1.",
    "12...",
    "32-28",
    "27x 18",
    "1- 6",
    "c3-d4",
    "S",
    "in",
    "c1+4+2",
    "{comment}",
    "{open",
    "}",
    "{ [%clk 0:01] }",
    "; line {",
    "% pct }",
    "(",
    ")",
    "(!?)",
    "(\n!\n)",
    "/FEN \"W:W1\"/",
    "\"",
    "$3",
    "text",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "N+",
    "S+W-",
    "2-0",
    "x",
    "-",
    "é",
];
const SEPARATORS: &[&str] = &[" ", "\n", "\n\n", "\r\n", "\t", "", "\n[Event \"y\"]\n"];

fn layout() -> impl Strategy<Value = Vec<u8>> {
    let piece = (
        proptest::sample::select(FRAGMENTS),
        proptest::sample::select(SEPARATORS),
    );
    proptest::collection::vec(piece, 0..120).prop_map(|v| {
        let mut s = String::new();
        for (f, sep) in v {
            s.push_str(f);
            s.push_str(sep);
        }
        s.into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn odd_layouts_read_the_same_whole_and_chunked(bytes in layout(), t in 1usize..200) {
        same_games(&bytes, &[t]);
    }

    #[test]
    fn arbitrary_bytes_read_the_same_whole_and_chunked(
        bytes in proptest::collection::vec(
            proptest::sample::select(&b"[E \"{}1-0\n\r;%/ *N+x"[..]), 0..300),
        t in 1usize..100,
    ) {
        same_games(&bytes, &[t]);
    }
}

#[test]
fn reader_without_chunking_agrees_with_read_all() {
    // Guards the helper above: it must see every game `read_all` sees.
    let t = b"[E \"a\"]\n1. 32-28 1-0\n[E \"b\"]\n1. 33-29 *\n";
    assert_eq!(whole(t).starts.len(), pdn::read_all(t).len());
}
