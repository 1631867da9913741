//! The game viewer's data, read back from the pages `validate --report` and `view` write: every
//! diagnostic of the run is in the page, and every position the page stores rebuilds (from
//! its chain of changes) to the string `convert --to json --positions` writes for that ply.
//! The same pages are driven in a real browser by `crates/report/tests/browser`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn arbiter(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run arbiter");
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        out.status.code().unwrap_or(-1),
    )
}

fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-view-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The JSON the page embeds.
fn page_data(page: &Path) -> Value {
    let html = std::fs::read_to_string(page).expect("the page");
    let start =
        html.find("id=\"viewer-data\">").expect("the viewer's data") + "id=\"viewer-data\">".len();
    let end = start + html[start..].find("</script>").expect("closed");
    serde_json::from_str(&html[start..end]).expect("valid JSON")
}

/// What the page's script does: undo the escapes of a packed item.
fn unescape(s: &str) -> String {
    s.replace("%7C", "|")
        .replace("%7E", "~")
        .replace("%25", "%")
}

/// What the page's script does: apply one script (`=n` keep, `-n` skip, `+i` insert
/// dictionary item i, base 36) to a list of items.
fn patch(old: &[String], script: &str, dict: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0usize;
    let mut rest = script;
    while let Some(sign) = rest.chars().next() {
        let end = rest[1..]
            .find(['=', '-', '+'])
            .map_or(rest.len(), |k| k + 1);
        let n = usize::from_str_radix(&rest[1..end], 36).expect("a base-36 number");
        rest = &rest[end..];
        match sign {
            '=' => {
                out.extend_from_slice(&old[i..i + n]);
                i += n;
            }
            '-' => i += n,
            _ => out.push(dict[n].clone()),
        }
    }
    out.extend_from_slice(&old[i..]);
    out
}

/// The packed parts of a game of the page: dictionary, steps, moves.
fn parts(game: &Value) -> Option<(Vec<String>, String, Vec<String>)> {
    let z = game["z"].as_str()?;
    let p: Vec<&str> = z.split('~').collect();
    assert_eq!(p.len(), 3, "three parts");
    let list = |s: &str| -> Vec<String> {
        if s.is_empty() {
            Vec::new()
        } else {
            s.split('|').map(unescape).collect()
        }
    };
    Some((list(p[0]), p[1].to_string(), list(p[2])))
}

/// Every position string of a game of the page, from the start.
fn fens(game: &Value) -> Vec<String> {
    let Some((dict, steps, _)) = parts(game) else {
        return Vec::new();
    };
    let mut fen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for step in steps.split(' ') {
        let (f, _) = step.split_once('/').expect("two scripts");
        fen = patch(&fen, f, &dict);
        out.push(fen.concat());
    }
    out
}

/// The moves of a game of the page.
fn moves(game: &Value) -> Vec<String> {
    parts(game).map(|p| p.2).unwrap_or_default()
}

