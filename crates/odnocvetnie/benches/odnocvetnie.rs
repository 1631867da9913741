//! Perft nodes per second and resolve+play plies per second.
//!
//! `cargo bench -p odnocvetnie -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use game::{Game, Notation};
use odnocvetnie::{Odnocvetnie, Position, Side};

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, fen, depth) in [
        ("start-d9", "S:M1-17,20,21,24-27,30,31,34-50", 9),
        ("damki-d6", "N:M7,9,18,20,27,29,38,40,K5,K23:L27", 6),
    ] {
        let pos = Position::parse(fen).unwrap();
        let nodes = pos.perft(depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| black_box(pos.perft(depth))));
    }
    group.finish();
}

/// Random games from the start, as the referee sees them: move tokens, short numeric form.
fn games() -> Vec<(Side, Vec<String>)> {
    let g = Odnocvetnie::default();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let n = Notation {
        numeric: true,
        full_captures: false,
    };
    for i in 0..400u32 {
        let first = Side::from_index(i as u8);
        let mut pos = Position::start_with(first);
        let mut tokens = Vec::new();
        for _ in 0..200 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves[(seed % moves.len() as u64) as usize];
            tokens.push(g.write_move(&pos, &mv, n));
            g.play(&mut pos, &mv);
        }
        out.push((first, tokens));
    }
    out
}

fn replay(c: &mut Criterion) {
    let g = Odnocvetnie::default();
    let games = games();
    let plies: usize = games.iter().map(|g| g.1.len()).sum();
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function("resolve+play", |b| {
        b.iter(|| {
            for (first, tokens) in &games {
                let mut pos = Position::start_with(*first);
                for t in tokens {
                    let mv = g.resolve(&pos, &[t.as_bytes()]).unwrap();
                    g.play(&mut pos, &mv);
                }
                black_box(pos);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, perft, replay);
criterion_main!(benches);
