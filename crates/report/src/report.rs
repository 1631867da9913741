//! The report: `report.html` (one self-contained page), `stats.json`, and every chart as SVG
//! and PNG.
//!
//! Sections follow each game's [`game::Profile`], never its name: results, seats, length,
//! validation and tags for every game; captures, promotions, material, capture squares and
//! openings for board games without chance; throws and turn order for games of chance; tags
//! only for games arbiter could not identify.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::chart::{fmt_count, group_thousands, BarSeries, Body, Chart, LineSeries, PALETTE};
use crate::diagram::{ArrowStyle, Diagram};
use crate::Viewer;
use plotters::style::RGBColor;
use stats::{
    BoardSummary, ChanceSummary, CommonSummary, Counters, Distribution, GameSummary, NameRow,
    Stats, Summary, TagSummary, ThrowTest, TreeMove, TreeSummary, UnknownSummary,
    ValidationSummary, HIST_CAP,
};

/// Problem examples shown at most beyond the first of each code of each game (which are
/// always shown).
pub const MAX_EXAMPLES: usize = 24;
/// Problem examples kept per code of each game.
pub const MAX_EXAMPLES_PER_CODE: usize = 4;
/// Distinct (game, code) pairs whose examples are kept; guards memory against free-text codes.
const MAX_EXAMPLE_KEYS: usize = 256;

/// A diagnostic shown in the report with the position it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProblemExample {
    /// Heading, e.g. `games.pdn, game 12, move 23`.
    pub title: String,
    /// The game's label (empty when unknown).
    pub game: String,
    /// The diagnostic code, e.g. `non-maximal-capture`.
    pub code: String,
    /// The diagnostic's message.
    pub message: String,
    /// The position, if one could be drawn; every move it shows is an arrow (e.g. every
    /// candidate of an ambiguous move, see [`Diagram::add_paths`]).
    pub diagram: Option<Diagram>,
}

/// The examples kept for one (game, code) pair and how many were offered.
#[derive(Debug, Clone, Default)]
struct Bucket {
    offered: u64,
    kept: Vec<ProblemExample>,
}

/// What the report shows beyond the statistics: a title and problem examples.
///
/// At most [`MAX_EXAMPLES_PER_CODE`] examples are kept per code of each game (the first ones
/// offered). The report shows the first example of every code of every game, then more of
/// the most frequent codes (most offered first) up to [`MAX_EXAMPLES`] in all. A caller
/// offers every diagnostic, or counts the ones it does not draw with
/// [`ReportExtras::skip_example`], so that frequencies are right.
#[derive(Debug, Clone, Default)]
pub struct ReportExtras {
    title: Option<String>,
    buckets: BTreeMap<(String, String), Bucket>,
    /// Offered beyond the key cap.
    overflow: u64,
    /// Every game with a problem, for the viewer section.
    viewer: Option<Viewer>,
}

impl ReportExtras {
    /// No title, no examples.
    pub fn new() -> Self {
        ReportExtras::default()
    }

    /// Sets the games and problems the report's viewer shows (see [`crate::viewer`]).
    pub fn set_viewer(&mut self, viewer: Viewer) {
        self.viewer = Some(viewer);
    }

    /// Takes the games and problems of the viewer out, if set.
    pub fn take_viewer(&mut self) -> Option<Viewer> {
        self.viewer.take()
    }

    /// The games and problems of the viewer, if set.
    pub fn viewer(&self) -> Option<&Viewer> {
        self.viewer.as_ref()
    }

    /// Sets the report's title (default: `Game statistics`).
    pub fn set_title(&mut self, title: impl Into<String>) {
        self.title = Some(title.into());
    }

    /// True if an example of this game and code would be kept, so a caller can skip drawing
    /// one that would be left out.
    pub fn accepts(&self, game: &str, code: &str) -> bool {
        match self.buckets.get(&(game.to_owned(), code.to_owned())) {
            Some(b) => b.kept.len() < MAX_EXAMPLES_PER_CODE,
            None => self.buckets.len() < MAX_EXAMPLE_KEYS,
        }
    }

    fn bucket(&mut self, game: &str, code: &str) -> Option<&mut Bucket> {
        let key = (game.to_owned(), code.to_owned());
        if !self.buckets.contains_key(&key) && self.buckets.len() >= MAX_EXAMPLE_KEYS {
            self.overflow += 1;
            return None;
        }
        Some(self.buckets.entry(key).or_default())
    }

    /// Counts an example of this game and code left out without offering it (see
    /// [`ReportExtras::accepts`]).
    pub fn skip_example(&mut self, game: &str, code: &str) {
        if let Some(b) = self.bucket(game, code) {
            b.offered += 1;
        }
    }

    /// Offers an example; returns false when it is not kept (its code already has
    /// [`MAX_EXAMPLES_PER_CODE`] examples).
    pub fn add_example(&mut self, example: ProblemExample) -> bool {
        let Some(b) = self.bucket(&example.game, &example.code) else {
            return false;
        };
        b.offered += 1;
        if b.kept.len() >= MAX_EXAMPLES_PER_CODE {
            return false;
        }
        b.kept.push(example);
        true
    }

    /// Adds the examples and counts of `other` (its kept examples after these ones).
    pub fn merge(&mut self, other: ReportExtras) {
        if self.title.is_none() {
            self.title = other.title;
        }
        self.overflow += other.overflow;
        for ((game, code), b) in other.buckets {
            let Some(mine) = self.bucket(&game, &code) else {
                continue;
            };
            mine.offered += b.offered;
            let room = MAX_EXAMPLES_PER_CODE - mine.kept.len().min(MAX_EXAMPLES_PER_CODE);
            mine.kept.extend(b.kept.into_iter().take(room));
        }
    }

    /// The examples the report shows: the first of every code of every game, then further
    /// ones of the most frequent codes, up to [`MAX_EXAMPLES`] in all; grouped by game and
    /// code, most frequent code first.
    pub fn examples(&self) -> Vec<&ProblemExample> {
        let mut keys: Vec<(&(String, String), &Bucket)> = self
            .buckets
            .iter()
            .filter(|(_, b)| !b.kept.is_empty())
            .collect();
        keys.sort_by(|a, b| b.1.offered.cmp(&a.1.offered).then_with(|| a.0.cmp(b.0)));
        let mut take = vec![1usize; keys.len()];
        let mut shown = keys.len();
        for round in 1..MAX_EXAMPLES_PER_CODE {
            for (i, (_, b)) in keys.iter().enumerate() {
                if shown >= MAX_EXAMPLES {
                    break;
                }
                if b.kept.len() > round {
                    take[i] += 1;
                    shown += 1;
                }
            }
        }
        keys.iter()
            .zip(take)
            .flat_map(|((_, b), n)| b.kept.iter().take(n))
            .collect()
    }

    /// Examples offered (or skipped) but not shown.
    pub fn dropped(&self) -> u64 {
        let offered: u64 = self.buckets.values().map(|b| b.offered).sum();
        offered + self.overflow - self.examples().len() as u64
    }
}

/// A problem example as `stats.json` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct ExampleRow {
    /// The game's label.
    pub game: String,
    /// The diagnostic code.
    pub code: String,
    /// Heading.
    pub title: String,
    /// The diagnostic's message.
    pub message: String,
    /// Moves drawn as played.
    pub played_arrows: usize,
    /// Moves drawn as suggested (every candidate of an ambiguous move).
    pub suggested_arrows: usize,
}

impl ExampleRow {
    fn of(e: &ProblemExample) -> Self {
        let arrows = |style| {
            e.diagram
                .as_ref()
                .map_or(0, |d| d.arrows.iter().filter(|a| a.style == style).count())
        };
        ExampleRow {
            game: e.game.clone(),
            code: e.code.clone(),
            title: e.title.clone(),
            message: e.message.clone(),
            played_arrows: arrows(ArrowStyle::Played),
            suggested_arrows: arrows(ArrowStyle::Suggested),
        }
    }
}

/// `stats.json`: the summary, the examples shown and the chart files.
#[derive(Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    examples: Vec<ExampleRow>,
    examples_not_shown: u64,
    charts: Vec<ChartRow>,
}

