//! Fits the draughts evaluation's weights and the winning-chances curve from games
//! ("Texel" tuning): a logistic regression of the games' results on the features of their
//! quiet positions. Run by `scripts/tune-eval`; see docs/analysis.md.
//!
//! cargo run --release -p analysis --example tune -- VARIANT [--write] [--curve-only] PATH...
//!
//! `--curve-only` keeps the weights (for a variant whose evaluation is fitted by
//! `scripts/tune-patterns`) and fits the curve alone: `P(win) = 1 / (1 + exp(-k · v))`
//! with `v` the whole evaluation ([`game::Engine::value`], patterns included), `k` by
//! Newton's method, its 95 % interval from the Fisher information.
//!
//! Positions: every position of a game's main line from ply 10 on where the side to move has
//! no capture and is not threatened with one (the evaluation is meant for quiet positions),
//! with the game's result from the side to move's view as the target (win 1, draw 1/2, loss
//! 0). Model: `P(win) = 1 / (1 + exp(-x · θ))` with `x` the features of
//! [`draughts::evaluate::features`]; fitted by Newton's method (deterministic). The man's
//! coefficient sets the scale: the curve's constant is `k = θ_man / 100` and each weight is
//! `θ_i / k` hundredths of a man; `k`'s 95 % interval comes from the inverse Hessian.

mod common;

use std::path::PathBuf;

use draughts::evaluate::{features, FEATURES, FEATURE_NAMES};
use game::{Engine, Game, Outcome};
use referee::Referee;

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().expect("a variant id");
    let (mut write, mut curve_only) = (false, false);
    let mut paths = Vec::new();
    for a in args {
        if a == "--write" {
            write = true;
        } else if a == "--curve-only" {
            curve_only = true;
        } else {
            paths.push(PathBuf::from(a));
        }
    }
    let variant = draughts::Variant::by_id(&id).expect("a draughts variant");
    let g = draughts::Draughts::new(variant);
    let (data, values) = positions(&g, &paths);
    println!("{id}: {} positions from {} files", data.len(), paths.len());
    if data.len() < 500 {
        println!("too few positions to fit; nothing written");
        return;
    }
    if curve_only {
        let (k, half) = curve_alone(&data, &values);
        println!(
            "  curve k = {k:.5} (95 % interval {:.5} to {:.5}) for the whole evaluation",
            k - half,
            k + half
        );
        let loss: f64 = data
            .iter()
            .zip(&values)
            .map(|((_, t), v)| {
                let p = (1.0 / (1.0 + (-k * v).exp())).clamp(1e-12, 1.0 - 1e-12);
                -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
            })
            .sum::<f64>()
            / data.len() as f64;
        println!("  log-loss {loss:.4} (all weights 0: {:.4})", 2f64.ln());
        if write {
            let old = draughts::weights::Weights::of(variant);
            rewrite(&id, &old.terms, k);
        }
        return;
    }
    let theta = fit(&data);
    let (k, half) = curve(&data, &theta);
    let weights: Vec<i32> = theta.iter().map(|t| (t / k).round() as i32).collect();
    for (name, w) in FEATURE_NAMES.iter().zip(&weights) {
        println!("  {name:8} {w:5}");
    }
    println!(
        "  curve k = {k:.5} (95 % interval {:.5} to {:.5})",
        k - half,
        k + half
    );
    println!(
        "  log-loss {:.4} (all weights 0: {:.4})",
        loss(&data, &theta),
        2f64.ln()
    );
    if write {
        rewrite(&id, &weights, k);
    }
}

/// Quiet positions of the games of `paths` played under `g`'s variant, with their targets,
/// and the whole evaluation of each from the mover's view.
fn positions(g: &draughts::Draughts, paths: &[PathBuf]) -> (Vec<([f64; FEATURES], f64)>, Vec<f64>) {
    let settings = referee::Settings {
        details: true,
        positions: true,
        ..Default::default()
    };
    let mut referee = Referee::new(games::games(), settings);
    let files = common::pdn_files(paths);
    let (mut out, mut values) = (Vec::new(), Vec::new());
    for f in files {
        let Ok(bytes) = std::fs::read(&f) else {
            continue;
        };
        for record in pdn::read_all(&bytes) {
            let report = record.accept(&mut referee);
            if report.game.map(|i| i.id) != Some(g.variant.id) || report.plies < 20 {
                continue;
            }
            let winner = match report.recorded {
                Some(Outcome::Win { winner, .. }) => Some(winner),
                Some(Outcome::Draw) => None,
                _ => continue,
            };
            for d in report.details.iter().filter(|d| d.ply >= 10) {
                let Ok(pos) = g.parse_position(d.position) else {
                    break;
                };
                if g.terminal(&pos).is_some() || g.must_capture(&pos) || g.threat(&pos) {
                    continue;
                }
                let me = g.to_move(&pos);
                let target = match winner {
                    None => 0.5,
                    Some(w) if w == me => 1.0,
                    Some(_) => 0.0,
                };
                let x = features(g, &pos).map(f64::from);
                out.push((x, target));
                values.push(f64::from(g.value(&pos, me)));
            }
        }
    }
    (out, values)
}

