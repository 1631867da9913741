//! The PNG backend: plotters' bitmap backend with text drawn by this crate.
//!
//! plotters 0.3.7 places each glyph of an `ab_glyph` font without its left side bearing, so
//! bitmap text has uneven letter spacing (`29 8,11 0`). [`Png`] forwards everything to
//! [`BitMapBackend`] except text, which it lays out itself with `ab_glyph`: glyphs placed at
//! their advance and kerning, at the same scale plotters uses to measure text (so layouts
//! computed by plotters still fit).

use std::path::Path;
use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, GlyphId, PxScale, ScaleFont};
use plotters::prelude::BitMapBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle,
};

use crate::fonts::{BOLD, REGULAR};

/// A PNG file being drawn.
pub(crate) struct Png<'a>(BitMapBackend<'a>);

impl<'a> Png<'a> {
    /// A backend that draws into `pixels` (RGB, three bytes a pixel, row after row).
    pub(crate) fn in_buffer(pixels: &'a mut [u8], size: (u32, u32)) -> Self {
        Png(BitMapBackend::with_buffer(pixels, size))
    }
}

/// Draws a picture of `size` with `draw` and writes it to `path` as a PNG file, through
/// [`outfile::StagedFile`] (so a full disk is reported naming the file, and the test hook of
/// `outfile` applies).
pub(crate) fn write_png<E: std::fmt::Display>(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(Png<'_>) -> Result<(), E>,
) -> std::io::Result<()> {
    let mut file = std::io::BufWriter::new(outfile::StagedFile::create(path)?);
    encode_png(&mut file, size, draw)?;
    // Flushed here, not on drop, so that an error is not lost.
    std::io::Write::flush(&mut file)
}

/// Draws a picture of `size` with `draw` and writes it to `out` as PNG.
pub(crate) fn encode_png<E: std::fmt::Display>(
    out: &mut dyn std::io::Write,
    size: (u32, u32),
    draw: impl FnOnce(Png<'_>) -> Result<(), E>,
) -> std::io::Result<()> {
    let mut pixels = vec![255u8; size.0 as usize * size.1 as usize * 3];
    draw(Png::in_buffer(&mut pixels, size)).map_err(|e| std::io::Error::other(e.to_string()))?;
    let mut encoder = png::Encoder::new(out, size.0, size.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let io = |e: png::EncodingError| match e {
        png::EncodingError::IoError(e) => e,
        other => std::io::Error::other(other),
    };
    let mut writer = encoder.write_header().map_err(io)?;
    writer.write_image_data(&pixels).map_err(io)?;
    writer.finish().map_err(io)
}

fn faces() -> Option<&'static (FontRef<'static>, FontRef<'static>)> {
    static FACES: OnceLock<Option<(FontRef<'static>, FontRef<'static>)>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            Some((
                FontRef::try_from_slice(REGULAR).ok()?,
                FontRef::try_from_slice(BOLD).ok()?,
            ))
        })
        .as_ref()
}

/// The width of `text` at `size` pixels as [`Png`] draws it (each glyph's advance and the
/// kerning between them), in the bold face when `strong`; `None` if the fonts cannot be read.
pub(crate) fn text_width(text: &str, size: u32, strong: bool) -> Option<f32> {
    let (regular, bold) = faces()?;
    let face = if strong { bold } else { regular };
    Some(pen_positions(face, PxScale::from(size as f32), text).1)
}

/// The pen position of each glyph of `text` from its left end on the baseline (its advance
/// and the kerning before it), and the width of the whole.
fn pen_positions(
    font: &FontRef<'static>,
    scale: PxScale,
    text: &str,
) -> (Vec<(GlyphId, f32)>, f32) {
    let scaled = font.as_scaled(scale);
    let mut glyphs = Vec::with_capacity(text.len());
    let mut x = 0f32;
    let mut prev = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = prev {
            x += scaled.kern(p, id);
        }
        glyphs.push((id, x));
        x += scaled.h_advance(id);
        prev = Some(id);
    }
    (glyphs, x)
}

type Error<'a> = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

impl<'a> DrawingBackend for Png<'a> {
    type ErrorType = Error<'a>;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let colour = style.color();
        let Some((regular, bold)) = faces() else {
            return self.0.draw_text(text, style, pos);
        };
        if colour.alpha == 0.0 || text.is_empty() {
            return Ok(());
        }
        let font = match style.style() {
            FontStyle::Bold => bold,
            _ => regular,
        };
        let scale = PxScale::from(style.size() as f32);
        let scaled = font.as_scaled(scale);
        let (glyphs, width) = pen_positions(font, scale, text);
        let (ascent, descent) = (scaled.ascent(), scaled.descent());
        let dx = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        // Baseline relative to the anchor point.
        let baseline = match style.anchor().v_pos {
            VPos::Top => ascent,
            VPos::Center => (ascent + descent) / 2.0,
            VPos::Bottom => descent,
        };
        let transform = style.transform();
        let (w, h) = self.get_size();
        for (id, gx) in glyphs {
            let glyph = id.with_scale_and_position(scale, point(dx + gx, baseline));
            let Some(outline) = font.outline_glyph(glyph) else {
                continue;
            };
            let bounds = outline.px_bounds();
            let mut pixels = Vec::new();
            outline.draw(|px, py, coverage| {
                if coverage > 0.0 {
                    pixels.push((
                        bounds.min.x as i32 + px as i32,
                        bounds.min.y as i32 + py as i32,
                        coverage,
                    ));
                }
            });
            for (px, py, coverage) in pixels {
                let (rx, ry) = transform.transform(px, py);
                let (ax, ay) = (pos.0 + rx, pos.1 + ry);
                if ax >= 0 && ay >= 0 && (ax as u32) < w && (ay as u32) < h {
                    self.0
                        .draw_pixel((ax, ay), colour.mix(f64::from(coverage.min(1.0))))?;
                }
            }
        }
        Ok(())
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        self.0.estimate_text_size(text, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.blit_bitmap(pos, size, src)
    }
}
