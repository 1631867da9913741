//! The report of an engine analysis (`arbiter analyse --report DIR`): a sortable table of the
//! players' figures whose counts open the lists of those moves, charts of the loss per move by
//! stage of the game and of blunders per 100 moves by player, and the viewer with every
//! analysed game (its evaluation graph, classed moves and the engine's choices).
//!
//! The figures are the analysis crate's ([`analysis::Figures`], [`analysis::GameAnalysis`]);
//! this module adds them up per player and per stage and lays them out.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

use analysis::{Class, Figures, GameAnalysis};
use serde_json::json;

use crate::chart::{BarSeries, Body, Chart, PALETTE};
use crate::report::{esc, Page, CSS};
use crate::{ChartFile, Viewer, VIEWER_BUDGET};

/// Plies a bar of the chart of loss by stage covers.
pub const STAGE_PLIES: u32 = 10;
/// Bars of that chart; the last one takes every later ply.
pub const STAGES: usize = 12;
/// Players shown in the chart of blunders per 100 moves (those with the most moves).
pub const CHART_PLAYERS: usize = 25;
/// Players listed in the page's table at most (those with the most moves; `analysis.json`
/// has them all), so that the page of a large archive keeps its size.
pub const TABLE_PLAYERS: usize = 1000;

/// What the report of an analysis adds up, game by game.
#[derive(Debug)]
pub struct AnalysisReport {
    title: String,
    players: BTreeMap<String, Figures>,
    /// Per stage: the sum of the losses and the moves.
    stages: [(i64, u64); STAGES],
    games: u64,
    plies: u64,
    viewer: Viewer,
}

/// The files [`AnalysisReport::write`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisFiles {
    /// `report.html`.
    pub html: std::path::PathBuf,
    /// `analysis.json`: the players' figures and the losses by stage.
    pub json: std::path::PathBuf,
    /// Every chart.
    pub charts: Vec<ChartFile>,
}

impl AnalysisReport {
    /// An empty report with this title; its viewer keeps games with their moves and analysis
    /// up to [`VIEWER_BUDGET`] bytes.
    pub fn new(title: impl Into<String>) -> Self {
        AnalysisReport {
            title: title.into(),
            players: BTreeMap::new(),
            stages: [(0, 0); STAGES],
            games: 0,
            plies: 0,
            viewer: Viewer::new(VIEWER_BUDGET),
        }
    }

    /// The viewer, to register files and add each game's page data (with
    /// [`crate::ViewerGame::analysis`] and [`crate::ViewerGame::accuracy`]).
    pub fn viewer_mut(&mut self) -> &mut Viewer {
        &mut self.viewer
    }

    /// Counts one analysed game; `players` names the player of each seat that moved.
    pub fn add(&mut self, players: &[(u8, String)], analysis: &GameAnalysis) {
        self.games += 1;
        self.plies += analysis.plies.len() as u64;
        for (seat, name) in players {
            let f = analysis.figures(*seat);
            if f.moves > 0 {
                self.players.entry(name.clone()).or_default().merge(&f);
            }
        }
        for p in &analysis.plies {
            let stage = (((p.ply.max(1) - 1) / STAGE_PLIES) as usize).min(STAGES - 1);
            self.stages[stage].0 += i64::from(p.loss);
            self.stages[stage].1 += 1;
        }
    }

    /// The players' figures over every game added, by name.
    pub fn players(&self) -> &BTreeMap<String, Figures> {
        &self.players
    }

    /// Writes `report.html`, `analysis.json` and the charts (SVG and PNG) into `dir`
    /// (created if missing).
    pub fn write(&self, dir: &Path) -> io::Result<AnalysisFiles> {
        fs::create_dir_all(dir)?;
        let mut page = Page::new(dir);
        self.render(&mut page)?;
        page.write_pngs()?;
        let (html_text, charts) = page.into_parts();
        let html = dir.join("report.html");
        outfile::write_staged(&html, html_text.as_bytes())?;
        let json = dir.join("analysis.json");
        let text = serde_json::to_string_pretty(&self.json()).map_err(io::Error::other)?;
        outfile::write_staged(&json, text.as_bytes())?;
        Ok(AnalysisFiles { html, json, charts })
    }

