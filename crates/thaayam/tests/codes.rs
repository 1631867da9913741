//! The diagnostics the referee shows, one case or more per code, with their messages
//! (snapshots in tests/snapshots/, reviewed by hand) and the token they point at.

mod common;

use common::{game, pos, resolve};
use game::{Code, Game, Outcome, Seat};

/// Resolves each (position, turn) and lists `code @token "token": message`.
fn report(cases: &[(&str, &str)]) -> String {
    let g = game();
    let mut out = String::new();
    for (start, turn) in cases {
        let p = pos(&g, start);
        let toks = thaayam::split_tokens(turn);
        let line = match resolve(&g, &p, turn) {
            Ok(_) => "accepted".to_string(),
            Err(e) => format!(
                "{} @{} \"{}\": {}",
                e.code,
                e.token,
                toks.get(e.token).copied().unwrap_or("?"),
                e.message
            ),
        };
        out.push_str(&format!("{start}  {turn}\n  {line}\n"));
    }
    out
}

fn codes(cases: &[(&str, &str)]) -> Vec<Code> {
    let g = game();
    cases
        .iter()
        .map(|(s, t)| {
            resolve(&g, &pos(&g, s), t).map_or_else(|e| e.code, |_| panic!("{t} accepted"))
        })
        .collect()
}

const ILLEGAL: &[(&str, &str)] = &[
    ("S:S=h4/N=h4", "S [2] in"),
    ("S:S=c5x4/N=h4", "S [1 2] in"),
    ("S:S=b4,k3/N=h4", "S [4 8 2] b4+4+8"),
    ("S:S=c1,h3/N=h4", "S [1 2] c1+1 d1+2"),
    ("S:S=c2,k3/N=h4", "S [1 2] off"),
    ("S:S=k4/N=h4", "S [2] off"),
    ("S:S=c2x4/N=h4", "S [1 1 1 1 1 2] c2+1 c2+1 c2+1 c2+1 off"),
    ("S:S=b5x2,h2/N=h4", "S [2] Tb5"),
    ("S:S=c5,h3/N=h4", "S [2] Tc5"),
    ("S:S=c1,h3/N=h4", "S [2] b2+2"),
    ("S:S=Tb5,h2/N=h4", "S [2] b5+2"),
    ("S:S=b5,h3/N=h4", "S [2] Tb5+2"),
    ("S:S=Tb5,h2/N=h4", "S [1 2] Tb5+1"),
    ("S:S=c5x2,h2/N=h4", "S [8 3] Tc5 Tc5+8 Ta3+3"),
    ("S:S=c1,h3/N=h4", "S [4 2] c1+8"),
    ("S:S=c2,k3/N=h4", "S [2] c3+2"),
    ("S:S=c1,h3/N=h4", "S [4 2] c1+4+2-d2"),
    ("S:S=d1,h3/N=e2,h3", "S [2] d1+2-e2 [3] e2+3"),
    ("S:S=d1,h3/N=Te2,h2", "S [2] d1+2xe2"),
    ("S:S=c1,h3/N=h4", "S [4 2] c1+4+2 ~4"),
    ("S:S=c1,h3/N=h4", "S [4 2] c1+4+2 zz"),
    ("S:S=c1,h3/N=h4", "S [4 2] c1+5"),
    ("S:S=c1,h3/N=h4", "S [4 2] c1+4+2 N"),
    ("S:S=h4/N=h4", "[2] c1+2"),
    ("S:S=h4/N=h4", "N [3]"),
    ("S:S=h4/N=h4", "E [3]"),
    ("S:S=k4/N=h4", "S [1 1 1 1 1 2] off off off off off"),
];

const UNUSED: &[(&str, &str)] = &[
    ("S:S=c1,h3/N=h4", "S [4 2] c1+4"),
    ("S:S=d4,k3/N=h4", "S [1 4 2] d4+4"),
    ("S:S=d2,k3/N=h4", "S [1 2] d2+1"),
    ("S:S=h4/N=h4", "S [1 4 1 3] in c1+4+3"),
    ("S:S=d1,h3/N=e2,h3", "S [2] d1+2xe2 [1 3] e2+3"),
];

