//! The three files are read back with the parquet crate: row counts equal the input, values
//! survive, row groups are bounded, and the chunked export writes the same rows as the
//! sequential one.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use export::convert::{self, export_chunked};
use export::{
    export_inputs, export_inputs_partitioned, export_reader, DiagnosticRow, GameRow, Input,
    ParquetSink, PartitionColumn, PartitionedSink, PlyRow, Recorder, SinkOptions, DIAGNOSTICS_FILE,
    GAMES_FILE, PLIES_FILE,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use referee::{Referee, Settings};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-export-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// All rows of a file as one batch, and its number of row groups.
fn read(dir: &Path, file: &str) -> (RecordBatch, usize) {
    let f = File::open(dir.join(file)).unwrap();
    let b = ParquetRecordBatchReaderBuilder::try_new(f).unwrap();
    let groups = b.metadata().num_row_groups();
    let schema = b.schema().clone();
    let batches: Vec<RecordBatch> = b.build().unwrap().map(Result::unwrap).collect();
    (concat(&schema, &batches), groups)
}

/// The batches of a file as one (arrow-select is already built for the parquet crate).
fn concat(schema: &arrow_schema::SchemaRef, batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(schema, batches).unwrap()
}

fn string(b: &RecordBatch, col: &str, row: usize) -> Option<String> {
    let a = b.column_by_name(col).unwrap().as_string::<i32>();
    (!a.is_null(row)).then(|| a.value(row).to_string())
}

fn u32_col(b: &RecordBatch, col: &str, row: usize) -> Option<u32> {
    let a = b.column_by_name(col).unwrap().as_primitive::<UInt32Type>();
    (!a.is_null(row)).then(|| a.value(row))
}

fn u64_col(b: &RecordBatch, col: &str, row: usize) -> u64 {
    b.column_by_name(col)
        .unwrap()
        .as_primitive::<UInt64Type>()
        .value(row)
}

fn sample_game(i: u64) -> (GameRow, Vec<PlyRow>, Vec<DiagnosticRow>) {
    let mut g = GameRow {
        file: format!("f{}.pdn", i % 3),
        offset: i * 1000,
        index: i + 1,
        variant: i.is_multiple_of(2).then(|| "tama".to_string()),
        recorded_result: Some("1-0".into()),
        rules_result: i.is_multiple_of(4).then(|| "0-1".into()),
        plies_written: i as u32,
        plies_replayed: i as u32 / 2,
        errors: (i % 5) as u32,
        warnings: 1,
        first_error_code: (!i.is_multiple_of(5)).then(|| "illegal-move".into()),
        first_error_ply: (!i.is_multiple_of(5)).then_some(3),
        opening: Some("g3-f4 c6-d5".into()),
        ..GameRow::default()
    };
    g.set_tag("Event", &format!("event {i} é"));
    g.set_tag("Date", "2001.02.03");
    g.set_tag("Custom", "x");
    g.set_tag("Event", "second event goes to the map");
    let plies = (0..i % 4)
        .map(|p| PlyRow {
            ply: p as u32 + 1,
            mover: if p % 2 == 0 { "White" } else { "Black" }.into(),
            notation: Some(format!("m{p}")),
            from: Some("a1".into()),
            to: None,
            captured: (0..p).map(|k| format!("c{k}")).collect(),
            pieces_taken: p as u32,
            promotion: p == 2,
            position_key: u64::MAX - p,
            fen_after: Some("W:Wa1:Bh8".into()),
            throws: vec![p as i32, 8],
            lost_throws: 1,
        })
        .collect();
    let diags = (0..i % 3)
        .map(|k| DiagnosticRow {
            file: g.file.clone(),
            byte: k,
            line: k + 1,
            column: 2,
            code: "bad-tag".into(),
            severity: "error".into(),
            message: format!("message {k}"),
            ply: (k == 1).then_some(4),
            move_number: None,
        })
        .collect();
    (g, plies, diags)
}

#[test]
fn rows_round_trip_and_row_groups_stay_small() {
    let dir = temp_dir("rows");
    let options = SinkOptions {
        row_group_rows: 10,
        batch_rows: 7,
        ..SinkOptions::default()
    };
    let mut sink = ParquetSink::with_options(&dir, options).unwrap();
    let input: Vec<_> = (0..35).map(sample_game).collect();
    for (i, (g, p, d)) in input.iter().enumerate() {
        assert_eq!(sink.push_game(g, p, d).unwrap(), i as u64);
    }
    let counts = sink.finish().unwrap();
    let plies: usize = input.iter().map(|x| x.1.len()).sum();
    let diags: usize = input.iter().map(|x| x.2.len()).sum();
    assert_eq!(counts.games, 35);
    assert_eq!(counts.plies, plies as u64);
    assert_eq!(counts.diagnostics, diags as u64);

    let (games, groups) = read(&dir, GAMES_FILE);
    assert_eq!(games.num_rows(), 35);
    assert_eq!(groups, 4, "35 rows in groups of at most 10");
    for (i, (g, _, _)) in input.iter().enumerate() {
        assert_eq!(u64_col(&games, "game_id", i), i as u64);
        assert_eq!(string(&games, "file", i).as_ref(), Some(&g.file));
        assert_eq!(u64_col(&games, "offset", i), g.offset);
        assert_eq!(u64_col(&games, "index_in_file", i), g.index);
        assert_eq!(string(&games, "variant", i), g.variant);
        assert_eq!(string(&games, "event", i).as_deref(), g.tag("Event"));
        assert_eq!(string(&games, "date", i).as_deref(), Some("2001.02.03"));
        assert_eq!(string(&games, "white", i), None);
        assert_eq!(string(&games, "recorded_result", i), g.recorded_result);
        assert_eq!(string(&games, "rules_result", i), g.rules_result);
        assert_eq!(u32_col(&games, "plies_written", i), Some(g.plies_written));
        assert_eq!(u32_col(&games, "plies_replayed", i), Some(g.plies_replayed));
        assert_eq!(u32_col(&games, "errors", i), Some(g.errors));
        assert_eq!(string(&games, "first_error_code", i), g.first_error_code);
        assert_eq!(u32_col(&games, "first_error_ply", i), g.first_error_ply);
        let map = games.column_by_name("other_tags").unwrap().as_map();
        let entries = map.value(i);
        let keys = entries.column(0).as_string::<i32>();
        let values = entries.column(1).as_string::<i32>();
        let got: Vec<(String, String)> = (0..keys.len())
            .map(|k| (keys.value(k).to_string(), values.value(k).to_string()))
            .collect();
        assert_eq!(got, g.other_tags);
    }

    let (ply_batch, _) = read(&dir, PLIES_FILE);
    assert_eq!(ply_batch.num_rows(), plies);
    let mut r = 0;
    for (i, (_, ps, _)) in input.iter().enumerate() {
        for p in ps {
            assert_eq!(u64_col(&ply_batch, "game_id", r), i as u64);
            assert_eq!(u32_col(&ply_batch, "ply", r), Some(p.ply));
            assert_eq!(string(&ply_batch, "mover", r).as_ref(), Some(&p.mover));
            assert_eq!(string(&ply_batch, "notation", r), p.notation);
            assert_eq!(string(&ply_batch, "to_square", r), p.to);
            let cap = ply_batch
                .column_by_name("captured")
                .unwrap()
                .as_list::<i32>();
            let cap = cap.value(r);
            let cap: Vec<String> = (0..cap.len())
                .map(|k| cap.as_string::<i32>().value(k).to_string())
                .collect();
            assert_eq!(cap, p.captured);
            let th = ply_batch.column_by_name("throws").unwrap().as_list::<i32>();
            let th = th.value(r);
            let th: Vec<i32> = th.as_primitive::<Int32Type>().values().to_vec();
            assert_eq!(th, p.throws);
            let promo = ply_batch.column_by_name("promotion").unwrap().as_boolean();
            assert_eq!(promo.value(r), p.promotion);
            let key = ply_batch.column_by_name("position_key").unwrap();
            let key = key.as_primitive::<arrow_array::types::Int64Type>().value(r);
            assert_eq!(
                key as u64, p.position_key,
                "the key's bits survive as int64"
            );
            r += 1;
        }
    }

    let (diag_batch, _) = read(&dir, DIAGNOSTICS_FILE);
    assert_eq!(diag_batch.num_rows(), diags);
    let mut r = 0;
    for (i, (_, _, ds)) in input.iter().enumerate() {
        for d in ds {
            assert_eq!(u64_col(&diag_batch, "game_id", r), i as u64);
            assert_eq!(u64_col(&diag_batch, "line", r), d.line);
            assert_eq!(string(&diag_batch, "message", r).as_ref(), Some(&d.message));
            assert_eq!(u32_col(&diag_batch, "ply", r), d.ply);
            assert_eq!(u32_col(&diag_batch, "move_number", r), d.move_number);
            r += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn corpus_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in [
        "tama",
        "odnocvetnie",
        "thaayam",
        "defects/tama",
        "defects/syntax",
    ] {
        for e in std::fs::read_dir(Path::new(CORPUS).join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pdn" || x == "gz") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn load(p: &Path) -> Vec<u8> {
    let raw = std::fs::read(p).unwrap();
    if p.extension().is_some_and(|x| x == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        raw
    }
}

#[test]
fn corpus_counts_match_the_referee_and_chunked_equals_sequential() {
    let files = corpus_files();
    let seq = temp_dir("seq");
    let par = temp_dir("par");
    let options = SinkOptions {
        positions: true,
        ..SinkOptions::default()
    };
    let mut a = ParquetSink::with_options(&seq, options).unwrap();
    let mut b = ParquetSink::with_options(&par, options).unwrap();
    let settings = Settings {
        positions: true,
        ..Settings::default()
    };
    // Independent counts: the referee run directly, with pdn::read_all for the game count.
    let (mut games, mut plies, mut diags) = (0u64, 0u64, 0u64);
    for f in &files {
        let bytes = load(f);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        games += pdn::read_all(&bytes).len() as u64;
        let mut reader = pdn::Reader::new(&bytes[..]);
        let mut referee = Referee::new(
            games::games(),
            Settings {
                collect_facts: true,
                ..Settings::default()
            },
        );
        while let Some(r) = reader.read_game(&mut referee).unwrap() {
            plies += r.facts.len() as u64;
            diags += r.diagnostics.len() as u64;
        }
        export_reader(&mut a, games::games(), &name, &bytes[..], &settings).unwrap();
        export_chunked(
            &mut b,
            games::games(),
            &name,
            &bytes[..],
            &settings,
            4096,
            3,
        )
        .unwrap();
    }
    let ca = a.finish().unwrap();
    let cb = b.finish().unwrap();
    assert!(
        games > 3000 && plies > 100_000 && diags > 5,
        "{games} {plies} {diags}"
    );
    assert_eq!((ca.games, ca.plies, ca.diagnostics), (games, plies, diags));
    assert_eq!(ca, cb);
    // Every replayed ply is described: notation and position after it are never null, and a
    // ply lists captured squares exactly when it takes pieces (never more squares than
    // pieces: a square may hold several, as Thaayam's stacks do).
    let (p, _) = read(&seq, PLIES_FILE);
    let notation = p.column_by_name("notation").unwrap();
    let fen = p.column_by_name("fen_after").unwrap();
    assert_eq!((notation.null_count(), fen.null_count()), (0, 0));
    let captured = p.column_by_name("captured").unwrap().as_list::<i32>();
    for r in 0..p.num_rows() {
        let squares = captured.value(r).len() as u32;
        let taken = u32_col(&p, "pieces_taken", r).unwrap();
        assert!(
            squares <= taken && (squares == 0) == (taken == 0),
            "row {r}"
        );
    }
    for file in [GAMES_FILE, PLIES_FILE, DIAGNOSTICS_FILE] {
        let (x, _) = read(&seq, file);
        let (y, _) = read(&par, file);
        assert_eq!(x, y, "{file} differs between sequential and chunked export");
    }
    let _ = std::fs::remove_dir_all(&seq);
    let _ = std::fs::remove_dir_all(&par);
}

/// Plies encoded on the worker threads are cut into row groups like the sink's own, and they
/// land after rows pushed one game at a time: a sequential export of one file followed by a
/// chunked export of another reads back as two sequential exports.
#[test]
fn encoded_plies_keep_the_row_group_limit_and_the_order() {
    let corpus = Path::new(CORPUS);
    let a = load(&corpus.join("tama/tama-random.pdn"));
    let b = load(&corpus.join("odnocvetnie/odnocvetnie-greedy.pdn"));
    let settings = Settings::default();
    let small = SinkOptions {
        row_group_rows: 250,
        batch_rows: 100,
        ..SinkOptions::default()
    };
    let mixed = temp_dir("mixed");
    let mut sink = ParquetSink::with_options(&mixed, small).unwrap();
    export_reader(&mut sink, games::games(), "a", &a[..], &settings).unwrap();
    export_chunked(&mut sink, games::games(), "b", &b[..], &settings, 8192, 2).unwrap();
    let counts = sink.finish().unwrap();

    let plain = temp_dir("plain");
    let mut sink = ParquetSink::create(&plain).unwrap();
    export_reader(&mut sink, games::games(), "a", &a[..], &settings).unwrap();
    export_reader(&mut sink, games::games(), "b", &b[..], &settings).unwrap();
    assert_eq!(sink.finish().unwrap(), counts);
    assert!(counts.plies > 2000, "{counts:?}");

    for file in [GAMES_FILE, PLIES_FILE, DIAGNOSTICS_FILE] {
        let (x, _) = read(&mixed, file);
        let (y, _) = read(&plain, file);
        assert_eq!(x, y, "{file}");
    }
    let f = File::open(mixed.join(PLIES_FILE)).unwrap();
    let meta = ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .metadata()
        .clone();
    let sizes: Vec<i64> = meta.row_groups().iter().map(|g| g.num_rows()).collect();
    assert!(sizes.iter().all(|&n| n > 0 && n <= 250), "{sizes:?}");
    assert!(sizes.iter().filter(|&&n| n == 250).count() > 4, "{sizes:?}");
    assert_eq!(sizes.iter().sum::<i64>() as u64, counts.plies);
    let _ = std::fs::remove_dir_all(&mixed);
    let _ = std::fs::remove_dir_all(&plain);
}

/// The in-memory batches have the schema of the files, with and without position strings,
/// and hold the same rows.
#[test]
fn table_batches_match_the_files() {
    for positions in [false, true] {
        let dir = temp_dir(&format!("batches-{positions}"));
        let options = SinkOptions {
            positions,
            ..SinkOptions::default()
        };
        let mut sink = ParquetSink::with_options(&dir, options).unwrap();
        let mut batches = export::TableBatches::new(positions);
        for i in 0..12 {
            let (g, p, d) = sample_game(i);
            assert_eq!(
                sink.push_game(&g, &p, &d).unwrap(),
                batches.push_game(&g, &p, &d)
            );
        }
        let written = sink.finish().unwrap();
        assert_eq!(batches.pending(), written);
        let got = batches.take().unwrap();
        assert_eq!(batches.pending(), export::Counts::default());
        for (file, batch) in [GAMES_FILE, PLIES_FILE, DIAGNOSTICS_FILE].iter().zip(&got) {
            let (read_back, _) = read(&dir, file);
            assert_eq!(read_back.schema(), batch.schema(), "{file}");
            assert_eq!(&read_back, batch, "{file}");
        }
        let plies = got[1].schema();
        assert_eq!(plies.field_with_name("fen_after").is_ok(), positions);
        assert!(plies.field_with_name("position_key").is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The inputs of the corpus with an unreadable one among them, as a run gives them.
fn inputs_with_a_gap(files: &[(String, Vec<u8>)]) -> Vec<Input<&[u8]>> {
    let mut inputs: Vec<Input<&[u8]>> = files
        .iter()
        .map(|(name, bytes)| Input::Open(name.clone(), &bytes[..]))
        .collect();
    inputs.insert(3, Input::Unreadable("gone.pdn".into(), "not found".into()));
    inputs
}

fn named_corpus() -> Vec<(String, Vec<u8>)> {
    corpus_files()
        .iter()
        .map(|f| (f.to_string_lossy().into_owned(), load(f)))
        .collect()
}

/// Every Parquet file under `dir`, by its path below it, read whole.
fn tables_under(dir: &Path) -> Vec<(PathBuf, RecordBatch)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "parquet") {
                let (batch, _) = read(
                    p.parent().unwrap(),
                    p.file_name().unwrap().to_str().unwrap(),
                );
                out.push((p.strip_prefix(dir).unwrap().to_path_buf(), batch));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A run over many inputs checks small inputs together in batches and cuts large ones into
/// chunks (here 4 KiB, so that batches hold many chunks of one input and inputs run on from
/// one batch into the next; and 4 MiB, so that one batch holds many whole inputs): the rows
/// are those of the inputs exported one by one, an unreadable input is told in its turn and
/// numbers no game.
#[test]
fn many_inputs_in_batches_write_what_the_inputs_one_by_one_write() {
    let files = named_corpus();
    let total: usize = files.iter().map(|(_, b)| b.len()).sum();
    assert!(total > 2 * export::run::BATCH_BYTES, "{total} bytes");
    let settings = Settings::default();
    let one_by_one = temp_dir("one-by-one");
    let mut sink = ParquetSink::create(&one_by_one).unwrap();
    for (name, bytes) in &files {
        export_reader(&mut sink, games::games(), name, &bytes[..], &settings).unwrap();
    }
    let expected = sink.finish().unwrap();
    for chunk in [4096, 4 << 20] {
        let batched = temp_dir(&format!("batched-{chunk}"));
        let mut sink = ParquetSink::create(&batched).unwrap();
        let mut told = Vec::new();
        let inputs = inputs_with_a_gap(&files).into_iter();
        let counts = export_inputs(
            &mut sink,
            games::games(),
            inputs,
            &settings,
            (chunk, 3),
            |n, why| {
                told.push(format!("{n}: {why}"));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(told, ["gone.pdn: not found"]);
        assert_eq!(counts, expected);
        assert_eq!(sink.finish().unwrap(), expected);
        for file in [GAMES_FILE, PLIES_FILE, DIAGNOSTICS_FILE] {
            let (x, _) = read(&one_by_one, file);
            let (y, _) = read(&batched, file);
            assert_eq!(x, y, "{file}, chunks of {chunk} bytes");
        }
        let _ = std::fs::remove_dir_all(&batched);
    }
    let _ = std::fs::remove_dir_all(&one_by_one);
}

/// The same for a partitioned run, against games pushed one at a time with their index
/// counted here.
#[test]
fn a_partitioned_run_over_many_inputs_numbers_each_input_from_one() {
    let files = named_corpus();
    let settings = Settings::default();
    let by = vec![PartitionColumn::Variant];
    let one_by_one = temp_dir("parts-one-by-one");
    let mut sink =
        PartitionedSink::create(&one_by_one, by.clone(), SinkOptions::default()).unwrap();
    for (name, bytes) in &files {
        let mut reader = pdn::Reader::new(&bytes[..]);
        let mut recorder = Recorder::new(games::games(), settings.clone());
        let mut index = 0;
        while let Some(rec) = reader.read_game(&mut recorder).unwrap() {
            index += 1;
            let game = convert::game_row(name, index, rec.offset, &rec);
            let diags = convert::diagnostic_rows(name, &rec, |b| reader.locate(b));
            sink.push_game(&game, &convert::ply_rows(&rec), &diags)
                .unwrap();
        }
    }
    let expected = sink.finish().unwrap();
    assert!(expected.games > 3000, "{expected:?}");
    let want = tables_under(&one_by_one);
    for chunk in [4096, 4 << 20] {
        let batched = temp_dir(&format!("parts-batched-{chunk}"));
        let mut sink =
            PartitionedSink::create(&batched, by.clone(), SinkOptions::default()).unwrap();
        let mut told = 0;
        let inputs = inputs_with_a_gap(&files).into_iter();
        export_inputs_partitioned(
            &mut sink,
            games::games(),
            inputs,
            &settings,
            (chunk, 3),
            |_, _| {
                told += 1;
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(told, 1);
        assert_eq!(sink.finish().unwrap(), expected);
        let got = tables_under(&batched);
        assert_eq!(got.len(), want.len());
        for ((p, x), (q, y)) in want.iter().zip(&got) {
            assert_eq!((p, x), (q, y), "chunks of {chunk} bytes");
        }
        let _ = std::fs::remove_dir_all(&batched);
    }
    let _ = std::fs::remove_dir_all(&one_by_one);
}
