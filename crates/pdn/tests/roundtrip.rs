//! Property tests: generated records survive writing and reading; arbitrary bytes never break
//! the reader, and how the input is buffered never changes what is read.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

use pdn::{
    Annotation, Comment, CommentKind, GameRecord, GameResult, Move, MoveNumber, Nag, Node, Reader,
    RecordBuilder, Setup, Span, Strength, Tag, Variation,
};

fn text_chars() -> impl Strategy<Value = String> {
    // Characters that matter to PDN, plus some non-ASCII text.
    let pieces = select(vec![
        "a",
        "Z",
        " ",
        "1",
        "-",
        "\"",
        "\\",
        "(",
        ")",
        "{",
        "[",
        "]",
        ";",
        "%",
        "$",
        "!",
        "?",
        "*",
        "/",
        ".",
        "é",
        "Ж",
        "高",
        "1-0",
        "[%clk 1:02:03]",
        "\t",
    ]);
    vec(pieces, 0..12).prop_map(|v| v.concat())
}

fn tag_value() -> impl Strategy<Value = String> {
    text_chars().prop_map(|mut s| {
        while s.ends_with('\\') {
            s.pop();
        }
        s
    })
}

fn tag() -> impl Strategy<Value = Tag> {
    let name = prop_oneof![
        select(pdn::TAG_ORDER.to_vec()).prop_map(String::from),
        "[A-Z][A-Za-z0-9_]{0,8}",
        // Names the reader keeps as written (with a warning).
        select(vec![
            "Heure blanche",
            "R&#x00e9;sultat",
            "event",
            "%x y",
            "É"
        ])
        .prop_map(String::from),
    ];
    (name, tag_value()).prop_map(|(name, value)| Tag {
        name,
        value,
        span: Span::default(),
    })
}

fn comment() -> impl Strategy<Value = Comment> {
    prop_oneof![
        (text_chars(), any::<bool>()).prop_map(|(t, nl)| {
            // Brace comments may hold line breaks, never `}`.
            let mut text = t.replace('}', ")");
            if nl {
                text.push_str("\r\nnext line\n");
            }
            Comment {
                text,
                kind: CommentKind::Brace,
                span: Span::default(),
            }
        }),
        text_chars().prop_map(|t| Comment {
            text: t.replace('\r', " "),
            kind: CommentKind::Line,
            span: Span::default(),
        }),
    ]
}

fn move_token() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u8..51, select(vec!['-', 'x', ':']), 1u8..51).prop_map(|(a, s, b)| format!("{a}{s}{b}")),
        (1u8..51, 1u8..51, 1u8..51).prop_map(|(a, b, c)| format!("{a}x{b}x{c}")),
        (1u8..10, 1u8..10).prop_map(|(a, b)| format!("{a}- {b}")),
        (10u8..51, 10u8..51).prop_map(|(a, b)| format!("{a}{b}")),
        "[a-j][1-9][-x]?[a-j][1-9]",
        "[a-j]10",
        select(vec![
            "- -",
            "S",
            "W",
            "N",
            "E",
            "[1 4 2]",
            "[3]",
            "in",
            "off",
            "Tc5",
            "c1+4+2",
            "Tc5+8+4-d2",
            "c1+4xd2",
            "~4",
            "06-11",
        ])
        .prop_map(String::from),
    ]
}

fn annotation() -> impl Strategy<Value = Annotation> {
    prop_oneof![
        "[!?]{1,3}".prop_map(|mark| Annotation::Strength(Strength {
            mark,
            span: Span::default()
        })),
        any::<u16>().prop_map(|nag| Annotation::Nag(Nag {
            nag,
            span: Span::default()
        })),
    ]
}

fn leaf() -> impl Strategy<Value = Node> {
    prop_oneof![
        4 => (1u32..300, any::<bool>()).prop_map(|(number, continuation)| Node::MoveNumber(
            MoveNumber { number, continuation, span: Span::default() }
        )),
        8 => (move_token(), vec(annotation(), 0..3)).prop_map(|(token, annotations)| Node::Move(
            Move { token, annotations, span: Span::default() }
        )),
        1 => annotation().prop_map(Node::Annotation),
        2 => comment().prop_map(Node::Comment),
        1 => tag_value().prop_map(|fen| Node::Setup(Setup { fen, span: Span::default() })),
    ]
}

