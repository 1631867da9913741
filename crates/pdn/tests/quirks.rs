//! Property test over generated PDN *text* with every construct and the quirks of real
//! exports: tags with odd names, lost `[`, `[Empty]`, a literal `\r` after tags, stray words,
//! comments, line comments, NAGs, move strengths, nested variations, setup commands,
//! upper-case squares, `58.36x27`, `[Result "-"]` with `-` as the result, CRLF.
//!
//! Checked: the reader keeps every generated game whole (the same number of games, errors only
//! where a game really lacks its result); writing keeps every tag, comment and stray text;
//! PDN -> PDN -> PDN and PDN -> JSON -> PDN give the bytes of PDN -> PDN; whatever the JSON
//! writer writes, the JSON reader reads.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

use pdn::{GameRecord, Severity};

/// A generated game: its PDN text and the pieces of text that must survive writing.
#[derive(Debug, Clone)]
struct Game {
    text: String,
    /// Texts that the canonical output must contain.
    kept: Vec<String>,
    has_result: bool,
    has_tags: bool,
    has_moves: bool,
}

const STRAY: [&str; 6] = ["\\r", "White resigns", "Draw", "#", "@@", "~x"];

/// A tag value: characters that matter to PDN, and some non-ASCII text.
fn value() -> impl Strategy<Value = String> {
    let pieces = select(vec![
        "a", "Z", " ", "1", "-", "(", ")", "{", "}", ";", "%", "$", "!", "*", "/", ".", "é", "Ж",
        "[", "]", "\\'", "\\\"",
    ]);
    vec(pieces, 0..8).prop_map(|v| v.concat())
}

/// Tag names: the game's first tag is `Event`, so a section without movetext followed by
/// another section repeats a name and is a game of its own.
const NAMES: [&str; 10] = [
    "Site",
    "White",
    "Black",
    "Round",
    "FEN",
    "WhiteRating",
    "Heure blanche",
    "R&#x00e9;sultat",
    "event",
    "Titre noir",
];

/// One tag line (or piece of a line) and what must survive of it; `unquoted` writes the
/// value without quotes (`[Result -]`), for values that allow it.
fn tag(
    name: &str,
    value: &str,
    (lost_bracket, unquoted): (bool, bool),
    after: Option<&str>,
) -> (String, Vec<String>) {
    let mut text = String::new();
    if !lost_bracket {
        text.push('[');
    }
    if unquoted {
        text.push_str(&format!("{name} {value}]"));
    } else {
        text.push_str(&format!("{name} \"{value}\"]"));
    }
    let mut kept = vec![format!("[{name} \"{value}\"]")];
    if let Some(a) = after {
        text.push(' ');
        text.push_str(a);
        kept.push(a.to_string());
    }
    (text, kept)
}

#[derive(Debug, Clone)]
enum Piece {
    /// A move number (`12.` or `12...`) and its move.
    Number(u32, bool, String),
    /// A move number glued to its move: `58.36x27`.
    Glued(u32, String),
    Move(String),
    Strength(&'static str),
    Nag(u16),
    Comment(String),
    LineComment(String),
    Setup(String),
    Stray(&'static str),
    Variation(Vec<Piece>),
}

fn move_token() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u8..51, select(vec!['-', 'x']), 1u8..51).prop_map(|(a, s, b)| format!("{a}{s}{b}")),
        "[a-h][1-8][-x][a-h][1-8]",
        "[A-H][1-8]-[A-H][1-8]",
        Just("1- 6".to_string()),
    ]
    .prop_filter("a result is not a move", |m| m != "1-1")
}

fn comment_text() -> impl Strategy<Value = String> {
    value().prop_map(|v| v.replace(['{', '}'], "").replace('\\', ""))
}

