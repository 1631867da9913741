//! Board diagrams: a game-independent description of a position to draw (for `arbiter show`
//! and for the problem examples of the report), rendered to SVG or PNG.
//!
//! Squares are `(file, rank)` pairs counted from 0 as seen from the first seat (White /
//! South): `(0, 0)` is a1, the lower left corner; file 0 is `a`, rank 0 is rank 1. The rules
//! crates describe a position as a [`game::Board`] ([`game::Game::board`]);
//! [`Diagram::from_board`] turns it into a diagram and [`Diagram::add_paths`] draws moves on
//! it.

use std::io;
use std::path::Path;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

use crate::chart::{err, DrawError};
use crate::fonts::{init_fonts, FAMILY};

/// How the squares of a board are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SquareStyle {
    /// Every square is used; light and dark alternate, a1 dark.
    Checkered,
    /// Only the dark squares are used (a1 dark); the light ones are drawn pale.
    DarkOnly,
    /// Only the dark squares are used, a1 light (a turned board); the light ones pale.
    DarkOnlyTurned,
    /// Every square is used and drawn alike, with grid lines.
    Plain,
}

/// A mark on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mark {
    /// A diagonal cross (a safe square).
    Cross,
    /// A yellow highlight (e.g. the square a diagnostic is about).
    Highlight,
}

/// Colour of a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PieceColour {
    /// A light piece (the first of two sides; pieces no seat owns).
    Light,
    /// A dark piece (the second of two sides).
    Dark,
    /// A seat's colour: 0 = South (red), 1 = West (blue), 2 = North (green), 3 = East (amber).
    Seat(u8),
}

/// A piece (or a stack of pieces) on a square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceGlyph {
    /// File, 0 = a.
    pub file: u8,
    /// Rank, 0 = rank 1.
    pub rank: u8,
    /// Colour.
    pub colour: PieceColour,
    /// A king (damka): drawn with a gold ring.
    pub king: bool,
    /// Pieces stacked on the square (a badge shows the number when above 1).
    pub count: u8,
    /// Twins: drawn as two overlapping discs.
    pub twin: bool,
    /// Short text written on the disc (e.g. a seat letter).
    pub label: Option<String>,
}

impl PieceGlyph {
    /// A single man of `colour` on `(file, rank)`.
    pub fn man(file: u8, rank: u8, colour: PieceColour) -> Self {
        PieceGlyph {
            file,
            rank,
            colour,
            king: false,
            count: 1,
            twin: false,
            label: None,
        }
    }

    /// A king of `colour` on `(file, rank)`.
    pub fn king(file: u8, rank: u8, colour: PieceColour) -> Self {
        PieceGlyph {
            king: true,
            ..PieceGlyph::man(file, rank, colour)
        }
    }
}

/// How an arrow is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArrowStyle {
    /// The move as played: solid blue.
    Played,
    /// A move the referee suggests (e.g. a longer capture): dashed green.
    Suggested,
}

/// A move drawn as an arrow through the centres of its squares (start, every landing square,
/// end).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrow {
    /// Squares visited, in order; fewer than two draws nothing.
    pub squares: Vec<(u8, u8)>,
    /// Style.
    pub style: ArrowStyle,
}

/// A board position to draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagram {
    /// Title above the board.
    pub title: String,
    /// Files (columns), at most 26.
    pub files: u8,
    /// Ranks (rows).
    pub ranks: u8,
    /// How squares are drawn.
    pub squares: SquareStyle,
    /// Marks on squares.
    pub marks: Vec<(u8, u8, Mark)>,
    /// Pieces.
    pub pieces: Vec<PieceGlyph>,
    /// Moves drawn as arrows (above the pieces).
    pub arrows: Vec<Arrow>,
    /// Lines of text below the board (wrapped to its width).
    pub captions: Vec<String>,
    /// Write file letters below and rank numbers left of the board.
    pub coordinates: bool,
    /// Write the square numbers of international draughts (1 = b10 … 50 = i1 on 10×10; 1 =
    /// the first dark square of the top rank in general) in the corner of each dark square.
    /// Only drawn with [`SquareStyle::DarkOnly`].
    pub numbered: bool,
}

