//! The resolver's answers and their wording.

use draughts::{Draughts, ENGLISH, INTERNATIONAL, RUSSIAN};
use game::{Code, Game, Notation, Outcome, Seat};

fn resolve(d: &Draughts, fen: &str, token: &str) -> Result<String, (Code, String)> {
    let pos = d.parse_position(fen).expect("valid FEN");
    d.resolve(&pos, &[token.as_bytes()])
        .map(|m| d.path_text(&m, true, true))
        .map_err(|p| (p.code, p.message))
}

const TWO_CAPTURES: &str = "W:W28,32:B23,13,27,1";

#[test]
fn majority_rule_is_explained() {
    let d = Draughts::new(&INTERNATIONAL);
    assert_eq!(resolve(&d, TWO_CAPTURES, "28x8").unwrap(), "28x19x8");
    assert_eq!(resolve(&d, TWO_CAPTURES, "28x19x8").unwrap(), "28x19x8");
    let (code, msg) = resolve(&d, TWO_CAPTURES, "32x21").unwrap_err();
    assert_eq!(code, Code::NonMaximalCapture);
    assert!(
        msg.contains("takes 1 piece but the majority rule demands 2"),
        "{msg}"
    );
    assert!(msg.contains("28x19x8"), "{msg}");
}

#[test]
fn chain_written_over_two_tokens() {
    // playstrategy writes one jump per token: 28x19 then 19x8.
    let d = Draughts::with_options(&INTERNATIONAL, "split-chains").unwrap();
    let mut pos = d.parse_position(TWO_CAPTURES).unwrap();
    let first = d.resolve(&pos, &[b"28x19"]).unwrap();
    assert!(first.is_partial());
    d.play(&mut pos, &first);
    assert_eq!(d.to_move(&pos), Seat(0), "the same side goes on");
    assert!(d.terminal(&pos).is_none());
    let p = d.resolve(&pos, &[b"6-11"]).unwrap_err();
    assert_eq!(p.code, Code::NonMaximalCapture);
    assert!(
        p.message.contains("left unfinished") && p.message.contains("19x8"),
        "{}",
        p.message
    );
    let second = d.resolve(&pos, &[b"19x8"]).unwrap();
    d.play(&mut pos, &second);
    assert_eq!(d.write_position(&pos), "B:W8,32:B1,27");
}

#[test]
fn stopping_a_chain_early_is_refused_unless_chains_are_split() {
    let d = Draughts::new(&INTERNATIONAL);
    let (code, msg) = resolve(&d, TWO_CAPTURES, "28x19").unwrap_err();
    assert_eq!(code, Code::NonMaximalCapture);
    assert!(msg.contains("stops after taking 1 piece"), "{msg}");
    // A playstrategy record splits chains: the start position knows it from the Site tag.
    let pos = d
        .start_position(&|t| (t == "Site").then(|| "https://playstrategy.org/x".to_string()))
        .unwrap();
    assert!(pos.split_chains);
}

#[test]
fn missed_and_illegal() {
    let d = Draughts::new(&INTERNATIONAL);
    let (code, msg) = resolve(&d, TWO_CAPTURES, "28-22").unwrap_err();
    assert_eq!(code, Code::MissedCapture, "{msg}");
    let start = "W:W31-50:B1-20";
    let (code, msg) = resolve(&d, start, "33-27").unwrap_err();
    assert_eq!(code, Code::IllegalMove);
    assert!(msg.contains("27"), "{msg}");
    let (_, msg) = resolve(&d, start, "19-24").unwrap_err();
    assert!(
        msg.contains("holds a Black man but White is to move"),
        "{msg}"
    );
    assert_eq!(resolve(&d, start, "3228").unwrap(), "32-28");
    assert_eq!(resolve(&d, start, "32- 28").unwrap(), "32-28");
}

#[test]
fn problems_carry_paths() {
    let d = Draughts::new(&INTERNATIONAL);
    let pos = d.parse_position(TWO_CAPTURES).unwrap();
    let p = d.resolve(&pos, &[b"32x21"]).unwrap_err();
    assert_eq!(p.played.len(), 1);
    assert_eq!(p.suggested[0].len(), 3, "start and two landings");
}

