//! Charts: a small description of each chart, drawn by plotters on any backend (SVG text for
//! the HTML report, PNG files beside it).

use std::io;
use std::path::Path;

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::fonts::{init_fonts, FAMILY};
use stats::Bar;

/// Pixel size of every chart.
pub(crate) const SIZE: (u32, u32) = (640, 400);

// Text sizes (plotters' size unit: the SVG font size is this divided by 1.24). Charts are
// drawn at about the size the report shows them (two per row on a laptop screen).
const TITLE: u32 = 21;
const TICK: u32 = 16;
const DESC: u32 = 17;
const VALUE: u32 = 14;
const LEGEND: u32 = 15;

/// Colours of series, in order (colour-blind friendly, after the Tableau 10 palette).
pub(crate) const PALETTE: [RGBColor; 8] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(89, 161, 79),
    RGBColor(225, 87, 89),
    RGBColor(176, 122, 161),
    RGBColor(118, 183, 178),
    RGBColor(237, 201, 72),
    RGBColor(156, 117, 95),
];
const GRID: RGBColor = RGBColor(226, 226, 226);
const AXIS: RGBColor = RGBColor(90, 90, 90);
const INK: RGBColor = RGBColor(30, 30, 30);
const MUTED: RGBColor = RGBColor(110, 110, 110);

/// A chart: an id (file name and HTML anchor), a title and what to draw.
pub(crate) struct Chart {
    pub id: String,
    pub title: String,
    pub body: Body,
}

/// What a chart shows.
pub(crate) enum Body {
    /// Bars per category, one bar per series in each category.
    Bars {
        value_desc: String,
        category_desc: String,
        categories: Vec<String>,
        series: Vec<BarSeries>,
        /// Categories on the vertical axis (for long category names).
        horizontal: bool,
        /// A logarithmic value axis (horizontal bars only), so that counts of a few games show
        /// next to counts of thousands.
        log: bool,
    },
    /// A distribution of integers as bars covering value ranges.
    Histogram {
        x_desc: String,
        y_desc: String,
        bars: Vec<Bar>,
        colour: RGBColor,
    },
    /// Lines through points.
    Lines {
        x_desc: String,
        y_desc: String,
        series: Vec<LineSeries>,
    },
    /// Counts per board square.
    Heatmap {
        files: u8,
        ranks: u8,
        /// (file, rank, corner label, count) of every playable square.
        cells: Vec<(u8, u8, Option<String>, u64)>,
        /// Only the cells listed are playable (the others are drawn as unused).
        sparse: bool,
        legend: String,
    },
}

/// One series of a bar chart.
pub(crate) struct BarSeries {
    pub name: String,
    pub colour: RGBColor,
    /// Per-bar colours overriding `colour` (empty: all bars in `colour`).
    pub bar_colours: Vec<RGBColor>,
    /// Values per category; a non-finite value draws no bar (category not applicable).
    pub values: Vec<f64>,
}

impl BarSeries {
    pub(crate) fn new(name: &str, colour: RGBColor, values: Vec<f64>) -> Self {
        BarSeries {
            name: name.to_owned(),
            colour,
            bar_colours: Vec::new(),
            values,
        }
    }

    fn colour_of(&self, i: usize) -> RGBColor {
        self.bar_colours.get(i).copied().unwrap_or(self.colour)
    }
}

/// One series of a line chart.
pub(crate) struct LineSeries {
    pub name: String,
    pub colour: RGBColor,
    pub points: Vec<(f64, f64)>,
}

/// Why plotters could not draw a chart or a diagram: the backend's error in its own words
/// (each backend has its own error type, and the drawing code is generic over them).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct DrawError(String);

type Res = Result<(), DrawError>;

/// A linear `f64` axis whose labels and grid lines sit exactly at the given points (category
/// centres, or nice integer ticks), whatever plotters would have chosen.
#[derive(Clone)]
struct Axis {
    lo: f64,
    hi: f64,
    keys: Vec<f64>,
}

