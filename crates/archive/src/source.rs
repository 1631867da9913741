//! Finding and opening the records to read, for every reading command of the CLI and for the
//! Python package alike: files (plain or gzip, known by their bytes), folders walked
//! recursively for `*.pdn`, `*.pdn.gz` and Ludii's `*.trl` in sorted order, standard input,
//! and texts handed over in memory.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

use games::Games;

/// One source of PDN text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input (`-`).
    Stdin,
    /// A file, plain or gzip-compressed.
    File(PathBuf),
    /// A text held in memory (from Python), with the name its rows carry.
    Text {
        /// The name shown in diagnostics.
        name: String,
        /// The text.
        text: String,
    },
}

/// Why a source could not be opened. [`SourceError::kind`] gives the I/O kind it stands for
/// (`NotFound` for a source holding no record, `InvalidData` for binary, damaged gzip or a
/// trial that cannot be read), and `io::Error::from` keeps that kind and the message.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// Reading failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The bytes are not text.
    #[error("not a text file (it holds binary data); skipped")]
    Binary,
    /// The gzip stream is cut or damaged; none of it is read.
    #[error("the gzip data is cut short or damaged ({0}); no game of it is read")]
    Damaged(io::Error),
    /// The source holds no game record.
    #[error("no game records in {name} ({why})")]
    NoRecords {
        /// The source or folder.
        name: String,
        /// Why there is none.
        why: &'static str,
    },
    /// A Ludii trial that cannot be read or converted.
    #[error("{0}")]
    Trial(String),
}

impl SourceError {
    /// The I/O kind this error stands for.
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            SourceError::Io(e) => e.kind(),
            SourceError::NoRecords { .. } => io::ErrorKind::NotFound,
            SourceError::Binary | SourceError::Damaged(_) | SourceError::Trial(_) => {
                io::ErrorKind::InvalidData
            }
        }
    }
}

impl From<SourceError> for io::Error {
    fn from(e: SourceError) -> Self {
        match e {
            SourceError::Io(e) => e,
            other => io::Error::new(other.kind(), other),
        }
    }
}

/// An error met while reading an input, as opposed to writing an output. The commands that
/// copy games (`select`, `split`, `convert`) report such an input and go on with the next
/// one, keeping the games read before the error; an error of the output stops them. Made by
/// [`read_error`], recognised by [`is_read_error`].
#[derive(Debug, thiserror::Error)]
#[error("cannot read: {0}")]
pub struct ReadError(io::Error);

/// Marks `e` as an error of reading an input ([`ReadError`]); an error already marked is
/// returned as it is.
pub fn read_error(e: io::Error) -> io::Error {
    if is_read_error(&e) {
        return e;
    }
    io::Error::new(e.kind(), ReadError(e))
}

/// True when `e` was met reading an input ([`read_error`]).
pub fn is_read_error(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<ReadError>())
}

/// A reader of PDN text.
pub type Records = Box<dyn Read + Send>;

type Text = BufReader<Records>;

/// Bytes buffered at a time.
const BUFFER: usize = 1 << 16;

/// The first two bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