#[derive(Serialize)]
struct ChartRow {
    id: String,
    title: String,
}

/// One chart written beside the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartFile {
    /// The chart's id (also the HTML anchor `fig-<id>`).
    pub id: String,
    /// Its title.
    pub title: String,
    /// The SVG file.
    pub svg: PathBuf,
    /// The PNG file.
    pub png: PathBuf,
}

/// The files [`write_report`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportFiles {
    /// `report.html`.
    pub html: PathBuf,
    /// `stats.json`.
    pub json: PathBuf,
    /// Every chart, in report order.
    pub charts: Vec<ChartFile>,
}

/// Writes the report of `stats` into `dir` (created if missing): `report.html`, `stats.json`
/// and every chart as `<id>.svg` and `<id>.png`, with the title, problem examples and viewer
/// of `extras` (`&ReportExtras::default()` for none).
pub fn write_report(stats: &Stats, dir: &Path, extras: &ReportExtras) -> io::Result<ReportFiles> {
    fs::create_dir_all(dir)?;
    let summary = stats.summary();
    let mut page = Page {
        dir,
        html: String::with_capacity(1 << 20),
        charts: Vec::new(),
        pngs: Vec::new(),
    };
    page.render(&summary, extras)?;
    page.write_pngs()?;
    let html = dir.join("report.html");
    outfile::write_staged(&html, page.html.as_bytes())?;
    let json = dir.join("stats.json");
    let shown = extras.examples();
    let doc = Json {
        summary: &summary,
        examples: shown.iter().map(|e| ExampleRow::of(e)).collect(),
        examples_not_shown: extras.dropped(),
        charts: page
            .charts
            .iter()
            .map(|c| ChartRow {
                id: c.id.clone(),
                title: c.title.clone(),
            })
            .collect(),
    };
    let text = serde_json::to_string_pretty(&doc).map_err(io::Error::other)?;
    outfile::write_staged(&json, text.as_bytes())?;
    Ok(ReportFiles {
        html,
        json,
        charts: page.charts,
    })
}

/// HTML text with `<`, `>`, `&`, `"` and `'` escaped.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn num(n: u64) -> String {
    group_thousands(n as i64)
}

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "–".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

fn opt_u(v: Option<u64>) -> String {
    v.map_or("–".into(), num)
}

fn opt_f(v: Option<f64>, decimals: usize) -> String {
    v.map_or("–".into(), |x| format!("{x:.decimals$}"))
}

