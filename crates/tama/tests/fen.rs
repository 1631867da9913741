//! Position strings: reading (tolerant), writing (canonical), validation.

use game::{Code, Game};
use tama::{Position, Side, Square, Tama};

fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    Square::from_coords((b[0] - b'a') as i8, (b[1] - b'1') as i8).unwrap()
}

#[test]
fn reads_the_example() {
    let p = Position::from_fen("W:Wa2,b2,Kd4:Ba7,h7").unwrap();
    assert_eq!(p.side_to_move(), Side::White);
    assert_eq!(p.men(Side::White), sq("a2").bit() | sq("b2").bit());
    assert_eq!(p.kings(Side::White), sq("d4").bit());
    assert_eq!(p.men(Side::Black), sq("a7").bit() | sq("h7").bit());
    assert_eq!(p.to_fen(), "W:Wa2,b2,Kd4:Ba7,h7");
}

#[test]
fn tolerated_forms_give_the_same_position() {
    let want = Position::from_fen("B:Wa2,b2,Kd4:Ba7,h7").unwrap();
    for text in [
        "B:Wa2,b2,Kd4:Ba7,h7.",
        " B : W a2 , b2 , K d4 : B a7 , h7 ",
        "B:Ba7,h7:Wa2,b2,Kd4",
        "B:WKd4,b2,a2:Bh7,a7",
        "B:W9,10,K28:B49,56",
        "b:wa2,b2,kd4:ba7,h7",
        "\"B:Wa2,b2,Kd4:Ba7,h7\"",
        "B:W9-10,K28:B49,56",
    ] {
        assert_eq!(Position::from_fen(text).unwrap(), want, "{text}");
    }
    // `?` as the side to move: White, who moves first.
    assert_eq!(
        Position::from_fen("?:Wa2:Ba7").unwrap().side_to_move(),
        Side::White
    );
    // Empty lists.
    let p = Position::from_fen("W:W:Ba7").unwrap();
    assert_eq!(p.count(Side::White), 0);
    assert_eq!(p.to_fen(), "W:W:Ba7");
    assert_eq!(
        Position::from_fen("W").unwrap(),
        Position::empty(Side::White)
    );
    assert_eq!(Position::from_fen("B:W:B").unwrap().to_fen(), "B:W:B");
}

#[test]
fn canonical_writing_and_numeric_form() {
    let p = Position::start();
    assert_eq!(
        p.to_fen(),
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    );
    assert_eq!(Position::from_fen(&p.to_fen_numeric()).unwrap(), p);
    assert!(p.to_fen_numeric().starts_with("W:W9,10,"));
    let g = Tama::DEFAULT;
    let q = g.parse_position("W:WKh8,a2:BKa8,h2").unwrap();
    assert_eq!(g.write_position(&q), "W:Wa2,Kh8:Bh2,Ka8");
}

#[test]
fn errors_are_explained() {
    let cases = [
        ("", "the position string is empty"),
        (
            "X:Wa2",
            "a position string starts with the side to move (W or B), not `X:Wa2`",
        ),
        ("W:Wa2,a2", "a2 is listed twice"),
        ("W:Wa2:Ba2", "a2 is listed twice"),
        (
            "W:Wa8",
            "a white man cannot stand on a8: a man on its far rank is a king (write Ka8)",
        ),
        ("W:B:Bc1", "the pieces of Black are listed twice"),
        (
            "W:Bc1",
            "a black man cannot stand on c1: a man on its far rank is a king (write Kc1)",
        ),
        ("W:Wi2", "`i2` is not a square (files a–h, ranks 1–8)"),
        ("W:Wa9", "`a9` is not a square (files a–h, ranks 1–8)"),
        ("W:W65", "square number 65 is out of range (1–64)"),
        ("W:W0", "square number 0 is out of range (1–64)"),
        (
            "W:Wa2-a4",
            "ranges such as `9-25` are allowed with numeric squares only",
        ),
        ("W:W20-10", "the range 20-10 runs backwards"),
        (
            "W:Wa2;b2",
            "expected `,` or `:` after a square, found `;b2`",
        ),
        ("W:Xa2", "a piece list starts with W or B, not `Xa2`"),
        ("W:Wa2.x", "unexpected `x` after the final `.`"),
        (
            "W:W1-17",
            "White has 17 pieces, more than the 16 a side starts with",
        ),
    ];
    for (text, msg) in cases {
        let e = Position::from_fen(text).unwrap_err();
        assert_eq!(e.message, msg, "{text}");
    }
    let p = Tama::DEFAULT.parse_position("W:Wa8").unwrap_err();
    assert_eq!(p.code, Code::BadFen);
}

#[test]
fn bitboard_constructor_checks_invariants() {
    assert!(Position::from_bitboards(1, 1, 0, 0, Side::White).is_err());
    assert!(Position::from_bitboards(0, 0, 0, 1 << 63, Side::White).is_ok());
    assert!(Position::from_bitboards(0, 0, 1, 0, Side::White).is_err());
}