const LIGHT_SQ: RGBColor = RGBColor(240, 217, 181);
const DARK_SQ: RGBColor = RGBColor(181, 136, 99);
const PALE_SQ: RGBColor = RGBColor(250, 246, 238);
const PLAIN_SQ: RGBColor = RGBColor(244, 236, 216);
const PLAIN_GRID: RGBColor = RGBColor(138, 122, 90);
const INK: RGBColor = RGBColor(30, 30, 30);
const GOLD: RGBColor = RGBColor(212, 160, 23);
const SEATS: [RGBColor; 4] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(230, 140, 20),
];

fn style_of(style: game::BoardStyle) -> SquareStyle {
    match style {
        game::BoardStyle::Checkered => SquareStyle::Checkered,
        game::BoardStyle::DarkOnly => SquareStyle::DarkOnly,
        game::BoardStyle::DarkOnlyTurned => SquareStyle::DarkOnlyTurned,
        game::BoardStyle::Plain => SquareStyle::Plain,
    }
}

/// Layout of a rendered diagram, in pixels.
struct Layout {
    side: i32,
    left: i32,
    top: i32,
    width: u32,
    height: u32,
    title: Vec<String>,
    captions: Vec<String>,
}

const TITLE_SIZE: u32 = 20;
const CAPTION_SIZE: u32 = 16;
const COORD_SIZE: u32 = 17;
const LINE: i32 = 22;

impl Diagram {
    /// An empty board without marks, pieces, arrows or captions, with coordinates.
    pub fn new(title: impl Into<String>, files: u8, ranks: u8, squares: SquareStyle) -> Self {
        Diagram {
            title: title.into(),
            files,
            ranks,
            squares,
            marks: Vec::new(),
            pieces: Vec::new(),
            arrows: Vec::new(),
            captions: Vec::new(),
            coordinates: true,
            numbered: false,
        }
    }

    /// An empty board of this shape (dark-squares boards numbered), with coordinates.
    pub fn empty(shape: &game::BoardShape, title: impl Into<String>) -> Self {
        let squares = style_of(shape.style);
        Diagram {
            numbered: squares == SquareStyle::DarkOnly,
            ..Diagram::new(title, shape.files, shape.ranks, squares)
        }
    }

    /// The diagram of a position described by a rules crate.
    ///
    /// - Squares: [`game::BoardStyle`] as [`SquareStyle`]; a board of dark squares only is
    ///   numbered as [`stats::dark_square_number`] says.
    /// - Pieces: in a two-seat game seat 0 is light and seat 1 dark; in a four-seat game each
    ///   seat has its colour and its letter on the disc; ownerless pieces are light. Kings
    ///   get the gold ring, stacks their count, twins two discs; pieces sharing a square are
    ///   drawn side by side.
    /// - Marks: safe squares crossed, a locked piece highlighted.
    /// - Captions: the seat to move, then the board's notes.
    pub fn from_board(board: &game::Board, title: impl Into<String>) -> Self {
        let squares = style_of(board.style);
        let mut d = Diagram::new(title, board.files, board.ranks, squares);
        d.numbered = squares == SquareStyle::DarkOnly;
        d.marks = board
            .marks
            .iter()
            .map(|&(f, r, m)| {
                let mark = match m {
                    game::SquareMark::Safe => Mark::Cross,
                    game::SquareMark::Locked => Mark::Highlight,
                };
                (f, r, mark)
            })
            .collect();
        let two_colours = board.seat_names.len() == 2;
        d.pieces = board
            .pieces
            .iter()
            .map(|p| {
                let (colour, label) = match p.seat {
                    None => (PieceColour::Light, None),
                    Some(s) if two_colours => (
                        if s == 0 {
                            PieceColour::Light
                        } else {
                            PieceColour::Dark
                        },
                        None,
                    ),
                    Some(s) => (
                        PieceColour::Seat(s),
                        board
                            .seat_names
                            .get(usize::from(s))
                            .and_then(|n| n.chars().next())
                            .map(String::from),
                    ),
                };
                PieceGlyph {
                    file: p.file,
                    rank: p.rank,
                    colour,
                    king: p.king,
                    count: p.count,
                    twin: p.twin,
                    label,
                }
            })
            .collect();
        d.captions
            .push(format!("{} to move.", board.seat_name(board.to_move)));
        d.captions.extend(board.notes.iter().cloned());
        d
    }