fn axis(range: Range<f64>, keys: Vec<f64>) -> Axis {
    Axis {
        lo: range.start,
        hi: range.end,
        keys,
    }
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        let t = if span > 0.0 {
            (value - self.lo) / span
        } else {
            0.0
        };
        let t = if t.is_finite() {
            t.clamp(-1.0, 2.0)
        } else {
            0.0
        };
        limit.0 + (f64::from(limit.1 - limit.0) * t).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, _hint: H) -> Vec<f64> {
        self.keys.clone()
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

pub(crate) fn err<E: std::fmt::Display>(e: E) -> DrawError {
    DrawError(e.to_string())
}

fn font(size: u32) -> TextStyle<'static> {
    TextStyle::from((FAMILY, size).into_font()).color(&INK)
}

/// Bold text, built with the bold face from the start: `FontDesc::style` would keep the
/// regular face's metrics and titles would be measured too narrow.
fn bold(size: u32) -> TextStyle<'static> {
    TextStyle::from(FontDesc::new(
        FAMILY.into(),
        f64::from(size),
        FontStyle::Bold,
    ))
    .color(&INK)
}

/// A count for axis labels and bar labels: `950`, `12,345`, `1.2M`.
pub(crate) fn fmt_count(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        let s = format!("{:.1}M", v / 1e6);
        s.replace(".0M", "M")
    } else if (v - v.round()).abs() < 1e-9 || a >= 100.0 {
        group_thousands(v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}

/// A count in at most four characters: `950`, `4.7k`, `19k`, `1.2M`.
pub(crate) fn fmt_compact(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=9_999 => format!("{:.1}k", n as f64 / 1e3),
        10_000..=999_999 => format!("{}k", (n as f64 / 1e3).round()),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// `1234567` as `1,234,567`.
pub(crate) fn group_thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    let first = match digits.len() % 3 {
        0 => 3,
        r => r,
    };
    let (head, rest) = digits.split_at(first.min(digits.len()));
    out.push_str(head);
    for group in rest.as_bytes().chunks(3) {
        out.push(',');
        out.extend(group.iter().map(|&b| char::from(b)));
    }
    out
}

/// A step of the 1-2-5 series giving at most `max_ticks` ticks over `span`.
fn nice_step(span: f64, max_ticks: usize, integer: bool) -> f64 {
    let span = if span > 0.0 { span } else { 1.0 };
    let raw = span / max_ticks.max(1) as f64;
    let mut unit = 10f64.powf(raw.log10().floor());
    if integer && unit < 1.0 {
        unit = 1.0;
    }
    for m in [1.0, 2.0, 5.0, 10.0] {
        if unit * m >= raw {
            return unit * m;
        }
    }
    unit * 10.0
}

/// Multiples of a nice step inside `lo..=hi`.
fn ticks(lo: f64, hi: f64, max_ticks: usize, integer: bool) -> Vec<f64> {
    let step = nice_step(hi - lo, max_ticks, integer);
    let mut t = (lo / step).ceil() * step;
    let mut out = Vec::new();
    while t <= hi + step * 1e-9 && out.len() <= 2 * max_ticks + 2 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Swatch {
    Block,
    Line,
}

/// Draws the title and, below it, a centred legend row (wrapped when too wide), and returns
/// the area left for the chart. Legends live outside the plot so they never hide data.
fn header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    legend: &[(&str, RGBColor, Swatch)],
) -> Result<DrawingArea<DB, Shift>, DrawError> {
    let (w, _) = root.dim_in_pixel();
    let w = w as i32;
    root.draw(&Text::new(
        title.to_owned(),
        (w / 2, 10),
        bold(TITLE).pos(Pos::new(HPos::Center, VPos::Top)),
    ))
    .map_err(err)?;
    let mut height = 42;
    if !legend.is_empty() {
        let f = font(LEGEND);
        let item_w = |name: &str| {
            22 + root
                .estimate_text_size(name, &f)
                .map_or(8 * name.len() as u32, |s| s.0) as i32
        };
        let gap = 20;
        // Greedy rows of items.
        let mut rows: Vec<Vec<usize>> = vec![Vec::new()];
        let mut row_w = 0;
        for (i, (name, _, _)) in legend.iter().enumerate() {
            let iw = item_w(name);
            let last = rows.len() - 1;
            if !rows[last].is_empty() && row_w + gap + iw > w - 24 {
                rows.push(Vec::new());
                row_w = 0;
            }
            let last = rows.len() - 1;
            row_w += if rows[last].is_empty() { iw } else { gap + iw };
            rows[last].push(i);
        }
        for (r, row) in rows.iter().enumerate() {
            let total: i32 = row.iter().map(|&i| item_w(legend[i].0)).sum::<i32>()
                + gap * (row.len() as i32 - 1);
            let mut x = (w - total) / 2;
            let y = height + 4 + r as i32 * 22;
            for &i in row {
                let (name, colour, swatch) = legend[i];
                match swatch {
                    Swatch::Block => root
                        .draw(&Rectangle::new(
                            [(x, y - 6), (x + 14, y + 7)],
                            colour.filled(),
                        ))
                        .map_err(err)?,
                    Swatch::Line => root
                        .draw(&PathElement::new(
                            vec![(x - 2, y), (x + 16, y)],
                            colour.stroke_width(3),
                        ))
                        .map_err(err)?,
                }
                root.draw(&Text::new(
                    name.to_owned(),
                    (x + 22, y),
                    f.clone().pos(Pos::new(HPos::Left, VPos::Center)),
                ))
                .map_err(err)?;
                x += item_w(name) + gap;
            }
        }
        height += rows.len() as i32 * 22 + 6;
    }
    Ok(root.split_vertically(height).1)
}

/// Legend entries of a bar chart: one per series when there are several.
fn bar_legend(series: &[BarSeries]) -> Vec<(&str, RGBColor, Swatch)> {
    if series.len() < 2 {
        return Vec::new();
    }
    series
        .iter()
        .map(|s| (s.name.as_str(), s.colour, Swatch::Block))
        .collect()
}

/// Width of a vertical axis' label area: its widest tick label, the gap and the rotated axis
/// description.
fn y_area<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, ticks: &[f64]) -> u32 {
    let f = font(TICK);
    let widest = ticks
        .iter()
        .map(|&t| {
            root.estimate_text_size(&fmt_count(t), &f)
                .map_or(40, |s| s.0)
        })
        .max()
        .unwrap_or(20);
    widest + 38
}