impl Source {
    /// The name shown in diagnostics.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_string(),
            Source::File(p) => p.display().to_string(),
            Source::Text { name, .. } => name.clone(),
        }
    }

    /// Opens the source: see [`Source::open_records`]; the trial, if any, is dropped.
    pub fn open(&self, games: &Games) -> Result<Records, SourceError> {
        self.open_records(games).map(|(reader, _)| reader)
    }

    /// Opens the source. Gzip is recognised by its magic bytes and decompressed on the fly
    /// once the whole stream has been found sound; bytes that are not text are refused; a
    /// file or standard input holding nothing but blanks holds "no game records"; and a
    /// Ludii trial (a text starting with `game=`) is converted to the PDN text of one record
    /// by the converter `games` has for it, its [`Trial`] saying where the pieces came from.
    pub fn open_records(&self, games: &Games) -> Result<(Records, Option<Trial>), SourceError> {
        let mut text = self.open_text()?;
        if !text.fill_buf()?.starts_with(b"game=") {
            return Ok((Box::new(text), None));
        }
        let mut bytes = Vec::new();
        text.read_to_end(&mut bytes)?;
        let trial = ludii::read_trial(&bytes).map_err(|e| SourceError::Trial(e.to_string()))?;
        let converted = games
            .read_trial(&trial)
            .map_err(|e| SourceError::Trial(e.to_string()))?;
        let lines = pdn::decode(&bytes).lines().map(str::to_string).collect();
        let pdn = Cursor::new(converted.pdn.clone().into_bytes());
        Ok((Box::new(pdn), Some(Trial { converted, lines })))
    }

    fn open_text(&self) -> Result<Text, SourceError> {
        let raw: Records = match self {
            Source::Stdin => Box::new(io::stdin()),
            Source::File(p) => Box::new(File::open(p)?),
            Source::Text { text, .. } => Box::new(Cursor::new(text.clone().into_bytes())),
        };
        let mut raw = BufReader::with_capacity(BUFFER, raw);
        let decoded: Records = if raw.fill_buf()?.starts_with(&GZIP_MAGIC) {
            self.checked_gzip(raw)?
        } else {
            Box::new(raw)
        };
        let mut text = BufReader::with_capacity(BUFFER, decoded);
        if !looks_like_text(text.fill_buf()?) {
            return Err(SourceError::Binary);
        }
        if matches!(self, Source::Text { .. }) {
            return Ok(text);
        }
        self.holding_records(text)
    }

    /// The same text (the bytes read given back, so offsets do not move), once its start has
    /// been found to hold something of a game record: up to [`BUFFER`] bytes after any
    /// blanks, checked by [`pdn::holds_records`]. Else "no game records in X": nothing but
    /// blanks, or words alone, from a file as from standard input.
    fn holding_records(&self, mut text: Text) -> Result<Text, SourceError> {
        let mut head = Vec::new();
        let mut blanks = 0;
        loop {
            let buf = text.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let n = buf.len().min(blanks + BUFFER - head.len());
            head.extend_from_slice(&buf[..n]);
            text.consume(n);
            if blanks + n == head.len() {
                blanks += head[blanks..]
                    .iter()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
            }
            if head.len() - blanks >= BUFFER {
                break;
            }
        }
        let why = if blanks == head.len() {
            "it is empty"
        } else if !pdn::holds_records(&head[blanks..]) {
            "it holds text but no tags, moves or results"
        } else {
            let again: Records = Box::new(Cursor::new(head).chain(text));
            return Ok(BufReader::with_capacity(BUFFER, again));
        };
        Err(SourceError::NoRecords {
            name: self.name(),
            why,
        })
    }

    /// The decompressed text of a gzip source, once the whole stream has been found sound: a
    /// cut or damaged stream is an error before any game is read, so every command reads the
    /// same games of it (none) and says the same thing. The stream is decompressed once and
    /// read from memory when its text is at most [`HELD`] bytes long (decompressing it twice,
    /// once to check and once to read, was 2.5 % of the instructions of validating the shipped
    /// corpus); a longer
    /// one is checked to its end, then decompressed again as it is read, so that memory stays
    /// bounded. Standard input, which cannot be read twice, is kept in memory compressed.
    fn checked_gzip(&self, mut raw: Text) -> Result<Records, SourceError> {
        let held = |text: Vec<u8>| -> Records { Box::new(Cursor::new(text)) };
        let again: Records = match self {
            Source::File(p) => {
                if let Some(text) = decompress_held(raw, HELD)? {
                    return Ok(held(text));
                }
                Box::new(BufReader::with_capacity(BUFFER, File::open(p)?))
            }
            Source::Text { text, .. } => {
                if let Some(text) = decompress_held(raw, HELD)? {
                    return Ok(held(text));
                }
                Box::new(Cursor::new(text.clone().into_bytes()))
            }
            Source::Stdin => {
                let mut packed = Vec::new();
                raw.read_to_end(&mut packed)?;
                if let Some(text) = decompress_held(packed.as_slice(), HELD)? {
                    return Ok(held(text));
                }
                Box::new(Cursor::new(packed))
            }
        };
        Ok(Box::new(flate2::read::MultiGzDecoder::new(again)))
    }
}

/// The most decompressed text of a gzip source held in memory (see `Source::checked_gzip`):
/// large beside the chunks the readers cut (4 MiB), small beside a machine's memory.
const HELD: usize = 64 << 20;

