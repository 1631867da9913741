//! What the referee does with the registry: ruleset options from the `Rules` tag or the
//! settings reach the game (Thaayam's `lenient-unused` among them), unknown games and
//! unknown options are warned about, and a Thaayam win must be a win by rule.

use std::fmt::Write;

use referee::{GameReport, Referee, Settings};

fn reports(text: &str, settings: Settings) -> Vec<GameReport> {
    let mut referee = Referee::new(games::games(), settings);
    let mut reader = pdn::Reader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut referee).expect("in-memory read") {
        out.push(g);
    }
    out
}

/// `game N: severity code: message` per diagnostic.
fn describe(text: &str, settings: Settings) -> String {
    let mut out = String::new();
    for (i, g) in reports(text, settings).iter().enumerate() {
        let id = g.game.map_or("-", |g| g.id);
        writeln!(out, "game {} ({id}, rules {}):", i + 1, g.options).unwrap();
        for d in &g.diagnostics {
            writeln!(out, "  {:?} {}: {}", d.severity, d.code, d.message).unwrap();
        }
    }
    out
}

/// d4+2 leaves the 4 unusable while d4+4 then d2+2 would have used both throws: an unused
/// throw by rule 17, but fine under `lenient-unused` (no throw left could still be used).
const UNUSED: &str = r#"[Variant "Thaayam"]
[FEN "S:S=d4,d2,k2/N=h4"]

1. S [4 2] d4+2 *

[Variant "Thaayam"]
[Rules "lenient-unused"]
[FEN "S:S=d4,d2,k2/N=h4"]

1. S [4 2] d4+2 *
"#;

#[test]
fn thaayam_rules_tag_is_honoured() {
    let text = describe(UNUSED, Settings::default());
    insta::assert_snapshot!(text);
    let r = reports(UNUSED, Settings::default());
    assert_eq!(r[0].diagnostics.len(), 1);
    assert_eq!(r[0].diagnostics[0].code, "unused-throw");
    assert!(r[1].diagnostics.is_empty(), "{:?}", r[1].diagnostics);
    assert_eq!(r[1].options.names(), ["lenient-unused"]);
}

#[test]
fn rules_from_the_settings_override_the_tags() {
    let settings = Settings {
        rules: Some("lenient-unused".into()),
        ..Settings::default()
    };
    let r = reports(UNUSED, settings);
    assert!(r.iter().all(|g| g.diagnostics.is_empty()));
}

#[test]
fn a_thaayam_winner_must_have_borne_off_all_four() {
    let text = r#"[Variant "Thaayam"]
[FEN "S:S=d4,k3/N=h4"]
[Result "S+"]

1. S [4 3] d4+4 S+
"#;
    let r = reports(text, Settings::default());
    let codes: Vec<&str> = r[0].diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["result-mismatch"]);
    let m = &r[0].diagnostics[0].message;
    assert!(m.contains("borne off 0 of its 4 pieces"), "{m}");
}

#[test]
fn unknown_games_are_found_from_their_moves_or_reported() {
    let text = r#"[Variant "Tamma"]

1. c3-c4 *

[GameType "44"]

1. 32-28 *

1. 32-28 *

[Variant "Tama"]
[Rules "foo"]

1. c3-c4 *
"#;
    let out = describe(text, Settings::default());
    insta::assert_snapshot!(out);
    let r = reports(text, Settings::default());
    // c3-c4 on an 8x8 board of every square fits Tama and Turkish alike: not checked, and
    // that is an error that lists them.
    assert!(r[0].game.is_none());
    assert!(!r[0].is_clean(), "an unidentified game is an error");
    let d = &r[0].diagnostics[0];
    assert_eq!(d.code, "unknown-game");
    for part in ["Variant \"Tamma\"", "Tama, Turkish", "--default-game"] {
        assert!(d.message.contains(part), "{part}: {}", d.message);
    }
    // 32-28 is a White move only on the 10x10 board: International, with a note saying why.
    for (g, seen) in r[1..3].iter().zip(["GameType \"44\"", "no Variant"]) {
        assert_eq!(g.game.map(|g| g.id), Some("international"));
        assert!(g.is_clean());
        let d = &g.diagnostics[0];
        assert_eq!(d.code, "game-inferred");
        assert_eq!(d.severity, referee::Severity::Note);
        assert!(d.message.contains(seen), "{}", d.message);
    }
    // `--default-game` stands in for the tags, which still win where they name a game.
    let settings = Settings {
        default_game: games::games().registry().by_name("tama"),
        ..Settings::default()
    };
    let r = reports(text, settings);
    let ids: Vec<Option<&str>> = r.iter().map(|g| g.game.map(|g| g.id)).collect();
    assert_eq!(ids, [Some("tama"); 4]);
    assert!(r[0].diagnostics.is_empty(), "{:?}", r[0].diagnostics);
    let d = &r[3].diagnostics[0];
    assert_eq!(d.code, "bad-tag");
    assert!(
        d.message.contains("`foo`") && d.message.contains("ludii"),
        "{}",
        d.message
    );
    assert_eq!(r[3].game.map(|g| g.id), Some("tama"));
}

