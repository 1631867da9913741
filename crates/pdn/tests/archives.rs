//! Every archive of `/work/shared/corpora` (skipped, with a notice, when absent): each file
//! reads with its true number of games, only real defects are errors, and writing is lossless
//! and settles in one pass.

use std::path::{Path, PathBuf};

use pdn::{GameRecord, Node, Reader, RecordBuilder, Severity};

const CORPORA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpora");

/// Every `.pdn` file under the corpora folder, sorted; `None` (with a notice) when absent.
fn corpus_files() -> Option<Vec<PathBuf>> {
    let root = Path::new(CORPORA);
    if !root.exists() {
        eprintln!("skipping: {} not found", root.display());
        return None;
    }
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable folder") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pdn") {
                files.push(path);
            }
        }
    }
    files.sort();
    Some(files)
}

fn relative(path: &Path) -> String {
    path.strip_prefix(CORPORA)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// The records of `bytes`, and every problem as (line, severity, kind).
fn read(bytes: &[u8]) -> (Vec<GameRecord>, Vec<(u64, Severity, &'static str)>) {
    let mut reader = Reader::new(bytes);
    let mut builder = RecordBuilder::new();
    let (mut games, mut problems) = (Vec::new(), Vec::new());
    while let Some(g) = reader.read_game(&mut builder).expect("a slice cannot fail") {
        for p in &g.problems {
            let line = reader.locate(p.span.start).line;
            problems.push((line, p.severity, p.kind.as_str()));
        }
        games.push(g);
    }
    (games, problems)
}

/// Counts the games of a PDN text the simple way, independently of the reader: brace and line
/// comments and the literal `\r` texts some exporters write are dropped; then every tag pair
/// (`[...]` holding a quoted value, or a line `Name "value"]` that lost its `[`) that follows
/// moves or a result opens a game, and so does a move (a word with a digit) or a result that
/// follows a result. Words without a digit (stray text, `[Empty]`, a lone `-`) count for
/// nothing.
fn count_games(text: &str) -> usize {
    #[derive(PartialEq)]
    enum State {
        /// At the start, or after a result.
        Between,
        Tags,
        Moves,
    }
    const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"];
    let text = text.replace("\\r", " ");
    let (mut games, mut state) = (0, State::Between);
    // What a token does: (whether it opens a game, the state after it).
    let mut step = |opens: bool, next: State, state: &mut State| {
        games += usize::from(opens);
        *state = next;
    };
    let mut rest = text.as_str();
    let mut line_start = true;
    while let Some(c) = rest.chars().next() {
        let skip_to = |rest: &str, end: char| rest.find(end).map_or(rest.len(), |i| i + 1);
        let n = match c {
            '{' => skip_to(rest, '}'),
            ';' => skip_to(rest, '\n'),
            '%' if line_start => skip_to(rest, '\n'),
            '[' => {
                let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
                let end = line.find(']').map_or(line.len(), |i| i + 1);
                if line[..end].matches('"').count() >= 2 {
                    step(state != State::Tags, State::Tags, &mut state);
                }
                end
            }
            c if c.is_whitespace() => c.len_utf8(),
            _ => {
                let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
                let word_len = rest
                    .find(|c: char| c.is_whitespace() || "{[;".contains(c))
                    .unwrap_or(rest.len());
                let word = &rest[..word_len.max(c.len_utf8())];
                let lost_bracket = line_start
                    && c.is_ascii_uppercase()
                    && line.trim_end().ends_with("\"]")
                    && line.contains(" \"");
                if lost_bracket {
                    step(state != State::Tags, State::Tags, &mut state);
                    line.len()
                } else {
                    if RESULTS.contains(&word) {
                        step(state == State::Between, State::Between, &mut state);
                    } else if word.chars().any(|c| c.is_ascii_digit()) {
                        step(state == State::Between, State::Moves, &mut state);
                    }
                    word.len()
                }
            }
        };
        let taken = &rest[..n];
        line_start = taken.ends_with('\n') || (line_start && taken.trim().is_empty());
        rest = &rest[n..];
    }
    games
}

#[test]
fn the_simple_counter_counts_what_it_should() {
    let text = "[Event \"a\"]\\r\n[Site \"\"]\\r\n1. 32-28 {1-0 in a comment} 1-0\n\n\
                [Empty]\n[Event \"b\"]\n*\n% 1. 2. 3.\n1. 33-29 0-1\nWhite \"c\"]\n[Round \"1\"]\n";
    assert_eq!(count_games(text), 4);
}

/// The syntax errors of the archives that must read cleanly (`pdn-suite/succeed`,
/// `english`, `real`), each a real defect of the file, found by reading it: (file, line,
/// kind). All are games whose movetext is followed by the next game's tags without a result.
const KNOWN_DEFECTS: &[(&str, u64, &str)] = &[
    // `[Empty] 1. 32-28 ... 49. 23-18` and the next game's tags on the next line.
    (
        "real/international/bruno-48th_Polish_Team_Championship.pdn",
        146,
        "missing-result",
    ),
    // `... 46.31-27 11-17` and then a blank line and the next game.
    (
        "real/international/bruno-48th_Polish_Team_Championship.pdn",
        170,
        "missing-result",
    ),
    // Three training games that stop after a few moves (`11. 46x37 14-19`, ...).
    (
        "real/international/bruno-BrunoVsScan31.pdn",
        11,
        "missing-result",
    ),
    (
        "real/international/bruno-BrunoVsScan31.pdn",
        134,
        "missing-result",
    ),
    (
        "real/international/bruno-BrunoVsScan31.pdn",
        166,
        "missing-result",
    ),
    // Problem solutions that stop after the last move (`5. 49x40`, ...).
    (
        "real/international/bruno-Partie_avec_FEN1.pdn",
        16,
        "missing-result",
    ),
    (
        "real/international/bruno-Partie_avec_FEN1.pdn",
        32,
        "missing-result",
    ),
    (
        "real/international/bruno-Partie_avec_FEN1.pdn",
        49,
        "missing-result",
    ),
    // `6. 37x17 12x21` and the next game.
    ("real/international/bruno-test.pdn", 10, "missing-result"),
];

#[test]
fn every_archive_reads_with_its_true_number_of_games_and_only_real_defects_in_shared() {
    let Some(files) = corpus_files() else { return };
    let mut checked = 0;
    let mut total = 0;
    let mut defects = Vec::new();
    for path in &files {
        let rel = relative(path);
        let bytes = std::fs::read(path).expect("readable corpus file");
        let (games, problems) = read(&bytes);
        let expected = count_games(&String::from_utf8_lossy(&bytes));
        assert_eq!(games.len(), expected, "{rel}: games");
        total += games.len();
        checked += 1;
        if !rel.starts_with("pdn-suite/fail") {
            for &(line, severity, kind) in &problems {
                if severity == Severity::Error {
                    defects.push((rel.clone(), line, kind));
                }
            }
        }
    }
    let known: Vec<(String, u64, &str)> = KNOWN_DEFECTS
        .iter()
        .map(|&(f, l, k)| (f.to_string(), l, k))
        .collect();
    assert_eq!(defects, known);
    eprintln!("{checked} files, {total} games");
    assert!(checked >= 70, "only {checked} files");
}

/// The quirks of the real archives read as intended (see the corpora README).
#[test]
fn real_archive_quirks_keep_games_whole_in_shared() {
    let Some(_) = corpus_files() else { return };
    let intl = Path::new(CORPORA).join("real/international");
    let file = |name: &str| read(&std::fs::read(intl.join(name)).expect("readable")).0;
    // A literal `\r` after every tag: one game per tag section, the texts kept as comments.
    let games = file("bruno-games6.pdn");
    assert_eq!(games.len(), 11);
    let first = &games[0];
    assert_eq!(first.tag("BlackRating"), Some("1700"));
    assert_eq!(first.result.as_ref().map(|r| r.token.as_str()), Some("*"));
    let kept = first
        .movetext
        .iter()
        .filter(|n| matches!(n, Node::Comment(c) if c.text == "\\r"))
        .count();
    assert_eq!(kept, 18, "one `\\r` after each tag but the first");
    assert!(!first.has_errors());
    // `[Result "-"]` and `-` as the last move: the result.
    let polish = file("bruno-48th_Polish_Team_Championship.pdn");
    let dash = polish
        .iter()
        .find(|g| g.tag("White") == Some("Lukomska, Aleksandra") && g.tag("Round") == Some("2"))
        .expect("the game is there");
    assert_eq!(dash.result.as_ref().map(|r| r.token.as_str()), Some("-"));
    assert!(dash.problems.is_empty(), "{:?}", dash.problems);
    // `58.36x27`: no space after the move number.
    let moves = |g: &GameRecord| {
        g.movetext
            .iter()
            .filter(|n| matches!(n, Node::Move(_)))
            .count()
    };
    assert_eq!(moves(&polish[0]), 119);
    // A tag that lost its `[` starts its game.
    let games = file("bruno-games4.pdn");
    assert!(games
        .iter()
        .any(|g| g.tag("Event").is_some() && g.tag("White") == Some("Overman, Harley")));
}

/// PDN -> PDN -> PDN and PDN -> JSON -> PDN give the bytes of PDN -> PDN, and the first
/// pass keeps every tag, comment, annotation, variation and kept stray text.
#[test]
fn every_archive_is_written_losslessly_in_one_pass_in_shared() {
    let Some(files) = corpus_files() else { return };
    for path in &files {
        let rel = relative(path);
        let bytes = std::fs::read(path).expect("readable corpus file");
        let (games, _) = read(&bytes);
        let text = pdn::write_pdn(&games);
        let (again, _) = read(text.as_bytes());
        assert_eq!(again.len(), games.len(), "{rel}: games after writing");
        for (i, (a, b)) in games.iter().zip(&again).enumerate() {
            let mut a = a.clone();
            if a.result.is_none() && b.result.as_ref().is_some_and(|r| r.token == "*") {
                // The writer ends a game with `*` where the next would otherwise join it.
                a.result.clone_from(&b.result);
            }
            assert!(a.same_content(b), "{rel}: game {i}:\n{a:#?}\n{b:#?}");
        }
        assert_eq!(pdn::write_pdn(&again), text, "{rel}: PDN -> PDN -> PDN");
        let from_json: Vec<GameRecord> = games
            .iter()
            .map(|g| {
                GameRecord::from_json(&g.to_json())
                    .unwrap_or_else(|e| panic!("{rel}: JSON does not read back: {e}\n{g:?}"))
            })
            .collect();
        assert_eq!(from_json, games, "{rel}: JSON");
        assert_eq!(
            pdn::write_pdn(&from_json),
            text,
            "{rel}: PDN -> JSON -> PDN"
        );
    }
}
