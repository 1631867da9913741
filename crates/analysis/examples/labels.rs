//! Can the labels be trusted? Measured on real games (two-seat draughts games of the given
//! archives), as docs/analysis.md describes:
//!
//! - **replaced moves**: at positions of real games, a legal move other than the engine's
//!   choice that a search with 10x the nodes proves loses at least a man is put in place of
//!   the move played; the share the analysis (default nodes) grades mistake or worse, and
//!   the share graded blunder of those that lose two men or more from a balanced position;
//! - **original moves**: the share of the moves played that the analysis grades mistake or
//!   worse while the 10x search finds they lose less than a mistake's worth.
//!
//! cargo run --release -p analysis --example labels -- [--nodes N] [--positions K] PATH...

mod common;

use std::path::PathBuf;

use analysis::classify::{chances, classify, Judged};
use analysis::{Catalog, Settings};
use game::{Engine, Game};
use rayon::prelude::*;
use referee::Referee;
use search::{Limits, Search};

struct Args {
    nodes: u64,
    positions: usize,
    paths: Vec<PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        nodes: Settings::DEFAULT_NODES,
        positions: 200,
        paths: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        match x.as_str() {
            "--nodes" => a.nodes = it.next().and_then(|v| v.parse().ok()).unwrap_or(a.nodes),
            "--positions" => {
                a.positions = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(a.positions)
            }
            _ => a.paths.push(x.into()),
        }
    }
    a
}

/// A position of a real game: its game, position string, and the move played.
struct Sample {
    variant: &'static draughts::Variant,
    fen: String,
    played: String,
}

fn samples(a: &Args) -> Vec<Sample> {
    let mut out = Vec::new();
    common::each_ply(&a.paths, |p| {
        if p.detail.ply >= 10 && p.detail.ply % 9 == 0 {
            out.push(Sample {
                variant: p.variant,
                fen: p.before.to_string(),
                played: p.detail.notation.to_string(),
            });
        }
        out.len() < a.positions
    });
    out
}

/// Positions further than this from equal at 10x count as already decided (reported apart).
const DECIDED_AT: i32 = 400;

/// A class marked `?` or `??`.
fn mistake_or_worse(class: Option<analysis::Class>) -> bool {
    class.is_some_and(|c| c.mark() != "?!")
}

/// A class marked `??`.
fn blunder(class: Option<analysis::Class>) -> bool {
    class.is_some_and(|c| c.mark() == "??")
}

/// The analysis' drop in winning chances and class for `mv` played at `fen`.
fn judged(s: &Sample, mv: &str, nodes: u64) -> Option<(f64, Option<analysis::Class>)> {
    let record = format!(
        "[GameType \"{}\"]\n[FEN \"{}\"]\n[Result \"*\"]\n\n1. {mv} *\n",
        s.variant.game_type, s.fen
    );
    let settings = referee::Settings {
        details: true,
        positions: true,
        ..Default::default()
    };
    let mut referee = Referee::new(games::games(), settings);
    let report = pdn::read_all(record.as_bytes())
        .first()?
        .accept(&mut referee);
    let info = report.game?;
    let analysis_settings = Settings {
        limits: Limits::nodes(nodes),
        ..Settings::default()
    };
    let mut a = games::games().analyser(info, &report.options, analysis_settings)?;
    let p = a.analyse(&report).ok()?.plies.into_iter().next()?;
    let k = draughts::Draughts::new(s.variant).curve();
    Some((
        chances(p.eval_before, k) - chances(p.eval_after, k),
        p.class,
    ))
}

/// What the searches say, for the mover: the best score and the moves' scores at the
/// analysis' nodes, and `deep(move)` at 10x.
struct Scores {
    g: draughts::Draughts,
    pos: draughts::Position,
    me: game::Seat,
    moves: Vec<(String, draughts::Move, i32)>,
}

impl Scores {
    fn new(s: &Sample, nodes: u64) -> Option<Scores> {
        let g = draughts::Draughts::new(s.variant);
        let pos = g.parse_position(&s.fen).ok()?;
        let me = g.to_move(&pos);
        let mut search = Search::new(&g, 16);
        let mut list = Vec::new();
        g.moves_into(&pos, &[], &mut list);
        let moves = list
            .iter()
            .map(|m| {
                let mut child = pos;
                g.play(&mut child, m);
                let v = search.run(&child, me, None, &Limits::nodes(nodes)).score;
                (g.write_move(&pos, m, g.default_notation()), *m, v)
            })
            .collect();
        Some(Scores { g, pos, me, moves })
    }

