//! What searches the positions of an analysis: arbiter's own engine ([`search::Search`]) or
//! an engine outside arbiter reached through a text interface ([`External`], e.g. a Hub
//! engine), both as a [`Searcher`].

use game::{Engine, MoveInfo, Seat};
use search::{Found, Limits, Search};

/// Why an external engine could not answer; the analysis of the game stops with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("engine `{engine}`: {what}")]
pub struct EngineError {
    /// The engine as the user named it (its command line).
    pub engine: String,
    /// What happened.
    pub what: String,
}

/// A search of one position for the analysis.
pub trait Searcher<G: Engine> {
    /// Searches `pos` for `seat` within `limits` (`throws`: the throws of a game of chance).
    fn search(
        &mut self,
        game: &G,
        pos: &G::Position,
        seat: Seat,
        throws: Option<&[u8]>,
        limits: &Limits,
    ) -> Result<Found<G::Move>, EngineError>;
}

impl<G: Engine> Searcher<G> for Search<'_, G> {
    fn search(
        &mut self,
        _game: &G,
        pos: &G::Position,
        seat: Seat,
        throws: Option<&[u8]>,
        limits: &Limits,
    ) -> Result<Found<G::Move>, EngineError> {
        Ok(self.run(pos, seat, throws, limits))
    }
}

/// What an external engine said of a position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// Its move, as it wrote it (`None`: it gave none).
    pub best: Option<String>,
    /// Its line, its move first, as it wrote it (may be empty).
    pub line: Vec<String>,
    /// The position's value for the side to move, in hundredths of a man.
    pub score: i32,
    /// Set when the score is a proven result: the plies to it.
    pub decided_in: Option<u32>,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// An engine outside arbiter for games of two sides without chance, which reads positions
/// as the game's FEN and writes moves in its own notation.
pub trait External: Send {
    /// The engine as the user named it, for messages.
    fn name(&self) -> &str;
    /// Searches the position `fen` (as the game writes it) within `limits`.
    fn search(&mut self, fen: &str, limits: &Limits) -> Result<Answer, EngineError>;
    /// True when the engine's move `text` is the legal move `info`.
    fn same_move(&self, text: &str, info: &MoveInfo) -> bool;
}

/// An external engine started for a game, or why it was not.
pub enum Started {
    /// Ready to search the game's positions.
    Ready(Box<dyn External>),
    /// The engine does not play the game: why.
    NotPlayed(String),
}

/// Starts an external engine for each game analysed (one engine a game; several games may be
/// analysed at once, on several threads).
pub trait Engines: Sync {
    /// An engine for `game`, or why there is none.
    fn start(&self, game: &'static game::GameInfo) -> Result<Started, EngineError>;
}

/// An [`External`] engine as a [`Searcher`] of any game: positions written as FEN, its moves
/// found among the legal ones, its scores turned to the searched seat's view.
pub(crate) struct Remote(pub Box<dyn External>);

impl Remote {
    fn error(&self, what: String) -> EngineError {
        EngineError {
            engine: self.0.name().to_string(),
            what,
        }
    }

    /// The legal move of `pos` the engine wrote as `text`.
    fn find<G: Engine>(
        &self,
        game: &G,
        pos: &G::Position,
        text: &str,
    ) -> Result<(usize, G::Move), EngineError> {
        let mut moves = Vec::new();
        game.moves_into(pos, &[], &mut moves);
        moves
            .into_iter()
            .enumerate()
            .find(|(_, m)| self.0.same_move(text, &game.describe(pos, m)))
            .ok_or_else(|| {
                self.error(format!(
                    "answered the move {text}, which is not legal in {}",
                    game.write_position(pos)
                ))
            })
    }
}

impl<G: Engine> Searcher<G> for Remote {
    fn search(
        &mut self,
        game: &G,
        pos: &G::Position,
        seat: Seat,
        throws: Option<&[u8]>,
        limits: &Limits,
    ) -> Result<Found<G::Move>, EngineError> {
        let mover = game.to_move(pos);
        let mut moves = Vec::new();
        game.moves_into(pos, throws.unwrap_or(&[]), &mut moves);
        if moves.is_empty() {
            let outcome = game.terminal(pos);
            return Ok(Found {
                best: None,
                score: outcome.map_or(0, |o| search::outcome_score(o, seat, 0)),
                depth: 0,
                nodes: 0,
                line: Vec::new(),
            });
        }
        if throws.is_some() {
            return Err(self.error("plays no game of chance".to_string()));
        }
        let answer = self.0.search(&game.write_position(pos), limits)?;
        let Some(best_text) = answer.best.as_deref() else {
            return Err(self.error(format!(
                "gave no move in {}, which has legal moves",
                game.write_position(pos)
            )));
        };
        let (index, best) = self.find(game, pos, best_text)?;
        let mut line = vec![best.clone()];
        if answer.line.first().map(String::as_str) == Some(best_text) {
            let mut p = pos.clone();
            game.play(&mut p, &best);
            for text in &answer.line[1..] {
                let (_, m) = self.find(game, &p, text)?;
                game.play(&mut p, &m);
                line.push(m);
            }
        }
        let value = match answer.decided_in {
            Some(plies) => answer.score.signum() * (search::WIN - plies.min(9_999) as i32),
            None => answer
                .score
                .clamp(-(search::DECIDED - 1), search::DECIDED - 1),
        };
        Ok(Found {
            best: (mover == seat).then_some((index, best)),
            score: if mover == seat { value } else { -value },
            depth: answer.depth,
            nodes: answer.nodes,
            line,
        })
    }
}