    fn json(&self) -> serde_json::Value {
        let players: Vec<serde_json::Value> = self
            .players
            .iter()
            .map(|(name, f)| {
                let classes: serde_json::Map<String, serde_json::Value> = Class::ALL
                    .iter()
                    .map(|&c| (c.name().to_string(), f.count(c).into()))
                    .collect();
                json!({
                    "player": name, "games": f.games, "moves": f.moves,
                    "accuracy": f.accuracy(), "average_loss": f.average_loss(),
                    "agreement": f.agreement(), "classes": classes,
                })
            })
            .collect();
        let stages: Vec<serde_json::Value> = self
            .stages
            .iter()
            .enumerate()
            .map(|(i, &(loss, moves))| {
                json!({ "first_ply": i as u32 * STAGE_PLIES + 1, "moves": moves, "loss": loss })
            })
            .collect();
        json!({ "games": self.games, "plies": self.plies, "players": players, "stages": stages })
    }

    fn render(&self, page: &mut Page<'_>) -> io::Result<()> {
        let title = esc(&self.title);
        let _ = writeln!(
            page.html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{title}</title>\n<style>{CSS}{ANALYSIS_CSS}</style>\n</head>\n<body>\n<header>\n\
             <h1>{title}</h1>\n<p>{} games, {} plies analysed, {} players.</p>\n<nav><a href=\"#players\">\
             Players</a><a href=\"#charts\">Charts</a><a href=\"#games\">Games</a></nav>\n</header>\n<main>",
            self.games,
            self.plies,
            self.players.len()
        );
        self.player_table(page);
        self.charts(page)?;
        self.games_section(page);
        let _ = writeln!(
            page.html,
            "</main>\n<script>{SORT_JS}</script>\n</body>\n</html>"
        );
        Ok(())
    }

    fn player_table(&self, page: &mut Page<'_>) {
        page.push(
            "<section id=\"players\">\n<h2>Players</h2>\n<p class=\"lead\">Accuracy is the average of \
             the moves' accuracies (100: the move lost nothing); the average loss is in hundredths of a \
             man per move; agreement is the share of moves that were the engine's first choice. Click \
             a heading to sort, a count to list those moves (each opens the board before the move).</p>\n\
             <table id=\"player-table\" class=\"sortable\">\n<thead><tr><th>Player</th>\
             <th class=\"n\">Games</th><th class=\"n\">Moves</th><th class=\"n\">Accuracy</th>\
             <th class=\"n\">Average loss</th>",
        );
        for c in TABLE_CLASSES {
            let _ = write!(page.html, "<th class=\"n\">{}</th>", heading(c));
        }
        page.push("<th class=\"n\">Agreement</th></tr></thead>\n<tbody>\n");
        let mut shown: Vec<(&String, &Figures)> = self.players.iter().collect();
        if shown.len() > TABLE_PLAYERS {
            shown.sort_by(|a, b| b.1.moves.cmp(&a.1.moves).then_with(|| a.0.cmp(b.0)));
            shown.truncate(TABLE_PLAYERS);
            shown.sort_by(|a, b| a.0.cmp(b.0));
        }
        for &(name, f) in &shown {
            let _ = write!(
                page.html,
                "<tr data-player=\"{}\"><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{:.1}</td><td class=\"n\">{:.1}</td>",
                esc(name),
                esc(name),
                f.games,
                f.moves,
                f.accuracy(),
                f.average_loss()
            );
            for c in TABLE_CLASSES {
                let n = f.count(c);
                if n == 0 {
                    page.push("<td class=\"n\">0</td>");
                } else {
                    let _ = write!(
                        page.html,
                        "<td class=\"n\"><a class=\"moves\" data-class=\"{}\" href=\"#moves:{}:{}\">{n}</a></td>",
                        c.name(),
                        c.name(),
                        esc(&percent(name))
                    );
                }
            }
            let _ = writeln!(page.html, "<td class=\"n\">{:.1}%</td></tr>", f.agreement());
        }
        page.push("</tbody></table>\n");
        if shown.len() < self.players.len() {
            let _ = writeln!(
                page.html,
                "<p class=\"note\">The {} players with the most moves are listed; analysis.json \
                 has all {}.</p>",
                shown.len(),
                self.players.len()
            );
        }
        page.push("</section>\n");
    }

