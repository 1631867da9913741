//! The analysis of one game under one game's rules: the positions of its main line, a search
//! of each, the move played found among the legal moves, and each ply judged.

use game::{Engine, Seat};
use referee::GameReport;
use search::{Found, Search};

use crate::classify::{accuracy, classify, Judged};
use crate::searcher::{EngineError, Remote, Searcher};
use crate::shots::{self, Shot};
use crate::{Analyser, GameAnalysis, PlyAnalysis, Settings, Unanalysed};

/// The analyser of one game's rules.
pub(crate) struct Typed<G> {
    pub game: G,
    pub settings: Settings,
    /// The engine searching the positions, when it is not arbiter's own.
    pub remote: Option<Remote>,
}

/// One ply of the main line, replayed.
struct Step<G: Engine> {
    before: G::Position,
    seat: Seat,
    throws: Vec<u8>,
    /// Index of the move played among the legal moves of `before` for `throws`.
    played: usize,
    notation: String,
}

impl<G> Analyser for Typed<G>
where
    G: Engine + Send,
    G::Position: Send,
{
    fn analyse(&mut self, report: &GameReport) -> Result<GameAnalysis, EngineError> {
        let (steps, end, unanalysed) = self.steps(report);
        let mut remote = self.remote.take();
        let mut own;
        let searcher: &mut dyn Searcher<G> = match remote.as_mut() {
            Some(r) => r,
            None => {
                own = Search::new(&self.game, self.settings.hash_mb);
                &mut own
            }
        };
        let plies = self.judge(searcher, &steps, &end);
        self.remote = remote;
        Ok(GameAnalysis {
            plies: plies?,
            unanalysed,
        })
    }

    fn starts_ply(&self, token: &[u8]) -> bool {
        self.game.starts_ply(token)
    }
}

impl<G: Engine> Typed<G> {
    /// The plies of the main line as the referee replayed them, each matched to a legal move;
    /// the position they lead to; why the analysis stopped short, if it did.
    fn steps(
        &self,
        report: &GameReport,
    ) -> (Vec<Step<G>>, Option<G::Position>, Option<Unanalysed>) {
        let g = &self.game;
        let stop = |ply: u32, why: String| Some(Unanalysed { ply, why });
        let Ok(mut pos) = g.parse_position(&report.start_position) else {
            return (
                Vec::new(),
                None,
                stop(1, "the start position could not be set up".into()),
            );
        };
        let mut steps = Vec::new();
        let mut moves = Vec::new();
        for detail in report.details.iter() {
            let Ok(after) = g.parse_position(detail.position) else {
                return (
                    steps,
                    Some(pos),
                    stop(detail.ply, "a position could not be read".into()),
                );
            };
            let want = g.position_key(&after);
            g.moves_into(&pos, detail.throws, &mut moves);
            let played = moves.iter().position(|m| {
                let mut p = pos.clone();
                g.play(&mut p, m);
                g.position_key(&p) == want
            });
            let Some(played) = played else {
                let why = format!(
                    "{} is not one legal move of the position before it (several joined plays)",
                    detail.notation
                );
                return (steps, Some(pos), stop(detail.ply, why));
            };
            steps.push(Step {
                seat: g.to_move(&pos),
                before: pos,
                throws: detail.throws.to_vec(),
                played,
                notation: detail.notation.to_string(),
            });
            pos = after;
        }
        (steps, Some(pos), None)
    }

    fn search(
        &self,
        search: &mut dyn Searcher<G>,
        pos: &G::Position,
        seat: Seat,
        throws: Option<&[u8]>,
    ) -> Result<Found<G::Move>, EngineError> {
        search.search(&self.game, pos, seat, throws, &self.settings.limits)
    }

