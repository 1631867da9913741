//! `arbiter.Engine`: arbiter's search as a player, over the registry's type-erased
//! [`games::Searcher`] (the engine of `arbiter hub` and `arbiter analyse`).

use std::sync::Mutex;
use std::time::Duration;

use game::{GameInfo, Options};
use games::Searcher;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::board::Board;

/// An engine for one game: searches a board's position within node, depth or time limits.
/// Keep one for the moves of a game: what it learnt of one position (its hash table)
/// serves the next; `clear()` forgets it.
#[pyclass(module = "arbiter._arbiter")]
pub struct Engine {
    info: &'static GameInfo,
    options: Options,
    hash_mb: usize,
    searcher: Mutex<Box<dyn Searcher>>,
}

/// What a search found.
#[pyclass(module = "arbiter._arbiter", frozen)]
pub struct SearchResult {
    best: Option<String>,
    /// The value of the position for the side to move, in hundredths of a man (draughts
    /// games: +100 is a man ahead); a proven win or loss is ±(1000000 - plies to the end).
    #[pyo3(get)]
    score: i32,
    /// The last depth searched to the end, in plies.
    #[pyo3(get)]
    depth: u32,
    /// Nodes visited.
    #[pyo3(get)]
    nodes: u64,
    /// The expected line of play, best move first, each move as `Board.push` takes it.
    #[pyo3(get)]
    line: Vec<String>,
    /// Plies to the end of the game when the score is a proven win (positive) or loss
    /// (negative); None for an evaluation.
    #[pyo3(get)]
    mate: Option<i32>,
    /// The index of the best move in the position's legal moves, in the rules' own order.
    #[pyo3(get)]
    index: Option<usize>,
}

#[pymethods]
impl SearchResult {
    /// The best move, as `Board.push` takes it; None when the game is over.
    #[getter(r#move)]
    fn best_move(&self) -> Option<String> {
        self.best.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={:?}, score={}, depth={}, nodes={}, line={:?})",
            self.best, self.score, self.depth, self.nodes, self.line
        )
    }
}

#[pymethods]
impl Engine {
    /// Engine(game, hash_mb=64, rules=None)
    /// --
    ///
    /// An engine for `game` (a name of `arbiter.games()`) under the ruleset options
    /// `rules`, with a hash table of about `hash_mb` MB.
    #[new]
    #[pyo3(signature = (game, hash_mb=64, rules=None))]
    fn new(game: &str, hash_mb: usize, rules: Option<&str>) -> PyResult<Self> {
        let info = crate::game_named(game)?;
        if !(1..=65_536).contains(&hash_mb) {
            return Err(PyValueError::new_err(format!(
                "hash_mb={hash_mb}: the hash table is 1 to 65536 MB"
            )));
        }
        let options = match rules {
            Some(r) => info
                .parse_options(r)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
            None => Options::default(),
        };
        let searcher = games::games()
            .searcher(info, &options, hash_mb)
            .ok_or_else(|| PyValueError::new_err(format!("{} has no engine", info.label)))?;
        Ok(Engine {
            info,
            options,
            hash_mb,
            searcher: Mutex::new(searcher),
        })
    }

    /// The game's name (as `arbiter.games()` lists it).
    #[getter]
    fn game(&self) -> &'static str {
        self.info.id
    }

    /// The hash table's size in MB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// search(board, nodes=None, depth=None, time=None)
    /// --
    ///
    /// Searches the position of `board` for the side to move and returns a `SearchResult`
    /// (`move`, `score`, `depth`, `nodes`, `line`, `mate`). Limits: `nodes` (about that
    /// many), `depth` (plies), `time` (seconds); the first reached stops the search, and
    /// with none it searches 6 plies. Under `nodes` or `depth` alone the result is the
    /// same on every machine. The GIL is released while it searches.
    #[pyo3(signature = (board, nodes=None, depth=None, time=None))]
    fn search(
        &self,
        py: Python<'_>,
        board: &Board,
        nodes: Option<u64>,
        depth: Option<u32>,
        time: Option<f64>,
    ) -> PyResult<SearchResult> {
        if board.info().id != self.info.id || board.options() != &self.options {
            return Err(PyValueError::new_err(format!(
                "this engine plays {}{}, the board is {}{}",
                self.info.id,
                rules_text(&self.options),
                board.info().id,
                rules_text(board.options())
            )));
        }
        if nodes == Some(0) || depth == Some(0) {
            return Err(PyValueError::new_err("nodes and depth are at least 1"));
        }
        let time = match time {
            Some(t) if !(t.is_finite() && t > 0.0) => {
                return Err(PyValueError::new_err(format!(
                    "time={t}: a time is a number of seconds above 0"
                )))
            }
            t => t.map(|t| Duration::from_secs_f64(t.min(1e9))),
        };
        let limits = search::Limits { nodes, depth, time };
        let position = board.current().to_string();
        let searcher = &self.searcher;
        let answer = py.detach(|| {
            let mut s = searcher
                .lock()
                .map_err(|_| "an earlier search of this engine failed".to_string())?;
            s.search(Some(&position), &limits)
                .map_err(|e| e.to_string())
        });
        let answer = answer.map_err(PyRuntimeError::new_err)?;
        Ok(SearchResult {
            best: answer.best.as_ref().map(|(_, m)| m.notation.clone()),
            index: answer.best.as_ref().map(|(i, _)| *i),
            score: answer.score,
            depth: answer.depth,
            nodes: answer.nodes,
            mate: answer.decided_in(),
            line: answer.line.into_iter().map(|m| m.notation).collect(),
        })
    }

    /// Forgets what earlier searches learnt (a new game): the next search answers as a new
    /// engine's would.
    fn clear(&self, py: Python<'_>) {
        let searcher = &self.searcher;
        py.detach(|| {
            if let Ok(mut s) = searcher.lock() {
                s.clear();
            }
        });
    }

    fn __repr__(&self) -> String {
        format!("Engine({:?}, hash_mb={})", self.info.id, self.hash_mb)
    }
}

fn rules_text(options: &Options) -> String {
    let names = options.names();
    if names.is_empty() {
        String::new()
    } else {
        format!(" ({})", names.join(","))
    }
}