/// The whole decompressed text of the gzip stream `packed` when it is at most `most` bytes
/// long; `None` for a longer one, whose stream has then been decompressed to its end and
/// found sound. Either way, a cut or damaged stream is [`SourceError::Damaged`].
fn decompress_held(packed: impl Read, most: usize) -> Result<Option<Vec<u8>>, SourceError> {
    let mut decoder = flate2::read::MultiGzDecoder::new(packed);
    let mut text = Vec::new();
    (&mut decoder)
        .take(most as u64 + 1)
        .read_to_end(&mut text)
        .map_err(SourceError::Damaged)?;
    if text.len() <= most {
        return Ok(Some(text));
    }
    drop(text);
    io::copy(&mut decoder, &mut io::sink()).map_err(SourceError::Damaged)?;
    Ok(None)
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

/// False for bytes that cannot be a game record: a NUL byte, or more than one control
/// character in ten (tabs, line breaks and form feeds aside; bytes above 127 are taken as
/// text in some 8-bit encoding).
fn looks_like_text(head: &[u8]) -> bool {
    if head.contains(&0) {
        return false;
    }
    // Counted in runs of 255 bytes into a byte each, which the compiler turns into vector
    // instructions: counted into a `usize`, every byte of the head (64 KiB of every input)
    // took ten instructions.
    let control: usize = head
        .chunks(255)
        .map(|run| usize::from(run.iter().map(|&b| u8::from(is_control(b))).sum::<u8>()))
        .sum();
    control * 10 <= head.len()
}

/// A control character that text does not hold (tabs, line breaks and form feeds aside).
fn is_control(b: u8) -> bool {
    (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)) || b == 0x7f
}

/// True for the files a folder walk picks up: `*.pdn`, `*.pdn.gz` and Ludii's `*.trl`.
fn is_record_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".pdn") || name.ends_with(".pdn.gz") || name.ends_with(".trl")
}

/// What `-` stands for among the paths given to [`collect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    /// Standard input (the CLI).
    Stdin,
    /// A path like any other (where there is no standard input to read, as in Python).
    Path,
}

/// A path that could not be read, and why.
pub type Unreadable = (PathBuf, SourceError);

/// Expands paths: `-` as `dash` says, a file is taken as it is (whatever its name), a folder
/// is walked recursively for `*.pdn`, `*.pdn.gz` and `*.trl` in sorted order. Paths that
/// cannot be read, and folders holding no record file ("no game records in DIR"), are
/// returned as errors, in order, beside the sources found.
pub fn collect(paths: &[PathBuf], dash: Dash) -> (Vec<Source>, Vec<Unreadable>) {
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if dash == Dash::Stdin && path.as_os_str() == "-" {
            sources.push(Source::Stdin);
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let before = sources.len();
                walk(path, &mut sources, &mut errors);
                if sources.len() == before {
                    let name = path.display().to_string();
                    let why = "no *.pdn, *.pdn.gz or *.trl file below it";
                    errors.push((path.clone(), SourceError::NoRecords { name, why }));
                }
            }
            Ok(_) => sources.push(Source::File(path.clone())),
            Err(e) => errors.push((path.clone(), e.into())),
        }
    }
    (sources, errors)
}