fn p_value(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

pub(crate) const CSS: &str = r#"
:root { --ink:#1e1e1e; --muted:#666; --rule:#d9d9d9; --band:#f6f7f9; --accent:#4e79a7; }
* { box-sizing: border-box; }
body { margin:0; font-family: "DejaVu Sans", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color:var(--ink); background:#fff; line-height:1.45; font-size:15px; }
header { background:#24384f; color:#fff; padding:22px 32px 14px; }
header h1 { margin:0 0 6px; font-size:28px; }
header p { margin:0 0 10px; color:#dde6f0; }
nav a { color:#fff; margin-right:18px; text-decoration:none; border-bottom:1px solid #8fb0d3; }
main { max-width:1360px; margin:0 auto; padding:8px 32px 48px; }
section { border-bottom:2px solid var(--rule); padding-bottom:18px; }
h2 { font-size:24px; margin:28px 0 6px; }
h3 { font-size:18px; margin:22px 0 8px; color:#24384f; }
p.lead { color:var(--muted); margin:0 0 8px; }
.grid { display:grid; grid-template-columns:repeat(auto-fill, minmax(min(540px, 100%), 1fr)); gap:18px 26px; align-items:start; }
figure { margin:0; border:1px solid var(--rule); border-radius:6px; padding:8px; background:#fff; }
figure svg { display:block; width:100%; height:auto; }
figcaption { color:var(--muted); font-size:13.5px; padding:4px 6px 2px; }
table { border-collapse:collapse; margin:4px 0 10px; font-size:14px; }
th, td { padding:4px 10px; border-bottom:1px solid var(--rule); text-align:left; vertical-align:top; }
th { background:var(--band); font-weight:600; }
td.n, th.n { text-align:right; font-variant-numeric:tabular-nums; }
tbody tr:nth-child(even) td { background:#fbfbfc; }
code, td.mono { font-family:"DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace; font-size:13px; }
.examples { display:grid; grid-template-columns:repeat(auto-fill, minmax(min(500px, 100%), 1fr)); gap:18px; }
.example { border:1px solid var(--rule); border-radius:6px; padding:10px 12px; }
.example h3 { margin:0 0 4px; font-size:16px; }
.example svg { display:block; max-width:100%; height:auto; margin-top:6px; }
.badge { display:inline-block; background:#fde2e1; color:#8a1c1c; border-radius:4px; padding:0 6px; font-size:12.5px; }
.note { color:var(--muted); font-size:14px; }
.single { border:1px dashed var(--rule); border-radius:6px; padding:8px 12px; }
.single h4 { margin:0 0 4px; font-size:15px; }
.game-tag { color:var(--muted); font-size:12.5px; }
table { max-width:100%; display:block; overflow-x:auto; }
details > summary { cursor:pointer; list-style:none; }
details > summary::-webkit-details-marker { display:none; }
details > summary h2 { display:inline-block; }
details > summary h2, details > summary h3 { display:inline-block; }
details > summary h2::before, details > summary h3::before { content:"▸ "; color:var(--muted); }
details[open] > summary h2::before, details[open] > summary h3::before { content:"▾ "; }
.tree { font-size:14px; margin:4px 0 10px; }
.tree summary, .tree .leaf, .tree .head { display:flex; gap:10px; align-items:baseline; padding:2px 0; border-bottom:1px solid var(--band); }
.tree .head { font-weight:600; background:var(--band); }
.tree .mv { font-family:"DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace; flex:none; width:20em; padding-left:calc(var(--d, 0) * 16px); }
.tree .mv::before { content:""; display:inline-block; width:1.3em; color:var(--muted); }
.tree summary .mv::before { content:"▸"; }
.tree details[open] > summary .mv::before { content:"▾"; }
.tree .n { min-width:5.5em; text-align:right; font-variant-numeric:tabular-nums; }
.tree .sc { min-width:13em; font-variant-numeric:tabular-nums; }
.tree .tr { color:var(--muted); font-size:13px; }
"#;

/// Opens the folded section a link leads to (the navigation bar, a hash in the address);
/// `#all` opens every section.
const FOLD_JS: &str = r#"
(function () {
  function reveal() {
    if (location.hash === '#all') {
      document.querySelectorAll('details').forEach(function (d) { d.open = true; });
      return;
    }
    var t = location.hash && document.getElementById(location.hash.slice(1));
    var d = t && (t.querySelector('details') || t.closest('details'));
    if (d) { d.open = true; t.scrollIntoView(); }
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();
"#;

/// Folds every `<section>` of `html` under its `<h2>`: the heading becomes the summary of a
/// `<details>` holding the rest, open for the sections named in `open`.
fn fold_sections(html: &str, open: &[&str]) -> String {
    let mut out = String::with_capacity(html.len() + 4096);
    let mut rest = html;
    while let Some(at) = rest.find("<section") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let Some(tag_end) = from.find('>') else {
            out.push_str(from);
            return out;
        };
        let tag = &from[..=tag_end];
        let after = &from[tag_end + 1..];
        let body = after.trim_start();
        let heading_end = body.find("</h2>").filter(|_| body.starts_with("<h2>"));
        let Some(heading_end) = heading_end else {
            out.push_str(tag);
            rest = after;
            continue;
        };
        let id = tag
            .split("id=\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .unwrap_or("");
        let _ = write!(
            out,
            "{tag}\n<details{}><summary>{}</summary>",
            if open.contains(&id) { " open" } else { "" },
            &body[..heading_end + 5]
        );
        rest = &body[heading_end + 5..];
    }
    out.push_str(rest);
    out.replace("</section>", "</details></section>")
}

/// Marks layout problems into the page, for a headless browser to read back: elements wider
/// than the window, images that did not load. The result is the `data-problems` attribute of
/// `<body>` (empty: none), with `data-checked="yes"` once the check ran and the page's height
/// in `data-height`.
const CHECK_JS: &str = r#"
(function () {
  var problems = [];
  var width = document.documentElement.clientWidth;
  document.querySelectorAll('figure, svg, img, table, .example, section').forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 1) {
      var at = e.closest('[id]');
      problems.push('too-wide:' + e.tagName.toLowerCase() + '@' + (at ? at.id : '?') + ':' +
        Math.round(r.right) + '>' + width);
    }
  });
  document.querySelectorAll('img').forEach(function (i) {
    if (!i.complete || i.naturalWidth === 0) { problems.push('broken-image:' + i.src); }
  });
  document.body.setAttribute('data-problems', problems.join(' '));
  document.body.setAttribute('data-height', String(document.documentElement.scrollHeight));
  document.body.setAttribute('data-checked', 'yes');
})();
"#;

pub(crate) struct Page<'a> {
    dir: &'a Path,
    pub(crate) html: String,
    charts: Vec<ChartFile>,
    /// Charts whose PNG file is still to be drawn (all at the end, on every core).
    pngs: Vec<(Chart, PathBuf)>,
}

/// Seat colours for per-seat charts.
const SEAT_COLOURS: [RGBColor; 4] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(230, 140, 20),
];

impl<'a> Page<'a> {
    /// An empty page whose chart files go into `dir`.
    pub(crate) fn new(dir: &'a Path) -> Self {
        Page {
            dir,
            html: String::with_capacity(1 << 20),
            charts: Vec::new(),
            pngs: Vec::new(),
        }
    }

    /// The page's HTML and the chart files written so far.
    pub(crate) fn into_parts(self) -> (String, Vec<ChartFile>) {
        (self.html, self.charts)
    }

    pub(crate) fn push(&mut self, s: &str) {
        self.html.push_str(s);
    }

    /// Renders `chart` inline as SVG inside a figure, and writes its SVG and PNG files.
    pub(crate) fn figure(&mut self, chart: Chart, caption: &str) -> io::Result<()> {
        let svg = chart.to_svg().map_err(io::Error::other)?;
        let svg_path = self.dir.join(format!("{}.svg", chart.id));
        let png_path = self.dir.join(format!("{}.png", chart.id));
        outfile::write_staged(&svg_path, svg.as_bytes())?;
        let _ = writeln!(
            self.html,
            "<figure id=\"fig-{}\">\n{}\n<figcaption>{}</figcaption></figure>",
            esc(&chart.id),
            svg,
            caption
        );
        self.charts.push(ChartFile {
            id: chart.id.clone(),
            title: chart.title.clone(),
            svg: svg_path,
            png: png_path.clone(),
        });
        self.pngs.push((chart, png_path));
        Ok(())
    }

    /// Draws the PNG files of every chart of the page, in parallel (rasterising and
    /// compressing them is most of a report's time).
    pub(crate) fn write_pngs(&mut self) -> io::Result<()> {
        use rayon::prelude::*;
        std::mem::take(&mut self.pngs)
            .par_iter()
            .try_for_each(|(chart, path)| chart.write_png(path))
    }

    fn render(&mut self, s: &Summary, extras: &ReportExtras) -> io::Result<()> {
        let title = extras.title.as_deref().unwrap_or("Game statistics");
        let _ = writeln!(
            self.html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>",
            esc(title),
            CSS,
            esc(title)
        );
        let parts: Vec<String> = s
            .by_game
            .iter()
            .filter(|g| g.games > 0)
            .map(|g| format!("{} {}", num(g.games), g.label))
            .collect();
        let _ = write!(
            self.html,
            "<p>{} games{}{}.</p>\n<nav><a href=\"#overview\">Overview</a>",
            num(s.games),
            if parts.is_empty() { "" } else { ": " },
            esc(&parts.join(", "))
        );
        for g in &s.per_game {
            let _ = write!(self.html, "<a href=\"#{}\">{}</a>", esc(g.id), esc(g.label));
        }
        if s.unknown.games > 0 {
            self.push("<a href=\"#unknown\">Unidentified games</a>");
        }
        let examples = extras.examples();
        if extras.viewer.is_some() {
            self.push("<a href=\"#games\">Games and problems</a>");
        }
        if !examples.is_empty() {
            self.push("<a href=\"#examples\">Problem examples</a>");
        }
        self.push("<a href=\"#notes\">Notes</a></nav>\n</header>\n<main>\n");

        self.overview(s)?;
        for g in &s.per_game {
            self.game(g)?;
        }
        if s.unknown.games > 0 {
            self.unknown(&s.unknown)?;
        }
        if let Some(v) = &extras.viewer {
            self.viewer(v);
        }
        self.examples(&examples, extras.dropped());
        self.notes(s);
        let _ = writeln!(
            self.html,
            "</main>\n<script>{FOLD_JS}</script>\n<script>{CHECK_JS}</script>\n</body>\n</html>"
        );
        self.html = fold_sections(&self.html, &["overview", "games"]);
        Ok(())
    }

    fn overview(&mut self, s: &Summary) -> io::Result<()> {
        self.push("<section id=\"overview\">\n<h2>Overview</h2>\n<div class=\"grid\">\n");
        let shown: Vec<_> = s.by_game.iter().filter(|g| g.games > 0).collect();
        let cats: Vec<String> = shown.iter().map(|g| g.label.clone()).collect();
        let series = vec![
            BarSeries::new(
                "Clean",
                PALETTE[2],
                shown.iter().map(|g| g.clean as f64).collect(),
            ),
            BarSeries::new(
                "Warnings only",
                PALETTE[6],
                shown.iter().map(|g| g.warnings_only as f64).collect(),
            ),
            BarSeries::new(
                "With errors",
                PALETTE[3],
                shown.iter().map(|g| g.with_errors as f64).collect(),
            ),
        ];
        // One bar dwarfing the rest (thousands of unidentified games beside a few dozen of a
        // rare game) would flatten the small ones: a log axis keeps every bar readable.
        let values = series.iter().flat_map(|b| b.values.iter().copied());
        let (lo, hi) = values
            .filter(|&v| v > 0.0)
            .fold((f64::MAX, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let log = hi >= 20.0 * lo;
        self.figure(
            Chart {
                id: "overview-validation".into(),
                title: "Validation outcome per game".into(),
                body: Body::Bars {
                    value_desc: if log {
                        "games (log scale)".into()
                    } else {
                        "games".into()
                    },
                    category_desc: String::new(),
                    categories: cats,
                    series,
                    horizontal: true,
                    log,
                },
            },
            if log {
                "Games without any diagnostic (clean), with warnings only, and with at least one \
                 error, on a log scale (each step is ten times the one before) so that small \
                 counts stay visible; the table gives the exact numbers."
            } else {
                "Games without any diagnostic (clean), with warnings only, and with at least one \
                 error."
            },
        )?;
        self.push("<div>\n<table>\n<thead><tr><th>Game</th><th class=\"n\">Games</th>\
                   <th class=\"n\">Clean</th><th class=\"n\">Warnings only</th>\
                   <th class=\"n\">With errors</th><th class=\"n\">Clean share</th></tr></thead>\n<tbody>\n");
        for g in &shown {
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(&g.label),
                num(g.games),
                num(g.clean),
                num(g.warnings_only),
                num(g.with_errors),
                pct(g.clean, g.games)
            );
        }
        let t = |f: fn(&stats::GameCount) -> u64| s.by_game.iter().map(f).sum::<u64>();
        let (clean, warn, errs) = (t(|g| g.clean), t(|g| g.warnings_only), t(|g| g.with_errors));
        let _ = writeln!(
            self.html,
            "<tr><th>All</th><th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th>\
             <th class=\"n\">{}</th><th class=\"n\">{}</th></tr>\n</tbody></table>\n</div>\n</div>\n</section>",
            num(s.games),
            num(clean),
            num(warn),
            num(errs),
            pct(clean, s.games)
        );
        Ok(())
    }

    /// One game's section: the common part, then what its profile calls for, then its tags.
    fn game(&mut self, g: &GameSummary) -> io::Result<()> {
        self.common(g)?;
        if let Some(b) = &g.board {
            self.board(g.id, b)?;
        }
        if let Some(c) = &g.chance {
            self.chance(g.id, c)?;
        }
        if g.board.is_some() {
            self.openings(&g.common);
            if let Some(t) = &g.common.opening_tree {
                self.opening_tree(&g.common.seats, t);
            }
        }
        self.tags(g.id, &g.tags, false)?;
        self.push("</section>\n");
        Ok(())
    }

    /// Results, seats, length, captures and validation: the part every game shares.
    fn common(&mut self, g: &GameSummary) -> io::Result<()> {
        let (id, c) = (g.id, &g.common);
        let _ = writeln!(
            self.html,
            "<section id=\"{}\" class=\"game\">\n<h2>{}</h2>\n<p class=\"lead\">{} games · \
             {} clean · mean length {} plies · {} captures per game on average</p>",
            esc(id),
            esc(g.label),
            num(c.games),
            pct(c.validation.clean, c.games),
            opt_f(c.length.mean, 1),
            opt_f(c.captures.mean, 1)
        );
        self.results(g)?;
        self.seats(id, c)?;
        self.length_and_captures(id, c)?;
        self.validation(id, &c.validation)
    }

    /// Results as recorded and by rule: chart, table, and how the two agree.
    fn results(&mut self, g: &GameSummary) -> io::Result<()> {
        let (id, c) = (g.id, &g.common);
        self.push("<h3>Results</h3>\n<div class=\"grid\">\n");
        let cats: Vec<String> = c.results.iter().map(|r| r.label.clone()).collect();
        let series = vec![
            BarSeries::new(
                "as recorded",
                PALETTE[0],
                c.results.iter().map(|r| r.recorded as f64).collect(),
            ),
            BarSeries::new(
                "by rule",
                PALETTE[1],
                c.results.iter().map(|r| r.by_rule as f64).collect(),
            ),
        ];
        self.figure(
            Chart {
                id: format!("{id}-results"),
                title: format!("{} results", g.label),
                body: Body::Bars {
                    value_desc: "games".into(),
                    category_desc: String::new(),
                    categories: cats,
                    series,
                    horizontal: true,
                    log: false,
                },
            },
            "Results as recorded in the game records, and as the rules give them at the end of \
             the replayed main line (“No result” by rule: the game had not ended by rule).",
        )?;
        self.push(
            "<div>\n<table>\n<thead><tr><th>Result</th><th class=\"n\">As recorded</th>\
                   <th class=\"n\">Share</th><th class=\"n\">By rule</th></tr></thead>\n<tbody>\n",
        );
        for r in c.results.iter().chain(&c.losses) {
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(&r.label),
                num(r.recorded),
                pct(r.recorded, c.games),
                num(r.by_rule)
            );
        }
        let a = &c.agreement;
        let _ = writeln!(
            self.html,
            "</tbody></table>\n<table>\n<thead><tr><th>Recorded result vs rules</th><th class=\"n\">Games</th></tr></thead>\n<tbody>\n\
             <tr><td>Ended by rule, record agrees</td><td class=\"n\">{}</td></tr>\n\
             <tr><td>Ended by rule, record differs</td><td class=\"n\">{}</td></tr>\n\
             <tr><td>Ended by rule, nothing recorded</td><td class=\"n\">{}</td></tr>\n\
             <tr><td>Not ended by rule, result recorded</td><td class=\"n\">{}</td></tr>\n\
             <tr><td>Neither</td><td class=\"n\">{}</td></tr>\n</tbody></table>\n</div>\n</div>",
            num(a.agree),
            num(a.disagree),
            num(a.rule_only),
            num(a.recorded_only),
            num(a.neither)
        );
        Ok(())
    }

    fn length_and_captures(&mut self, id: &str, c: &CommonSummary) -> io::Result<()> {
        self.push("<h3>Game length and captures</h3>\n<div class=\"grid\">\n");
        self.histogram(
            format!("{id}-length"),
            "Game length".into(),
            "plies in the main line",
            &c.length,
            PALETTE[0],
            "Number of plies (single moves) in each game's main line.",
        )?;
        self.histogram(
            format!("{id}-captures"),
            "Captures per game".into(),
            "pieces captured in the game",
            &c.captures,
            PALETTE[3],
            "Pieces captured over the replayed plies of each game.",
        )?;
        self.push("</div>\n");
        self.distribution_table(&[
            ("Plies per game", &c.length),
            ("Captures per game", &c.captures),
        ]);
        if c.replay_stopped > 0 {
            let _ = writeln!(
                self.html,
                "<p class=\"note\">The replay of {} games stopped at an error before the end of \
                 the main line; their per-ply figures cover the replayed part only.</p>",
                num(c.replay_stopped)
            );
        }
        Ok(())
    }

    /// Games played, wins and win rate per seat: a table, and the win rates as a chart when
    /// two seats or more played.
    fn seats(&mut self, id: &str, c: &CommonSummary) -> io::Result<()> {
        if c.per_seat.is_empty() {
            return Ok(());
        }
        self.push("<h3>Seats</h3>\n<div class=\"grid\">\n");
        if c.per_seat.len() >= 2 {
            let mut series = BarSeries::new(
                "win rate",
                PALETTE[0],
                c.per_seat
                    .iter()
                    .map(|r| r.win_rate.unwrap_or(0.0) * 100.0)
                    .collect(),
            );
            // Two sides are light and dark, as on the board; more seats have their colours.
            let colours: &[RGBColor] = if c.seats.len() == 2 {
                &[RGBColor(190, 160, 90), RGBColor(40, 40, 40)]
            } else {
                &SEAT_COLOURS
            };
            series.bar_colours = c
                .per_seat
                .iter()
                .map(|r| {
                    let i = c.seats.iter().position(|s| *s == r.seat).unwrap_or(0);
                    colours[i % colours.len()]
                })
                .collect();
            self.figure(
                Chart {
                    id: format!("{id}-seats"),
                    title: "Win rate per seat".into(),
                    body: Body::Bars {
                        value_desc: "games won per game played (%)".into(),
                        category_desc: "seat".into(),
                        categories: c.per_seat.iter().map(|r| r.seat.to_string()).collect(),
                        series: vec![series],
                        horizontal: false,
                        log: false,
                    },
                },
                "Share of the games each seat played that it won (by rule where the game ended \
                 by rule, else as recorded). Seats that play fewer games are not penalised.",
            )?;
        }
        self.push("<div>\n<table>\n<thead><tr><th>Seat</th><th class=\"n\">Games played</th>\
                   <th class=\"n\">Wins</th><th class=\"n\">Draws</th><th class=\"n\">Win rate</th></tr></thead>\n<tbody>\n");
        for r in &c.per_seat {
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(r.seat),
                num(r.played),
                num(r.wins),
                num(r.draws),
                pct(r.wins, r.played)
            );
        }
        self.push("</tbody></table>\n</div>\n</div>\n");
        Ok(())
    }

    /// Validation outcome (a chart of games) and the diagnostic codes (their own chart on a
    /// logarithmic axis, so that a code seen in a few games shows next to one seen in
    /// thousands).
    fn validation(&mut self, id: &str, v: &ValidationSummary) -> io::Result<()> {
        self.push("<h3>Validation</h3>\n<div class=\"grid\">\n");
        // One code is a table row, not a chart.
        if v.codes.len() >= 2 {
            let mut shown: Vec<_> = v.codes.iter().collect();
            shown.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.code.cmp(&b.code)));
            shown.truncate(16);
            let mut series = BarSeries::new(
                "games",
                RGBColor(120, 120, 140),
                shown.iter().map(|c| c.games as f64).collect(),
            );
            series.bar_colours = shown
                .iter()
                .map(|c| if c.errors > 0 { PALETTE[3] } else { PALETTE[6] })
                .collect();
            self.figure(
                Chart {
                    id: format!("{id}-codes"),
                    title: "Games per diagnostic code".into(),
                    body: Body::Bars {
                        value_desc: "games (logarithmic scale)".into(),
                        category_desc: String::new(),
                        categories: shown.iter().map(|c| c.code.clone()).collect(),
                        series: vec![series],
                        horizontal: true,
                        log: true,
                    },
                },
                &format!(
                    "Games showing each diagnostic code (red: errors, yellow: warnings only), on \
                     a logarithmic axis so that rare codes stay visible{}.",
                    if v.codes.len() > shown.len() {
                        format!(
                            "; the {} most frequent of {} codes",
                            shown.len(),
                            v.codes.len()
                        )
                    } else {
                        String::new()
                    }
                ),
            )?;
        }
        self.push("<div>\n");
        self.validation_table(v);
        self.push("</div>\n</div>\n");
        Ok(())
    }

    fn openings(&mut self, c: &CommonSummary) {
        self.push("<h3>Most frequent openings</h3>\n");
        if c.openings.is_empty() {
            self.push("<p class=\"note\">No openings.</p>\n");
            return;
        }
        self.push("<table>\n<thead><tr><th>Opening (first plies)</th><th class=\"n\">Games</th><th class=\"n\">Share</th>");
        for seat in &c.seats {
            let _ = write!(self.html, "<th class=\"n\">{} wins</th>", esc(seat));
        }
        self.push("<th class=\"n\">Draws</th><th class=\"n\">*</th><th class=\"n\">No result</th></tr></thead>\n<tbody>\n");
        for o in &c.openings {
            let text = if o.opening.is_empty() {
                "(no moves)".to_string()
            } else {
                o.opening.clone()
            };
            let _ = write!(
                self.html,
                "<tr><td class=\"mono\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.1}%</td>",
                esc(&text),
                num(o.games),
                o.share * 100.0
            );
            for w in &o.wins {
                let _ = write!(self.html, "<td class=\"n\">{}</td>", num(*w));
            }
            let _ = writeln!(
                self.html,
                "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                num(o.draws),
                num(o.unfinished),
                num(o.none)
            );
        }
        let _ = writeln!(
            self.html,
            "</tbody></table>\n<p class=\"note\">{} distinct openings{}. Results are by rule \
             where the game ended by rule, else as recorded.</p>",
            num(c.distinct_openings as u64),
            if c.openings_pruned_games > 0 {
                format!(
                    "; the table was pruned to the most frequent ones, so counts are lower \
                     bounds ({} games of rare openings dropped)",
                    num(c.openings_pruned_games)
                )
            } else {
                String::new()
            }
        );
    }

    /// The opening tree: each move with its games, their share of the games at the position
    /// before it, the score and, where other move orders reach the same position, how many
    /// games do; folded below the first ply.
    fn opening_tree(&mut self, seats: &[&str], t: &TreeSummary) {
        let (first, second) = (
            seats.first().copied().unwrap_or("First"),
            seats.get(1).copied().unwrap_or("Second"),
        );
        let depth = t.pruned.len();
        let _ = writeln!(
            self.html,
            "<h3>Opening tree</h3>\n<p class=\"note\">The first {} plies of {} games from the \
             usual start position, counted by position: move orders that reach the same position \
             (transpositions) share its continuations: the last column counts the games that \
             reach a move's position by another order, and the moves below it include theirs. \
             Each position shows its most frequent \
             moves (up to {}, each played in at least {} games). Score: {} wins / draws / {} \
             wins, in percent of the games with such a result.{}</p>",
            depth,
            num(t.games),
            stats::TREE_BRANCHES,
            num(stats::tree_min_games(t.games + t.other_starts)),
            esc(first),
            esc(second),
            tree_caveats(t)
        );
        let _ = writeln!(
            self.html,
            "<div class=\"tree\">\n<div class=\"head\"><span class=\"mv\">Move</span>\
             <span class=\"n\">Games</span><span class=\"n\">Share</span>\
             <span class=\"sc\">{} / draw / {}</span><span>Other move orders</span></div>",
            esc(first),
            esc(second)
        );
        let two = seats.len() == 2;
        self.tree_moves(&t.moves, t.games, two);
        self.push("</div>\n");
    }

    fn tree_moves(&mut self, moves: &[TreeMove], parent_games: u64, two_seats: bool) {
        for m in moves {
            let label = match (two_seats, m.ply % 2) {
                (true, 1) => format!("{}. {}", m.ply.div_ceil(2), m.notation),
                (true, _) => format!("{}… {}", m.ply / 2, m.notation),
                (false, _) => format!("{}: {}", m.ply, m.notation),
            };
            let s = &m.score;
            let scored = s.scored();
            let score = if scored == 0 {
                "no results".to_string()
            } else {
                format!(
                    "{} / {} / {}",
                    pct(s.first, scored),
                    pct(s.draws, scored),
                    pct(s.second, scored)
                )
            };
            let transposed = if m.position.games > s.games {
                format!(
                    "<span class=\"tr\" title=\"games that reach the same position by another \
                     move order\">+{} game{}</span>",
                    num(m.position.games - s.games),
                    if m.position.games - s.games == 1 {
                        ""
                    } else {
                        "s"
                    }
                )
            } else {
                String::new()
            };
            let row = format!(
                "<span class=\"mv\" style=\"--d:{}\">{}</span><span class=\"n\">{}</span>\
                 <span class=\"n\">{}</span><span class=\"sc\">{}</span>{}",
                m.ply - 1,
                esc(&label),
                num(s.games),
                pct(s.games, parent_games),
                score,
                transposed
            );
            if m.moves.is_empty() {
                let _ = writeln!(self.html, "<div class=\"leaf\">{row}</div>");
            } else {
                let _ = writeln!(self.html, "<details><summary>{row}</summary>");
                self.tree_moves(&m.moves, m.position.games, two_seats);
                self.push("</details>\n");
            }
        }
    }

    fn validation_table(&mut self, v: &ValidationSummary) {
        let _ = writeln!(
            self.html,
            "<table>\n<thead><tr><th>Outcome</th><th class=\"n\">Games</th><th class=\"n\">Share</th></tr></thead>\n<tbody>\n\
             <tr><td>Clean</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n\
             <tr><td>Warnings only</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n\
             <tr><td>With errors</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n</tbody></table>",
            num(v.clean),
            pct(v.clean, v.games),
            num(v.warnings_only),
            pct(v.warnings_only, v.games),
            num(v.with_errors),
            pct(v.with_errors, v.games)
        );
        if v.codes.is_empty() {
            self.push("<p class=\"note\">No diagnostics.</p>\n");
            return;
        }
        self.push(
            "<table>\n<thead><tr><th>Diagnostic code</th><th class=\"n\">Errors</th>\
                   <th class=\"n\">Warnings</th><th class=\"n\">Games</th></tr></thead>\n<tbody>\n",
        );
        for r in &v.codes {
            let _ = writeln!(
                self.html,
                "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(&r.code),
                num(r.errors),
                num(r.warnings),
                num(r.games)
            );
        }
        self.push("</tbody></table>\n");
    }

    fn distribution_table(&mut self, rows: &[(&str, &Distribution)]) {
        let rows: Vec<_> = rows.iter().filter(|r| r.1.count > 0).collect();
        if rows.is_empty() {
            return;
        }
        self.push("<table>\n<thead><tr><th></th><th class=\"n\">Games</th><th class=\"n\">Mean</th>\
                   <th class=\"n\">Min</th><th class=\"n\">Median</th><th class=\"n\">90th pct.</th>\
                   <th class=\"n\">Max</th></tr></thead>\n<tbody>\n");
        for (label, d) in rows {
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(label),
                num(d.count),
                opt_f(d.mean, 2),
                opt_u(d.min),
                opt_u(d.median),
                opt_u(d.p90),
                opt_u(d.max)
            );
        }
        self.push("</tbody></table>\n");
    }

    /// A distribution as a histogram, or as a sentence when it has fewer than two distinct
    /// values (a chart of one bar says nothing a sentence does not).
    fn histogram(
        &mut self,
        id: String,
        title: String,
        x_desc: &str,
        d: &Distribution,
        colour: RGBColor,
        caption: &str,
    ) -> io::Result<()> {
        if d.distinct < 2 {
            let what = match (d.count, d.min) {
                (0, _) | (_, None) => "no games".to_string(),
                (n, Some(v)) => format!("all {} games: {}", num(n), num(v)),
            };
            let _ = writeln!(
                self.html,
                "<div class=\"single\" id=\"single-{}\"><h4>{}</h4><p>{} — {}.</p></div>",
                esc(&id),
                esc(&title),
                esc(x_desc),
                esc(&what)
            );
            return Ok(());
        }
        let mut caption = esc(caption);
        if let Some(w) = d.bars.first().map(|b| b.hi - b.lo + 1).filter(|&w| w > 1) {
            let _ = write!(caption, " Each bar covers {w} values.");
        }
        if d.overflow > 0 {
            let _ = write!(
                caption,
                " {} games with {} or more are not drawn.",
                num(d.overflow),
                num(HIST_CAP)
            );
        }
        self.figure(
            Chart {
                id,
                title,
                body: Body::Histogram {
                    x_desc: x_desc.into(),
                    y_desc: "games".into(),
                    bars: d.bars.clone(),
                    colour,
                },
            },
            &caption,
        )
    }

    /// One histogram per counter the game declares, under the game's own captions.
    fn counter_charts(&mut self, id: &str, counters: &Counters) -> io::Result<()> {
        for (i, (c, d)) in counters.0.iter().enumerate() {
            self.histogram(
                format!("{id}-{}", c.id),
                c.title.into(),
                c.axis,
                d,
                PALETTE[(5 + i) % PALETTE.len()],
                c.caption,
            )?;
        }
        Ok(())
    }

    /// A board game without chance: captures and promotions, material, capture squares.
    fn board(&mut self, id: &str, d: &BoardSummary) -> io::Result<()> {
        self.captures_and_promotions(id, d)?;
        self.push("<h3>Material and capture squares</h3>\n<div class=\"grid\">\n");
        self.material(id, d)?;
        self.capture_heatmap(id, d)
    }

    fn captures_and_promotions(&mut self, id: &str, d: &BoardSummary) -> io::Result<()> {
        self.push("<h3>Captures and promotions</h3>\n<div class=\"grid\">\n");
        self.histogram(
            format!("{id}-chain"),
            "Longest capture per game".into(),
            "most pieces taken by one move",
            &d.longest_chain,
            PALETTE[3],
            "For each game, the largest number of pieces one move captured (0: no capture).",
        )?;
        self.histogram(
            format!("{id}-promotion"),
            "First promotion".into(),
            "ply of the first promotion",
            &d.first_promotion,
            PALETTE[4],
            &format!(
                "Ply at which the first king was crowned, for the {} games with a promotion; {} \
                 games had none.",
                num(d.first_promotion.count),
                num(d.no_promotion)
            ),
        )?;
        self.push("</div>\n");
        self.distribution_table(&[
            ("Longest capture", &d.longest_chain),
            ("Ply of first promotion", &d.first_promotion),
        ]);
        if !d.counters.0.is_empty() {
            let nouns: Vec<&str> = d.counters.0.iter().map(|(c, _)| c.noun).collect();
            let _ = writeln!(
                self.html,
                "<h3>{}</h3>\n<div class=\"grid\">",
                esc(&cap(&nouns.join(", ")))
            );
            self.counter_charts(id, &d.counters)?;
            self.push("</div>\n");
            let rows: Vec<_> = d.counters.0.iter().map(|(c, d)| (c.row, d)).collect();
            self.distribution_table(&rows);
        }
        Ok(())
    }

    /// The mean material curve (or a note when there are too few plies for one).
    fn material(&mut self, id: &str, d: &BoardSummary) -> io::Result<()> {
        let start = d.material.first().map_or(0, |m| m.games);
        let floor = (start / 10).max(1);
        let kept: Vec<_> = d.material.iter().take_while(|m| m.games >= floor).collect();
        let two = d.material_sides.len() == 2;
        let series = d
            .material_sides
            .iter()
            .enumerate()
            .map(|(i, side)| LineSeries {
                name: side.to_string(),
                colour: if two {
                    [RGBColor(190, 160, 90), RGBColor(40, 40, 40)][i]
                } else {
                    SEAT_COLOURS[i % SEAT_COLOURS.len()]
                },
                points: kept.iter().map(|m| (f64::from(m.ply), m.mean[i])).collect(),
            })
            .collect();
        let what = if d.material_sides.len() == 1 {
            "pieces on the board"
        } else {
            "pieces per side"
        };
        if kept.len() >= 2 {
            self.figure(
                Chart {
                    id: format!("{id}-material"),
                    title: "Material over the game".into(),
                    body: Body::Lines {
                        x_desc: "ply".into(),
                        y_desc: format!("mean {what}"),
                        series,
                    },
                },
                &format!(
                    "Mean {what} after each ply, over the games still going at that ply; the \
                     line stops where fewer than a tenth of the games ({}) remain.",
                    num(floor)
                ),
            )?;
        } else {
            let _ = writeln!(
                self.html,
                "<div class=\"single\"><h4>Material over the game</h4><p>Too few replayed plies \
                 for a curve ({} plies).</p></div>",
                kept.len()
            );
        }
        Ok(())
    }

    /// Where pieces are captured, closing the material grid.
    fn capture_heatmap(&mut self, id: &str, d: &BoardSummary) -> io::Result<()> {
        let (files, ranks) = d.board;
        let cells = d
            .heat
            .iter()
            .map(|h| {
                (
                    h.file,
                    h.rank,
                    d.dark_only.then(|| h.square.clone()),
                    h.count,
                )
            })
            .collect();
        let total: u64 = d.heat.iter().map(|h| h.count).sum();
        if total == 0 {
            self.push(
                "<div class=\"single\"><h4>Where pieces are captured</h4><p>No capture in the \
                 replayed plies.</p></div>\n</div>\n",
            );
            return Ok(());
        }
        self.figure(
            Chart {
                id: format!("{id}-heatmap"),
                title: "Where pieces are captured".into(),
                body: Body::Heatmap {
                    files,
                    ranks,
                    cells,
                    sparse: d.dark_only,
                    legend: "captures".into(),
                },
            },
            &format!(
                "Pieces captured on each square ({} in all), seen from the first seat.{}{}",
                num(total),
                if d.dark_only {
                    " Small numbers are the square numbers."
                } else {
                    ""
                },
                if d.heat_off_board > 0 {
                    format!(
                        " {} captures named a square off the board.",
                        num(d.heat_off_board)
                    )
                } else {
                    String::new()
                }
            ),
        )?;
        self.push("</div>\n");
        Ok(())
    }

    /// A game of chance: its throws against the fair probabilities, lost throws, twins and
    /// length, and wins by turn order.
    fn chance(&mut self, id: &str, t: &ChanceSummary) -> io::Result<()> {
        self.throws(id, t)?;
        self.chance_lengths(id, t)?;
        self.wins_by_order(id, t)
    }

    /// The throws: chart and table against the fair probabilities, with the chi-square test.
    fn throws(&mut self, id: &str, t: &ChanceSummary) -> io::Result<()> {
        let th = &t.throws;
        let name = t.name;
        let _ = writeln!(
            self.html,
            "<h3>{}s</h3>\n<div class=\"grid\">",
            esc(&cap(name))
        );
        let cats: Vec<String> = th.rows.iter().map(|r| r.value.to_string()).collect();
        let fair: Vec<String> = th
            .rows
            .iter()
            .map(|r| format!("{:.4}", r.probability))
            .collect();
        let test_line = match (th.chi_square, th.p_value) {
            (Some(x), Some(p)) => format!(
                "χ² = {x:.2} with {} degrees of freedom, p = {}{}",
                th.df,
                p_value(p),
                if th.reliable {
                    ""
                } else {
                    " (some expected counts are below 5: the test is unreliable)"
                }
            ),
            _ => format!("no {name}s"),
        };
        if th.total > 0 {
            self.figure(
                Chart {
                    id: format!("{id}-throws"),
                    title: format!("{}s: observed and expected if fair", cap(name)),
                    body: Body::Bars {
                        value_desc: format!("{name}s"),
                        category_desc: format!("{name} value"),
                        categories: cats,
                        series: vec![
                            BarSeries::new(
                                "observed",
                                PALETTE[0],
                                th.rows.iter().map(|r| r.observed as f64).collect(),
                            ),
                            BarSeries::new(
                                "expected if fair",
                                RGBColor(170, 170, 170),
                                th.rows.iter().map(|r| r.expected.round()).collect(),
                            ),
                        ],
                        horizontal: false,
                        log: false,
                    },
                },
                &format!(
                    "Every {name} (discarded and lost ones included) against the fair \
                     probabilities {}. {}.",
                    fair.join(", "),
                    esc(&test_line)
                ),
            )?;
        }
        self.throw_table(th, name, &test_line);
        Ok(())
    }

    /// The throws' table under their chart.
    fn throw_table(&mut self, th: &ThrowTest, name: &str, test_line: &str) {
        let _ = writeln!(
            self.html,
            "<div>\n<table>\n<thead><tr><th>{}</th><th class=\"n\">Probability</th>\
             <th class=\"n\">Observed</th><th class=\"n\">Share</th><th class=\"n\">Expected</th>\
             <th class=\"n\">(O−E)²/E</th></tr></thead>\n<tbody>",
            esc(&cap(name))
        );
        for r in &th.rows {
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{:.4}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}%</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                r.value,
                r.probability,
                num(r.observed),
                r.share * 100.0,
                fmt_count(r.expected),
                opt_f(r.contribution, 2)
            );
        }
        let _ = writeln!(
            self.html,
            "<tr><th>All</th><th></th><th class=\"n\">{}</th><th></th><th></th><th class=\"n\">{}</th></tr>\n\
             </tbody></table>\n<p>{}</p>",
            num(th.total),
            opt_f(th.chi_square, 2),
            esc(test_line)
        );
        if th.odd_throws > 0 {
            let _ = writeln!(
                self.html,
                "<p class=\"note\">{} {name}s had a value that cannot occur and are left out.</p>",
                num(th.odd_throws)
            );
        }
        self.push(
            "<p class=\"note\">A small p-value (below 0.01, say) means a distribution this far \
             from the fair one would be rare with fair implements.</p>\n</div>\n</div>\n",
        );
    }

    /// Lost throws, twins and the length of decided games.
    fn chance_lengths(&mut self, id: &str, t: &ChanceSummary) -> io::Result<()> {
        let name = t.name;
        let nouns: String = t
            .counters
            .0
            .iter()
            .map(|(c, _)| format!(", {}", c.noun))
            .collect();
        let _ = writeln!(
            self.html,
            "<h3>Lost {name}s{} and game length</h3>\n<div class=\"grid\">",
            esc(&nouns)
        );
        self.histogram(
            format!("{id}-lost"),
            format!("Lost {name}s per game"),
            &format!("{name}s lost in the game"),
            &t.lost_throws,
            PALETTE[1],
            &format!("{}s discarded or unusable, per game.", cap(name)),
        )?;
        self.counter_charts(id, &t.counters)?;
        self.histogram(
            format!("{id}-finish"),
            "Turns to finish".into(),
            "turns (plies) until a player won",
            &t.finish,
            PALETTE[4],
            "Length of the games that have a winner (by rule, else as recorded).",
        )?;
        self.push("</div>\n");
        let mut rows = vec![("Lost per game", &t.lost_throws)];
        rows.extend(t.counters.0.iter().map(|(c, d)| (c.row, d)));
        rows.push(("Turns to finish", &t.finish));
        self.distribution_table(&rows);
        Ok(())
    }

    /// Wins by turn order: the chart, then the table.
    fn wins_by_order(&mut self, id: &str, t: &ChanceSummary) -> io::Result<()> {
        self.push("<h3>Wins by turn order</h3>\n<div class=\"grid\">\n");
        let order_names = ["1st", "2nd", "3rd", "4th"];
        let decisive: Vec<_> = t.by_order.iter().filter(|o| o.decisive > 0).collect();
        if !decisive.is_empty() {
            let series: Vec<BarSeries> = decisive
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    BarSeries::new(
                        &format!("{} players ({} games won)", o.players, num(o.decisive)),
                        PALETTE[i],
                        (0..4)
                            .map(|k| {
                                o.win_shares
                                    .get(k)
                                    .map_or(f64::NAN, |w| w.unwrap_or(0.0) * 100.0)
                            })
                            .collect(),
                    )
                })
                .collect();
            let players = decisive
                .iter()
                .map(|o| usize::from(o.players))
                .max()
                .unwrap_or(2);
            self.figure(
                Chart {
                    id: format!("{id}-wins-order"),
                    title: "Wins by turn order".into(),
                    body: Body::Bars {
                        value_desc: "share of the wins (%)".into(),
                        category_desc: "position in the turn order".into(),
                        categories: order_names[..players]
                            .iter()
                            .map(|s| s.to_string())
                            .collect(),
                        series,
                        horizontal: false,
                        log: false,
                    },
                },
                "Share of the wins taken by the first, second … player to move, separately for \
                 games of two, three and four players. Equal chances would give 1/n to each.",
            )?;
        }
        self.order_table(t, &order_names);
        Ok(())
    }

    /// The table of wins by turn order.
    fn order_table(&mut self, t: &ChanceSummary, order_names: &[&str; 4]) {
        self.push(
            "<div>\n<table>\n<thead><tr><th>Players</th><th class=\"n\">Games</th>\
                   <th class=\"n\">With a winner</th>",
        );
        for o in order_names {
            let _ = write!(self.html, "<th class=\"n\">{o} to move won</th>");
        }
        self.push("</tr></thead>\n<tbody>\n");
        for o in t.by_order.iter().filter(|o| o.games > 0) {
            let _ = write!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
                o.players,
                num(o.games),
                num(o.decisive)
            );
            for k in 0..4 {
                match o.wins.get(k) {
                    Some(&w) => {
                        let _ = write!(
                            self.html,
                            "<td class=\"n\">{} ({})</td>",
                            num(w),
                            pct(w, o.decisive)
                        );
                    }
                    None => self.push("<td></td>"),
                }
            }
            self.push("</tr>\n");
        }
        self.push("</tbody></table>\n");
        if t.odd_seating > 0 {
            let _ = writeln!(
                self.html,
                "<p class=\"note\">{} games had an unusual seat list (not 2–4 seats, or the \
                 winner not among them) and are not in the turn-order table.</p>",
                num(t.odd_seating)
            );
        }
        self.push("</div>\n</div>\n");
    }

    /// Players, events and years from the tags; with `results`, also the results the tags
    /// give (for games that were not replayed).
    fn tags(&mut self, id: &str, t: &TagSummary, results: bool) -> io::Result<()> {
        let any_names = !t.players.is_empty() || !t.events.is_empty();
        if !results && !any_names && t.years.len() < 2 {
            return Ok(());
        }
        self.push("<h3>Players, events and years</h3>\n<div class=\"grid\">\n");
        if results {
            self.push("<div>\n<table>\n<thead><tr><th>Result tag</th><th class=\"n\">Games</th><th class=\"n\">Share</th></tr></thead>\n<tbody>\n");
            for (label, n) in &t.results {
                let _ = writeln!(
                    self.html,
                    "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                    esc(label),
                    num(*n),
                    pct(*n, t.games)
                );
            }
            self.push("</tbody></table>\n</div>\n");
        }
        if t.years.len() >= 2 {
            // Every year from the first to the last, so that gaps show; at most ten labels.
            let (first, last) = (t.years[0].0, t.years[t.years.len() - 1].0);
            let span: Vec<u16> = (first..=last).collect();
            let every = span.len().div_ceil(10);
            let counts: Vec<f64> = span
                .iter()
                .map(|y| {
                    t.years
                        .iter()
                        .find(|(x, _)| x == y)
                        .map_or(0.0, |&(_, n)| n as f64)
                })
                .collect();
            self.figure(
                Chart {
                    id: format!("{id}-years"),
                    title: "Games per year".into(),
                    body: Body::Bars {
                        value_desc: "games".into(),
                        category_desc: "year of the Date tag".into(),
                        categories: span
                            .iter()
                            .enumerate()
                            .map(|(i, y)| {
                                if i % every == 0 {
                                    y.to_string()
                                } else {
                                    String::new()
                                }
                            })
                            .collect(),
                        series: vec![BarSeries::new("games", PALETTE[0], counts)],
                        horizontal: false,
                        log: false,
                    },
                },
                &format!(
                    "Games per year of their Date tag; {} games have no readable year.",
                    num(t.no_year)
                ),
            )?;
        } else {
            let _ = writeln!(
                self.html,
                "<div class=\"single\"><h4>Years</h4><p>{}.</p></div>",
                match t.years.first() {
                    Some((y, n)) => format!(
                        "All {} dated games are of {y}; {} have no readable year",
                        num(*n),
                        num(t.no_year)
                    ),
                    None => "No game has a readable Date tag".to_string(),
                }
            );
        }
        self.push("</div>\n<div class=\"grid\">\n");
        self.name_table(
            "Player",
            "Wins",
            "Losses",
            "Score",
            &t.players,
            t.distinct_players,
            t.players_pruned,
        );
        self.name_table(
            "Event",
            "White wins",
            "Black wins",
            "White's score",
            &t.events,
            t.distinct_events,
            t.events_pruned,
        );
        self.push("</div>\n");
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn name_table(
        &mut self,
        what: &str,
        wins: &str,
        losses: &str,
        score: &str,
        rows: &[NameRow],
        distinct: usize,
        pruned: u64,
    ) {
        if rows.is_empty() {
            return;
        }
        let _ = writeln!(
            self.html,
            "<div>\n<table>\n<thead><tr><th>{what}</th><th class=\"n\">Games</th><th class=\"n\">{wins}</th>\
             <th class=\"n\">Draws</th><th class=\"n\">{losses}</th><th class=\"n\">{score}</th></tr></thead>\n<tbody>"
        );
        for r in rows {
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(&r.name),
                num(r.games),
                num(r.wins),
                num(r.draws),
                num(r.losses),
                r.score.map_or("–".into(), |s| format!("{:.1}%", s * 100.0))
            );
        }
        let _ = writeln!(
            self.html,
            "</tbody></table>\n<p class=\"note\">The {} most frequent of {} {}s{}.</p>\n</div>",
            rows.len(),
            num(distinct as u64),
            what.to_lowercase(),
            if pruned > 0 {
                format!(
                    "; the table was pruned, so counts are lower bounds ({} entries of rare \
                     names dropped)",
                    num(pruned)
                )
            } else {
                String::new()
            }
        );
    }

    fn unknown(&mut self, u: &UnknownSummary) -> io::Result<()> {
        let _ = writeln!(
            self.html,
            "<section id=\"unknown\">\n<h2>Unidentified games</h2>\n<p class=\"lead\">{} games \
             of a variant arbiter does not know: their moves were not replayed, so only their \
             tags, length and syntax are reported.</p>",
            num(u.games)
        );
        self.tags("unknown", &u.tags, true)?;
        self.push("<h3>Length and validation</h3>\n<div class=\"grid\">\n");
        self.histogram(
            "unknown-length".into(),
            "Game length".into(),
            "plies in the main line",
            &u.length,
            PALETTE[0],
            "Number of plies as written in each game's main line.",
        )?;
        self.push("<div>\n");
        self.validation_table(&u.validation);
        self.push("</div>\n</div>\n");
        self.distribution_table(&[("Plies per game", &u.length)]);
        self.push("</section>\n");
        Ok(())
    }

    /// Every problem of the run, each opening its game in the viewer, and one row per file.
    fn viewer(&mut self, v: &Viewer) {
        let _ = writeln!(
            self.html,
            "<section id=\"games\">\n<h2>Games and problems</h2>\n<p class=\"lead\">{} in {} \
             games. Click a problem to open its game at the position before the faulty move; \
             step with the buttons or the keys ←, →, Home and End.{}</p>",
            v.problems_in_words(),
            num(v.games()),
            if v.moves_left_out() > 0 {
                format!(
                    " The moves of {} games past the page's size budget are left out \
                     (<code>arbiter view</code> shows them).",
                    num(v.moves_left_out())
                )
            } else {
                String::new()
            }
        );
        self.push(&v.body_html(false));
        let _ = writeln!(
            self.html,
            "<details{}><summary><h3>Files ({})</h3></summary>",
            if v.files().len() <= 20 { " open" } else { "" },
            num(v.files().len() as u64)
        );
        self.push(
            "<table class=\"files\">\n<thead><tr><th>File</th><th class=\"n\">Games</th>\
             <th class=\"n\">With errors</th><th class=\"n\">Errors</th><th class=\"n\">Warnings</th>\
             </tr></thead>\n<tbody>\n",
        );
        for f in v.files() {
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td></tr>",
                esc(&f.name),
                num(f.games),
                num(f.games_with_errors),
                num(f.errors),
                num(f.warnings)
            );
        }
        self.push("</tbody></table>\n</details>\n</section>\n");
    }

    fn examples(&mut self, examples: &[&ProblemExample], dropped: u64) {
        if examples.is_empty() {
            return;
        }
        self.push("<section id=\"examples\">\n<h2>Problem examples</h2>\n");
        let _ = writeln!(
            self.html,
            "<p class=\"lead\">{} diagnostics with the position they are about: one of each code \
             of each game, then more of the most frequent codes{}.</p>\n<div class=\"examples\">",
            examples.len(),
            if dropped > 0 {
                format!(" ({} more not shown)", num(dropped))
            } else {
                String::new()
            }
        );
        for (i, e) in examples.iter().enumerate() {
            let _ = writeln!(
                self.html,
                "<div class=\"example\" id=\"example-{}\">\n<h3>{}</h3>\n<span class=\"badge\">{}</span> \
                 <span class=\"game-tag\">{}</span>\n<p>{}</p>",
                i + 1,
                esc(&e.title),
                esc(&e.code),
                esc(&e.game),
                esc(&e.message)
            );
            if let Some(d) = &e.diagram {
                self.push(&d.to_svg());
            }
            self.push("</div>\n");
        }
        self.push("</div>\n</section>\n");
    }

    fn notes(&mut self, s: &Summary) {
        let pruned: u64 = s
            .per_game
            .iter()
            .map(|g| g.common.openings_pruned_games)
            .sum();
        let _ = writeln!(
            self.html,
            "<section id=\"notes\">\n<h2>Notes</h2>\n<ul class=\"note\">\n\
             <li>A ply is one player's turn. Per-ply figures (captures, promotions, material, \
             throws) cover the plies the referee could replay; a game whose replay stopped at an \
             error contributes its replayed part.</li>\n\
             <li>Distributions are exact for values below {}; larger values are counted (and \
             included in means and maxima) but not drawn. A distribution of one value is \
             stated in words instead of drawn.</li>\n\
             <li>Openings are counted exactly while a game has at most {} distinct ones; \
             beyond that the table keeps the most frequent {} and counts are lower bounds{}. \
             Players and events are bounded the same way ({} names per table, pruned to {}).</li>\n\
             <li>Win rates per seat divide the wins of a seat by the games it played, so seats \
             that sit out some games (in games of two to four players) are compared fairly.</li>\n\
             <li>The throw test is Pearson's chi-square goodness-of-fit test against the fair \
             probabilities, with one degree of freedom less than there are values. Series end \
             at given values, but each throw is still an independent draw, so the test applies \
             to the pooled counts.</li>\n\
             <li>All numbers of this page are in <code>stats.json</code> beside it; every chart \
             is also there as SVG and PNG.</li>\n</ul>\n</section>",
            num(HIST_CAP),
            num(stats::OPENINGS_PRUNE_AT as u64),
            num(stats::OPENINGS_KEEP as u64),
            if pruned > 0 {
                format!(
                    " (this corpus: {} games of rare openings dropped)",
                    num(pruned)
                )
            } else {
                " (this corpus: exact)".to_string()
            },
            num(stats::NAMES_PRUNE_AT as u64),
            num(stats::NAMES_KEEP as u64),
        );
    }
}

/// What the opening tree's note adds when its counts are not exact or it leaves games out.
fn tree_caveats(t: &TreeSummary) -> String {
    let mut out = String::new();
    if t.other_starts > 0 {
        let _ = write!(
            out,
            " {} games from other start positions are not in the tree.",
            num(t.other_starts)
        );
    }
    if let Some(first) = t.pruned.iter().position(|&p| p > 0) {
        let _ = write!(
            out,
            " From ply {} on, the rarest lines were dropped to bound memory, so counts there \
             are lower bounds.",
            first + 1
        );
    }
    out
}

/// `throw` → `Throw`.
fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
