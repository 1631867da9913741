//! The play listing behind `arbiter moves` and self-play, and the facts the referee collects.

mod common;

use common::{game, pos};
use game::{Code, Game};

fn moves(start: &str, throws: &[u8]) -> Vec<String> {
    let g = game();
    g.moves(&pos(&g, start), throws).unwrap()
}

#[test]
fn listing_is_maximal_sorted_and_deduplicated() {
    assert_eq!(moves("S:S=h4/N=h4", &[1, 4, 2]), ["in c1+4+2"]);
    assert_eq!(
        moves("S:S=c1,d4,h2/N=h4", &[4, 3]),
        ["c1+3 d4+4", "c1+4 d4+3", "c1+4+3"]
    );
    // Lost throws end the line; either of two plays using two of three throws.
    assert_eq!(
        moves("S:S=d4,k3/N=h4", &[1, 4, 2]),
        ["d4+2+1 ~4", "d4+4 off ~2"]
    );
    // Discarded throws come first, in the order thrown.
    assert_eq!(moves("S:S=h4/N=h4", &[4, 8, 3]), ["~4 ~8 ~3"]);
    assert_eq!(moves("S:S=h4/N=h4", &[4, 1, 2]), ["in c1+2 ~4"]);
    // Declaring twins costs no throw: with and without are different positions.
    assert_eq!(moves("S:S=c5x2,k2/N=h4", &[3]), ["Tc5 Tc5+3", "c5+3"]);
}

#[test]
fn same_position_different_captures_are_two_plays() {
    // A single then a twin landing on b2 make two capturing moves (two extra series); the
    // twin first captures everything at once (one extra series).
    let g = game();
    let p = pos(&g, "S:S=b1,Ta2,k1/N=b2,Tb2,h1");
    let plays = g.plays(&p, &[4, 1, 3]).unwrap();
    let find = |text: &str| plays.iter().find(|pl| pl.text == text);
    let one = find("Ta2+4+3xb2 b1+1").expect("twin first");
    let two = find("b1+1xb2 Ta2+4+3xb2").expect("single first");
    assert_eq!((one.captures, two.captures), (1, 2));
    assert_eq!(g.write_position(&one.after), "S:S=b2,Tb2,k1/N=h4");
    assert_eq!(g.write_position(&two.after), "S+1:S=b2,Tb2,k1/N=h4");
    assert!(plays.iter().all(|pl| pl.used == 3));
}

#[test]
fn plays_apply_and_errors() {
    let g = game();
    let p = pos(&g, "S:S=c1,d4,h2/N=h4");
    for play in g.plays(&p, &[4, 3]).unwrap() {
        let mut q = p.clone();
        let r = g.apply_series(&mut q, &play.series).unwrap();
        assert_eq!(q, play.after);
        assert_eq!((r.used, r.unused, r.discarded), (2, 0, 0));
    }
    assert_eq!(
        g.plays(&p, &[4]).unwrap_err().code,
        thaayam::BAD_THROW_SERIES
    );
    assert_eq!(g.max_throws(&p, &[1, 4, 8, 2]).unwrap(), 4);
    let over = pos(&g, "N:S=o4/N=h4");
    assert_eq!(g.plays(&over, &[2]).unwrap_err().code, Code::ResultMismatch);
}

#[test]
fn facts() {
    let g = game();
    let p = pos(&g, "S:S=c5x2,d1,h1/N=a2,h3");
    let t = common::resolve(&g, &p, "S [8 3] Tc5 Tc5+8+3xa2 [4 1 2] in d1+4+2").unwrap();
    let f = g.facts(&p, &t);
    assert_eq!(f.mover, 0);
    assert_eq!(f.throws[..], [8, 3, 4, 1, 2]);
    assert_eq!(f.counters[thaayam::TWINS_FORMED], 1);
    assert_eq!(f.captures, 1);
    assert_eq!(f.capture_squares[..], [(0, 1)]); // a2
    assert_eq!(f.lost_throws, 0);
    assert_eq!(f.material, [4, 0, 0, 0]);
    let p = pos(&g, "S:S=k3,c2/N=h4");
    let t = common::resolve(&g, &p, "S [1 1 1 3] c2+1 off off ~3").unwrap();
    let f = g.facts(&p, &t);
    assert_eq!((f.counters, f.lost_throws, f.material[0]), ([0; 4], 1, 2));
    let mut after = p.clone();
    g.play(&mut after, &t);
    assert_eq!(after.off(0), 2);
}