    /// Draws moves: every path of two squares or more as an arrow in `style`, and a path of
    /// one square as a highlight on it.
    pub fn add_paths(&mut self, paths: &[game::SquarePath], style: ArrowStyle) {
        for path in paths {
            match path.as_slice() {
                [] => {}
                &[(f, r)] => {
                    if !self.marks.contains(&(f, r, Mark::Highlight)) {
                        self.marks.push((f, r, Mark::Highlight));
                    }
                }
                squares => self.arrows.push(Arrow {
                    squares: squares.to_vec(),
                    style,
                }),
            }
        }
    }

    fn layout(&self) -> Layout {
        let (files, ranks) = (i32::from(self.files.max(1)), i32::from(self.ranks.max(1)));
        let side = (480 / files.max(ranks)).clamp(24, 60);
        let left = if self.coordinates { 30 } else { 12 };
        let board_w = side * files;
        let inner = (board_w + left + 12).max(360);
        let title = wrap(&visible(&self.title), TITLE_SIZE, true, inner - 16);
        let captions: Vec<String> = self
            .captions
            .iter()
            .flat_map(|c| wrap(&visible(c), CAPTION_SIZE, false, inner - 16))
            .collect();
        let top = 12 + title.len() as i32 * (LINE + 4) + 6;
        let bottom = if self.coordinates { 30 } else { 12 };
        let height = top + side * ranks + bottom + captions.len() as i32 * LINE + 10;
        Layout {
            side,
            left: left + (inner - board_w - left - 12) / 2,
            top,
            width: inner as u32,
            height: height as u32,
            title,
            captions,
        }
    }

