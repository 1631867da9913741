//! Validation throughput: the PDN reader and the referee together, over the shipped corpus
//! (repeated until each input holds at least 10,000 games). Reports plies per second via
//! criterion's element throughput; bytes per second are printed alongside.
//!
//! Run: `cargo bench -p referee --bench validate -- --warm-up-time 1 --measurement-time 5`

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use referee::{Referee, Settings};

const MIN_GAMES: usize = 10_000;

/// The corpus files of one game, concatenated and repeated to at least `MIN_GAMES` games.
fn corpus(game: &str) -> Option<(Vec<u8>, u64, u64)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(game);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".pdn") || name.ends_with(".pdn.gz")
        })
        .collect();
    paths.sort();
    let mut one = Vec::new();
    for p in paths {
        let bytes = std::fs::read(&p).ok()?;
        if p.to_string_lossy().ends_with(".gz") {
            use std::io::Read;
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_end(&mut one)
                .ok()?;
        } else {
            one.extend(bytes);
        }
        one.extend_from_slice(b"\n\n");
    }
    let (games, plies) = count(&one);
    if games == 0 {
        return None;
    }
    let copies = MIN_GAMES.div_ceil(games as usize);
    Some((
        one.repeat(copies),
        games * copies as u64,
        plies * copies as u64,
    ))
}

/// Validates everything and returns (games, plies written, errors).
fn count(bytes: &[u8]) -> (u64, u64) {
    let mut reader = pdn::Reader::new(bytes);
    let mut referee = Referee::new(games::games(), Settings::default());
    let (mut games, mut plies) = (0, 0);
    while let Ok(Some(report)) = reader.read_game(&mut referee) {
        games += 1;
        plies += u64::from(report.plies_written);
    }
    (games, plies)
}

/// Thaayam actions (enter, advance, twins, bear off) among the move tokens.
fn count_actions(bytes: &[u8]) -> u64 {
    struct Actions(u64);
    impl pdn::Visitor for Actions {
        type Output = ();
        fn mov(&mut self, token: &[u8], _span: pdn::Span) -> std::ops::ControlFlow<()> {
            let is_action = token == b"in"
                || token == b"off"
                || (token.len() >= 2 && (token[0] == b'T' || token[0].is_ascii_lowercase()));
            self.0 += u64::from(is_action);
            std::ops::ControlFlow::Continue(())
        }
        fn end_game(&mut self, _span: pdn::Span) {}
    }
    let mut reader = pdn::Reader::new(bytes);
    let mut visitor = Actions(0);
    while let Ok(Some(())) = reader.read_game(&mut visitor) {}
    visitor.0
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("validate");
    for game in [
        "tama",
        "odnocvetnie",
        "thaayam",
        "international",
        "english",
        "russian",
    ] {
        let Some((bytes, games, plies)) = corpus(game) else {
            eprintln!("skipping {game}: corpus/{game} not found");
            continue;
        };
        let actions = if game == "thaayam" {
            count_actions(&bytes)
        } else {
            0
        };
        eprintln!(
            "{game}: {games} games, {plies} plies, {actions} actions, {:.1} MB per iteration",
            bytes.len() as f64 / 1e6
        );
        group.throughput(Throughput::Elements(plies));
        group.bench_function(format!("{game}/plies"), |b| {
            b.iter(|| count(std::hint::black_box(&bytes)))
        });
        if actions > 0 {
            group.throughput(Throughput::Elements(actions));
            group.bench_function(format!("{game}/actions"), |b| {
                b.iter(|| count(std::hint::black_box(&bytes)))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