/// The top of a count axis: the first tick at or above `max` times a little headroom.
/// The plot of an axis chart: `body` (under the header) with 12 px margins but `top` above
/// and `right` to the right, 52 px for the x labels and `y_labels` for the y labels.
fn plot<'a, DB: DrawingBackend>(
    body: &'a DrawingArea<DB, Shift>,
    (top, right, y_labels): (u32, u32, u32),
    x: Axis,
    y: Axis,
) -> Result<ChartContext<'a, DB, Cartesian2d<Axis, Axis>>, DrawError> {
    ChartBuilder::on(body)
        .margin(12)
        .margin_top(top)
        .margin_right(right)
        .x_label_area_size(52)
        .y_label_area_size(y_labels)
        .build_cartesian_2d(x, y)
        .map_err(err)
}

/// Grid lines of a plot's mesh: both ways, or only those across one axis.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Grid {
    Both,
    /// Horizontal lines only (vertical bars, histograms).
    AcrossY,
    /// Vertical lines only (horizontal bars).
    AcrossX,
}

/// Writes the label of an axis value.
type Label<'a> = dyn Fn(&f64) -> String + 'a;

/// Draws a plot's mesh, labels and axis descriptions in the charts' common style.
fn mesh<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<Axis, Axis>>,
    grid: Grid,
    labels: (&Label, &Label),
    (x_desc, y_desc): (&str, &str),
) -> Res {
    let mut m = chart.configure_mesh();
    match grid {
        Grid::Both => {}
        Grid::AcrossY => {
            m.disable_x_mesh();
        }
        Grid::AcrossX => {
            m.disable_y_mesh();
        }
    }
    m.bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .axis_style(AXIS)
        .x_label_formatter(labels.0)
        .y_label_formatter(labels.1)
        .x_label_style(font(TICK))
        .y_label_style(font(TICK))
        .axis_desc_style(font(DESC))
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()
        .map_err(err)
}

