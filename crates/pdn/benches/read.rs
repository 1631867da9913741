//! Reading throughput over multi-megabyte PDN inputs.
//!
//! `cargo bench -p pdn --bench read -- --warm-up-time 1 --measurement-time 3`
//!
//! Two inputs: the real archives of `/work/shared/corpora` repeated to about 8 MB (when
//! present), and synthetic games made with a fixed seed (always). Each is read with a visitor
//! that only counts (no allocation) and with the `RecordBuilder`.

use std::hint::black_box;
use std::ops::ControlFlow;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pdn::{CommentKind, Reader, RecordBuilder, Span, Visitor};

const TARGET: usize = 8 << 20;
const CORPORA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpora");

/// Counts what it sees.
#[derive(Default)]
struct Count {
    moves: u64,
    other: u64,
}

impl Visitor for Count {
    type Output = ();
    fn tag(&mut self, _: &[u8], _: &[u8], _: Span) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn move_number(&mut self, _: u32, _: bool, _: Span) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn mov(&mut self, token: &[u8], _: Span) -> ControlFlow<()> {
        self.moves += token.len() as u64;
        ControlFlow::Continue(())
    }
    fn comment(&mut self, _: &[u8], _: CommentKind, _: Span) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn result(&mut self, _: &[u8], _: Span) -> ControlFlow<()> {
        self.other += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: Span) {}
}

fn real_input() -> Option<Vec<u8>> {
    let root = Path::new(CORPORA);
    let mut files: Vec<_> = std::fs::read_dir(root.join("pdn-suite/succeed"))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.push(root.join("english/tinsley.pdn"));
    files.sort();
    let mut one = Vec::new();
    for f in files {
        one.extend(std::fs::read(f).ok()?);
        // Files may end without a result; keep their last games apart.
        one.extend_from_slice(b"\n*\n\n");
    }
    let mut all = Vec::with_capacity(TARGET + one.len());
    while all.len() < TARGET {
        all.extend_from_slice(&one);
    }
    Some(all)
}

/// Games that look like tournament games: the seven tags and a few more, 40-80 moves with
/// numbers, some comments, NAGs and a variation now and then.
fn synthetic_input() -> Vec<u8> {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rnd = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut out = String::with_capacity(TARGET + 4096);
    let mut game = 0;
    while out.len() < TARGET {
        game += 1;
        out.push_str(&format!(
            "[Event \"Synthetic open {}\"]\n[Site \"Amsterdam\"]\n[Date \"2024.05.{:02}\"]\n\
             [Round \"{}\"]\n[White \"Player {}\"]\n[Black \"Player {}\"]\n[Result \"2-0\"]\n\
             [GameType \"20\"]\n\n",
            game % 7,
            1 + rnd(28),
            1 + rnd(11),
            rnd(500),
            rnd(500)
        ));
        let plies = 80 + rnd(80);
        for ply in 0..plies {
            if ply % 2 == 0 {
                out.push_str(&format!("{}. ", ply / 2 + 1));
            }
            let from = 1 + rnd(50);
            let to = 1 + rnd(50);
            let sep = if rnd(4) == 0 { 'x' } else { '-' };
            out.push_str(&format!("{from}{sep}{to}"));
            match rnd(40) {
                0 => out.push_str(" {a comment about this move}"),
                1 => out.push_str("! $1"),
                2 => out.push_str(&format!(
                    " ({}-{} {}x{})",
                    1 + rnd(50),
                    1 + rnd(50),
                    1 + rnd(50),
                    1 + rnd(50)
                )),
                _ => {}
            }
            out.push(if ply % 12 == 11 { '\n' } else { ' ' });
        }
        out.push_str("2-0\n\n");
    }
    out.into_bytes()
}

fn count_games(input: &[u8]) -> u64 {
    let mut r = Reader::new(input);
    let mut n = 0;
    while r.read_game(&mut Count::default()).unwrap().is_some() {
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let mut inputs = vec![("synthetic", synthetic_input())];
    if let Some(real) = real_input() {
        inputs.insert(0, ("corpora", real));
    } else {
        eprintln!("skipping the corpora input: {CORPORA} not found");
    }
    let mut group = c.benchmark_group("read");
    for (name, input) in &inputs {
        eprintln!(
            "{name}: {} bytes, {} games",
            input.len(),
            count_games(input)
        );
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function(format!("{name}/count"), |b| {
            b.iter(|| {
                let mut r = Reader::new(black_box(&input[..]));
                let mut v = Count::default();
                while r.read_game(&mut v).unwrap().is_some() {}
                black_box((v.moves, v.other))
            })
        });
        group.bench_function(format!("{name}/records"), |b| {
            b.iter(|| {
                let mut r = Reader::new(black_box(&input[..]));
                let mut v = RecordBuilder::new();
                let mut n = 0;
                while let Some(g) = r.read_game(&mut v).unwrap() {
                    n += g.movetext.len();
                }
                black_box(n)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
