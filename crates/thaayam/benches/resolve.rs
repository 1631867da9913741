//! Actions validated per second: generated games replayed through `resolve` + `play`, the
//! way the referee does it (rule-17 check included).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use game::Game;
use thaayam::{split_tokens, throw_series, Position, Thaayam, Turn};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A random game: every turn's tokens.
fn generate(g: &Thaayam, start: &Position, seed: u64) -> Vec<Vec<String>> {
    let mut rng = Rng(seed);
    let mut pos = start.clone();
    let mut turns = Vec::new();
    while g.terminal(&pos).is_none() && turns.len() < 2000 {
        let before = pos.clone();
        let seat = pos.to_move();
        let mut turn = Turn {
            seat,
            series: Default::default(),
        };
        loop {
            let throws = throw_series(|| rng.next() as u32);
            let plays = g.plays(&pos, throws.as_slice()).expect("plays");
            let pick = plays[(rng.next() % plays.len() as u64) as usize].clone();
            turn.series.push(pick.series);
            pos = pick.after;
            if pos.to_move() != seat || g.terminal(&pos).is_some() {
                break;
            }
        }
        let text = g.write_turn(&before, &turn, false);
        turns.push(
            split_tokens(&text)
                .into_iter()
                .map(str::to_string)
                .collect(),
        );
    }
    turns
}

/// A game's start and its turns, each as one token buffer with the tokens' ranges in it.
type PackedGame = (Position, Vec<(String, Vec<(usize, usize)>)>);

fn bench(c: &mut Criterion) {
    let g = Thaayam::default();
    let mut games = Vec::new();
    for (i, start) in ["S:S=h4/N=h4", "S:S=h4/W=h4/N=h4/E=h4", "S:S=h4/N=h4/E=h4"]
        .iter()
        .enumerate()
    {
        let start = g.parse_position(start).unwrap();
        for seed in 0..20u64 {
            games.push((start.clone(), generate(&g, &start, seed * 3 + i as u64)));
        }
    }
    let is_action = |t: &str| !(t.starts_with('[') || matches!(t, "S" | "W" | "N" | "E"));
    let actions: u64 = games
        .iter()
        .flat_map(|(_, turns)| turns.iter().flatten())
        .filter(|t| is_action(t))
        .count() as u64;
    let turns: usize = games.iter().map(|(_, t)| t.len()).sum();
    eprintln!("{} games, {turns} turns, {actions} actions", games.len());
    let prepared: Vec<(Position, Vec<Vec<&[u8]>>)> = games
        .iter()
        .map(|(p, turns)| {
            (
                p.clone(),
                turns
                    .iter()
                    .map(|t| t.iter().map(|s| s.as_bytes()).collect())
                    .collect(),
            )
        })
        .collect();
    let mut group = c.benchmark_group("thaayam");
    group.throughput(Throughput::Elements(actions));
    group.bench_function("resolve+play", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (start, turns) in &prepared {
                let mut pos = start.clone();
                for toks in turns {
                    let mv = g.resolve(&pos, toks).expect("legal");
                    g.play(&mut pos, &mv);
                    n += 1;
                }
            }
            n
        })
    });
    // The referee keeps a turn's tokens as slices of one buffer: the same games laid out
    // that way, replayed as `validate` does (resolve + play) and as `stats` does (resolve +
    // facts + play).
    let packed: Vec<PackedGame> = games
        .iter()
        .map(|(p, turns)| (p.clone(), turns.iter().map(|t| pack(t)).collect()))
        .collect();
    group.bench_function("resolve+play, packed tokens", |b| {
        b.iter(|| replay_packed(&g, &packed, false))
    });
    group.bench_function("resolve+facts+play, packed tokens", |b| {
        b.iter(|| replay_packed(&g, &packed, true))
    });
    group.finish();
}

/// A turn's tokens in one buffer, with the span of each.
fn pack(tokens: &[String]) -> (String, Vec<(usize, usize)>) {
    let mut buffer = String::new();
    let mut spans = Vec::with_capacity(tokens.len());
    for t in tokens {
        spans.push((buffer.len(), buffer.len() + t.len()));
        buffer.push_str(t);
    }
    (buffer, spans)
}

/// Replays packed games; with `facts`, gathers each turn's facts too. Returns a checksum.
fn replay_packed(g: &Thaayam, games: &[PackedGame], facts: bool) -> usize {
    let mut sum = 0usize;
    let mut tokens: Vec<&[u8]> = Vec::with_capacity(32);
    for (start, turns) in games {
        let mut pos = start.clone();
        for (buffer, spans) in turns {
            tokens.clear();
            tokens.extend(spans.iter().map(|&(s, e)| &buffer.as_bytes()[s..e]));
            let mv = g.resolve(&pos, &tokens).expect("legal");
            if facts {
                sum += usize::from(g.facts(&pos, &mv).lost_throws);
            }
            g.play(&mut pos, &mv);
            sum += 1;
        }
    }
    sum
}

criterion_group!(benches, bench);
criterion_main!(benches);
