//! The analysis with an external engine (an [`External`] in process here): its moves are
//! found among the legal ones, its scores (for the side to move) turned to the mover's view,
//! its failures stop the game's analysis with the engine named.

use analysis::{Answer, Catalog, EngineError, External, Settings};
use game::MoveInfo;
use referee::Referee;
use search::Limits;

/// Plays the first legal move of every position and says the side to move is half a man
/// ahead; after `fail_after` searches it fails.
struct FirstMove {
    game: &'static game::GameInfo,
    searches: u32,
    fail_after: u32,
}

impl External for FirstMove {
    fn name(&self) -> &str {
        "first-move"
    }

    fn search(&mut self, fen: &str, _limits: &Limits) -> Result<Answer, EngineError> {
        self.searches += 1;
        if self.searches > self.fail_after {
            return Err(EngineError {
                engine: self.name().into(),
                what: "ended".into(),
            });
        }
        let explorer = games::games()
            .explorer(self.game, &game::Options::default())
            .unwrap();
        let moves = explorer.moves(Some(fen), &[], None).unwrap();
        let first = moves[0].notation.clone();
        Ok(Answer {
            best: Some(first.clone()),
            line: vec![first],
            score: 50,
            decided_in: None,
            depth: 1,
            nodes: 1,
        })
    }

    fn same_move(&self, text: &str, info: &MoveInfo) -> bool {
        text == info.notation
    }
}

fn report() -> referee::GameReport {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/international/international-search.pdn"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let settings = referee::Settings {
        details: true,
        positions: true,
        ..Default::default()
    };
    let mut referee = Referee::new(games::games(), settings);
    let record = pdn::read_all(text.as_bytes()).into_iter().next().unwrap();
    record.accept(&mut referee)
}

fn settings() -> Settings {
    Settings {
        limits: Limits::nodes(10),
        hash_mb: 1,
        shot_nodes: 100,
    }
}

#[test]
fn moves_are_matched_and_scores_seen_from_the_mover() {
    let report = report();
    let info = report.game.unwrap();
    let engine = FirstMove {
        game: info,
        searches: 0,
        fail_after: u32::MAX,
    };
    let mut a = games::games()
        .analyser_with(info, &report.options, settings(), Box::new(engine))
        .unwrap();
    let analysis = a.analyse(&report).unwrap();
    assert_eq!(analysis.plies.len() as u32, report.plies);
    let (mut agreed, mut other) = (0, 0);
    for p in &analysis.plies {
        assert_eq!(p.line.first(), p.best.as_ref(), "{p:?}");
        if p.agreed {
            // The engine's own move: its score for the side to move, who is the mover.
            assert_eq!((p.eval_before, p.eval_after), (50, 50), "{p:?}");
            agreed += 1;
        } else {
            // Both moves searched after they are played: the opponent to move is half a man
            // ahead, so the mover is half a man behind.
            assert_eq!(
                (p.eval_before, p.eval_after, p.loss),
                (-50, -50, 0),
                "{p:?}"
            );
            other += 1;
        }
    }
    assert!(agreed > 0 && other > 0, "{agreed} agreed, {other} not");
}

#[test]
fn a_failing_engine_stops_the_game_with_its_name() {
    let report = report();
    let info = report.game.unwrap();
    let engine = FirstMove {
        game: info,
        searches: 0,
        fail_after: 5,
    };
    let mut a = games::games()
        .analyser_with(info, &report.options, settings(), Box::new(engine))
        .unwrap();
    let e = a.analyse(&report).unwrap_err();
    assert_eq!(e.to_string(), "engine `first-move`: ended");
}