const SERIES: &[(&str, &str)] = &[
    ("S:S=h4/N=h4", "S [5 2]"),
    ("S:S=h4/N=h4", "S [2 1] in"),
    ("S:S=h4/N=h4", "S [1 4] in c1+4"),
    ("S:S=h4/N=h4", "S []"),
    ("S:S=h4/N=h4", "S [1 x 2]"),
    (
        "S:S=h4/N=h4",
        "S [1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2]",
    ),
    ("S:S=h4/N=h4", "S"),
    ("S:S=h4/N=h4", "S in [1 2]"),
    ("S:S=d1,h3/N=e2,h3", "S [2] d1+2xe2"),
    ("S:S=h4/N=h4", "S [1 2] in c1+2 [3]"),
    (
        "S:S=c1,e1,h2/N=e2,e5,h2",
        "S [1 4 2] e1+1xe2 c1+4+2xe5 [2] e2+2",
    ),
    ("S+1:S=k1,o3/N=h4", "S [1 2] off [3]"),
    ("S+1:S=c1,h3/N=h4", "S [2] c1+2"),
];

#[test]
fn illegal_move() {
    assert!(codes(ILLEGAL).iter().all(|&c| c == Code::IllegalMove));
    insta::assert_snapshot!("illegal_move", report(ILLEGAL));
}

#[test]
fn unused_throw() {
    assert!(codes(UNUSED).iter().all(|&c| c == thaayam::UNUSED_THROW));
    insta::assert_snapshot!("unused_throw", report(UNUSED));
}

#[test]
fn bad_throw_series() {
    assert!(codes(SERIES)
        .iter()
        .all(|&c| c == thaayam::BAD_THROW_SERIES));
    insta::assert_snapshot!("bad_throw_series", report(SERIES));
}

#[test]
fn result_mismatch_after_the_end() {
    let cases = [("N:S=o4/N=h4", "N [3]")];
    assert_eq!(codes(&cases), [Code::ResultMismatch]);
    insta::assert_snapshot!("result_mismatch", report(&cases));
}

#[test]
fn results() {
    let g = game();
    let win = |s: u8| Outcome::Win {
        winner: Seat(s),
        loser: None,
    };
    assert_eq!(g.parse_result("S+"), Some(win(0)));
    assert_eq!(g.parse_result("W+"), Some(win(1)));
    assert_eq!(g.parse_result("N+"), Some(win(2)));
    assert_eq!(g.parse_result(" E+ "), Some(win(3)));
    assert_eq!(g.parse_result("*"), Some(Outcome::Unfinished));
    assert_eq!(g.parse_result("1/2-1/2"), Some(Outcome::Draw));
    for bad in ["1-0", "0-1", "S+W-", "X+", "S", "", "s+"] {
        assert_eq!(g.parse_result(bad), None, "{bad}");
    }
    for o in [
        win(0),
        win(1),
        win(2),
        win(3),
        Outcome::Draw,
        Outcome::Unfinished,
    ] {
        assert_eq!(g.parse_result(&g.write_result(o)), Some(o));
    }
    assert_eq!(g.write_result(win(2)), "N+");
    // terminal: the seat that bore off all four.
    assert_eq!(g.terminal(&pos(&g, "W:S=h4/W=o4/N=k2,c1x2")), Some(win(1)));
    assert_eq!(g.terminal(&pos(&g, "W:S=h4/W=k1,o3/N=k2,c1x2")), None);
}

#[test]
fn bad_fen_and_bad_tag() {
    let g = game();
    let mut out = String::new();
    for text in [
        "",
        "S",
        "S:S=h4",
        "X:S=h4/N=h4",
        "W:S=h4/N=h4",
        "S+x:S=h4/N=h4",
        "S:S=h4/S=h4",
        "S:S=h3/N=h4",
        "S:S=h4,c1/N=h4",
        "S:S=q9,h3/N=h4",
        "S:S=Tc1,h2/N=h4",
        "S:S=Tc3,h2/N=h4",
        "S:S=o1,c1,h2/N=h4",
        "S:S=d1,h3/N=d1,h3",
        "S:Z=h4/N=h4",
    ] {
        let e = g.parse_position(text).unwrap_err();
        assert_eq!(e.code, Code::BadFen);
        out.push_str(&format!("{text:?}\n  {}\n", e.message));
    }
    for seats in ["S", "S N W", "S Q", "S S N", "S E N W"] {
        let e = g
            .start_position(&|n: &str| (n == "Seats").then(|| seats.to_string()))
            .unwrap_err();
        assert_eq!(e.code, Code::BadTag);
        out.push_str(&format!("[Seats {seats:?}]\n  {}\n", e.message));
    }
    insta::assert_snapshot!("bad_fen_and_bad_tag", out);
}
