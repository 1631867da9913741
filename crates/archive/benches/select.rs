//! `select` throughput: a tag-only filter (`--player`) must run at reading speed, a replay
//! filter (`--problems any`) at validation speed.
//!
//! Input: the plain-text self-play files of `corpus/` (Tama and Odnocvetnie Shashki),
//! concatenated and repeated to about 8 MB, read from memory; the selected games are copied
//! to a sink that discards them.

use std::io;
use std::path::Path;

use archive::{Filter, Selector};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn corpus() -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut once = Vec::new();
    for game in ["tama", "odnocvetnie"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(game))
            .expect("corpus/ is part of the repository")
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
            .collect();
        files.sort();
        for f in files {
            once.extend(std::fs::read(f).unwrap());
            once.extend(b"\n\n");
        }
    }
    let mut all = Vec::new();
    while all.len() < 8_000_000 {
        all.extend_from_slice(&once);
    }
    all
}

fn run(selector: &Selector, input: &[u8]) -> u64 {
    let mut sink = io::sink();
    let mut selected = 0;
    selector
        .scan(
            input,
            &mut |v, text| {
                if v.selected {
                    selected += 1;
                    archive::write_game(&mut sink, text, v.open)?;
                }
                Ok(())
            },
            &|_| {},
        )
        .unwrap();
    selected
}

/// A visitor that only counts games: the reader's own speed, for comparison.
struct Count;

impl pdn::Visitor for Count {
    type Output = ();
    fn end_game(&mut self, _span: pdn::Span) {}
}

fn read_only(input: &[u8]) -> u64 {
    let mut reader = pdn::Reader::new(input);
    let mut games = 0;
    while reader.read_game(&mut Count).unwrap().is_some() {
        games += 1;
    }
    games
}

fn bench(c: &mut Criterion) {
    let input = corpus();
    let player = Selector {
        filters: vec![Filter::player("petrosyan").unwrap()],
        ..Selector::default()
    };
    assert!(!player.needs_replay());
    assert!(run(&player, &input) > 0);
    let mut g = c.benchmark_group("select");
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.bench_function("player", |b| b.iter(|| run(&player, &input)));
    g.bench_function("read-only", |b| b.iter(|| read_only(&input)));
    let dated = Selector {
        filters: vec![
            Filter::tag("Site~^G").unwrap(),
            Filter::date_from("2005.01.01").unwrap(),
        ],
        ..Selector::default()
    };
    g.bench_function("tag-regex-and-date", |b| b.iter(|| run(&dated, &input)));
    let problems = Selector {
        filters: vec![Filter::problems("any", &[]).unwrap()],
        ..Selector::default()
    };
    g.sample_size(10);
    g.bench_function("problems", |b| b.iter(|| run(&problems, &input)));
    let dedupe = Selector {
        dedupe: true,
        ..Selector::default()
    };
    g.bench_function("dedupe", |b| b.iter(|| run(&dedupe, &input)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
