//! Fits the draughts evaluation's pattern weights and its other terms (the man's value held
//! at 100) from self-played positions written by `selfplay_positions`. Run by
//! `scripts/tune-patterns`; see docs/analysis.md.
//!
//! cargo run --release -p analysis --example fit_patterns -- VARIANT [--write]
//!     [--hold-terms] [--result-weight=W] FILE...
//!
//! Model, from the side to move's view: `P(win) = 1 / (1 + exp(-k · v))` where `v` is the
//! evaluation in hundredths of a man — the weighted features of
//! [`draughts::evaluate::features`] plus, per region, the mover's pattern weight less the
//! other side's, each mixed from an opening and an ending value by the men on the board
//! ([`draughts::patterns`]). `k` is fitted first for the current evaluation and then held.
//!
//! The target is what the search said of the position when the game was played (its score
//! as a probability, `1 / (1 + exp(-k0 · score))`, `k0` fitted from the results), so the
//! evaluation learns to see what a search of a few thousand nodes sees; `--result-weight=W`
//! mixes in the game's result (1, 1/2, 0) with weight `W` (matches showed results from these
//! fast games teach the evaluation the wrong things; docs/performance.md). `--hold-terms`
//! fits the patterns alone. Minimised: the mean log-loss plus a small ridge on the pattern
//! weights, by Adam over mini-batches in a fixed order (deterministic); a pattern weight
//! whose state fewer than [`MIN_SEEN`] training positions have stays 0. The last tenth of the
//! positions is held out; the epoch with the lowest held-out loss is kept.

mod common;

use common::record::{self, RECORD};
use draughts::evaluate::{features, FEATURES, FEATURE_NAMES};
use draughts::patterns::{Regions, SCALE, STATES};
use draughts::Draughts;

/// Regions at most (a 12x12 board has 25).
const MAX_REGIONS: usize = 25;

/// One position, ready for the model.
struct Sample {
    x: [f32; FEATURES],
    /// Pattern states: the mover's, then the other side's.
    states: [[u16; MAX_REGIONS]; 2],
    /// Opening share of the mix (men on the board / the start's men).
    phase: f32,
    /// The game's result from the mover's view (1, 1/2, 0).
    result: f32,
    /// The search's score when the position was played, hundredths of a man.
    score: f32,
    /// What the model is fitted to: the result, the score as a probability, or a mix.
    target: f32,
}

#[derive(Clone)]
struct Model {
    terms: [f64; FEATURES],
    /// Per region and state: opening, ending (hundredths of a man).
    patterns: Vec<[f64; 2]>,
    /// Per region and state: fewer positions than [`MIN_SEEN`] have it, so it stays 0.
    frozen: Vec<bool>,
}

/// A weight is fitted only when at least this many training positions have its state.
const MIN_SEEN: u32 = 50;

const RIDGE: f64 = 1e-10;
const BATCH: usize = 8192;
const EPOCHS: usize = 12;

/// The command line.
struct Options {
    id: String,
    write: bool,
    hold: bool,
    result_weight: f64,
    files: Vec<String>,
}

fn options() -> Options {
    let mut args = std::env::args().skip(1);
    let mut o = Options {
        id: args.next().expect("a variant id"),
        write: false,
        hold: false,
        result_weight: 0.0,
        files: Vec::new(),
    };
    for a in args {
        if a == "--write" {
            o.write = true;
        } else if a == "--hold-terms" {
            o.hold = true;
        } else if let Some(w) = a.strip_prefix("--result-weight=") {
            o.result_weight = w.parse().expect("a weight from 0 to 1");
        } else {
            o.files.push(a);
        }
    }
    o
}

fn main() {
    let o = options();
    let g = Draughts::new(draughts::Variant::by_id(&o.id).expect("a draughts variant"));
    let regions = Regions::of(g.geometry).expect("a board with regions");
    let n = regions.len();
    let mut samples = read(&g, regions, &o.files);
    set_targets(&g, n, &mut samples, o.result_weight);
    let held = samples.len() / 10;
    let (train, test) = samples.split_at(samples.len() - held);
    println!(
        "{}: {} positions ({held} held out), {n} regions",
        o.id,
        samples.len()
    );
    let mut model = new_model(&g, n, train);
    let k = fit_curve(train, &model, n);
    println!(
        "curve k = {k:.5}; log-loss of the current evaluation: train {:.5}, held out {:.5}",
        loss(train, &model, k, n),
        loss(test, &model, k, n)
    );
    model = train_adam(train, test, &mut model, k, n, o.hold);
    for (name, w) in FEATURE_NAMES.iter().zip(&model.terms) {
        println!("  {name:8} {:5}", w.round());
    }
    let used = model.patterns.iter().filter(|w| w[0] != 0.0 || w[1] != 0.0);
    println!(
        "  pattern weights moved from 0: {} of {}",
        used.count(),
        model.patterns.len()
    );
    if o.write {
        write_weights(&o.id, &model);
    }
}

