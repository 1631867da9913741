//! The engine as a player, with the game's type erased: [`Searcher`] searches positions
//! given as position strings and answers with moves described in the game's notation.
//!
//! A [`search::Search`] borrows its game, so a searcher keeps the game and its search on a
//! thread of their own and hands them positions: the transposition table then lasts from
//! one search to the next (a game's moves, an analysis), without a borrow to carry around.
//! The thread ends when the searcher is dropped.

use std::sync::mpsc;
use std::thread;

use game::{Engine, MoveInfo};
use search::{Limits, Search, DECIDED, WIN};

use crate::ExplorerError;

/// What a search found, in the game's notation.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchAnswer {
    /// The best move of the side to move and its index in the position's legal moves (in
    /// the order of [`game::Explore::legal_moves`], the order the search lists them in);
    /// `None` when the game is over in the position.
    pub best: Option<(usize, MoveInfo)>,
    /// The value of the position for the side to move, in the unit of
    /// [`game::Engine::value`] (hundredths of a man in the draughts games); a proven win is
    /// [`search::WIN`] less the plies to it, a proven loss its negative.
    pub score: i32,
    /// The last depth searched to the end.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line of play, the best move first, each move described in the position
    /// it is played from.
    pub line: Vec<MoveInfo>,
}

impl SearchAnswer {
    /// The plies to the end of the game when the score is a win (positive) or loss
    /// (negative) the search proved; `None` for an evaluation.
    pub fn decided_in(&self) -> Option<i32> {
        (self.score.abs() >= DECIDED).then(|| {
            let plies = WIN - self.score.abs();
            if self.score > 0 {
                plies
            } else {
                -plies
            }
        })
    }
}

/// A game's engine under fixed options, searching one position at a time and keeping what
/// it learnt (its transposition table) until [`Searcher::clear`].
pub trait Searcher: Send {
    /// Searches `position` (`None`: the start position) for the side to move within
    /// `limits`. A search stopped by its time before the first depth was complete still
    /// answers with a move (the best of a one-ply search).
    fn search(
        &mut self,
        position: Option<&str>,
        limits: &Limits,
    ) -> Result<SearchAnswer, ExplorerError>;
    /// Forgets what earlier searches learnt: the next search answers as a fresh one would
    /// (a new game).
    fn clear(&mut self);
}

enum Request {
    Search(Option<String>, Limits),
    Clear,
}

type Answer = Result<SearchAnswer, ExplorerError>;

/// A [`Searcher`] whose game and search live on a thread of their own.
pub(crate) struct Thinking {
    requests: mpsc::Sender<Request>,
    answers: mpsc::Receiver<Answer>,
    /// Why the thread could not be started, answered to every search.
    broken: Option<String>,
}

impl Thinking {
    pub(crate) fn new<G>(game: G, hash_mb: usize) -> Thinking
    where
        G: Engine + Send + 'static,
        G::Position: Send,
    {
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, answers) = mpsc::channel::<Answer>();
        let started = thread::Builder::new()
            .name("arbiter-search".to_string())
            .spawn(move || {
                let mut search = Search::new(&game, hash_mb);
                for request in inbox {
                    match request {
                        Request::Search(position, limits) => {
                            let answer = think(&game, &mut search, position.as_deref(), &limits);
                            if outbox.send(answer).is_err() {
                                break;
                            }
                        }
                        Request::Clear => search.clear(),
                    }
                }
            });
        Thinking {
            requests,
            answers,
            broken: started
                .err()
                .map(|e| format!("cannot start the search thread: {e}")),
        }
    }
}

impl Searcher for Thinking {
    fn search(&mut self, position: Option<&str>, limits: &Limits) -> Answer {
        if let Some(why) = &self.broken {
            return Err(ExplorerError::Engine(why.clone()));
        }
        let lost = || ExplorerError::Engine("the search thread stopped".to_string());
        self.requests
            .send(Request::Search(position.map(str::to_string), *limits))
            .map_err(|_| lost())?;
        self.answers.recv().map_err(|_| lost())?
    }

    fn clear(&mut self) {
        // A searcher whose thread is gone has nothing to forget.
        let _ = self.requests.send(Request::Clear);
    }
}

/// One search on the searcher's thread.
fn think<G: Engine>(
    game: &G,
    search: &mut Search<'_, G>,
    position: Option<&str>,
    limits: &Limits,
) -> Answer {
    let pos = match position {
        Some(text) => game.parse_position(text.trim()),
        None => game.start_position(&|_| None),
    }
    .map_err(ExplorerError::Position)?;
    let mut found = search.best(&pos, limits);
    if found.best.is_none() && game.terminal(&pos).is_none() {
        // The time ran out before the first depth was complete.
        let nodes = found.nodes;
        found = search.best(&pos, &Limits::depth(1));
        found.nodes += nodes;
    }
    let mut line = Vec::with_capacity(found.line.len());
    let mut at = pos.clone();
    for mv in &found.line {
        line.push(game.describe(&at, mv));
        game.play(&mut at, mv);
    }
    let best = found
        .best
        .as_ref()
        .map(|(i, mv)| (*i, game.describe(&pos, mv)));
    if let (Some((_, info)), None) = (&best, line.first()) {
        line.push(info.clone());
    }
    Ok(SearchAnswer {
        best,
        score: found.score,
        depth: found.depth,
        nodes: found.nodes,
        line,
    })
}
