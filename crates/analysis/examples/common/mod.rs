//! What the examples share.
// Each example uses part of it.
#![allow(dead_code)]

pub mod record;

use std::path::{Path, PathBuf};

/// The `*.pdn` files of `paths` (folders walked), in sorted order.
pub fn pdn_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out);
    }
    out.sort();
    out
}

fn walk(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        if let Ok(entries) = std::fs::read_dir(p) {
            for e in entries.flatten() {
                walk(&e.path(), out);
            }
        }
    } else if p.extension().is_some_and(|e| e == "pdn") {
        out.push(p.to_path_buf());
    }
}

/// One ply of a main line of a draughts game of `paths`: its variant, the position before it
/// (as the referee writes it) and the ply as replayed.
pub struct Ply<'a> {
    pub variant: &'static draughts::Variant,
    pub before: &'a str,
    pub detail: &'a referee::PlyDetail<'a>,
}

/// Calls `f` with every ply of the main lines of the draughts games of `paths`, in order,
/// until it returns false.
pub fn each_ply(paths: &[PathBuf], mut f: impl FnMut(&Ply<'_>) -> bool) {
    let settings = referee::Settings {
        details: true,
        positions: true,
        ..Default::default()
    };
    let mut referee = referee::Referee::new(games::games(), settings);
    for file in pdn_files(paths) {
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        for record in pdn::read_all(&bytes) {
            let report = record.accept(&mut referee);
            let Some(variant) = report.game.and_then(|g| draughts::Variant::by_id(g.id)) else {
                continue;
            };
            let mut before = report.start_position.clone();
            for detail in report.details.iter() {
                if !f(&Ply {
                    variant,
                    before: &before,
                    detail: &detail,
                }) {
                    return;
                }
                before = detail.position.to_string();
            }
        }
    }
}
