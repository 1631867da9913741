//! Finding the records to read: files, directories (recursively) and standard input.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// One source of PDN text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file, plain or gzip-compressed (`.gz`).
    File(PathBuf),
}

impl Input {
    /// The name shown in diagnostics.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".to_string(),
            Input::File(p) => p.display().to_string(),
        }
    }

    /// Opens the input, decompressing `.gz` files on the fly.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        match self {
            Input::Stdin => Ok(Box::new(io::stdin())),
            Input::File(p) => {
                let file = File::open(p)?;
                if is_gzip(p) {
                    Ok(Box::new(flate2::read::MultiGzDecoder::new(
                        io::BufReader::with_capacity(1 << 16, file),
                    )))
                } else {
                    Ok(Box::new(file))
                }
            }
        }
    }
}

fn is_gzip(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// True for the files a directory walk picks up: `*.pdn` and `*.pdn.gz`.
fn is_record_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".pdn") || name.ends_with(".pdn.gz")
}

/// Expands the command-line paths: `-` is standard input, a file is taken as it is (whatever
/// its name), a directory is walked recursively for `*.pdn` and `*.pdn.gz` in sorted order.
/// Paths that cannot be read are returned as errors, in order, beside the inputs found.
pub fn collect(paths: &[PathBuf]) -> (Vec<Input>, Vec<(PathBuf, io::Error)>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &mut inputs, &mut errors),
            Ok(_) => inputs.push(Input::File(path.clone())),
            Err(e) => errors.push((path.clone(), e)),
        }
    }
    (inputs, errors)
}

fn walk(dir: &Path, inputs: &mut Vec<Input>, errors: &mut Vec<(PathBuf, io::Error)>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push((dir.to_path_buf(), e));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, inputs, errors);
        } else if is_record_file(&path) {
            inputs.push(Input::File(path));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_pdn_and_gz_files_recursively_in_order() {
        let dir = std::env::temp_dir().join(format!("arbiter-input-{}", std::process::id()));
        let sub = dir.join("b");
        std::fs::create_dir_all(&sub).unwrap();
        for name in ["z.pdn", "a.PDN", "notes.txt", "b/c.pdn.gz", "b/d.pgn"] {
            std::fs::write(dir.join(name), b"").unwrap();
        }
        let (inputs, errors) = collect(&[dir.clone(), dir.join("missing.pdn")]);
        let names: Vec<String> = inputs
            .iter()
            .map(|i| match i {
                Input::File(p) => p.strip_prefix(&dir).unwrap().display().to_string(),
                Input::Stdin => "-".into(),
            })
            .collect();
        assert_eq!(names, ["a.PDN", "b/c.pdn.gz", "z.pdn"]);
        assert_eq!(errors.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
