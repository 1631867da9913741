//! End-game problems with stated results: does the analysis find the stated winner winning?
//!
//! cargo run --release -p analysis --example problems -- [--nodes N] [--list] FILE...
//!
//! `--list` also prints each problem: its game, men and kings per side (`2m1k-3m0k`, White
//! first), the search's score for the stated winner and its position.
//!
//! Every record with a `FEN` tag (other than the usual start) and a decisive result is searched from its position with the
//! analysis' limit (default nodes); the stated winner is "found winning" when its winning
//! chances on the game's curve are at least [`analysis::classify::WON`] (or the win is proven);
//! it is "ahead" when the search scores its side at least half a man up.

use analysis::classify::{chances, WON};
use analysis::Settings;
use game::{Engine, Game, Outcome};
use rayon::prelude::*;
use search::{Limits, Search, DECIDED};

/// A score that counts as the search preferring the stated winner.
const AHEAD: i32 = 50;

fn main() {
    let mut nodes = Settings::DEFAULT_NODES;
    let mut files = Vec::new();
    let mut list = false;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        if a == "--list" {
            list = true;
        } else if a == "--nodes" {
            nodes = it.next().and_then(|v| v.parse().ok()).unwrap_or(nodes);
        } else {
            files.push(a);
        }
    }
    let settings = referee::Settings {
        keep_tags: true,
        ..Default::default()
    };
    let mut referee = referee::Referee::new(games::games(), settings);
    let mut problems = Vec::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        for record in pdn::read_all(&bytes) {
            let report = record.accept(&mut referee);
            let (Some(info), Some(fen)) = (report.game, record.tag("FEN")) else {
                continue;
            };
            let Some(variant) = draughts::Variant::by_id(info.id) else {
                continue;
            };
            // A whole game set up from the usual start is no problem.
            let g = draughts::Draughts::new(variant);
            if g.parse_position(fen.trim_end_matches('.')).ok() == Some(g.start()) {
                continue;
            }
            if let Some(Outcome::Win { winner, .. }) = report.recorded {
                problems.push((variant, fen.to_string(), winner));
            }
        }
    }
    let verdicts: Vec<(bool, bool, bool)> = problems
        .par_iter()
        .map(|(variant, fen, winner)| {
            let g = draughts::Draughts::new(variant);
            let Ok(pos) = g.parse_position(fen.trim_end_matches('.')) else {
                return (false, false, false);
            };
            let found = Search::new(&g, 16).run(&pos, *winner, None, &Limits::nodes(nodes));
            let winning = chances(found.score, g.curve()) >= WON;
            if list {
                let men = |c: usize| pos.men[c].count_ones();
                let kings = |c: usize| pos.kings[c].count_ones();
                println!(
                    "{} {}m{}k-{}m{}k score {} {fen}",
                    variant.id,
                    men(0),
                    kings(0),
                    men(1),
                    kings(1),
                    found.score
                );
            }
            (found.score >= AHEAD, winning, found.score >= DECIDED)
        })
        .collect();
    let n = verdicts.len().max(1) as f64;
    let count = |f: fn(&(bool, bool, bool)) -> bool| verdicts.iter().filter(|v| f(v)).count();
    let (ahead, winning, proven) = (count(|v| v.0), count(|v| v.1), count(|v| v.2));
    let pct = |x: usize| 100.0 * x as f64 / n;
    println!(
        "{} problems, nodes {nodes}: the stated winner ahead (at least +{AHEAD}) in {ahead} ({:.1} %), \
         winning (chances at least {WON}) in {winning} ({:.1} %), proven in {proven} ({:.1} %)",
        verdicts.len(),
        pct(ahead),
        pct(winning),
        pct(proven)
    );
}