    /// The diagram as an SVG document (text drawn in the `sans-serif` family).
    pub fn to_svg(&self) -> String {
        init_fonts();
        let l = self.layout();
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (l.width, l.height)).into_drawing_area();
            // The SVG backend writes into a string and cannot fail; a font error would only
            // leave text out.
            let _ = self.draw(&root, &l);
            let _ = root.present();
        }
        out
    }

    /// Writes the diagram as PNG to `out` (a file being written, standard output).
    pub fn write_png_to(&self, out: &mut dyn io::Write) -> io::Result<()> {
        init_fonts();
        let l = self.layout();
        crate::png::encode_png(out, (l.width, l.height), |png| {
            let root = png.into_drawing_area();
            self.draw(&root, &l).map_err(|e| e.to_string())?;
            root.present().map_err(|e| e.to_string())
        })
    }

    /// Writes the diagram as a PNG file.
    pub fn write_png(&self, path: &Path) -> io::Result<()> {
        init_fonts();
        let l = self.layout();
        crate::png::write_png(path, (l.width, l.height), |png| {
            let root = png.into_drawing_area();
            self.draw(&root, &l).map_err(|e| e.to_string())?;
            root.present().map_err(|e| e.to_string())
        })
    }

    fn centre(&self, l: &Layout, f: u8, r: u8) -> (i32, i32) {
        let ranks = i32::from(self.ranks);
        (
            l.left + i32::from(f) * l.side + l.side / 2,
            l.top + (ranks - 1 - i32::from(r)) * l.side + l.side / 2,
        )
    }

    fn on_board(&self, f: u8, r: u8) -> bool {
        f < self.files && r < self.ranks
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        l: &Layout,
    ) -> Result<(), DrawError> {
        let e = |x: DrawingAreaErrorKind<DB::ErrorType>| crate::chart::err(x);
        root.fill(&WHITE).map_err(e)?;
        let cx = l.width as i32 / 2;
        for (i, line) in l.title.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (cx, 12 + i as i32 * (LINE + 4)),
                text(TITLE_SIZE, true).pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(e)?;
        }
        self.draw_squares(root, l)?;
        self.draw_marks(root, l)?;
        if self.numbered && self.squares == SquareStyle::DarkOnly {
            self.draw_numbers(root, l)?;
        }
        if self.coordinates {
            self.draw_coordinates(root, l)?;
        }
        // Pieces; several on one square share it, side by side.
        for (i, p) in self.pieces.iter().enumerate() {
            if !self.on_board(p.file, p.rank) {
                continue;
            }
            let on_square = |q: &&PieceGlyph| (q.file, q.rank) == (p.file, p.rank);
            let sharing = self.pieces.iter().filter(on_square).count();
            let slot = self.pieces[..i].iter().filter(on_square).count();
            self.draw_piece(root, l, p, slot, sharing).map_err(e)?;
        }
        // Arrows.
        for a in &self.arrows {
            self.draw_arrow(root, l, a).map_err(e)?;
        }
        // Captions.
        let by1 = l.top + l.side * i32::from(self.ranks);
        let cap_top = by1 + if self.coordinates { 30 } else { 12 };
        for (i, line) in l.captions.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (8, cap_top + i as i32 * LINE),
                text(CAPTION_SIZE, false).pos(Pos::new(HPos::Left, VPos::Top)),
            ))
            .map_err(e)?;
        }
        Ok(())
    }

    /// The squares, the grid of a plain board, and the frame.
    fn draw_squares<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        l: &Layout,
    ) -> Result<(), DrawError> {
        let s = l.side;
        let (files, ranks) = (self.files, self.ranks);
        // Squares.
        for f in 0..files {
            for r in 0..ranks {
                let (x, y) = self.centre(l, f, r);
                let dark = ((f + r) % 2 == 0) != (self.squares == SquareStyle::DarkOnlyTurned);
                let colour = match self.squares {
                    SquareStyle::Checkered => {
                        if dark {
                            DARK_SQ
                        } else {
                            LIGHT_SQ
                        }
                    }
                    SquareStyle::DarkOnly | SquareStyle::DarkOnlyTurned => {
                        if dark {
                            DARK_SQ
                        } else {
                            PALE_SQ
                        }
                    }
                    SquareStyle::Plain => PLAIN_SQ,
                };
                root.draw(&Rectangle::new(
                    [(x - s / 2, y - s / 2), (x - s / 2 + s, y - s / 2 + s)],
                    colour.filled(),
                ))
                .map_err(err)?;
            }
        }
        let (bx0, by0) = (l.left, l.top);
        let (bx1, by1) = (l.left + s * i32::from(files), l.top + s * i32::from(ranks));
        if self.squares == SquareStyle::Plain {
            for i in 0..=i32::from(files) {
                root.draw(&PathElement::new(
                    vec![(bx0 + i * s, by0), (bx0 + i * s, by1)],
                    PLAIN_GRID.stroke_width(2),
                ))
                .map_err(err)?;
            }
            for i in 0..=i32::from(ranks) {
                root.draw(&PathElement::new(
                    vec![(bx0, by0 + i * s), (bx1, by0 + i * s)],
                    PLAIN_GRID.stroke_width(2),
                ))
                .map_err(err)?;
            }
        }
        root.draw(&Rectangle::new(
            [(bx0, by0), (bx1, by1)],
            INK.stroke_width(2),
        ))
        .map_err(err)?;
        Ok(())
    }

    /// Highlights and crosses.
    fn draw_marks<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        l: &Layout,
    ) -> Result<(), DrawError> {
        let s = l.side;
        // Marks.
        for &(f, r, mark) in &self.marks {
            if !self.on_board(f, r) {
                continue;
            }
            let (x, y) = self.centre(l, f, r);
            let h = s / 2;
            match mark {
                Mark::Highlight => root
                    .draw(&Rectangle::new(
                        [(x - h + 2, y - h + 2), (x + h - 2, y + h - 2)],
                        RGBColor(255, 235, 59).mix(0.6).filled(),
                    ))
                    .map_err(err)?,
                Mark::Cross => {
                    let d = s * 2 / 5;
                    let style = PLAIN_GRID.stroke_width(2);
                    root.draw(&PathElement::new(
                        vec![(x - d, y - d), (x + d, y + d)],
                        style,
                    ))
                    .map_err(err)?;
                    root.draw(&PathElement::new(
                        vec![(x - d, y + d), (x + d, y - d)],
                        style,
                    ))
                    .map_err(err)?;
                }
            }
        }
        Ok(())
    }

    /// Square numbers on the empty dark squares, counted row by row from the top left as seen
    /// from the first seat.
    fn draw_numbers<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        l: &Layout,
    ) -> Result<(), DrawError> {
        let (s, (files, ranks)) = (l.side, (self.files, self.ranks));
        let mut n = 0u32;
        for r in (0..ranks).rev() {
            for f in 0..files {
                if (f + r) % 2 != 0 {
                    continue;
                }
                n += 1;
                if self.pieces.iter().any(|p| (p.file, p.rank) == (f, r)) {
                    continue;
                }
                let (x, y) = self.centre(l, f, r);
                root.draw(&Text::new(
                    n.to_string(),
                    (x - s / 2 + 3, y - s / 2 + 2),
                    text(11, false)
                        .color(&RGBColor(250, 240, 225))
                        .pos(Pos::new(HPos::Left, VPos::Top)),
                ))
                .map_err(err)?;
            }
        }
        Ok(())
    }

    /// File letters under the board, rank numbers left of it.
    fn draw_coordinates<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        l: &Layout,
    ) -> Result<(), DrawError> {
        let (files, ranks) = (self.files, self.ranks);
        let by1 = l.top + l.side * i32::from(ranks);
        let bx0 = l.left;
        // Coordinates.
        for f in 0..files {
            let (x, _) = self.centre(l, f, 0);
            root.draw(&Text::new(
                char::from(b'a' + f.min(25)).to_string(),
                (x, by1 + 7),
                text(COORD_SIZE, false).pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(err)?;
        }
        for r in 0..ranks {
            let (_, y) = self.centre(l, 0, r);
            root.draw(&Text::new(
                (u32::from(r) + 1).to_string(),
                (bx0 - 7, y),
                text(COORD_SIZE, false).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(err)?;
        }
        Ok(())
    }

    /// Draws `p`, the `slot`-th of the `sharing` pieces on its square (one: centred; two:
    /// upper left and lower right; more: in the quarters of the square).
    fn draw_piece<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        l: &Layout,
        p: &PieceGlyph,
        slot: usize,
        sharing: usize,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (x, y) = self.centre(l, p.file, p.rank);
        let q = l.side / 4;
        let (x, y, r, label_size) = match sharing {
            0 | 1 => (x, y, l.side * 38 / 100, 16),
            2 => {
                let d = l.side * 21 / 100;
                let (dx, dy) = if slot == 0 { (-d, -d) } else { (d, d) };
                (x + dx, y + dy, l.side / 4, 13)
            }
            _ => (
                if slot % 2 == 1 { x + q } else { x - q },
                if slot % 4 < 2 { y - q } else { y + q },
                l.side * 21 / 100,
                12,
            ),
        };
        let (fill, ink) = match p.colour {
            PieceColour::Light => (RGBColor(250, 250, 245), INK),
            PieceColour::Dark => (RGBColor(40, 40, 40), WHITE),
            PieceColour::Seat(i) => (SEATS[usize::from(i % 4)], WHITE),
        };
        let outline = if p.colour == PieceColour::Dark {
            RGBColor(200, 200, 200)
        } else {
            INK
        };
        let (x, y, r) = if p.twin {
            // Two smaller discs, the back one up and left (closer together when the square
            // is shared, to stay inside it).
            let (r, o) = if sharing > 1 {
                (r * 80 / 100, r / 5)
            } else {
                (r * 85 / 100, r * 85 / 300)
            };
            root.draw(&Circle::new((x - o, y - o), r, fill.filled()))?;
            root.draw(&Circle::new((x - o, y - o), r, outline.stroke_width(2)))?;
            (x + o / 2, y + o / 2, r)
        } else {
            (x, y, r)
        };
        root.draw(&Circle::new((x, y), r, fill.filled()))?;
        root.draw(&Circle::new((x, y), r, outline.stroke_width(2)))?;
        if p.king {
            root.draw(&Circle::new((x, y), r * 6 / 10, GOLD.stroke_width(3)))?;
        }
        if let Some(label) = &p.label {
            root.draw(&Text::new(
                label.clone(),
                (x, y),
                text(label_size, true)
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
        if p.count > 1 {
            let (bx, by) = (x + r * 3 / 4, y - r * 3 / 4);
            let br = (l.side / 6).max(8);
            root.draw(&Circle::new((bx, by), br, RGBColor(180, 20, 30).filled()))?;
            root.draw(&Text::new(
                p.count.to_string(),
                (bx, by),
                text(13, true)
                    .color(&WHITE)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
        Ok(())
    }

    fn draw_arrow<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        l: &Layout,
        a: &Arrow,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let pts: Vec<(i32, i32)> = a
            .squares
            .iter()
            .filter(|&&(f, r)| self.on_board(f, r))
            .map(|&(f, r)| self.centre(l, f, r))
            .collect();
        if pts.len() < 2 {
            return Ok(());
        }
        let colour = match a.style {
            ArrowStyle::Played => RGBColor(21, 101, 192).mix(0.85),
            ArrowStyle::Suggested => RGBColor(46, 125, 50).mix(0.85),
        };
        // Stop the shaft at the base of the head.
        let head = (l.side * 3 / 10).max(10) as f64;
        let (tip, before) = (pts[pts.len() - 1], pts[pts.len() - 2]);
        let (dx, dy) = (f64::from(tip.0 - before.0), f64::from(tip.1 - before.1));
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let base = (tip.0 - (ux * head) as i32, tip.1 - (uy * head) as i32);
        let mut shaft = pts.clone();
        if let Some(last) = shaft.last_mut() {
            *last = base;
        }
        // Start at the rim of the moving piece, not on its label.
        let (fx, fy) = (
            f64::from(pts[1].0 - pts[0].0),
            f64::from(pts[1].1 - pts[0].1),
        );
        let flen = (fx * fx + fy * fy).sqrt().max(1.0);
        let lift = (f64::from(l.side) * 0.3).min(flen / 2.0);
        shaft[0] = (
            pts[0].0 + (fx / flen * lift) as i32,
            pts[0].1 + (fy / flen * lift) as i32,
        );
        let style = colour.stroke_width(5);
        match a.style {
            ArrowStyle::Played => root.draw(&PathElement::new(shaft, style))?,
            ArrowStyle::Suggested => root.draw(&DashedPathElement::new(shaft, 10, 7, style))?,
        }
        for &(x, y) in &pts[1..pts.len() - 1] {
            root.draw(&Circle::new((x, y), 5, colour.filled()))?;
        }
        let w = head * 0.6;
        let wing = |s: f64| {
            (
                (base.0 as f64 - uy * w * s) as i32,
                (base.1 as f64 + ux * w * s) as i32,
            )
        };
        root.draw(&Polygon::new(
            vec![tip, wing(1.0), wing(-1.0)],
            colour.filled(),
        ))?;
        Ok(())
    }
}

/// The font at `size`, bold if `strong`. (Built with the style from the start: plotters'
/// `FontDesc::style` keeps the regular face's metrics, so bold text would be measured too
/// narrow.)
fn font(size: u32, strong: bool) -> FontDesc<'static> {
    let style = if strong {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    FontDesc::new(FAMILY.into(), f64::from(size), style)
}

fn text(size: u32, strong: bool) -> TextStyle<'static> {
    TextStyle::from(font(size, strong)).color(&INK)
}

/// The width of `t` in pixels as drawn (the PNG backend's layout; plotters' own measure
/// where the fonts cannot be read).
fn measure(t: &str, size: u32, strong: bool) -> i32 {
    if let Some(w) = crate::png::text_width(t, size, strong) {
        return w.ceil() as i32;
    }
    font(size, strong)
        .box_size(t)
        .map_or(t.chars().count() as i32 * size as i32 * 6 / 10, |b| {
            b.0 as i32
        })
}

/// Splits `s` into lines no wider than `width` pixels, at spaces. A word wider than a line (a
/// position string, a long file path) is cut: after a `,`, `:`, `/`, `\`, `-`, `.` or `_` where
/// the line has one, else at the last character that fits.
fn wrap(s: &str, size: u32, strong: bool, width: i32) -> Vec<String> {
    init_fonts();
    let fits = |t: &str| measure(t, size, strong) <= width;
    let mut lines = Vec::new();
    for para in s.lines() {
        let mut line = String::new();
        for word in para.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if fits(&candidate) {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            if fits(word) {
                line.push_str(word);
                continue;
            }
            // Too wide for a line of its own: cut it, and go on after its last piece.
            let mut pieces = cut(word, &fits);
            line = pieces.pop().unwrap_or_default();
            lines.extend(pieces);
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

/// `word` cut into pieces that each `fits`, preferably after a separator.
fn cut(word: &str, fits: &dyn Fn(&str) -> bool) -> Vec<String> {
    const AFTER: &[char] = &[',', ':', '/', '\\', '-', '.', '_', ';'];
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for c in word.chars() {
        piece.push(c);
        if fits(&piece) || piece.chars().count() == 1 {
            continue;
        }
        piece.pop();
        // The last separator of the piece, unless the piece would be left empty.
        let at = piece
            .char_indices()
            .filter(|&(i, ch)| AFTER.contains(&ch) && i + ch.len_utf8() < piece.len())
            .map(|(i, ch)| i + ch.len_utf8())
            .next_back();
        let mut rest = match at {
            Some(i) => piece.split_off(i),
            None => String::new(),
        };
        pieces.push(std::mem::take(&mut piece));
        rest.push(c);
        if !fits(&rest) && rest.chars().count() > 1 {
            rest.pop();
            pieces.push(std::mem::replace(&mut rest, c.to_string()));
        }
        piece = rest;
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// Text as drawn: control characters, which no SVG (XML) document may hold even escaped,
/// shown as `\u{7}` (a file name with a BEL in a title made `show -o x.svg` invalid).
fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_text_is_valid_xml_whatever_the_title() {
        let mut d = Diagram::new("a\u{7}b <&> \u{1b}[2J", 8, 8, SquareStyle::DarkOnly);
        d.captions.push("c\u{0}d".into());
        let svg = d.to_svg();
        assert!(!svg
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r'));
        assert!(svg.contains("a\\u{7}b"), "{svg}");
        assert!(!svg.contains("<&>"), "markup in the title is escaped");
    }

    #[test]
    fn wrapping_respects_width() {
        let lines = wrap(
            "a capture of three pieces was available from d4 over e5 f6 and g7",
            14,
            false,
            200,
        );
        assert!(lines.len() >= 2, "{lines:?}");
        assert_eq!(
            lines.join(" "),
            "a capture of three pieces was available from d4 over e5 f6 and g7"
        );
        assert!(wrap("", 14, false, 200).is_empty());
    }

    /// Every line of a title, measured with the shipped font as the PNG is drawn, fits the
    /// image: a position string or a file path without spaces is cut, none of it lost.
    #[test]
    fn long_titles_fit_the_image() {
        let squares: Vec<String> = (1..=50).map(|n| n.to_string()).collect();
        let position = format!(
            "International draughts: W:W{}:B{}",
            squares[30..].join(","),
            squares[..20].join(",")
        );
        let path = format!(
            "International draughts: /{}/tournament-games-of-the-federation.pdn, game 1234, after ply 56",
            ["archives", "international-draughts", "federation", "2019-2024"].join("/")
        );
        let kings = "Tama: W:WKa1,Kb2,Kc3,Kd4,Ke5,Kf6,Kg7,Kh8:BKa8,Kb7,Kc6,Kd5,Ke4,Kf3,Kg2,Kh1";
        for (title, files) in [
            (&position[..], 10),
            (&path[..], 10),
            (kings, 8),
            (&path[..], 5),
        ] {
            let d = Diagram::new(title, files, files, SquareStyle::DarkOnly);
            let l = d.layout();
            assert!(l.title.len() > 1, "{title}: {:?}", l.title);
            for line in &l.title {
                let w = crate::png::text_width(line, TITLE_SIZE, true).expect("the shipped font");
                assert!(
                    w <= l.width as f32,
                    "{line:?}: {w} px in an image {} px wide",
                    l.width
                );
            }
            let letters = |t: &str| t.split_whitespace().collect::<String>();
            assert_eq!(
                letters(&l.title.concat()),
                letters(title),
                "nothing is lost"
            );
            // A position string is cut after a comma or a colon, not inside a square.
            if title == position {
                for line in &l.title[..l.title.len() - 1] {
                    assert!(line.ends_with([',', ':']), "{line:?}");
                }
            }
        }
    }

    #[test]
    fn bold_text_is_measured_with_the_bold_face() {
        init_fonts();
        let t = "Odnocvetnie Shashki: broken.pdn, game 4, after ply 1";
        let (regular, bold) = (font(20, false), font(20, true));
        let (r, b) = (regular.box_size(t).unwrap().0, bold.box_size(t).unwrap().0);
        assert!(b > r + r / 20, "bold {b} vs regular {r}");
    }
}
