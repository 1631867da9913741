//! `analysis.parquet` and `players.parquet` read back with the parquet crate: a row per
//! analysed ply with its values, row groups bounded, the players' figures as the pipeline
//! adds them up, and `game_id` counting every game read (analysed or not).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use analysis::pipeline::{analyse_games, read_game, Analysed, Players};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use export::{AnalysisBatches, AnalysisSink, SinkOptions, ANALYSIS_FILE, PLAYERS_FILE};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use search::Limits;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus");

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-analysis-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The first `n` games of a corpus file, analysed at a few hundred nodes.
fn analysed(rel: &str, n: usize) -> Vec<Analysed> {
    let file = File::open(Path::new(CORPUS).join(rel)).unwrap();
    let mut reader = pdn::Reader::new(BufReader::new(file));
    let games = std::iter::from_fn(|| read_game(&mut reader).transpose()).take(n);
    let settings = referee::Settings {
        details: true,
        positions: true,
        keep_tags: true,
        ..referee::Settings::default()
    };
    let asettings = analysis::Settings {
        limits: Limits::nodes(300),
        ..analysis::Settings::default()
    };
    let mut out = Vec::new();
    analyse_games(games, games::games(), &settings, asettings, &mut |g| {
        out.push(g);
        Ok(())
    })
    .unwrap();
    out
}

fn read(dir: &Path, file: &str) -> (RecordBatch, usize) {
    let f = File::open(dir.join(file)).unwrap();
    let b = ParquetRecordBatchReaderBuilder::try_new(f).unwrap();
    let groups = b.metadata().num_row_groups();
    let schema = b.schema().clone();
    let batches: Vec<RecordBatch> = b.build().unwrap().map(Result::unwrap).collect();
    (
        arrow_select::concat::concat_batches(&schema, &batches).unwrap(),
        groups,
    )
}

#[test]
fn every_analysed_ply_is_a_row_and_the_players_add_up() {
    let games = analysed("international/international-greedy.pdn", 3);
    let dir = temp_dir("rows");
    let options = SinkOptions {
        row_group_rows: 50,
        batch_rows: 16,
        ..SinkOptions::default()
    };
    let mut sink = AnalysisSink::create(&dir, options).unwrap();
    let mut players = Players::default();
    for (i, g) in games.iter().enumerate() {
        assert_eq!(sink.push_game("a.pdn", g).unwrap(), i as u64);
        players.add(g);
    }
    let plies: Vec<_> = games
        .iter()
        .enumerate()
        .flat_map(|(i, g)| g.analysis.plies.iter().map(move |p| (i as u64, p)))
        .collect();
    assert!(plies.len() > 100);
    assert_eq!(sink.finish().unwrap(), plies.len() as u64);

    let (rows, groups) = read(&dir, ANALYSIS_FILE);
    assert_eq!(rows.num_rows(), plies.len());
    assert_eq!(
        groups,
        plies.len().div_ceil(50),
        "row groups of at most 50 rows"
    );
    let col = |name: &str| rows.column_by_name(name).unwrap().clone();
    let ids = col("game_id");
    let (ids, ply) = (ids.as_primitive::<UInt64Type>(), col("ply"));
    let ply = ply.as_primitive::<UInt32Type>();
    let (loss, before) = (col("loss"), col("eval_before"));
    let (loss, before) = (
        loss.as_primitive::<Int32Type>(),
        before.as_primitive::<Int32Type>(),
    );
    let (class, best, line) = (col("class"), col("best"), col("line"));
    let (class, best) = (class.as_string::<i32>(), best.as_string::<i32>());
    let line = line.as_list::<i32>();
    for (r, (game, p)) in plies.iter().enumerate() {
        assert_eq!((ids.value(r), ply.value(r)), (*game, p.ply));
        assert_eq!((loss.value(r), before.value(r)), (p.loss, p.eval_before));
        let got = (!class.is_null(r)).then(|| class.value(r));
        assert_eq!(got, p.class.map(analysis::Class::name));
        assert_eq!(best.value(r), p.best.as_deref().unwrap_or(""));
        assert_eq!(line.value(r).len(), p.line.len());
    }

    let (table, _) = read(&dir, PLAYERS_FILE);
    let names = table.column_by_name("player").unwrap().as_string::<i32>();
    let moves = table.column_by_name("moves").unwrap();
    let moves = moves.as_primitive::<UInt32Type>();
    let accuracy = table.column_by_name("accuracy").unwrap();
    let accuracy = accuracy.as_primitive::<Float64Type>();
    let want: Vec<_> = players.iter().collect();
    assert_eq!(table.num_rows(), want.len());
    for (r, (name, f)) in want.into_iter().enumerate() {
        assert_eq!((names.value(r), moves.value(r)), (name, f.moves));
        assert_eq!(accuracy.value(r), f.accuracy());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn batches_have_the_files_schemas_and_take_a_given_game_id() {
    let games = analysed("international/international-greedy.pdn", 1);
    let dir = temp_dir("schema");
    let mut sink = AnalysisSink::create(&dir, SinkOptions::default()).unwrap();
    sink.push_game("a.pdn", &games[0]).unwrap();
    sink.finish().unwrap();
    let mut batches = AnalysisBatches::default();
    assert_eq!(batches.push_game("a.pdn", &games[0], Some(7)), 7);
    assert_eq!(batches.push_game("a.pdn", &games[0], None), 8);
    let batch = batches.take().unwrap();
    assert_eq!(batch.num_rows(), 2 * games[0].analysis.plies.len());
    let (file, _) = read(&dir, ANALYSIS_FILE);
    assert_eq!(batch.schema().fields(), file.schema().fields());
    let (players, _) = read(&dir, PLAYERS_FILE);
    let mine = batches.players_batch().unwrap();
    assert_eq!(mine.schema().fields(), players.schema().fields());
    let _ = std::fs::remove_dir_all(&dir);
}