fn leaf() -> impl Strategy<Value = Piece> {
    prop_oneof![
        3 => (1u32..99, any::<bool>(), move_token()).prop_map(|(n, c, m)| Piece::Number(n, c, m)),
        1 => (1u32..99, move_token()).prop_map(|(n, m)| Piece::Glued(n, m)),
        6 => move_token().prop_map(Piece::Move),
        1 => select(vec!["!", "?", "!!", "!?", "?!", "??"]).prop_map(Piece::Strength),
        1 => (0u16..300).prop_map(Piece::Nag),
        1 => comment_text().prop_map(Piece::Comment),
        1 => comment_text().prop_map(Piece::LineComment),
        1 => "W:W[0-9]{1,2}:B[0-9]{1,2}".prop_map(Piece::Setup),
        1 => select(STRAY.to_vec()).prop_map(Piece::Stray),
    ]
}

fn pieces() -> impl Strategy<Value = Vec<Piece>> {
    let piece = leaf().prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            4 => inner.clone(),
            // A variation starts with a move, so it is never empty nor a lone mark.
            1 => (move_token(), vec(inner, 0..5)).prop_map(|(m, mut rest)| {
                rest.insert(0, Piece::Move(m));
                Piece::Variation(rest)
            }),
        ]
    });
    vec(piece, 0..14)
}

/// Writes movetext pieces; `kept` collects the texts that must survive.
fn render(pieces: &[Piece], out: &mut String, kept: &mut Vec<String>) {
    for p in pieces {
        match p {
            Piece::Number(n, false, m) => out.push_str(&format!("{n}. {m} ")),
            Piece::Number(n, true, m) => out.push_str(&format!("{n}... {m} ")),
            Piece::Glued(n, m) => out.push_str(&format!("{n}.{m} ")),
            Piece::Move(m) => out.push_str(&format!("{m} ")),
            Piece::Strength(s) => {
                // Glued to a move, as exporters write it (glued to stray text, it would be
                // part of that text).
                if out.trim_end().ends_with(|c: char| c.is_ascii_digit()) {
                    while out.ends_with(' ') {
                        out.pop();
                    }
                }
                out.push_str(&format!("{s} "));
            }
            Piece::Nag(n) => out.push_str(&format!("${n} ")),
            Piece::Comment(c) => {
                out.push_str(&format!("{{{c}}} "));
                kept.push(format!("{{{c}}}"));
            }
            Piece::LineComment(c) => {
                let c = c.replace(['\r', '\n'], "");
                out.push_str(&format!("\n%{c}\n"));
                kept.push(format!("%{c}"));
            }
            Piece::Setup(f) => out.push_str(&format!("/FEN \"{f}\"/ ")),
            Piece::Stray(s) => {
                out.push_str(&format!("{s} "));
                kept.push(s.to_string());
            }
            Piece::Variation(v) => {
                out.push('(');
                render(v, out, kept);
                out.push_str(") ");
            }
        }
    }
}

