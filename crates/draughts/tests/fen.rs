//! Position strings: the PDN FEN dialect, read and written.

use draughts::{Color, Draughts, Position, BRAZILIAN, CANADIAN, INTERNATIONAL, RUSSIAN};
use game::{Code, Game};

#[test]
fn numeric_ranges_kings_and_tolerated_forms() {
    let d = Draughts::new(&INTERNATIONAL);
    let g = d.geometry;
    let p = Position::from_fen(g, "W:W31-50:B1-20", Color::White).unwrap();
    assert_eq!(p, d.start());
    let p = Position::from_fen(g, "B:W18,K24:BK3,12.", Color::White).unwrap();
    assert_eq!(p.side, Color::Black);
    assert_eq!(p.count(Color::White), 2);
    assert_eq!(p.kings[1].count_ones(), 1);
    assert_eq!(p.to_fen(g, true), "B:W18,K24:BK3,12");
    // `?` takes the variant's first mover; blanks and lidraughts' counters are ignored.
    let p = Position::from_fen(g, " ?:W 31 , 32:B1:H0:F1 ", Color::Black).unwrap();
    assert_eq!(p.side, Color::Black);
    assert_eq!(p.count(Color::White), 2);
}

#[test]
fn algebraic_lists() {
    let d = Draughts::new(&BRAZILIAN);
    let pos = d
        .parse_position(
            "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6",
        )
        .unwrap();
    assert_eq!(pos, d.start());
    let r = Draughts::new(&RUSSIAN);
    let p = r.parse_position("W:WKA1,c3:Bh8").unwrap();
    assert_eq!(p.kings[0].count_ones(), 1);
    // Written back (numeric) and read again: the same position.
    assert_eq!(r.parse_position(&r.write_position(&p)).unwrap(), p);
}

#[test]
fn a_lowercase_k_is_a_king_mark_unless_it_is_a_file() {
    // On ten files `k` only marks kings.
    let g = Draughts::new(&INTERNATIONAL).geometry;
    let p = Position::from_fen(g, "W:Wk11,K12:B1", Color::White).unwrap();
    assert_eq!(p.kings[0].count_ones(), 2);
    // On twelve, `k11` is a square of the file k; `Kk11` a king there.
    let g = Draughts::new(&CANADIAN).geometry;
    let p = Position::from_fen(g, "W:Wk11,a3:BKk9,b12", Color::White).unwrap();
    assert_eq!((p.count(Color::White), p.kings[0]), (2, 0));
    assert_eq!((p.count(Color::Black), p.kings[1].count_ones()), (2, 1));
    let written = p.to_fen(g, false);
    assert_eq!(
        Position::from_fen(g, &written, Color::White).unwrap(),
        p,
        "{written}"
    );
}

#[test]
fn errors_are_bad_fen() {
    let d = Draughts::new(&INTERNATIONAL);
    for bad in [
        "X:W31:B1",
        "W:W51:B1",
        "W:W31,31:B1",
        "W:W31:W32",
        "W:Wa2:B1",
        "W:W3:B1",
        "W:W40-31:B1",
        "W:Q1",
    ] {
        let e = d.parse_position(bad).unwrap_err();
        assert_eq!(e.code, Code::BadFen, "{bad}");
        assert!(!e.message.is_empty());
    }
}