#[test]
fn russian_man_crowned_mid_capture_goes_on_as_king() {
    // The man on b6 jumps c7 to d8 (crowned), then as a king takes f6, landing on g5 or h4.
    let d = Draughts::new(&RUSSIAN);
    let fen = "W:Wb6:Bc7,f6,h2";
    let pos = d.parse_position(fen).unwrap();
    let moves = d.legal_moves(&pos);
    let paths: Vec<String> = moves.iter().map(|m| d.path_text(m, false, true)).collect();
    assert!(paths.contains(&"b6xd8xg5".to_string()), "{paths:?}");
    assert!(paths.contains(&"b6xd8xh4".to_string()), "{paths:?}");
}

#[test]
fn english_results_count_from_black() {
    let d = Draughts::new(&ENGLISH);
    assert_eq!(
        d.parse_result("1-0"),
        Some(Outcome::Win {
            winner: Seat(1),
            loser: Some(Seat(0))
        })
    );
    assert_eq!(
        d.write_result(Outcome::Win {
            winner: Seat(0),
            loser: None
        }),
        "0-1"
    );
    let i = Draughts::new(&INTERNATIONAL);
    assert_eq!(i.write_result(Outcome::Draw), "1-1");
    assert_eq!(
        i.parse_result("2-0"),
        Some(Outcome::Win {
            winner: Seat(0),
            loser: Some(Seat(1))
        })
    );
}

#[test]
fn writing_uses_short_form_unless_ambiguous() {
    let d = Draughts::new(&INTERNATIONAL);
    let pos = d.parse_position(TWO_CAPTURES).unwrap();
    let mv = d.resolve(&pos, &[b"28x8"]).unwrap();
    let n = Notation {
        numeric: true,
        full_captures: false,
    };
    assert_eq!(d.write_move(&pos, &mv, n), "28x8");
    // Two routes from 36 to 16 taking different pieces (from a real record): full path.
    let fen = "W:W36:B31,22,13,7,1";
    let pos = d.parse_position(fen).unwrap();
    for mv in d.legal_moves(&pos) {
        let short = d.path_text(&mv, true, false);
        let written = d.write_move(&pos, &mv, n);
        let same_ends = d
            .legal_moves(&pos)
            .iter()
            .filter(|m| d.path_text(m, true, false) == short)
            .count();
        assert_eq!(written == short, same_ends == 1, "{written}");
    }
}

/// An ambiguous token names each move it fits, through its landing squares: a diagram draws
/// those paths, not a straight line from the token's first square to its last.
#[test]
fn an_ambiguous_token_names_each_move_along_its_path() {
    // An English man's two forward routes from 26 to 10 (over 22 and 14, or 23 and 15); the
    // token is the short form both moves share.
    for (d, fen) in [(Draughts::new(&ENGLISH), "W:W26:B22,23,14,15")] {
        let pos = d.parse_position(fen).unwrap();
        let legal = d.legal_moves(&pos);
        let shorts: Vec<String> = legal.iter().map(|m| d.path_text(m, true, false)).collect();
        let token = shorts
            .iter()
            .find(|t| shorts.iter().filter(|u| u == t).count() == 2)
            .unwrap_or_else(|| panic!("{fen}: no two moves share a short form: {shorts:?}"));
        let p = d.resolve(&pos, &[token.as_bytes()]).unwrap_err();
        assert_eq!(p.code, Code::AmbiguousMove, "{token}: {}", p.message);
        assert_eq!(p.played.len(), 2, "{token}: {:?}", p.played);
        for path in &p.played {
            assert!(path.len() >= 3, "{token}: {path:?}");
            assert_eq!(path[0], p.played[0][0]);
            assert_eq!(path.last(), p.played[0].last());
        }
        assert_ne!(p.played[0], p.played[1]);
    }
}

