//! Resolving the tokens of one turn against a position (the referee's entry point).

use game::{Code, Problem, SquarePath};

use crate::board::{route_square, seat_name, INDEX, KEEP_INDEX};
use crate::diagram::applied_paths;
use crate::engine::{Action, Advance, Illegal, Run};
use crate::notation::{
    is_group, parse_group_words, parse_plain_advance, parse_token, write_actions, Token,
};
use crate::position::Position;
use crate::search::{best_play, beyond_reach};
use crate::throws::ThrowSeq;
use crate::{Series, SeriesList, Thaayam, Turn};

fn text(token: &[u8]) -> String {
    String::from_utf8_lossy(token).into_owned()
}

fn illegal(message: String, at: usize) -> Problem {
    Problem::new(Code::IllegalMove, message).at_token(at)
}

fn series_problem(message: String, at: usize) -> Problem {
    Problem::new(crate::BAD_THROW_SERIES, message).at_token(at)
}

/// The message for an action that is not legal.
pub(crate) fn explain(why: Illegal, run: &Run<&mut Position>, token: &[u8]) -> String {
    let who = seat_name(run.seat);
    let tok = text(token);
    let left = if run.left.is_empty() {
        "none".to_string()
    } else {
        run.left.to_string()
    };
    match why {
        Illegal::NoOneToEnter => format!("no 1 left to enter a piece (throws left: {left})"),
        Illegal::NothingInHand => format!("{who} has no piece in hand to enter"),
        Illegal::NoUnit {
            square,
            twin,
            other_kind,
        } => {
            let what = if twin { "no twins" } else { "no single" };
            let hint = match (other_kind, twin) {
                (true, false) => format!(" ({who} has twins there: write T{square}+…)"),
                (true, true) => format!(" ({who} has singles there: write {square}+…)"),
                _ => String::new(),
            };
            format!("{what} of {who} on {square}{hint}")
        }
        Illegal::InKeep => {
            "pieces in the keep do not advance: they bear off with a 1 (off)".to_string()
        }
        Illegal::AlreadyMoved { square, twin: false } => {
            format!("the piece on {square} already moved in this series")
        }
        Illegal::AlreadyMoved { square, twin: true } => format!(
            "the twins on {square} already moved in this series, or were made of pieces that did"
        ),
        Illegal::ThrowMissing(v) => {
            format!("no unused {v} in this series (throws left: {left})")
        }
        Illegal::TwinsTooShort { points } => format!(
            "twins move half the points: {points} moves them 0 squares"
        ),
        Illegal::LudiiOneThrow => "under the ludii rules each throw moves a unit on its own: write one throw per advance".to_string(),
        Illegal::LudiiTwinOne => {
            "under the ludii rules twins move half of each throw, so a 1 cannot move them".to_string()
        }
        Illegal::PassesKeep { distance, to_go } => {
            format!("{tok} would pass the keep ({distance} squares, {to_go} to go)")
        }
        Illegal::TwinSquare { expected } => {
            format!("twins can only be declared on your opposite palace {expected}")
        }
        Illegal::TwinsNeedTwo { square, have } => {
            let there = match have {
                0 => "there is none".to_string(),
                1 => "there is 1".to_string(),
                n => format!("there are {n}"),
            };
            format!("twins need two single pieces of {who} on {square} ({there})")
        }
        Illegal::OutsideKeep => {
            let side = &run.pos().sides[usize::from(run.seat)];
            let mut places = Vec::new();
            if side.hand > 0 {
                places.push(format!("{} in hand", side.hand));
            }
            for i in 0..KEEP_INDEX {
                let iu = usize::from(i);
                if side.singles[iu] + side.twins[iu] > 0 {
                    places.push(route_square(run.seat, i).to_string());
                }
            }
            format!(
                "pieces outside the keep: cannot bear off ({who} still has {})",
                places.join(", ")
            )
        }
        Illegal::NoOneToBearOff => format!("no 1 left to bear off a piece (throws left: {left})"),
        Illegal::KeepAllFresh => "the pieces in the keep reached it in this series: they bear off from the next series on".to_string(),
        Illegal::KeepEmpty => format!("{who} has no piece in the keep to bear off"),
        Illegal::GameOver => format!(
            "{who} has borne off all four pieces: the game is over and the rest of the series is lost"
        ),
    }
}

