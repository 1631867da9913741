//! The resolver, code by code, on hand-built positions. Every case asserts its code; the
//! messages are kept in an insta snapshot (`snapshots/resolver_messages.snap`).

use game::{Code, Game};
use odnocvetnie::{resolve, Odnocvetnie, Position};

/// (position, token, expected code or None for success).
const CASES: &[(&str, &str, Option<Code>)] = &[
    // Accepted forms.
    ("S:M1-17,20,21,24-27,30,31,34-50", "31x22", None),
    ("S:M1-17,20,21,24-27,30,31,34-50", "b4xd6", None),
    (
        "S:M1-17,20,21,24-27,30,31,34-50",
        "36x27",
        Some(Code::IllegalMove),
    ),
    ("S:M28", "28-22", None),
    ("S:M28", " 28- 22", None),
    ("S:M28", "2822", None),
    ("S:M28", "e5-d6", None),
    ("S:M28", "28-22!?", None),
    ("S:K46:M37,23,45,40", "46x19", None),
    ("S:K46:M37,23,45,40", "46x32x19", None),
    ("S:K46:M37,23,45,40", "46x28x19", None),
    ("S:K46:M37,23,45,40", "46:19", None),
    ("S:K46:M37,23,45,40", "46-19", None),
    ("S:K46:M37,23,45,40", "a1xg7", None),
    ("S:M37,32,22,31,21", "37x28x17", None),
    ("S:M37,32,22,31,21", "37x26x17", None),
    // illegal-move
    ("S:M28", "27-22", Some(Code::IllegalMove)),
    ("W:M28", "e5-d4", Some(Code::IllegalMove)),
    ("S:M28", "28-17", Some(Code::IllegalMove)),
    ("S:M7,1", "7-1", Some(Code::IllegalMove)),
    ("S:M28", "28-30", Some(Code::IllegalMove)),
    ("S:M28", "28x17", Some(Code::IllegalMove)),
    ("S:M28", "28x39", Some(Code::IllegalMove)),
    ("S:K46:M32,28", "46-19", Some(Code::IllegalMove)),
    ("S:K46:M32,28", "46x19", Some(Code::IllegalMove)),
    (
        "S:K10:M9,14,42,43",
        "10x37x48x25x3",
        Some(Code::IllegalMove),
    ),
    ("S:K46:M37", "46x32x46", Some(Code::IllegalMove)),
    ("S:K46:M37", "46x32x10", Some(Code::IllegalMove)),
    ("S:M11,7,13", "11x2x19", Some(Code::IllegalMove)),
    ("S:M37,32,22", "37x28x19", Some(Code::IllegalMove)),
    ("S:M37,32,22", "37x10", Some(Code::IllegalMove)),
    ("W:M28,33:L28", "28-22", Some(Code::IllegalMove)),
    ("S:M28", "31-", Some(Code::IllegalMove)),
    ("S:M28", "a2-b3", Some(Code::IllegalMove)),
    ("S:M28", "hello", Some(Code::IllegalMove)),
    ("S:M28", "28-51", Some(Code::IllegalMove)),
    // non-maximal-capture
    ("S:M37,32,22,45,40", "45x34", Some(Code::NonMaximalCapture)),
    ("S:M37,32,22,45,40", "37x28", Some(Code::NonMaximalCapture)),
    ("S:K46:M37,23,45,40", "45x34", Some(Code::NonMaximalCapture)),
    // missed-capture
    ("S:M37,32,22,45,40", "22-17", Some(Code::MissedCapture)),
    ("S:K46:M37,23,45,40", "46-41", Some(Code::MissedCapture)),
    // ambiguous-move
    ("S:M37,32,22,31,21", "37x17", Some(Code::AmbiguousMove)),
    ("S:M37,32,22,31,21", "c3xc7", Some(Code::AmbiguousMove)),
    // locked-piece
    ("W:M28,33:L28", "28-23", Some(odnocvetnie::LOCKED_PIECE)),
    ("W:M32,28:L32", "32x23", Some(odnocvetnie::LOCKED_PIECE)),
    ("W:M32,28:L32", "d4xf6", Some(odnocvetnie::LOCKED_PIECE)),
    (
        "S:M37,32,22,45,40:L37",
        "37x28x17",
        Some(odnocvetnie::LOCKED_PIECE),
    ),
    (
        "S:M37,32,22,45,40:L37",
        "37x28",
        Some(odnocvetnie::LOCKED_PIECE),
    ),
];

