//! Arbitrary bytes through the whole pipeline: read (PDN reader), identify (the registry, from
//! the tags or forced), replay (the referee with every setting on: facts, rewrites,
//! snapshots, details, the final board) and write (each record without syntax errors is
//! written, read and replayed again).
//!
//! The first byte chooses the game: 0 lets the tags name it, `k` forces game `k - 1` of the
//! registry (modulo its size), as `--game` does; the rest is the PDN text. Seeds: self-play
//! games of every game of the registry (`fuzz/seeds.sh`).
//!
//! Checks: no panic; the referee gives one report per record; every diagnostic's span lies
//! inside the input; a record written again is replayed as the same game with the same rules
//! diagnostics (the same messages too where the input is UTF-8).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::{GameRecord, Reader, RecordBuilder};
use referee::{BoardAt, GameReport, Referee, Rewrite, Settings};

fn settings(data: u8) -> Settings {
    let registry = games::games().registry().games();
    let game = match data {
        0 => None,
        k => Some(registry[usize::from(k - 1) % registry.len()]),
    };
    Settings {
        game,
        collect_facts: true,
        rewrite: Some(Rewrite::default()),
        snapshots: true,
        board_at: Some(BoardAt::End),
        details: true,
        keep_tags: true,
        ..Settings::default()
    }
}

fn replay(bytes: &[u8], settings: &Settings) -> Vec<GameReport> {
    let mut referee = Referee::new(games::games(), settings.clone());
    let mut reader = Reader::new(bytes);
    let mut reports = Vec::new();
    while let Some(report) = reader.read_game(&mut referee).expect("a slice cannot fail") {
        reports.push(report);
    }
    reports
}

fn records(bytes: &[u8]) -> Vec<GameRecord> {
    let mut reader = Reader::new(bytes);
    let mut builder = RecordBuilder::new();
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut builder).expect("a slice cannot fail") {
        out.push(g);
    }
    out
}

/// What the rules said about a game, without places; with the messages when `words` (text
/// that is not UTF-8 is decoded by guessing its encoding, piece by piece in a message and for
/// the whole record in the writer, so only the codes must agree).
/// The game and the rules diagnostics, in a fixed order: the same findings may be reported
/// in another order once written (a note about the game's identification comes when the game
/// is decided, which may be before or after a bad position string is found). The writer ends
/// every game with a result token, `*` where the record had none (fuzz/README.md), so a
/// message about "no result" reads as one about `*`.
fn verdict(r: &GameReport, words: bool) -> (Option<&'static str>, Vec<(String, String)>) {
    let mut rules: Vec<(String, String)> = r
        .diagnostics
        .iter()
        .filter(|d| d.code.rules().is_some())
        .map(|d| {
            let message = if words {
                d.message
                    .replace("the record gives no result", "the record gives `*`")
            } else {
                String::new()
            };
            (d.code.to_string(), message)
        })
        .collect();
    rules.sort();
    (r.game.map(|g| g.id), rules)
}

/// Whether a written record must replay to the same findings as the record read: yes, unless
/// `ARBITER_FUZZ_ROUNDTRIP=0` (to hunt panics alone); panics and bad spans fail the run
/// either way.
fn roundtrip_checked() -> bool {
    static CHECKED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CHECKED.get_or_init(|| std::env::var_os("ARBITER_FUZZ_ROUNDTRIP").is_none_or(|v| v != "0"))
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, text)) = data.split_first() else {
        return;
    };
    let settings = settings(choice);
    let reports = replay(text, &settings);
    let records = records(text);
    let utf8 = std::str::from_utf8(text).is_ok();
    assert_eq!(reports.len(), records.len(), "one report per record");
    for (report, record) in reports.iter().zip(&records) {
        for d in &report.diagnostics {
            assert!(d.span.start <= d.span.end && d.span.end <= text.len() as u64);
        }
        if record.has_errors() || record.is_empty() {
            continue;
        }
        let written = record.to_pdn();
        let again = replay(written.as_bytes(), &settings);
        assert_eq!(again.len(), 1, "{written}");
        if !roundtrip_checked() {
            continue;
        }
        assert_eq!(
            verdict(&again[0], utf8),
            verdict(report, utf8),
            "the written record is replayed differently:\n{written}"
        );
    }
});
