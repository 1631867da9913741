//! What the examples share.

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