#[test]
fn turkish_moves_along_ranks_and_files() {
    let d = Draughts::new(draughts::Variant::by_id("turkish").unwrap());
    let pos = d.start();
    assert_eq!(d.legal_moves(&pos).len(), 8);
    // Numbers count from a1 = 1 along the ranks: 17-25 is a3-a4.
    assert_eq!(resolve(&d, "W:W9-24:B41-56", "17-25").unwrap(), "17-25");
    assert_eq!(resolve(&d, "W:W9-24:B41-56", "a3-a4").unwrap(), "17-25");
    let (code, msg) = resolve(&d, "W:W9-24:B41-56", "a3-b4").unwrap_err();
    assert_eq!(code, Code::IllegalMove);
    assert!(msg.contains("forward or sideways"), "{msg}");
    // A king that takes d5 may not turn back over the square it came from.
    let pos = d.parse_position("W:WKd2:Bd5,c6,h8").unwrap();
    let paths: Vec<String> = d
        .legal_moves(&pos)
        .iter()
        .map(|m| d.path_text(m, false, true))
        .collect();
    assert!(paths.iter().all(|p| p.starts_with("d2xd")), "{paths:?}");
}

#[test]
fn czech_king_must_capture_first() {
    let d = Draughts::new(draughts::Variant::by_id("czech").unwrap());
    // White man c3 can take d4, White king g1 can take f2 and then d4: the king must capture.
    let fen = "W:WK32,22:B18,27,1";
    assert_eq!(resolve(&d, fen, "32x14").unwrap(), "32x23x14");
    let (code, msg) = resolve(&d, fen, "32x23").unwrap_err();
    assert_eq!(code, Code::NonMaximalCapture);
    assert!(msg.contains("stops after taking 1 piece"), "{msg}");
    let (code, msg) = resolve(&d, fen, "22x15").unwrap_err();
    assert_eq!(code, Code::NonMaximalCapture);
    assert!(msg.contains("a king must capture"), "{msg}");
}

#[test]
fn italian_man_may_not_take_a_king() {
    let d = Draughts::new(draughts::Variant::by_id("italian").unwrap());
    let pos = d.parse_position("W:Wb3:BKc4,a8").unwrap();
    let p = d.resolve(&pos, &[b"b3xd5"]).unwrap_err();
    assert_eq!(p.code, Code::IllegalMove);
    assert!(p.message.contains("may not take a king"), "{}", p.message);
    // With a man there instead, the capture is legal.
    let pos = d.parse_position("W:Wb3:Bc4,a8").unwrap();
    assert!(d.resolve(&pos, &[b"b3xd5"]).is_ok());
}

#[test]
fn a_token_longer_than_the_inline_buffer_is_still_judged() {
    // 40 squares: past the resolver's stack buffer, so it takes the heap path and must give
    // the same kind of answer as a short token naming no legal move.
    let d = Draughts::new(&INTERNATIONAL);
    let long: Vec<String> = (0..40).map(|k| ["28", "19"][k % 2].to_string()).collect();
    let (code, _) = resolve(&d, TWO_CAPTURES, &long.join("x")).unwrap_err();
    let (short_code, _) = resolve(&d, TWO_CAPTURES, "28x19x28x19").unwrap_err();
    assert_eq!(code, short_code);
    // And a legal chain written with the full path still resolves through the same code.
    assert_eq!(resolve(&d, TWO_CAPTURES, "28x19x8").unwrap(), "28x19x8");
}

#[test]
fn a_king_that_stops_where_it_could_capture_on_takes_too_little() {
    // The king on 46 takes 37; landing on 28 it goes on over 22, landing on 19 it cannot.
    let d = Draughts::new(&INTERNATIONAL);
    let fen = "W:WK46:B37,22";
    assert_eq!(resolve(&d, fen, "46x17").unwrap(), "46x28x17");
    let (code, msg) = resolve(&d, fen, "46x19").unwrap_err();
    assert_eq!(code, Code::NonMaximalCapture, "{msg}");
    assert_eq!(
        msg,
        "46x19 takes 1 piece but the majority rule demands 2 (International rules): e.g. 46x28x11"
    );
    // Russian has no majority rule, but a king must still land where it can capture on.
    let d = Draughts::new(&RUSSIAN);
    let fen = "W:WK29:B25,23";
    let (code, msg) = resolve(&d, fen, "a1:f6").unwrap_err();
    assert_eq!(code, Code::NonMaximalCapture, "{msg}");
    assert_eq!(
        msg,
        "a1:f6 stops on f6 after taking 1 piece, but a king must land where it can go on capturing (Russian rules): e.g. a1xd4xf2"
    );
}

