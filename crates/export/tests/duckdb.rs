//! Runs every query of `docs/export.md` with DuckDB (Python package) against an export of the
//! shipped corpus, and checks the answers against counts made here from the referee's
//! reports. Skipped with a notice when `python3 -c "import duckdb"` fails.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use export::{export_reader, ParquetSink};
use referee::{Referee, Settings};
use serde_json::Value;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// `(name, sql)` of every ```` ```sql name=... ```` block of the document.
fn documented_queries() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/export.md")).unwrap();
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(name) = line.strip_prefix("```sql name=") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            out.push((name.trim().to_string(), body.join("\n")));
        }
    }
    out
}

fn duckdb_available() -> bool {
    Command::new("python3")
        .args(["-c", "import duckdb"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs the queries in `dir`; each answer as rows of JSON values.
fn run(dir: &Path, queries: &[(String, String)]) -> BTreeMap<String, Vec<Vec<Value>>> {
    let script = r#"
import duckdb, json, sys
queries = json.load(sys.stdin)
out = {}
for name, sql in queries:
    rows = duckdb.sql(sql).fetchall()
    out[name] = [[v if v is None or isinstance(v, (int, float, str, bool)) else str(v) for v in r] for r in rows]
print(json.dumps(out))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    serde_json::to_writer(child.stdin.take().unwrap(), queries).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "duckdb failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn corpus_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let corpus = Path::new(ROOT).join("corpus");
    for sub in [
        "tama",
        "odnocvetnie",
        "thaayam",
        "defects/tama",
        "defects/odnocvetnie",
        "defects/thaayam",
        "defects/syntax",
    ] {
        for e in std::fs::read_dir(corpus.join(sub)).unwrap() {
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

/// Counts made from the referee's reports and the records' tags, without the export crate.
#[derive(Default)]
struct Expected {
    games: u64,
    games_by_variant: BTreeMap<String, u64>,
    clean_by_variant: BTreeMap<String, u64>,
    diagnostics_by_code: BTreeMap<String, u64>,
    captures_by_size: BTreeMap<u64, u64>,
    throws: BTreeMap<i64, u64>,
    promotions: u64,
    openings: BTreeMap<String, u64>,
    dated: u64,
    longest: u64,
    started: u64,
}

fn expected(files: &[PathBuf]) -> Expected {
    let mut e = Expected::default();
    for f in files {
        let bytes = load(f);
        for rec in pdn::read_all(&bytes) {
            let year = rec
                .tag("Date")
                .and_then(|d| d.get(..4)?.parse::<i32>().ok());
            e.dated += u64::from(year.is_some());
        }
        let mut reader = pdn::Reader::new(&bytes[..]);
        let mut referee = Referee::new(
            games::games(),
            Settings {
                collect_facts: true,
                ..Settings::default()
            },
        );
        while let Some(r) = reader.read_game(&mut referee).unwrap() {
            e.games += 1;
            let v = r.game.map_or("null".to_string(), |g| g.id.to_string());
            *e.games_by_variant.entry(v.clone()).or_default() += 1;
            if r.is_clean() {
                *e.clean_by_variant.entry(v).or_default() += 1;
            }
            for d in &r.diagnostics {
                *e.diagnostics_by_code.entry(d.code.to_string()).or_default() += 1;
            }
            for f in &r.facts {
                if f.captures > 0 {
                    *e.captures_by_size.entry(u64::from(f.captures)).or_default() += 1;
                }
                for &t in &f.throws {
                    *e.throws.entry(i64::from(t)).or_default() += 1;
                }
                e.promotions += u64::from(f.promotion);
            }
            if !r.opening.is_empty() {
                *e.openings.entry(r.opening.clone()).or_default() += 1;
            }
            e.longest = e.longest.max(u64::from(r.plies_written));
            e.started += u64::from(r.plies > 0);
        }
    }
    e
}

fn int(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

fn key(v: &Value) -> String {
    v.as_str().unwrap_or("null").to_string()
}

#[test]
fn documented_queries_agree_with_independent_counts() {
    let queries = documented_queries();
    assert!(
        queries.len() >= 12,
        "only {} queries in the doc",
        queries.len()
    );
    if !duckdb_available() {
        eprintln!("skipping: the duckdb Python package is not installed (pip install duckdb)");
        return;
    }
    let files = corpus_files();
    let dir = std::env::temp_dir().join(format!("arbiter-duckdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut sink = ParquetSink::create(&dir).unwrap();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        export_reader(
            &mut sink,
            games::games(),
            &name,
            &load(f)[..],
            &Settings::default(),
        )
        .unwrap();
    }
    sink.finish().unwrap();
    let e = expected(&files);
    let got = run(&dir, &queries);
    assert_eq!(got.len(), queries.len());

    let sum_by = |rows: &[Vec<Value>], k: usize, n: usize| {
        let mut m: BTreeMap<String, u64> = BTreeMap::new();
        for r in rows {
            *m.entry(key(&r[k])).or_default() += int(&r[n]);
        }
        m
    };

    assert_eq!(
        sum_by(&got["results-by-variant"], 0, 2),
        e.games_by_variant,
        "games by variant"
    );
    assert_eq!(sum_by(&got["errors-by-code"], 0, 2), e.diagnostics_by_code);
    let caps: BTreeMap<u64, u64> = {
        let mut m = BTreeMap::new();
        for r in &got["capture-lengths"] {
            *m.entry(int(&r[1])).or_default() += int(&r[2]);
        }
        m
    };
    assert_eq!(caps, e.captures_by_size, "capture lengths");
    let throws: BTreeMap<i64, u64> = got["throw-values"]
        .iter()
        .map(|r| (r[0].as_i64().unwrap(), int(&r[1])))
        .collect();
    assert_eq!(throws, e.throws, "throw values");
    let promotions: u64 = got["promotions-by-seat"].iter().map(|r| int(&r[2])).sum();
    assert_eq!(promotions, e.promotions);
    let top_opening = e.openings.values().max().copied().unwrap_or(0);
    assert_eq!(int(&got["opening-frequencies"][0][2]), top_opening);
    let per_year: u64 = got["games-per-year"].iter().map(|r| int(&r[1])).sum();
    assert_eq!(per_year, e.dated, "games with a year");
    assert_eq!(int(&got["longest-games"][0][4]), e.longest);
    assert_eq!(got["longest-games"].len(), 10);
    let clean: BTreeMap<String, u64> = got["clean-games"]
        .iter()
        .filter(|r| int(&r[1]) > 0)
        .map(|r| (key(&r[0]), int(&r[1])))
        .collect();
    assert_eq!(clean, e.clean_by_variant, "clean games");
    let lengths: u64 = got["length-by-variant"].iter().map(|r| int(&r[1])).sum();
    assert_eq!(
        lengths,
        e.games - e.games_by_variant.get("null").copied().unwrap_or(0)
    );
    let first_errors: u64 = got["first-error-ply"].iter().map(|r| int(&r[3])).sum();
    let unclean: u64 = e.games - e.clean_by_variant.values().sum::<u64>();
    assert_eq!(first_errors, unclean, "games with a first error");
    assert!(
        !got["result-disagreements"].is_empty(),
        "the defects disagree"
    );
    assert!(!got["problems-with-players"].is_empty());
    eprintln!(
        "{} queries checked over {} games, {} diagnostics",
        got.len(),
        e.games,
        e.diagnostics_by_code.values().sum::<u64>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
