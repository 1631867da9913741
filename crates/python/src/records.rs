//! `arbiter.read_games`: games as objects, read lazily.

use std::io::{Cursor, Read};
use std::path::PathBuf;
use std::sync::Mutex;

use pdn::Reader;
use pdn::{GameRecord, Node, RecordBuilder};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use referee::{Referee, Settings};

use archive::Source;

/// One game record: tags, movetext and result as written. Read with `arbiter.read_games`.
#[pyclass(module = "arbiter._arbiter", frozen)]
pub struct Game {
    record: GameRecord,
    /// The input the game was read from (a path, or `<text>`).
    #[pyo3(get)]
    file: String,
    /// 1-based position of the game in its input (as `arbiter validate` counts games).
    #[pyo3(get)]
    index: u64,
}

/// Moves of a movetext (not of its variations), in order.
fn moves_of(nodes: &[Node]) -> Vec<String> {
    nodes
        .iter()
        .filter_map(|n| match n {
            Node::Move(m) => Some(m.token.clone()),
            _ => None,
        })
        .collect()
}

#[pymethods]
impl Game {
    /// The tags as a dict, in file order (a tag given twice keeps its first value; see
    /// `tag_pairs` for all of them).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for t in &self.record.tags {
            if !dict.contains(&t.name)? {
                dict.set_item(&t.name, &t.value)?;
            }
        }
        Ok(dict)
    }

    /// Every tag pair in file order, repeated names included.
    #[getter]
    fn tag_pairs(&self) -> Vec<(String, String)> {
        let tags = &self.record.tags;
        tags.iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect()
    }

    /// The moves of the main line, as written (one token per move).
    #[getter]
    fn moves(&self) -> Vec<String> {
        moves_of(&self.record.movetext)
    }

    /// The variations of the main line: `(ply, moves)` pairs, where `ply` is the number of
    /// main-line moves before the move the variation replaces, and `moves` the variation's
    /// own moves (variations nested in it are left out).
    #[getter]
    fn variations(&self) -> Vec<(usize, Vec<String>)> {
        let mut ply = 0;
        let mut out = Vec::new();
        for n in &self.record.movetext {
            match n {
                Node::Move(_) => ply += 1,
                Node::Variation(v) => out.push((ply.max(1) - 1, moves_of(&v.nodes))),
                _ => {}
            }
        }
        out
    }

    /// The comments of the main line: `(ply, text)` pairs, `ply` being the number of
    /// main-line moves before the comment (0: before the first move).
    #[getter]
    fn comments(&self) -> Vec<(usize, String)> {
        let mut ply = 0;
        let mut out: Vec<(usize, String)> = self
            .record
            .header_comments
            .iter()
            .map(|c| (0, c.text.clone()))
            .collect();
        for n in &self.record.movetext {
            match n {
                Node::Move(_) => ply += 1,
                Node::Comment(c) => out.push((ply, c.text.clone())),
                _ => {}
            }
        }
        out
    }

    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`, ...), or None when the game has none.
    #[getter]
    fn result(&self) -> Option<String> {
        self.record.result.as_ref().map(|r| r.token.clone())
    }

    /// The game the tags name (a name of `arbiter.games()`), or None.
    #[getter]
    fn game(&self) -> Option<&'static str> {
        let (variant, game_type) = (self.record.tag("Variant"), self.record.tag("GameType"));
        crate::registry()
            .identify(variant, game_type)
            .ok()
            .map(|g| g.id)
    }

    /// The game written as PDN text, as `arbiter convert --to pdn` writes it.
    fn to_pdn(&self) -> String {
        self.record.to_pdn()
    }

    /// The positions of the main line: the start position, then the position after each ply
    /// replayed (in the game's position-string dialect, as the `fen_after` column). The game
    /// is identified by its tags unless `game` names it; replaying stops at the first move
    /// the rules refuse. Raises ValueError when the game cannot be identified.
    #[pyo3(signature = (game=None, rules=None))]
    fn positions(
        &self,
        py: Python<'_>,
        game: Option<&str>,
        rules: Option<&str>,
    ) -> PyResult<Vec<String>> {
        let mut settings = crate::settings(game, None, rules)?;
        settings.details = true;
        settings.positions = true;
        py.detach(|| positions(&self.record, settings))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        let [white, black] = ["White", "Black"].map(|t| self.record.tag(t).unwrap_or("?"));
        // The moves of a record are its plies (`1. 11-15 23-19` is two).
        let plies = self.moves().len();
        format!(
            "<Game {} #{}: {} - {}, {} {}, {}>",
            self.file,
            self.index,
            white,
            black,
            plies,
            if plies == 1 { "ply" } else { "plies" },
            self.result().unwrap_or_else(|| "no result".into())
        )
    }
}

/// Why the positions of a game cannot be listed.
#[derive(Debug)]
enum PositionsError {
    /// The game is not identified, and why.
    Unidentified(String),
    /// The game's rules cannot look at positions.
    NotExplorable(&'static str),
    /// The start position cannot be set up.
    BadStart(String),
}

impl std::fmt::Display for PositionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionsError::Unidentified(why) | PositionsError::BadStart(why) => f.write_str(why),
            PositionsError::NotExplorable(label) => write!(f, "{label} cannot be explored"),
        }
    }
}

fn positions(record: &GameRecord, settings: Settings) -> Result<Vec<String>, PositionsError> {
    let mut referee = Referee::new(games::games(), settings.clone());
    let report = record.accept(&mut referee);
    let Some(info) = report.game else {
        let why = report
            .diagnostics
            .iter()
            .find(|d| d.code == "unknown-game")
            .map_or_else(
                || "the game is not known".to_string(),
                |d| d.message.clone(),
            );
        return Err(PositionsError::Unidentified(why));
    };
    let options = match settings.rules.as_deref().or(record.tag("Rules")) {
        Some(r) => info.parse_options(r).unwrap_or_default(),
        None => game::Options::default(),
    };
    let explorer = games::games()
        .explorer(info, &options)
        .ok_or(PositionsError::NotExplorable(info.label))?;
    let start = explorer
        .position_string(record.tag("FEN"))
        .map_err(|e| PositionsError::BadStart(e.to_string()))?;
    let mut out = vec![start];
    out.extend(report.details.iter().map(|d| d.position.to_string()));
    Ok(out)
}

/// An input being read: its name and reader.
type Open = (String, Reader<Box<dyn Read + Send>>);

/// A lazy iterator over the games of a list of inputs, one after another.
#[pyclass(module = "arbiter._arbiter")]
pub struct GameIter {
    sources: Vec<Source>,
    /// The next input to open.
    next: usize,
    /// The input being read: its name and reader.
    current: Mutex<Option<Open>>,
    /// Games read from the current input.
    index: u64,
}

impl GameIter {
    /// Opens the next input; false when there is none.
    fn open_next(&mut self) -> PyResult<bool> {
        let current = self.current.get_mut().expect("one reader at a time");
        *current = None;
        let Some(input) = self.sources.get(self.next) else {
            return Ok(false);
        };
        self.next += 1;
        self.index = 0;
        let name = input.name();
        let reader: Box<dyn Read + Send> = match input {
            Source::Text { text, .. } => Box::new(Cursor::new(text.clone().into_bytes())),
            _ => input
                .open(games::games())
                .map_err(|e| crate::io_error(&name, &e.into()))?,
        };
        *current = Some((name, Reader::new(reader)));
        Ok(true)
    }
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Game>> {
        loop {
            let current = &self.current;
            let read = py.detach(|| {
                let mut current = current.lock().expect("one reader at a time");
                current.as_mut().map(|(name, reader)| {
                    (name.clone(), reader.read_game(&mut RecordBuilder::new()))
                })
            });
            match read {
                None => return Ok(None),
                Some((name, Ok(Some(record)))) => {
                    self.index += 1;
                    return Ok(Some(Game {
                        record,
                        file: name,
                        index: self.index,
                    }));
                }
                Some((_, Ok(None))) => {
                    if !self.open_next()? {
                        return Ok(None);
                    }
                }
                Some((name, Err(e))) => return Err(crate::io_error(&name, &e)),
            }
        }
    }
}

/// Games of a file or a folder (`path`: the files a folder search finds, as the CLI finds
/// them, one after another) or of a PDN text (`text`), read one at a time.
#[pyfunction]
#[pyo3(signature = (path=None, text=None))]
pub fn read_games(path: Option<PathBuf>, text: Option<String>) -> PyResult<GameIter> {
    let sources = match (path, text) {
        (Some(p), None) => crate::collect(&[p])?,
        (None, Some(text)) => vec![Source::Text {
            name: "<text>".into(),
            text,
        }],
        _ => return Err(PyValueError::new_err("give a path or a text")),
    };
    let mut games = GameIter {
        sources,
        next: 0,
        current: Mutex::new(None),
        index: 0,
    };
    // The first input is opened at once, so that a path that cannot be read fails here.
    games.open_next()?;
    Ok(games)
}
