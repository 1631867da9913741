//! Corrupted king captures: a flying king that stops on a landing square from which it cannot
//! capture on, while another landing square of the same jump would let it go on, takes fewer
//! pieces than the rules demand. Every such token must be diagnosed as `non-maximal-capture`
//! with the count and an allowed chain, in every flying-king variant, whether the record is a
//! real game (the shared archives) or a random one; genuinely impossible king moves stay
//! `illegal-move`.

use std::path::Path;

use draughts::{
    for_each_chain_free_landing, for_each_chain_from, Draughts, Move, Position, Variant, VARIANTS,
};
use game::{Code, Game};
use pdn::Node;

/// What became of the corrupted tokens of one sample.
#[derive(Default, Debug)]
struct Tally {
    corrupted: usize,
    diagnosed: usize,
    wrong: Vec<String>,
    /// Corrupted tokens per variant label.
    per_variant: std::collections::BTreeMap<&'static str, usize>,
}

/// The chains of the piece that plays `mv` that stop early (free landing) and that the rules
/// never generate, the ones taking a prefix of `mv`'s pieces first.
fn stopped_early(d: &Draughts, pos: &Position, mv: &Move) -> Vec<Move> {
    let mut complete = Vec::new();
    for_each_chain_from(d.geometry, &d.rules, pos, mv.from(), &mut |m| {
        complete.push(*m)
    });
    let mut early = Vec::new();
    for_each_chain_free_landing(d.geometry, &d.rules, pos, mv.from(), &mut |m| {
        if !complete.iter().any(|c| c.path() == m.path()) {
            early.push(*m);
        }
    });
    early.sort_by_key(|m| !mv.taken().starts_with(m.taken()));
    early
}

/// Writes `early` as a record would (short form, unless a chain the rules generate starts and
/// lands on the same squares: then the short form names that one), resolves it and checks the
/// diagnosis.
fn check(d: &Draughts, pos: &Position, early: &Move, numeric: bool, where_: &str, t: &mut Tally) {
    let mut same_ends = false;
    for_each_chain_from(d.geometry, &d.rules, pos, early.from(), &mut |m| {
        same_ends |= m.path().contains(&early.to());
    });
    let token = d.path_text(early, numeric, same_ends);
    t.corrupted += 1;
    let label = d.variant.label;
    *t.per_variant.entry(label).or_default() += 1;
    let problem = match d.resolve(pos, &[token.as_bytes()]) {
        Ok(m) => {
            t.wrong
                .push(format!("{label} {where_}: {token} accepted as {m:?}"));
            return;
        }
        Err(p) => p,
    };
    if problem.code != Code::NonMaximalCapture {
        t.wrong.push(format!(
            "{label} {where_}: {token}: {} {}",
            problem.code, problem.message
        ));
        return;
    }
    // The message counts the pieces taken and shows a chain the rules allow.
    let taken = early.capture_count();
    let counted = if taken == 1 {
        "1 piece".to_string()
    } else {
        format!("{taken} pieces")
    };
    let example = problem
        .message
        .rsplit("e.g. ")
        .next()
        .unwrap_or_default()
        .trim();
    let allowed = d.resolve(pos, &[example.as_bytes()]);
    if !problem.message.contains(&counted) || allowed.is_err() {
        t.wrong.push(format!(
            "{label} {where_}: {token}: {} (example {example:?}: {allowed:?})",
            problem.message
        ));
        return;
    }
    t.diagnosed += 1;
}

/// The variants whose kings fly and choose their landing square.
fn flying(v: &Variant) -> bool {
    v.king == draughts::KingRange::Flying
}

