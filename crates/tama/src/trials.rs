//! Tama's Ludii trials, to PDN and back ([`LUDII`], the converter the registry entry
//! declares).
//!
//! Ludii numbers Tama's squares `row * 8 + col` (0 = a1, 63 = h8), which is the `tama`
//! crate's square index. Player 1 is White, player 2 Black. Pieces: `what=1` white man,
//! `2` black man, `3` white king, `4` black king.

use std::fmt::Write as _;

use game::{Game, Outcome, Seat};
use ludii::{
    bad_move as bad, recorded_winner, turns, ConvertError, Converted, LudiiMove, PdnText,
    RecordView, Trial, TrialFormat, WriteError,
};

use crate::{Kind, Move, Position, Side, Square, Tama};

/// Tama's trials: read (both Ludii rulesets) and written.
#[derive(Debug, Clone, Copy, Default)]
pub struct TamaTrials;

/// The converter of Tama's Ludii trials, for the registry entry.
pub static LUDII: TamaTrials = TamaTrials;

impl TrialFormat for TamaTrials {
    fn ludii_names(&self) -> &'static [&'static str] {
        &["Tama"]
    }

    fn read(&self, trial: &Trial) -> Result<Converted, ConvertError> {
        to_pdn(trial)
    }

    fn write(&self, record: &RecordView) -> Result<String, WriteError> {
        from_record(record)
    }
}

/// The `game=` line written for Tama trials.
pub const TAMA_GAME: &str = "/lud/board/war/leaping/orthogonal/Tama.lud";
/// The RNG state written into trials (Tama uses no chance; Ludii wants the line).
const RNG_STATE: &str = "-111,-3,52,1,0,0,0,0";
/// The Ludii version the trials are written for.
const LUDII_VERSION: &str = "1.3.13";

/// The arbiter ruleset named by a Tama option block.
fn rules_of(options: &[String]) -> Result<&'static str, ConvertError> {
    let mut rules = "schmidt"; // Ludii's default ruleset for Tama
    for o in options {
        match o.as_str() {
            "Variant/Wikipedia" => rules = "ludii",
            "Variant/Schmidt" => rules = "schmidt",
            other => {
                return Err(ConvertError::UnsupportedOption {
                    option: other.to_string(),
                    known: "Variant/Wikipedia, Variant/Schmidt".to_string(),
                })
            }
        }
    }
    Ok(rules)
}

fn square(m: &LudiiMove, site: Option<u32>) -> Result<Square, ConvertError> {
    site.and_then(|s| u8::try_from(s).ok())
        .and_then(Square::new)
        .ok_or_else(|| bad(m, format!("site {site:?} is not a square of the 8x8 board")))
}

/// The position the placement moves set up, and the side to move.
fn placed_position(trial: &Trial) -> Result<Position, ConvertError> {
    let mut boards = [0u64; 4]; // white men, white kings, black men, black kings
    for m in trial.setup_moves() {
        for a in m.actions_of("Add") {
            let to = square(m, a.num("to").and_then(|v| u32::try_from(v).ok()))?;
            let slot = match a.num("what") {
                Some(1) => 0,
                Some(3) => 1,
                Some(2) => 2,
                Some(4) => 3,
                w => return Err(bad(m, format!("unknown Tama piece what={w:?}"))),
            };
            boards[slot] |= to.bit();
        }
    }
    let side = match trial.play_moves().first().map(|m| m.mover) {
        Some(2) => Side::Black,
        _ => Side::White,
    };
    Position::from_bitboards(boards[0], boards[1], boards[2], boards[3], side).map_err(|e| {
        let m = trial.setup_moves().last().or(trial.moves.first());
        match m {
            Some(m) => bad(
                m,
                format!("the placement moves set up no legal position: {e}"),
            ),
            None => ConvertError::BadMove {
                line: 0,
                number: 0,
                message: e.to_string(),
            },
        }
    })
}

