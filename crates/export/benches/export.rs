//! Throughput of the Parquet sink (rows/s) and of checking one large input read in chunks on
//! every core (MB/s), against the same input read by one thread and against the whole export
//! of it (checking, describing every ply, encoding and writing the three files).
//!
//! `cargo bench -p export --bench export -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;
use std::io::Read;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use export::convert::rows_of_chunk;
use export::{GameRow, ParquetSink, PlyRow};
use pdn::chunk::{map_ordered, Chunk, Chunker};
use referee::{Referee, Settings};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");

/// The shipped self-play corpus, repeated to about 16 MB.
fn big_input() -> Vec<u8> {
    let mut one = Vec::new();
    for sub in ["tama", "odnocvetnie", "thaayam"] {
        let mut files: Vec<_> = std::fs::read_dir(Path::new(CORPUS).join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for p in files {
            let raw = std::fs::read(&p).unwrap();
            if p.extension().is_some_and(|x| x == "gz") {
                flate2::read::GzDecoder::new(&raw[..])
                    .read_to_end(&mut one)
                    .unwrap();
            } else {
                one.extend_from_slice(&raw);
            }
            one.extend_from_slice(b"\n");
        }
    }
    let mut all = Vec::new();
    while all.len() < 16 << 20 {
        all.extend_from_slice(&one);
    }
    all
}

fn sink(c: &mut Criterion) {
    const GAMES: u64 = 2_000;
    const PLIES: u64 = 60;
    let game = GameRow {
        file: "corpus/tama/tama-mixed.pdn".into(),
        variant: Some("tama".into()),
        recorded_result: Some("1-0".into()),
        plies_written: PLIES as u32,
        plies_replayed: PLIES as u32,
        opening: Some("g3-f4 c6-d5".into()),
        ..GameRow::default()
    };
    let plies: Vec<PlyRow> = (0..PLIES)
        .map(|p| PlyRow {
            ply: p as u32 + 1,
            mover: "White".into(),
            pieces_taken: (p % 3) as u32,
            ..PlyRow::default()
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("arbiter-bench-sink-{}", std::process::id()));
    let mut g = c.benchmark_group("sink");
    g.sample_size(10);
    g.throughput(Throughput::Elements(GAMES * (PLIES + 1)));
    g.bench_function("rows", |b| {
        b.iter(|| {
            let mut s = ParquetSink::create(&dir).unwrap();
            for i in 0..GAMES {
                let mut row = game.clone();
                row.index = i + 1;
                row.offset = i * 1000;
                s.push_game(&row, &plies, &[]).unwrap();
            }
            black_box(s.finish().unwrap())
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn check_games(chunk: &Chunk) -> u64 {
    let mut reader = chunk.reader();
    let mut referee = Referee::new(games::games(), Settings::default());
    let mut n = 0;
    while let Ok(Some(r)) = reader.read_game(&mut referee) {
        n += u64::from(r.plies);
    }
    n
}

fn chunked(c: &mut Criterion) {
    let input = big_input();
    let mut g = c.benchmark_group("check");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.bench_function("one thread", |b| {
        b.iter(|| {
            let whole = Chunk {
                base_offset: 0,
                first_line: 1,
                index: 0,
                bytes: input.clone(),
                cut_before_tags: false,
            };
            black_box(check_games(&whole))
        })
    });
    let threads = rayon::current_num_threads();
    g.bench_function(format!("chunked, {threads} threads"), |b| {
        b.iter(|| {
            let mut plies = 0;
            map_ordered(
                Chunker::with_target(&input[..], 1 << 20),
                2 * threads,
                check_games,
                |n| -> std::io::Result<()> {
                    plies += n;
                    Ok(())
                },
            )
            .unwrap();
            black_box(plies)
        })
    });
    g.bench_function(format!("chunked to rows, {threads} threads"), |b| {
        b.iter(|| {
            let mut games = 0;
            map_ordered(
                Chunker::with_target(&input[..], 1 << 20),
                2 * threads,
                |chunk| rows_of_chunk(games::games(), "bench", chunk, &Settings::default()).len(),
                |n| -> std::io::Result<()> {
                    games += n;
                    Ok(())
                },
            )
            .unwrap();
            black_box(games)
        })
    });
    g.bench_function(
        format!("chunked export to Parquet, {threads} threads"),
        |b| {
            let dir =
                std::env::temp_dir().join(format!("arbiter-bench-export-{}", std::process::id()));
            b.iter(|| {
                let mut sink = ParquetSink::create(&dir).unwrap();
                export::export_chunked(
                    &mut sink,
                    games::games(),
                    "bench",
                    &input[..],
                    &Settings::default(),
                    4 << 20,
                    4,
                )
                .unwrap();
                black_box(sink.finish().unwrap())
            });
            let _ = std::fs::remove_dir_all(&dir);
        },
    );
    g.finish();
}

criterion_group!(benches, sink, chunked);
criterion_main!(benches);