#[test]
fn resolver_codes_and_messages() {
    let mut report = String::new();
    for &(fen, token, expect) in CASES {
        let pos = Position::parse(fen).unwrap();
        let got = resolve(&pos, token.as_bytes());
        let line = match &got {
            Ok(mv) => format!("{fen} | {token} => ok {mv:?}"),
            Err(p) => format!("{fen} | {token} => {}: {}", p.code, p.message),
        };
        report.push_str(&line);
        report.push('\n');
        assert_eq!(got.as_ref().err().map(|p| p.code), expect, "{line}");
    }
    insta::with_settings!({
        snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots"),
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!("resolver_messages", report);
    });
}

#[test]
fn an_ambiguous_token_names_each_move_it_fits_along_its_path() {
    let pos = Position::parse("S:M37,32,22,31,21").unwrap();
    for token in ["37x17", "c3xc7"] {
        let p = resolve(&pos, token.as_bytes()).unwrap_err();
        assert_eq!(p.code, Code::AmbiguousMove);
        // Not the token's two squares (a straight line matching neither move) but each move,
        // start and every landing square.
        assert!(p.played.len() >= 2, "{token}: {:?}", p.played);
        let (start, end) = (p.played[0][0], *p.played[0].last().unwrap());
        for path in &p.played {
            assert!(path.len() >= 3, "{token}: {path:?}");
            assert_eq!((path[0], *path.last().unwrap()), (start, end), "{token}");
        }
        assert_ne!(p.played[0], p.played[1], "{token}");
    }
}

#[test]
fn forms_of_one_move_resolve_to_the_same_move() {
    let pos = Position::parse("S:K46:M37,23,45,40").unwrap();
    let a = resolve(&pos, b"46x19").unwrap();
    for t in [
        "46x32x19", "46x28x19", "46:19", "46-19", "a1xg7", "a1xd4xg7", "46 x 19", "46x19!",
    ] {
        assert_eq!(resolve(&pos, t.as_bytes()).unwrap(), a, "{t}");
    }
    assert_eq!(a.capture_count(), 2);
}

#[test]
fn ambiguity_lists_both_moves_and_full_paths_resolve() {
    let pos = Position::parse("S:M37,32,22,31,21").unwrap();
    let e = resolve(&pos, b"37x17").unwrap_err();
    assert!(e.message.contains("37x26x17"), "{}", e.message);
    assert!(e.message.contains("37x28x17"), "{}", e.message);
    let a = resolve(&pos, b"37x26x17").unwrap();
    let b = resolve(&pos, b"37x28x17").unwrap();
    assert_ne!(a, b);
    // The writer disambiguates with the full path.
    let g = Odnocvetnie::default();
    let n = game::Notation {
        numeric: true,
        full_captures: false,
    };
    assert_eq!(g.write_move(&pos, &a, n), "37x26x17");
    // An unambiguous capture is written short unless full paths are asked for.
    let pos = Position::parse("S:M37,32,22").unwrap();
    let m = resolve(&pos, b"37x17").unwrap();
    assert_eq!(g.write_move(&pos, &m, n), "37x17");
    let full = game::Notation {
        numeric: false,
        full_captures: true,
    };
    assert_eq!(g.write_move(&pos, &m, full), "c3xe5xc7");
}

#[test]
fn game_resolve_joins_split_tokens() {
    let g = Odnocvetnie::default();
    let pos = Position::parse("S:M28").unwrap();
    assert!(g.resolve(&pos, &[b"28-", b"22"]).is_ok());
    assert_eq!(g.resolve(&pos, &[]).unwrap_err().code, Code::IllegalMove);
}
