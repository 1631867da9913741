//! Changes `convert` makes to a game on the way: strip annotations, fix results and
//! `PlyCount`, and describe every ply for a table.

use games::Explorer;
use pdn::{GameRecord, GameResult, Node, Tag};
use referee::GameReport;
use serde_json::Value;

/// What `--strip` removes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Strip {
    /// Comments, in the movetext and before the tags.
    pub comments: bool,
    /// Variations.
    pub variations: bool,
    /// Annotation glyphs `$n` and the move marks `!`, `?`, `!?`, ... (PGN tools keep these
    /// as glyphs too).
    pub nags: bool,
}

/// What `--fix` corrects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fixes {
    /// The result, where the game ended by rule and the record says otherwise.
    pub results: bool,
    /// The `PlyCount` tag: added, or corrected to the plies of the main line.
    pub plycount: bool,
}

/// A list item of `--strip` or `--fix` that means nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{item}` is not one of {valid}")]
pub struct ListError {
    /// The item given.
    pub item: String,
    /// The valid items.
    pub valid: &'static str,
}

/// Reads a comma-separated list, each item one of `valid`, into flags (in `valid`'s order).
fn flags<const N: usize>(list: &str, valid: [&'static str; N]) -> Result<[bool; N], ListError> {
    let mut on = [false; N];
    for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        match valid.iter().position(|v| *v == item) {
            Some(i) => on[i] = true,
            None => {
                return Err(ListError {
                    item: item.to_string(),
                    valid: match N {
                        3 => "comments, variations, nags",
                        _ => "results, plycount",
                    },
                })
            }
        }
    }
    Ok(on)
}

impl Strip {
    /// Reads `comments,variations,nags` (any of them).
    pub fn parse(list: &str) -> Result<Strip, ListError> {
        let [comments, variations, nags] = flags(list, ["comments", "variations", "nags"])?;
        Ok(Strip {
            comments,
            variations,
            nags,
        })
    }

    /// True when nothing is to be stripped.
    pub fn is_empty(&self) -> bool {
        *self == Strip::default()
    }
}

impl Fixes {
    /// Reads `results,plycount` (either or both).
    pub fn parse(list: &str) -> Result<Fixes, ListError> {
        let [results, plycount] = flags(list, ["results", "plycount"])?;
        Ok(Fixes { results, plycount })
    }

    /// True when nothing is to be fixed.
    pub fn is_empty(&self) -> bool {
        *self == Fixes::default()
    }
}

/// How much [`strip`] removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stripped {
    /// Comments removed.
    pub comments: u64,
    /// Variations removed (nested ones inside them not counted).
    pub variations: u64,
    /// Glyphs and move marks removed.
    pub nags: u64,
}

/// Removes what `what` names from a record. The record stays writable: a glyph left without
/// its comment or variation between it and a move is joined to that move.
pub fn strip(record: &mut GameRecord, what: Strip) -> Stripped {
    let mut n = Stripped::default();
    if what.comments {
        n.comments += record.header_comments.len() as u64;
        record.header_comments.clear();
    }
    strip_nodes(&mut record.movetext, what, &mut n);
    n
}

fn strip_nodes(nodes: &mut Vec<Node>, what: Strip, n: &mut Stripped) {
    nodes.retain_mut(|node| match node {
        Node::Comment(_) if what.comments => {
            n.comments += 1;
            false
        }
        Node::Variation(_) if what.variations => {
            n.variations += 1;
            false
        }
        Node::Annotation(_) if what.nags => {
            n.nags += 1;
            false
        }
        Node::Move(m) => {
            if what.nags {
                n.nags += m.annotations.len() as u64;
                m.annotations.clear();
            }
            true
        }
        Node::Variation(v) => {
            strip_nodes(&mut v.nodes, what, n);
            true
        }
        _ => true,
    });
    // An annotation now directly after a move would be read back as the move's own.
    let mut i = 1;
    while i < nodes.len() {
        if matches!(nodes[i], Node::Annotation(_)) && matches!(nodes[i - 1], Node::Move(_)) {
            let Node::Annotation(a) = nodes.remove(i) else {
                unreachable!("checked above")
            };
            if let Node::Move(m) = &mut nodes[i - 1] {
                m.annotations.push(a);
            }
        } else {
            i += 1;
        }
    }
    // A variation that lost everything would read as an empty variation: drop it.
    nodes.retain(|node| !matches!(node, Node::Variation(v) if v.nodes.is_empty()));
}

