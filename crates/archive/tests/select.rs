//! `select` over the shipped corpus and the real archives: each filter against a count made
//! here by other means, and OUT + REST as a partition of the input, game for game and byte
//! for byte.

use std::collections::HashMap;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use archive::{select, Filter, Input, SelectTally, Selector};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `*.pdn` and `*.pdn.gz` under `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.to_string_lossy().to_lowercase();
            if p.is_dir() {
                dirs.push(p);
            } else if name.ends_with(".pdn") || name.ends_with(".pdn.gz") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn bytes(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap();
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut text)
            .unwrap();
        text
    } else {
        raw
    }
}

fn input(path: &Path) -> Input {
    let path = path.to_path_buf();
    Input {
        name: path.display().to_string(),
        open: Box::new(move || {
            let data = bytes(&path);
            Ok(Box::new(io::Cursor::new(data)) as Box<dyn Read + Send>)
        }),
    }
}

/// Runs a selection; returns OUT, REST and the tally.
fn run(selector: &Selector, paths: &[PathBuf]) -> (Vec<u8>, Vec<u8>, SelectTally) {
    let inputs: Vec<Input> = paths.iter().map(|p| input(p)).collect();
    let (mut out, mut rest) = (Vec::new(), Vec::new());
    let spool = std::env::temp_dir();
    let tally = select(
        selector,
        &inputs,
        &mut out,
        Some(&mut rest),
        &spool,
        &|_| {},
        &mut |name, e| panic!("{name}: {e}"),
    )
    .unwrap();
    (out, rest, tally)
}

fn count(selector: &Selector, paths: &[PathBuf]) -> u64 {
    run(selector, paths).2.selected
}

fn only(filter: Filter) -> Selector {
    Selector {
        filters: vec![filter],
        ..Selector::default()
    }
}

/// The games of a text, each as the bytes from its first to its last.
fn games_of(text: &[u8]) -> Vec<Vec<u8>> {
    let mut reader = pdn::Reader::new(text);
    let mut builder = pdn::RecordBuilder::new();
    let mut out = Vec::new();
    while let Some(rec) = reader.read_game(&mut builder).unwrap() {
        let s = reader.source();
        out.push(s.text[(rec.span.start - s.offset) as usize..].to_vec());
    }
    out
}

fn multiset(games: impl IntoIterator<Item = Vec<u8>>) -> HashMap<Vec<u8>, usize> {
    let mut m = HashMap::new();
    for g in games {
        *m.entry(g).or_insert(0) += 1;
    }
    m
}

fn records(paths: &[PathBuf]) -> Vec<pdn::GameRecord> {
    paths
        .iter()
        .flat_map(|p| pdn::read_all(&bytes(p)))
        .collect()
}

fn corpus() -> Vec<PathBuf> {
    files(&root().join("corpus"))
}

fn shared() -> Option<Vec<PathBuf>> {
    let dir = root().join("../shared/corpora");
    if !dir.exists() {
        eprintln!("skipped: {} is absent", dir.display());
        return None;
    }
    Some(files(&dir))
}

/// The files whose every game ends with a result token and has no stray text or malformed
/// tag. A game without a result ends only where the next game's tags begin, so whatever is
/// written after it (a comment before the next game's tags, or everything after an
/// unterminated comment) is read back as part of it; and junk between games (a literal
/// `\r` after a result, an `[Empty]` line) belongs to the game before or after it depending
/// on what surrounds it, which changes when games are regrouped. Such files are checked
/// separately (`open_games_are_counted`): every byte is still in OUT or REST.
fn closed(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    use pdn::SyntaxKind::{BadTag, StrayText};
    paths
        .into_iter()
        .filter(|p| {
            pdn::read_all(&bytes(p)).iter().all(|r| {
                r.result.is_some()
                    && !r
                        .problems
                        .iter()
                        .any(|x| matches!(x.kind, StrayText | BadTag))
            })
        })
        .collect()
}

fn assert_partition(paths: &[PathBuf], selector: &Selector) {
    let (out, rest, tally) = run(selector, paths);
    assert_eq!(tally.open, 0);
    let input: Vec<Vec<u8>> = paths.iter().flat_map(|p| games_of(&bytes(p))).collect();
    let (o, r) = (games_of(&out), games_of(&rest));
    assert_eq!(tally.read, input.len() as u64);
    assert_eq!(o.len() as u64, tally.selected);
    assert_eq!(r.len() as u64, tally.rest);
    assert_eq!(tally.duplicates, 0);
    assert!(
        !o.is_empty() && !r.is_empty(),
        "a partition test needs both sides"
    );
    let both = multiset(o.into_iter().chain(r));
    same_games(&both, &multiset(input));
}

/// Two multisets of games are equal; otherwise says (briefly) what differs.
fn same_games(written: &HashMap<Vec<u8>, usize>, read: &HashMap<Vec<u8>, usize>) {
    let show = |g: &[u8]| {
        let t = String::from_utf8_lossy(g);
        let head: String = t.chars().take(120).collect();
        let tail: String = t
            .chars()
            .rev()
            .take(60)
            .collect::<String>()
            .chars()
            .rev()
            .collect();
        format!("{} bytes: {head:?} ... {tail:?}", g.len())
    };
    let extra: Vec<String> = written
        .iter()
        .filter(|(g, n)| read.get(*g) != Some(n))
        .take(3)
        .map(|(g, n)| format!("{n}x {}", show(g)))
        .collect();
    let missing: Vec<String> = read
        .iter()
        .filter(|(g, n)| written.get(*g) != Some(n))
        .take(3)
        .map(|(g, n)| format!("{n}x {}", show(g)))
        .collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "written but not read: {extra:#?}\nread but not written: {missing:#?}"
    );
}

#[test]
fn out_and_rest_partition_the_corpus() {
    let paths = closed(corpus());
    assert!(
        paths.len() + 8 > corpus().len(),
        "few files hold open games"
    );
    assert_partition(&paths, &only(Filter::player("yan").unwrap()));
    assert_partition(&paths, &only(Filter::problems("any", &["x"]).unwrap()));
}

#[test]
fn out_and_rest_partition_the_real_archives_in_shared() {
    let Some(paths) = shared().map(closed) else {
        return;
    };
    assert!(paths.len() > 30);
    assert_partition(&paths, &only(Filter::tag("Event~(?i)open").unwrap()));
    assert_partition(&paths, &only(Filter::date_from("2000").unwrap()));
    // A filter that replays: the inputs are read in parallel and spooled.
    assert_partition(&paths, &only(Filter::plies("..60").unwrap()));
    // One file on its own goes the sequential way.
    for p in &paths {
        let games = games_of(&bytes(p));
        let (out, rest, tally) = run(&only(Filter::player("a").unwrap()), std::slice::from_ref(p));
        assert_eq!(tally.read, games.len() as u64, "{}", p.display());
        let both = multiset(games_of(&out).into_iter().chain(games_of(&rest)));
        same_games(&both, &multiset(games));
    }
}

#[test]
fn the_corpus_holds_the_games_its_readme_counts() {
    // corpus/README.md: 1,100 games per game, plus the broken records.
    let tally = run(&Selector::default(), &corpus()).2;
    assert_eq!(tally.read, tally.selected);
    let tama = files(&root().join("corpus/tama"));
    assert_eq!(run(&Selector::default(), &tama).2.selected, 1100);
}

#[test]
fn tag_filters_count_what_the_text_says() {
    let paths = corpus();
    // Exact tag values, counted as lines of the files.
    let lines = |needle: &str| -> u64 {
        paths
            .iter()
            .map(|p| {
                String::from_utf8_lossy(&bytes(p))
                    .lines()
                    .filter(|l| l.trim() == needle)
                    .count() as u64
            })
            .sum()
    };
    let goris = lines("[Site \"Goris\"]");
    assert!(goris > 0);
    assert_eq!(
        count(&only(Filter::tag("Site=Goris").unwrap()), &paths),
        goris
    );
    let round1 = lines("[Round \"1\"]");
    assert_eq!(
        count(&only(Filter::tag("Round=1").unwrap()), &paths),
        round1
    );
    // A regular expression: rounds 10 to 19.
    let teens: u64 = (10..20).map(|r| lines(&format!("[Round \"{r}\"]"))).sum();
    assert_eq!(
        count(&only(Filter::tag("Round~^1[0-9]$").unwrap()), &paths),
        teens
    );
    // Two filters: both must hold.
    let both = Selector {
        filters: vec![
            Filter::tag("Site=Goris").unwrap(),
            Filter::tag("Round=1").unwrap(),
        ],
        ..Selector::default()
    };
    let expected = records(&paths)
        .iter()
        .filter(|r| r.tag("Site") == Some("Goris") && r.tag("Round") == Some("1"))
        .count() as u64;
    assert_eq!(count(&both, &paths), expected);
    // --invert: the others.
    let inverted = Selector {
        invert: true,
        ..only(Filter::tag("Site=Goris").unwrap())
    };
    let total = records(&paths).len() as u64;
    assert_eq!(count(&inverted, &paths), total - goris);
}

#[test]
fn player_filter_looks_at_both_sides_and_the_seats() {
    let paths = corpus();
    let recs = records(&paths);
    for name in ["petrosyan", "Hayk", "NOBODY-AT-ALL"] {
        let lower = name.to_lowercase();
        let expected = recs
            .iter()
            .filter(|r| {
                r.tags.iter().any(|t| {
                    ["White", "Black", "South", "West", "North", "East"].contains(&t.name.as_str())
                        && t.value.to_lowercase().contains(&lower)
                })
            })
            .count() as u64;
        assert_eq!(
            count(&only(Filter::player(name).unwrap()), &paths),
            expected,
            "{name}"
        );
    }
}

#[test]
fn date_filters_read_every_date_form_in_shared() {
    let Some(paths) = shared() else { return };
    let recs = records(&paths);
    // Full dates only, in the three forms, counted by hand here.
    let ymd = |t: &str| -> Option<(u32, u32, u32)> {
        let p: Vec<&str> = t.split(['.', '-']).collect();
        if p.len() != 3 || p.iter().any(|x| x.parse::<u32>().is_err()) {
            return None;
        }
        let n: Vec<u32> = p.iter().map(|x| x.parse().unwrap()).collect();
        Some(if p[2].len() == 4 {
            (n[2], n[1], n[0])
        } else {
            (n[0], n[1], n[2])
        })
    };
    let full: Vec<(u32, u32, u32)> = recs
        .iter()
        .filter_map(|r| r.tag("Date").and_then(ymd))
        .collect();
    assert!(full.len() > 100, "{}", full.len());
    let after = full.iter().filter(|d| **d >= (2014, 1, 1)).count() as u64;
    // Games with partial dates in 2014 or later would count too: there must be none for the
    // comparison to hold, which the next line checks.
    let partial_late = recs
        .iter()
        .filter_map(|r| r.tag("Date"))
        .filter(|d| {
            d.contains('?')
                && d.get(..4)
                    .and_then(|y| y.parse::<u32>().ok())
                    .is_some_and(|y| y >= 2014)
        })
        .count() as u64;
    assert_eq!(
        count(&only(Filter::date_from("2014.01.01").unwrap()), &paths),
        after + partial_late
    );
    let dmy = recs
        .iter()
        .filter(|r| {
            r.tag("Date")
                .is_some_and(|d| d.len() == 10 && d.as_bytes()[2] == b'.')
        })
        .count();
    let dashed = recs
        .iter()
        .filter(|r| r.tag("Date").is_some_and(|d| d.contains('-')))
        .count();
    assert!(
        dmy > 0 && dashed > 0,
        "the real archives write DD.MM.YYYY and YYYY-MM-DD"
    );
    let window = Selector {
        filters: vec![
            Filter::date_from("2020-01-01").unwrap(),
            Filter::date_to("31.12.2021").unwrap(),
        ],
        ..Selector::default()
    };
    let in_window = full
        .iter()
        .filter(|d| **d >= (2020, 1, 1) && **d <= (2021, 12, 31))
        .count() as u64;
    assert_eq!(count(&window, &paths), in_window);
}

#[test]
fn game_and_result_filters() {
    let paths = corpus();
    let registry = games::games().registry();
    let tama = registry.by_name("tama").unwrap();
    // corpus/README.md: 1,100 games of each game besides the broken records.
    let played: Vec<PathBuf> = ["tama", "odnocvetnie", "thaayam"]
        .iter()
        .flat_map(|g| files(&root().join("corpus").join(g)))
        .collect();
    assert_eq!(count(&only(Filter::Game(tama)), &played), 1100);
    let thaayam = registry.by_name("thaayam").unwrap();
    assert_eq!(count(&only(Filter::Game(thaayam)), &played), 1100);
    assert!(
        count(&only(Filter::Game(tama)), &paths) > 1100,
        "and some defects"
    );
    // Results as written in the self-play files: White wins are `1-0` there.
    let recs = records(&files(&root().join("corpus/tama")));
    let white = recs
        .iter()
        .filter(|r| r.result.as_ref().is_some_and(|t| t.token == "1-0"))
        .count() as u64;
    let tama_only = files(&root().join("corpus/tama"));
    assert_eq!(
        count(&only(Filter::Result("1-0".into())), &tama_only),
        white
    );
    // `2-0` is the same outcome in Tama's notation.
    assert_eq!(
        count(&only(Filter::Result("2-0".into())), &tama_only),
        white
    );
    // Seat results: South wins in Odnocvetnie, whoever lost.
    let odno = files(&root().join("corpus/odnocvetnie"));
    let south = records(&odno)
        .iter()
        .filter(|r| r.result.as_ref().is_some_and(|t| t.token.starts_with("S+")))
        .count() as u64;
    assert!(south > 0);
    assert_eq!(count(&only(Filter::Result("S+".into())), &odno), south);
}

#[test]
fn replay_filters() {
    // PlyCount tags of the self-play games say how long each main line is.
    let tama = files(&root().join("corpus/tama"));
    let recs = records(&tama);
    let short = recs
        .iter()
        .filter(|r| {
            r.tag("PlyCount")
                .and_then(|p| p.parse::<u32>().ok())
                .is_some_and(|p| (20..=60).contains(&p))
        })
        .count() as u64;
    assert!(short > 0);
    assert_eq!(count(&only(Filter::plies("20..60").unwrap()), &tama), short);
    // The self-play games are clean; the defects each hold the errors stored beside them.
    assert_eq!(
        count(&only(Filter::problems("none", &[]).unwrap()), &tama),
        recs.len() as u64
    );
    let defects = files(&root().join("corpus/defects"));
    let mut broken = std::collections::HashSet::new();
    let mut illegal = std::collections::HashSet::new();
    for p in &defects {
        let expected = std::fs::read_to_string(p.with_extension("expected")).unwrap();
        for line in expected.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let key = (p.clone(), v["game"].as_u64());
            if v["severity"] == "error" {
                broken.insert(key.clone());
            }
            if v["code"] == "illegal-move" {
                illegal.insert(key);
            }
        }
    }
    let known: Vec<&str> = vec!["illegal-move"];
    assert_eq!(
        count(&only(Filter::problems("any", &known).unwrap()), &defects),
        broken.len() as u64
    );
    assert_eq!(
        count(
            &only(Filter::problems("illegal-move", &known).unwrap()),
            &defects
        ),
        illegal.len() as u64
    );
}

#[test]
fn position_filter_finds_games_through_a_position() {
    // The position after 1. c3-c4 is reached by every game that opens with it.
    let tama = files(&root().join("corpus/tama"));
    let recs = records(&tama);
    let first = |r: &pdn::GameRecord| {
        r.movetext.iter().find_map(|n| match n {
            pdn::Node::Move(m) => Some(m.token.clone()),
            _ => None,
        })
    };
    let opening = first(&recs[0]).unwrap();
    let openers = recs
        .iter()
        .filter(|r| first(r).as_deref() == Some(opening.as_str()))
        .count() as u64;
    let g = games::games();
    let e = g
        .explorer(g.registry().by_name("tama").unwrap(), &Default::default())
        .unwrap();
    let text = format!("[Variant \"Tama\"]\n1. {opening} *");
    let rec = &pdn::read_all(text.as_bytes())[0];
    let report = rec.accept(&mut referee::Referee::new(
        g,
        referee::Settings {
            details: true,
            positions: true,
            ..Default::default()
        },
    ));
    let after = report.details.get(0).unwrap().position.to_string();
    assert_eq!(count(&only(Filter::Position(after)), &tama), openers);
    // The start position is reached by every game.
    let start = e.position_string(None).unwrap();
    assert_eq!(
        count(&only(Filter::Position(start)), &tama),
        recs.len() as u64
    );
}

#[test]
fn dedupe_drops_repeated_games_and_keeps_the_first() {
    let tama = root().join("corpus/tama/tama-greedy.pdn");
    let n = records(std::slice::from_ref(&tama)).len() as u64;
    let selector = Selector {
        dedupe: true,
        ..Selector::default()
    };
    // The same file twice (two inputs: the parallel way) and once.
    let (out, _, tally) = run(&selector, &[tama.clone(), tama.clone()]);
    assert_eq!(tally.read, 2 * n);
    let once = run(&selector, std::slice::from_ref(&tama)).2;
    assert_eq!(tally.duplicates, n + once.duplicates);
    assert_eq!(tally.selected, once.selected);
    assert_eq!(out, run(&selector, &[tama]).0);
    // A game that differs only in its tags and comments is a duplicate; one move more is not.
    let text = "[Variant \"Tama\"]\n[White \"a\"]\n1. c3-c4 f6-f5 *\n\n\
                [Variant \"Tama\"]\n[White \"b\"]\n1. c3-c4 {x} f6-f5 1-0\n\n\
                [Variant \"Tama\"]\n1. c3-c4 f6-f5 2. c4-c5 *\n";
    let dir = std::env::temp_dir().join(format!("archive-dedupe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("d.pdn");
    std::fs::write(&file, text).unwrap();
    let (out, rest, tally) = run(&selector, &[file]);
    assert_eq!((tally.read, tally.selected, tally.duplicates), (3, 2, 1));
    let kept = games_of(&out);
    assert!(kept[0].ends_with(b"f6-f5 *"));
    assert!(rest.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn open_games_are_counted_and_kept_byte_for_byte() {
    let syntax = files(&root().join("corpus/defects/syntax"));
    let recs = records(&syntax);
    let open = recs.iter().filter(|r| r.result.is_none()).count() as u64;
    assert!(open > 0);
    let (out, rest, tally) = run(&only(Filter::tag("Round~[02468]$").unwrap()), &syntax);
    assert_eq!(tally.open, open);
    // Every game's bytes are in OUT or REST, even where a reader would join two of them.
    let written = [out, rest].concat();
    for g in syntax.iter().flat_map(|p| games_of(&bytes(p))) {
        assert!(
            written.windows(g.len()).any(|w| w == g.as_slice()),
            "{}",
            String::from_utf8_lossy(&g)
        );
    }
}

#[test]
fn dedupe_reads_the_start_position_not_its_spelling() {
    let text = "[Variant \"Tama\"]\n[FEN \"W:WKa1:Bg8,h8\"]\n1. a1-a2 *\n\n\
                [Variant \"Tama\"]\n[FEN \"W:Bh8,g8:WKa1\"]\n1. a1-a2 *\n\n\
                [Variant \"Tama\"]\n[FEN \"W:WKa1:Bf8,h8\"]\n1. a1-a2 *\n";
    let dir = std::env::temp_dir().join(format!("archive-fen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("f.pdn");
    std::fs::write(&file, text).unwrap();
    let selector = Selector {
        dedupe: true,
        ..Selector::default()
    };
    let tally = run(&selector, &[file]).2;
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!((tally.selected, tally.duplicates), (2, 1));
}

#[test]
fn tag_filters_and_replay_filters_combine() {
    // Games that fail a tag filter are not replayed; the others still are.
    let tama = files(&root().join("corpus/tama"));
    let recs = records(&tama);
    let plies = |r: &pdn::GameRecord| r.tag("PlyCount").and_then(|p| p.parse::<u32>().ok());
    let expected = recs
        .iter()
        .filter(|r| r.tag("Site") == Some("Goris") && plies(r).is_some_and(|p| p <= 150))
        .count() as u64;
    let both = Selector {
        filters: vec![
            Filter::tag("Site=Goris").unwrap(),
            Filter::plies("..150").unwrap(),
        ],
        ..Selector::default()
    };
    assert!(expected > 0);
    assert_eq!(count(&both, &tama), expected);
    // Inverted: the games failing either filter.
    let inverted = Selector {
        invert: true,
        ..both.clone()
    };
    assert_eq!(count(&inverted, &tama), recs.len() as u64 - expected);
    // With --dedupe, the same file twice: the second copy of each selected game is dropped.
    let file = root().join("corpus/tama/tama-greedy.pdn");
    let goris = records(std::slice::from_ref(&file))
        .iter()
        .filter(|r| r.tag("Site") == Some("Goris"))
        .count() as u64;
    let dedupe = Selector {
        filters: vec![Filter::tag("Site=Goris").unwrap()],
        dedupe: true,
        ..Selector::default()
    };
    let twice = run(&dedupe, &[file.clone(), file.clone()]).2;
    let once = run(&dedupe, &[file]).2;
    assert_eq!(once.selected + once.duplicates, goris);
    assert_eq!(twice.selected, once.selected);
    assert_eq!(twice.duplicates, goris + once.duplicates);
}
