//! The report: `report.html` (one self-contained page), `stats.json`, and every chart as SVG
//! and PNG.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::chart::{fmt_count, group_thousands, BarSeries, Body, Chart, LineSeries, PALETTE};
use crate::diagram::Diagram;
use crate::hist::HIST_CAP;
use crate::summary::{
    CommonSummary, Distribution, DraughtsSummary, Summary, ThaayamSummary, ValidationSummary,
};
use crate::{GameName, Stats};
use plotters::style::RGBColor;

/// Problem examples the report shows at most.
pub const MAX_EXAMPLES: usize = 24;
/// Problem examples of one diagnostic code the report shows at most.
pub const MAX_EXAMPLES_PER_CODE: usize = 4;

/// A diagnostic shown in the report with the position it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProblemExample {
    /// Heading, e.g. `games.pdn, game 12, move 23`.
    pub title: String,
    /// The diagnostic code, e.g. `non-maximal-capture`.
    pub code: String,
    /// The diagnostic's message.
    pub message: String,
    /// The position, if one could be drawn.
    pub diagram: Option<Diagram>,
}

/// What the report shows beyond the statistics: a title and problem examples.
///
/// Examples are capped at [`MAX_EXAMPLES`] in all and [`MAX_EXAMPLES_PER_CODE`] per code, so a
/// caller can offer every diagnostic; the first ones offered are kept and the rest counted.
#[derive(Debug, Clone, Default)]
pub struct ReportExtras {
    title: Option<String>,
    examples: Vec<ProblemExample>,
    dropped: u64,
}

impl ReportExtras {
    /// No title, no examples.
    pub fn new() -> Self {
        ReportExtras::default()
    }

    /// Sets the report's title (default: `Game statistics`).
    pub fn set_title(&mut self, title: impl Into<String>) {
        self.title = Some(title.into());
    }

    /// True if an example with this code would be kept (the caps are not reached), so a
    /// caller can skip drawing one that would be left out.
    pub fn accepts(&self, code: &str) -> bool {
        let same_code = self.examples.iter().filter(|e| e.code == code).count();
        self.examples.len() < MAX_EXAMPLES && same_code < MAX_EXAMPLES_PER_CODE
    }

    /// Counts an example left out without offering it (see [`ReportExtras::accepts`]).
    pub fn skip_example(&mut self) {
        self.dropped += 1;
    }

    /// Offers an example; returns false (and counts it as left out) when the caps are reached.
    pub fn add_example(&mut self, example: ProblemExample) -> bool {
        if !self.accepts(&example.code) {
            self.dropped += 1;
            return false;
        }
        self.examples.push(example);
        true
    }

    /// Adds the examples of `other` after these ones (caps apply).
    pub fn merge(&mut self, other: ReportExtras) {
        if self.title.is_none() {
            self.title = other.title;
        }
        self.dropped += other.dropped;
        for e in other.examples {
            self.add_example(e);
        }
    }

    /// The examples kept.
    pub fn examples(&self) -> &[ProblemExample] {
        &self.examples
    }

    /// Examples offered but left out.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
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

/// The files [`Stats::write_report`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportFiles {
    /// `report.html`.
    pub html: PathBuf,
    /// `stats.json`.
    pub json: PathBuf,
    /// Every chart, in report order.
    pub charts: Vec<ChartFile>,
}

impl Stats {
    /// Writes `report.html`, `stats.json` and every chart as `<id>.svg` and `<id>.png` into
    /// `dir` (created if missing).
    pub fn write_report(&self, dir: &Path) -> io::Result<ReportFiles> {
        self.write_report_with(dir, &ReportExtras::default())
    }

    /// Like [`Stats::write_report`], with a title and problem examples.
    pub fn write_report_with(&self, dir: &Path, extras: &ReportExtras) -> io::Result<ReportFiles> {
        fs::create_dir_all(dir)?;
        let summary = self.summary();
        let json = dir.join("stats.json");
        let text = serde_json::to_string_pretty(&summary).map_err(io::Error::other)?;
        fs::write(&json, text)?;
        let mut page = Page {
            dir,
            html: String::with_capacity(1 << 20),
            charts: Vec::new(),
        };
        page.render(&summary, extras)?;
        let html = dir.join("report.html");
        fs::write(&html, &page.html)?;
        Ok(ReportFiles {
            html,
            json,
            charts: page.charts,
        })
    }
}

