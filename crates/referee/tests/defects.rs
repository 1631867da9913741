//! Snapshot tests (insta) of the referee's diagnostics for every broken record in
//! `corpus/defects/`: code, ply, move number and message, game by game. The CLI's output for
//! the same records is checked against the `.expected` files beside them (crates/arbiter).

use std::fmt::Write;
use std::path::Path;

use referee::{Referee, Settings};

fn describe(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let mut reader = pdn::Reader::new(&bytes[..]);
    let mut referee = Referee::new(games::games(), Settings::default());
    let mut out = String::new();
    let mut game = 0;
    while let Some(report) = reader.read_game(&mut referee).unwrap() {
        game += 1;
        for d in &report.diagnostics {
            let place = reader.locate(d.span.start);
            writeln!(
                out,
                "game {game} line {} ply {:?} move {:?}: {:?} {}: {}",
                place.line, d.ply, d.move_number, d.severity, d.code, d.message
            )
            .unwrap();
        }
    }
    out
}

fn snapshot_folder(game: &str) {
    snapshot_folder_of(game, 4);
}

/// The snapshots of every record of a folder, which must hold at least `min` records.
fn snapshot_folder_of(game: &str, min: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/defects")
        .join(game);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus/defects is part of the repository")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
        .collect();
    files.sort();
    assert!(files.len() >= min, "{game}: only {} records", files.len());
    for file in files {
        let name = format!("{game}__{}", file.file_stem().unwrap().to_string_lossy());
        let text = describe(&file);
        assert!(!text.is_empty(), "{name} gives no diagnostic");
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn tama_defects() {
    snapshot_folder("tama");
}

#[test]
fn odnocvetnie_defects() {
    snapshot_folder("odnocvetnie");
}

#[test]
fn thaayam_defects() {
    snapshot_folder("thaayam");
}

#[test]
fn international_defects() {
    snapshot_folder_of("international", 1);
}

#[test]
fn english_defects() {
    snapshot_folder_of("english", 1);
}

#[test]
fn russian_defects() {
    snapshot_folder_of("russian", 1);
}

#[test]
fn syntax_defects() {
    snapshot_folder("syntax");
}
