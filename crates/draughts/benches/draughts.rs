//! perft and validation (resolve + play of recorded moves) throughput.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use draughts::{Draughts, INTERNATIONAL};
use game::{Game, Notation};

fn perft(c: &mut Criterion) {
    let d = Draughts::new(&INTERNATIONAL);
    let pos = d.start();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(6_483_961));
    g.bench_function("international depth 8", |b| b.iter(|| d.perft(&pos, 8)));
    g.finish();
}

/// A fixed set of games (pseudo-random playouts written in short notation), replayed by
/// resolving each token and playing it.
fn validation(c: &mut Criterion) {
    let d = Draughts::new(&INTERNATIONAL);
    let mut games: Vec<Vec<String>> = Vec::new();
    let mut seed: u64 = 7;
    for _ in 0..50 {
        let mut pos = d.start();
        let mut tokens = Vec::new();
        for _ in 0..120 {
            let moves = d.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves[(seed >> 33) as usize % moves.len()];
            tokens.push(d.write_move(
                &pos,
                &mv,
                Notation {
                    numeric: true,
                    full_captures: false,
                },
            ));
            d.play(&mut pos, &mv);
        }
        games.push(tokens);
    }
    let plies: usize = games.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("validation");
    g.throughput(Throughput::Elements(plies as u64));
    g.bench_function("international resolve+play", |b| {
        b.iter(|| {
            for game in &games {
                let mut pos = d.start();
                for t in game {
                    let mv = d.resolve(&pos, &[t.as_bytes()]).expect("legal");
                    d.play(&mut pos, &mv);
                }
            }
        })
    });
    g.finish();
}

criterion_group!(benches, perft, validation);
criterion_main!(benches);