/// Corrects a record by what the replay found (`report`, from the referee over this very
/// record, and `rules`, the game's rules under the record's options; `None` when the game is
/// unknown).
/// Returns one sentence per change; nothing changes where the replay could not tell.
///
/// - `results`: only where the game ended by rule (the replay reached the end of the main
///   line and the rules say the game is over): a result token and a `Result` tag that do not
///   agree with the rules' result are replaced by it (a missing token is added).
/// - `plycount`: `PlyCount` is set to the plies of the main line as written, for games
///   whose game is known.
pub fn fix(
    record: &mut GameRecord,
    report: &GameReport,
    rules: Option<&dyn Explorer>,
    what: Fixes,
) -> Vec<String> {
    let mut notes = Vec::new();
    let Some(rules) = rules.filter(|_| report.game.is_some()) else {
        return notes;
    };
    if what.results {
        fix_result(record, report, rules, &mut notes);
    }
    if what.plycount {
        let plies = report.plies_written.to_string();
        match record.tags.iter_mut().find(|t| t.name == "PlyCount") {
            Some(t) if t.value.trim() == plies => {}
            Some(t) => {
                notes.push(format!("PlyCount {} -> {plies}", t.value));
                t.value = plies;
            }
            None => {
                notes.push(format!("PlyCount {plies} added"));
                record.tags.push(Tag {
                    name: "PlyCount".into(),
                    value: plies,
                    ..Tag::default()
                });
            }
        }
    }
    notes
}

fn fix_result(
    record: &mut GameRecord,
    report: &GameReport,
    rules: &dyn Explorer,
    notes: &mut Vec<String>,
) {
    let Some(terminal) = report.terminal else {
        return;
    };
    if report.plies != report.plies_written {
        return;
    }
    let right = rules.write_result(terminal);
    let agrees = |text: &str| {
        rules
            .parse_result(text.trim())
            .is_some_and(|o| o.agrees_with(terminal))
    };
    match &mut record.result {
        Some(r) if agrees(&r.token) => {}
        Some(r) => {
            notes.push(format!(
                "result {} -> {right} (the game ended by rule)",
                r.token
            ));
            r.token.clone_from(&right);
        }
        None => {
            notes.push(format!("result {right} added (the game ended by rule)"));
            record.result = Some(GameResult {
                token: right.clone(),
                span: Default::default(),
            });
        }
    }
    match record.tags.iter_mut().find(|t| t.name == "Result") {
        Some(t) if agrees(&t.value) => {}
        Some(t) => {
            notes.push(format!("Result tag {} -> {right}", t.value));
            t.value = right;
        }
        None => {
            notes.push(format!("Result tag {right} added"));
            record.tags.push(Tag {
                name: "Result".into(),
                value: right,
                ..Tag::default()
            });
        }
    }
}

/// Every replayed ply of the main line as a JSON array (the report must come from a referee
/// with `Settings::details`): ply number, mover (seat name), the move in the game's standard
/// notation, from, to, captured squares, promotion, the position after the ply in the game's
/// position-string dialect, and for games of chance the throws. [`PliesJson`] writes the
/// same array as it goes, without building it.
pub fn plies_json(report: &GameReport) -> Value {
    serde_json::to_value(PliesJson(report)).unwrap_or_default()
}

/// The plies of [`plies_json`] as a value that serializes one ply at a time, so that the
/// JSON of a long game is written as it is produced rather than built whole in memory.
pub struct PliesJson<'a>(pub &'a GameReport);

/// One ply of [`PliesJson`].
#[derive(serde::Serialize)]
struct PlyJson<'a> {
    ply: u32,
    mover: &'a str,
    #[serde(rename = "move")]
    notation: &'a str,
    from: Option<&'a str>,
    to: Option<&'a str>,
    captured: Captured<'a>,
    promotion: bool,
    position: &'a str,
    #[serde(skip_serializing_if = "<[u8]>::is_empty")]
    throws: &'a [u8],
    #[serde(skip_serializing_if = "Option::is_none")]
    lost_throws: Option<u8>,
}

/// The captured squares of a ply, written as they are read from the report.
struct Captured<'a>(referee::Squares<'a>);

impl serde::Serialize for Captured<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}

