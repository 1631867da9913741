//! `split`: one archive into files of N games, or one file per value of a tag.

use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
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
///
/// What it keeps per value is bounded and small (a split by a tag with a million distinct
/// values keeps about a hundred bytes per value): a 128-bit hash of the value (seeded per
/// namer, so that no input can be made to collide in advance), one of its file name ignoring
/// case, and the name itself, all names in one buffer. Numbering goes on from the last
/// number given to the same name, so values that share a safe name take linear time.
#[derive(Debug)]
pub struct Namer {
    seed: u64,
    /// Hash of a value (see [`Namer::key`]) to its file's number.
    by_value: HashMap<[u64; 2], u32>,
    /// Hashes of the names given, in lower case.
    used: HashSet<[u64; 2]>,
    /// For a name given to two values or more: the last number tried after it.
    numbered: HashMap<[u64; 2], u32>,
    /// Every name given, one after another, with where each ends.
    names: String,
    ends: Vec<usize>,
}

impl Default for Namer {
    fn default() -> Self {
        use std::hash::BuildHasher;
        Namer {
            seed: std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64),
            by_value: HashMap::new(),
            used: HashSet::new(),
            numbered: HashMap::new(),
            names: String::new(),
            ends: Vec::new(),
        }
    }
}

impl Namer {
    /// The file name stem of a value (`None`: the tag is missing).
    pub fn name(&mut self, value: Option<&str>) -> &str {
        let i = self.number(value);
        self.get(i)
    }

    /// The number of a value's file (in the order first named), naming it if it is new.
    pub fn number(&mut self, value: Option<&str>) -> u32 {
        let key = match value {
            Some(v) => self.key(0, v),
            None => self.key(1, ""),
        };
        if let Some(&i) = self.by_value.get(&key) {
            return i;
        }
        let base = value.map_or_else(|| "untagged".to_string(), safe_name);
        let i = self.add(&base);
        self.by_value.insert(key, i);
        i
    }

    /// Gives out `base`, or `base-N` for the first N from 2 on that no other name has
    /// (ignoring case); returns its number.
    fn add(&mut self, base: &str) -> u32 {
        let lower = self.key(2, &base.to_lowercase());
        let mut name = base.to_string();
        if self.used.contains(&lower) {
            let mut n = self.numbered.get(&lower).copied().unwrap_or(1);
            loop {
                n += 1;
                name = format!("{base}-{n}");
                if !self.used.contains(&self.key(2, &name.to_lowercase())) {
                    break;
                }
            }
            self.numbered.insert(lower, n);
        }
        let taken = self.key(2, &name.to_lowercase());
        self.used.insert(taken);
        self.names.push_str(&name);
        self.ends.push(self.names.len());
        (self.ends.len() - 1) as u32
    }

    /// The name of file number `i`.
    pub fn get(&self, i: u32) -> &str {
        let i = i as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.names[start..self.ends[i]]
    }

    /// How many names were given.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no name was given.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// A seeded 128-bit hash of `text` in one of three domains (values, no value, names).
    fn key(&self, domain: u8, text: &str) -> [u64; 2] {
        let v = twox_hash::xxhash3_128::Hasher::oneshot_with_seed(
            self.seed ^ u64::from(domain),
            text.as_bytes(),
        );
        [v as u64, (v >> 64) as u64]
    }
}

/// How many files a splitter keeps open at once; others are reopened to append.
const OPEN_FILES: usize = 64;

/// Writes games into the files of a folder: into a staging folder inside it
/// ([`outfile::Staging`]) until [`Splitter::finish`] moves them in whole, so that a failed or
/// interrupted split leaves nothing behind and writes through no planted name.
pub struct Splitter {
    dir: PathBuf,
    staging: outfile::Staging,
    by: SplitBy,
    stem: String,
    /// The files written, numbered in the order first written.
    namer: Namer,
    open: HashMap<u32, BufWriter<outfile::StagedFile>>,
    /// The number of games in each file.
    counts: Vec<u64>,
    games: u64,
    /// Files the splitter must not write (its inputs), canonical.
    inputs: Vec<PathBuf>,
}

/// The files a split wrote, in the order first written, each with its number of games.
pub struct SplitFiles {
    dir: PathBuf,
    /// What follows each name of `namer` in its file name.
    extension: &'static str,
    namer: Namer,
    counts: Vec<u64>,
}

