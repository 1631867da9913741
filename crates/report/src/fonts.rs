//! The fonts every chart and diagram is drawn with.
//!
//! plotters' own `ttf` feature looks fonts up through the system (fontconfig), which a build
//! server or a container may not have. Instead the DejaVu Sans faces shipped in `assets/` are
//! compiled into the library and registered with plotters' `ab_glyph` font table under the
//! family name `sans-serif`, the only family the crate draws with.

use std::sync::Once;

use plotters::style::{register_font, FontStyle};

pub(crate) static REGULAR: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
pub(crate) static BOLD: &[u8] = include_bytes!("../assets/DejaVuSans-Bold.ttf");
static INIT: Once = Once::new();

/// The font family every text of a chart or diagram uses.
pub(crate) const FAMILY: &str = "sans-serif";

/// Registers the embedded DejaVu Sans faces (regular and bold) with plotters under the family
/// name `sans-serif`.
///
/// Idempotent and thread-safe; every rendering function of this crate calls it, so calling it
/// yourself is only needed when you draw with plotters directly.
pub fn init_fonts() {
    INIT.call_once(|| {
        // The embedded files are valid fonts, so registration cannot fail; were it to, text
        // drawing would report a font error instead of panicking.
        let _ = register_font(FAMILY, FontStyle::Normal, REGULAR);
        let _ = register_font(FAMILY, FontStyle::Bold, BOLD);
    });
}