fn nodes() -> impl Strategy<Value = Vec<Node>> {
    let node = leaf().prop_recursive(3, 40, 8, |inner| {
        prop_oneof![
            6 => inner.clone(),
            1 => vec(inner, 0..6).prop_map(|nodes| Node::Variation(Variation {
                nodes,
                open: Span::default(),
                close: Span::default(),
            })),
        ]
    });
    vec(node, 0..16).prop_map(|mut v| {
        canonical(&mut v);
        v
    })
}

/// Removes what the writer cannot express (see `GameRecord::validate`): orphan annotations
/// right after a move (they would attach to it) and variations holding a lone strength mark.
fn canonical(nodes: &mut Vec<Node>) {
    let mut out: Vec<Node> = Vec::with_capacity(nodes.len());
    for mut n in nodes.drain(..) {
        if let Node::Variation(v) = &mut n {
            canonical(&mut v.nodes);
            if let [Node::Annotation(Annotation::Strength(_))] = v.nodes.as_slice() {
                v.nodes.clear();
            }
        }
        if matches!(n, Node::Annotation(_)) && matches!(out.last(), Some(Node::Move(_))) {
            continue;
        }
        out.push(n);
    }
    *nodes = out;
}

fn result() -> impl Strategy<Value = Option<GameResult>> {
    proptest::option::of(
        select(vec![
            "1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0", "S+", "S+W-", "N+E-",
        ])
        .prop_map(|t| GameResult {
            token: t.into(),
            span: Span::default(),
        }),
    )
}

fn record() -> impl Strategy<Value = GameRecord> {
    (vec(comment(), 0..2), vec(tag(), 0..6), nodes(), result())
        .prop_map(|(header_comments, mut tags, mut movetext, result)| {
            // A repeated tag name would start a new game.
            let mut seen = std::collections::HashSet::new();
            tags.retain(|t| seen.insert(t.name.clone()));
            let mut header_comments = header_comments;
            if tags.is_empty() {
                // Without tags, comments before the first move belong to the header.
                while let Some(Node::Comment(_)) = movetext.first() {
                    if let Node::Comment(c) = movetext.remove(0) {
                        header_comments.push(c);
                    }
                }
            }
            let mut rec = GameRecord {
                header_comments,
                tags,
                movetext,
                result,
                ..GameRecord::default()
            };
            if rec.result.is_none()
                && rec.movetext.is_empty()
                && rec.tags.is_empty()
                && rec.header_comments.is_empty()
            {
                rec.result = Some(GameResult {
                    token: "*".into(),
                    span: Span::default(),
                });
            }
            rec
        })
        // A generated move token may happen to be a result (`1-1`).
        .prop_filter("writable", |r| r.validate().is_ok())
}

fn read(bytes: &[u8], capacity: usize) -> Vec<GameRecord> {
    let mut r = Reader::with_capacity(bytes, capacity, 1 << 20);
    let mut b = RecordBuilder::new();
    let mut out = Vec::new();
    while let Some(g) = r.read_game(&mut b).expect("reading a slice cannot fail") {
        out.push(g);
    }
    out
}

