//! `pdn::Reader` against `pgn-reader` (the Rust chess PGN reader) on the same bytes, side by
//! side in one run (issue 36: the PDN reader should take at most half of pgn-reader's time).
//!
//! `cargo bench -p pdn --bench versus_pgn -- --warm-up-time 1 --measurement-time 3`
//!
//! Both readers get the same in-memory input through `std::io::Read` (each copies it into its
//! own buffer) and a visitor that only counts what it is told (no allocation). Two inputs:
//!
//! - *pdn-corpus*: the five board-game folders of the shipped `corpus/` (Tama, Odnocvetnie,
//!   International, English, Russian), concatenated and repeated to at least 8 MB. This is
//!   what arbiter reads. pgn-reader finds the same games and tags, but a draughts move
//!   (`32-28`, `c3-c4`) is no SAN: it skips it as an unknown token without telling its
//!   visitor (and `2-0`, `0-2`, `1-1` are no chess results), so it does less work here than
//!   the PDN reader, which hands every move, move number and result to its visitor. Thaayam
//!   is left out: a line of its movetext may begin with a throw group (`[4 2] c5+2`), which a
//!   PGN reader takes for the tags of a new game (it finds 59 games more in the corpus), so
//!   the two would not read the same records.
//! - *pgn-lichess-twic*: the two 1 MB real chess files that the `pgn-reader` package ships for
//!   its own benchmarks (`lichess_db_1000k.pgn`, 438 online games with clock comments, and
//!   `twic1599_1000k.pgn`, 1,110 master games), repeated to about 8 MB, read from the package's
//!   folder in Cargo's registry (or from `$PGN_READER_BENCHES`); skipped with a notice when it
//!   cannot be found. pgn-reader parses every SAN; the PDN reader has no chess grammar and
//!   reads most SAN tokens as moves or unknown words (reporting the latter as problems).
//!
//! Under load, instruction counts tell more than times: see `main` (`VERSUS_PGN_ONCE`).
//!
//! Before measuring, the game counts of both readers are printed and must agree, so both read
//! the same records.

use std::hint::black_box;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, Criterion, Throughput};

const TARGET: usize = 8 << 20;
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");
const GAMES: [&str; 5] = ["tama", "odnocvetnie", "international", "english", "russian"];

/// What the PDN reader reports, counted.
#[derive(Default, Debug)]
struct PdnCount {
    games: u64,
    tags: u64,
    moves: u64,
    other: u64,
}

impl pdn::Visitor for PdnCount {
    type Output = ();
    fn tag(&mut self, _: &[u8], _: &[u8], _: pdn::Span) -> ControlFlow<()> {
        self.tags += 1;
        ControlFlow::Continue(())
    }
    fn move_number(&mut self, _: u32, _: bool, _: pdn::Span) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn mov(&mut self, _: &[u8], _: pdn::Span) -> ControlFlow<()> {
        self.moves += 1;
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &[u8], _: pdn::CommentKind, _: pdn::Span) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn result(&mut self, _: &[u8], _: pdn::Span) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: pdn::Span) {
        self.games += 1;
    }
}

/// What pgn-reader reports, counted.
#[derive(Default, Debug)]
struct PgnCount {
    games: u64,
    tags: u64,
    moves: u64,
    other: u64,
}

impl pgn_reader::Visitor for PgnCount {
    type Tags = ();
    type Movetext = ();
    type Output = ();
    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn tag(&mut self, _: &mut (), _: &[u8], _: pgn_reader::RawTag<'_>) -> ControlFlow<()> {
        self.tags += 1;
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn san(&mut self, _: &mut (), _: pgn_reader::SanPlus) -> ControlFlow<()> {
        self.moves += 1;
        ControlFlow::Continue(())
    }
    fn nag(&mut self, _: &mut (), _: pgn_reader::Nag) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &mut (), _: pgn_reader::RawComment<'_>) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), pgn_reader::Skip> {
        // Read variations, as the PDN reader does.
        ControlFlow::Continue(pgn_reader::Skip(false))
    }
    fn outcome(&mut self, _: &mut (), _: pgn_reader::Outcome) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: ()) {
        self.games += 1;
    }
}

fn read_pdn(input: &[u8]) -> PdnCount {
    let mut r = pdn::Reader::new(input);
    let mut v = PdnCount::default();
    while r.read_game(&mut v).unwrap().is_some() {}
    v
}

