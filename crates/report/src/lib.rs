//! What people look at: the self-contained HTML report of a corpus's statistics
//! ([`write_report`]), its charts (SVG and PNG), board diagrams ([`Diagram`]) and the game
//! viewer ([`viewer`]), used by the report and by `arbiter view`.
//!
//! The numbers come from the `stats` crate ([`stats::Stats::summary`]); this crate only lays
//! them out. [`ReportExtras`] carries what a caller adds to a report: a title, problem
//! examples drawn as diagrams, and the viewer's games.
//!
//! ```no_run
//! let stats = stats::Stats::default();
//! let files = report::write_report(&stats, "out".as_ref(), &report::ReportExtras::default())?;
//! assert!(files.html.ends_with("report.html"));
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! All text is drawn with the DejaVu Sans faces compiled into the crate ([`init_fonts`]), so
//! nothing depends on fonts installed on the machine.
#![deny(missing_docs)]

mod analysed;
mod chart;
mod diagram;
mod fonts;
mod png;
mod report;
pub mod viewer;

pub use analysed::{
    AnalysisFiles, AnalysisReport, CHART_PLAYERS, STAGES, STAGE_PLIES, TABLE_PLAYERS,
};
pub use diagram::{Arrow, ArrowStyle, Diagram, Mark, PieceColour, PieceGlyph, SquareStyle};
pub use fonts::init_fonts;
pub use report::{
    write_report, ChartFile, ExampleRow, ProblemExample, ReportExtras, ReportFiles, MAX_EXAMPLES,
    MAX_EXAMPLES_PER_CODE,
};
pub use viewer::{
    EncodedGame, FileRow, Viewer, ViewerGame, ViewerPly, ViewerPosition, ViewerProblem,
    ViewerSeverity, MOVE_CLASSES, VIEWER_BUDGET,
};