/// One Tama turn as a move token: `from-to` for a single move without a capture, otherwise
/// `from` and every landing square joined by `x`.
fn turn_token(turn: &[LudiiMove]) -> Result<String, ConvertError> {
    let first = &turn[0];
    let from = square(first, first.from)?;
    let capture = turn.len() > 1 || first.actions_of("Remove").next().is_some();
    let mut tok = from.to_string();
    for m in turn {
        let to = square(m, m.to)?;
        tok.push(if capture { 'x' } else { '-' });
        tok.push_str(&to.to_string());
    }
    Ok(tok)
}

fn to_pdn(trial: &Trial) -> Result<Converted, ConvertError> {
    let rules = rules_of(&trial.options)?;
    let start = placed_position(trial)?;
    let mut text = PdnText::new();
    text.tag("Variant", "Tama");
    text.tag("Rules", rules);
    text.tag("Source", &trial.game);
    if let Some(v) = &trial.version {
        text.tag("LudiiVersion", v);
    }
    if start != Position::start() {
        text.tag("SetUp", "1");
        text.tag("FEN", &start.to_fen());
    }
    let result = match recorded_winner(trial) {
        Some(1) => "1-0",
        Some(2) => "0-1",
        Some(0) => "1/2-1/2",
        _ => "*",
    };
    text.tag("Result", result);
    text.begin_movetext();
    let mut white = start.side_to_move() == Side::White;
    let mut number = 1;
    for (i, turn) in turns(trial.play_moves()).into_iter().enumerate() {
        let tok = turn_token(turn)?;
        if white {
            let n = format!("{number}.");
            text.room(n.len() + 1 + tok.len());
            text.token(&n);
        } else if i == 0 {
            let n = format!("{number}...");
            text.room(n.len() + 1 + tok.len());
            text.token(&n);
        }
        text.mapped(&tok, turn[0].line, turn[0].number);
        if !white {
            number += 1;
        }
        white = !white;
    }
    Ok(text.finish(result))
}

/// Writes the trial text of an arbiter Tama record (the main line; variations and comments
/// are dropped; a record without a `Variant` tag is taken as Tama). The option block follows the record's rules: `ludii` and the default rules
/// → `Variant/Wikipedia` (Ludii has no ruleset with the default mid-capture promotion, so
/// every move must also be legal under `ludii`), `schmidt` → `Variant/Schmidt`.
fn from_record(record: &RecordView) -> Result<String, WriteError> {
    if let Some(v) = record.tag("Variant") {
        if !crate::INFO.answers_to(v) {
            return Err(WriteError::OtherGame {
                game: "Tama",
                found: v.trim().to_string(),
            });
        }
    }
    let rules_tag = record.tag("Rules").unwrap_or("");
    let rules = Tama::with_options(rules_tag).map_err(|_| WriteError::Rules {
        rules: rules_tag.to_string(),
        known: "Tama: ludii, schmidt, or none",
    })?;
    let mut pos = match record.tag("FEN") {
        Some(fen) => rules
            .parse_position(fen)
            .map_err(|p| WriteError::Start(format!("the FEN tag cannot be read: {}", p.message)))?,
        None => Position::start(),
    };
    let start = pos;
    let mut moves = Vec::new();
    for (i, token) in record.moves.iter().enumerate() {
        let mv = rules
            .resolve(&pos, &[token.as_bytes()])
            .map_err(|p| WriteError::Move {
                ply: i + 1,
                token: token.to_string(),
                message: p.message,
            })?;
        rules.play(&mut pos, &mv);
        moves.push(mv);
    }
    let outcome = record
        .result()
        .and_then(|r| rules.parse_result(r))
        .unwrap_or(Outcome::Unfinished);
    write_tama_trial(&start, &moves, rules, outcome)
}

