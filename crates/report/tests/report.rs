//! stats.json and report.html from a small hand-made corpus, checked against counts computed
//! here independently (by hand, or directly from the games).

// The corpora the statistics' tests make, shared with them.
#[path = "../../stats/tests/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use common::{ODNOCVETNIE, TAMA, THAAYAM};
use report::{write_report, ProblemExample, ReportExtras};
use serde_json::Value;
use stats::Stats;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stats-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn build() -> Stats {
    let mut s = Stats::default();
    for g in common::corpus() {
        s.add(&g.input());
    }
    s
}

/// stats.json of the hand-made corpus, written once for all tests of this file.
fn corpus_json() -> &'static Value {
    static JSON: OnceLock<Value> = OnceLock::new();
    JSON.get_or_init(|| {
        let dir = out_dir("corpus");
        let files = write_report(&build(), &dir, &ReportExtras::default()).expect("report written");
        let text = std::fs::read_to_string(&files.json).expect("stats.json");
        let _ = std::fs::remove_dir_all(&dir);
        serde_json::from_str(&text).expect("valid JSON")
    })
}

fn u(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("not an unsigned number: {v}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The summary of the game `id` in stats.json.
fn game<'a>(j: &'a Value, id: &str) -> &'a Value {
    j["per_game"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("no game {id}"))
}

/// The row labelled `label` of a results table.
fn row<'a>(rows: &'a Value, label: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == label)
        .unwrap_or_else(|| panic!("no row {label}"))
}

#[test]
fn totals_and_results() {
    let j = corpus_json();
    assert_eq!(u(&j["games"]), 11);
    let by_game: Vec<(String, u64)> = j["by_game"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_str().unwrap().to_string(), u(&g["games"])))
        .collect();
    // In id order, then the unidentified games.
    assert_eq!(
        by_game,
        vec![
            ("odnocvetnie".into(), 2),
            ("tama".into(), 4),
            ("thaayam".into(), 3),
            ("unknown".into(), 2)
        ]
    );
    assert_eq!(j["by_game"][0]["label"], "Odnocvetnie Shashki");

    let r = &game(j, "tama")["common"]["results"];
    // recorded: T1 White, T2 draw, T3 *, T4 nothing
    for (label, rec, rule) in [
        ("White wins", 1, 1),
        ("Black wins", 0, 1),
        ("Draw", 1, 0),
        ("Unfinished (*)", 1, 0),
        ("No result", 1, 2),
    ] {
        assert_eq!(u(&row(r, label)["recorded"]), rec, "{label} recorded");
        assert_eq!(u(&row(r, label)["by_rule"]), rule, "{label} by rule");
    }
    let a = &game(j, "tama")["common"]["agreement"];
    assert_eq!(
        (
            u(&a["agree"]),
            u(&a["disagree"]),
            u(&a["rule_only"]),
            u(&a["recorded_only"])
        ),
        (1, 0, 1, 2)
    );

    // Odnocvetnie: South wins, West loses (O1); O2 unfinished.
    let o = &game(j, "odnocvetnie")["common"];
    assert_eq!(u(&row(&o["results"], "South wins")["recorded"]), 1);
    assert_eq!(u(&row(&o["results"], "Unfinished (*)")["recorded"]), 1);
    assert_eq!(u(&row(&o["losses"], "West loses")["by_rule"]), 1);
}