impl SplitFiles {
    /// How many files were written.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether no file was written.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Each file's path and number of games.
    pub fn iter(&self) -> impl Iterator<Item = (PathBuf, u64)> + '_ {
        self.counts.iter().enumerate().map(|(i, &n)| {
            let name = format!("{}{}", self.namer.get(i as u32), self.extension);
            (self.dir.join(name), n)
        })
    }
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
        let staging = outfile::Staging::create(dir)?;
        Ok(Splitter {
            dir: dir.to_path_buf(),
            staging,
            by,
            stem: safe_name(stem),
            namer: Namer::default(),
            open: HashMap::new(),
            counts: Vec::new(),
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
        let file = match &self.by {
            SplitBy::Games(n) => {
                let stem = format!("{}-{:04}.pdn", self.stem, self.games / n + 1);
                match self.games % n {
                    0 => self.namer.add(&stem),
                    _ => (self.namer.len() - 1) as u32,
                }
            }
            SplitBy::Tag(_) => self.namer.number(tag_value),
        };
        self.games += 1;
        let out = self.writer(file)?;
        write_game(out, text, open)?;
        self.counts[file as usize] += 1;
        Ok(())
    }

    /// The file name of file number `file`.
    fn file_name(&self, file: u32) -> String {
        match &self.by {
            SplitBy::Games(_) => self.namer.get(file).to_string(),
            SplitBy::Tag(_) => format!("{}.pdn", self.namer.get(file)),
        }
    }

    /// The open file number `file`: created the first time, reopened to append after it
    /// was closed to keep the number of open files bounded.
    fn writer(&mut self, file: u32) -> io::Result<&mut BufWriter<outfile::StagedFile>> {
        if !self.open.contains_key(&file) {
            if self.open.len() >= OPEN_FILES {
                for (_, mut w) in self.open.drain() {
                    w.flush()?;
                }
            }
            let name = self.file_name(file);
            let path = self.staging.path().join(&name);
            let target = self.dir.join(&name);
            let named = |e| outfile::named(&target, e);
            let out = if (file as usize) < self.counts.len() {
                OpenOptions::new().append(true).open(&path).map_err(named)?
            } else {
                self.refuse_input(&name)?;
                self.counts.push(0);
                let opened = OpenOptions::new().write(true).create_new(true).open(&path);
                opened.map_err(named)?
            };
            let out = outfile::StagedFile::new(out, &target);
            self.open
                .insert(file, BufWriter::with_capacity(1 << 16, out));
        }
        Ok(self.open.get_mut(&file).expect("just opened"))
    }

    /// An error when the file `name` of the target folder is one of the run's inputs.
    fn refuse_input(&self, name: &str) -> io::Result<()> {
        let path = self.dir.join(name);
        match path.canonicalize() {
            Ok(canonical) if self.inputs.contains(&canonical) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is an input of this run; split into another folder",
                    path.display()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Flushes every file and moves them all into the target folder, each replacing a file
    /// of its name whole; returns the files written with their numbers of games. Until then
    /// the files are in the staging folder, removed if the splitter is dropped unfinished.
    pub fn finish(mut self) -> io::Result<SplitFiles> {
        for (_, mut w) in self.open.drain() {
            w.flush()?;
        }
        self.staging.commit(&[])?;
        Ok(SplitFiles {
            dir: self.dir,
            extension: match self.by {
                SplitBy::Games(_) => "",
                SplitBy::Tag(_) => ".pdn",
            },
            namer: self.namer,
            counts: self.counts,
        })
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

    /// Values that all get one safe name (their first hundred bytes are alike) are numbered
    /// in linear time: each goes on from the last number of its name instead of trying
    /// every number from 2 (ten times the values must not take a hundred times as long).
    #[test]
    fn numbering_many_values_of_one_name_is_linear() {
        fn name_all(n: usize) -> std::time::Duration {
            let prefix = "x".repeat(MAX_NAME);
            let values: Vec<String> = (0..n).map(|i| format!("{prefix}{i}")).collect();
            let start = std::time::Instant::now();
            let mut namer = Namer::default();
            for v in &values {
                namer.name(Some(v));
            }
            let took = start.elapsed();
            assert_eq!(namer.len(), n);
            assert_eq!(namer.name(Some(&values[n - 1])), format!("{prefix}-{n}"));
            took
        }
        let n = 2_000;
        let best = |n| (0..3).map(|_| name_all(n)).min().unwrap();
        let (t1, t10) = (best(n), best(10 * n));
        assert!(
            t10.as_secs_f64() < 30.0 * t1.as_secs_f64(),
            "{n} values: {t1:?}, {}: {t10:?}",
            10 * n
        );
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
        let files: Vec<_> = s.finish().unwrap().iter().collect();
        let counts: Vec<u64> = files.iter().map(|f| f.1).collect();
        assert_eq!(counts, [2, 2, 1]);
        assert!(files[2].0.ends_with("x-0003.pdn"));
        let text = std::fs::read_to_string(&files[0].0).unwrap();
        assert_eq!(text, "[Round \"0\"] *\n\n[Round \"1\"] *\n\n");

        let mut s = Splitter::new(&dir.join("t"), SplitBy::Tag("Site".into()), "x").unwrap();
        for (site, game) in [(Some("Goris"), "a"), (None, "b"), (Some("Goris"), "c")] {
            s.put(site, game.as_bytes(), true).unwrap();
        }
        let files: Vec<_> = s.finish().unwrap().iter().collect();
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
        assert!(!dir.join("u").exists(), "the folder it made is gone again");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
