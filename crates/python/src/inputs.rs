//! Finding and opening the records to read, as the CLI does: files (plain or gzip, known by
//! their bytes), folders walked recursively for `*.pdn`, `*.pdn.gz` and Ludii's `*.trl` in
//! sorted order, and texts handed over from Python.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

/// One source of PDN text.
#[derive(Debug, Clone)]
pub enum Input {
    /// A file.
    File(PathBuf),
    /// A text given from Python, with the name its rows carry.
    Text { name: String, text: String },
}

impl Input {
    /// The name shown in diagnostics and in the `file` columns.
    pub fn name(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Text { name, .. } => name.clone(),
        }
    }

    /// Opens the input: gzip is decompressed on the fly, binary data is refused, and a Ludii
    /// trial is converted to the PDN text of one record.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        let raw: Box<dyn Read + Send> = match self {
            Input::File(p) => Box::new(File::open(p)?),
            Input::Text { text, .. } => Box::new(Cursor::new(text.clone().into_bytes())),
        };
        let mut raw = BufReader::with_capacity(1 << 16, raw);
        let decoded: Box<dyn Read + Send> = if raw.fill_buf()?.starts_with(&[0x1f, 0x8b]) {
            Box::new(flate2::read::MultiGzDecoder::new(raw))
        } else {
            Box::new(raw)
        };
        let mut text = BufReader::with_capacity(1 << 16, decoded);
        let head = text.fill_buf()?;
        if !looks_like_text(head) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "not a text file (it holds binary data); skipped",
            ));
        }
        if !head.starts_with(b"game=") {
            return Ok(Box::new(text));
        }
        let mut bytes = Vec::new();
        text.read_to_end(&mut bytes)?;
        let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
        let trial = ludii::read_trial(&bytes).map_err(|e| invalid(e.to_string()))?;
        let converted = ludii::to_pdn(&trial).map_err(|e| invalid(e.to_string()))?;
        Ok(Box::new(Cursor::new(converted.pdn.into_bytes())))
    }
}

/// False for bytes that cannot be a game record (the CLI's test): a NUL byte, or more than
/// one control character in ten.
fn looks_like_text(head: &[u8]) -> bool {
    if head.contains(&0) {
        return false;
    }
    let control = head
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)) || b == 0x7f)
        .count();
    control * 10 <= head.len()
}

fn is_record_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".pdn") || name.ends_with(".pdn.gz") || name.ends_with(".trl")
}

/// Expands paths: a file is taken as it is, a folder is walked. A path that cannot be read
/// is an error naming it, as the CLI words it.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<Input>, (String, io::Error)> {
    let mut inputs = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| (path.display().to_string(), e))?;
        if meta.is_dir() {
            walk(path, &mut inputs)?;
        } else {
            inputs.push(Input::File(path.clone()));
        }
    }
    Ok(inputs)
}

fn walk(dir: &Path, inputs: &mut Vec<Input>) -> Result<(), (String, io::Error)> {
    let entries = std::fs::read_dir(dir).map_err(|e| (dir.display().to_string(), e))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, inputs)?;
        } else if is_record_file(&path) {
            inputs.push(Input::File(path));
        }
    }
    Ok(())
}