fn read_pgn(input: &[u8]) -> PgnCount {
    let mut r = pgn_reader::Reader::new(input);
    let mut v = PgnCount::default();
    while r.read_game(&mut v).unwrap().is_some() {}
    v
}

fn repeat(one: &[u8]) -> Vec<u8> {
    let mut all = Vec::with_capacity(TARGET + one.len());
    while all.len() < TARGET {
        all.extend_from_slice(one);
    }
    all
}

/// The five board-game folders of the shipped corpus, in order.
fn pdn_corpus() -> Vec<u8> {
    let mut one = Vec::new();
    for game in GAMES {
        let dir = Path::new(CORPUS).join(game);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "pdn") {
                one.extend(std::fs::read(&p).unwrap());
                one.extend_from_slice(b"\n\n");
            }
        }
    }
    repeat(&one)
}

/// The folder of pgn-reader's benchmark files: `$PGN_READER_BENCHES`, else the package's
/// `benches/` in Cargo's registry.
fn pgn_benches() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PGN_READER_BENCHES") {
        return Some(PathBuf::from(dir));
    }
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
    let mut found: Vec<PathBuf> = std::fs::read_dir(home.join("registry/src"))
        .ok()?
        .filter_map(|index| std::fs::read_dir(index.ok()?.path()).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("pgn-reader-0.29."))
        })
        .map(|p| p.join("benches"))
        .filter(|p| p.join("lichess_db_1000k.pgn").is_file())
        .collect();
    found.sort();
    found.pop()
}

fn pgn_input() -> Option<Vec<u8>> {
    let dir = pgn_benches()?;
    let mut one = Vec::new();
    for name in ["lichess_db_1000k.pgn", "twic1599_1000k.pgn"] {
        one.extend(std::fs::read(dir.join(name)).ok()?);
        one.extend_from_slice(b"\n\n");
    }
    Some(repeat(&one))
}

fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let mut inputs = vec![("pdn-corpus", pdn_corpus())];
    match pgn_input() {
        Some(input) => inputs.push(("pgn-lichess-twic", input)),
        None => eprintln!(
            "skipping the chess input: pgn-reader's benches/ not found (set PGN_READER_BENCHES)"
        ),
    }
    inputs
}

fn bench(c: &mut Criterion) {
    let inputs = inputs();
    let mut group = c.benchmark_group("versus_pgn");
    for (name, input) in &inputs {
        let (p, g) = (read_pdn(input), read_pgn(input));
        eprintln!("{name}: {} bytes", input.len());
        eprintln!(
            "  pdn:        {} games, {} tags, {} moves, {} other",
            p.games, p.tags, p.moves, p.other
        );
        eprintln!(
            "  pgn-reader: {} games, {} tags, {} moves (SAN), {} other",
            g.games, g.tags, g.moves, g.other
        );
        assert_eq!(
            p.games, g.games,
            "{name}: the readers disagree on the games"
        );
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function(format!("{name}/pdn"), |b| {
            b.iter(|| {
                let v = read_pdn(black_box(input));
                black_box((v.games, v.moves, v.other))
            })
        });
        group.bench_function(format!("{name}/pgn-reader"), |b| {
            b.iter(|| {
                let v = read_pgn(black_box(input));
                black_box((v.games, v.moves, v.other))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);

/// With `VERSUS_PGN_ONCE=pdn`, `pgn-reader` or `none`, the input named by `VERSUS_PGN_INPUT`
/// (all without it) is read once by that reader (or only made) and nothing is measured: for
/// counting instructions, which do not depend on the machine's load (`valgrind
/// --tool=callgrind` on each reader and on `none`, then subtracting).
fn main() {
    if let Some(which) = std::env::var_os("VERSUS_PGN_ONCE") {
        let only = std::env::var("VERSUS_PGN_INPUT").ok();
        for (name, input) in inputs() {
            if only.as_deref().is_some_and(|o| o != name) {
                continue;
            }
            let input = &input;
            let games = match which.to_str() {
                Some("pdn") => read_pdn(black_box(input)).games,
                Some("pgn-reader") => read_pgn(black_box(input)).games,
                _ => 0,
            };
            eprintln!("{name}: {} bytes, {games} games", input.len());
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
