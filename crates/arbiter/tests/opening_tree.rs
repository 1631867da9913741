//! The report's opening tree on real archives: built from position keys, so move orders that
//! reach one position share it; every game with a start position is counted once per ply it
//! played; and the report is the same whatever the number of threads.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use referee::{GameReport, Referee, Settings};
use stats::{OpeningLine, OpeningTree};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shared(rel: &str) -> Option<PathBuf> {
    let p = root().join("../shared").join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} is absent", p.display());
        None
    }
}

const PLIES: u32 = 10;

/// Every game of the file, replayed with its opening line.
fn replay(path: &Path) -> Vec<GameReport> {
    let settings = Settings {
        collect_facts: true,
        opening_plies: PLIES,
        ..Settings::default()
    };
    let mut referee = Referee::new(games::games(), settings);
    let file = std::fs::File::open(path).expect("the file");
    let mut reader = pdn::Reader::new(file);
    let mut out = Vec::new();
    while let Some(report) = reader.read_game(&mut referee).expect("readable") {
        out.push(report);
    }
    out
}

fn line(g: &GameReport) -> OpeningLine<'_> {
    OpeningLine {
        start: g.line.start,
        plies: &g.line.plies,
        text: &g.line.text,
    }
}

fn tree<'a>(games: impl Iterator<Item = &'a GameReport>) -> OpeningTree {
    let mut t = OpeningTree::default();
    for g in games {
        t.add(&line(g), g.terminal.or(g.recorded));
    }
    t
}

#[test]
fn tinsley_tree_counts_every_game_once_per_ply_in_shared() {
    let Some(path) = shared("corpora/english/tinsley.pdn") else {
        return;
    };
    let games = replay(&path);
    assert!(games.len() > 700, "{} games", games.len());
    let t = tree(games.iter());
    let started = games.iter().filter(|g| g.line.start.is_some()).count() as u64;
    assert_eq!(t.games(), started);
    for d in 0..PLIES as usize {
        let reached = games.iter().filter(|g| g.line.len() > d).count() as u64;
        assert_eq!(t.ply_games(d) + t.pruned(d), reached, "ply {}", d + 1);
        assert_eq!(t.pruned(d), 0);
    }
    let s = t.summary(5, 2).expect("a tree");
    assert_eq!(s.games, started);
    // The first moves shown are the most played ones, as counted from the moves themselves.
    let mut first: HashMap<&str, u64> = HashMap::new();
    for g in &games {
        if !g.line.is_empty() {
            *first.entry(g.line.move_text(0)).or_default() += 1;
        }
    }
    let top = first.values().max().copied().unwrap_or(0);
    assert_eq!(s.moves[0].score.games, top);
    assert_eq!(first[s.moves[0].notation.as_str()], top);
}

#[test]
fn transpositions_merge_in_the_international_archives_in_shared() {
    let Some(dir) = shared("corpora/real/international") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
        .collect();
    files.sort();
    let games: Vec<GameReport> = files.iter().flat_map(|f| replay(f)).collect();
    let intl: Vec<&GameReport> = games
        .iter()
        .filter(|g| g.game.is_some_and(|i| i.id == "international"))
        .collect();
    let t = tree(intl.iter().copied());
    // Positions reached by more than one move order: the tree counts each once, with the
    // games of every order.
    let mut found = 0;
    for d in 1..PLIES as usize {
        let mut by_key: HashMap<u64, Vec<String>> = HashMap::new();
        for g in intl.iter().filter(|g| g.line.len() > d) {
            let path: Vec<&str> = (0..=d).map(|i| g.line.move_text(i)).collect();
            by_key
                .entry(g.line.plies[d].0)
                .or_default()
                .push(path.join(" "));
        }
        for (key, paths) in by_key {
            let (reach, ways) = t.position(d, key);
            assert_eq!(reach.games, paths.len() as u64);
            let mut orders = paths.clone();
            orders.sort();
            orders.dedup();
            if ways > 1 {
                assert!(
                    orders.len() > 1,
                    "two moves into one position need two orders"
                );
                found += 1;
            }
        }
    }
    assert!(found > 0, "the archives hold transpositions");
    // Splitting the games and merging the parts gives the same tree.
    let (a, b) = intl.split_at(intl.len() / 3);
    let mut merged = tree(b.iter().copied());
    merged.merge(&tree(a.iter().copied()));
    assert_eq!(merged, t);
}

#[test]
fn the_report_is_the_same_on_one_thread_and_on_two_in_shared() {
    let Some(dir) = shared("corpora/real") else {
        return;
    };
    let run = |threads: &str| {
        let out =
            std::env::temp_dir().join(format!("arbiter-tree-{threads}-{}", std::process::id()));
        let status = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .env("RAYON_NUM_THREADS", threads)
            .args(["stats", "--tree-plies", "12"])
            .arg(&dir)
            .arg("-o")
            .arg(&out)
            .output()
            .expect("run arbiter");
        assert!(status.status.code().is_some_and(|c| c <= 1), "{status:?}");
        let json = std::fs::read_to_string(out.join("stats.json")).expect("stats.json");
        let _ = std::fs::remove_dir_all(&out);
        json
    };
    let one = run("1");
    assert!(one.contains("\"opening_tree\""));
    assert_eq!(one, run("2"));
}