/// What an advance token states about its arrival, checked against what happened.
fn check_arrival(
    stated: (bool, crate::board::Square),
    done: Advance,
    run_after: &Run<&mut Position>,
) -> Option<String> {
    let (capture, square) = stated;
    if square != done.to {
        return Some(format!("the move arrives on {}, not {square}", done.to));
    }
    match (capture, done.captured > 0) {
        (true, false) => {
            let why = if square.is_marked() {
                " (nothing is ever captured on a marked square)".to_string()
            } else if !done.twin && enemy_twins_on(run_after, square) {
                " (a single cannot capture twins)".to_string()
            } else {
                String::new()
            };
            Some(format!("nothing is captured on {square}{why}"))
        }
        (false, true) => {
            let mut head = String::new();
            crate::notation::write_advance_head(&mut head, &done);
            Some(format!(
                "the move captures on {square}: write {head}x{square}"
            ))
        }
        _ => None,
    }
}

fn enemy_twins_on(run: &Run<&mut Position>, square: crate::board::Square) -> bool {
    let pos = run.pos();
    (0..4u8).any(|s| {
        s != run.seat
            && pos.plays(s)
            && pos.sides[usize::from(s)].twins
                [usize::from(INDEX[usize::from(s)][usize::from(square.index())])]
                > 0
    })
}

/// The paths of the turn's actions so far (those of the series being played last), for
/// diagrams (error path only).
fn played_so_far(seat: u8, series: &[Series]) -> Vec<SquarePath> {
    let mut out = Vec::new();
    for s in series {
        applied_paths(seat, &s.actions, &mut out);
    }
    out
}

/// The index of the token of the `k`-th capturing advance (from 0) of a resolved turn's
/// `series` (error path only). Each series' actions follow its throw group, one per token
/// that is not a lost-throw note.
fn capture_token(tokens: &[&[u8]], series: &[Series], k: usize) -> Option<usize> {
    let mut done = series.iter();
    let mut actions: &[Action] = &[];
    let mut next = 0;
    let mut found = 0;
    for (at, token) in tokens.iter().enumerate().skip(1) {
        if is_group(token) {
            actions = done.next().map_or(&[], |s| s.actions.as_slice());
            next = 0;
            continue;
        }
        if token.first() == Some(&b'~') {
            continue;
        }
        if let Some(Action::Advance(a)) = actions.get(next) {
            if a.captured > 0 {
                if found == k {
                    return Some(at);
                }
                found += 1;
            }
        }
        next += 1;
    }
    None
}

/// Resolves a whole turn.
pub(crate) fn resolve(game: &Thaayam, pos: &Position, tokens: &[&[u8]]) -> Result<Turn, Problem> {
    let mut cur = pos.clone();
    resolve_into(game, pos, tokens, &mut cur)
}

