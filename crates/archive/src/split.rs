//! `split`: one archive into files of N games, or one file per value of a tag.

use std::collections::{HashMap, HashSet};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::select::write_game;

/// How games are shared out between files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitBy {
    /// Files of this many games (the last may hold fewer), named `STEM-0001.pdn`, ...
    Games(u64),
    /// One file per value of this tag, named after the value (see [`safe_name`]); games
    /// without the tag go to `untagged.pdn`.
    Tag(String),
}

/// The longest file name stem [`safe_name`] makes, in bytes.
pub const MAX_NAME: usize = 100;

/// A file name stem made from a tag value: path separators, control characters and the
/// characters some systems refuse (`<>:"|?*`) become `_`, leading dots and surrounding
/// spaces go, the result is cut to [`MAX_NAME`] bytes, and an empty result is `_`.
///
/// ```
/// use archive::safe_name;
/// assert_eq!(safe_name("Open A/B"), "Open A_B");
/// assert_eq!(safe_name("../etc"), "_etc");
/// assert_eq!(safe_name("  .hidden "), "hidden");
/// assert_eq!(safe_name("a\nb"), "a_b");
/// assert_eq!(safe_name(""), "_");
/// ```
pub fn safe_name(value: &str) -> String {
    let mut name: String = value
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '/' | '\\' | '<' | '>' | ':' | '"' | '|' | '?' | '*') {
                '_'
            } else {
                c
            }
        })
        .collect();
    name = name
        .trim()
        .trim_start_matches('.')
        .trim_end_matches(['.', ' '])
        .trim()
        .to_string();
    // A name made only of separators and dots says nothing: `../etc` gives `_etc`.
    while name.starts_with("__") {
        name.remove(0);
    }
    if name.len() > MAX_NAME {
        let mut cut = MAX_NAME;
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        name.truncate(cut);
    }
    if name.is_empty() {
        name.push('_');
    }
    name
}

/// Gives every distinct tag value its own file name: the safe name, numbered `-2`, `-3`, ...
/// when another value already has it (compared ignoring case, as some file systems do).
#[derive(Debug, Default)]
pub struct Namer {
    by_value: HashMap<Option<String>, String>,
    used: HashSet<String>,
}

impl Namer {
    /// The file name stem of a value (`None`: the tag is missing).
    pub fn name(&mut self, value: Option<&str>) -> &str {
        let key = value.map(str::to_string);
        if !self.by_value.contains_key(&key) {
            let base = value.map_or_else(|| "untagged".to_string(), safe_name);
            let mut name = base.clone();
            let mut n = 1;
            while self.used.contains(&name.to_lowercase()) {
                n += 1;
                name = format!("{base}-{n}");
            }
            self.used.insert(name.to_lowercase());
            self.by_value.insert(key.clone(), name);
        }
        &self.by_value[&key]
    }
}

/// How many files a splitter keeps open at once; others are reopened to append.
const OPEN_FILES: usize = 64;

/// Writes games into the files of a folder, each under an exclusive temporary name
/// ([`outfile::TempFile`]) until [`Splitter::finish`].
pub struct Splitter {
    dir: PathBuf,
    by: SplitBy,
    stem: String,
    namer: Namer,
    /// Files whose descriptor is open.
    open: HashSet<usize>,
    /// Every file written, in the order first written, with its number of games.
    files: Vec<(String, u64, BufWriter<outfile::TempFile>)>,
    index: HashMap<String, usize>,
    games: u64,
    /// Files the splitter must not write (its inputs), canonical.
    inputs: Vec<PathBuf>,
}

