//! Reader behaviour: locations, source text, skipping, limits, encodings, replay.

mod common;

use std::ops::ControlFlow;

use pdn::{
    CommentKind, GameRecord, Location, Node, Reader, RecordBuilder, Severity, Span, Visitor,
};

fn records(input: &[u8]) -> Vec<GameRecord> {
    pdn::read_all(input)
}

#[test]
fn locate_counts_lines_and_characters() {
    // Line 3 holds "é" (two bytes in UTF-8) before the move.
    let input = "[Event \"a\"]\r\n\r\n{é} 32-28 *".as_bytes();
    let mut r = Reader::new(input);
    let g = r.read_game(&mut RecordBuilder::new()).unwrap().unwrap();
    let Node::Move(m) = &g.movetext[1] else {
        panic!("a move")
    };
    assert_eq!(
        r.locate(m.span.start),
        Location {
            byte: m.span.start,
            line: 3,
            column: 5
        }
    );
    assert_eq!(r.locate(0).line, 1);
    assert_eq!(r.locate(0).column, 1);
}

#[test]
fn locate_falls_back_to_bytes_on_non_utf8_lines() {
    let input = b"[A \"1\"] {M\xfcller} 32-28 *";
    let mut r = Reader::new(&input[..]);
    let g = r.read_game(&mut RecordBuilder::new()).unwrap().unwrap();
    let Node::Move(m) = &g.movetext[1] else {
        panic!("a move")
    };
    assert_eq!(r.locate(m.span.start).column, 18);
}

#[test]
fn locate_after_many_refills_with_a_tiny_buffer() {
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(&format!("[Event \"{i}\"]\n1. 32-28 19-23 *\n\n"));
    }
    let mut r = Reader::with_capacity(text.as_bytes(), 16, 1 << 20);
    let mut b = RecordBuilder::new();
    let mut n = 0u64;
    while let Some(g) = r.read_game(&mut b).unwrap() {
        // Game n starts on line 3n + 1; its result is on the next line, column 16.
        assert_eq!(r.locate(g.span.start).line, 3 * n + 1);
        let res = g.result.unwrap();
        assert_eq!(
            r.locate(res.span.start),
            Location {
                byte: res.span.start,
                line: 3 * n + 2,
                column: 16
            }
        );
        let src = r.source();
        assert_eq!(src.line, 3 * n + 1);
        assert_eq!(src.offset, g.span.start);
        assert_eq!(
            src.text,
            &text.as_bytes()[g.span.start as usize..g.span.end as usize]
        );
        n += 1;
    }
    assert_eq!(n, 200);
}

#[test]
fn source_starts_at_the_line_of_the_game() {
    let input = b"[A \"1\"]\n1. 32-28 1-0 [B \"2\"] 1. 33-29 0-1\n";
    let mut r = Reader::new(&input[..]);
    let mut b = RecordBuilder::new();
    r.read_game(&mut b).unwrap().unwrap();
    let g = r.read_game(&mut b).unwrap().unwrap();
    let src = r.source();
    assert_eq!(src.text, b"1. 32-28 1-0 [B \"2\"] 1. 33-29 0-1");
    assert_eq!((src.offset, src.line, src.column), (8, 2, 1));
    assert_eq!(g.span.start, 21);
    assert_eq!(r.locate(g.span.start).column, 14);
    assert!(r.read_game(&mut b).unwrap().is_none());
    assert!(r.source().text.is_empty());
}

#[test]
fn bom_is_skipped_but_counted() {
    let input = b"\xEF\xBB\xBF[Event \"x\"] *";
    let mut r = Reader::new(&input[..]);
    let g = r.read_game(&mut RecordBuilder::new()).unwrap().unwrap();
    assert_eq!(g.tags[0].span, Span::new(3, 14));
    assert_eq!(r.locate(3).column, 1);
    assert_eq!(r.source().text, b"[Event \"x\"] *");
}

/// Stops at the second move; the reader skips the rest of the game.
struct StopAtSecondMove {
    moves: usize,
    ended: usize,
}