fn game() -> impl Strategy<Value = Game> {
    let tags = (
        subsequence(NAMES.to_vec(), 0..5),
        vec(value(), 5),
        any::<bool>(),
    );
    let extras = (
        vec(select(vec![None, None, Some("\\r"), Some("Draw")]), 6),
        0u8..4,
        any::<bool>(),
        any::<bool>(),
    );
    (
        prop::option::of(tags),
        extras,
        pieces(),
        prop::option::of(select(vec![
            "1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2", "*", "-",
        ])),
    )
        .prop_map(
            |(tags, (after, header, one_line, unquoted), pieces, result)| {
                let mut text = String::new();
                let mut kept = Vec::new();
                let has_tags = tags.is_some();
                let dash = result == Some("-");
                if let Some((names, values, lost_bracket)) = &tags {
                    match header {
                        0 => {
                            text.push_str("[Empty]\n");
                            kept.push("[Empty]".into());
                        }
                        1 => {
                            text.push_str("{before the tags}\n");
                            kept.push("{before the tags}".into());
                        }
                        _ => {}
                    }
                    let result_value = if dash { "-" } else { "?" };
                    let mut all = vec![("Event", values[0].as_str()), ("Result", result_value)];
                    all.extend(
                        names
                            .iter()
                            .copied()
                            .zip(values[1..].iter().map(|v| v.as_str())),
                    );
                    for (i, (name, value)) in all.into_iter().enumerate() {
                        let lost = i == 0 && *lost_bracket && !text.ends_with(']');
                        // The Result tag (`?` or `-`) may come without quotes.
                        let bare = i == 1 && unquoted;
                        let (t, k) = tag(name, value, (lost, bare), after[i % after.len()]);
                        text.push_str(&t);
                        text.push(if one_line { ' ' } else { '\n' });
                        kept.extend(k);
                    }
                    text.push('\n');
                }
                let mut moves = String::new();
                render(&pieces, &mut moves, &mut kept);
                let has_moves = pieces.iter().any(|p| {
                    !matches!(
                        p,
                        Piece::Comment(_) | Piece::LineComment(_) | Piece::Stray(_)
                    )
                });
                text.push_str(&moves);
                // `-` is a result only where the Result tag says so.
                let result = result.filter(|r| *r != "-" || has_tags);
                if let Some(r) = result {
                    text.push_str(r);
                }
                text.push('\n');
                Game {
                    text,
                    kept,
                    has_result: result.is_some(),
                    has_tags,
                    has_moves,
                }
            },
        )
}

/// Games that stay apart as written: a game without a result has moves and is followed by a
/// game with tags (a new tag section after movetext), or is the last one.
fn file() -> impl Strategy<Value = (Vec<Game>, bool)> {
    (vec(game(), 1..5), any::<bool>()).prop_map(|(mut games, crlf)| {
        let n = games.len();
        for i in 0..n {
            let next_tags = games.get(i + 1).map_or(true, |g| g.has_tags);
            let g = &mut games[i];
            // Tags after movetext end a game that has no result.
            let ended_by_tags = g.has_moves && next_tags;
            if !g.has_result && !ended_by_tags {
                g.text.push_str("*\n");
                g.has_result = true;
            }
        }
        (games, crlf)
    })
}

fn read(bytes: &[u8]) -> Vec<GameRecord> {
    pdn::read_all(bytes)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(300)
    ))]

    #[test]
    fn quirky_archives_read_whole_and_write_losslessly((games, crlf) in file()) {
        let mut input: String = games.iter().map(|g| g.text.as_str()).collect::<Vec<_>>().join("\n");
        if crlf {
            input = input.replace('\n', "\r\n");
        }
        let records = read(input.as_bytes());
        prop_assert_eq!(records.len(), games.len(), "{}", input);
        for (r, g) in records.iter().zip(&games) {
            for p in &r.problems {
                let missing_result = p.kind.as_str() == "missing-result" && !g.has_result;
                prop_assert!(
                    p.severity <= Severity::Warning || missing_result,
                    "{:?}\n{}", p, input
                );
            }
        }
        // Writing keeps everything and settles in one pass.
        let text = pdn::write_pdn(&records);
        for g in &games {
            for k in &g.kept {
                prop_assert!(text.contains(k.as_str()), "{:?} lost:\n{}\n{}", k, input, text);
            }
        }
        let again = read(text.as_bytes());
        prop_assert_eq!(again.len(), records.len(), "{}", text);
        for (a, b) in records.iter().zip(&again) {
            let mut a = a.clone();
            if a.result.is_none() {
                a.result.clone_from(&b.result);
            }
            prop_assert!(a.same_content(b), "{}\n{:#?}\n{:#?}", text, a, b);
        }
        prop_assert_eq!(pdn::write_pdn(&again), text.clone());
        let from_json: Vec<GameRecord> = records
            .iter()
            .map(|r| GameRecord::from_json(&r.to_json()))
            .collect::<Result<_, _>>()
            .map_err(|e| TestCaseError::fail(format!("{e}\n{input}")))?;
        prop_assert_eq!(&from_json, &records);
        prop_assert_eq!(pdn::write_pdn(&from_json), text);
    }
}
