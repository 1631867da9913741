//! Real files with a few bytes changed go through the whole pipeline without a panic: read
//! (records and the referee's reports), identify, replay with every setting on, write the
//! error-free records and replay them again. The mutations (flipped bits, inserted and deleted
//! bytes, multi-byte characters, copied spans) come from a seeded generator, so a failure
//! names a case that can be replayed. Skipped, with a notice, where the shared corpora are
//! absent.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use pdn::{Reader, RecordBuilder};
use referee::{BoardAt, GameInfo, Referee, Rewrite, Settings};

/// Runs (file windows, each mutated) per test run.
const CASES: usize = 800;
/// The largest window of a file one case reads.
const WINDOW: usize = 4 * 1024;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces of text that mutations insert: multi-byte characters, separators and the
/// characters positions and moves are made of.
const INSERTS: &[&str] = &[
    "ü", "é", "×", "–", "—", "\u{feff}", "\0", "\r", "\n", ":", ",", "-", "x", "K", "W", "B", "[",
    "]", "\"", "{", "}", "(", ")", "/", "+", "~", "0", "9", "50", "a1", "T",
];

/// Mutates `bytes`, within its first `focus` bytes.
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>, focus: usize) {
    for _ in 0..1 + rng.below(6) {
        let mut at = rng.below(bytes.len().min(focus) + 1);
        // Often right after a separator of fields, squares or moves, where parsers split.
        if rng.below(2) == 0 {
            let seps = |b: &u8| matches!(b, b':' | b',' | b'"' | b' ' | b'-' | b'x' | b'.');
            if let Some(i) = bytes[at..].iter().position(seps) {
                at += i + 1;
            }
        }
        match rng.below(6) {
            0 | 1 => {
                let piece = INSERTS[rng.below(INSERTS.len())].as_bytes();
                bytes.splice(at..at, piece.iter().copied());
            }
            2 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            3 if at < bytes.len() => {
                bytes.remove(at);
            }
            4 if at < bytes.len() => bytes[at] = rng.next() as u8,
            _ => {
                // A short span copied elsewhere.
                let from = rng.below(bytes.len());
                let len = rng.below(24).min(bytes.len() - from.min(bytes.len()));
                let span: Vec<u8> = bytes[from..from + len].to_vec();
                bytes.splice(at..at, span);
            }
        }
    }
}

/// Where `needle` starts in `hay`.
fn memchr_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    hay.windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect()
}

fn settings(game: Option<&'static GameInfo>) -> Settings {
    Settings {
        game,
        collect_facts: true,
        rewrite: Some(Rewrite::default()),
        snapshots: true,
        board_at: Some(BoardAt::End),
        details: true,
        keep_tags: true,
        ..Settings::default()
    }
}

/// The whole pipeline on one input, the game named by the tags or forced (`--game`); returns
/// the number of games replayed.
fn pipeline(bytes: &[u8], game: Option<&'static GameInfo>) -> usize {
    let catalog = games::games();
    let mut referee = Referee::new(catalog, settings(game));
    let mut reader = Reader::new(bytes);
    let mut games = 0;
    while let Ok(Some(_report)) = reader.read_game(&mut referee) {
        games += 1;
    }
    let mut reader = Reader::new(bytes);
    let mut builder = RecordBuilder::new();
    while let Ok(Some(record)) = reader.read_game(&mut builder) {
        if record.has_errors() || record.is_empty() {
            continue;
        }
        let written = record.to_pdn();
        let mut again = Referee::new(catalog, settings(game));
        let mut reader = Reader::new(written.as_bytes());
        while let Ok(Some(_)) = reader.read_game(&mut again) {}
    }
    games
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p
            .extension()
            .is_some_and(|e| e == "pdn" || e == "trl" || e == "txt")
        {
            out.push(p);
        }
    }
}

#[test]
fn mutated_real_files_never_panic_in_shared() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora");
    if !root.is_dir() {
        eprintln!("skipping: {} is absent", root.display());
        return;
    }
    let mut paths = Vec::new();
    files(&root, &mut paths);
    let texts: Vec<(PathBuf, Vec<u8>)> = paths
        .into_iter()
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .filter(|(_, b)| !b.is_empty())
        .collect();
    assert!(!texts.is_empty());
    let mut rng = Rng(0x00c0_ffee_d00d_2025);
    let (mut games, mut panics) = (0, Vec::new());
    // Quiet panic messages: each one is reported below with its case.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for case in 0..CASES {
        let (path, text) = &texts[rng.below(texts.len())];
        // Every other case changes a position tag (`[FEN "..."]`) where the file has some:
        // positions are where the games' own parsers read the most text.
        let fens: Vec<usize> = memchr_all(text, b"[FEN ");
        let (start, focus) = if !fens.is_empty() && rng.below(2) == 0 {
            (fens[rng.below(fens.len())], 80)
        } else {
            (rng.below(text.len().saturating_sub(WINDOW) + 1), WINDOW)
        };
        let mut bytes = text[start..(start + WINDOW).min(text.len())].to_vec();
        mutate(&mut rng, &mut bytes, focus);
        // The game of the file's folder, when the folder is named after one (`real/frisian`),
        // forced as `--game` does: most tournament files carry no tag naming their game.
        let folder = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str());
        let game = folder.and_then(|n| games::games().registry().by_name(n));
        let run = || pipeline(&bytes, None) + game.map_or(0, |g| pipeline(&bytes, Some(g)));
        match catch_unwind(AssertUnwindSafe(run)) {
            Ok(n) => games += n,
            Err(e) => {
                let what = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panics.push(format!("case {case} ({}): {what}", path.display()));
            }
        }
    }
    std::panic::set_hook(hook);
    eprintln!(
        "{CASES} mutated windows of {} files, {games} games replayed, {} panics",
        texts.len(),
        panics.len()
    );
    assert!(games > CASES, "only {games} games replayed");
    assert!(panics.is_empty(), "{}", panics.join("\n"));
}

/// The case found on mutated real files: a FEN field that starts with a multi-byte character.
#[test]
fn a_position_field_starting_with_a_wide_character_is_an_error_not_a_panic() {
    let text =
        "[GameType \"20\"]\n[FEN \"W:W46,47,48,49,50:\u{fc}46,47,48,49,50\"]\n\n1. 46-41 *\n";
    assert_eq!(pipeline(text.as_bytes(), None), 1);
    let mut referee = Referee::new(games::games(), settings(None));
    let report = Reader::new(text.as_bytes())
        .read_game(&mut referee)
        .expect("a slice")
        .expect("one game");
    assert!(
        report.diagnostics.iter().any(|d| d.code == "bad-fen"),
        "{:?}",
        report.diagnostics
    );
}
