//! Where a command writes one file: standard output (`-o -`, or no `-o` where that is the
//! default), or a file written under a temporary name in the same folder and renamed at the
//! end, so that a command that fails leaves no output behind (and an existing file is
//! replaced only by a complete one).

use crate::exit::Stop;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// One output being written.
pub struct Output {
    sink: Sink,
    /// The file's final name and its temporary name, until [`Output::commit`].
    file: Option<(PathBuf, PathBuf)>,
}

enum Sink {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    File(BufWriter<File>),
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
                let temp = temp_name(p);
                let file = File::create(&temp)
                    .map_err(|e| Stop::Usage(format!("{}: {e}", p.display())))?;
                Ok(Output {
                    sink: Sink::File(BufWriter::with_capacity(1 << 16, file)),
                    file: Some((p.to_path_buf(), temp)),
                })
            }
        }
    }

    fn stdout() -> Output {
        Output {
            sink: Sink::Stdout(BufWriter::new(io::stdout().lock())),
            file: None,
        }
    }

    /// The temporary file being written, for writers that take a path; `None` for standard
    /// output.
    pub fn temp_path(&self) -> Option<&Path> {
        self.file.as_ref().map(|(_, temp)| temp.as_path())
    }

    /// Flushes the output and gives the file its name. A flush error keeps its kind (a
    /// closed pipe stays one).
    pub fn commit(mut self) -> io::Result<()> {
        self.flush()?;
        if let Some((path, temp)) = self.file.take() {
            std::fs::rename(&temp, &path).map_err(|e| {
                let _ = std::fs::remove_file(&temp);
                io::Error::new(e.kind(), format!("{}: {e}", path.display()))
            })?;
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some((_, temp)) = self.file.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write(buf),
            Sink::File(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::File(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.flush(),
            Sink::File(w) => w.flush(),
        }
    }
}

/// `dir/.arbiter-PID.name` for `dir/name`: hidden, in the same folder (a rename does not
/// cross file systems), one per process, and ending as the name does (writers that choose
/// a format by the extension, such as PNG, see the right one).
pub fn temp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".arbiter-{}.{name}", std::process::id()))
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
