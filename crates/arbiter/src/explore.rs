//! `arbiter moves` and `arbiter perft`: look at one position.

use game::{Game, Problem};
use referee::{GameKind, RulesOptions};

/// Why a command could not run: a message for the user (exit code 2).
pub type UsageError = String;

fn start_or_parse<G: Game>(game: &G, position: Option<&str>) -> Result<G::Position, UsageError> {
    let parsed: Result<G::Position, Problem> = match position {
        Some(text) => game.parse_position(text),
        None => game.start_position(&|_| None),
    };
    parsed.map_err(|p| format!("cannot read the position: {}", p.message))
}

/// The lines `arbiter moves` prints: every legal move (or, for Thaayam, every legal complete
/// play of the given throws), sorted.
pub fn moves(
    kind: GameKind,
    rules: &RulesOptions,
    position: Option<&str>,
    throws: Option<&str>,
    numeric: bool,
) -> Result<Vec<String>, UsageError> {
    if kind != GameKind::Thaayam && throws.is_some() {
        return Err("--throws is only for Thaayam".into());
    }
    match kind {
        GameKind::Tama => {
            let game = tama::Tama::DEFAULT.with_ludii(rules.ludii);
            let pos = start_or_parse(&game, position)?;
            Ok(game.move_strings(&pos))
        }
        GameKind::Odnocvetnie => {
            let game = odnocvetnie::Odnocvetnie {
                lock_any_piece: rules.lock_any_piece,
                ..Default::default()
            };
            let pos = start_or_parse(&game, position)?;
            Ok(game.legal_move_texts(&pos, numeric))
        }
        GameKind::Thaayam => {
            let game = thaayam_game(rules);
            let pos = start_or_parse(&game, position)?;
            let throws =
                parse_throws(throws.ok_or("Thaayam needs --throws, e.g. --throws \"1 4 2\"")?)?;
            game.moves(&pos, &throws).map_err(|p| p.message)
        }
    }
}

/// `depth nodes` for every depth from 1 to `depth`.
pub fn perft(
    kind: GameKind,
    rules: &RulesOptions,
    position: Option<&str>,
    depth: u32,
) -> Result<Vec<(u32, u64)>, UsageError> {
    let count: Box<dyn Fn(u32) -> u64> = match kind {
        GameKind::Tama => {
            let game = tama::Tama::DEFAULT.with_ludii(rules.ludii);
            let pos = start_or_parse(&game, position)?;
            Box::new(move |d| game.perft(&pos, d))
        }
        GameKind::Odnocvetnie => {
            let game = odnocvetnie::Odnocvetnie {
                lock_any_piece: rules.lock_any_piece,
                ..Default::default()
            };
            let pos = start_or_parse(&game, position)?;
            Box::new(move |d| game.perft(&pos, d))
        }
        GameKind::Thaayam => {
            return Err("perft counts positions of a game without chance; Thaayam's moves depend on the throws (use `arbiter moves --game thaayam --throws ...`)".into())
        }
    };
    Ok((1..=depth).map(|d| (d, count(d))).collect())
}

fn thaayam_game(rules: &RulesOptions) -> thaayam::Thaayam {
    thaayam::Thaayam {
        options: thaayam::Options {
            ludii: rules.ludii,
            lenient_unused: rules.lenient_unused,
        },
    }
}

/// Reads `"1 4 2"` (spaces or commas) into throw values.
fn parse_throws(text: &str) -> Result<Vec<u8>, UsageError> {
    text.split([' ', ',', '\t'])
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u8>()
                .map_err(|_| format!("`{s}` is not a throw (throws are 1, 2, 3, 4 or 8)"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tama_start_has_22_moves_and_perft_matches_the_crate() {
        let rules = RulesOptions::default();
        let lines = moves(GameKind::Tama, &rules, None, None, false).unwrap();
        assert_eq!(lines.len(), 22);
        assert!(lines.windows(2).all(|w| w[0] <= w[1]));
        let counts = perft(GameKind::Tama, &rules, None, 3).unwrap();
        assert_eq!(counts, [(1, 22), (2, 484), (3, 12_174)]);
    }

    #[test]
    fn odnocvetnie_start_has_seven_captures() {
        let rules = RulesOptions::default();
        let counts = perft(GameKind::Odnocvetnie, &rules, None, 2).unwrap();
        assert_eq!(counts, [(1, 7), (2, 41)]);
        let lines = moves(GameKind::Odnocvetnie, &rules, None, None, true).unwrap();
        assert!(lines.len() >= 7);
        assert!(lines.iter().all(|l| l.contains('x')));
    }

    #[test]
    fn thaayam_needs_throws_and_rejects_perft() {
        let rules = RulesOptions::default();
        assert!(moves(GameKind::Thaayam, &rules, None, None, false).is_err());
        assert!(perft(GameKind::Thaayam, &rules, None, 1).is_err());
        let lines = moves(GameKind::Thaayam, &rules, None, Some("1 4 2"), false).unwrap();
        assert!(!lines.is_empty());
        assert!(lines.iter().all(|l| l.contains("in")), "{lines:?}");
        assert!(moves(GameKind::Thaayam, &rules, None, Some("1 x"), false).is_err());
    }

    #[test]
    fn bad_position_is_a_usage_error() {
        let rules = RulesOptions::default();
        let err = moves(GameKind::Tama, &rules, Some("W:Wz9"), None, false).unwrap_err();
        assert!(err.starts_with("cannot read the position"), "{err}");
    }
}