    /// Every ply searched and judged: the position's search gives the engine's choice; when
    /// the move played is another, both moves are searched again with the same budget each
    /// (the position after each, for the mover), so that the two compare on equal terms and
    /// each is seen deeper than among all the moves of the position.
    fn judge(
        &self,
        search: &mut dyn Searcher<G>,
        steps: &[Step<G>],
        end: &Option<G::Position>,
    ) -> Result<Vec<PlyAnalysis>, EngineError> {
        let g = &self.game;
        let chance = g.needs_chance();
        let budget = self.settings.shot_nodes;
        let mut shots: Vec<Option<Shot<G::Move>>> = steps
            .iter()
            .map(|s| shots::find(g, &s.before, budget))
            .collect();
        shots.push(end.as_ref().and_then(|p| shots::find(g, p, budget)));
        let mut plies = Vec::with_capacity(steps.len());
        for (i, step) in steps.iter().enumerate() {
            let throws = chance.then_some(step.throws.as_slice());
            let found = self.search(search, &step.before, step.seat, throws)?;
            let (before, after) = match found.best {
                Some((b, _)) if b != step.played => {
                    let best = self.move_value(search, step, b)?;
                    let played = self.move_value(search, step, step.played)?;
                    (best.max(played), played)
                }
                _ => (found.score, found.score),
            };
            let scores = (before, after);
            plies.push(self.ply(i, step, &found, scores, &shots[i], &shots[i + 1]));
        }
        Ok(plies)
    }

    /// The value for the mover of move `index` of the step's position: the position after
    /// it searched for the mover with the analysis' limit.
    fn move_value(
        &self,
        search: &mut dyn Searcher<G>,
        step: &Step<G>,
        index: usize,
    ) -> Result<i32, EngineError> {
        let g = &self.game;
        let mut moves = Vec::new();
        g.moves_into(&step.before, &step.throws, &mut moves);
        let Some(mv) = moves.get(index) else {
            return Ok(0);
        };
        let child = after_move(g, &step.before, mv);
        Ok(self.search(search, &child, step.seat, None)?.score)
    }

    fn ply(
        &self,
        i: usize,
        step: &Step<G>,
        found: &Found<G::Move>,
        (before, after): (i32, i32),
        shot_here: &Option<Shot<G::Move>>,
        shot_next: &Option<Shot<G::Move>>,
    ) -> PlyAnalysis {
        let g = &self.game;
        let k = g.curve();
        let best = found.best.as_ref();
        let agreed = best.is_some_and(|(b, _)| *b == step.played);
        let mut moves = Vec::new();
        g.moves_into(&step.before, &step.throws, &mut moves);
        let played_move = &moves[step.played];
        let missed: Option<&Shot<G::Move>> = shot_here.as_ref().filter(|s| {
            let first = &s.line[0];
            !moves_equal(g, &step.before, first, played_move)
        });
        let opponent_moves_next = {
            let mut p = step.before.clone();
            g.play(&mut p, played_move);
            g.to_move(&p) != step.seat
        };
        let allowed = shot_next
            .as_ref()
            .filter(|_| opponent_moves_next && !agreed);
        let judged = Judged {
            missed_shot: missed.is_some(),
            allowed_shot: allowed.is_some(),
            ..Judged::new(before, after, k)
        };
        let class = classify(&judged);
        let shot_line = match class {
            Some(crate::Class::AllowedShot) => {
                allowed.map(|s| self.written(&after_move(g, &step.before, played_move), &s.line))
            }
            Some(crate::Class::MissedShot) => missed.map(|s| self.written(&step.before, &s.line)),
            _ => None,
        };
        PlyAnalysis {
            ply: i as u32 + 1,
            seat: step.seat.0,
            played: step.notation.clone(),
            eval_before: crate::shown(before),
            eval_after: crate::shown(after),
            best: best.map(|(_, m)| {
                self.written(&step.before, std::slice::from_ref(m))
                    .remove(0)
            }),
            line: self.written(&step.before, &found.line),
            loss: judged.loss,
            class,
            accuracy: accuracy(judged.before, judged.after),
            agreed,
            shot: shot_line.unwrap_or_default(),
            depth: found.depth,
            nodes: found.nodes,
        }
    }

    /// A line of moves from `pos`, written in the game's notation.
    fn written(&self, pos: &G::Position, line: &[G::Move]) -> Vec<String> {
        let g = &self.game;
        let mut p = pos.clone();
        line.iter()
            .map(|m| {
                let text = g.write_move(&p, m, g.default_notation());
                g.play(&mut p, m);
                text
            })
            .collect()
    }
}

fn after_move<G: Engine>(g: &G, pos: &G::Position, mv: &G::Move) -> G::Position {
    let mut p = pos.clone();
    g.play(&mut p, mv);
    p
}

/// Two moves of `pos` are the same when they lead to the same position.
fn moves_equal<G: Engine>(g: &G, pos: &G::Position, a: &G::Move, b: &G::Move) -> bool {
    g.position_key(&after_move(g, pos, a)) == g.position_key(&after_move(g, pos, b))
}