#[test]
fn lengths_captures_and_validation() {
    let j = corpus_json();
    let c = &game(j, "tama")["common"];
    // plies 6, 4, 10, 2
    let len = &c["length"];
    assert_eq!(u(&len["count"]), 4);
    assert_eq!(f(&len["mean"]), 5.5);
    assert_eq!((u(&len["min"]), u(&len["max"])), (2, 10));
    assert_eq!(u(&len["median"]), 4); // nearest rank 2 of 2 4 6 10
    let bars: u64 = len["bars"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| u(&b["count"]))
        .sum();
    assert_eq!(bars, 4);
    // captures 3, 0, 1, 0
    assert_eq!(f(&c["captures"]["mean"]), 1.0);
    assert_eq!(u(&c["captures"]["max"]), 3);
    assert_eq!(u(&c["replay_stopped"]), 1);

    let v = &c["validation"];
    assert_eq!(
        (u(&v["clean"]), u(&v["warnings_only"]), u(&v["with_errors"])),
        (2, 1, 1)
    );
    let codes = v["codes"].as_array().unwrap();
    // Most frequent first: bad-tag (2 warnings) and illegal-move (2 errors) tie on 2; ties
    // by name.
    assert_eq!(codes[0]["code"], "bad-tag");
    assert_eq!((u(&codes[0]["warnings"]), u(&codes[0]["games"])), (2, 2));
    assert_eq!(codes[1]["code"], "illegal-move");
    assert_eq!((u(&codes[1]["errors"]), u(&codes[1]["games"])), (2, 1));
    let unknown = &j["unknown"]["validation"];
    assert_eq!(u(&unknown["warnings_only"]), 2);
    assert_eq!(unknown["codes"][0]["code"], "unknown-game");

    // Every number agrees with the corpus recomputed directly.
    let corpus = common::corpus();
    let total_captures: u64 = corpus
        .iter()
        .filter(|g| g.is(&THAAYAM))
        .flat_map(|g| g.facts.iter().map(|f| u64::from(f.captures)))
        .sum();
    let thaayam_mean = total_captures as f64 / 3.0;
    assert!((f(&game(j, "thaayam")["common"]["captures"]["mean"]) - thaayam_mean).abs() < 1e-12);
}

#[test]
fn draughts_figures() {
    let j = corpus_json();
    let t = &game(j, "tama")["board"];
    // longest chain per game: 2, 0, 1, 0
    assert_eq!(u(&t["longest_chain"]["max"]), 2);
    assert_eq!(f(&t["longest_chain"]["mean"]), 0.75);
    // first promotion: T1 at ply 4; three games without
    assert_eq!(u(&t["first_promotion"]["count"]), 1);
    assert_eq!(u(&t["first_promotion"]["min"]), 4);
    assert_eq!(u(&t["no_promotion"]), 3);
    // material after ply 1: T1 16/16, T2 16/16, T3 16/16, T4 12/14
    let m0 = &t["material"][0];
    assert_eq!(u(&m0["ply"]), 1);
    assert_eq!(u(&m0["games"]), 4);
    assert_eq!(f(&m0["mean"][0]), (16.0 * 3.0 + 12.0) / 4.0);
    assert_eq!(f(&m0["mean"][1]), (16.0 * 3.0 + 14.0) / 4.0);
    // after ply 5 only T1 is left (16 / 13)
    let m4 = &t["material"][4];
    assert_eq!((u(&m4["games"]), f(&m4["mean"][1])), (1, 13.0));
    // capture squares d5, e6, c6, a1
    let heat = t["heat"].as_array().unwrap();
    assert_eq!(heat.len(), 64);
    let count = |name: &str| u(&heat.iter().find(|h| h["square"] == name).unwrap()["count"]);
    for name in ["d5", "e6", "c6", "a1"] {
        assert_eq!(count(name), 1, "{name}");
    }
    assert_eq!(heat.iter().map(|h| u(&h["count"])).sum::<u64>(), 4);
    let d5 = heat.iter().find(|h| h["square"] == "d5").unwrap();
    assert_eq!((u(&d5["file"]), u(&d5["rank"])), (3, 4));

    // Odnocvetnie squares 1 (b10) and 50 (i1).
    let od = &game(j, "odnocvetnie")["board"];
    let oh = od["heat"].as_array().unwrap();
    assert_eq!(oh.len(), 50);
    let one = oh.iter().find(|h| h["square"] == "1").unwrap();
    assert_eq!(
        (u(&one["file"]), u(&one["rank"]), u(&one["count"])),
        (1, 9, 1)
    );
    let fifty = oh.iter().find(|h| h["square"] == "50").unwrap();
    assert_eq!(
        (u(&fifty["file"]), u(&fifty["rank"]), u(&fifty["count"])),
        (8, 0, 1)
    );
    assert_eq!(od["material_sides"], serde_json::json!(["All pieces"]));
    assert_eq!(f(&od["material"][0]["mean"][0]), (39.0 + 40.0) / 2.0);
    assert_eq!(t["material_sides"], serde_json::json!(["White", "Black"]));
    // A game of chance has no board section, a board game no chance section.
    assert!(game(j, "thaayam")["board"].is_null());
    assert!(game(j, "tama")["chance"].is_null());
}