impl Splitter {
    /// A splitter writing into `dir` (created if missing). `stem` names the files of
    /// [`SplitBy::Games`].
    pub fn new(dir: &Path, by: SplitBy, stem: &str) -> io::Result<Splitter> {
        if let SplitBy::Games(0) = by {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "files of 0 games: give --games 1 or more",
            ));
        }
        std::fs::create_dir_all(dir)?;
        Ok(Splitter {
            dir: dir.to_path_buf(),
            by,
            stem: safe_name(stem),
            namer: Namer::default(),
            open: HashSet::new(),
            files: Vec::new(),
            index: HashMap::new(),
            games: 0,
            inputs: Vec::new(),
        })
    }

    /// Refuses to write over these files (the run's inputs): a file name that would
    /// replace one of them is an error.
    pub fn protect(&mut self, inputs: &[PathBuf]) {
        self.inputs = inputs
            .iter()
            .filter_map(|p| p.canonicalize().ok())
            .collect();
    }

    /// The tag a split by tag needs, if any.
    pub fn tag(&self) -> Option<&str> {
        match &self.by {
            SplitBy::Tag(t) => Some(t),
            SplitBy::Games(_) => None,
        }
    }

    /// Writes one game (its bytes as read, and `*` after an `open` game: see
    /// [`crate::write_game`]); `tag_value` is the value of [`Splitter::tag`].
    pub fn put(&mut self, tag_value: Option<&str>, text: &[u8], open: bool) -> io::Result<()> {
        let name = match &self.by {
            SplitBy::Games(n) => format!("{}-{:04}.pdn", self.stem, self.games / n + 1),
            SplitBy::Tag(_) => format!("{}.pdn", self.namer.name(tag_value)),
        };
        self.games += 1;
        let i = self.writer(&name)?;
        let file = &mut self.files[i];
        write_game(&mut file.2, text, open)?;
        file.1 += 1;
        Ok(())
    }

    /// The index of the file called `name`, open: created the first time, reopened to
    /// append after it was closed to keep the number of open files bounded.
    fn writer(&mut self, name: &str) -> io::Result<usize> {
        if let Some(&i) = self.index.get(name) {
            if !self.open.contains(&i) {
                self.make_room()?;
                self.files[i].2.get_mut().reopen()?;
                self.open.insert(i);
            }
            return Ok(i);
        }
        let path = self.dir.join(name);
        if let Ok(canonical) = path.canonicalize() {
            if self.inputs.contains(&canonical) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{} is an input of this run; split into another folder",
                        path.display()
                    ),
                ));
            }
        }
        self.make_room()?;
        let file = outfile::TempFile::create(&path)?;
        let i = self.files.len();
        self.index.insert(name.to_string(), i);
        self.files
            .push((name.to_string(), 0, BufWriter::with_capacity(1 << 16, file)));
        self.open.insert(i);
        Ok(i)
    }

    /// Closes every open file when as many are open as may be.
    fn make_room(&mut self) -> io::Result<()> {
        if self.open.len() >= OPEN_FILES {
            for i in self.open.drain() {
                let w = &mut self.files[i].2;
                w.flush()?;
                w.get_mut().close();
            }
        }
        Ok(())
    }

    /// Flushes every file and gives it its name; returns the files written (paths) with
    /// their numbers of games. Until then the files are written under temporary names,
    /// removed if the splitter is dropped unfinished: a failed split leaves no file behind.
    pub fn finish(mut self) -> io::Result<Vec<(PathBuf, u64)>> {
        for i in self.open.drain() {
            self.files[i].2.flush()?;
        }
        let mut done = Vec::with_capacity(self.files.len());
        for (name, n, w) in std::mem::take(&mut self.files) {
            w.into_inner().map_err(|e| e.into_error())?.commit()?;
            done.push((self.dir.join(name), n));
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe() {
        for v in [
            "a/b", "a\\b", "..", ".", "/", "x\u{0}y", "\u{7f}", "C:\\x", "a\r\nb",
        ] {
            let n = safe_name(v);
            assert!(!n.is_empty());
            assert!(!n.starts_with('.'), "{v:?} -> {n:?}");
            assert!(!n.contains(['/', '\\']), "{v:?} -> {n:?}");
            assert!(!n.chars().any(char::is_control), "{v:?} -> {n:?}");
        }
        let long = "é".repeat(200);
        assert!(safe_name(&long).len() <= MAX_NAME);
        assert_eq!(safe_name("Kees Thijssen"), "Kees Thijssen");
    }

    #[test]
    fn colliding_names_are_numbered() {
        let mut n = Namer::default();
        assert_eq!(n.name(Some("a/b")), "a_b");
        assert_eq!(n.name(Some("a:b")), "a_b-2");
        assert_eq!(n.name(Some("A_B")), "A_B-3");
        assert_eq!(n.name(Some("a/b")), "a_b");
        assert_eq!(n.name(None), "untagged");
        assert_eq!(n.name(Some("untagged")), "untagged-2");
    }

    #[test]
    fn splits_by_count_and_by_tag() {
        let dir = std::env::temp_dir().join(format!("archive-split-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut s = Splitter::new(&dir.join("n"), SplitBy::Games(2), "x").unwrap();
        for i in 0..5 {
            s.put(None, format!("[Round \"{i}\"] *").as_bytes(), false)
                .unwrap();
        }
        let files = s.finish().unwrap();
        let counts: Vec<u64> = files.iter().map(|f| f.1).collect();
        assert_eq!(counts, [2, 2, 1]);
        assert!(files[2].0.ends_with("x-0003.pdn"));
        let text = std::fs::read_to_string(&files[0].0).unwrap();
        assert_eq!(text, "[Round \"0\"] *\n\n[Round \"1\"] *\n\n");

        let mut s = Splitter::new(&dir.join("t"), SplitBy::Tag("Site".into()), "x").unwrap();
        for (site, game) in [(Some("Goris"), "a"), (None, "b"), (Some("Goris"), "c")] {
            s.put(site, game.as_bytes(), true).unwrap();
        }
        let files = s.finish().unwrap();
        assert_eq!(files.len(), 2);
        // Games without a result token get `*`.
        assert_eq!(
            std::fs::read_to_string(&files[0].0).unwrap(),
            "a\n*\n\nc\n*\n\n"
        );
        assert!(files[1].0.ends_with("untagged.pdn"));
        assert!(Splitter::new(&dir, SplitBy::Games(0), "x").is_err());
        // Unfinished: no file left.
        let mut s = Splitter::new(&dir.join("u"), SplitBy::Games(1), "x").unwrap();
        s.put(None, b"1. 32-28 *", false).unwrap();
        drop(s);
        assert_eq!(std::fs::read_dir(dir.join("u")).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