/// The name of the category whose centre is at `v` (none between centres); `reversed`: the
/// first category is drawn last (on top of a horizontal bar chart).
fn category_at(categories: &[String], v: f64, reversed: bool) -> String {
    let n = categories.len();
    let i = v.round();
    if i >= 0.0 && (i as usize) < n && (v - i).abs() < 1e-6 {
        let i = i as usize;
        categories[if reversed { n - 1 - i } else { i }].clone()
    } else {
        String::new()
    }
}

fn count_label(v: &f64) -> String {
    fmt_count(*v)
}

fn axis_top(max: f64, headroom: f64) -> f64 {
    let want = (max * headroom).max(1.0);
    let step = nice_step(want, 6, true);
    (want / step).ceil() * step
}

impl Chart {
    /// Pixel size: boards are drawn square, everything else at [`SIZE`].
    pub(crate) fn size(&self) -> (u32, u32) {
        match self.body {
            Body::Heatmap { .. } => (640, 576),
            _ => SIZE,
        }
    }

    /// The chart as an SVG document.
    pub(crate) fn to_svg(&self) -> Result<String, DrawError> {
        init_fonts();
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, self.size()).into_drawing_area();
            self.draw(&root)?;
            root.present().map_err(err)?;
        }
        Ok(out)
    }

    /// The chart as a PNG file.
    pub(crate) fn write_png(&self, path: &Path) -> io::Result<()> {
        init_fonts();
        crate::png::write_png(path, self.size(), |png| {
            let root = png.into_drawing_area();
            self.draw(&root).map_err(|e| e.to_string())?;
            root.present().map_err(|e| e.to_string())
        })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Res {
        root.fill(&WHITE).map_err(err)?;
        match &self.body {
            Body::Bars {
                value_desc,
                category_desc,
                categories,
                series,
                horizontal,
                log,
            } => {
                if *horizontal {
                    self.draw_hbars(root, value_desc, category_desc, categories, series, *log)
                } else {
                    self.draw_vbars(root, value_desc, category_desc, categories, series)
                }
            }
            Body::Histogram {
                x_desc,
                y_desc,
                bars,
                colour,
            } => self.draw_histogram(root, x_desc, y_desc, bars, *colour),
            Body::Lines {
                x_desc,
                y_desc,
                series,
            } => self.draw_lines(root, x_desc, y_desc, series),
            Body::Heatmap {
                files,
                ranks,
                cells,
                sparse,
                legend,
            } => self.draw_heatmap(root, *files, *ranks, cells, *sparse, legend),
        }
    }

    fn draw_empty<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Res {
        let (w, h) = root.dim_in_pixel();
        root.draw(&Text::new(
            self.title.clone(),
            (w as i32 / 2, 20),
            bold(TITLE).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            "no data",
            (w as i32 / 2, h as i32 / 2),
            font(18)
                .color(&MUTED)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .map_err(err)
    }

    fn draw_vbars<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        value_desc: &str,
        category_desc: &str,
        categories: &[String],
        series: &[BarSeries],
    ) -> Res {
        let n = categories.len();
        let max = series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .fold(0.0f64, f64::max);
        if n == 0 || series.is_empty() {
            return self.draw_empty(root);
        }
        let k = series.len();
        let top = axis_top(max, 1.12);
        let centres: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let y_ticks = ticks(0.0, top, 6, true);
        let legend = bar_legend(series);
        let body = header(root, &self.title, &legend)?;
        let mut chart = plot(
            &body,
            (4, 20, y_area(root, &y_ticks)),
            axis(-0.5f64..n as f64 - 0.5, centres),
            axis(0f64..top, y_ticks),
        )?;
        let label = |v: &f64| category_at(categories, *v, false);
        mesh(
            &mut chart,
            Grid::AcrossY,
            (&label, &count_label),
            (category_desc, value_desc),
        )?;
        let width = 0.8 / k as f64;
        // Value labels: written in full when they fit above their bar, else compact (`447k`),
        // else left out.
        let bar_px = f64::from(chart.plotting_area().dim_in_pixel().0) / n as f64 * width;
        let value_font = font(VALUE);
        let fits = |t: &str| {
            root.estimate_text_size(t, &value_font)
                .is_ok_and(|(w, _)| f64::from(w) + 4.0 <= bar_px)
        };
        let value_label = |v: f64| {
            let full = fmt_count(v);
            if fits(&full) {
                return Some(full);
            }
            let short = fmt_compact(v.max(0.0).round() as u64);
            fits(&short).then_some(short)
        };
        for (j, s) in series.iter().enumerate() {
            let rects = s
                .values
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .map(|(i, &v)| {
                    let x0 = i as f64 - 0.4 + j as f64 * width;
                    Rectangle::new(
                        [(x0 + 0.01, 0.0), (x0 + width - 0.01, v)],
                        s.colour_of(i).filled(),
                    )
                });
            chart.draw_series(rects).map_err(err)?;
            let texts: Vec<_> = s
                .values
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .filter_map(|(i, &v)| {
                    let x = i as f64 - 0.4 + (j as f64 + 0.5) * width;
                    let text = value_label(v)?;
                    Some(
                        EmptyElement::at((x, v))
                            + Text::new(
                                text,
                                (0, -4),
                                value_font.pos(Pos::new(HPos::Center, VPos::Bottom)),
                            ),
                    )
                })
                .collect();
            chart.draw_series(texts).map_err(err)?;
        }
        Ok(())
    }

    fn draw_hbars<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        value_desc: &str,
        category_desc: &str,
        categories: &[String],
        series: &[BarSeries],
        log: bool,
    ) -> Res {
        let n = categories.len();
        // On a log axis a value v ≥ 1 is drawn at 1 + log10(v) (so 1 is one decade long and
        // 0 is the origin); a linear axis draws v at v.
        let at = move |v: f64| if log && v >= 1.0 { 1.0 + v.log10() } else { v };
        let max = series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .fold(0.0f64, f64::max);
        if n == 0 || series.is_empty() {
            return self.draw_empty(root);
        }
        let k = series.len();
        let label_font = font(TICK);
        let widest = categories
            .iter()
            .map(|c| root.estimate_text_size(c, &label_font).map_or(0, |s| s.0))
            .max()
            .unwrap_or(0);
        let (top, value_ticks) = if log {
            let top = (at(max.max(1.0)) * 1.15).ceil().max(2.0);
            (top, (0..=top as u32).map(f64::from).collect())
        } else {
            let top = axis_top(max, 1.15);
            (top, ticks(0.0, top, 5, true))
        };
        let value_label = move |t: f64| {
            if log && t >= 1.0 {
                fmt_count(10f64.powf(t - 1.0).round())
            } else {
                fmt_count(t)
            }
        };
        // Category i is drawn at y = n - 1 - i so that the first is on top.
        let centres: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let legend = bar_legend(series);
        let body = header(root, &self.title, &legend)?;
        let y_labels = widest + 18 + if category_desc.is_empty() { 0 } else { 26 };
        let mut chart = plot(
            &body,
            (4, 24, y_labels),
            axis(0f64..top, value_ticks),
            axis(-0.5f64..n as f64 - 0.5, centres),
        )?;
        let label = |v: &f64| category_at(categories, *v, true);
        mesh(
            &mut chart,
            Grid::AcrossX,
            (&|v| value_label(*v), &label),
            (value_desc, category_desc),
        )?;
        let height = 0.8 / k as f64;
        for (j, s) in series.iter().enumerate() {
            let place = move |i: usize| (n - 1 - i) as f64 + 0.4 - j as f64 * height;
            let rects = s
                .values
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .map(|(i, &v)| {
                    let y0 = place(i);
                    Rectangle::new(
                        [(0.0, y0 - 0.01), (at(v), y0 - height + 0.01)],
                        s.colour_of(i).filled(),
                    )
                });
            chart.draw_series(rects).map_err(err)?;
            let texts = s
                .values
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .map(move |(i, &v)| {
                    EmptyElement::at((at(v), place(i) - height / 2.0))
                        + Text::new(
                            fmt_count(v),
                            (5, 0),
                            font(VALUE).pos(Pos::new(HPos::Left, VPos::Center)),
                        )
                });
            chart.draw_series(texts).map_err(err)?;
        }
        Ok(())
    }

    fn draw_histogram<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        x_desc: &str,
        y_desc: &str,
        bars: &[Bar],
        colour: RGBColor,
    ) -> Res {
        let (Some(first), Some(last)) = (bars.first(), bars.last()) else {
            return self.draw_empty(root);
        };
        let max = bars.iter().map(|b| b.count).max().unwrap_or(0) as f64;
        let top = axis_top(max, 1.08);
        let (lo, hi) = (first.lo as f64, last.hi as f64);
        let y_ticks = ticks(0.0, top, 6, true);
        let body = header(root, &self.title, &[])?;
        let mut chart = plot(
            &body,
            (4, 20, y_area(root, &y_ticks)),
            axis(lo - 0.5..hi + 0.5, ticks(lo, hi, 9, true)),
            axis(0f64..top, y_ticks),
        )?;
        mesh(
            &mut chart,
            Grid::AcrossY,
            (&count_label, &count_label),
            (x_desc, y_desc),
        )?;
        chart
            .draw_series(bars.iter().map(|b| {
                Rectangle::new(
                    [
                        (b.lo as f64 - 0.5, 0.0),
                        (b.hi as f64 + 0.5, b.count as f64),
                    ],
                    colour.filled(),
                )
            }))
            .map_err(err)?;
        if bars.len() <= 60 {
            chart
                .draw_series(bars.iter().filter(|b| b.count > 0).map(|b| {
                    Rectangle::new(
                        [
                            (b.lo as f64 - 0.5, 0.0),
                            (b.hi as f64 + 0.5, b.count as f64),
                        ],
                        WHITE.stroke_width(1),
                    )
                }))
                .map_err(err)?;
        }
        Ok(())
    }

    fn draw_lines<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        x_desc: &str,
        y_desc: &str,
        series: &[LineSeries],
    ) -> Res {
        let pts = || series.iter().flat_map(|s| s.points.iter().copied());
        let Some(x_lo) = pts().map(|p| p.0).reduce(f64::min) else {
            return self.draw_empty(root);
        };
        let x_hi = pts().map(|p| p.0).fold(x_lo, f64::max).max(x_lo + 1.0);
        let y_max = pts().map(|p| p.1).fold(0.0, f64::max);
        let top = axis_top(y_max, 1.1);
        let y_ticks = ticks(0.0, top, 6, true);
        let legend: Vec<(&str, RGBColor, Swatch)> = series
            .iter()
            .map(|s| (s.name.as_str(), s.colour, Swatch::Line))
            .collect();
        let body = header(root, &self.title, &legend)?;
        // Line charts have a 12 px top margin, the others 4 px.
        let mut chart = plot(
            &body,
            (12, 20, y_area(root, &y_ticks)),
            axis(x_lo..x_hi, ticks(x_lo, x_hi, 8, true)),
            axis(0f64..top, y_ticks),
        )?;
        mesh(
            &mut chart,
            Grid::Both,
            (&count_label, &count_label),
            (x_desc, y_desc),
        )?;
        for s in series {
            let colour = s.colour;
            chart
                .draw_series(plotters::series::LineSeries::new(
                    s.points.iter().copied(),
                    colour.stroke_width(3),
                ))
                .map_err(err)?;
        }
        Ok(())
    }

    fn draw_heatmap<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        files: u8,
        ranks: u8,
        cells: &[(u8, u8, Option<String>, u64)],
        sparse: bool,
        legend: &str,
    ) -> Res {
        if files == 0 || ranks == 0 {
            return self.draw_empty(root);
        }
        let (w, h) = root.dim_in_pixel();
        let (w, h) = (w as i32, h as i32);
        root.draw(&Text::new(
            self.title.clone(),
            (w / 2, 12),
            bold(TITLE).pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(err)?;
        let (top, bottom, left, legend_w) = (50, 40, 34, 120);
        let side = ((h - top - bottom) / i32::from(ranks))
            .min((w - left - legend_w) / i32::from(files))
            .max(8);
        let board_w = side * i32::from(files);
        let board = HeatBoard {
            x0: left + (w - left - legend_w - board_w) / 2,
            y0: top,
            side,
            files,
            ranks,
        };
        let max = cells.iter().map(|c| c.3).max().unwrap_or(0);
        if sparse {
            board.unused_squares(root)?;
        }
        for cell in cells {
            board.cell(root, cell, max)?;
        }
        board.grid(root)?;
        board.scale(root, max, legend)
    }
}

/// Where a heat map's board sits: its top-left corner, the side of a square, its size.
struct HeatBoard {
    x0: i32,
    y0: i32,
    side: i32,
    files: u8,
    ranks: u8,
}

impl HeatBoard {
    /// The top-left corner of a square (rank 0 at the bottom).
    fn corner(&self, f: u8, r: u8) -> (i32, i32) {
        (
            self.x0 + i32::from(f) * self.side,
            self.y0 + i32::from(self.ranks - 1 - r) * self.side,
        )
    }

    fn width(&self) -> i32 {
        self.side * i32::from(self.files)
    }

    fn height(&self) -> i32 {
        self.side * i32::from(self.ranks)
    }

    /// Every square in grey, for a board whose cells cover only some of them.
    fn unused_squares<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Res {
        let unused = RGBColor(236, 236, 236);
        let side = self.side;
        for f in 0..self.files {
            for r in 0..self.ranks {
                let (sx, sy) = self.corner(f, r);
                root.draw(&Rectangle::new(
                    [(sx, sy), (sx + side, sy + side)],
                    unused.filled(),
                ))
                .map_err(err)?;
            }
        }
        Ok(())
    }

    /// One square coloured by its count (of `max`), with its name and count.
    fn cell<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        (f, r, name, count): &(u8, u8, Option<String>, u64),
        max: u64,
    ) -> Res {
        if *f >= self.files || *r >= self.ranks {
            return Ok(());
        }
        let side = self.side;
        let (sx, sy) = self.corner(*f, *r);
        let t = if max > 0 {
            *count as f64 / max as f64
        } else {
            0.0
        };
        let fill = heat_colour(t);
        root.draw(&Rectangle::new(
            [(sx, sy), (sx + side, sy + side)],
            fill.filled(),
        ))
        .map_err(err)?;
        let ink = if t > 0.55 { WHITE } else { INK };
        if let Some(name) = name {
            root.draw(&Text::new(
                name.clone(),
                (sx + 3, sy + 2),
                font(11)
                    .color(&ink.mix(0.75))
                    .pos(Pos::new(HPos::Left, VPos::Top)),
            ))
            .map_err(err)?;
        }
        if *count > 0 {
            let label = if side >= 64 {
                fmt_count(*count as f64)
            } else {
                fmt_compact(*count)
            };
            root.draw(&Text::new(
                label,
                (sx + side / 2, sy + side / 2 + 3),
                font(if side >= 56 { VALUE } else { 13 })
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))
            .map_err(err)?;
        }
        Ok(())
    }

    /// Grid lines, the frame, and the file letters and rank numbers.
    fn grid<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Res {
        let (x0, y0, side) = (self.x0, self.y0, self.side);
        let (board_w, board_h) = (self.width(), self.height());
        let grid = RGBColor(200, 200, 200);
        for i in 0..=i32::from(self.files) {
            let x = x0 + i * side;
            root.draw(&PathElement::new(
                vec![(x, y0), (x, y0 + board_h)],
                grid.stroke_width(1),
            ))
            .map_err(err)?;
        }
        for i in 0..=i32::from(self.ranks) {
            let y = y0 + i * side;
            root.draw(&PathElement::new(
                vec![(x0, y), (x0 + board_w, y)],
                grid.stroke_width(1),
            ))
            .map_err(err)?;
        }
        root.draw(&Rectangle::new(
            [(x0, y0), (x0 + board_w, y0 + board_h)],
            AXIS.stroke_width(2),
        ))
        .map_err(err)?;
        for f in 0..self.files {
            root.draw(&Text::new(
                char::from(b'a' + f).to_string(),
                (x0 + i32::from(f) * side + side / 2, y0 + board_h + 8),
                font(TICK).pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(err)?;
        }
        for r in 0..self.ranks {
            root.draw(&Text::new(
                (r + 1).to_string(),
                (x0 - 8, self.corner(0, r).1 + side / 2),
                font(TICK).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(err)?;
        }
        Ok(())
    }

    /// The colour scale right of the board, from 0 to `max`, with its legend.
    fn scale<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        max: u64,
        legend: &str,
    ) -> Res {
        let (x0, y0) = (self.x0, self.y0);
        let lx = x0 + self.width() + 28;
        let lh = self.height();
        let steps = 50;
        for i in 0..steps {
            let ya = y0 + lh - (i + 1) * lh / steps;
            let yb = y0 + lh - i * lh / steps;
            root.draw(&Rectangle::new(
                [(lx, ya - 1), (lx + 22, yb)],
                heat_colour(f64::from(i) / f64::from(steps - 1)).filled(),
            ))
            .map_err(err)?;
        }
        root.draw(&Rectangle::new(
            [(lx, y0), (lx + 22, y0 + lh)],
            AXIS.stroke_width(1),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            fmt_count(max as f64),
            (lx + 28, y0),
            font(LEGEND).pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            "0",
            (lx + 28, y0 + lh),
            font(LEGEND).pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            legend.to_owned(),
            (lx + 28, y0 + lh / 2),
            font(LEGEND)
                .color(&MUTED)
                .transform(FontTransform::Rotate90)
                .pos(Pos::new(HPos::Center, VPos::Bottom)),
        ))
        .map_err(err)?;
        Ok(())
    }
}

/// A sequential colour scale from pale yellow (0) through orange to dark red (1).
pub(crate) fn heat_colour(t: f64) -> RGBColor {
    const STOPS: [(f64, (f64, f64, f64)); 5] = [
        (0.0, (255.0, 250.0, 235.0)),
        (0.25, (253.0, 212.0, 158.0)),
        (0.5, (252.0, 141.0, 89.0)),
        (0.75, (215.0, 48.0, 31.0)),
        (1.0, (127.0, 0.0, 0.0)),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    for pair in STOPS.windows(2) {
        let ((a, ca), (b, cb)) = (pair[0], pair[1]);
        if t <= b {
            let u = (t - a) / (b - a);
            let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
            return RGBColor(mix(ca.0, cb.0), mix(ca.1, cb.1), mix(ca.2, cb.2));
        }
    }
    RGBColor(127, 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formats() {
        assert_eq!(fmt_count(0.0), "0");
        assert_eq!(fmt_count(1234567.0), "1.2M");
        assert_eq!(fmt_count(2_000_000.0), "2M");
        assert_eq!(fmt_count(12345.0), "12,345");
        assert_eq!(fmt_count(2.5), "2.5");
        assert_eq!(group_thousands(-1000), "-1,000");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(fmt_compact(950), "950");
        assert_eq!(fmt_compact(4_685), "4.7k");
        assert_eq!(fmt_compact(19_415), "19k");
        assert_eq!(fmt_compact(2_345_678), "2.3M");
    }

    #[test]
    fn ticks_are_nice_and_inside() {
        assert_eq!(
            ticks(0.0, 10.0, 6, true),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        );
        assert_eq!(ticks(0.0, 3.0, 12, true), vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(ticks(3.0, 97.0, 10, true).first(), Some(&10.0));
        assert_eq!(axis_top(93.0, 1.08), 120.0);
        assert_eq!(axis_top(0.0, 1.1), 1.0);
    }

    #[test]
    fn heat_scale_ends() {
        assert_eq!(heat_colour(0.0), RGBColor(255, 250, 235));
        assert_eq!(heat_colour(1.0), RGBColor(127, 0, 0));
        assert_eq!(heat_colour(f64::NAN), RGBColor(255, 250, 235));
    }
}