/// The positions `convert --positions` writes for every game of `file`.
fn converted(file: &str) -> Vec<Vec<String>> {
    let (text, _) = arbiter(&["convert", file, "--to", "json", "--positions"]);
    text.lines()
        .map(|l| {
            let g: Value = serde_json::from_str(l).unwrap();
            g["plies"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| p["position"].as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_report_holds_every_problem_and_its_positions() {
    let dir = tempdir("report");
    let report = dir.join("r");
    let (_, code) = arbiter(&[
        "validate",
        "-q",
        "corpus/defects",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let data = page_data(&report.join("report.html"));
    let files: Vec<&str> = data["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let mut in_page = Vec::new();
    for g in data["games"].as_array().unwrap() {
        for p in g["p"].as_array().unwrap() {
            in_page.push((
                files[g["f"].as_u64().unwrap() as usize].to_string(),
                g["n"].as_u64().unwrap(),
                p[0].as_u64(),
                data["s"][p[1].as_u64().unwrap() as usize]
                    .as_str()
                    .unwrap()
                    .to_string(),
                // The page's severity figure: 0 note, 1 warning, 2 error.
                ["note", "warning", "error"][p[2].as_u64().unwrap() as usize].to_string(),
            ));
        }
    }
    let (json, _) = arbiter(&["validate", "--format", "json", "corpus/defects"]);
    let mut printed: Vec<_> = json
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|d| d.get("game").is_some())
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_string(),
                d["game"].as_u64().unwrap(),
                d["ply"].as_u64(),
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    printed.sort();
    in_page.sort();
    assert_eq!(in_page, printed);
    assert!(
        printed.iter().any(|p| p.4 == "warning") && printed.iter().any(|p| p.4 == "error"),
        "the defects have errors and warnings"
    );
    assert!(printed.len() > 70, "{}", printed.len());
    // Every stored position rebuilds to what convert writes, up to the faulty ply.
    let mut compared = 0;
    for g in data["games"].as_array().unwrap() {
        let file = files[g["f"].as_u64().unwrap() as usize];
        let number = g["n"].as_u64().unwrap() as usize;
        let page = fens(g);
        let plies = &converted(file)[number - 1];
        if page.is_empty() {
            continue;
        }
        assert_eq!(page.len(), plies.len() + 1, "{file} game {number}");
        assert_eq!(&page[1..], &plies[..], "{file} game {number}");
        compared += plies.len();
    }
    assert!(compared > 100, "{compared}");
    let html = std::fs::read_to_string(report.join("report.html")).unwrap();
    assert!(html.contains("<details open><summary><h2>Overview</h2>"));
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn view_holds_every_game_of_every_kind() {
    let dir = tempdir("all");
    let page = dir.join("v.html");
    let files = [
        "corpus/odnocvetnie/odnocvetnie-random.pdn",
        "corpus/thaayam/thaayam-random.pdn.gz",
        "corpus/tama/tama-random.pdn",
    ];
    let mut args = vec!["view"];
    args.extend(files);
    args.extend(["-o", page.to_str().unwrap()]);
    let (_, code) = arbiter(&args);
    assert_eq!(code, 0);
    let data = page_data(&page);
    let games = data["games"].as_array().unwrap();
    let mut seen = BTreeSet::new();
    for (i, file) in files.iter().enumerate() {
        let expected = converted(file);
        let mine: Vec<&Value> = games
            .iter()
            .filter(|g| g["f"].as_u64() == Some(i as u64))
            .collect();
        assert_eq!(mine.len(), expected.len(), "{file}");
        for (g, plies) in mine.iter().zip(&expected).take(20) {
            assert_eq!(&fens(g)[1..], &plies[..], "{file} game {}", g["n"]);
            assert_eq!(moves(g).len(), plies.len());
            seen.insert(g["h"][3].as_array().unwrap().len());
        }
    }
    // Two seats (Tama) and four (Odnocvetnie, Thaayam) both drawn.
    assert!(seen.contains(&2) && seen.contains(&4), "{seen:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn view_exits_like_validate() {
    let dir = tempdir("exit");
    let page = dir.join("defects.html");
    let (_, code) = arbiter(&["view", "corpus/defects", "-o", page.to_str().unwrap()]);
    assert_eq!(code, 1, "records with errors: exit 1, as validate");
    assert!(page.exists(), "the page is written all the same");
    let (_, code) = arbiter(&[
        "view",
        "corpus/no-such-folder",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "a path that cannot be read: exit 2");
}

/// The report's example of an ambiguous move draws each move the notation fits through its
/// landing squares (one blue polyline of four points each for h1xa1, which fits h1xh3xa3xa1
/// and h1xh4xa4xa1), and its caption says so.
#[test]
fn the_reports_example_of_an_ambiguous_move_draws_each_route() {
    let dir = tempdir("ambiguous");
    let report = dir.join("r");
    let (_, code) = arbiter(&[
        "validate",
        "-q",
        "corpus/defects/tama/ambiguous-move.pdn",
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let html = std::fs::read_to_string(report.join("report.html")).unwrap();
    assert!(html.contains("Solid blue: each move the notation fits, through its squares."));
    let routes: Vec<usize> = html
        .split("<polyline")
        .skip(1)
        .filter(|p| p.split('>').next().unwrap().contains("stroke=\"#1565C0\""))
        .map(|p| {
            let points = p
                .split("points=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            points.split_whitespace().count()
        })
        .collect();
    assert_eq!(routes, [4, 4], "two routes, each through four squares");
    std::fs::remove_dir_all(&dir).ok();
}
