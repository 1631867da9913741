//! The client with the real `dame` engine (PyPI `dame-rs`): on positions where there is
//! one right move (a forced capture; a one-move shot that wins a man), dame and arbiter's own
//! search choose the same, and the analysis of a game through dame has a best move and line
//! for every ply. Skipped, with a notice, when `dame` is not installed.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use analysis::{Catalog, Engines, Settings};
use hub::{protocol, EngineCommand, HubMove};
use search::Limits;

/// The `dame` command: in the project's Python environment (`target/pyenv`, where
/// scripts/test-all installs it) or on the PATH.
fn dame() -> Option<String> {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/pyenv/bin/dame");
    let path = std::env::var_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("dame"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    std::iter::once(venv).chain(path).find_map(|c| {
        Command::new(&c)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
            .then(|| c.display().to_string())
    })
}

fn engine() -> Option<EngineCommand> {
    match dame() {
        Some(d) => Some(EngineCommand::new(
            &format!("{d} hub"),
            Duration::from_secs(60),
        )),
        None => {
            eprintln!("skipped: `dame` (pip install dame-rs) is not available");
            None
        }
    }
}

fn variants() -> Vec<(String, &'static game::GameInfo)> {
    hub::variants(games::games().registry(), games::HUB_NAMES)
}

fn international() -> &'static game::GameInfo {
    variants()
        .into_iter()
        .find(|(name, _)| name == hub::DEFAULT_VARIANT)
        .map(|(_, g)| g)
        .expect("the registry has Hub's normal variant")
}

/// dame's move and arbiter's in `fen`, both searched to `depth`.
fn both_choose(command: &EngineCommand, fen: &str, depth: u32) -> (String, game::MoveInfo) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut client = command.start(hub::DEFAULT_VARIANT).expect("dame starts");
    let position = protocol::fen_to_position(fen).unwrap();
    let theirs = client.think(&position, &limits).expect("dame answers");
    let mut ours = games::games()
        .searcher(international(), &game::Options::default(), 4)
        .unwrap();
    let mine = ours.search(Some(fen), &limits).unwrap();
    (
        theirs.best.expect("dame moves"),
        mine.best.expect("arbiter moves").1,
    )
}

#[test]
fn dame_and_arbiter_agree_where_one_move_is_right() {
    let Some(command) = engine() else { return };
    assert_eq!(command.probe().unwrap(), [hub::DEFAULT_VARIANT]);
    // White 33-28 gives a man: Black must take it (22x33, the only legal move) and White
    // then takes two (39x19).
    let cases = [
        ("W:W32,33,39,44:B1,22,23", "33-28"),
        ("B:W28,32,39,44:B1,22,23", "22x33x28"),
        ("W:W32,39,44:B1,23,33", "39x19x33x23"),
    ];
    for (fen, want) in cases {
        let (theirs, mine) = both_choose(&command, fen, 6);
        let wanted = HubMove::parse(want).unwrap();
        assert!(
            wanted.matches(&mine),
            "{fen}: arbiter chose {}",
            mine.notation
        );
        assert_eq!(
            HubMove::parse(&theirs).unwrap(),
            wanted,
            "{fen}: dame chose {theirs}, not {want}"
        );
    }
}

#[test]
fn a_real_game_is_analysed_through_dame() {
    let Some(command) = engine() else { return };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../../shared/corpora/real/international/bruno-1er_Open_International_Allinges_2007.pdn",
    );
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is not there", path.display());
        return;
    };
    let settings = referee::Settings {
        details: true,
        positions: true,
        ..Default::default()
    };
    let mut referee = referee::Referee::new(games::games(), settings);
    let record = pdn::read_all(text.as_bytes()).into_iter().next().unwrap();
    let report = record.accept(&mut referee);
    let info = report.game.expect("International");
    let engines = hub::HubEngines::new(command, variants()).unwrap();
    let analysis::Started::Ready(client) = engines.start(info).unwrap() else {
        panic!("dame plays International");
    };
    let asettings = Settings {
        limits: Limits::nodes(500),
        ..Settings::default()
    };
    let mut analyser = games::games()
        .analyser_with(info, &report.options, asettings, client)
        .unwrap();
    let analysis = analyser.analyse(&report).expect("dame answers throughout");
    assert_eq!(analysis.plies.len() as u32, report.plies);
    assert!(analysis.unanalysed.is_none());
    for p in &analysis.plies {
        let best = p.best.as_deref().expect("a best move");
        assert_eq!(p.line.first().map(String::as_str), Some(best));
        assert!(p.eval_before >= p.eval_after && p.loss >= 0, "{p:?}");
        assert!(p.nodes > 0 && p.depth > 0, "{p:?}");
    }
}