proptest! {
    // 400 cases by default; PROPTEST_CASES overrides.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(400)
    ))]

    #[test]
    fn written_records_read_back_the_same(rec in record()) {
        prop_assert!(rec.validate().is_ok(), "{:?}", rec.validate());
        let text = rec.to_pdn();
        let back = pdn::read_all(text.as_bytes());
        prop_assert_eq!(back.len(), 1, "{}", text);
        prop_assert!(back[0].same_content(&rec), "{}\n{:#?}\n{:#?}", text, rec, back[0]);
        // Writing is a fixed point.
        prop_assert_eq!(&back[0].to_pdn(), &text);
    }

    #[test]
    fn json_round_trips(rec in record()) {
        let json = rec.to_json();
        let back = GameRecord::from_json(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, rec);
    }

    #[test]
    fn several_games_stay_apart(recs in vec(record(), 1..5)) {
        let text = pdn::write_pdn(&recs);
        let back = pdn::read_all(text.as_bytes());
        prop_assert_eq!(back.len(), recs.len(), "{}", text);
        for (i, (a, b)) in recs.iter().zip(&back).enumerate() {
            // Every game is written with its result, `*` where it has none.
            prop_assert_eq!(b.result.as_ref().map(|r| r.token.as_str()), Some(a.result_token()));
            prop_assert!(b.same_content(a), "game {}:\n{}", i, text);
        }
        // Written files stay apart when joined.
        let joined = format!("{text}{text}");
        prop_assert_eq!(pdn::read_all(joined.as_bytes()).len(), 2 * recs.len());
    }

    #[test]
    fn arbitrary_bytes_never_break_the_reader(
        bytes in vec(any::<u8>(), 0..400),
        capacity in 16usize..64,
    ) {
        check_input(&bytes, capacity)?;
    }

    #[test]
    fn mutated_pdn_never_breaks_the_reader(
        edits in vec((0usize..1000, select(PDN_BYTES.to_vec()), 0u8..3), 0..12),
        capacity in 16usize..64,
    ) {
        let mut bytes = SNIPPET.to_vec();
        for (at, b, op) in edits {
            let at = at % (bytes.len() + 1);
            match op {
                0 => bytes.insert(at, b),
                1 if at < bytes.len() => { bytes.remove(at); }
                _ if at < bytes.len() => bytes[at] = b,
                _ => {}
            }
        }
        check_input(&bytes, capacity)?;
    }
}

const SNIPPET: &[u8] = b"\xEF\xBB\xBF[Event \"Open \\\"A\\\"\"]\r\n[White       \"Ren\xe9\"]\r\n\
% line comment\r\n1. 32-28!? {a [%clk 1:02]} 19-23 (1... 18-23 (!?) 2. 33-29 $3) 2. 1- 6 \
27x18x9 ; end\n3. ... c3xc5xe5 /FEN \"W:W31:B1.\"/ 4. S [1 4 2] in c1+4+2 8-11White 1-1\n\
[Event \"2\"] 1. 32-28 - - 2. 1-18 S+W-\n";

const PDN_BYTES: &[u8] = b"[]{}()\"\\;%$!?*/.-x: \n\r\t0123456789aSWNEThi\xe9\xff";

/// No panic; the same records whatever the buffer size; spans inside the input and in
/// order; error-free games round-trip through the writer; every record goes through JSON;
/// writing all the games is a fixed point after one pass.
fn check_input(bytes: &[u8], capacity: usize) -> Result<(), TestCaseError> {
    let big = read(bytes, 1 << 16);
    let small = read(bytes, capacity);
    prop_assert_eq!(&big, &small);
    let mut last = 0;
    for g in &big {
        prop_assert!(g.span.start >= last && g.span.end >= g.span.start);
        prop_assert!(g.span.end <= bytes.len() as u64);
        last = g.span.end;
        for p in &g.problems {
            prop_assert!(p.span.start <= p.span.end && p.span.end <= bytes.len() as u64);
            prop_assert!(pdn::PROBLEM_KINDS.contains(&p.kind.as_str()));
        }
        if !g.has_errors() {
            prop_assert!(g.validate().is_ok(), "{:?}: {:?}", g, g.validate());
            let text = g.to_pdn();
            let back = pdn::read_all(text.as_bytes());
            prop_assert_eq!(back.len(), 1, "{}", text);
            prop_assert!(
                back[0].same_content(g),
                "{}\n{:#?}\n{:#?}",
                text,
                g,
                back[0]
            );
            prop_assert!(!back[0].has_errors(), "{}\n{:?}", text, back[0].problems);
        }
        let json = GameRecord::from_json(&g.to_json());
        prop_assert_eq!(json.as_ref().ok(), Some(g), "{:?}", json);
    }
    let kept: Vec<&GameRecord> = big.iter().filter(|g| !g.is_empty()).collect();
    let text = pdn::write_pdn(kept.iter().copied());
    let again = pdn::read_all(text.as_bytes());
    prop_assert_eq!(again.len(), kept.len(), "{}", text);
    prop_assert_eq!(pdn::write_pdn(&again), text);
    Ok(())
}
