//! Snapshots of the position for diagrams, through the whole pipeline: PDN text, the
//! referee, each game's rules crate.

use game::SquareMark;
use referee::{BoardAt, GameReport, Referee, Settings};

fn games(text: &str, settings: Settings) -> Vec<GameReport> {
    let mut referee = Referee::new(games::games(), settings);
    let mut reader = pdn::Reader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut referee).expect("in-memory read") {
        out.push(g);
    }
    out
}

const BROKEN: &str = r#"[Variant "Tama"]
[FEN "W:Wc3,e2:Bc4,d5,d3,f5,h8"]

1. c3xe3 *

[Variant "Odnocvetnie"]
[FEN "W:M28,33,3:L28"]

1. 28-23 *

[Variant "Thaayam"]
[FEN "S:S=c1,h3/N=h4"]

1. S [4 2] c1+4 *
"#;

fn with_snapshots() -> Settings {
    Settings {
        snapshots: true,
        ..Settings::default()
    }
}

#[test]
fn no_snapshot_unless_asked() {
    let gs = games(BROKEN, Settings::default());
    assert_eq!(gs.len(), 3);
    for g in &gs {
        assert_eq!(g.diagnostics.len(), 1, "{:?}", g.diagnostics);
        assert!(g.diagnostics[0].snapshot.is_none());
        assert!(g.position.is_none());
    }
}

#[test]
fn tama_non_maximal_capture() {
    let gs = games(BROKEN, with_snapshots());
    let d = &gs[0].diagnostics[0];
    assert_eq!(d.code, "non-maximal-capture");
    let s = d.snapshot.as_deref().expect("snapshot");
    assert_eq!(s.board.pieces.len(), 7);
    assert_eq!(s.played, [vec![(2, 2), (4, 2)]]);
    assert_eq!(s.suggested, [vec![(2, 2), (2, 4), (4, 4), (6, 4)]]);
}

#[test]
fn odnocvetnie_locked_piece() {
    let gs = games(BROKEN, with_snapshots());
    let d = &gs[1].diagnostics[0];
    assert_eq!(d.code, "locked-piece");
    let s = d.snapshot.as_deref().expect("snapshot");
    assert_eq!(s.board.marks, [(4, 4, SquareMark::Locked)]);
    assert_eq!(s.board.seat_name(s.board.to_move), "West");
    // 28 = e5, 23 = f6.
    assert_eq!(s.played, [vec![(4, 4), (5, 5)]]);
    assert!(s.suggested.is_empty());
}

#[test]
fn thaayam_unused_throw() {
    let gs = games(BROKEN, with_snapshots());
    let d = &gs[2].diagnostics[0];
    assert_eq!(d.code, "unused-throw");
    let s = d.snapshot.as_deref().expect("snapshot");
    assert_eq!(s.board.pieces.len(), 1);
    assert_eq!(s.played, [vec![(2, 0), (4, 0), (4, 2)]]);
    assert_eq!(s.suggested, [vec![(2, 0), (4, 0), (4, 4)]]);
}

#[test]
fn board_after_two_plies_of_tama() {
    let text = "[Variant \"Tama\"]\n\n1. c3-c4 f6-f5 2. c4-c5 *\n";
    let settings = Settings {
        board_at: Some(BoardAt::Ply(2)),
        ..Settings::default()
    };
    let g = &games(text, settings)[0];
    let v = g.position.as_ref().expect("view");
    assert_eq!(v.ply, 2);
    assert_eq!(v.board.pieces.len(), 32);
    // c4 holds the white man, f5 the black one; c3 and f6 are empty.
    let seat = |f, r| v.board.pieces_at(f, r).next().map(|p| p.seat);
    assert_eq!(seat(2, 3), Some(Some(0)));
    assert_eq!(seat(5, 4), Some(Some(1)));
    assert_eq!(seat(2, 2), None);
    assert_eq!(seat(5, 5), None);
    assert_eq!(v.last_move, [vec![(5, 5), (5, 4)]]);
    let settings = Settings {
        board_at: Some(BoardAt::End),
        ..Settings::default()
    };
    let v = games(text, settings)[0].position.clone().expect("view");
    assert_eq!(v.ply, 3);
    assert_eq!(v.last_move, [vec![(2, 3), (2, 4)]]);
}