/// Writes a trial for `moves` (legal under `rules`, played in order from `start`), with
/// `outcome` as its result lines. See [`TamaTrials::write`] for the option block.
pub fn write_tama_trial(
    start: &Position,
    moves: &[Move],
    rules: Tama,
    outcome: Outcome,
) -> Result<String, WriteError> {
    if start.side_to_move() != Side::White {
        return Err(WriteError::Start(
            "Ludii's Tama always starts with White to move; the record starts with Black"
                .to_string(),
        ));
    }
    let ludii_rules = if rules.schmidt {
        Tama::SCHMIDT
    } else {
        Tama::LUDII
    };
    let mut out = String::new();
    out.push_str(&format!("game={TAMA_GAME}\nSTART GAME OPTIONS\n"));
    out.push_str(if rules.schmidt {
        "Variant/Schmidt\n"
    } else {
        "Variant/Wikipedia\n"
    });
    out.push_str(&format!(
        "END GAME OPTIONS\nRNG internal state={RNG_STATE}\n"
    ));
    let placed = write_placement(&mut out, start);
    let mut pos = *start;
    for (i, mv) in moves.iter().enumerate() {
        if !rules.ludii && rules != ludii_rules {
            // The default rules: the move must also be one Ludii's ruleset allows.
            ludii_rules
                .resolve(&pos, &[mv.full_path().as_bytes()])
                .map_err(|p| WriteError::Move {
                    ply: i + 1,
                    token: mv.full_path(),
                    message: format!("Ludii's Wikipedia ruleset does not allow it: {}", p.message),
                })?;
        }
        let mover = pos.side_to_move().index() + 1;
        write_move(&mut out, mv, mover);
        pos.play(mv);
    }
    let _ = writeln!(out, "numInitialPlacementMoves={placed}");
    match outcome {
        Outcome::Win {
            winner: Seat(w), ..
        } => {
            let w = usize::from(w) + 1;
            let (r1, r2) = if w == 1 { (1.0, 2.0) } else { (2.0, 1.0) };
            let _ = writeln!(
                out,
                "winner={w}\nendtype=NaturalEnd\nrankings=0.0,{r1:.1},{r2:.1}"
            );
        }
        Outcome::Draw => out.push_str("winner=0\nendtype=MoveLimit\nrankings=0.0,1.5,1.5\n"),
        Outcome::Unfinished => out.push_str("rankings=0.0,0.0,0.0\n"),
    }
    let _ = writeln!(out, "SANDBOX=false\nLUDII_VERSION={LUDII_VERSION}");
    Ok(out)
}

/// One `Add` move per piece, in square order; returns how many.
fn write_placement(out: &mut String, pos: &Position) -> usize {
    let mut n = 0;
    for i in 0..64u8 {
        let sq = Square::new(i).expect("0..64 is on the board");
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let what = match (piece.side, piece.kind) {
            (Side::White, Kind::Man) => 1,
            (Side::Black, Kind::Man) => 2,
            (Side::White, Kind::King) => 3,
            (Side::Black, Kind::King) => 4,
        };
        let _ = writeln!(
            out,
            "Move=[Move:mover=0,from={i},to={i},actions=[Add:type=Cell,to={i},what={what}]]"
        );
        n += 1;
    }
    n
}

/// One `Move=` line per step or jump, as Ludii writes them: the captured piece's `Remove`
/// before the `Move`, `SetNextPlayer` naming the mover on every jump but the last, `Promote`
/// on the last.
fn write_move(out: &mut String, mv: &Move, mover: usize) {
    let king = if mover == 1 { 3 } else { 4 };
    let mut from = mv.from().index();
    let jumps = mv.path().len();
    for (j, to) in mv.path().iter().enumerate() {
        let to = to.index();
        let _ = write!(out, "Move=[Move:mover={mover},from={from},to={to},actions=");
        if let Some(victim) = mv.captured().get(j) {
            let _ = write!(out, "[Remove:type=Cell,to={}],", victim.index());
        }
        let _ = write!(
            out,
            "[Move:typeFrom=Cell,from={from},typeTo=Cell,to={to},decision=true]"
        );
        if j + 1 < jumps {
            let _ = write!(out, ",[SetNextPlayer:player={mover}]");
        } else if mv.is_promotion() {
            let _ = write!(out, ",[Promote:type=Cell,to={to},what={king}]");
        }
        out.push_str("]\n");
        from = to;
    }
}