impl serde::Serialize for PliesJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let seats = self.0.game.map_or(&[][..], |g| g.seat_names);
        s.collect_seq(self.0.details.iter().map(|d| PlyJson {
            ply: d.ply,
            mover: seats.get(d.mover as usize).copied().unwrap_or("?"),
            notation: d.notation,
            from: d.from,
            to: d.to,
            captured: Captured(d.captured.clone()),
            promotion: d.promotion,
            position: d.position,
            throws: d.throws,
            lost_throws: (!d.throws.is_empty()).then_some(d.lost_throws),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee::{Referee, Settings};

    fn record(text: &str) -> GameRecord {
        let mut all = pdn::read_all(text.as_bytes());
        assert_eq!(all.len(), 1);
        all.remove(0)
    }

    fn report(rec: &GameRecord, details: bool) -> GameReport {
        let settings = Settings {
            details,
            positions: details,
            ..Settings::default()
        };
        rec.accept(&mut Referee::new(games::games(), settings))
    }

    fn tama_rules() -> Box<dyn games::Explorer> {
        let g = games::games();
        g.explorer(g.registry().by_name("tama").unwrap(), &Default::default())
            .unwrap()
    }

    #[test]
    fn lists_are_checked() {
        assert_eq!(
            Strip::parse("comments,nags").unwrap(),
            Strip {
                comments: true,
                variations: false,
                nags: true
            }
        );
        assert!(Strip::parse("comments,moves").is_err());
        assert!(Fixes::parse("plycount").unwrap().plycount);
        assert!(Fixes::parse("").unwrap().is_empty());
        assert!(Fixes::parse("result").is_err());
    }

    #[test]
    fn strip_keeps_the_record_writable() {
        let text = "{before} [Event \"x\"]\n1. c3-c4! {a} $1 f6-f5 (1... b6-b5 {v} (1... a6-a5)) 2. c4-c5 {c} (!?) *";
        let mut rec = record(text);
        let n = strip(
            &mut rec,
            Strip {
                comments: true,
                ..Strip::default()
            },
        );
        assert_eq!(n.comments, 4);
        rec.validate().unwrap();
        let written = rec.to_pdn();
        assert!(!written.contains('{'), "{written}");
        assert!(written.contains("c3-c4! $1"), "{written}");
        let back = pdn::read_all(written.as_bytes());
        assert!(back[0].same_content(&rec), "{written}");

        let mut rec = record(text);
        let n = strip(
            &mut rec,
            Strip {
                variations: true,
                nags: true,
                ..Strip::default()
            },
        );
        assert_eq!((n.variations, n.nags), (1, 3));
        let written = rec.to_pdn();
        assert!(!written.contains(['(', '$', '!']), "{written}");
        assert!(written.contains("{a}"), "{written}");
        rec.validate().unwrap();
    }

    #[test]
    fn plycount_is_added_or_corrected() {
        let mut rec = record("[Variant \"Tama\"]\n1. c3-c4 f6-f5 2. c4-c5 *");
        let r = report(&rec, false);
        let rules = tama_rules();
        let what = Fixes {
            plycount: true,
            ..Fixes::default()
        };
        let notes = fix(&mut rec, &r, Some(&*rules), what);
        assert_eq!(notes, ["PlyCount 3 added"]);
        assert_eq!(rec.tag("PlyCount"), Some("3"));
        rec.tags.last_mut().unwrap().value = "9".into();
        assert_eq!(fix(&mut rec, &r, Some(&*rules), what), ["PlyCount 9 -> 3"]);
        assert!(fix(&mut rec, &r, Some(&*rules), what).is_empty());
        assert!(fix(&mut rec, &r, None, what).is_empty());
    }

    /// A Tama game that ends by rule: White's king on h6 captures Black's last man.
    const OVER: &str = "[Variant \"Tama\"]\n[FEN \"W:WKh6:Bh7\"]\n";

    #[test]
    fn results_change_only_where_the_game_ended_by_rule() {
        let rules = tama_rules();
        let what = Fixes {
            results: true,
            ..Fixes::default()
        };
        // Unfinished by rule: the recorded result stays whatever it is.
        let mut rec = record("[Variant \"Tama\"]\n[Result \"0-1\"]\n1. c3-c4 0-1");
        let r = report(&rec, false);
        assert!(fix(&mut rec, &r, Some(&*rules), what).is_empty());
        let mut rec = record(&format!("{OVER}[Result \"0-1\"]\n1. h6xh8 0-1"));
        let r = report(&rec, false);
        assert!(r.terminal.is_some(), "{:?}", r.diagnostics);
        let notes = fix(&mut rec, &r, Some(&*rules), what);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(rec.result.as_ref().unwrap().token, "1-0");
        assert_eq!(rec.tag("Result"), Some("1-0"));
        assert!(fix(&mut rec, &r, Some(&*rules), what).is_empty());
    }

    #[test]
    fn plies_carry_positions_and_movers() {
        let rec = record("[Variant \"Tama\"]\n1. c3-c4 f6-f5 *");
        let r = report(&rec, true);
        let v = plies_json(&r);
        let plies = v.as_array().unwrap();
        assert_eq!(plies.len(), 2);
        assert_eq!(plies[0]["move"], "c3-c4");
        assert_eq!(plies[0]["from"], "c3");
        assert_eq!(plies[0]["to"], "c4");
        assert_eq!(plies[0]["mover"], "White");
        assert_eq!(plies[1]["mover"], "Black");
        let rules = tama_rules();
        // The position after the last ply reads back as itself.
        let last = plies[1]["position"].as_str().unwrap();
        assert_eq!(rules.position_string(Some(last)).unwrap(), last);
        assert_ne!(plies[0]["position"], plies[1]["position"]);
    }
}
