//! Reads PDN files and prints every syntax problem with its line and column.
//!
//! `cargo run -p pdn --example check -- FILE...`

use std::fs::File;
use std::io::BufReader;

use pdn::{Reader, RecordBuilder};

fn main() -> std::io::Result<()> {
    for path in std::env::args().skip(1) {
        let mut reader = Reader::new(BufReader::new(File::open(&path)?));
        let mut builder = RecordBuilder::new();
        let (mut games, mut errors, mut warnings) = (0, 0, 0);
        while let Some(game) = reader.read_game(&mut builder)? {
            games += 1;
            for p in &game.problems {
                let at = reader.locate(p.span.start);
                match p.severity {
                    pdn::Severity::Error => errors += 1,
                    pdn::Severity::Warning => warnings += 1,
                    pdn::Severity::Note => {}
                }
                println!(
                    "{path}:{}:{}: {:?} {}: {}",
                    at.line, at.column, p.severity, p.kind, p.message
                );
            }
        }
        println!("{path}: {games} games, {errors} errors, {warnings} warnings");
    }
    Ok(())
}
