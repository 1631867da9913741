//! Where a command writes one file: standard output (`-o -`, or no `-o` where that is the
//! default), or a file written under a temporary name in the same folder and renamed at the
//! end, so that a command that fails leaves no output behind (and an existing file is
//! replaced only by a complete one). The files are the shared [`outfile::TempFile`].

use crate::exit::Stop;
use outfile::TempFile;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// One output being written.
pub struct Output {
    sink: Sink,
}

enum Sink {
    Stdout(Stdout),
    /// Written under an exclusive, unpredictable temporary name (see [`outfile`]).
    File(BufWriter<TempFile>),
}

/// True for `-`, the name of standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

impl Output {
    /// Standard output for `None` or `-`, else a temporary file beside `path`.
    pub fn create(path: Option<&Path>) -> Result<Output, Stop> {
        match path {
            None => Ok(Output::stdout()),
            Some(p) if is_stdout(p) => Ok(Output::stdout()),
            Some(p) => {
                let file = TempFile::create(p).map_err(|e| Stop::Usage(e.to_string()))?;
                Ok(Output {
                    sink: Sink::File(BufWriter::with_capacity(1 << 16, file)),
                })
            }
        }
    }

    fn stdout() -> Output {
        Output {
            sink: Sink::Stdout(Stdout {
                out: BufWriter::new(io::stdout().lock()),
                read_on: false,
                closed: false,
            }),
        }
    }

    /// Makes a closed standard output drop what is written to it from then on instead of
    /// failing, for the commands whose exit code is a verdict on every record read
    /// (`arbiter convert big.pdn | head` still reads every game). A file is unaffected.
    pub fn read_on_when_closed(mut self) -> Self {
        if let Sink::Stdout(s) = &mut self.sink {
            s.read_on = true;
        }
        self
    }

    /// The temporary file being written; `None` for standard output.
    #[cfg(test)]
    pub fn temp_path(&self) -> Option<&Path> {
        match &self.sink {
            Sink::File(w) => Some(w.get_ref().temp_path()),
            Sink::Stdout(_) => None,
        }
    }

    /// Flushes the output and gives the file its name. A flush error keeps its kind (a
    /// closed pipe stays one) and names the output.
    pub fn commit(self) -> io::Result<()> {
        match self.sink {
            Sink::Stdout(mut s) => s.flush(),
            Sink::File(w) => w.into_inner().map_err(|e| e.into_error())?.commit(),
        }
    }
}

/// Standard output, which may swallow a closed pipe ([`Output::read_on_when_closed`]): once
/// its reader has gone away, writes are dropped (and succeed).
type Buffered = BufWriter<io::StdoutLock<'static>>;

struct Stdout {
    out: BufWriter<io::StdoutLock<'static>>,
    read_on: bool,
    closed: bool,
}

impl Stdout {
    /// Runs `write` unless the pipe is closed; a closed pipe it meets is remembered.
    fn guard(&mut self, write: impl FnOnce(&mut Buffered) -> io::Result<()>) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match write(&mut self.out) {
            Err(e) if self.read_on && e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf).map(|()| buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.guard(|w| w.write_all(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.guard(|w| w.flush())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(s) => s.write(buf),
            Sink::File(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(s) => s.write_all(buf),
            Sink::File(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(s) => s.flush(),
            Sink::File(w) => w.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_appears_only_when_committed() {
        let dir = std::env::temp_dir().join(format!("arbiter-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.pdn");
        let mut out = Output::create(Some(&path)).unwrap();
        out.write_all(b"1. 32-28 *\n").unwrap();
        let temp = out.temp_path().unwrap().to_path_buf();
        assert!(temp.exists() && !path.exists());
        out.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"1. 32-28 *\n");
        assert!(!temp.exists());
        // Dropped without commit: nothing left, the old file kept.
        let mut out = Output::create(Some(&path)).unwrap();
        out.write_all(b"half").unwrap();
        drop(out);
        assert_eq!(std::fs::read(&path).unwrap(), b"1. 32-28 *\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