/// HTML text with `<`, `>`, `&`, `"` and `'` escaped.
fn esc(s: &str) -> String {
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

const CSS: &str = r#"
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
.grid { display:grid; grid-template-columns:repeat(auto-fit, minmax(540px, 1fr)); gap:18px 26px; align-items:start; }
figure { margin:0; border:1px solid var(--rule); border-radius:6px; padding:8px; background:#fff; }
figure svg { display:block; width:100%; height:auto; }
figcaption { color:var(--muted); font-size:13.5px; padding:4px 6px 2px; }
table { border-collapse:collapse; margin:4px 0 10px; font-size:14px; }
th, td { padding:4px 10px; border-bottom:1px solid var(--rule); text-align:left; vertical-align:top; }
th { background:var(--band); font-weight:600; }
td.n, th.n { text-align:right; font-variant-numeric:tabular-nums; }
tbody tr:nth-child(even) td { background:#fbfbfc; }
code, td.mono { font-family:"DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace; font-size:13px; }
.examples { display:grid; grid-template-columns:repeat(auto-fill, minmax(500px, 1fr)); gap:18px; }
.example { border:1px solid var(--rule); border-radius:6px; padding:10px 12px; }
.example h3 { margin:0 0 4px; font-size:16px; }
.example svg { display:block; max-width:100%; height:auto; margin-top:6px; }
.badge { display:inline-block; background:#fde2e1; color:#8a1c1c; border-radius:4px; padding:0 6px; font-size:12.5px; }
.note { color:var(--muted); font-size:14px; }
"#;

struct Page<'a> {
    dir: &'a Path,
    html: String,
    charts: Vec<ChartFile>,
}

impl Page<'_> {
    fn push(&mut self, s: &str) {
        self.html.push_str(s);
    }

    /// Renders `chart` inline as SVG inside a figure, and writes its SVG and PNG files.
    fn figure(&mut self, chart: Chart, caption: &str) -> io::Result<()> {
        let svg = chart.to_svg().map_err(io::Error::other)?;
        let svg_path = self.dir.join(format!("{}.svg", chart.id));
        let png_path = self.dir.join(format!("{}.png", chart.id));
        fs::write(&svg_path, &svg)?;
        chart.write_png(&png_path)?;
        let _ = writeln!(
            self.html,
            "<figure id=\"fig-{}\">\n{}\n<figcaption>{}</figcaption></figure>",
            esc(&chart.id),
            svg,
            caption
        );
        self.charts.push(ChartFile {
            id: chart.id,
            title: chart.title,
            svg: svg_path,
            png: png_path,
        });
        Ok(())
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
        for g in &s.by_game {
            if g.games > 0 {
                let _ = write!(
                    self.html,
                    "<a href=\"#{}\">{}</a>",
                    g.game.slug(),
                    esc(g.label)
                );
            }
        }
        if !extras.examples.is_empty() {
            self.push("<a href=\"#examples\">Problem examples</a>");
        }
        self.push("<a href=\"#notes\">Notes</a></nav>\n</header>\n<main>\n");

        self.overview(s)?;
        if s.tama.common.games > 0 {
            self.draughts(&s.tama)?;
        }
        if s.odnocvetnie.common.games > 0 {
            self.draughts(&s.odnocvetnie)?;
        }
        if s.thaayam.common.games > 0 {
            self.thaayam(&s.thaayam)?;
        }
        if s.other.games > 0 {
            self.push("<section id=\"other\">\n<h2>Other games</h2>\n");
            let _ = writeln!(
                self.html,
                "<p class=\"lead\">{} games of a kind arbiter does not know were only counted \
                 and checked for syntax.</p>",
                num(s.other.games)
            );
            self.validation_table(&s.other);
            self.push("</section>\n");
        }
        self.examples(extras);
        self.notes(s);
        self.push("</main>\n</body>\n</html>\n");
        Ok(())
    }

    fn overview(&mut self, s: &Summary) -> io::Result<()> {
        self.push("<section id=\"overview\">\n<h2>Overview</h2>\n<div class=\"grid\">\n");
        let shown: Vec<_> = s.by_game.iter().filter(|g| g.games > 0).collect();
        let cats: Vec<String> = shown.iter().map(|g| g.label.to_string()).collect();
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
        self.figure(
            Chart {
                id: "overview-validation".into(),
                title: "Validation outcome per game".into(),
                body: Body::Bars {
                    value_desc: "games".into(),
                    category_desc: String::new(),
                    categories: cats,
                    series,
                    horizontal: true,
                },
            },
            "Games without any diagnostic (clean), with warnings only, and with at least one \
             error.",
        )?;
        self.push("<div>\n<table>\n<thead><tr><th>Game</th><th class=\"n\">Games</th>\
                   <th class=\"n\">Clean</th><th class=\"n\">Warnings only</th>\
                   <th class=\"n\">With errors</th><th class=\"n\">Clean share</th></tr></thead>\n<tbody>\n");
        for g in &s.by_game {
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(g.label),
                num(g.games),
                num(g.clean),
                num(g.warnings_only),
                num(g.with_errors),
                pct(g.clean, g.games)
            );
        }
        let t = |f: fn(&crate::GameCount) -> u64| s.by_game.iter().map(f).sum::<u64>();
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

    /// Results, length, captures, validation and openings: the part every game shares.
    fn common(&mut self, c: &CommonSummary) -> io::Result<()> {
        let slug = c.game.slug();
        let _ = writeln!(
            self.html,
            "<section id=\"{slug}\" class=\"game\">\n<h2>{}</h2>\n<p class=\"lead\">{} games · \
             {} clean · mean length {} plies · {} captures per game on average</p>",
            esc(c.game.label()),
            num(c.games),
            pct(c.validation.clean, c.games),
            opt_f(c.length.mean, 1),
            opt_f(c.captures.mean, 1)
        );

        // Results.
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
                id: format!("{slug}-results"),
                title: format!("{} results", c.game.label()),
                body: Body::Bars {
                    value_desc: "games".into(),
                    category_desc: String::new(),
                    categories: cats,
                    series,
                    horizontal: true,
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

        // Length and captures.
        self.push("<h3>Game length and captures</h3>\n<div class=\"grid\">\n");
        self.histogram(
            format!("{slug}-length"),
            "Game length".into(),
            "plies in the main line",
            &c.length,
            PALETTE[0],
            "Number of plies (single moves) in each game's main line.",
        )?;
        self.histogram(
            format!("{slug}-captures"),
            "Captures per game".into(),
            "pieces captured in the game",
            &c.captures,
            PALETTE[3],
            "Pieces captured over the replayed plies of each game.",
        )?;
        self.push("</div>\n");
        let mut rows = vec![
            ("Plies per game", &c.length),
            ("Captures per game", &c.captures),
        ];
        rows.retain(|r| r.1.count > 0);
        self.distribution_table(&rows);
        if c.replay_stopped > 0 {
            let _ = writeln!(
                self.html,
                "<p class=\"note\">The replay of {} games stopped at an error before the end of \
                 the main line; their per-ply figures cover the replayed part only.</p>",
                num(c.replay_stopped)
            );
        }

        // Validation.
        self.push("<h3>Validation</h3>\n<div class=\"grid\">\n");
        let v = &c.validation;
        let mut cats = vec![
            "Clean".to_string(),
            "Warnings only".to_string(),
            "With errors".to_string(),
        ];
        let mut values = vec![v.clean as f64, v.warnings_only as f64, v.with_errors as f64];
        let mut colours = vec![PALETTE[2], PALETTE[6], PALETTE[3]];
        for code in v.codes.iter().take(14) {
            cats.push(code.code.clone());
            values.push(code.games as f64);
            colours.push(RGBColor(120, 120, 140));
        }
        let mut series = BarSeries::new("games", PALETTE[0], values);
        series.bar_colours = colours;
        self.figure(
            Chart {
                id: format!("{slug}-validation"),
                title: "Validation outcome and diagnostics".into(),
                body: Body::Bars {
                    value_desc: "games".into(),
                    category_desc: String::new(),
                    categories: cats,
                    series: vec![series],
                    horizontal: true,
                },
            },
            "Games by validation outcome (coloured), then, in grey, the games showing each \
             diagnostic code.",
        )?;
        self.push("<div>\n");
        self.validation_table(v);
        self.push("</div>\n</div>\n");

        // Openings.
        self.push("<h3>Most frequent openings</h3>\n");
        if c.openings.is_empty() {
            self.push("<p class=\"note\">No openings.</p>\n");
        } else {
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
        Ok(())
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

    fn histogram(
        &mut self,
        id: String,
        title: String,
        x_desc: &str,
        d: &Distribution,
        colour: RGBColor,
        caption: &str,
    ) -> io::Result<()> {
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

    fn draughts(&mut self, d: &DraughtsSummary) -> io::Result<()> {
        let c = &d.common;
        self.common(c)?;
        let slug = c.game.slug();
        self.push("<h3>Captures and promotions</h3>\n<div class=\"grid\">\n");
        self.histogram(
            format!("{slug}-chain"),
            "Longest capture per game".into(),
            "most pieces taken by one move",
            &d.longest_chain,
            PALETTE[3],
            "For each game, the largest number of pieces one move captured (0: no capture).",
        )?;
        self.histogram(
            format!("{slug}-promotion"),
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
        let mut rows = vec![
            ("Longest capture", &d.longest_chain),
            ("Ply of first promotion", &d.first_promotion),
        ];
        rows.retain(|r| r.1.count > 0);
        self.distribution_table(&rows);

        self.push("<h3>Material and capture squares</h3>\n<div class=\"grid\">\n");
        let start = d.material.first().map_or(0, |m| m.games);
        let floor = (start / 10).max(1);
        let kept: Vec<_> = d.material.iter().take_while(|m| m.games >= floor).collect();
        let series = d
            .material_sides
            .iter()
            .enumerate()
            .map(|(i, side)| LineSeries {
                name: side.to_string(),
                colour: if d.material_sides.len() == 2 {
                    [RGBColor(190, 160, 90), RGBColor(40, 40, 40)][i]
                } else {
                    PALETTE[0]
                },
                points: kept.iter().map(|m| (f64::from(m.ply), m.mean[i])).collect(),
            })
            .collect();
        let what = if d.material_sides.len() == 2 {
            "pieces per side"
        } else {
            "pieces on the board"
        };
        self.figure(
            Chart {
                id: format!("{slug}-material"),
                title: "Material over the game".into(),
                body: Body::Lines {
                    x_desc: "ply".into(),
                    y_desc: format!("mean {what}"),
                    series,
                },
            },
            &format!(
                "Mean {what} after each ply, over the games still going at that ply; the line \
                 stops where fewer than a tenth of the games ({}) remain.",
                num(floor)
            ),
        )?;
        let (files, ranks) = d.board;
        let sparse = c.game == GameName::Odnocvetnie;
        let cells = d
            .heat
            .iter()
            .map(|h| (h.file, h.rank, sparse.then(|| h.square.clone()), h.count))
            .collect();
        let total: u64 = d.heat.iter().map(|h| h.count).sum();
        self.figure(
            Chart {
                id: format!("{slug}-heatmap"),
                title: "Where pieces are captured".into(),
                body: Body::Heatmap {
                    files,
                    ranks,
                    cells,
                    sparse,
                    legend: "captures".into(),
                },
            },
            &format!(
                "Pieces captured on each square ({} in all), seen from {}.{}",
                num(total),
                if sparse {
                    "South; small numbers are the square numbers"
                } else {
                    "White"
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
        self.push("</div>\n</section>\n");
        Ok(())
    }

    fn thaayam(&mut self, t: &ThaayamSummary) -> io::Result<()> {
        self.common(&t.common)?;
        let th = &t.throws;
        self.push("<h3>Throws</h3>\n<div class=\"grid\">\n");
        let cats: Vec<String> = th.rows.iter().map(|r| r.value.to_string()).collect();
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
            _ => "no throws".into(),
        };
        self.figure(
            Chart {
                id: "thaayam-throws".into(),
                title: "Throws: observed and expected with fair shells".into(),
                body: Body::Bars {
                    value_desc: "throws".into(),
                    category_desc: "throw value".into(),
                    categories: cats,
                    series: vec![
                        BarSeries::new(
                            "observed",
                            PALETTE[0],
                            th.rows.iter().map(|r| r.observed as f64).collect(),
                        ),
                        BarSeries::new(
                            "expected (4:6:4:1:1)",
                            RGBColor(170, 170, 170),
                            th.rows.iter().map(|r| r.expected.round()).collect(),
                        ),
                    ],
                    horizontal: false,
                },
            },
            &format!(
                "Every throw of every series (discarded and lost throws included) against the \
                 fair four-cowrie probabilities 4/16, 6/16, 4/16, 1/16, 1/16. {}.",
                esc(&test_line)
            ),
        )?;
        self.push("<div>\n<table>\n<thead><tr><th>Throw</th><th class=\"n\">Probability</th>\
                   <th class=\"n\">Observed</th><th class=\"n\">Share</th><th class=\"n\">Expected</th>\
                   <th class=\"n\">(O−E)²/E</th></tr></thead>\n<tbody>\n");
        for r in &th.rows {
            let contrib = if r.expected > 0.0 {
                format!(
                    "{:.2}",
                    (r.observed as f64 - r.expected).powi(2) / r.expected
                )
            } else {
                "–".into()
            };
            let _ = writeln!(
                self.html,
                "<tr><td>{}</td><td class=\"n\">{:.4}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}%</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                r.value,
                r.probability,
                num(r.observed),
                r.share * 100.0,
                fmt_count(r.expected),
                contrib
            );
        }
        let _ = writeln!(
            self.html,
            "<tr><th>All</th><th></th><th class=\"n\">{}</th><th></th><th></th><th class=\"n\">{}</th></tr>\n\
             </tbody></table>\n<p>{}</p>",
            num(th.total),
            opt_f(th.chi_square, 2),
            esc(&test_line)
        );
        if th.odd_throws > 0 {
            let _ = writeln!(
                self.html,
                "<p class=\"note\">{} throws had a value that cannot occur and are left out.</p>",
                num(th.odd_throws)
            );
        }
        self.push(
            "<p class=\"note\">A small p-value (below 0.01, say) means throws this far from \
                   4:6:4:1:1 would be rare with fair shells.</p>\n</div>\n</div>\n",
        );

        self.push("<h3>Lost throws, twins and game length</h3>\n<div class=\"grid\">\n");
        self.histogram(
            "thaayam-lost".into(),
            "Lost throws per game".into(),
            "throws lost in the game",
            &t.lost_throws,
            PALETTE[1],
            "Throws discarded or unusable, per game.",
        )?;
        self.histogram(
            "thaayam-twins".into(),
            "Twins formed per game".into(),
            "twins declared in the game",
            &t.twins,
            PALETTE[5],
            "Twins declared on the opposite palace, per game.",
        )?;
        self.histogram(
            "thaayam-finish".into(),
            "Turns to finish".into(),
            "turns (plies) until a player won",
            &t.finish,
            PALETTE[4],
            "Length of the games that have a winner (by rule, else as recorded).",
        )?;
        self.push("</div>\n");
        let mut rows = vec![
            ("Lost throws per game", &t.lost_throws),
            ("Twins per game", &t.twins),
            ("Turns to finish", &t.finish),
        ];
        rows.retain(|r| r.1.count > 0);
        self.distribution_table(&rows);

        self.push("<h3>Who wins</h3>\n<div class=\"grid\">\n");
        let seats = GameName::Thaayam.seat_names();
        let mut by_seat = BarSeries::new(
            "wins",
            PALETTE[0],
            t.wins_by_seat.iter().map(|&w| w as f64).collect(),
        );
        by_seat.bar_colours = vec![
            RGBColor(214, 39, 40),
            RGBColor(31, 119, 180),
            RGBColor(44, 160, 44),
            RGBColor(230, 140, 20),
        ];
        self.figure(
            Chart {
                id: "thaayam-wins-seat".into(),
                title: "Wins by seat".into(),
                body: Body::Bars {
                    value_desc: "games won".into(),
                    category_desc: "seat".into(),
                    categories: seats.iter().map(|s| s.to_string()).collect(),
                    series: vec![by_seat],
                    horizontal: false,
                },
            },
            "Games won by each seat (by rule where the game ended by rule, else as recorded).",
        )?;
        let order_names = ["1st", "2nd", "3rd", "4th"];
        let series: Vec<BarSeries> = t
            .by_order
            .iter()
            .filter(|o| o.decisive > 0)
            .enumerate()
            .map(|(i, o)| {
                BarSeries::new(
                    &format!("{} players ({} games won)", o.players, num(o.decisive)),
                    PALETTE[i],
                    (0..4)
                        .map(|k| {
                            o.wins
                                .get(k)
                                .map_or(f64::NAN, |&w| w as f64 * 100.0 / o.decisive as f64)
                        })
                        .collect(),
                )
            })
            .collect();
        self.figure(
            Chart {
                id: "thaayam-wins-order".into(),
                title: "Wins by turn order".into(),
                body: Body::Bars {
                    value_desc: "share of the wins (%)".into(),
                    category_desc: "position in the turn order".into(),
                    categories: order_names.iter().map(|s| s.to_string()).collect(),
                    series,
                    horizontal: false,
                },
            },
            "Share of the wins taken by the first, second … player to move, separately for \
             games of two, three and four players. Equal chances would give 1/n to each.",
        )?;
        self.push(
            "</div>\n<table>\n<thead><tr><th>Players</th><th class=\"n\">Games</th>\
                   <th class=\"n\">With a winner</th>",
        );
        for o in order_names {
            let _ = write!(self.html, "<th class=\"n\">{o} to move won</th>");
        }
        self.push("</tr></thead>\n<tbody>\n");
        for o in &t.by_order {
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
        self.push("</section>\n");
        Ok(())
    }

    fn examples(&mut self, extras: &ReportExtras) {
        if extras.examples.is_empty() {
            return;
        }
        self.push("<section id=\"examples\">\n<h2>Problem examples</h2>\n");
        let _ = writeln!(
            self.html,
            "<p class=\"lead\">{} diagnostics with the position they are about{}.</p>\n<div class=\"examples\">",
            extras.examples.len(),
            if extras.dropped > 0 {
                format!(
                    " (at most {MAX_EXAMPLES_PER_CODE} per code; {} more not shown)",
                    num(extras.dropped)
                )
            } else {
                String::new()
            }
        );
        for (i, e) in extras.examples.iter().enumerate() {
            let _ = writeln!(
                self.html,
                "<div class=\"example\" id=\"example-{}\">\n<h3>{}</h3>\n<span class=\"badge\">{}</span>\n<p>{}</p>",
                i + 1,
                esc(&e.title),
                esc(&e.code),
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
        let pruned: u64 = [&s.tama.common, &s.odnocvetnie.common, &s.thaayam.common]
            .iter()
            .map(|c| c.openings_pruned_games)
            .sum();
        let _ = writeln!(
            self.html,
            "<section id=\"notes\">\n<h2>Notes</h2>\n<ul class=\"note\">\n\
             <li>A ply is one player's turn. Per-ply figures (captures, promotions, material, \
             throws) cover the plies the referee could replay; a game whose replay stopped at an \
             error contributes its replayed part.</li>\n\
             <li>Distributions are exact for values below {}; larger values are counted (and \
             included in means and maxima) but not drawn.</li>\n\
             <li>Openings are counted exactly while a game has at most {} distinct ones; \
             beyond that the table keeps the most frequent {} and counts are lower bounds{}.</li>\n\
             <li>The throw test is Pearson's chi-square goodness-of-fit test with 4 degrees of \
             freedom. Series end at the first 2 or 3, but each throw is still an independent \
             draw, so the test applies to the pooled counts.</li>\n\
             <li>All numbers of this page are in <code>stats.json</code> beside it; every chart \
             is also there as SVG and PNG.</li>\n</ul>\n</section>",
            num(HIST_CAP),
            num(crate::OPENINGS_PRUNE_AT as u64),
            num(crate::OPENINGS_KEEP as u64),
            if pruned > 0 {
                format!(
                    " (this corpus: {} games of rare openings dropped)",
                    num(pruned)
                )
            } else {
                " (this corpus: exact)".to_string()
            }
        );
    }
}
