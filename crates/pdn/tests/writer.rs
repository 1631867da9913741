//! The canonical writer: layout, tag order, wrapping, and what it must not lose.

use pdn::{GameRecord, GameResult, Node, Span};

fn one(input: &str) -> GameRecord {
    let mut g = pdn::read_all(input.as_bytes());
    assert_eq!(g.len(), 1, "{input}");
    g.remove(0)
}

/// The example of docs/notation.md, which must be exactly what the writer produces.
const CANONICAL: &str = r#"% a header comment
[Event "Open"]
[Site "Amsterdam"]
[Date "2024.05.01"]
[White "Kees"]
[Black "Jan"]
[Result "2-0"]
[GameType "20"]
[Opponents "x"]

1. 32-28!? 19-23 $14 {a comment} (1... 18-23 2. 33-29) 2. 28x19 14x23
%a line comment
3. 31-27 2-0
"#;

#[test]
fn canonical_text_is_a_fixed_point() {
    let g = one(CANONICAL);
    assert!(g.problems.is_empty(), "{:?}", g.problems);
    assert_eq!(g.to_pdn(), CANONICAL);
}

#[test]
fn tags_are_put_in_canonical_order() {
    let g = one(
        "[Zeta \"z\"] [FEN \"W:W31:B1\"] [Result \"*\"] [Alpha \"a\"] [Event \"e\"] [Beta \"b\"] *",
    );
    assert_eq!(
        g.to_pdn(),
        "[Event \"e\"]\n[Result \"*\"]\n[FEN \"W:W31:B1\"]\n[Zeta \"z\"]\n[Alpha \"a\"]\n\
         [Beta \"b\"]\n\n*\n"
    );
}

#[test]
fn movetext_is_wrapped_at_80_columns() {
    let mut input = String::from("[Event \"long\"]\n");
    for i in 1..=60 {
        input.push_str(&format!("{i}. 32-28 19-23 "));
    }
    input.push_str("{a comment that is longer than any line could hold, so it gets a line of its own, unbroken} 1-0");
    let g = one(&input);
    let text = g.to_pdn();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10);
    let n = lines.len();
    for l in &lines[2..n - 2] {
        assert!(l.chars().count() <= 80, "{l}");
        // A move stays with its number: no line ends with a move number.
        assert!(!l.ends_with('.'), "{l}");
    }
    // The long comment alone on its line, unbroken; the result after it.
    assert!(lines[n - 2].starts_with("{a comment") && lines[n - 2].ends_with("unbroken}"));
    assert_eq!(lines[n - 1], "1-0");
    assert!(one(&text).same_content(&g));
}

#[test]
fn continuation_numbers_keep_their_meaning() {
    // `77. ...` may end a game; `12...` needs a move.
    let g = one("76. 33-28 77. ... {end} *");
    assert!(g.problems.is_empty());
    assert_eq!(g.to_pdn(), "76. 33-28 77. ... {end} *\n");
    let g = one("1. 32-28 1... 19-23 *");
    assert_eq!(g.to_pdn(), "1. 32-28 1... 19-23 *\n");
}

#[test]
fn non_utf8_text_is_written_as_its_decoding() {
    let g = one("[White \"Ren\u{e9}\"] *");
    let latin1 = &pdn::read_all(b"[White \"Ren\xe9\"] *")[0];
    assert_eq!(latin1.to_pdn(), g.to_pdn());
    assert_eq!(latin1.to_pdn(), "[White \"René\"]\n\n*\n");
}

#[test]
fn every_game_is_written_with_its_result() {
    // A game without a result is written with `*`, followed by another game or not.
    let a = one("[Event \"a\"]\n1. 32-28");
    let b = one("[Event \"b\"]\n1. 33-29 1-0");
    let text = pdn::write_pdn([&a, &b]);
    assert_eq!(
        text,
        "[Event \"a\"]\n\n1. 32-28 *\n\n[Event \"b\"]\n\n1. 33-29 1-0\n"
    );
    assert_eq!(
        b.to_pdn() + &a.to_pdn(),
        "[Event \"b\"]\n\n1. 33-29 1-0\n[Event \"a\"]\n\n1. 32-28 *\n"
    );
    let back = pdn::read_all(text.as_bytes());
    assert_eq!(back.len(), 2);
    assert_eq!(back[0].result.as_ref().unwrap().token, "*");
    assert!(back[0].same_content(&a) && back[1].same_content(&b));
    // A tag section alone (a lidraughts export's tags) stays a game before a movetext alone.
    let t = one("[Event \"t\"]");
    let m = one("1. 34-29 2-0");
    let text = pdn::write_pdn([&t, &m]);
    assert_eq!(text, "[Event \"t\"]\n\n*\n\n1. 34-29 2-0\n");
    assert_eq!(pdn::read_all(text.as_bytes()).len(), 2);
    // Files written apart and joined keep every game.
    let joined = t.to_pdn() + &m.to_pdn() + &a.to_pdn();
    let back = pdn::read_all(joined.as_bytes());
    let results: Vec<_> = back.iter().map(|g| g.result_token()).collect();
    assert_eq!(results, ["*", "2-0", "*"]);
    assert!(back.iter().all(|g| g.problems.is_empty()), "{joined}");
}