fn walk(dir: &Path, sources: &mut Vec<Source>, errors: &mut Vec<Unreadable>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push((dir.to_path_buf(), e.into()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, sources, errors);
        } else if is_record_file(&path) {
            sources.push(Source::File(path));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(source: &Source) -> Result<Vec<u8>, SourceError> {
        let mut out = Vec::new();
        source.open(games::games())?.read_to_end(&mut out)?;
        Ok(out)
    }

    fn file(path: PathBuf) -> Source {
        Source::File(path)
    }

    #[test]
    fn gzip_is_known_by_its_bytes_and_binary_is_refused() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("archive-sniff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = b"[Variant \"Tama\"]\n\n1. c3-c4 *\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        // A gzip stream without the .gz name, and a plain file: both read as text.
        std::fs::write(dir.join("packed.pdn"), gz.finish().unwrap()).unwrap();
        std::fs::write(dir.join("plain.pdn"), text).unwrap();
        assert_eq!(read(&file(dir.join("packed.pdn"))).unwrap(), text);
        assert_eq!(read(&file(dir.join("plain.pdn"))).unwrap(), text);
        let mut binary = b"\x7fELF\x02\x01\x01".to_vec();
        binary.extend([0u8; 64]);
        std::fs::write(dir.join("prog"), &binary).unwrap();
        let e = read(&file(dir.join("prog"))).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(io::Error::from(e).kind(), io::ErrorKind::InvalidData);
        std::fs::write(dir.join("noise"), [1u8, 2, 3, 4, b'a', 5, 6]).unwrap();
        assert!(read(&file(dir.join("noise"))).is_err());
        std::fs::write(dir.join("latin1.pdn"), b"[White \"M\xfcller\"]\n").unwrap();
        assert!(read(&file(dir.join("latin1.pdn"))).is_ok());
        std::fs::write(dir.join("blank.pdn"), b"  \n\n").unwrap();
        let e = read(&file(dir.join("blank.pdn"))).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().starts_with("no game records in "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn gzip_is_held_when_short_and_checked_to_its_end_when_long() {
        use std::io::Write;
        let text = b"[Variant \"Tama\"]\n\n1. c3-c4 *\n".repeat(10);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text).unwrap();
        let packed = gz.finish().unwrap();
        let held = decompress_held(packed.as_slice(), text.len()).unwrap();
        assert_eq!(held.as_deref(), Some(&text[..]));
        assert!(decompress_held(packed.as_slice(), text.len() - 1)
            .unwrap()
            .is_none());
        // A damaged stream is refused, held or not: its check sum no longer matches.
        let mut damaged = packed.clone();
        let crc = damaged.len() - 8;
        damaged[crc] ^= 1;
        for most in [text.len(), 1] {
            let e = decompress_held(damaged.as_slice(), most).unwrap_err();
            assert!(matches!(e, SourceError::Damaged(_)), "{e}");
        }
    }

    #[test]
    fn text_allows_one_control_character_in_ten() {
        let naive = |head: &[u8]| {
            let control = head.iter().filter(|&&b| is_control(b)).count();
            !head.contains(&0) && control * 10 <= head.len()
        };
        // Around the limit, and across the runs of 255 bytes the count is made in.
        for len in [9, 10, 11, 254, 255, 256, 1000, 65_536] {
            for every in [9, 10, 11] {
                let mut head = vec![b'a'; len];
                for b in head.iter_mut().step_by(every) {
                    *b = 0x01;
                }
                assert_eq!(looks_like_text(&head), naive(&head), "{len} {every}");
                head[len - 1] = 0x7f;
                assert_eq!(looks_like_text(&head), naive(&head), "{len} {every}");
                head[len / 2] = 0;
                assert!(!looks_like_text(&head), "{len} {every}");
            }
        }
        assert!(looks_like_text(&[0x01; 255].repeat(3)[..0]));
        assert!(!looks_like_text(&[0x01; 255].repeat(3)));
        assert!(looks_like_text(b"\t\n\r\x0c"));
    }

    #[test]
    fn a_text_in_memory_reads_as_given() {
        let blank = Source::Text {
            name: "<text>".into(),
            text: "  \n".into(),
        };
        assert_eq!(read(&blank).unwrap(), b"  \n");
        assert_eq!(blank.name(), "<text>");
    }

    #[test]
    fn picks_pdn_and_gz_files_recursively_in_order() {
        let dir = std::env::temp_dir().join(format!("archive-input-{}", std::process::id()));
        let sub = dir.join("b");
        std::fs::create_dir_all(&sub).unwrap();
        for name in ["z.pdn", "a.PDN", "notes.txt", "b/c.pdn.gz", "b/d.pgn"] {
            std::fs::write(dir.join(name), b"").unwrap();
        }
        let paths = [dir.clone(), dir.join("missing.pdn"), PathBuf::from("-")];
        let (sources, errors) = collect(&paths, Dash::Stdin);
        let names: Vec<String> = sources
            .iter()
            .map(|i| match i {
                Source::File(p) => p.strip_prefix(&dir).unwrap().display().to_string(),
                other => other.name(),
            })
            .collect();
        assert_eq!(names, ["a.PDN", "b/c.pdn.gz", "z.pdn", "<stdin>"]);
        assert_eq!(errors.len(), 1);
        let (_, errors) = collect(&paths, Dash::Path);
        assert_eq!(errors.len(), 2, "`-` is a missing path here");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
