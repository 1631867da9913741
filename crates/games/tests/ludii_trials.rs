//! The Ludii trials of the shared corpus: conversion, validation, the span map, and the
//! Tama trial writer against Ludii's own files.

mod common;

use game::{Code, Game};
use ludii::read_trial;
use tama::Tama;

/// The trial converted by the converter its game declares on its registry entry.
fn to_pdn(trial: &ludii::Trial) -> Result<ludii::Converted, ludii::ConvertError> {
    games::games().read_trial(trial)
}

fn variant_tag(pdn: &str) -> String {
    let rec = &pdn::read_all(pdn.as_bytes())[0];
    rec.tag("Variant").unwrap_or("").to_string()
}

fn read(path: &std::path::Path) -> (String, ludii::Trial) {
    let text = std::fs::read_to_string(path).unwrap();
    let trial = read_trial(text.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (text, trial)
}

fn rules_tag(pdn: &str) -> String {
    let rec = &pdn::read_all(pdn.as_bytes())[0];
    rec.tag("Rules").unwrap_or("").to_string()
}

/// `key=` number of a trial line, e.g. `from=` of a `Move=` line.
fn field(line: &str, key: &str) -> Option<u32> {
    let at = line.find(&format!(",{key}="))? + key.len() + 2;
    line[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

#[test]
fn every_tama_trial_converts_and_validates_clean_under_its_ruleset_in_shared() {
    let files = common::trials("tama_");
    for path in &files {
        let (text, trial) = read(path);
        let c = to_pdn(&trial).unwrap();
        assert_eq!(variant_tag(&c.pdn), "Tama");
        let rules = rules_tag(&c.pdn);
        let expected = if trial.options.iter().any(|o| o == "Variant/Wikipedia") {
            "ludii"
        } else {
            "schmidt"
        };
        assert_eq!(rules, expected, "{}", path.display());
        let game = Tama::with_options(&rules).unwrap();
        let (found, end) = common::replay(&game, &c.pdn);
        assert!(found.is_empty(), "{}: {found:?}", path.display());
        // Ludii ended the game by the rules (NaturalEnd): so must arbiter, with that winner.
        assert_eq!(trial.end_type.as_deref(), Some("NaturalEnd"));
        assert!(game.terminal(&end).is_some(), "{}", path.display());

        // The span map: every ply points at a Move= line whose from= is the ply's start.
        let lines: Vec<&str> = text.lines().collect();
        let plies = c.map.len();
        assert!(plies > 20);
        for e in &c.map {
            let tok = &c.pdn[e.pdn_start as usize..e.pdn_end as usize];
            let from = tama::parse_token(tok.as_bytes()).unwrap().from().index() as u32;
            let line = lines[e.trl_line as usize - 1];
            assert!(line.starts_with("Move=[Move:mover="), "{line}");
            assert_eq!(field(line, "from"), Some(from), "{tok} vs {line}");
            // The move number counts Move= lines.
            let n = lines[..e.trl_line as usize]
                .iter()
                .filter(|l| l.starts_with("Move="))
                .count() as u32;
            assert_eq!(e.ludii_move, n);
            let mid = (e.pdn_start + e.pdn_end) / 2;
            assert_eq!(c.locate(mid), Some(e));
        }
    }
    if !files.is_empty() {
        assert_eq!(files.len(), 5);
    }
}

#[test]
fn schmidt_trials_need_the_schmidt_option_in_shared() {
    // A short king's step is also a legal flying move, so the observed games may pass under
    // other rules; but a flying king would have captured where Ludii's kings could not.
    // Under the default rules at least one of the two Schmidt trials must break.
    let mut broken = 0;
    let files = common::trials("tama_");
    for path in files
        .iter()
        .filter(|p| !p.to_string_lossy().contains("wikipedia"))
    {
        let (_, trial) = read(path);
        let c = to_pdn(&trial).unwrap();
        let (found, _) = common::replay(&Tama::LUDII, &c.pdn);
        broken += usize::from(!found.is_empty());
    }
    if !files.is_empty() {
        assert!(broken > 0);
    }
}

/// Ludii's board after the placement and the moves before line `stop`: per site, the stack
/// of owners (players 1–4).
fn ludii_board(trial: &ludii::Trial, stop: u32) -> Vec<Vec<u8>> {
    let mut sites: Vec<Vec<u8>> = vec![Vec::new(); 33];
    for m in trial.moves.iter().take_while(|m| m.line < stop) {
        for a in &m.actions {
            match a.kind.as_str() {
                "Add" => {
                    let to = a.num("to").unwrap() as usize;
                    let what = a.num("what").unwrap();
                    if (5..=8).contains(&what) {
                        sites[to].push((what - 4) as u8);
                    }
                }
                "Move" => {
                    let (f, t) = (
                        a.num("from").unwrap() as usize,
                        a.num("to").unwrap() as usize,
                    );
                    let level = a
                        .num("levelFrom")
                        .map_or(sites[f].len() - 1, |l| l as usize);
                    let top = sites[f].len() - 1;
                    let p = sites[f].remove(level.min(top));
                    sites[t].push(p);
                }
                "Remove" => {
                    let to = a.num("to").unwrap() as usize;
                    sites[to].pop();
                }
                _ => {}
            }
        }
    }
    sites
}

/// True when, before trial line `stop`, every piece of `player` on the route (keep excluded)
/// lies under another player's piece in Ludii's stack.
fn all_covered(trial: &ludii::Trial, stop: u32, player: u8) -> bool {
    let board = ludii_board(trial, stop);
    (0..25)
        .filter(|&s| s != 12)
        .all(|s| board[s].last().is_none_or(|&top| top != player))
}

#[test]
fn thaayam_trials_convert_and_each_problem_is_a_real_ludii_deviation_in_shared() {
    let files = common::trials("thaayam_");
    let game = thaayam::Thaayam::with_rules("ludii").unwrap();
    let mut seen = Vec::new();
    for path in &files {
        let (text, trial) = read(path);
        let c = to_pdn(&trial).unwrap();
        assert_eq!(variant_tag(&c.pdn), "Thaayam");
        assert_eq!(rules_tag(&c.pdn), "ludii");
        let (found, _) = common::replay(&game, &c.pdn);
        let lines: Vec<&str> = text.lines().collect();
        for f in &found {
            let e = c.locate(f.offset).expect("a problem at a move");
            let line = lines[e.trl_line as usize - 1];
            let m = trial.moves.iter().find(|m| m.line == e.trl_line).unwrap();
            match f.problem.code {
                Code::IllegalMove if f.problem.message.contains("captures on") => {
                    // Ludii landed on an unmarked square holding another player's single
                    // piece and removed nothing.
                    let to = field(line, "to").unwrap() as usize;
                    assert!(![2, 10, 12, 14, 22].contains(&to), "{line}");
                    let board = ludii_board(&trial, e.trl_line);
                    assert!(board[to].iter().any(|&p| p != m.mover), "{line}");
                    assert!(!line.contains("Remove"), "{line}");
                    seen.push(("no capture", e.trl_line));
                }
                thaayam::UNUSED_THROW => {
                    // The turn's throws were not kept by Ludii (no RememberValue) although
                    // the player had a piece on the route outside the keep.
                    let turn: Vec<_> = trial
                        .moves
                        .iter()
                        .filter(|x| x.line >= e.trl_line && x.mover == m.mover)
                        .take_while(|x| x.actions.iter().any(|a| a.kind.starts_with("SetState")))
                        .collect();
                    assert!(!turn.is_empty());
                    assert!(turn
                        .iter()
                        .all(|x| x.actions_of("RememberValue").next().is_none()));
                    let board = ludii_board(&trial, e.trl_line);
                    assert!(
                        (0..25).any(|s| s != 12 && board[s].contains(&m.mover)),
                        "{line}"
                    );
                    // ... but every such piece lay under another player's piece.
                    assert!(all_covered(&trial, e.trl_line, m.mover), "{line}");
                    seen.push(("throws dropped", e.trl_line));
                }
                other => panic!(
                    "{} line {}: unexpected {other}: {}",
                    path.display(),
                    e.trl_line,
                    f.problem.message
                ),
            }
        }
    }
    eprintln!("Ludii deviations found: {seen:?}");
    if !files.is_empty() {
        assert_eq!(files.len(), 2);
        assert!(!seen.is_empty());
    }
}

#[test]
fn ludii_goes_on_after_the_first_seat_has_borne_off_everything_in_shared() {
    // Rule 18 ends the game when a seat bears off its fourth piece; Ludii plays on to rank
    // the others. Found from the trial itself: four bearing-off moves of the winner, and
    // moves of other players after the fourth.
    for path in common::trials("thaayam_") {
        let (_, trial) = read(&path);
        let winner = trial.winner.unwrap() as u8;
        let offs: Vec<u32> = trial
            .moves
            .iter()
            .filter(|m| m.mover == winner && m.actions_of("Remove").next().is_some())
            .map(|m| m.line)
            .collect();
        assert_eq!(offs.len(), 4, "{}", path.display());
        let after = trial.moves.iter().filter(|m| m.line > offs[3]).count();
        assert!(after > 0, "{}", path.display());
        // The PDN keeps those turns (nothing is dropped) and the recorded winner.
        let c = to_pdn(&trial).unwrap();
        let last = c.map.last().unwrap();
        assert!(last.trl_line > offs[3]);
        let seat = ['S', 'E', 'N', 'W'][usize::from(winner) - 1];
        assert!(c.pdn.contains(&format!("[Result \"{seat}+\"]")));
    }
}

/// Ludii's position before the turn starting at trial line `stop`, as a Thaayam position
/// string with `seat` to move (players 1–4 = S, E, N, W).
fn ludii_position(trial: &ludii::Trial, stop: u32, seat: char) -> String {
    let board = ludii_board(trial, stop);
    let mut parts = Vec::new();
    for (p, letter) in ['S', 'E', 'N', 'W'].into_iter().enumerate() {
        let player = p as u8 + 1;
        let mut items = Vec::new();
        let hand = board[25 + p].len();
        let mut placed = hand;
        if hand > 0 {
            items.push(format!("h{hand}"));
        }
        for (site, stack) in board.iter().enumerate().take(25) {
            let n = stack.iter().filter(|&&o| o == player).count();
            if n == 0 {
                continue;
            }
            placed += n;
            let name = format!("{}{}", (b'a' + (site % 5) as u8) as char, site / 5 + 1);
            items.push(match (site, n) {
                (12, _) => format!("k{n}"),
                (_, 1) => name,
                _ => format!("{name}x{n}"),
            });
        }
        if placed < 4 {
            items.push(format!("o{}", 4 - placed));
        }
        parts.push(format!("{letter}={}", items.join(",")));
    }
    format!("{seat}:{}", parts.join("/"))
}

/// Every problem the thaayam crate finds in a converted trial, going on after each one from
/// Ludii's own position (rebuilt from the trial) at the next turn where that position can be
/// written; returns (trial line, code, message).
fn all_deviations(trial: &ludii::Trial, c: &ludii::Converted) -> Vec<(u32, Code, String)> {
    let game = thaayam::Thaayam::with_rules("ludii").unwrap();
    let rec = &pdn::read_all(c.pdn.as_bytes())[0];
    let tag = |name: &str| rec.tag(name).map(str::to_string);
    let mut plies: Vec<Vec<&pdn::Move>> = Vec::new();
    for n in &rec.movetext {
        if let pdn::Node::Move(m) = n {
            if plies.is_empty() || game.starts_ply(m.token.as_bytes()) {
                plies.push(Vec::new());
            }
            plies.last_mut().unwrap().push(m);
        }
    }
    let mut out = Vec::new();
    let mut pos = Some(game.start_position(&tag).unwrap());
    for ply in &plies {
        let line = |off: u64| c.locate(off).unwrap().trl_line;
        if pos.is_none() {
            let seat = ply[0].token.chars().next().unwrap();
            pos = game
                .parse_position(&ludii_position(trial, line(ply[0].span.start), seat))
                .ok();
        }
        let Some(p) = pos.as_mut() else { continue };
        let tokens: Vec<&[u8]> = ply.iter().map(|m| m.token.as_bytes()).collect();
        match game.resolve(p, &tokens) {
            Ok(mv) => game.play(p, &mv),
            Err(e) => {
                let at = ply[e.token.min(ply.len() - 1)].span.start;
                out.push((line(at), e.code, e.message));
                pos = None;
            }
        }
    }
    out
}

#[test]
fn every_thaayam_deviation_is_a_known_ludii_deviation_in_shared() {
    for path in common::trials("thaayam_") {
        let (text, trial) = read(&path);
        let c = to_pdn(&trial).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let found = all_deviations(&trial, &c);
        let mut kinds = std::collections::BTreeMap::new();
        for (line, code, message) in &found {
            let kind = if *code == Code::IllegalMove && message.contains("captures on") {
                assert!(!lines[*line as usize - 1].contains("Remove"));
                "no capture"
            } else if *code == thaayam::UNUSED_THROW {
                // The problem points at the throw group: the turn's lines start there.
                let mover = trial.moves.iter().find(|m| m.line == *line).unwrap().mover;
                let turn: Vec<&ludii::LudiiMove> = trial
                    .moves
                    .iter()
                    .skip_while(|m| m.line < *line)
                    .take_while(|m| m.mover == mover)
                    .collect();
                let dropped = turn.iter().any(|m| {
                    m.actions_of("SetStateAndUpdateDice").next().is_some()
                        && m.actions_of("RememberValue").next().is_none()
                });
                let board = ludii_board(&trial, *line);
                let on_route = (0..25).any(|s| s != 12 && board[s].contains(&mover));
                if !dropped {
                    "fewer throws used than possible"
                } else if on_route {
                    assert!(
                        all_covered(&trial, *line, mover),
                        "{} line {line}: {message}",
                        path.display()
                    );
                    "throws dropped: every piece covered"
                } else {
                    // Only pieces in the keep (and in hand): Ludii discarded as if none were
                    // on the board.
                    assert!(
                        board[12].contains(&mover),
                        "{} line {line}: {message}",
                        path.display()
                    );
                    "throws dropped: keep not counted"
                }
            } else if *code == Code::ResultMismatch && message.contains("over") {
                "plays on after the win"
            } else {
                panic!("{} line {line}: {code}: {message}", path.display())
            };
            eprintln!("{} line {line}: {kind}: {code}: {message}", path.display());
            kinds.entry(kind).or_insert(*line);
        }
        eprintln!(
            "{}: {} problems, first of each kind: {kinds:?}",
            path.display(),
            found.len()
        );
        assert!(!found.is_empty());
    }
}
