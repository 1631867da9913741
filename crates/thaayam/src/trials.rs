//! Thaayam's Ludii trials to PDN ([`LUDII`], the converter the registry entry declares).
//!
//! Ludii's Thaayam board: sites `row * 5 + col` (0 = a1, 12 = c3, the keep), 25–28 the hands
//! of players 1–4, 29–32 the four cowrie dice. Players 1–4 are South, East, North and West
//! (they enter on c1, e3, c5 and a3), which is also Ludii's turn order.
//!
//! A Ludii turn is a run of `Move=` lines by one player, each but the last handing the turn
//! back to it. Throw lines set the four dice (a throw is the number of dice showing 1, 8 when
//! none); move lines name the throw they use (`ForgetValue`); a move from a hand site enters
//! a piece; a move from the board to a hand (with `Remove`) bears a piece off — from the keep
//! as the rules say, or from elsewhere where Ludii allows it: written `off` all the same, with
//! a comment naming the square, so that validation reports that one move and the game is
//! read; a `Pass` that forgets values loses those throws.

use ludii::{
    bad_move as bad, recorded_winner, turns, ConvertError, Converted, LudiiMove, PdnText, Trial,
    TrialFormat,
};

/// Thaayam's trials: read (Ludii plays the four-seat game only).
#[derive(Debug, Clone, Copy, Default)]
pub struct ThaayamTrials;

/// The converter of Thaayam's Ludii trials, for the registry entry.
pub static LUDII: ThaayamTrials = ThaayamTrials;

impl TrialFormat for ThaayamTrials {
    fn ludii_names(&self) -> &'static [&'static str] {
        &["Thaayam"]
    }

    fn read(&self, trial: &Trial) -> Result<Converted, ConvertError> {
        to_pdn(trial)
    }
}

/// Seat letters of Ludii's players 1–4.
const SEATS: [char; 4] = ['S', 'E', 'N', 'W'];
/// The keep.
const KEEP: u32 = 12;
/// The first hand site (player 1's); dice follow the hands.
const HANDS: u32 = 25;
const DICE: u32 = 29;

fn seat(m: &LudiiMove) -> Result<char, ConvertError> {
    SEATS
        .get(usize::from(m.mover).wrapping_sub(1))
        .copied()
        .ok_or_else(|| bad(m, format!("Thaayam has players 1 to 4, not {}", m.mover)))
}

fn square_name(site: u32) -> String {
    let file = (b'a' + (site % 5) as u8) as char;
    format!("{file}{}", site / 5 + 1)
}

/// The throw a dice line shows, if it is one.
fn throw_of(m: &LudiiMove) -> Option<u8> {
    let dice: Vec<_> = m.actions_of("SetStateAndUpdateDice").collect();
    if dice.is_empty() {
        return None;
    }
    let up = dice.iter().filter(|a| a.num("state") == Some(1)).count() as u8;
    Some(if up == 0 { 8 } else { up })
}

/// The values a line forgets (`ForgetValue`), in order.
fn forgotten(m: &LudiiMove) -> Vec<i64> {
    m.actions_of("ForgetValue")
        .filter_map(|a| a.num("value"))
        .collect()
}

/// The palace sites of players 1–4 (c1, e3, c5, a3), where their pieces enter.
const PALACES: [u32; 4] = [2, 14, 22, 10];

/// One action written for a piece move: its token, and a comment to write before it.
struct Written {
    token: String,
    note: Option<String>,
}

impl From<String> for Written {
    fn from(token: String) -> Self {
        Written { token, note: None }
    }
}