#[test]
fn a_variation_numbered_for_the_next_move_starts_after_the_last_one() {
    // `(1... f6-f5)` right after White's first move is an alternative to Black's reply, as
    // some programs write it; `(1. d3-d4)` replaces White's move as PDN says.
    let text = "[Variant \"Tama\"]\n\n1. c3-c4 (1... f6-f5) (1. d3-d4 f6-f5) 1... d6-d5 *\n";
    let r = reports(text, Settings::default());
    assert!(r[0].diagnostics.is_empty(), "{:?}", r[0].diagnostics);
    // Without the move number the variation replaces the move before it: White's.
    let text = "[Variant \"Tama\"]\n\n1. c3-c4 (f6-f5) 1... d6-d5 *\n";
    let r = reports(text, Settings::default());
    assert_eq!(r[0].diagnostics.len(), 1);
    assert_eq!(r[0].diagnostics[0].code, "illegal-move");
}

#[test]
fn a_near_miss_gets_did_you_mean() {
    let text = "[Variant \"Tama\"]\n\n1. c3-c5 *\n\n[GameType \"20\"]\n\n1. 32-29 *\n";
    let r = reports(text, Settings::default());
    assert!(r[0].diagnostics[0].message.ends_with("did you mean c3-c4?"));
    let m = &r[1].diagnostics[0].message;
    assert!(m.ends_with("did you mean 32-27 or 32-28 or 33-29?"), "{m}");
    // Upper case, an en dash or a missing separator are read as the move they name.
    let text = "[Variant \"Tama\"]\n\n1. C3–C4 f6f5 *\n";
    assert!(reports(text, Settings::default())[0].diagnostics.is_empty());
}

/// In English draughts Black opens, so `1.` is Black's move and `1...` White's: a variation
/// written after White's first move as `(1... 22-18 …)` replaces that move, and one written
/// after Black's as `(1. 9-14 …)` replaces Black's. Both lines are legal there. Written with
/// the other numbering (`(2. …)` after White's move) the variation is the next move's
/// alternative, as in International draughts, where White opens.
#[test]
fn move_numbers_follow_the_seat_that_opens_the_game() {
    let english = "[GameType \"21\"]\n\n\
        1. 11-15 (1. 9-14 22-18) 23-19 (1... 22-18 15x22 25x18) 2. 8-11 (2. 9-14) 22-17 *\n";
    let r = &reports(english, Settings::default())[0];
    assert_eq!(r.game.map(|g| g.id), Some("english"));
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let international =
        "[GameType \"20\"]\n\n1. 32-28 (1. 33-28 18-23) 19-23 (2. 28x19 14x23) 2. 28x19 14x23 *\n";
    let r = &reports(international, Settings::default())[0];
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    // The same English line with a variation whose move is illegal where it starts: found
    // at the right place (White's 24-20 is not a Black move).
    let wrong = "[GameType \"21\"]\n\n1. 11-15 (1. 24-20) 23-19 *\n";
    let r = &reports(wrong, Settings::default())[0];
    assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
    assert!(
        r.diagnostics[0].message.contains("Black is to move"),
        "{}",
        r.diagnostics[0].message
    );
}

/// Tags whose names differ only in case: the one spelled as the standard has it names the
/// game wherever it stands, so a record and its written form (standard tags first) are the
/// same game.
#[test]
fn the_exactly_spelled_tag_wins_over_a_case_variant_wherever_it_stands() {
    let moves = "1. 32-28 19-23 *\n";
    for tags in [
        "[gametype \"21\"]\n[GameType \"20\"]\n",
        "[GameType \"20\"]\n[gametype \"21\"]\n",
        "[GAMETYPE \"21\"]\n[GameType \"20\"]\n[gametype \"21\"]\n",
    ] {
        let text = format!("{tags}\n{moves}");
        let r = &reports(&text, Settings::default())[0];
        assert_eq!(r.game.map(|g| g.id), Some("international"), "{tags}");
        let errors = r
            .diagnostics
            .iter()
            .filter(|d| d.severity == referee::Severity::Error);
        assert_eq!(errors.count(), 0, "{tags}: {:?}", r.diagnostics);
    }
    // Without the exact spelling, the last variant counts, as before.
    let r = &reports(
        "[GAMETYPE \"20\"]\n[gametype \"21\"]\n\n1. 11-15 *\n",
        Settings::default(),
    )[0];
    assert_eq!(r.game.map(|g| g.id), Some("english"));
}