    /// The best score and the score of the move written `text`, at `nodes`.
    fn deep(&self, text: &str, nodes: u64) -> Option<(i32, i32)> {
        let mut search = Search::new(&self.g, 32);
        let best = search
            .run(&self.pos, self.me, None, &Limits::nodes(nodes))
            .score;
        let (_, m, _) = self.moves.iter().find(|(t, _, _)| t == text)?;
        let mut child = self.pos;
        self.g.play(&mut child, m);
        let v = search
            .run(&child, self.me, None, &Limits::nodes(nodes))
            .score;
        Some((best, v))
    }
}

#[derive(Default)]
struct Counts {
    replaced: u32,
    replaced_mistake: u32,
    open: u32,
    open_mistake: u32,
    two_men: u32,
    two_men_blunder: u32,
    originals: u32,
    false_mistakes: u32,
}

fn main() {
    let a = args();
    let samples = samples(&a);
    let deep_nodes = 10 * a.nodes;
    let results: Vec<Counts> = samples
        .par_iter()
        .map(|s| {
            let mut c = Counts::default();
            let Some(scores) = Scores::new(s, a.nodes) else {
                return c;
            };
            let k = scores.g.curve();
            if let (Some((best, v)), Some((_, class))) = (
                scores.deep(&s.played, deep_nodes),
                judged(s, &s.played, a.nodes),
            ) {
                c.originals += 1;
                let deep = classify(&Judged::new(best, v, k));
                c.false_mistakes += u32::from(mistake_or_worse(class) && !mistake_or_worse(deep));
            }
            // A candidate at the analysis' nodes: of the moves that seem to lose a man or
            // more, the one losing least (the hardest to tell); the 10x search must confirm.
            let top = scores.moves.iter().map(|m| m.2).max().unwrap_or(0);
            let candidate = scores
                .moves
                .iter()
                .filter(|(_, _, v)| top - v >= 100)
                .max_by_key(|(_, _, v)| *v);
            if let Some((text, _, _)) = candidate {
                if let (Some((best, v)), Some((jdrop, class))) =
                    (scores.deep(text, deep_nodes), judged(s, text, a.nodes))
                {
                    if best - v >= 100 {
                        let graded = mistake_or_worse(class);
                        c.replaced += 1;
                        c.replaced_mistake += u32::from(graded);
                        if best.abs() <= DECIDED_AT {
                            c.open += 1;
                            c.open_mistake += u32::from(graded);
                        }
                        if !graded {
                            eprintln!(
                                "not a mistake: {} {text} (10x: best {best}, move {v}; drop {jdrop:.3}, class {class:?})",
                                s.fen
                            );
                        }
                        if best.abs() <= 50 && best - v >= 200 {
                            c.two_men += 1;
                            c.two_men_blunder += u32::from(blunder(class));
                            if !blunder(class) {
                                eprintln!(
                                    "not a blunder: {} {text} (10x: best {best}, move {v}; drop {jdrop:.3}, class {class:?})",
                                    s.fen
                                );
                            }
                        }
                    }
                }
            }
            c
        })
        .collect();
    let mut t = Counts::default();
    for c in results {
        t.replaced += c.replaced;
        t.replaced_mistake += c.replaced_mistake;
        t.open += c.open;
        t.open_mistake += c.open_mistake;
        t.two_men += c.two_men;
        t.two_men_blunder += c.two_men_blunder;
        t.originals += c.originals;
        t.false_mistakes += c.false_mistakes;
    }
    let pct = |x: u32, n: u32| {
        if n == 0 {
            0.0
        } else {
            100.0 * f64::from(x) / f64::from(n)
        }
    };
    println!(
        "positions {} (nodes {} a position, checks at {})",
        samples.len(),
        a.nodes,
        deep_nodes
    );
    println!(
        "replaced moves losing a man or more: {} of {} graded mistake or worse ({:.1} %)",
        t.replaced_mistake,
        t.replaced,
        pct(t.replaced_mistake, t.replaced)
    );
    println!(
        "  of those from a position not yet decided (within {DECIDED_AT} of equal at 10x): {} of {} ({:.1} %)",
        t.open_mistake,
        t.open,
        pct(t.open_mistake, t.open)
    );
    println!(
        "  of those losing two men or more from a balanced position: {} of {} graded blunder ({:.1} %)",
        t.two_men_blunder,
        t.two_men,
        pct(t.two_men_blunder, t.two_men)
    );
    println!(
        "original moves graded mistake or worse where the deeper search disagrees: {} of {} ({:.1} %)",
        t.false_mistakes,
        t.originals,
        pct(t.false_mistakes, t.originals)
    );
}
