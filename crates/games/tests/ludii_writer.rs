//! The Tama trial writer: against Ludii's own files, and PDN → trl → PDN on the shipped corpus.

mod common;

use game::{Game, Outcome};
use ludii::{read_trial, RecordView, TrialFormat};
use tama::{Position, Tama};

fn to_pdn(trial: &ludii::Trial) -> Result<ludii::Converted, ludii::ConvertError> {
    games::games().read_trial(trial)
}

/// The Tama converter's trial of a record.
fn from_pdn_tama(rec: &pdn::GameRecord) -> Result<String, ludii::WriteError> {
    tama::LUDII.write(&RecordView::from_pdn(rec))
}

/// The class of a trial line: its key, and for `Move=` lines whether it names from/to and the
/// kinds of its actions in order (`Remove Move SetNextPlayer`).
fn class(line: &str) -> String {
    let Some(value) = line.strip_prefix("Move=") else {
        return line.split('=').next().unwrap_or(line).to_string();
    };
    let head = value.split("actions=").next().unwrap();
    let kinds: Vec<&str> = value
        .split("actions=")
        .nth(1)
        .unwrap()
        .split('[')
        .filter_map(|a| a.split(':').next())
        .filter(|k| !k.is_empty())
        .collect();
    format!("Move from={} {}", head.contains("from="), kinds.join(" "))
}

#[test]
fn written_trials_match_ludii_files_line_by_line_in_shared() {
    for path in common::trials("tama_") {
        let text = std::fs::read_to_string(&path).unwrap();
        let trial = read_trial(text.as_bytes()).unwrap();
        let c = to_pdn(&trial).unwrap();
        let rec = &pdn::read_all(c.pdn.as_bytes())[0];
        let written = from_pdn_tama(rec).unwrap();
        let mut ours: Vec<&str> = written.lines().collect();
        let theirs: Vec<&str> = text.lines().collect();
        if trial.options.is_empty() {
            // Ludii's default ruleset (empty block) is written by name.
            assert_eq!(ours[2], "Variant/Schmidt");
            ours.remove(2);
        }
        let classes = |v: &[&str]| -> Vec<String> { v.iter().map(|l| class(l)).collect() };
        assert_eq!(classes(&ours), classes(&theirs), "{}", path.display());
        for (a, b) in ours.iter().zip(&theirs) {
            if !b.starts_with("game=") && !b.starts_with("RNG internal state=") {
                // Every move line and every trailing line is exactly what Ludii wrote.
                assert_eq!(a, b, "{}", path.display());
            }
        }
    }
}

/// The resolved main line and the result of a record, under `rules`.
fn resolved(rec: &pdn::GameRecord, rules: Tama) -> (Vec<String>, Outcome) {
    let mut pos = match rec.tag("FEN") {
        Some(f) => rules.parse_position(f).unwrap(),
        None => Position::start(),
    };
    let mut paths = Vec::new();
    for n in &rec.movetext {
        if let pdn::Node::Move(m) = n {
            let mv = rules.resolve(&pos, &[m.token.as_bytes()]).unwrap();
            paths.push(mv.full_path());
            rules.play(&mut pos, &mv);
        }
    }
    let outcome = rec
        .result
        .as_ref()
        .and_then(|r| rules.parse_result(&r.token))
        .unwrap_or(Outcome::Unfinished);
    (paths, outcome)
}

#[test]
fn pdn_to_trial_to_pdn_is_the_identity_on_the_tama_corpus() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/tama");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
        .collect();
    files.sort();
    let (mut games, mut refused, mut plies) = (0, 0, 0);
    for f in files {
        for rec in pdn::read_all(&std::fs::read(&f).unwrap()) {
            let rules = Tama::with_options(rec.tag("Rules").unwrap_or("")).unwrap();
            let (paths, outcome) = resolved(&rec, rules);
            let trl = match from_pdn_tama(&rec) {
                Ok(t) => t,
                Err(ludii::WriteError::Move { message, .. }) => {
                    // Only the default rule 12 differs from Ludii's Wikipedia ruleset.
                    assert!(!rules.ludii && message.contains("Wikipedia"), "{message}");
                    refused += 1;
                    continue;
                }
                Err(e) => panic!("{}: {e}", f.display()),
            };
            let back = to_pdn(&read_trial(trl.as_bytes()).unwrap()).unwrap();
            let rec2 = &pdn::read_all(back.pdn.as_bytes())[0];
            let rules2 = Tama::with_options(rec2.tag("Rules").unwrap()).unwrap();
            let (paths2, outcome2) = resolved(rec2, rules2);
            assert_eq!(paths, paths2, "{}", f.display());
            assert_eq!(outcome, outcome2, "{}", f.display());
            games += 1;
            plies += paths.len();
        }
    }
    eprintln!("round trip: {games} games, {plies} plies; {refused} refused (default rule 12)");
    assert!(games >= 300, "{games}");
    assert!(refused * 20 < games, "{refused} of {games}");
}

#[test]
fn writer_refuses_what_ludii_cannot_load() {
    let rec = &pdn::read_all(b"[Variant \"Thaayam\"] S [3] *")[0];
    assert!(matches!(
        from_pdn_tama(rec),
        Err(ludii::WriteError::OtherGame { .. })
    ));
    let rec = &pdn::read_all(b"[Variant \"Tama\"] [FEN \"B:Wa2:Ba7\"] 1... a7-a6 *")[0];
    let e = from_pdn_tama(rec).unwrap_err();
    assert!(
        matches!(e, ludii::WriteError::Start(_)) && e.to_string().contains("White"),
        "{e}"
    );
    let rec = &pdn::read_all(b"[Rules \"odd\"] 1. c3-c4 *")[0];
    assert!(matches!(
        from_pdn_tama(rec),
        Err(ludii::WriteError::Rules { .. })
    ));
    // Thaayam's trials are read, not written.
    let rec = &pdn::read_all(b"[Variant \"Thaayam\"] S [3] *")[0];
    let e = thaayam::LUDII
        .write(&RecordView::from_pdn(rec))
        .unwrap_err();
    assert_eq!(e, ludii::WriteError::Unsupported("Thaayam"));
    let rec = &pdn::read_all(b"1. c3-c5 *")[0];
    assert!(matches!(
        from_pdn_tama(rec),
        Err(ludii::WriteError::Move { ply: 1, .. })
    ));
    // Mid-capture promotion that goes on as a king: the default rules only.
    let rec = &pdn::read_all(b"[FEN \"W:Wc6,a1:Bc7,e8,a5\"] 1. c6xc8xf8 *")[0];
    let err = from_pdn_tama(rec).unwrap_err();
    assert!(err.to_string().contains("Wikipedia"), "{err}");
}
