//! Conformance against the real archives in `/work/shared/corpora` (skipped when absent).
//!
//! The expected game and move counts were computed independently of this crate, with a
//! regular-expression tokenizer (comments, tags and move numbers stripped, padded moves
//! joined), and the first defect of each `fail/` file was found by reading the file.

use std::io::Read;
use std::path::{Path, PathBuf};

use pdn::{GameRecord, Node, Reader, RecordBuilder, Severity};

const CORPORA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpora");

fn corpus(rel: &str) -> Option<PathBuf> {
    let p = Path::new(CORPORA).join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipping: {} not found", p.display());
        None
    }
}

/// (file, games, moves including variations).
const SUCCEED: &[(&str, usize, usize)] = &[
    ("pdn-suite/succeed/090417ronde12.pdn", 7, 703),
    ("pdn-suite/succeed/Campionato Assoluto 2005.pdn", 53, 3227),
    ("pdn-suite/succeed/Cat.B1.pdn", 37, 397),
    ("pdn-suite/succeed/Cat.D1.pdn", 19, 184),
    ("pdn-suite/succeed/DUTCH96H.pdn", 13, 1381),
    ("pdn-suite/succeed/OCA_2.0.pdn", 43, 2280),
    ("pdn-suite/succeed/PROF2.pdn", 16, 1616),
    ("pdn-suite/succeed/PWCP 2a.pdn", 59, 688),
    ("pdn-suite/succeed/PWCP_2.pdn", 51, 602),
    ("pdn-suite/succeed/Principles of Strategy.pdn", 16, 594),
    ("pdn-suite/succeed/Tricks traps and shots.pdn", 91, 3017),
    ("pdn-suite/succeed/alphanumeric.pdn", 1, 1),
    ("pdn-suite/succeed/beginner.pdn", 58, 0),
    ("pdn-suite/succeed/borderclassics.pdn", 183, 62),
    ("pdn-suite/succeed/bridges.pdn", 267, 0),
    ("pdn-suite/succeed/candidate95.pdn", 8, 816),
    ("pdn-suite/succeed/fen.pdn", 3, 0),
    ("pdn-suite/succeed/gameterminator.pdn", 1, 1),
    ("pdn-suite/succeed/gem.pdn", 162, 0),
    ("pdn-suite/succeed/goulds.pdn", 262, 0),
    ("pdn-suite/succeed/inferno.pdn", 68, 3306),
    ("pdn-suite/succeed/kurnik.pdn", 4, 535),
    ("pdn-suite/succeed/linecomment.pdn", 1, 2),
    ("pdn-suite/succeed/lpc.pdn", 100, 0),
    ("pdn-suite/succeed/movestrength.pdn", 1, 3),
    ("pdn-suite/succeed/mrcd2000kval.pdn", 40, 1954),
    ("pdn-suite/succeed/mrcd2006.pdn", 44, 1994),
    ("pdn-suite/succeed/mrcd2007.pdn", 102, 4542),
    ("pdn-suite/succeed/nk ronde 01.pdn", 7, 1097),
    ("pdn-suite/succeed/nk ronde 02.pdn", 7, 1015),
    ("pdn-suite/succeed/nk2003-amsterdam.pdn", 33, 3268),
    ("pdn-suite/succeed/rk ronde 12.pdn", 7, 757),
    ("pdn-suite/succeed/schildpad.pdn", 34, 3014),
    ("pdn-suite/succeed/string.pdn", 1, 1),
    ("pdn-suite/succeed/unicode.pdn", 1, 2),
    ("pdn-suite/succeed/ussr1947.pdn", 153, 8730),
    ("pdn-suite/succeed/variation.pdn", 1, 9),
    ("pdn-suite/succeed/windragon.pdn", 1, 152),
    ("pdn-suite/succeed/wk2003.pdn", 23, 2381),
    // Two moves are glued to stray text (`8-11Redoversteppedthetimecontrolonthismove.`).
    ("english/tinsley.pdn", 724, 36112),
];

