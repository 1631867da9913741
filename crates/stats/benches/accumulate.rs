//! Accumulating and merging statistics: 100,000 synthetic games with plausible per-ply facts
//! (a pool of distinct games, cycled, so that generation is not measured).

#[path = "common/synth.rs"]
mod synth;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use stats::Stats;

const GAMES: usize = 100_000;
const POOL: usize = 4_000;

fn pool() -> Vec<synth::SynthGame> {
    let mut rng = synth::Rng::new(7);
    (0..POOL).map(|_| synth::game(&mut rng)).collect()
}

fn accumulate(c: &mut Criterion) {
    let pool = pool();
    let plies: u64 = pool.iter().map(|g| g.facts.len() as u64).sum();
    eprintln!(
        "pool: {POOL} games, {:.0} replayed plies per game on average",
        plies as f64 / POOL as f64
    );
    let mut group = c.benchmark_group("stats");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES as u64));
    group.bench_function("add 100k games", |b| {
        b.iter(|| {
            let mut s = Stats::default();
            for g in pool.iter().cycle().take(GAMES) {
                s.add(&g.input());
            }
            black_box(s)
        })
    });

    // Eight partial accumulators (as a parallel run would build), merged into one.
    let parts: Vec<Stats> = (0..8)
        .map(|k| {
            let mut s = Stats::default();
            for g in pool.iter().cycle().skip(k * 500).take(GAMES / 8) {
                s.add(&g.input());
            }
            s
        })
        .collect();
    group.throughput(Throughput::Elements(8));
    group.bench_function("merge 8 partial accumulators", |b| {
        b.iter_batched(
            || parts.clone(),
            |parts| {
                let mut all = Stats::default();
                for p in parts {
                    all.merge(p);
                }
                black_box(all)
            },
            BatchSize::LargeInput,
        )
    });
    let mut all = Stats::default();
    for p in parts {
        all.merge(p);
    }
    group.throughput(Throughput::Elements(1));
    group.bench_function("summary of 100k games", |b| {
        b.iter(|| black_box(all.summary()))
    });
    group.finish();
}

criterion_group!(benches, accumulate);
criterion_main!(benches);
