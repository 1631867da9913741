//! `arbiter view`: every game of an archive in one self-contained page, stepped through move
//! by move, with every problem listed; and the viewer's part of a report run (the games with
//! problems of `validate --report` and `stats`). The page itself is `report::viewer`.

use std::borrow::Cow;

use ::report::{EncodedGame, ViewerGame, ViewerPly, ViewerPosition, ViewerProblem, ViewerSeverity};
use referee::{Diagnostic, GameReport, Referee, Settings, Severity};

use crate::report;
use ::archive::Trial;

/// Which games a run hands to the viewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Games with at least one diagnostic (a report).
    Problems,
    /// Every game (`arbiter view`).
    All,
}

/// The settings a replay needs for the viewer: a board and a position string per ply, the
/// tags, and a snapshot with each problem about a position.
pub fn settings(base: &Settings) -> Settings {
    Settings {
        details: true,
        positions: true,
        boards: true,
        snapshots: true,
        keep_tags: true,
        ..base.clone()
    }
}

/// Where the game just read comes from, to name the place of each problem.
pub struct Origin<'a> {
    /// The game's source text.
    pub source: &'a pdn::Source<'a>,
    /// The 1-based line of the chunk's first byte in the input.
    pub first_line: u64,
    /// The Ludii trial the records were made from, if any.
    pub trial: Option<&'a Trial>,
}

/// The game just read, encoded for the viewer. `diagnostics` are the run's own (with their
/// severity as the run counts it); `positions` is a report of the same game replayed with
/// [`settings`] (the boards and position strings). Without `moves`, the game is encoded
/// without them (the viewer keeps no more: [`::report::Viewer::wants_moves`]).
pub fn encode(
    origin: &Origin<'_>,
    diagnostics: &[Diagnostic],
    positions: &GameReport,
    moves: bool,
) -> EncodedGame {
    let r = positions;
    let (tags, fens) = tags_and_fens(r);
    let players = seat_players(r);
    let written: Vec<Option<String>> = diagnostics.iter().map(|d| written(origin, d)).collect();
    let mut locator = report::Locator::new(origin.source);
    let lines: Vec<u64> = diagnostics
        .iter()
        .map(|d| match origin.trial {
            Some(t) => report::trial_place(t, d.span).line,
            None => locator.place(d.span).line + origin.first_line - 1,
        })
        .collect();
    let notations: Vec<&str> = r.details.iter().map(|d| d.notation).collect();
    // A game with no board (not identified, or no start position) is shown as written.
    let record = if r.boards.is_empty() {
        movetext(&pdn::decode(origin.source.text))
    } else {
        String::new()
    };
    let annotated = if moves {
        annotations(origin, r, &fens)
    } else {
        Vec::new()
    };
    let game = ViewerGame {
        label: r.game.map_or("Unknown game", |g| g.label),
        tags: [&tags[0], &tags[1], &tags[2], &tags[3], &tags[4]],
        players: players.iter().map(|(s, p)| (*s, p.as_ref())).collect(),
        positions: viewer_positions(r, &fens),
        moves: notations,
        plies_written: r.plies_written,
        problems: diagnostics
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let snap = d.snapshot.as_deref();
                ViewerProblem {
                    ply: d.ply,
                    code: d.code.as_str(),
                    severity: match d.severity {
                        Severity::Error => ViewerSeverity::Error,
                        Severity::Warning => ViewerSeverity::Warning,
                        Severity::Note => ViewerSeverity::Note,
                    },
                    message: &d.message,
                    line: lines[i],
                    written: written[i].as_deref(),
                    played: snap.map_or(&[][..], |s| &s.played),
                    suggested: snap.map_or(&[][..], |s| &s.suggested),
                    variation: snap
                        .filter(|s| s.in_variation)
                        .map(|s| (s.position.as_str(), &s.board)),
                }
            })
            .collect(),
        record: &record,
        analysis: annotated
            .iter()
            .enumerate()
            .map(|(i, (a, line, paths))| ViewerPly {
                // The seats in turn order: the record says no more (in a game with extra
                // turns the list of classed moves may name the wrong mover).
                seat: r.seats.get(i % r.seats.len().max(1)).copied().unwrap_or(0),
                eval: a.eval,
                class: a.class.map(analysis::Class::name),
                best: a.line.first().map(String::as_str),
                line,
                best_paths: paths.clone(),
            })
            .collect(),
        accuracy: Vec::new(),
    };
    if moves {
        game.encode()
    } else {
        game.encode_without_moves()
    }
}

/// The analysis written into the game by `analyse --annotate` (`[%eval]` comments, marks, the
/// engine's line as a variation), with the line as one string and the squares of the engine's
/// choice in the position before its ply; empty for a game without `[%eval]` comments.
/// The tags a viewer's game shows (White, Black, Event, Date, Result) and the position string
/// of each of its boards (none when the game was replayed without them).
pub fn tags_and_fens(r: &GameReport) -> (Vec<Cow<'_, str>>, Vec<&str>) {
    let tags = ["White", "Black", "Event", "Date", "Result"]
        .iter()
        .map(|n| r.tag(n).unwrap_or_default())
        .collect();
    let mut fens: Vec<&str> = Vec::with_capacity(r.boards.len());
    if !r.boards.is_empty() {
        fens.push(&r.start_position);
        fens.extend(r.details.iter().map(|d| d.position));
    }
    (tags, fens)
}