#[test]
fn a_first_line_is_never_json() {
    // A header comment that is a JSON object of a record's shape would make the file look
    // like JSON lines: the game's next line joins it.
    let g = one("{\"tags\":[]}\n[Event \"x\"]\n1. 32-28 *");
    assert_eq!(g.header_comments.len(), 1);
    let text = pdn::write_pdn([&g, &g]);
    assert_eq!(
        text,
        "{\"tags\":[]} [Event \"x\"]\n\n1. 32-28 *\n\n{\"tags\":[]}\n[Event \"x\"]\n\n1. 32-28 *\n"
    );
    assert!(!pdn::is_json_record(text.lines().next().unwrap()));
    let back = pdn::read_all(text.as_bytes());
    assert!(back.len() == 2 && back[0].same_content(&g) && back[1].same_content(&g));
    assert_eq!(pdn::write_pdn(&back), text, "a fixed point");
    // A comment alone, before the result.
    let c = one("{\"movetext\":[]}");
    assert_eq!(c.to_pdn(), "{\"movetext\":[]} *\n");
    assert!(one(&c.to_pdn()).same_content(&c));
    // Comments that are not a record's JSON stay on their own line.
    for first in ["{[Empty]}", "{3}", "{}"] {
        let g = one(&format!("{first}\n[Event \"x\"] *"));
        assert!(
            g.to_pdn().starts_with(&format!("{first}\n[Event")),
            "{}",
            g.to_pdn()
        );
    }
}

#[test]
fn a_repeated_tag_starts_a_new_game() {
    // Tag sections without movetext (a ballot file) are games of their own.
    let games =
        pdn::read_all(b"[Event \"a\"]\n[FEN \"W:W31:B1\"]\n\n[Event \"b\"]\n[FEN \"B:W32:B2\"]\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("FEN"), Some("B:W32:B2"));
    assert!(games.iter().all(|g| g.problems.is_empty()));
    let text = pdn::write_pdn(&games);
    assert_eq!(
        text,
        "[Event \"a\"]\n[FEN \"W:W31:B1\"]\n\n*\n\n[Event \"b\"]\n[FEN \"B:W32:B2\"]\n\n*\n"
    );
    let again = pdn::read_all(text.as_bytes());
    assert_eq!(again.len(), 2);
    assert_eq!(pdn::write_pdn(&again), text, "a fixed point");
}

#[test]
fn annotations_keep_their_order_and_owner() {
    let g = one("1. 32-28 $3 ! ?? {c} !? $4 (! 19-23) *");
    let text = g.to_pdn();
    assert_eq!(text, "1. 32-28 $3 ! ?? {c} !? $4 (! 19-23) *\n");
    let Node::Move(m) = &g.movetext[1] else {
        panic!()
    };
    assert_eq!(m.annotations.len(), 3);
    assert!(matches!(g.movetext[3], Node::Annotation(_)));
}

#[test]
fn validate_names_what_cannot_be_written() {
    let mut g = one("[Event \"x\"] {c} 1. 32-28 *");
    assert!(g.validate().is_ok());
    g.tags[0].value = "ends with \\".into();
    assert!(g.validate().is_err());
    let mut g = one("[Event \"x\"] {c} 1. 32-28 *");
    if let Node::Comment(c) = &mut g.movetext[0] {
        c.text = "a } b".into();
    }
    assert!(g.validate().is_err());
    let mut g = one("[Event \"x\"] {c} 1. 32-28 *");
    if let Node::Move(m) = &mut g.movetext[2] {
        m.token = "1-0".into();
    }
    assert!(g.validate().is_err());
    let mut g = one("[Event \"x\"] *");
    g.result = Some(GameResult {
        token: "4-6".into(),
        span: Span::default(),
    });
    assert!(g.validate().is_err());
    assert!(GameRecord::default().validate().is_err());
}

#[test]
fn json_has_the_documented_shape() {
    let g = one("[White \"Kees\"] 1. 32-28!? {good} (33-28) $3 /FEN \"W:W31:B1\"/ 1-0");
    let v: serde_json::Value = serde_json::from_str(&g.to_json()).unwrap();
    assert_eq!(v["tags"][0]["name"], "White");
    assert_eq!(v["tags"][0]["span"], serde_json::json!([0, 14]));
    assert_eq!(v["movetext"][0]["move_number"]["number"], 1);
    assert_eq!(v["movetext"][1]["move"]["token"], "32-28");
    assert_eq!(
        v["movetext"][1]["move"]["annotations"][0]["strength"]["mark"],
        "!?"
    );
    assert_eq!(v["movetext"][2]["comment"]["kind"], "brace");
    assert_eq!(
        v["movetext"][3]["variation"]["nodes"][0]["move"]["token"],
        "33-28"
    );
    assert_eq!(v["movetext"][4]["annotation"]["nag"]["nag"], 3);
    assert_eq!(v["movetext"][5]["setup"]["fen"], "W:W31:B1");
    assert_eq!(v["result"]["token"], "1-0");
    assert!(v.get("problems").is_none());
    // Hand-written JSON without spans.
    let r = GameRecord::from_json(
        r#"{"tags":[{"name":"Event","value":"x"}],"movetext":[{"move":{"token":"32-28"}}],
            "result":{"token":"*"}}"#,
    )
    .unwrap();
    assert_eq!(r.to_pdn(), "[Event \"x\"]\n\n32-28 *\n");
    assert!(GameRecord::from_json(r#"{"movetext":[{"move":{"token":"no"}}]}"#).is_err());
}

#[test]
fn many_distinct_tags_stay_one_game_and_a_repeat_still_splits() {
    // 200 names share 128 bits: the exact check behind the quick one must tell them apart.
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(&format!("[Tag{i} \"v\"]\n"));
    }
    let one_section = pdn::read_all(text.as_bytes());
    assert_eq!(one_section.len(), 1);
    assert_eq!(one_section[0].tags.len(), 200);
    text.push_str("[Tag77 \"again\"]\n[Tag3 \"x\"]\n");
    let games = pdn::read_all(text.as_bytes());
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].tag("Tag77"), Some("again"));
    assert_eq!(games[1].tags.len(), 2);
}