#[test]
fn thaayam_throws_and_wins() {
    let j = corpus_json();
    let h = &game(j, "thaayam")["chance"];
    // Count the throws directly from the corpus.
    let values = [1u8, 2, 3, 4, 8];
    let mut observed = [0u64; 5];
    for g in common::corpus().iter().filter(|g| g.is(&THAAYAM)) {
        for f in &g.facts {
            for t in &f.throws {
                observed[values.iter().position(|v| v == t).unwrap()] += 1;
            }
        }
    }
    assert_eq!(observed, [3, 3, 3, 1, 2]); // by hand as well
    let rows = h["throws"]["rows"].as_array().unwrap();
    let total: u64 = observed.iter().sum();
    let probs = [4.0, 6.0, 4.0, 1.0, 1.0].map(|w| w / 16.0);
    let mut chi = 0.0;
    for i in 0..5 {
        assert_eq!(u(&rows[i]["value"]), u64::from(values[i]));
        assert_eq!(u(&rows[i]["observed"]), observed[i]);
        let e = total as f64 * probs[i];
        assert!((f(&rows[i]["expected"]) - e).abs() < 1e-12);
        chi += (observed[i] as f64 - e).powi(2) / e;
    }
    assert!((f(&h["throws"]["chi_square"]) - chi).abs() < 1e-9);
    let contributions: f64 = rows.iter().map(|r| f(&r["contribution"])).sum();
    assert!((contributions - chi).abs() < 1e-9);
    // 4 degrees of freedom: P(X ≥ x) = e^{−x/2}(1 + x/2).
    let p = (-chi / 2.0).exp() * (1.0 + chi / 2.0);
    assert!((f(&h["throws"]["p_value"]) - p).abs() < 1e-12);
    assert_eq!(u(&h["throws"]["df"]), 4);
    assert_eq!(h["throws"]["reliable"], false); // 12 throws: expected 0.75 for a 4

    // Lost throws 1, 0, 0; twins 1, 0, 0; finish: H1 3 plies, H3 5 plies.
    assert_eq!(u(&h["lost_throws"]["max"]), 1);
    assert!((f(&h["lost_throws"]["mean"]) - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(u(&h["twins"]["count"]), 3);
    assert_eq!(f(&h["finish"]["mean"]), 4.0);
    assert_eq!(u(&h["finish"]["count"]), 2);
    // Wins: North (H1) and East (H3), both second to move in two-player games. Every seat
    // played two games (S and N in H1 and H2, W and E in H2 and H3).
    let seats = game(j, "thaayam")["common"]["per_seat"].as_array().unwrap();
    let rows: Vec<(&str, u64, u64, f64)> = seats
        .iter()
        .map(|r| {
            (
                r["seat"].as_str().unwrap(),
                u(&r["played"]),
                u(&r["wins"]),
                f(&r["win_rate"]),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("South", 2, 0, 0.0),
            ("West", 2, 0, 0.0),
            ("North", 2, 1, 0.5),
            ("East", 2, 1, 0.5)
        ]
    );
    let two = &h["by_order"][0];
    assert_eq!(
        (u(&two["players"]), u(&two["games"]), u(&two["decisive"])),
        (2, 2, 2)
    );
    assert_eq!(two["wins"], serde_json::json!([0, 2]));
    assert_eq!(two["win_shares"], serde_json::json!([0.0, 1.0]));
    let four = &h["by_order"][2];
    assert_eq!((u(&four["games"]), u(&four["decisive"])), (1, 0));
    assert_eq!(four["wins"].as_array().unwrap().len(), 4);
}

#[test]
fn chi_square_on_a_known_table() {
    // 160 throws in exactly fair proportions: statistic 0, p-value 1.
    let mut g = common::G::new(Some(&THAAYAM), &[0, 2]);
    let mut throws = Vec::new();
    for (v, n) in [(1u8, 40), (2, 60), (3, 40), (4, 10), (8, 10)] {
        throws.extend(std::iter::repeat_n(v, n));
    }
    g.facts = vec![common::turn(0, &throws, 0, 0, 0)];
    g.plies = 1;
    let mut s = Stats::default();
    s.add(&g.input());
    let t = s.summary().per_game[0].chance.clone().unwrap().throws;
    assert_eq!(t.total, 160);
    assert_eq!(t.chi_square, Some(0.0));
    assert_eq!(t.p_value, Some(1.0));
    assert!(t.reliable);

    // 50 ones and 50 twos instead: 10²/40 + 10²/60 = 4.1667; p from mpmath's regularized
    // upper incomplete gamma Q(2, x/2) = 0.383919620286046.
    let mut throws = Vec::new();
    for (v, n) in [(1u8, 50), (2, 50), (3, 40), (4, 10), (8, 10)] {
        throws.extend(std::iter::repeat_n(v, n));
    }
    g.facts = vec![common::turn(0, &throws, 0, 0, 0)];
    let mut s = Stats::default();
    s.add(&g.input());
    let t = s.summary().per_game[0].chance.clone().unwrap().throws;
    let x = 100.0 / 40.0 + 100.0 / 60.0;
    assert!((t.chi_square.unwrap() - x).abs() < 1e-12);
    assert!((t.p_value.unwrap() - 0.383_919_620_286_046).abs() < 1e-9);
}

#[test]
fn openings_with_results() {
    let j = corpus_json();
    let o = game(j, "tama")["common"]["openings"].as_array().unwrap();
    assert_eq!(o.len(), 2);
    assert_eq!(o[0]["opening"], "c3-c4 f6-f5 d3-d4 e6-e5");
    assert_eq!(u(&o[0]["games"]), 3);
    assert_eq!(f(&o[0]["share"]), 0.75);
    // T1 White (by rule), T2 draw (recorded), T4 Black (by rule)
    assert_eq!(o[0]["wins"], serde_json::json!([1, 1]));
    assert_eq!(u(&o[0]["draws"]), 1);
    assert_eq!(o[1]["opening"], "d3-d4 e6-e5");
    assert_eq!(u(&o[1]["unfinished"]), 1);
    assert_eq!(u(&game(j, "tama")["common"]["distinct_openings"]), 2);
    assert_eq!(u(&game(j, "tama")["common"]["openings_pruned_games"]), 0);
    // No openings for a game of chance, though its games have them written.
    let dice = game(j, "thaayam")["common"]["openings"].as_array().unwrap();
    assert!(dice.is_empty());
}

#[test]
fn tags_of_known_and_unknown_games() {
    let j = corpus_json();
    // Tama: T1 Ann (White) beat Bo by rule; T2 Bo (White) and Ann drew.
    let players = game(j, "tama")["tags"]["players"].as_array().unwrap();
    let ann = players.iter().find(|p| p["name"] == "Ann").unwrap();
    assert_eq!(
        (
            u(&ann["games"]),
            u(&ann["wins"]),
            u(&ann["draws"]),
            u(&ann["losses"])
        ),
        (2, 1, 1, 0)
    );
    assert_eq!(f(&ann["score"]), 0.75);
    // Unidentified games: 2-0 for Ann, then 1-1; both of the Club cup, 1999 and 2001.
    let t = &j["unknown"]["tags"];
    assert_eq!(u(&t["games"]), 2);
    let results: Vec<(String, u64)> = t["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].as_str().unwrap().to_string(), u(&r[1])))
        .collect();
    assert_eq!(results[0], ("White wins".to_string(), 1));
    assert_eq!(results[2], ("Draw".to_string(), 1));
    let ann = &t["players"][0];
    assert_eq!((ann["name"].as_str(), u(&ann["games"])), (Some("Ann"), 2));
    assert_eq!(f(&ann["score"]), 0.75);
    assert_eq!(f(&t["players"][1]["score"]), 0.25);
    let cup = &t["events"][0];
    assert_eq!(
        (cup["name"].as_str(), u(&cup["games"])),
        (Some("Club cup"), 2)
    );
    assert_eq!(t["years"], serde_json::json!([[1999, 1], [2001, 1]]));
    let len = &j["unknown"]["length"];
    assert_eq!((u(&len["min"]), u(&len["max"])), (40, 51));
}

/// The part of the page from `<section id="{id}"` to the next section.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<section id=\"{id}\""))
        .unwrap_or_else(|| panic!("no section {id}"));
    let rest = &html[start..];
    let end = rest[1..].find("<section ").map_or(rest.len(), |e| e + 1);
    &rest[..end]
}

#[test]
fn html_has_one_chart_per_expected_figure() {
    let stats = build();
    let dir = out_dir("html");
    let mut extras = ReportExtras::new();
    let mut d = report::Diagram::empty(&TAMA.profile.board, "d3-d4 <illegal>");
    d.pieces
        .push(report::PieceGlyph::man(3, 2, report::PieceColour::Light));
    assert!(extras.add_example(ProblemExample {
        title: "t.pdn game 3".into(),
        game: TAMA.label.into(),
        code: "illegal-move".into(),
        message: "no piece can move to <d4> & so on".into(),
        diagram: Some(d),
    }));
    let files = write_report(&stats, &dir, &extras).unwrap();
    let html = std::fs::read_to_string(&files.html).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Two inline scripts (opening folded sections, the layout check), nothing loaded.
    assert_eq!(html.matches("<script").count(), 2);
    assert!(!html.contains("<script src"), "no external JS");
    for remote in ["src=\"http", "href=\"http", "url(http", "@import"] {
        assert!(!html.contains(remote), "no network: {remote}");
    }
    assert!(!html.contains("<link"), "CSS is inline");

    // Charts where the data has something to draw: Tama's first promotion (one game, ply 4)
    // and Odnocvetnie's (no game) are sentences; only games with diagnostics have a codes
    // chart; the unidentified games have a year chart (1999, 2001) and a length chart.
    let expected: [(&str, &[&str]); 5] = [
        ("overview", &["validation"]),
        (
            "tama",
            &[
                "results", "seats", "length", "captures", "codes", "chain", "material", "heatmap",
            ],
        ),
        (
            "odnocvetnie",
            &[
                "results", "seats", "length", "captures", "chain", "material", "heatmap",
            ],
        ),
        (
            "thaayam",
            &[
                "results",
                "seats",
                "length",
                "captures",
                "throws",
                "lost",
                "twins",
                "finish",
                "wins-order",
            ],
        ),
        ("unknown", &["years", "length"]),
    ];
    let mut total = 0;
    for (id, charts) in expected {
        let s = section(&html, id);
        assert_eq!(s.matches("<svg").count(), charts.len(), "charts in {id}");
        assert_eq!(
            s.matches("<figure").count(),
            charts.len(),
            "figures in {id}"
        );
        for c in charts {
            assert!(s.contains(&format!("id=\"fig-{id}-{c}\"")), "fig-{id}-{c}");
        }
        assert!(s.contains("<h2>"), "heading in {id}");
        total += charts.len();
    }
    assert_eq!(files.charts.len(), total);
    assert!(section(&html, "tama").contains("<table>"));
    assert!(section(&html, "tama").contains("id=\"single-tama-promotion\""));
    assert!(section(&html, "tama").contains("all 1 games: 4"));
    assert!(!section(&html, "thaayam").contains("Most frequent openings"));
    assert!(section(&html, "unknown").contains("Club cup"));
    // The example: escaped text and its diagram.
    let ex = section(&html, "examples");
    assert!(ex.contains("no piece can move to &lt;d4&gt; &amp; so on"));
    assert_eq!(ex.matches("<svg").count(), 1);
    assert!(
        ex.contains("&lt;illegal&gt;"),
        "diagram title escaped inside the SVG"
    );
    // Every chart file is there.
    for c in &files.charts {
        assert!(c.svg.exists() && c.png.exists(), "{}", c.id);
        let svg = std::fs::read_to_string(&c.svg).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("<text"), "{} has text", c.id);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sections_of_absent_games_are_left_out() {
    let mut s = Stats::default();
    let g = &common::corpus()[0]; // one Tama game
    s.add(&g.input());
    let dir = out_dir("absent");
    let files = write_report(&s, &dir, &ReportExtras::default()).unwrap();
    let html = std::fs::read_to_string(&files.html).unwrap();
    assert!(html.contains("<section id=\"tama\""));
    assert!(!html.contains("<section id=\"odnocvetnie\""));
    assert!(!html.contains("<section id=\"thaayam\""));
    assert!(!html.contains("<section id=\"unknown\""));
    assert!(!html.contains("<section id=\"examples\""));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn empty_stats_still_write_a_report() {
    let dir = out_dir("empty");
    let files = write_report(&Stats::default(), &dir, &ReportExtras::default()).unwrap();
    let html = std::fs::read_to_string(&files.html).unwrap();
    assert!(html.contains("0 games"));
    assert_eq!(files.charts.len(), 1); // the overview, drawn as "no data"
    let _ = std::fs::remove_dir_all(dir);
}

fn example(game: &str, code: &str, n: usize) -> ProblemExample {
    ProblemExample {
        title: format!("{game} {code} #{n}"),
        game: game.into(),
        code: code.into(),
        message: "m".into(),
        diagram: None,
    }
}

#[test]
fn every_code_of_every_game_has_an_example_then_the_frequent_ones() {
    let mut extras = ReportExtras::new();
    // Tama: 200 illegal moves offered first (in path order), then one rare code; the same
    // code in another game; 30 codes of one example each.
    for n in 0..200 {
        if extras.accepts(TAMA.label, "illegal-move") {
            extras.add_example(example(TAMA.label, "illegal-move", n));
        } else {
            extras.skip_example(TAMA.label, "illegal-move");
        }
    }
    extras.add_example(example(TAMA.label, "missed-capture", 0));
    extras.add_example(example(ODNOCVETNIE.label, "illegal-move", 0));
    for c in 0..30 {
        extras.add_example(example(ODNOCVETNIE.label, &format!("code-{c:02}"), 0));
    }
    let shown = extras.examples();
    // 32 codes: each once, though more than MAX_EXAMPLES; nothing left for extras.
    let keys: std::collections::BTreeSet<(String, String)> = shown
        .iter()
        .map(|e| (e.game.clone(), e.code.clone()))
        .collect();
    assert_eq!(keys.len(), 33);
    assert!(keys.contains(&(TAMA.label.into(), "missed-capture".into())));
    assert_eq!(shown.len(), 33);
    // The most frequent code comes first.
    assert_eq!(shown[0].code, "illegal-move");
    assert_eq!(shown[0].game, TAMA.label);
    assert_eq!(extras.dropped(), 200 + 1 + 1 + 30 - 33);

    // With few codes, the frequent one gets the spare places (up to MAX_EXAMPLES_PER_CODE).
    let mut extras = ReportExtras::new();
    for n in 0..10 {
        extras.add_example(example(TAMA.label, "illegal-move", n));
    }
    extras.add_example(example(TAMA.label, "missed-capture", 0));
    let shown = extras.examples();
    let illegal = shown.iter().filter(|e| e.code == "illegal-move").count();
    assert_eq!(illegal, report::MAX_EXAMPLES_PER_CODE);
    assert_eq!(shown.len(), report::MAX_EXAMPLES_PER_CODE + 1);

    // stats.json lists the examples shown.
    let dir = out_dir("examples");
    let files = write_report(&build(), &dir, &extras).unwrap();
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&files.json).unwrap()).unwrap();
    assert_eq!(json["examples"].as_array().unwrap().len(), shown.len());
    assert_eq!(u(&json["examples_not_shown"]), 10 - 4);
    assert_eq!(
        json["charts"].as_array().unwrap().len(),
        files.charts.len(),
        "every chart is listed"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn charts_are_left_out_where_they_would_show_one_thing() {
    // Two Tama games without captures and one diagnostic code.
    let mut s = Stats::default();
    for plies in [3, 5] {
        let mut g = common::G::new(Some(&TAMA), &[0, 1]);
        g.plies = plies;
        g.facts = vec![common::ply(0, &[], false, [16, 16]); plies as usize];
        g.diagnostics = vec![("bad-tag", false)];
        s.add(&g.input());
    }
    let dir = out_dir("sparse");
    let files = write_report(&s, &dir, &ReportExtras::default()).unwrap();
    let html = std::fs::read_to_string(&files.html).unwrap();
    let tama = section(&html, "tama");
    assert!(
        tama.contains("id=\"fig-tama-length\""),
        "lengths 3 and 5 are drawn"
    );
    for absent in ["codes", "heatmap", "captures", "chain", "promotion"] {
        assert!(
            !tama.contains(&format!("id=\"fig-tama-{absent}\"")),
            "no {absent} chart"
        );
    }
    assert!(tama.contains("No capture in the replayed plies."));
    assert!(tama.contains("all 2 games: 0"), "captures as a sentence");
    assert!(
        tama.contains("<code>bad-tag</code>"),
        "the code is in the table"
    );
    let _ = std::fs::remove_dir_all(dir);
}