/// Reads a whole file: the records and every problem with its line.
fn read_file(path: &Path) -> (Vec<GameRecord>, Vec<(u64, Severity, &'static str)>) {
    let bytes = std::fs::read(path).expect("readable corpus file");
    read_bytes(&bytes, pdn::DEFAULT_CAPACITY)
}

fn read_bytes(
    bytes: &[u8],
    capacity: usize,
) -> (Vec<GameRecord>, Vec<(u64, Severity, &'static str)>) {
    let mut reader = Reader::with_capacity(bytes, capacity, pdn::DEFAULT_MAX_CAPACITY);
    let mut builder = RecordBuilder::new();
    let mut games = Vec::new();
    let mut problems = Vec::new();
    while let Some(g) = reader.read_game(&mut builder).expect("no I/O error") {
        for p in &g.problems {
            problems.push((
                reader.locate(p.span.start).line,
                p.severity,
                p.kind.as_str(),
            ));
        }
        games.push(g);
    }
    (games, problems)
}

fn count_moves(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Move(_) => 1,
            Node::Variation(v) => count_moves(&v.nodes),
            _ => 0,
        })
        .sum()
}

#[test]
fn succeed_files_read_without_errors_in_shared() {
    let mut files = 0;
    for &(rel, games, moves) in SUCCEED {
        let Some(path) = corpus(rel) else { continue };
        files += 1;
        let (records, problems) = read_file(&path);
        assert_eq!(records.len(), games, "{rel}: games");
        let got_moves: usize = records.iter().map(|r| count_moves(&r.movetext)).sum();
        assert_eq!(got_moves, moves, "{rel}: moves");
        let errors: Vec<_> = problems.iter().filter(|p| p.1 == Severity::Error).collect();
        assert!(errors.is_empty(), "{rel}: {errors:?}");
        let expected_warnings: &[(u64, Severity, &str)] = if rel.ends_with("tinsley.pdn") {
            &[
                (6434, Severity::Warning, "stray-text"),
                (7170, Severity::Warning, "stray-text"),
            ]
        } else {
            &[]
        };
        assert_eq!(problems, expected_warnings, "{rel}: warnings");
    }
    if files > 0 {
        assert_eq!(files, SUCCEED.len());
    }
}

#[test]
fn tinsley_stray_text_is_kept_as_a_comment_in_shared() {
    let Some(path) = corpus("english/tinsley.pdn") else {
        return;
    };
    let (records, _) = read_file(&path);
    let game = records
        .iter()
        .find(|r| r.tag("Event") == Some("Petal 1987, game 15"))
        .expect("the game is there");
    let n = game.movetext.len();
    assert!(matches!(&game.movetext[n - 2], Node::Move(m) if m.token == "8-11"));
    assert!(matches!(&game.movetext[n - 1],
        Node::Comment(c) if c.text == "Redoversteppedthetimecontrolonthismove."));
    assert_eq!(game.result.as_ref().map(|r| r.token.as_str()), Some("0-1"));
}

#[test]
fn succeed_files_round_trip_through_the_writer_in_shared() {
    for &(rel, _, _) in SUCCEED {
        let Some(path) = corpus(rel) else { continue };
        let (records, _) = read_file(&path);
        let text = pdn::write_pdn(&records);
        let (again, problems) = read_bytes(text.as_bytes(), pdn::DEFAULT_CAPACITY);
        assert!(
            problems.is_empty(),
            "{rel}: rewritten text has problems {problems:?}"
        );
        assert_eq!(again.len(), records.len(), "{rel}");
        for (i, (a, b)) in records.iter().zip(&again).enumerate() {
            assert!(
                a.same_content(b),
                "{rel}: game {i} differs:\n{a:#?}\n{b:#?}"
            );
            b.validate()
                .unwrap_or_else(|e| panic!("{rel}: game {i}: {e}"));
        }
        // The writer is a fixed point on its own output.
        assert_eq!(pdn::write_pdn(&again), text, "{rel}");
        // And the JSON form carries the same content.
        for r in &records {
            let back = GameRecord::from_json(&r.to_json()).expect("valid JSON record");
            assert_eq!(&back, r, "{rel}");
        }
    }
}

/// A reader that hands out one byte at a time.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() || buf.is_empty() {
            return Ok(0);
        }
        buf[0] = self.0[0];
        self.0 = &self.0[1..];
        Ok(1)
    }
}