impl Visitor for StopAtSecondMove {
    type Output = usize;
    fn mov(&mut self, _: &[u8], _: Span) -> ControlFlow<()> {
        self.moves += 1;
        if self.moves % 2 == 0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
    fn end_game(&mut self, _: Span) -> usize {
        self.ended += 1;
        self.moves
    }
}

#[test]
fn break_skips_the_rest_of_the_game_only() {
    let input = b"1. 32-28 19-23 (18-23 *) 2. 33-29 { } 1-0\n1. 31-27 16-21 2. 1-2 *";
    let mut r = Reader::new(&input[..]);
    let mut v = StopAtSecondMove { moves: 0, ended: 0 };
    assert_eq!(r.read_game(&mut v).unwrap(), Some(2));
    assert_eq!(r.read_game(&mut v).unwrap(), Some(4));
    assert_eq!(r.read_game(&mut v).unwrap(), None);
    assert_eq!(v.ended, 2);
}

/// Skips every variation.
#[derive(Default)]
struct MainLine(Vec<String>);

impl Visitor for MainLine {
    type Output = Vec<String>;
    fn mov(&mut self, t: &[u8], _: Span) -> ControlFlow<()> {
        self.0.push(String::from_utf8_lossy(t).into());
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _: Span) -> ControlFlow<()> {
        ControlFlow::Break(())
    }
    fn end_variation(&mut self, _: Span) -> ControlFlow<()> {
        panic!("skipped variations are not closed")
    }
    fn end_game(&mut self, _: Span) -> Vec<String> {
        std::mem::take(&mut self.0)
    }
}

#[test]
fn break_in_begin_variation_skips_that_variation() {
    let input = b"1. 32-28 19-23 (18-23 (17-21) {)} 38-32) 2. 28x19 (2. 33-28) 14x23 *";
    let mut r = Reader::new(&input[..]);
    let moves = r.read_game(&mut MainLine::default()).unwrap().unwrap();
    assert_eq!(moves, ["32-28", "19-23", "28x19", "14x23"]);
}

#[test]
fn a_token_longer_than_the_limit_is_skipped() {
    let mut input = b"1. 32-28 {".to_vec();
    input.extend(std::iter::repeat(b'x').take(10_000));
    input.extend_from_slice(b"} 19-23 *\n[Event \"next\"] 1. 33-29 *");
    let mut r = Reader::with_capacity(&input[..], 64, 1024);
    let mut b = RecordBuilder::new();
    let g = r.read_game(&mut b).unwrap().unwrap();
    assert_eq!(g.problems.len(), 1);
    assert_eq!(g.problems[0].kind, "too-long");
    let moves: Vec<_> = g
        .movetext
        .iter()
        .filter_map(|n| match n {
            Node::Move(m) => Some(m.token.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(moves, ["32-28", "19-23"]);
    let g2 = r.read_game(&mut b).unwrap().unwrap();
    assert_eq!(g2.tag("Event"), Some("next"));
    assert!(g2.problems.is_empty());
}

#[test]
fn a_game_longer_than_the_limit_is_read_with_part_of_its_source() {
    let mut input = b"[Event \"long\"]\n".to_vec();
    for i in 1..=2000 {
        input.extend_from_slice(format!("{i}. 32-28 19-23\n").as_bytes());
    }
    input.extend_from_slice(b"1-0\n");
    let mut r = Reader::with_capacity(&input[..], 64, 4096);
    let g = r.read_game(&mut RecordBuilder::new()).unwrap().unwrap();
    assert!(g.problems.is_empty());
    assert_eq!(g.movetext.len(), 6000);
    let src = r.source();
    assert!(src.offset > 0 && src.text.len() <= 4096);
    assert!(src.text.ends_with(b"1-0"));
    assert_eq!(src.line, r.locate(src.offset).line);
    assert_eq!(r.locate(g.result.unwrap().span.start).line, 2002);
}

#[test]
fn single_byte_encodings_are_decoded_per_game() {
    // A Russian game in Windows-1251 and a Dutch one in Latin-1.
    let mut input = b"[White \"\xc8\xe2\xe0\xed\xee\xe2\"] {\xf5\xee\xe4} 32-28 *\n".to_vec();
    input.extend_from_slice(b"[White \"Ren\xe9\"] {na\xefef} 32-28 *\n");
    let g = records(&input);
    assert_eq!(g[0].tag("White"), Some("Иванов"));
    assert!(matches!(&g[0].movetext[0], Node::Comment(c) if c.text == "ход"));
    assert_eq!(g[1].tag("White"), Some("René"));
    assert!(matches!(&g[1].movetext[0], Node::Comment(c) if c.text == "naïef"));
    assert!(g.iter().all(|r| r.problems.is_empty()));
}

#[test]
fn record_keeps_structure() {
    let g = &records(
        b"[Event \"e\"] [Zeta \"z\"] [Alpha \"a\"]\n1. 32-28!? $1 {c} $2 19-23 (18-23 ; l\n) /FEN \"W:W1:B2\"/ 2-0",
    )[0];
    assert_eq!(
        g.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["Event", "Zeta", "Alpha"]
    );
    let Node::Move(m) = &g.movetext[1] else {
        panic!()
    };
    assert_eq!(m.strength(), Some("!?"));
    assert_eq!(m.nags().collect::<Vec<_>>(), [1]);
    assert!(matches!(&g.movetext[2], Node::Comment(c) if c.kind == CommentKind::Brace));
    assert!(matches!(&g.movetext[3], Node::Annotation(pdn::Annotation::Nag(n)) if n.nag == 2));
    let Node::Variation(v) = &g.movetext[5] else {
        panic!()
    };
    assert!(
        matches!(&v.nodes[1], Node::Comment(c) if c.kind == CommentKind::Line && c.text == " l")
    );
    assert!(matches!(&g.movetext[6], Node::Setup(s) if s.fen == "W:W1:B2"));
    assert_eq!(g.result.as_ref().unwrap().token, "2-0");
}

#[test]
fn accept_replays_what_was_read() {
    let input: &[u8] = br#"% note
[Event "a \"q\""]
[Site "s"]
{c1} 1. 32-28!? $3 19-23 (18-23 (17-21? ) ; x
) 2. 28x19 {[%clk 1:00]} /FEN "W:W1:B2"/ 2... 14x23 1-0
[Event "b"] 1. - - . 0-1
"#;
    let direct = common::log(input);
    let mut replayed = Vec::new();
    for g in records(input) {
        replayed.push(g.accept(&mut common::Log::default()));
    }
    assert_eq!(replayed.join("\n"), direct);
}

#[test]
fn same_content_ignores_spans_problems_and_tag_order() {
    let a = &records(b"[White \"w\"] [Event \"e\"] [X \"1\"] [Y \"2\"] 1. 32-28 {x} *")[0];
    // The comment after the result, at the end of the input, is read into the game (and is
    // not closed: an error).
    let b = &records(b"[Event \"e\"]\n[White \"w\"]\n[X \"1\"]\n[Y \"2\"]\n\n1. 32-28 * {x")[0];
    assert!(b.has_errors());
    assert!(a.same_content(b));
    assert_ne!(a, b);
    let c = &records(b"[Event \"e\"] [White \"w\"] [Y \"2\"] [X \"1\"] 1. 32-28 {x} *")[0];
    assert!(!a.same_content(c), "unknown tags keep their order");
    let d = &records(b"[Event \"e\"] [White \"w\"] [X \"1\"] [Y \"2\"] 1. 32-28 (19-23) {x} *")[0];
    assert!(!a.same_content(d));
}

#[test]
fn problems_are_errors_or_warnings_with_known_kinds() {
    let g = &records(b"1. 32-28 Nice 01. 19-23 } *")[0];
    let kinds: Vec<_> = g
        .problems
        .iter()
        .map(|p| (p.severity, p.kind.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (Severity::Warning, "stray-text"),
            (Severity::Error, "bad-move-number"),
            (Severity::Error, "unmatched-brace"),
        ]
    );
    for p in &g.problems {
        assert!(pdn::PROBLEM_KINDS.contains(&p.kind.as_str()));
    }
}

#[test]
fn empty_and_blank_inputs_have_no_games() {
    for input in [
        &b""[..],
        b"   \n\r\n\t",
        b"\xEF\xBB\xBF",
        b"\xEF\xBB\xBF \n",
    ] {
        assert!(records(input).is_empty());
    }
}

#[test]
fn deep_variations_are_skipped_beyond_the_limit() {
    let mut input = String::from("1. 32-28 ");
    for _ in 0..100 {
        input.push_str("( 19-23 ");
    }
    for _ in 0..100 {
        input.push(')');
    }
    input.push_str(" 2. 33-29 *");
    let g = &records(input.as_bytes())[0];
    let kinds: Vec<_> = g.problems.iter().map(|p| p.kind.as_str()).collect();
    assert_eq!(kinds, ["too-deep"]);
    let mut depth = 0;
    let mut nodes = &g.movetext;
    while let Some(Node::Variation(v)) = nodes.iter().find(|n| matches!(n, Node::Variation(_))) {
        depth += 1;
        nodes = &v.nodes;
    }
    assert_eq!(depth, pdn::MAX_DEPTH);
    assert!(matches!(g.movetext.last(), Some(Node::Move(m)) if m.token == "33-29"));
    assert!(g.to_pdn().starts_with("1. 32-28 (19-23 (19-23"));
}

#[test]
fn locating_many_problems_in_one_long_line_is_fast_and_exact() {
    // 20 000 stray dots on one line: each located in order from a cached position.
    let mut input = "[Event \"é\"]\n{é}".to_string();
    for _ in 0..20_000 {
        input.push_str(" .");
    }
    input.push_str(" *");
    let mut r = Reader::new(input.as_bytes());
    let g = r.read_game(&mut RecordBuilder::new()).unwrap().unwrap();
    assert_eq!(g.problems.len(), 20_000);
    for (i, p) in g.problems.iter().enumerate() {
        let at = r.locate(p.span.start);
        assert_eq!((at.line, at.column), (2, 5 + 2 * i as u64));
    }
    // Going back still gives the right answer.
    assert_eq!(r.locate(g.problems[0].span.start).column, 5);
}

/// A variation replaces a move, so one without any move is an error (found by fuzzing:
/// `((!))` is a variation holding only a parenthesised strength mark, which no canonical
/// text can express).
#[test]
fn variation_without_a_move_is_an_error() {
    for text in [
        "((!))",
        "1. 32-28 () *",
        "1. 32-28 ( {just a note} ) *",
        "1. 32-28 ( $1 ) *",
    ] {
        let records = pdn::read_all(text.as_bytes());
        let kinds: Vec<&str> = records
            .iter()
            .flat_map(|r| r.problems.iter().map(|p| p.kind.as_str()))
            .collect();
        assert!(kinds.contains(&"empty-variation"), "{text}: {kinds:?}");
    }
    for text in [
        "1. 32-28 (32-27) *",
        "1. 32-28 ( 1. 33-28 ( 1. 34-30 ) ) *",
        "1. 32-28 (!?) *",
    ] {
        let records = pdn::read_all(text.as_bytes());
        assert!(
            records.iter().all(|r| r.problems.is_empty()),
            "{text}: {:?}",
            records[0].problems
        );
    }
}

#[test]
fn a_variation_left_with_a_lone_strength_mark_is_still_writable() {
    // Found by the fuzzer: `(!!` is not closed, so it is a variation holding a mark, which
    // would be written `(!!)` and read back as a mark; the mark is kept as a comment.
    let input = b"1.32-283(!)?!!)?(!!\n";
    let g = &records(input)[0];
    assert!(g.has_errors());
    let Some(Node::Variation(v)) = g.movetext.last() else {
        panic!("{g:?}")
    };
    assert!(matches!(&v.nodes[..], [Node::Comment(c)] if c.text == "!!"));
    assert_eq!(GameRecord::from_json(&g.to_json()).ok().as_ref(), Some(g));
    let text = g.to_pdn();
    assert_eq!(records(text.as_bytes())[0].to_pdn(), text);
}

/// Found by a one-hour fuzzing run: two tag names written in different encodings (Latin-1 and
/// UTF-8) decode to the same text; the second one begins a new game, as a repeated name does,
/// so every record stays writable and its JSON form reads back. (The fuzzer's input was a
/// mutated piece of a real archive; this is the same case written by hand.)
#[test]
fn a_tag_name_repeated_in_another_encoding_starts_a_new_game() {
    let text: &[u8] =
        b"[Event \"a\"]\n[DamboTop\xe2 \"1\"]\n[DamboTop\xc3\xa2 \"2\"]\n1. 32-28 *\n";
    let games = pdn::read_all(text);
    assert_eq!(games.len(), 2, "{games:?}");
    for g in &games {
        assert!(g.validate().is_ok(), "{g:?}");
        let back = pdn::GameRecord::from_json(&g.to_json()).expect("JSON reads back");
        assert_eq!(&back, g);
    }
}

/// Gives `text` in reads of at most `step` bytes, then fails.
struct FailsAfter {
    text: std::io::Cursor<Vec<u8>>,
    step: usize,
}

impl std::io::Read for FailsAfter {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.step);
        match self.text.read(&mut buf[..n])? {
            0 => Err(std::io::Error::other("the disk went away")),
            n => Ok(n),
        }
    }
}

/// The games whose end was seen before an input error come out, then the error, then
/// nothing (the iterator does not ask a failed input again).
#[test]
fn games_read_before_an_input_error_are_handed_out_first() {
    let text = "[Event \"a\"]\n1. 32-28 *\n\n[Event \"b\"]\n1. 33-29 *\n\n[Event \"c\"]\n1. 3";
    for step in [1, 7, 64, 1 << 20] {
        let input = FailsAfter {
            text: std::io::Cursor::new(text.as_bytes().to_vec()),
            step,
        };
        let mut events = Vec::new();
        let mut error = None;
        for record in Reader::new(input).records() {
            match record {
                Ok(r) => events.push(r.tag("Event").unwrap_or_default().to_string()),
                Err(e) => {
                    assert!(error.is_none(), "the records end after the first error");
                    error = Some(e);
                }
            }
        }
        let error = error.expect("the input fails");
        assert_eq!(events, ["a", "b"], "reads of {step} bytes");
        assert_eq!(error.to_string(), "the disk went away");
    }
}

#[test]
fn an_input_that_fails_at_once_gives_the_error() {
    let input = FailsAfter {
        text: std::io::Cursor::new(Vec::new()),
        step: 1,
    };
    let first = Reader::new(input).records().next().expect("an error");
    let e = first.expect_err("nothing was read");
    assert_eq!(e.to_string(), "the disk went away");
}

/// Two tag names whose bytes differ (`и` in UTF-8, and the Windows-1251 byte of `и`) are one
/// name in a game the record decodes as Cyrillic: the second starts a new game, as it does
/// once the record is written (both spelled in UTF-8). Found by the pipeline fuzzer.
#[test]
fn a_tag_name_that_decodes_alike_in_the_game_s_encoding_starts_a_new_game() {
    let text: &[u8] =
        b"[Event \"a\"]\n[Seats \xd0\xb8 \"1\"]\n[Seats \xe8 \"2\"]\n[N \"\xfd\xfd\xfd\xfd\"]\n1. 32-28 *\n";
    let games = pdn::read_all(text);
    assert_eq!(games.len(), 2, "{games:?}");
    let mut w = pdn::Writer::new(Vec::new());
    for g in &games {
        assert!(g.validate().is_ok(), "{g:?}");
        w.write(g).unwrap();
    }
    let again = pdn::read_all(&w.finish().unwrap());
    assert_eq!(again.len(), games.len());
    for (a, b) in again.iter().zip(&games) {
        assert!(a.same_content(b), "{a:?}\n{b:?}");
    }
}

/// Reading a record of `10 n` tags takes about ten times as long as one of `n` tags, not a
/// hundred (each tag used to be checked against every earlier one by reading the game again):
/// the best of three runs of each, against a generous factor, with names beyond ASCII too
/// (compared as decoded) and the first name repeated at the end (in another encoding beyond
/// ASCII), which still starts a new game.
#[test]
fn a_record_of_many_tags_is_read_in_linear_time() {
    fn record(n: usize, non_ascii: bool) -> Vec<u8> {
        let mut s = Vec::new();
        for i in 0..n {
            if non_ascii {
                s.extend_from_slice(format!("[T\u{e9}{i} \"v\"]\n").as_bytes());
            } else {
                s.extend_from_slice(format!("[T{i} \"v\"]\n").as_bytes());
            }
        }
        // The first name again: as written for ASCII, in Windows-1252 beyond it.
        match non_ascii {
            false => s.extend_from_slice(b"[T0 \"again\"]\n1. 32-28 *\n"),
            true => s.extend_from_slice(b"[T\xe90 \"again\"]\n1. 32-28 *\n"),
        }
        s
    }
    fn best_of_three(text: &[u8]) -> std::time::Duration {
        (0..3)
            .map(|_| {
                let start = std::time::Instant::now();
                let games = pdn::read_all(text);
                let took = start.elapsed();
                assert_eq!(
                    games.len(),
                    2,
                    "the repeated first tag starts a second game"
                );
                assert!(games[0].validate().is_ok());
                took
            })
            .min()
            .unwrap()
    }
    for non_ascii in [false, true] {
        let n = 3_000;
        let t1 = best_of_three(&record(n, non_ascii));
        let t10 = best_of_three(&record(10 * n, non_ascii));
        assert!(
            t10.as_secs_f64() < 30.0 * t1.as_secs_f64(),
            "{n} tags: {t1:?}, {} tags: {t10:?} (beyond ASCII: {non_ascii})",
            10 * n
        );
    }
}

/// A repeated tag name starts a new game and distinct names never do, whether the game's
/// names are compared where they stand in the buffer (up to 32 of them, all names at the
/// start of a game) or gathered into a set (more of them, or names beyond ASCII among them).
#[test]
fn a_repeated_tag_name_is_found_among_few_and_many_names() {
    for n in 1..=40usize {
        // Names of one length and first and last bytes share a bit of the quick filter, so
        // most look-ups here cannot be settled by it.
        let name = |i: usize| format!("T{:02}x", i);
        let mut head = Vec::new();
        for i in 0..n {
            if i == n / 2 && n % 3 == 0 {
                head.extend_from_slice("[Tags\u{e9} \"v\"]\n".as_bytes());
            }
            head.extend_from_slice(format!("[{} \"v\"]\n", name(i)).as_bytes());
        }
        let mut distinct = head.clone();
        distinct.extend_from_slice(format!("[{} \"v\"]\n1. 32-28 *\n", name(n)).as_bytes());
        assert_eq!(pdn::read_all(&distinct).len(), 1, "{n} distinct names");
        for k in [0, n / 2, n - 1] {
            let mut repeated = head.clone();
            repeated.extend_from_slice(format!("[{} \"w\"]\n1. 32-28 *\n", name(k)).as_bytes());
            assert_eq!(
                pdn::read_all(&repeated).len(),
                2,
                "name {k} repeated after {n} names"
            );
        }
    }
}

#[test]
fn a_reader_of_bytes_reads_as_the_default_reader() {
    let game = "[Event \"e\"]\n1. 32-28 19-23 {a comment} *\n\n";
    // Empty, shorter than the default buffer, about as long, and longer.
    for games in [0, 1, 1400, 1600, 5000] {
        let text = game.repeat(games);
        let read = |mut r: Reader<&[u8]>| {
            let mut b = RecordBuilder::new();
            let mut out = Vec::new();
            while let Some(g) = r.read_game(&mut b).unwrap() {
                out.push((g, r.locate(r.source().offset)));
            }
            out
        };
        let of_bytes = read(Reader::of_bytes(text.as_bytes()));
        assert_eq!(of_bytes.len(), games);
        assert_eq!(of_bytes, read(Reader::new(text.as_bytes())), "{games}");
    }
}
