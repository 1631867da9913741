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

    /// Opens the input as the CLI does: gzip is decompressed on the fly once the whole
    /// stream has been found sound (a cut or damaged stream is refused before any game is
    /// read), binary data is refused, a file holding nothing but blanks is "no game records
    /// in X", and a Ludii trial is converted to the PDN text of one record.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        let raw: Box<dyn Read + Send> = match self {
            Input::File(p) => Box::new(File::open(p)?),
            Input::Text { text, .. } => Box::new(Cursor::new(text.clone().into_bytes())),
        };
        let mut raw = BufReader::with_capacity(1 << 16, raw);
        let decoded: Box<dyn Read + Send> = if raw.fill_buf()?.starts_with(&[0x1f, 0x8b]) {
            self.checked_gzip()?;
            Box::new(flate2::read::MultiGzDecoder::new(raw))
        } else {
            Box::new(raw)
        };
        let mut text = BufReader::with_capacity(1 << 16, decoded);
        if !looks_like_text(text.fill_buf()?) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "not a text file (it holds binary data); skipped",
            ));
        }
        if matches!(self, Input::File(_)) && text.fill_buf()?.iter().all(u8::is_ascii_whitespace) {
            text = self.past_blanks(text)?;
        }
        if !text.fill_buf()?.starts_with(b"game=") {
            return Ok(Box::new(text));
        }
        let mut bytes = Vec::new();
        text.read_to_end(&mut bytes)?;
        let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
        let trial = ludii::read_trial(&bytes).map_err(|e| invalid(e.to_string()))?;
        let converted = games::games()
            .read_trial(&trial)
            .map_err(|e| invalid(e.to_string()))?;
        Ok(Box::new(Cursor::new(converted.pdn.into_bytes())))
    }

    /// Decompresses the whole gzip input once, to refuse a cut or damaged stream before any
    /// of its games is read (the CLI's rule).
    fn checked_gzip(&self) -> io::Result<()> {
        let packed: Box<dyn Read> = match self {
            Input::File(p) => Box::new(BufReader::with_capacity(1 << 16, File::open(p)?)),
            Input::Text { text, .. } => Box::new(text.as_bytes()),
        };
        io::copy(
            &mut flate2::read::MultiGzDecoder::new(packed),
            &mut io::sink(),
        )
        .map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the gzip data is cut short or damaged ({e}); no game of it is read"),
            )
        })?;
        Ok(())
    }

    /// A text that starts with blanks: an error when it holds nothing else, else the same
    /// text (the blanks read are given back, so offsets do not move).
    fn past_blanks(&self, mut text: Text) -> io::Result<Text> {
        let mut seen = Vec::new();
        loop {
            let buf = text.fill_buf()?;
            if buf.is_empty() {
                return Err(no_records(&self.name(), "it is empty"));
            }
            let blank = buf.iter().all(u8::is_ascii_whitespace);
            let n = buf.len();
            seen.extend_from_slice(buf);
            text.consume(n);
            if !blank {
                let again: Box<dyn Read + Send> = Box::new(Cursor::new(seen).chain(text));
                return Ok(BufReader::with_capacity(1 << 16, again));
            }
        }
    }
}

type Text = BufReader<Box<dyn Read + Send>>;

/// The error of an input that holds no game record, and why (the CLI's wording).
fn no_records(name: &str, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("no game records in {name} ({why})"),
    )
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

/// Expands paths: a file is taken as it is, a folder is walked. A path that cannot be read,
/// and a folder holding no record file, is an error naming it, as the CLI words it.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<Input>, (String, io::Error)> {
    let mut inputs = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| (path.display().to_string(), e))?;
        if meta.is_dir() {
            let before = inputs.len();
            walk(path, &mut inputs)?;
            if inputs.len() == before {
                let name = path.display().to_string();
                let why = "no *.pdn, *.pdn.gz or *.trl file below it";
                return Err((name.clone(), no_records(&name, why)));
            }
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