/// Sets each sample's target: `result_weight` of its result, the rest its search score as a
/// probability, through the curve fitted from the results for the current evaluation.
fn set_targets(g: &Draughts, n: usize, samples: &mut [Sample], result_weight: f64) {
    samples.iter_mut().for_each(|s| s.target = s.result);
    // No region read: the current evaluation's terms alone.
    let k0 = fit_curve(samples, &new_model(g, n, &[]), 0);
    for s in samples.iter_mut() {
        let from_score = sigmoid(k0 * f64::from(s.score));
        s.target =
            (result_weight * f64::from(s.result) + (1.0 - result_weight) * from_score) as f32;
    }
    println!(
        "target: {result_weight} × result + {} × the search's score (k = {k0:.5})",
        1.0 - result_weight
    );
}

/// The current evaluation's terms, with every region's pattern weights at 0; a weight whose
/// state fewer than [`MIN_SEEN`] positions of `train` have is frozen.
fn new_model(g: &Draughts, n: usize, train: &[Sample]) -> Model {
    let mut seen = vec![0u32; n * STATES];
    for s in train {
        for r in 0..n {
            for v in 0..2 {
                seen[r * STATES + usize::from(s.states[v][r])] += 1;
            }
        }
    }
    let model = Model {
        terms: draughts::weights::Weights::of(g.variant)
            .terms
            .map(f64::from),
        patterns: vec![[0.0; 2]; n * STATES],
        frozen: seen.iter().map(|&c| c < MIN_SEEN).collect(),
    };
    if !train.is_empty() {
        println!(
            "{n} tables; weights fitted: {} of {}",
            model.frozen.iter().filter(|f| !**f).count(),
            n * STATES
        );
    }
    model
}

fn read(g: &Draughts, regions: &Regions, files: &[String]) -> Vec<Sample> {
    let n = regions.len();
    let full = regions.full() as f32;
    let mut out = Vec::new();
    let mut states = [0u16; MAX_REGIONS];
    for f in files {
        let bytes = std::fs::read(f).expect("a positions file");
        for r in bytes.chunks_exact(RECORD) {
            let record::Record { pos, result, score } = record::read(g, r);
            let mut s = Sample {
                x: features(g, &pos).map(|v| v as f32),
                states: [[0; MAX_REGIONS]; 2],
                phase: ((pos.men[0] | pos.men[1]).count_ones() as f32 / full).min(1.0),
                result: (f32::from(result) + 1.0) / 2.0,
                score: f32::from(score),
                target: 0.0,
            };
            for (v, c) in [pos.side, pos.side.opponent()].into_iter().enumerate() {
                regions.states(&pos, c, &mut states[..n]);
                s.states[v][..n].copy_from_slice(&states[..n]);
            }
            out.push(s);
        }
    }
    out
}