fn predict(x: &[f64; FEATURES], theta: &[f64; FEATURES]) -> f64 {
    let z: f64 = x.iter().zip(theta).map(|(a, b)| a * b).sum();
    1.0 / (1.0 + (-z).exp())
}

fn loss(data: &[([f64; FEATURES], f64)], theta: &[f64; FEATURES]) -> f64 {
    let total: f64 = data
        .iter()
        .map(|(x, t)| {
            let p = predict(x, theta).clamp(1e-12, 1.0 - 1e-12);
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum();
    total / data.len() as f64
}

/// Gradient and Hessian of the summed log-loss, with a small ridge that keeps features the
/// data never varies (e.g. kings in an opening-heavy set) at 0.
fn derivatives(
    data: &[([f64; FEATURES], f64)],
    theta: &[f64; FEATURES],
) -> ([f64; FEATURES], [[f64; FEATURES]; FEATURES]) {
    const RIDGE: f64 = 1e-3;
    let mut grad = [0.0; FEATURES];
    let mut hess = [[0.0; FEATURES]; FEATURES];
    for (x, t) in data {
        let p = predict(x, theta);
        let w = p * (1.0 - p);
        for i in 0..FEATURES {
            grad[i] += (p - t) * x[i];
            for j in 0..FEATURES {
                hess[i][j] += w * x[i] * x[j];
            }
        }
    }
    for i in 0..FEATURES {
        grad[i] += RIDGE * theta[i];
        hess[i][i] += RIDGE;
    }
    (grad, hess)
}

fn fit(data: &[([f64; FEATURES], f64)]) -> [f64; FEATURES] {
    let mut theta = [0.0; FEATURES];
    for _ in 0..50 {
        let (grad, hess) = derivatives(data, &theta);
        let step = solve(hess, grad);
        let mut size = 0.0;
        for i in 0..FEATURES {
            theta[i] -= step[i];
            size += step[i].abs();
        }
        if size < 1e-10 {
            break;
        }
    }
    theta
}

/// `k` and the half-width of its 95 % interval.
fn curve(data: &[([f64; FEATURES], f64)], theta: &[f64; FEATURES]) -> (f64, f64) {
    let (_, hess) = derivatives(data, theta);
    let mut unit = [0.0; FEATURES];
    unit[0] = 1.0;
    let column = solve(hess, unit);
    let sigma = column[0].max(0.0).sqrt();
    (theta[0] / 100.0, 1.96 * sigma / 100.0)
}

/// `k` of `P(win) = 1 / (1 + exp(-k · v))` for the evaluations `values` alone, by Newton's
/// method, and the half-width of its 95 % interval.
fn curve_alone(data: &[([f64; FEATURES], f64)], values: &[f64]) -> (f64, f64) {
    let mut k = 0.004;
    let mut information = 1.0;
    for _ in 0..50 {
        let (mut grad, mut hess) = (0.0, 0.0);
        for ((_, t), v) in data.iter().zip(values) {
            let p = 1.0 / (1.0 + (-k * v).exp());
            grad += (p - t) * v;
            hess += p * (1.0 - p) * v * v;
        }
        information = hess;
        let step = grad / hess.max(1e-300);
        k -= step;
        if step.abs() < 1e-12 {
            break;
        }
    }
    (k, 1.96 / information.max(1e-300).sqrt())
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting.
#[allow(clippy::needless_range_loop)] // Matrix code reads best with indices.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    let n = FEATURES;
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, p);
        b.swap(c, p);
        let d = a[c][c];
        if d.abs() < 1e-300 {
            continue;
        }
        for r in 0..n {
            if r != c {
                let f = a[r][c] / d;
                for k in c..n {
                    a[r][k] -= f * a[c][k];
                }
                b[r] -= f * b[c];
            }
        }
    }
    let mut x = [0.0; FEATURES];
    for i in 0..n {
        x[i] = if a[i][i].abs() < 1e-300 {
            0.0
        } else {
            b[i] / a[i][i]
        };
    }
    x
}

/// Writes the fit into the `FITTED` table of crates/draughts/src/weights.rs.
fn rewrite(id: &str, weights: &[i32], k: f64) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../draughts/src/weights.rs");
    let text = std::fs::read_to_string(path).expect("weights.rs");
    let start = text.find("pub static FITTED").expect("the FITTED table");
    let end = start + text[start..].find("];").expect("its end") + 2;
    let table = &text[start..end];
    let mut rows: Vec<String> = table
        .lines()
        .filter(|l| l.trim_start().starts_with("(\""))
        .filter(|l| !l.contains(&format!("(\"{id}\"")))
        .map(str::to_string)
        .collect();
    let terms: Vec<String> = weights.iter().map(i32::to_string).collect();
    rows.push(format!(
        "    (\"{id}\", Weights {{ terms: [{}], curve: {k:.5} }}),",
        terms.join(", ")
    ));
    rows.sort();
    let new_table = format!(
        "pub static FITTED: &[(&str, Weights)] = &[\n{}\n];",
        rows.join("\n")
    );
    let out = format!("{}{}{}", &text[..start], new_table, &text[end..]);
    std::fs::write(path, out).expect("weights.rs written");
    println!("written to {path}");
}
