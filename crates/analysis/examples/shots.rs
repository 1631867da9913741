//! Does the shot finder find the shots? Measured on positions of real games, as
//! docs/analysis.md describes.
//!
//! A position takes part when the side to move is free (no capture due) and has at least
//! one sacrifice (a move after which the other side must capture). Every legal move is then
//! searched with `--deep` nodes (where the deep search of the position gives a piece away
//! or the finder names a shot: elsewhere there is none to find); the truth is:
//! - a **shot position**: the deep search of the position chooses a sacrifice, and its
//!   score is at least a man ([`analysis::shots::SHOT_GAIN`]) above the position's static
//!   value; its **winning sacrifices** are the sacrifices that score so;
//! - the finder (`analysis::shots::find`, `--nodes` positions) **finds** the shot when it
//!   names a winning sacrifice; a shot it names elsewhere, or one whose first move the deep
//!   search does not score a man above the static value, is a **false shot**.
//!
//! With `--starts`, each record's start position alone is taken (collections of composed
//! problems, set up with a FEN).
//!
//! cargo run --release -p analysis --example shots -- [--nodes N] [--deep N] [--positions K] [--every P] [--starts] PATH...

mod common;

use std::path::PathBuf;

use game::{Engine, Game};
use rayon::prelude::*;
use search::{Limits, Search};

struct Args {
    nodes: u64,
    deep: u64,
    positions: usize,
    every: u32,
    /// Take each record's start position only (composed problems).
    starts: bool,
    paths: Vec<PathBuf>,
}

fn args() -> Args {
    let mut a = Args {
        nodes: 100_000,
        deep: 200_000,
        positions: 300,
        every: 3,
        starts: false,
        paths: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut num = |d: u64| it.next().and_then(|v| v.parse().ok()).unwrap_or(d);
        match x.as_str() {
            "--nodes" => a.nodes = num(a.nodes),
            "--deep" => a.deep = num(a.deep),
            "--positions" => a.positions = num(a.positions as u64) as usize,
            "--every" => a.every = num(u64::from(a.every)) as u32,
            "--starts" => a.starts = true,
            _ => a.paths.push(x.into()),
        }
    }
    a
}

/// A position of a real game where the side to move could give a piece away.
struct Sample {
    g: draughts::Draughts,
    pos: draughts::Position,
    fen: String,
}

fn sacrifices(g: &draughts::Draughts, pos: &draughts::Position) -> Vec<draughts::Move> {
    let mut moves = Vec::new();
    g.moves_into(pos, &[], &mut moves);
    let side = g.to_move(pos);
    moves.retain(|m| analysis::shots::is_sacrifice(g, pos, side, m));
    moves
}

fn samples(a: &Args) -> Vec<Sample> {
    let mut out = Vec::new();
    common::each_ply(&a.paths, |p| {
        let ply = p.detail.ply;
        if (a.starts && ply == 1) || (!a.starts && ply % a.every == 0) {
            let g = draughts::Draughts::new(p.variant);
            if let Ok(pos) = g.parse_position(p.before) {
                if !g.must_capture(&pos) && !sacrifices(&g, &pos).is_empty() {
                    out.push(Sample {
                        g,
                        pos,
                        fen: p.before.to_string(),
                    });
                }
            }
        }
        out.len() < a.positions
    });
    out
}

#[derive(Default)]
struct Counts {
    positions: u32,
    shots: u32,
    found: u32,
    named: u32,
    false_shots: u32,
}

fn judge(s: &Sample, a: &Args) -> Counts {
    let g = &s.g;
    let me = g.to_move(&s.pos);
    let mut search = Search::new(g, 32);
    let sacs = sacrifices(g, &s.pos);
    let named = analysis::shots::find(g, &s.pos, a.nodes).map(|shot| shot.line[0]);
    let mut c = Counts {
        positions: 1,
        ..Counts::default()
    };
    // Every move is searched only where a shot may be: the deep search's own choice gives a
    // piece away, or the finder names one.
    let choice = search.run(&s.pos, me, None, &Limits::nodes(a.deep)).best;
    if named.is_none() && !choice.is_some_and(|(_, m)| sacs.contains(&m)) {
        return c;
    }
    let base = g.value(&s.pos, me);
    let scored: Vec<(draughts::Move, i32)> = sacs
        .iter()
        .map(|m| {
            let mut child = s.pos;
            g.play(&mut child, m);
            search.clear();
            (
                *m,
                search.run(&child, me, None, &Limits::nodes(a.deep)).score,
            )
        })
        .collect();
    let winning = |m: &draughts::Move| {
        scored
            .iter()
            .any(|x| x.0 == *m && x.1 >= base + analysis::shots::SHOT_GAIN)
    };
    c.shots = u32::from(choice.is_some_and(|(_, m)| winning(&m)));
    if let Some(first) = named {
        c.named = 1;
        if winning(&first) {
            c.found = c.shots;
        } else {
            c.false_shots = 1;
            eprintln!(
                "false shot: {} {}",
                s.fen,
                g.write_move(&s.pos, &first, g.default_notation())
            );
        }
    } else if c.shots == 1 {
        eprintln!("missed shot: {}", s.fen);
    }
    c
}

fn main() {
    let a = args();
    let samples = samples(&a);
    let counts: Vec<Counts> = samples.par_iter().map(|s| judge(s, &a)).collect();
    let mut t = Counts::default();
    for c in counts {
        t.positions += c.positions;
        t.shots += c.shots;
        t.found += c.found;
        t.named += c.named;
        t.false_shots += c.false_shots;
    }
    let pct = |x: u32, n: u32| 100.0 * f64::from(x) / f64::from(n.max(1));
    println!(
        "positions with a sacrifice at hand: {} (finder {} nodes, truth {} nodes a move)",
        t.positions, a.nodes, a.deep
    );
    println!(
        "shot positions: {}; the finder names a winning first move in {} ({:.1} %)",
        t.shots,
        t.found,
        pct(t.found, t.shots)
    );
    println!(
        "shots named: {}; false: {} ({:.1} % of those named, {:.1} % of the positions)",
        t.named,
        t.false_shots,
        pct(t.false_shots, t.named),
        pct(t.false_shots, t.positions)
    );
}
