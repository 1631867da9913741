//! The examples of docs/notation.md (section Thaayam).

mod common;

use common::{game, pos, resolve};
use game::{Game, Notation};

#[test]
fn position_examples_read_and_write_back() {
    let g = game();
    for text in [
        "S:S=h4/N=h4",
        "S:S=h4/W=h4/N=h4/E=h4",
        "N:S=h1,c1,d4x2/N=h1,Td1,k1",
        "S+1:S=b2,Tb2,k1/N=h4",
        "N:S=o4/N=c1x2,k2",
    ] {
        assert_eq!(g.write_position(&pos(&g, text)), text);
    }
    // Any item order, repeated items, c3 for the keep, zero counts.
    assert_eq!(
        g.write_position(&pos(&g, "S:S=k1,d4,h0,c3,d4/N=h4")),
        "S:S=d4x2,k2/N=h4"
    );
}

#[test]
fn short_and_full_forms() {
    let g = game();
    let full = Notation {
        numeric: false,
        full_captures: true,
    };
    for (start, turn, short, long) in [
        (
            "S:S=h4/N=h4",
            "S [4 1 2] in c1+2",
            "S [4 1 2] in c1+2",
            "S [4 1 2] in c1+2-e1 ~4",
        ),
        (
            "S:S=c5x2,h2/N=h4",
            "S [8 3] Tc5 Tc5+3+8",
            "S [8 3] Tc5 Tc5+8+3",
            "S [8 3] Tc5 Tc5+8+3-a2",
        ),
        (
            "S:S=d1,h3/N=e2,h3",
            "S [2] d1+2 [3] e2+3",
            "S [2] d1+2xe2 [3] e2+3",
            "S [2] d1+2xe2 [3] e2+3-e5",
        ),
        (
            "S:S=h4/N=h4",
            "S [4 8 3]",
            "S [4 8 3]",
            "S [4 8 3] ~4 ~8 ~3",
        ),
    ] {
        let p = pos(&g, start);
        let t = resolve(&g, &p, turn).unwrap();
        assert_eq!(g.write_move(&p, &t, Notation::default()), short);
        assert_eq!(g.write_move(&p, &t, full), long);
        assert_eq!(resolve(&g, &p, long).unwrap(), t);
    }
}

#[test]
fn starts_ply_and_tokens() {
    let g = game();
    for t in ["S", "W", "N", "E"] {
        assert!(g.starts_ply(t.as_bytes()));
    }
    for t in ["s", "S+", "[2]", "in", "c1+2", "SN", ""] {
        assert!(!g.starts_ply(t.as_bytes()), "{t}");
    }
    assert_eq!(
        thaayam::split_tokens("1. S [1 4 2] in c1+4+2  N [3]  2. S [8,3] e2+8"),
        ["S", "[1 4 2]", "in", "c1+4+2", "N", "[3]", "S", "[8,3]", "e2+8"]
    );
    assert_eq!(thaayam::split_turns("S [3] N [2]").len(), 2);
}

#[test]
fn no_panic_on_garbage() {
    let g = game();
    let p = pos(&g, "S:S=c1,h3/N=h4");
    for junk in [
        "S [",
        "S ]",
        "S [1 2",
        "S [99999999999 2]",
        "S [2] T",
        "S [2] Tz9",
        "S [2] c1++2",
        "S [2] c1+2x",
        "S [2] ~",
        "S [2] ~88",
        "S [2] é",
        "S [2] c1+2-c3-c3",
    ] {
        assert!(resolve(&g, &p, junk).is_err(), "{junk}");
    }
    for junk in [
        "S:S=h4/N=h4/",
        "S:S=/N=h4",
        "S:S=h4,,/N=h4",
        "S:S=h99/N=h4",
        "S:S=Tc5x9/N=h4",
        ":",
        "S+300:S=h4/N=h4",
        "S:S=ha/N=h4",
    ] {
        assert!(g.parse_position(junk).is_err(), "{junk}");
    }
}

#[test]
fn seats_in_play_follow_turn_order() {
    use game::Seat;
    let g = game();
    let seats = |text: &str| g.seats_in_play(&pos(&g, text));
    assert_eq!(seats("S:S=h4/N=h4"), [Seat(0), Seat(2)]);
    assert_eq!(
        seats("N:S=h4/W=h4/N=h4/E=h4"),
        [Seat(2), Seat(3), Seat(0), Seat(1)]
    );
    assert_eq!(seats("E:S=h4/N=h4/E=h4"), [Seat(3), Seat(0), Seat(2)]);
}