/// The action token of a piece move.
fn move_token(m: &LudiiMove, from: u32, to: u32) -> Result<Written, ConvertError> {
    let values = forgotten(m);
    if (HANDS..DICE).contains(&from) {
        // `in` names no squares: refuse what it would hide.
        let p = usize::from(m.mover) - 1;
        if from != HANDS + p as u32 || to != PALACES[p] {
            return Err(bad(
                m,
                format!(
                    "player {} moves a piece from site {from} to site {to}; a piece enters from \
                     its own hand (site {}) onto its palace {}",
                    m.mover,
                    HANDS + p as u32,
                    square_name(PALACES[p])
                ),
            ));
        }
        return Ok("in".to_string().into());
    }
    if from < HANDS && (HANDS..DICE).contains(&to) {
        // Bearing off. Ludii lets a piece bear off from outside the keep, which the rules
        // do not: the move is written as Ludii played it, and the rules refuse it there.
        let note = (from != KEEP).then(|| {
            format!(
                "Ludii bears off from {} (site {from} to site {to})",
                square_name(from)
            )
        });
        return Ok(Written {
            token: "off".to_string(),
            note,
        });
    }
    if from >= HANDS || to >= HANDS {
        return Err(bad(m, format!("a move from site {from} to site {to}")));
    }
    let [value] = values[..] else {
        return Err(bad(
            m,
            format!("a move that uses {} throws (expected one)", values.len()),
        ));
    };
    Ok(format!("{}+{value}-{}", square_name(from), square_name(to)).into())
}

/// Writes one turn: the seat letter, then for each series its throw group and actions.
fn write_turn(text: &mut PdnText, turn: &[LudiiMove]) -> Result<(), ConvertError> {
    let first = &turn[0];
    text.mapped(&seat(first)?.to_string(), first.line, first.number);
    let mut i = 0;
    while i < turn.len() {
        // A series: its throw lines, then the moves up to the next throw line.
        let start = i;
        let mut throws = Vec::new();
        while let Some(t) = turn.get(i).and_then(throw_of) {
            throws.push(t.to_string());
            i += 1;
        }
        if throws.is_empty() {
            return Err(bad(&turn[i], "a move before any throw of its turn"));
        }
        let group = format!("[{}]", throws.join(" "));
        text.mapped(&group, turn[start].line, turn[start].number);
        while let Some(m) = turn.get(i).filter(|m| throw_of(m).is_none()) {
            match (m.from, m.to) {
                (Some(from), Some(to)) => {
                    let written = move_token(m, from, to)?;
                    if let Some(note) = &written.note {
                        text.comment(note);
                    }
                    text.mapped(&written.token, m.line, m.number);
                }
                _ => {
                    for v in forgotten(m) {
                        text.mapped(&format!("~{v}"), m.line, m.number);
                    }
                }
            }
            i += 1;
        }
    }
    Ok(())
}

fn to_pdn(trial: &Trial) -> Result<Converted, ConvertError> {
    if let Some(o) = trial.options.first() {
        return Err(ConvertError::UnsupportedOption {
            option: o.clone(),
            known: "none: Ludii's Thaayam has no options".to_string(),
        });
    }
    let mut text = PdnText::new();
    text.tag("Variant", "Thaayam");
    text.tag("Rules", "ludii");
    text.tag("Seats", "S E N W");
    text.tag("Source", &trial.game);
    if let Some(v) = &trial.version {
        text.tag("LudiiVersion", v);
    }
    let ranked = rank_order(trial);
    if !ranked.is_empty() {
        text.tag("LudiiRankings", &ranked);
    }
    let result = match recorded_winner(trial) {
        Some(w @ 1..=4) => format!("{}+", SEATS[usize::from(w) - 1]),
        Some(0) => "1/2-1/2".to_string(),
        _ => "*".to_string(),
    };
    text.tag("Result", &result);
    text.begin_movetext();
    for turn in turns(trial.play_moves()) {
        write_turn(&mut text, turn)?;
    }
    Ok(text.finish(&result))
}

/// The seats in the order Ludii ranked them (`rankings=`), e.g. `E W N S`; empty when the
/// trial has no rankings.
fn rank_order(trial: &Trial) -> String {
    let mut seats: Vec<(f64, char)> = trial
        .rankings
        .iter()
        .skip(1)
        .zip(SEATS)
        .filter(|(r, _)| **r > 0.0)
        .map(|(r, s)| (*r, s))
        .collect();
    seats.sort_by(|a, b| a.0.total_cmp(&b.0));
    seats
        .iter()
        .map(|(_, s)| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