#[test]
fn impossible_king_captures_stay_illegal() {
    let d = Draughts::new(&INTERNATIONAL);
    // Two pieces on the way, an own piece on the way, off the line.
    for (fen, token, why) in [
        ("W:WK46:B37,32", "46x28", "a piece takes one piece per jump"),
        (
            "W:WK46,41:B37",
            "46x28",
            "a piece cannot jump its own piece",
        ),
        (
            "W:WK46:B37",
            "46x20",
            "no capture of the king on 46 ends on 20",
        ),
        ("W:WK46:B37", "46x28x20", "28 and 20 are not on one line"),
    ] {
        let (code, msg) = resolve(&d, fen, token).unwrap_err();
        assert_eq!(code, Code::IllegalMove, "{fen} {token}: {msg}");
        assert!(msg.contains(why), "{fen} {token}: {msg}");
    }
}

#[test]
fn impossible_steps_say_how_pieces_move() {
    let russian = Draughts::new(&RUSSIAN);
    let start = russian.write_position(&russian.start());
    for (token, want) in [
        (
            "A1-A5",
            "a man moves one square diagonally forward, and a1 and a5 are not on one diagonal",
        ),
        (
            "c3-e5",
            "a man moves one square diagonally forward, and e5 is 2 squares from c3",
        ),
    ] {
        let (code, msg) = resolve(&russian, &start, token).unwrap_err();
        assert_eq!(code, Code::IllegalMove);
        assert_eq!(msg, format!("{token} is illegal: {want}"));
    }
    let turkish = Draughts::new(&draughts::TURKISH);
    let start = turkish.write_position(&turkish.start());
    let (_, msg) = resolve(&turkish, &start, "c3-d4").unwrap_err();
    assert!(
        msg.contains(
            "a man moves one square forward or sideways, and c3 and d4 are not on one rank or file"
        ),
        "{msg}"
    );
    // A king blocked by its own piece, and a king leaving its lines.
    let d = Draughts::new(&INTERNATIONAL);
    let (_, msg) = resolve(&d, "W:WK46,37", "46-28").unwrap_err();
    assert!(
        msg.ends_with("the king's way is blocked by its own piece on 37"),
        "{msg}"
    );
    let (_, msg) = resolve(&d, "W:WK46,37", "46-36").unwrap_err();
    assert!(
        msg.ends_with("a king moves along a diagonal over empty squares, and 46 and 36 are not on one diagonal"),
        "{msg}"
    );
}

#[test]
fn italian_captures_tied_to_the_first_king_are_decided_by_the_next() {
    // The captures of the kings on 3 and 4 tie on pieces taken, on the capturing piece, on
    // the kings taken and on where the first king is taken; 3x10 takes its second king
    // earlier (rule 6.9 compares the kings in order), so only 3x10 is legal. Ranking by the
    // first king alone allowed 4x9 too.
    let d = Draughts::new(draughts::Variant::by_id("italian").unwrap());
    let fen = "W:WK3,K4,5,17,20,K27,K28:BK7,K13,14,K15,21,24";
    let pos = d.parse_position(fen).unwrap();
    let moves: Vec<String> = d
        .legal_moves(&pos)
        .iter()
        .map(|m| d.path_text(m, true, false))
        .collect();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert!(resolve(&d, fen, &moves[0]).is_ok());
    let (code, _) = resolve(&d, fen, "4x9").unwrap_err();
    assert_eq!(code, Code::NonMaximalCapture);
}
