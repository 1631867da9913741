//! Replays PDN records with the rules crates directly (no referee): the independent check of
//! what the generator writes and of what the defect files contain.

#![allow(dead_code)]

use game::{Code, Game, Outcome};
use pdn::{GameRecord, Node, Severity};

/// The first problem found in a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// A rules code (`illegal-move`, …) or a reader problem kind (`unterminated-comment`, …).
    pub code: String,
    /// 1-based ply of the move concerned, for move problems.
    pub ply: Option<u32>,
    /// What was wrong, for failure messages.
    pub message: String,
}

/// What a clean replay found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    /// Plies played.
    pub plies: u32,
    /// The recorded result (token, else tag).
    pub recorded: Option<Outcome>,
    /// The rules' result at the end, if the game is over.
    pub terminal: Option<Outcome>,
    /// Each ply as written, with the move number written before it (if any).
    pub plies_written: Vec<(Option<u32>, Vec<String>)>,
}

/// The registry's self-play of the game with this id.
pub fn player(id: &str) -> &'static dyn selfplay::Player {
    let games = games::games();
    let info = games
        .registry()
        .by_name(id)
        .unwrap_or_else(|| panic!("{id} is not in the registry"));
    games.entry(info).expect("an entry").player()
}

/// Which rules a record uses, from its `Variant` tag.
pub fn variant(rec: &GameRecord) -> Option<&'static str> {
    match rec.tag("Variant")?.trim().to_ascii_lowercase().as_str() {
        "tama" | "armenian" | "armenian draughts" => Some("tama"),
        "odnocvetnie" | "odnocvetnie shashki" | "monochrome" => Some("odnocvetnie"),
        "thaayam" => Some("thaayam"),
        _ => None,
    }
}

/// Replays `rec`: the reader's first error, else the first rules problem, else the replay.
pub fn check(rec: &GameRecord) -> Result<Replayed, Finding> {
    if let Some(p) = rec.problems.iter().find(|p| p.severity == Severity::Error) {
        return Err(Finding {
            code: p.kind.to_string(),
            ply: None,
            message: p.message.clone(),
        });
    }
    match variant(rec) {
        Some("tama") => replay(&tama::Tama::default(), rec),
        Some("odnocvetnie") => replay(&odnocvetnie::Odnocvetnie::default(), rec),
        Some("thaayam") => replay(&thaayam::Thaayam::default(), rec),
        _ => match rec.tag("Variant").and_then(draughts::Variant::by_tag) {
            Some(v) => replay(&draughts::Draughts::new(v), rec),
            None => Err(Finding {
                code: Code::UnknownGame.as_str().to_string(),
                ply: None,
                message: format!("Variant {:?}", rec.tag("Variant")),
            }),
        },
    }
}

/// The rules replay alone, whatever the reader found.
pub fn check_rules(rec: &GameRecord) -> Result<Replayed, Finding> {
    let mut clean = rec.clone();
    clean.problems.clear();
    check(&clean)
}

/// Like [`check`], also reporting the reader's warnings (e.g. `stray-text`) as findings.
pub fn check_strict(rec: &GameRecord) -> Result<Replayed, Finding> {
    if let Some(p) = rec.problems.first() {
        return Err(Finding {
            code: p.kind.to_string(),
            ply: None,
            message: p.message.clone(),
        });
    }
    check(rec)
}

fn finding(problem: game::Problem, ply: Option<u32>) -> Finding {
    Finding {
        code: problem.code.as_str().to_string(),
        ply,
        message: problem.message,
    }
}

fn replay<G: Game>(game: &G, rec: &GameRecord) -> Result<Replayed, Finding> {
    let tag = |name: &str| rec.tag(name).map(str::to_string);
    let mut pos = match rec.tag("FEN") {
        Some(fen) => game.parse_position(fen),
        None => game.start_position(&tag),
    }
    .map_err(|p| {
        let code = if p.code == Code::BadTag {
            Code::BadTag
        } else {
            Code::BadFen
        };
        finding(game::Problem::new(code, p.message), None)
    })?;
    // Group the movetext into plies.
    let mut plies: Vec<(Option<u32>, Vec<String>)> = Vec::new();
    let mut number = None;
    for node in &rec.movetext {
        match node {
            Node::MoveNumber(m) => number = Some(m.number),
            Node::Move(m) => {
                if plies.is_empty() || game.starts_ply(m.token.as_bytes()) {
                    plies.push((number.take(), Vec::new()));
                }
                if let Some(p) = plies.last_mut() {
                    p.1.push(m.token.clone());
                }
            }
            Node::Setup(s) => {
                if !plies.is_empty() {
                    panic!("setup commands are only handled before the first move");
                }
                pos = game
                    .parse_position(&s.fen)
                    .map_err(|p| finding(game::Problem::new(Code::BadFen, p.message), None))?;
            }
            Node::Comment(_) | Node::Annotation(_) => {}
            Node::Variation(_) => panic!("variations are not expected here"),
        }
    }
    for (i, (_, tokens)) in plies.iter().enumerate() {
        let ply = Some(i as u32 + 1);
        let raw: Vec<&[u8]> = tokens.iter().map(|t| t.as_bytes()).collect();
        match game.resolve(&pos, &raw) {
            Ok(mv) => game.play(&mut pos, &mv),
            Err(problem) => {
                if game.terminal(&pos).is_some() {
                    return Err(Finding {
                        code: Code::ResultMismatch.as_str().to_string(),
                        ply,
                        message: format!("move after the end: {}", problem.message),
                    });
                }
                return Err(finding(problem, ply));
            }
        }
    }
    let mismatch = |message: String| Finding {
        code: Code::ResultMismatch.as_str().to_string(),
        ply: None,
        message,
    };
    let token = match &rec.result {
        Some(r) => Some(
            game.parse_result(&r.token)
                .ok_or_else(|| mismatch(format!("{} is not a result", r.token)))?,
        ),
        None => None,
    };
    let tag_result = match rec.tag("Result").filter(|t| !t.is_empty() && *t != "?") {
        Some(t) => Some(
            game.parse_result(t)
                .ok_or_else(|| mismatch(format!("Result tag {t} is not a result")))?,
        ),
        None => None,
    };
    if let (Some(a), Some(b)) = (token, tag_result) {
        if !a.agrees_with(b) {
            return Err(mismatch(format!("tag {b:?} against token {a:?}")));
        }
    }
    let recorded = token.or(tag_result);
    let terminal = game.terminal(&pos);
    if let Some(t) = terminal {
        if !recorded.is_some_and(|r| r.agrees_with(t)) {
            return Err(mismatch(format!(
                "the rules give {t:?}, the record {recorded:?}"
            )));
        }
    }
    Ok(Replayed {
        plies: plies.len() as u32,
        recorded,
        terminal,
        plies_written: plies,
    })
}
