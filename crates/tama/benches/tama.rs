//! Benchmarks: perft throughput (leaf nodes per second) and resolve+play throughput (plies
//! per second) over recorded random playouts, as the referee replays them.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use game::{Game, Notation};
use tama::{MoveList, Position, Tama};

fn perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    let cases = [
        ("start-5", Position::start(), 5u32),
        (
            "kings-4",
            Position::from_fen("W:Wc2,d2,e2,f2,h2,b3,c3,d3,e3,h3,d4,e4:BKa1,Kg1,e5,h5,a6,c6,d6,e6,f6,h6,a7,b7,c7,d7,f7,g7")
                .unwrap(),
            4,
        ),
    ];
    for (name, pos, depth) in cases {
        let nodes = Tama::DEFAULT.perft(&pos, depth);
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(name, |b| {
            b.iter(|| Tama::DEFAULT.perft(black_box(&pos), depth))
        });
    }
    g.finish();
}

/// Random playouts, each recorded as move tokens in the given notation.
fn playouts(games: usize, notation: Notation) -> Vec<Vec<String>> {
    let rules = Tama::DEFAULT;
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut list = MoveList::new();
    (0..games)
        .map(|_| {
            let mut pos = Position::start();
            let mut tokens = Vec::new();
            for _ in 0..300 {
                rules.legal_moves_distinct(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = list[(seed % list.len() as u64) as usize];
                tokens.push(rules.write_move(&pos, &m, notation));
                pos.play(&m);
            }
            tokens
        })
        .collect()
}

fn resolve_play(c: &mut Criterion) {
    let rules = Tama::DEFAULT;
    let mut g = c.benchmark_group("resolve+play");
    for (name, notation) in [
        ("short", Notation::default()),
        (
            "full-numeric",
            Notation {
                numeric: true,
                full_captures: true,
            },
        ),
    ] {
        let games = playouts(200, notation);
        let plies: usize = games.iter().map(Vec::len).sum();
        g.throughput(Throughput::Elements(plies as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                for game in &games {
                    let mut pos = Position::start();
                    for t in game {
                        let mv = rules.resolve(&pos, &[t.as_bytes()]).expect("legal");
                        rules.play(&mut pos, &mv);
                    }
                    black_box(&pos);
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, perft, resolve_play);
criterion_main!(benches);