#[test]
fn small_buffers_and_trickling_input_read_the_same_in_shared() {
    let rels = [
        "pdn-suite/succeed/nk ronde 02.pdn",
        "pdn-suite/succeed/windragon.pdn",
        "pdn-suite/succeed/DUTCH96H.pdn",
        "pdn-suite/fail/Cat.C1.pdn",
        "pdn-suite/fail/abatsiev.pdn",
    ];
    for rel in rels {
        let Some(path) = corpus(rel) else { continue };
        let bytes = std::fs::read(&path).expect("readable");
        let (expected, expected_problems) = read_bytes(&bytes, pdn::DEFAULT_CAPACITY);
        for capacity in [16, 100, 4096] {
            let (got, problems) = read_bytes(&bytes, capacity);
            assert_eq!(got, expected, "{rel} with a {capacity}-byte buffer");
            assert_eq!(
                problems, expected_problems,
                "{rel} with a {capacity}-byte buffer"
            );
        }
        let mut reader = Reader::with_capacity(Trickle(&bytes), 32, 1 << 20);
        let mut builder = RecordBuilder::new();
        let mut got = Vec::new();
        while let Some(g) = reader.read_game(&mut builder).expect("no I/O error") {
            got.push(g);
        }
        assert_eq!(got, expected, "{rel} read one byte at a time");
    }
}

/// (file, games, line of the first error, its kind, the Event of the game after it).
const FAIL: &[(&str, usize, u64, &str)] = &[
    // `1. 34-29 19-23` and then the next game's tags: no result.
    (
        "pdn-suite/fail/40Camp.DamaInternazionaleAssoluto.pdn",
        45,
        226,
        "missing-result",
    ),
    // `3. 8-3 . 1-0`: a lone dot.
    ("pdn-suite/fail/Cat.A1.pdn", 35, 405, "unexpected-token"),
    // `6.` at the end of the game, then the next game's tags.
    ("pdn-suite/fail/Cat.C1.pdn", 46, 579, "missing-move"),
    // `1. - - 2. - - ...`
    ("pdn-suite/fail/abatsiev.pdn", 56, 595, "unknown-move"),
    // `01. 34-29` (and the game ends with `4-6`, which is a move, not a result).
    ("pdn-suite/fail/delfts.pdn", 2, 14, "bad-move-number"),
    // `1. 0-2`: a move number without a move.
    ("pdn-suite/fail/mrdrcd07.pdn", 72, 198, "missing-move"),
    // `1. 1-0`.
    ("pdn-suite/fail/mrdrcd08.pdn", 40, 499, "missing-move"),
    // `{ nested { comment } }`.
    ("pdn-suite/fail/nested_comment.pdn", 1, 1, "nested-comment"),
];

#[test]
fn fail_files_report_their_defect_and_go_on_in_shared() {
    for &(rel, games, line, kind) in FAIL {
        let Some(path) = corpus(rel) else { continue };
        let bytes = std::fs::read(&path).expect("readable");
        let mut reader = Reader::new(&bytes[..]);
        let mut builder = RecordBuilder::new();
        let mut records = Vec::new();
        let mut first: Option<(usize, u64, &str)> = None;
        while let Some(g) = reader.read_game(&mut builder).expect("no I/O error") {
            if first.is_none() {
                if let Some(p) = g.problems.iter().find(|p| p.severity == Severity::Error) {
                    first = Some((
                        records.len(),
                        reader.locate(p.span.start).line,
                        p.kind.as_str(),
                    ));
                }
            }
            records.push(g);
        }
        let (game, got_line, got_kind) = first.unwrap_or_else(|| panic!("{rel}: no error"));
        assert_eq!((got_line, got_kind), (line, kind), "{rel}");
        assert_eq!(
            records.len(),
            games,
            "{rel}: games after the error are read"
        );
        if game + 1 < records.len() {
            let next = &records[game + 1];
            assert!(
                !next.tags.is_empty() || !next.movetext.is_empty(),
                "{rel}: the game after the error has content"
            );
        }
    }
}

#[test]
fn fail_files_carry_errors_in_every_defective_game_in_shared() {
    // mrdrcd07 has three games that are a move number and a result.
    let Some(path) = corpus("pdn-suite/fail/mrdrcd07.pdn") else {
        return;
    };
    let (records, problems) = read_file(&path);
    let lines: Vec<u64> = problems.iter().map(|p| p.0).collect();
    assert_eq!(lines, [198, 326, 583]);
    let bad: Vec<&str> = records
        .iter()
        .filter(|r| r.has_errors())
        .map(|r| r.result.as_ref().map_or("", |r| r.token.as_str()))
        .collect();
    assert_eq!(bad, ["0-2", "0-2", "2-0"]);
}