/// The evaluation of `s` under `m`, hundredths of a man.
fn eval(s: &Sample, m: &Model, n: usize) -> f64 {
    let mut v: f64 =
        s.x.iter()
            .zip(&m.terms)
            .map(|(x, w)| f64::from(*x) * w)
            .sum();
    let p = f64::from(s.phase);
    for r in 0..n {
        let t = r * STATES;
        let a = &m.patterns[t + usize::from(s.states[0][r])];
        let b = &m.patterns[t + usize::from(s.states[1][r])];
        v += p * (a[0] - b[0]) + (1.0 - p) * (a[1] - b[1]);
    }
    v
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn loss(data: &[Sample], m: &Model, k: f64, n: usize) -> f64 {
    let total: f64 = data
        .iter()
        .map(|s| {
            let p = sigmoid(k * eval(s, m, n)).clamp(1e-12, 1.0 - 1e-12);
            let t = f64::from(s.target);
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum();
    total / data.len() as f64
}

/// The curve's constant for the model as it is: a golden-section search on the log-loss.
fn fit_curve(data: &[Sample], m: &Model, n: usize) -> f64 {
    let evals: Vec<(f64, f64)> = data
        .iter()
        .map(|s| (eval(s, m, n), f64::from(s.target)))
        .collect();
    let f = |k: f64| -> f64 {
        evals
            .iter()
            .map(|&(v, t)| {
                let p = sigmoid(k * v).clamp(1e-12, 1.0 - 1e-12);
                -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
            })
            .sum()
    };
    let (mut a, mut b) = (1e-4, 0.05);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Adam over mini-batches; returns the model of the epoch with the lowest held-out loss.
fn train_adam(
    train: &[Sample],
    test: &[Sample],
    m: &mut Model,
    k: f64,
    n: usize,
    hold: bool,
) -> Model {
    let params = FEATURES + m.patterns.len() * 2;
    let mut grad = vec![0.0f64; params];
    let mut mom = vec![0.0f64; params];
    let mut var = vec![0.0f64; params];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut best = (loss(test, m, k, n), m.clone());
    let mut step = 0i32;
    for epoch in 0..EPOCHS {
        // A fixed shuffle per epoch (Fisher-Yates with a seeded generator).
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let lr = 1.0 * 0.8f64.powi(epoch as i32);
        for batch in order.chunks(BATCH) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in batch {
                let s = &train[i];
                let e = sigmoid(k * eval(s, m, n)) - f64::from(s.target);
                let d = e * k / batch.len() as f64;
                // The man's weight (term 0) is held at 100: it sets the scale.
                let free = if hold { 0 } else { FEATURES };
                for (f, g) in grad.iter_mut().enumerate().take(free).skip(1) {
                    *g += d * f64::from(s.x[f]);
                }
                let p = f64::from(s.phase);
                for r in 0..n {
                    for (v, sign) in [(0, 1.0), (1, -1.0)] {
                        let t = r * STATES;
                        let at = FEATURES + 2 * (t + usize::from(s.states[v][r]));
                        grad[at] += sign * d * p;
                        grad[at + 1] += sign * d * (1.0 - p);
                    }
                }
            }
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for (i, g) in grad.iter().enumerate() {
                if i >= FEATURES && m.frozen[(i - FEATURES) / 2] {
                    continue;
                }
                let w = if i < FEATURES {
                    &mut m.terms[i]
                } else {
                    let j = i - FEATURES;
                    &mut m.patterns[j / 2][j % 2]
                };
                let g = if i < FEATURES { *g } else { g + RIDGE * *w };
                mom[i] = b1 * mom[i] + (1.0 - b1) * g;
                var[i] = b2 * var[i] + (1.0 - b2) * g * g;
                *w -= lr * (mom[i] / c1) / ((var[i] / c2).sqrt() + eps);
            }
        }
        let (tr, te) = (loss(train, m, k, n), loss(test, m, k, n));
        println!("epoch {epoch:2}: log-loss train {tr:.5}, held out {te:.5}");
        if te < best.0 {
            best = (te, m.clone());
        }
    }
    println!("kept: held-out log-loss {:.5}", best.0);
    best.1
}

/// Writes the pattern weights to crates/draughts/weights/VARIANT.patterns and the terms into
/// the variant's row of the `FITTED` table of crates/draughts/src/weights.rs (its curve
/// stays: `scripts/tune-eval` fits that from real games).
fn write_weights(id: &str, m: &Model) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../draughts/weights");
    std::fs::create_dir_all(dir).expect("the weights folder");
    let mut bytes = Vec::with_capacity(m.patterns.len() * 4);
    for v in m.patterns.iter().flatten() {
        let q = (v * f64::from(SCALE)).round().clamp(-32767.0, 32767.0) as i16;
        bytes.extend_from_slice(&q.to_le_bytes());
    }
    let path = format!("{dir}/{id}.patterns");
    std::fs::write(&path, bytes).expect("written");
    let terms: Vec<String> = m
        .terms
        .iter()
        .map(|t| (t.round() as i32).to_string())
        .collect();
    println!("written to {path}");
    let table = concat!(env!("CARGO_MANIFEST_DIR"), "/../draughts/src/weights.rs");
    let text = std::fs::read_to_string(table).expect("weights.rs");
    let row = format!("(\"{id}\", Weights {{ terms: [");
    let Some(at) = text.find(&row) else {
        println!(
            "no row for {id} in {table}: terms [{}] not written",
            terms.join(", ")
        );
        return;
    };
    let start = at + row.len();
    let end = start + text[start..].find(']').expect("the row's end");
    let out = format!("{}{}{}", &text[..start], terms.join(", "), &text[end..]);
    std::fs::write(table, out).expect("weights.rs written");
    println!("terms [{}] written to {table}", terms.join(", "));
}