    fn charts(&self, page: &mut Page<'_>) -> io::Result<()> {
        page.push("<section id=\"charts\">\n<h2>Charts</h2>\n<div class=\"grid\">\n");
        let used: Vec<usize> = (0..STAGES).filter(|&i| self.stages[i].1 > 0).collect();
        if !used.is_empty() {
            let categories = used
                .iter()
                .map(|&i| {
                    let first = i as u32 * STAGE_PLIES + 1;
                    if i == STAGES - 1 {
                        format!("{first}+")
                    } else {
                        first.to_string()
                    }
                })
                .collect();
            let values = used
                .iter()
                .map(|&i| self.stages[i].0 as f64 / self.stages[i].1 as f64)
                .collect();
            page.figure(
                Chart {
                    id: "loss-by-stage".into(),
                    title: "Average loss per move by stage of the game".into(),
                    body: Body::Bars {
                        value_desc: "average loss (hundredths of a man)".into(),
                        category_desc: format!("plies, {STAGE_PLIES} a bar from the one shown"),
                        categories,
                        series: vec![BarSeries::new("loss", PALETTE[0], values)],
                        horizontal: false,
                        log: false,
                    },
                },
                "The average loss of the moves played in each stretch of ten plies: where the \
                 games are decided.",
            )?;
        }
        let mut busiest: Vec<(&String, &Figures)> =
            self.players.iter().filter(|(_, f)| f.moves > 0).collect();
        busiest.sort_by(|a, b| b.1.moves.cmp(&a.1.moves).then_with(|| a.0.cmp(b.0)));
        busiest.truncate(CHART_PLAYERS);
        if !busiest.is_empty() {
            let per100 =
                |f: &Figures| f64::from(f.count(Class::Blunder)) * 100.0 / f64::from(f.moves);
            busiest.sort_by(|a, b| per100(b.1).total_cmp(&per100(a.1)));
            page.figure(
                Chart {
                    id: "blunders-by-player".into(),
                    title: "Blunders per 100 moves by player".into(),
                    body: Body::Bars {
                        value_desc: "blunders per 100 moves".into(),
                        category_desc: "player".into(),
                        categories: busiest.iter().map(|(n, _)| (*n).clone()).collect(),
                        series: vec![BarSeries::new(
                            "blunders",
                            PALETTE[3],
                            busiest.iter().map(|(_, f)| per100(f)).collect(),
                        )],
                        horizontal: true,
                        log: false,
                    },
                },
                &format!(
                    "The {} players with the most moves analysed; moves classed blunder only \
                     (the table counts the other classes).",
                    busiest.len()
                ),
            )?;
        }
        page.push("</div>\n</section>\n");
        Ok(())
    }

    fn games_section(&self, page: &mut Page<'_>) {
        let v = &self.viewer;
        let _ = writeln!(
            page.html,
            "<section id=\"games\">\n<h2>Games</h2>\n<p class=\"lead\">{} games, with each side's \
             accuracy. Open a game for its evaluation graph (click it to go to a ply), its classed \
             moves and the engine's choice drawn as a dashed arrow; step with ←, →, Home and End.{}</p>",
            v.games(),
            if v.moves_left_out() > 0 {
                format!(
                    " The moves and analysis of {} games past the page's size budget are left out \
                     (their classed moves are not listed either).",
                    v.moves_left_out()
                )
            } else {
                String::new()
            }
        );
        page.push(&v.body_html(true));
        page.push("</section>\n");
    }
}

/// The classes in the player table's order.
const TABLE_CLASSES: [Class; 6] = [
    Class::Inaccuracy,
    Class::Mistake,
    Class::Blunder,
    Class::MissedWin,
    Class::MissedShot,
    Class::AllowedShot,
];

fn heading(c: Class) -> &'static str {
    match c {
        Class::Inaccuracy => "Inaccuracies",
        Class::Mistake => "Mistakes",
        Class::Blunder => "Blunders",
        Class::MissedWin => "Missed wins",
        Class::MissedShot => "Missed shots",
        Class::AllowedShot => "Allowed shots",
    }
}