/// Every seat of the game (as its rules name them) with its player: the tag named after the
/// seat (`[White "…"]`, `[South "…"]`), empty where absent. Empty for a game not identified.
pub fn seat_players(r: &GameReport) -> Vec<(&'static str, Cow<'_, str>)> {
    r.game.map_or_else(Vec::new, |info| {
        info.seat_names
            .iter()
            .map(|&seat| (seat, r.tag(seat).unwrap_or_default()))
            .collect()
    })
}

/// The viewer's positions of a replayed game, each with its FEN.
pub fn viewer_positions<'a, S: AsRef<str>>(
    r: &'a GameReport,
    fens: &'a [S],
) -> Vec<ViewerPosition<'a>> {
    r.boards
        .iter()
        .zip(fens)
        .map(|(b, fen)| ViewerPosition {
            fen: fen.as_ref(),
            board: &b.board,
            last_move: &b.last_move,
        })
        .collect()
}

fn annotations(
    origin: &Origin<'_>,
    r: &GameReport,
    fens: &[&str],
) -> Vec<(analysis::AnnotatedPly, String, Vec<game::SquarePath>)> {
    let (Some(info), false) = (r.game, fens.is_empty()) else {
        return Vec::new();
    };
    if !origin.source.text.windows(6).any(|w| w == b"[%eval") {
        return Vec::new();
    }
    let mut reader = pdn::Reader::new(origin.source.text);
    let Ok(Some(record)) = reader.read_game(&mut pdn::RecordBuilder::new()) else {
        return Vec::new();
    };
    let explorer = games::games().explorer(info, &r.options);
    let replayed = fens.len() - 1;
    analysis::read_annotations(&record)
        .into_iter()
        .take(replayed)
        .enumerate()
        .map(|(i, a)| {
            let paths = match (a.line.first(), &explorer) {
                (Some(best), Some(x)) => x.paths(Some(fens[i]), &[best]).unwrap_or_default(),
                _ => Vec::new(),
            };
            let line = a.line.join(" ");
            (a, line, paths)
        })
        .collect()
}

/// True when the game's text holds something after its tags (moves, comments, a result).
pub fn has_movetext(source: &pdn::Source<'_>) -> bool {
    !movetext(&pdn::decode(source.text)).is_empty()
}

/// The most of a record's movetext a page shows as text.
const MOVETEXT_SHOWN: usize = 4000;

/// A game's text without its tag pairs (and cut after [`MOVETEXT_SHOWN`] bytes): its moves,
/// comments and result as written.
fn movetext(text: &str) -> String {
    let mut rest = text.trim_start();
    while let Some(tag) = rest.strip_prefix('[') {
        let (mut quoted, mut escaped) = (false, false);
        let mut end = None;
        for (i, c) in tag.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if quoted => escaped = true,
                '"' => quoted = !quoted,
                ']' if !quoted => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        rest = tag[end + 1..].trim_start();
    }
    let rest = rest.trim_end();
    if rest.len() <= MOVETEXT_SHOWN {
        return rest.to_string();
    }
    let mut cut = MOVETEXT_SHOWN;
    while !rest.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{} …", &rest[..cut])
}

/// The move as written, for a problem about a ply the replay refused.
fn written(origin: &Origin<'_>, d: &Diagnostic) -> Option<String> {
    d.snapshot.as_ref()?;
    d.ply?;
    let s = origin.source;
    let from = d.span.start.checked_sub(s.offset)? as usize;
    let to = d.span.end.checked_sub(s.offset)? as usize;
    let bytes = s.text.get(from..to.min(from + 200))?;
    let text = pdn::decode(bytes).trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// Replays the game just read again with the viewer's settings: the run's own replay keeps no
/// boards (a report keeps them only for games with problems). The positions come back with
/// offsets of the first replay.
pub fn replay(referee: &mut Referee<'_>, source: &pdn::Source<'_>) -> Option<GameReport> {
    let mut reader = pdn::Reader::new(source.text);
    reader.read_game(referee).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::movetext;

    #[test]
    fn movetext_leaves_the_tags_out() {
        let text = "[Event \"a ] \\\" b\"]\n[White \"x\"]\n1. 32-28 19-23 {a [c]} *\n";
        assert_eq!(movetext(text), "1. 32-28 19-23 {a [c]} *");
        assert_eq!(movetext("[Event \"cut"), "[Event \"cut");
        let long = "1. 32-28 ".repeat(1000);
        let shown = movetext(&long);
        assert!(shown.len() < 4010 && shown.ends_with(" …"));
    }
}