/// [`resolve`], the position after the turn left in `cur` (anything on an error): the turn is
/// played there while it is resolved.
pub(crate) fn resolve_into(
    game: &Thaayam,
    pos: &Position,
    tokens: &[&[u8]],
    cur: &mut Position,
) -> Result<Turn, Problem> {
    let anticlockwise = game.options.ludii;
    let Some(&first) = tokens.first() else {
        return Err(illegal("an empty turn".to_string(), 0));
    };
    if let Some(w) = pos.winner() {
        return Err(Problem::new(
            Code::ResultMismatch,
            format!(
                "the game is over: {} has borne off all four pieces",
                seat_name(w)
            ),
        ));
    }
    let seat = match first {
        [letter] => crate::board::seat_from_letter(*letter),
        _ => None,
    };
    let seat = match seat {
        Some(s) => s,
        None => {
            return Err(illegal(
                "a turn starts with the letter of the seat that plays it (S, W, N or E)"
                    .to_string(),
                0,
            ))
        }
    };
    if !pos.plays(seat) {
        let seats: Vec<String> = pos
            .seats()
            .map(|s| crate::board::seat_letter(s).to_string())
            .collect();
        return Err(illegal(
            format!(
                "{} does not play in this game (seats: {})",
                seat_name(seat),
                seats.join(" ")
            ),
            0,
        ));
    }
    if seat != pos.to_move {
        return Err(illegal(
            format!(
                "it is {}'s turn, not {}'s",
                seat_name(pos.to_move),
                seat_name(seat)
            ),
            0,
        ));
    }
    if tokens.len() == 1 {
        return Err(series_problem(
            format!(
                "{}'s turn has no throws: write its series in brackets, e.g. {} [1 4 2] in c1+4+2",
                seat_name(seat),
                crate::board::seat_letter(seat)
            ),
            0,
        ));
    }
    cur.clone_from(pos);
    let mut allowed = 1 + u32::from(pos.owed);
    let mut thrown = 0u32;
    let mut won = false;
    let mut series = SeriesList::new();
    let mut i = 1;
    while i < tokens.len() {
        let group_at = i;
        let tok = tokens[i];
        if !is_group(tok) {
            return Err(series_problem(
                "actions come after the throws: a series starts with its throws in brackets, e.g. [1 4 2]".to_string(),
                i,
            ));
        }
        if won {
            return Err(series_problem(
                format!(
                    "{} has won: the game ends at once and no further series is thrown",
                    seat_name(seat)
                ),
                i,
            ));
        }
        if thrown >= allowed {
            return Err(series_problem(
                "an extra series is thrown only after a capturing move, and no capture earned this one".to_string(),
                i,
            ));
        }
        let (low, high, len, all) =
            parse_group_words(tok).map_err(|e| series_problem(e.to_string(), i))?;
        let throws = ThrowSeq::from_words([low, high], len);
        let start_side = cur.sides[usize::from(seat)];
        let (mut run, discarded) =
            Run::begin_counted(&mut *cur, &throws, Some(all), game.options.ludii);
        let usable = run.left;
        // The series goes into the turn now and its actions are added in place: moving a
        // whole series into the list at its end costs more than the rest of most series. It
        // goes in as a constant and takes its throws there: a series assembled on the stack
        // and then copied in made the copy wait for the stores that had just built it.
        series.push(Series::EMPTY);
        let current = series.len() - 1;
        let pushed = series.last_mut().expect("a series was just pushed");
        pushed.throws = throws;
        let actions = &mut pushed.actions;
        let mut lost_notes: Vec<(u8, usize)> = Vec::new();
        i += 1;
        while i < tokens.len() && !is_group(tokens[i]) {
            let tok = tokens[i];
            let parsed = match parse_plain_advance(tok) {
                Some(advance) => advance,
                None => parse_token(tok).map_err(|e| illegal(e.to_string(), i))?,
            };
            let result = match parsed {
                Token::Seat(s) => {
                    return Err(illegal(
                        format!(
                            "a turn has one seat letter: {} here starts a new turn",
                            seat_name(s)
                        ),
                        i,
                    ))
                }
                Token::Group => return Err(illegal("unexpected throw group".to_string(), i)),
                Token::Lost(v) => {
                    lost_notes.push((v, i));
                    i += 1;
                    continue;
                }
                Token::Enter => run.enter().map(|_| Action::Enter),
                Token::BearOff => run.bear_off().map(|_| Action::BearOff),
                Token::Twins(sq) => run.declare(sq).map(|_| Action::Twins),
                Token::Advance {
                    twin,
                    from,
                    throws,
                    arrival,
                } => match run.advance(from, twin, &throws) {
                    Ok((to, captured)) => {
                        let done = Advance {
                            from,
                            twin,
                            throws,
                            to,
                            captured,
                        };
                        if let Some(stated) = arrival {
                            if let Some(m) = check_arrival(stated, done, &run) {
                                let mut played = played_so_far(seat, &series);
                                applied_paths(seat, &[Action::Advance(done)], &mut played);
                                return Err(illegal(m, i).with_played(played));
                            }
                        }
                        Ok(Action::Advance(done))
                    }
                    Err(e) => Err(e),
                },
            };
            match result {
                Ok(a) => actions.push(a),
                Err(why) => {
                    let mut played = played_so_far(seat, &series);
                    if let Token::Advance { from, .. } = parsed {
                        played.push(vec![(from.file(), from.rank())]);
                    }
                    return Err(illegal(explain(why, &run, tok), i).with_played(played));
                }
            }
            i += 1;
        }
        // Lost throws: the discarded ones and those left unused.
        if !lost_notes.is_empty() {
            let mut lost = run.left;
            for &v in &throws.as_slice()[..discarded] {
                let _ = lost.add(v);
            }
            for &(v, at) in &lost_notes {
                if !lost.remove(v) {
                    let all = {
                        let mut l = run.left;
                        for &d in &throws.as_slice()[..discarded] {
                            let _ = l.add(d);
                        }
                        l
                    };
                    let shown = if all.is_empty() {
                        "none".to_string()
                    } else {
                        all.to_string()
                    };
                    return Err(illegal(
                        format!("no {v} is lost in this series (lost: {shown})"),
                        at,
                    ));
                }
            }
        }
        // Rule 17.
        if !run.won && !run.left.is_empty() {
            if game.options.lenient_unused {
                if run.can_use_any() {
                    return Err(Problem::new(
                        crate::UNUSED_THROW,
                        format!(
                            "throws left unused ({}) could still be used after the last action",
                            run.left
                        ),
                    )
                    .at_token(group_at)
                    .with_played(played_so_far(seat, &series)));
                }
            } else if !beyond_reach(&start_side, usable, run.left) {
                let (best, _) = best_play(&start_side, seat, usable, game.options.ludii, false);
                if best > u32::from(run.used) {
                    let (_, witness) =
                        best_play(&start_side, seat, usable, game.options.ludii, true);
                    // The position at the start of this series, replayed (error path only).
                    let mut start = pos.clone();
                    for done in &series[..current] {
                        game.play_series(&mut start, done);
                    }
                    let (shown, suggested) = show_witness(game, &start, &throws, &witness);
                    let (n, of) = (run.used, usable.len());
                    return Err(Problem::new(
                        crate::UNUSED_THROW,
                        format!(
                            "uses {n} of the {of} usable throws (lost: {}), but a play using {best} exists: {shown}",
                            run.left
                        ),
                    )
                    .at_token(group_at)
                    .with_played(played_so_far(seat, &series))
                    .with_suggested(suggested));
                }
            }
        }
        won = run.won;
        allowed += u32::from(run.captures);
        thrown += 1;
        run.finish(anticlockwise);
    }
    if !won && thrown < allowed {
        let owed_before = u32::from(pos.owed);
        let k = thrown.saturating_sub(1 + owed_before) as usize;
        let (at, msg) = match capture_token(tokens, &series, k) {
            Some(at) => (
                at,
                format!(
                    "{} captured, so {} throws an extra series after this one: it is missing",
                    text(tokens[at]),
                    seat_name(seat)
                ),
            ),
            None => (
                tokens.len() - 1,
                format!(
                    "{} still owes an extra series this turn: it is missing",
                    seat_name(seat)
                ),
            ),
        };
        return Err(series_problem(msg, at));
    }
    Ok(Turn { seat, series })
}

/// The witness play in notation, replayed from the series start to mark its captures, and
/// the paths of its actions.
fn show_witness(
    game: &Thaayam,
    start: &Position,
    throws: &ThrowSeq,
    witness: &[Action],
) -> (String, Vec<SquarePath>) {
    let mut at = start.clone();
    let (mut run, _) = Run::begin(&mut at, throws, game.options.ludii);
    let mut done = Vec::with_capacity(witness.len());
    for a in witness {
        match run.apply(a) {
            Ok(a) => done.push(a),
            Err(_) => done.push(*a),
        }
    }
    let mut out = String::new();
    write_actions(&mut out, start.to_move, &done, false, None);
    let mut paths = Vec::new();
    applied_paths(start.to_move, &done, &mut paths);
    (out, paths)
}