/// A name for a link's fragment: every byte but ASCII letters and digits as `%XX`.
fn percent(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

const ANALYSIS_CSS: &str = r#"
table.sortable th { cursor:pointer; user-select:none; }
table.sortable th.asc::after { content:" ▲"; font-size:10px; }
table.sortable th.desc::after { content:" ▼"; font-size:10px; }
#player-table a.moves { text-decoration:none; font-weight:600; }
"#;

/// Sorts a `table.sortable` by the column whose heading is clicked (numbers as numbers).
const SORT_JS: &str = r#"
document.querySelectorAll('table.sortable').forEach(function (t) {
  t.querySelectorAll('th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var asc = !th.classList.contains('asc');
      t.querySelectorAll('th').forEach(function (h) { h.classList.remove('asc', 'desc'); });
      th.classList.add(asc ? 'asc' : 'desc');
      var rows = Array.prototype.slice.call(t.tBodies[0].rows);
      var key = function (r) { var s = r.cells[col].textContent.replace('%', ''); var n = parseFloat(s); return isNaN(n) ? s.toLowerCase() : n; };
      rows.sort(function (a, b) { var x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1); });
      rows.forEach(function (r) { t.tBodies[0].appendChild(r); });
    });
  });
});
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::PlyAnalysis;

    fn ply(ply: u32, seat: u8, loss: i32, class: Option<Class>) -> PlyAnalysis {
        PlyAnalysis {
            ply,
            seat,
            played: "a".into(),
            eval_before: 0,
            eval_after: -loss,
            best: Some("b".into()),
            line: vec!["b".into()],
            loss,
            class,
            accuracy: if loss > 0 { 50.0 } else { 100.0 },
            agreed: loss == 0,
            shot: Vec::new(),
            depth: 1,
            nodes: 1,
        }
    }

    #[test]
    fn players_stages_and_the_page() {
        let game = GameAnalysis {
            plies: vec![
                ply(1, 0, 0, None),
                ply(2, 1, 300, Some(Class::Blunder)),
                ply(11, 0, 40, Some(Class::Inaccuracy)),
            ],
            unanalysed: None,
        };
        let mut r = AnalysisReport::new("Analysis <test>");
        let players = [(0, "Ann".to_string()), (1, "Bo Ek".to_string())];
        r.add(&players, &game);
        r.add(&players, &game);
        assert_eq!(r.players()["Bo Ek"].count(Class::Blunder), 2);
        assert_eq!(r.players()["Ann"].moves, 4);
        assert_eq!(r.stages[0], (600, 4));
        assert_eq!(r.stages[1], (80, 2));
        let dir = std::env::temp_dir().join(format!("arbiter-analysed-{}", std::process::id()));
        let files = r.write(&dir).unwrap();
        let html = fs::read_to_string(&files.html).unwrap();
        assert!(html.contains("<title>Analysis &lt;test&gt;</title>"));
        assert!(html.contains("<tr data-player=\"Bo Ek\">"));
        assert!(html.contains("href=\"#moves:blunder:Bo%20Ek\">2</a>"));
        assert_eq!(files.charts.len(), 2);
        let json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&files.json).unwrap()).unwrap();
        assert_eq!(json["players"][1]["classes"]["blunder"], 2);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_page_of_100k_analysed_games_stays_under_20_mb() {
        // Past the viewer's budget a game keeps its tags, label and accuracies; the table
        // keeps its most active players.
        let game = GameAnalysis {
            plies: vec![ply(1, 0, 0, None), ply(2, 1, 300, Some(Class::Blunder))],
            unanalysed: None,
        };
        let names: Vec<String> = (0..5000).map(|i| format!("Player Number {i:05}")).collect();
        let mut r = AnalysisReport::new("Large");
        let file = r
            .viewer_mut()
            .add_file("archive/games-of-a-large-federation.pdn");
        for i in 0..100_000usize {
            let (white, black) = (&names[i % 5000], &names[(i * 7 + 1) % 5000]);
            r.add(&[(0, white.clone()), (1, black.clone())], &game);
            let date = format!("{}.05.17", 1990 + i % 30);
            let g = crate::ViewerGame {
                label: "International draughts",
                tags: [white, black, "Some Open Tournament", &date, "1-1"],
                accuracy: vec![95.25, 88.5],
                plies_written: 90,
                ..crate::ViewerGame::default()
            };
            r.viewer_mut()
                .add(file, i as u64 + 1, &g.encode_without_moves());
        }
        let dir =
            std::env::temp_dir().join(format!("arbiter-analysed-large-{}", std::process::id()));
        let files = r.write(&dir).unwrap();
        let size = fs::metadata(&files.html).unwrap().len();
        let _ = fs::remove_dir_all(&dir);
        // The games kept with their moves add at most the viewer's budget.
        assert!(
            size + (VIEWER_BUDGET as u64) < (20 << 20),
            "report.html is {size} bytes"
        );
    }
}
