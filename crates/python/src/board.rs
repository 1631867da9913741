//! `arbiter.Board`: a position to play moves on, drawn as the report draws boards.

use game::{GameInfo, Options};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

/// A position of one game, with the moves played on it.
#[pyclass(module = "arbiter._arbiter")]
pub struct Board {
    info: &'static GameInfo,
    options: Options,
    /// The start position, then the position after each move pushed.
    positions: Vec<String>,
    /// The moves pushed, as given.
    moves: Vec<String>,
}

impl Board {
    fn explorer(&self) -> PyResult<Box<dyn games::Explorer>> {
        games::games()
            .explorer(self.info, &self.options)
            .ok_or_else(|| PyValueError::new_err(format!("{} cannot be explored", self.info.label)))
    }

    /// The position the moves pushed lead to.
    pub(crate) fn current(&self) -> &str {
        self.positions.last().map_or("", String::as_str)
    }

    /// The board's game.
    pub(crate) fn info(&self) -> &'static GameInfo {
        self.info
    }

    /// The board's ruleset options.
    pub(crate) fn options(&self) -> &Options {
        &self.options
    }
}

#[pymethods]
impl Board {
    /// Board(game, fen=None, rules=None)
    /// --
    ///
    /// A board of `game` (a name of `arbiter.games()`) in the position `fen` (the game's
    /// position string, as in a FEN tag; None: the start position), under the ruleset
    /// options `rules` (comma-separated, as `--rules`).
    #[new]
    #[pyo3(signature = (game, fen=None, rules=None))]
    fn new(game: &str, fen: Option<&str>, rules: Option<&str>) -> PyResult<Self> {
        let info = crate::game_named(game)?;
        let options = match rules {
            Some(r) => info
                .parse_options(r)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
            None => Options::default(),
        };
        let mut board = Board {
            info,
            options,
            positions: Vec::new(),
            moves: Vec::new(),
        };
        let start = board
            .explorer()?
            .position_string(fen)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        board.positions.push(start);
        Ok(board)
    }

    /// The game's name (as `arbiter.games()` lists it).
    #[getter]
    fn game(&self) -> &'static str {
        self.info.id
    }

    /// The moves pushed so far.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.moves.clone()
    }

    /// Every legal move, in the game's notation, sorted as `arbiter moves` lists them.
    /// Games of chance (Thaayam) need the throws, e.g. `throws=[1, 4, 2]`.
    #[pyo3(signature = (throws=None))]
    fn legal_moves(&self, throws: Option<Vec<u8>>) -> PyResult<Vec<String>> {
        let explorer = self.explorer()?;
        let throws = throws.unwrap_or_default();
        if explorer.needs_chance() && throws.is_empty() {
            return Err(PyValueError::new_err(format!(
                "{} moves depend on the throws: give them, e.g. legal_moves(throws=[1, 4, 2])",
                self.info.label
            )));
        }
        let moves = explorer
            .moves(Some(self.current()), &throws, None)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(moves.into_iter().map(|m| m.notation).collect())
    }

    /// Plays a move written as in a record (`"11-15"`, `"c3xe5"`; Thaayam: the ply's tokens,
    /// e.g. `"S [4 2] c1+4"`). Raises ValueError with the rules' explanation when the move
    /// is not legal here.
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        let tokens: Vec<&str> = r#move.split_whitespace().collect();
        if tokens.is_empty() {
            return Err(PyValueError::new_err("no move given"));
        }
        let after = self
            .explorer()?
            .play(Some(self.current()), &tokens)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.positions.push(after);
        self.moves.push(r#move.to_string());
        Ok(())
    }

    /// Takes back the last move pushed and returns it.
    fn pop(&mut self) -> PyResult<String> {
        let last = self
            .moves
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no moves pushed"))?;
        self.positions.pop();
        Ok(last)
    }

    /// The position as the game writes it (the value of a FEN tag).
    fn fen(&self) -> String {
        self.current().to_string()
    }

    /// True when the rules end the game in this position.
    fn is_over(&self) -> PyResult<bool> {
        Ok(self.result()? != "*")
    }

    /// The result the rules give this position, written as the game writes results
    /// (`1-0`, `0-1`, `1/2-1/2`, Thaayam's seat results); `*` while the game goes on.
    fn result(&self) -> PyResult<String> {
        let explorer = self.explorer()?;
        let outcome = explorer
            .outcome(Some(self.current()))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(outcome.map_or_else(|| "*".to_string(), |o| explorer.write_result(o)))
    }

    /// The board as an SVG picture, drawn as the statistics report draws positions
    /// (Jupyter shows it in place of the text form).
    fn _repr_svg_(&self) -> PyResult<String> {
        let board = self
            .explorer()?
            .board(Some(self.current()))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let title = format!("{}: {}", self.info.label, self.current());
        Ok(report::Diagram::from_board(&board, title).to_svg())
    }

    fn copy(&self) -> Board {
        Board {
            info: self.info,
            options: self.options.clone(),
            positions: self.positions.clone(),
            moves: self.moves.clone(),
        }
    }

    fn __repr__(&self) -> String {
        format!("Board({:?}, fen={:?})", self.info.id, self.current())
    }
}
