//! `arbiter analyse --report DIR`: each analysed game handed to the report crate's
//! [`AnalysisReport`] (its figures, and its page data for the viewer), and the report
//! written through a staging folder (complete or absent).

use std::collections::HashMap;
use std::io;
use std::path::Path;

use ::report::{AnalysisReport, ViewerGame, ViewerPly};

use crate::analyse::Analysed;

/// The report being built, with the viewer's index of each input file.
pub struct Builder {
    pub report: AnalysisReport,
    files: HashMap<String, u32>,
}

impl Builder {
    pub fn new(title: String) -> Self {
        Builder {
            report: AnalysisReport::new(title),
            files: HashMap::new(),
        }
    }

    /// Adds one game of `file` (analysed or not: every game is in the viewer).
    pub fn add(&mut self, file: &str, g: &Analysed) {
        let seats = &g.report.seats;
        let players: Vec<(u8, String)> = seats.iter().map(|&s| (s, g.player(s))).collect();
        if g.skipped.is_none() {
            self.report.add(&players, &g.analysis);
        }
        let viewer = self.report.viewer_mut();
        let index = match self.files.get(file) {
            Some(&i) => i,
            None => {
                let i = viewer.add_file(file);
                self.files.insert(file.to_string(), i);
                i
            }
        };
        if let Some(row) = viewer.file_row(index) {
            row.games += 1;
        }
        let encoded = encode(g, viewer.wants_moves());
        viewer.add(index, g.index, &encoded);
    }

    /// Writes the report into `dir` through a staging folder.
    pub fn write(&self, dir: &Path) -> io::Result<usize> {
        let staging = outfile::Staging::create(dir)?;
        let files = self.report.write(staging.path())?;
        staging.commit(&[])?;
        Ok(files.charts.len())
    }
}

/// The game for the viewer: its positions and moves, and what the analysis says of each ply.
fn encode(g: &Analysed, moves: bool) -> ::report::EncodedGame {
    let r = &g.report;
    let (tags, fens) = crate::view::tags_and_fens(r);
    let players = crate::view::seat_players(r);
    let explorer = r
        .game
        .filter(|_| moves)
        .and_then(|info| games::games().explorer(info, &r.options));
    let first = r.seats.first().copied();
    let lines: Vec<String> = g.analysis.plies.iter().map(|p| p.line.join(" ")).collect();
    let analysis: Vec<ViewerPly<'_>> = g
        .analysis
        .plies
        .iter()
        .zip(&lines)
        .enumerate()
        .map(|(i, (p, line))| {
            let best = p.best.as_deref().filter(|_| !p.agreed);
            let best_paths = match (best, &explorer, fens.get(i)) {
                (Some(b), Some(x), Some(fen)) => x.paths(Some(fen), &[b]).unwrap_or_default(),
                _ => Vec::new(),
            };
            // From the first seat's view in a two-seat game, else the mover's.
            let two = r.seats.len() == 2;
            ViewerPly {
                seat: p.seat,
                eval: Some(if two && Some(p.seat) != first {
                    -p.eval_after
                } else {
                    p.eval_after
                }),
                class: p.class.filter(|_| !p.agreed).map(analysis::Class::name),
                best,
                line,
                best_paths,
            }
        })
        .collect();
    let accuracy = if g.analysis.plies.is_empty() {
        Vec::new()
    } else {
        r.seats
            .iter()
            .map(|&s| g.analysis.figures(s).accuracy())
            .collect()
    };
    let game = ViewerGame {
        label: r.game.map_or("Unknown game", |i| i.label),
        tags: [&tags[0], &tags[1], &tags[2], &tags[3], &tags[4]],
        players: players.iter().map(|(s, p)| (*s, p.as_ref())).collect(),
        positions: crate::view::viewer_positions(r, &fens),
        moves: r.details.iter().map(|d| d.notation).collect(),
        plies_written: r.plies_written,
        problems: Vec::new(),
        record: "",
        analysis,
        accuracy,
    };
    if moves {
        game.encode()
    } else {
        game.encode_without_moves()
    }
}
