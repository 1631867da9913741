//! Finding the records to read: files, directories (recursively) and standard input.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
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

    /// Opens the input. Gzip is recognised by its magic bytes (files and standard input
    /// alike) and decompressed on the fly; an input that is not text (NUL bytes, or mostly
    /// control characters) is refused with an `InvalidData` error.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        self.open_records().map(|(reader, _)| reader)
    }

    /// Like [`Input::open`], and a Ludii trial (a text starting with `game=`) is converted
    /// to the PDN text of one record on the way: its [`Trial`] says where that record's
    /// pieces came from.
    pub fn open_records(&self) -> io::Result<(Box<dyn Read + Send>, Option<Trial>)> {
        let mut text = self.open_text()?;
        if !text.fill_buf()?.starts_with(b"game=") {
            return Ok((Box::new(text), None));
        }
        let mut bytes = Vec::new();
        text.read_to_end(&mut bytes)?;
        let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
        let trial = ludii::read_trial(&bytes).map_err(|e| invalid(e.to_string()))?;
        let converted = games::games()
            .read_trial(&trial)
            .map_err(|e| invalid(e.to_string()))?;
        let lines = pdn::decode(&bytes).lines().map(str::to_string).collect();
        let pdn = io::Cursor::new(converted.pdn.clone().into_bytes());
        Ok((Box::new(pdn), Some(Trial { converted, lines })))
    }

    fn open_text(&self) -> io::Result<BufReader<Box<dyn Read + Send>>> {
        let raw: Box<dyn Read + Send> = match self {
            Input::Stdin => Box::new(io::stdin()),
            Input::File(p) => Box::new(File::open(p)?),
        };
        let mut raw = BufReader::with_capacity(1 << 16, raw);
        let decoded: Box<dyn Read + Send> = if raw.fill_buf()?.starts_with(&GZIP_MAGIC) {
            self.checked_gzip(raw)?
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
        if text.fill_buf()?.iter().all(u8::is_ascii_whitespace) {
            return self.past_blanks(text);
        }
        Ok(text)
    }

    /// A text that starts with blanks: an error when it holds nothing else ("no game records
    /// in X"), else the same text (the blanks read are given back, so offsets do not move).
    fn past_blanks(
        &self,
        mut text: BufReader<Box<dyn Read + Send>>,
    ) -> io::Result<BufReader<Box<dyn Read + Send>>> {
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
                let again: Box<dyn Read + Send> = Box::new(io::Cursor::new(seen).chain(text));
                return Ok(BufReader::with_capacity(1 << 16, again));
            }
        }
    }
}

impl Input {
    /// The decompressed text of a gzip input, once the whole stream has been found sound: a
    /// cut or damaged stream is an error before any game is read, so every command reads the
    /// same games of it (none) and says the same thing. A file is read twice (decompressing
    /// is fast beside replaying); standard input is kept in memory, compressed.
    fn checked_gzip(
        &self,
        mut raw: BufReader<Box<dyn Read + Send>>,
    ) -> io::Result<Box<dyn Read + Send>> {
        let damaged = |e: io::Error| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("the gzip data is cut short or damaged ({e}); no game of it is read"),
            )
        };
        match self {
            Input::File(p) => {
                let file = BufReader::with_capacity(1 << 16, File::open(p)?);
                io::copy(
                    &mut flate2::read::MultiGzDecoder::new(file),
                    &mut io::sink(),
                )
                .map_err(damaged)?;
                Ok(Box::new(flate2::read::MultiGzDecoder::new(raw)))
            }
            Input::Stdin => {
                let mut packed = Vec::new();
                raw.read_to_end(&mut packed)?;
                let mut check = flate2::read::MultiGzDecoder::new(packed.as_slice());
                io::copy(&mut check, &mut io::sink()).map_err(damaged)?;
                Ok(Box::new(flate2::read::MultiGzDecoder::new(
                    io::Cursor::new(packed),
                )))
            }
        }
    }
}

/// A Ludii trial read as a record: the converted record and the trial's lines.
pub struct Trial {
    /// The PDN text made from the trial, and where its pieces came from.
    pub converted: ludii::Converted,
    /// The trial's lines, for showing the one a diagnostic is about.
    pub lines: Vec<String>,
}

impl Trial {
    /// The trial line of the Ludii move behind a byte of the converted record, and that
    /// move's number; `None` for bytes before the first move (tags).
    pub fn origin(&self, byte: u64) -> Option<(u32, u32)> {
        self.converted
            .locate(byte)
            .map(|e| (e.trl_line, e.ludii_move))
    }
}

/// The first two bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// False for bytes that cannot be a game record: a NUL byte, or more than one control
/// character in ten (tabs, line breaks and form feeds aside; bytes above 127 are taken as
/// text in some 8-bit encoding).
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

/// True for the files a directory walk picks up: `*.pdn`, `*.pdn.gz` and Ludii's `*.trl`.
fn is_record_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".pdn") || name.ends_with(".pdn.gz") || name.ends_with(".trl")
}

/// Expands the command-line paths: `-` is standard input, a file is taken as it is (whatever
/// its name), a directory is walked recursively for `*.pdn`, `*.pdn.gz` and `*.trl` in
/// sorted order. Paths that cannot be read, and directories holding no record file ("no game
/// records in DIR"), are returned as errors, in order, beside the inputs found.
pub fn collect(paths: &[PathBuf]) -> (Vec<Input>, Vec<(PathBuf, io::Error)>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let before = inputs.len();
                walk(path, &mut inputs, &mut errors);
                if inputs.len() == before {
                    let why = "no *.pdn, *.pdn.gz or *.trl file below it";
                    errors.push((path.clone(), no_records(&path.display().to_string(), why)));
                }
            }
            Ok(_) => inputs.push(Input::File(path.clone())),
            Err(e) => errors.push((path.clone(), e)),
        }
    }
    (inputs, errors)
}

/// The error of an input that holds no game record, and why.
pub fn no_records(name: &str, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("no game records in {name} ({why})"),
    )
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

    fn read(path: &Path) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        Input::File(path.to_path_buf())
            .open()?
            .read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn gzip_is_known_by_its_bytes_and_binary_is_refused() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("arbiter-sniff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = b"[Variant \"Tama\"]\n\n1. c3-c4 *\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        // A gzip stream without the .gz name, and a plain file: both read as text.
        std::fs::write(dir.join("packed.pdn"), gz.finish().unwrap()).unwrap();
        std::fs::write(dir.join("plain.pdn"), text).unwrap();
        assert_eq!(read(&dir.join("packed.pdn")).unwrap(), text);
        assert_eq!(read(&dir.join("plain.pdn")).unwrap(), text);
        let mut binary = b"\x7fELF\x02\x01\x01".to_vec();
        binary.extend([0u8; 64]);
        std::fs::write(dir.join("prog"), &binary).unwrap();
        let e = read(&dir.join("prog")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        std::fs::write(dir.join("noise"), [1u8, 2, 3, 4, b'a', 5, 6]).unwrap();
        assert!(read(&dir.join("noise")).is_err());
        std::fs::write(dir.join("latin1.pdn"), b"[White \"M\xfcller\"]\n").unwrap();
        assert!(read(&dir.join("latin1.pdn")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