/// One corrupted game per real game: its first king capture that could have stopped early.
fn corrupt_real_games(t: &mut Tally) -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/real");
    if !root.is_dir() {
        eprintln!("skipping the real archives: {} is absent", root.display());
        return false;
    }
    for (dir, v) in [
        ("international", &draughts::INTERNATIONAL),
        ("brazilian", &draughts::BRAZILIAN),
        ("russian", &draughts::RUSSIAN),
        ("frisian", &draughts::FRISIAN),
        ("frysk", &draughts::FRYSK),
        ("antidraughts", &draughts::ANTIDRAUGHTS),
    ] {
        let d = Draughts::new(v);
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).expect("readable");
            for (i, rec) in pdn::read_all(&bytes).iter().enumerate() {
                let where_ = format!("{} game {}", f.display(), i + 1);
                corrupt_record(&d, rec, &where_, t);
            }
        }
    }
    true
}

fn corrupt_record(d: &Draughts, rec: &pdn::GameRecord, where_: &str, t: &mut Tally) {
    let mut pos = match rec.tag("FEN").filter(|f| !f.trim().is_empty()) {
        Some(f) => match d.parse_position(f) {
            Ok(p) => p,
            Err(_) => return,
        },
        None => d.start(),
    };
    for node in &rec.movetext {
        let Node::Move(m) = node else { continue };
        let Ok(mv) = d.resolve(&pos, &[m.token.as_bytes()]) else {
            return;
        };
        if mv.is_capture() {
            if let Some(early) = stopped_early(d, &pos, &mv).first() {
                let numeric = m
                    .token
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit());
                check(d, &pos, early, numeric, where_, t);
                return;
            }
        }
        d.play(&mut pos, &mv);
    }
}

/// Random games of every flying-king variant: every capture that could stop early.
fn corrupt_random_games(t: &mut Tally) {
    let mut seed = 0x5851_f42d_4c95_7f2du64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for &v in VARIANTS.iter().filter(|v| flying(v)) {
        let d = Draughts::new(v);
        let numeric = d.variant.notation == draughts::SquareStyle::Numeric;
        for game in 0..40 {
            let mut pos = d.start();
            for ply in 0..200 {
                let moves = d.legal_moves(&pos);
                if d.terminal(&pos).is_some() {
                    break;
                }
                if moves.is_empty() {
                    break;
                }
                for mv in moves.iter().filter(|m| m.is_capture()) {
                    if let Some(early) = stopped_early(&d, &pos, mv).first() {
                        let where_ = format!("random game {game} ply {ply}");
                        check(&d, &pos, early, numeric, &where_, t);
                    }
                }
                let mv = moves[next(moves.len())];
                d.play(&mut pos, &mv);
            }
        }
    }
}

fn report(name: &str, t: &Tally) {
    eprintln!(
        "{name}: {} corrupted king captures, {} diagnosed non-maximal with count and example",
        t.corrupted, t.diagnosed
    );
    eprintln!("  per variant: {:?}", t.per_variant);
    for w in t.wrong.iter().take(30) {
        eprintln!("  {w}");
    }
}

#[test]
fn corrupted_real_games_are_non_maximal_captures_in_shared() {
    let mut t = Tally::default();
    if !corrupt_real_games(&mut t) {
        return;
    }
    report("real games", &t);
    assert!(t.corrupted >= 20, "only {} corrupted games", t.corrupted);
    assert!(t.wrong.is_empty(), "{} misdiagnosed", t.wrong.len());
}

#[test]
fn corrupted_random_games_are_non_maximal_captures() {
    let mut t = Tally::default();
    corrupt_random_games(&mut t);
    report("random games", &t);
    // Breakthrough ends when a king is crowned: its kings never capture.
    let kings_play = |v: &&&Variant| v.win != draughts::WinRule::FirstKingWins;
    for v in VARIANTS.iter().filter(|v| flying(v)).filter(kings_play) {
        let n = t.per_variant.get(v.label).copied().unwrap_or(0);
        assert!(n >= 5, "only {n} corrupted captures in {}", v.label);
    }
    assert!(t.wrong.is_empty(), "{} misdiagnosed", t.wrong.len());
}
