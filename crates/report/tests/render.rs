//! Rendering: PNG files are real images with text drawn from the embedded fonts, and a small
//! diagram's SVG is stable (insta snapshot).

// The corpora the statistics' tests make, shared with them.
#[path = "../../stats/tests/common/mod.rs"]
mod common;

use std::path::Path;

use plotters::prelude::*;
use report::{Arrow, ArrowStyle, Diagram, Mark, PieceColour, PieceGlyph};
use stats::Stats;

/// Decodes a PNG into (width, height, RGB(A) rows).
fn decode(path: &Path) -> (u32, u32, Vec<u8>, usize) {
    let file = std::fs::File::open(path).expect("png exists");
    let decoder = png::Decoder::new(file);
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    let channels = info.color_type.samples();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf, channels)
}

/// Pixels darker than mid-grey in the rectangle.
fn dark_pixels(img: &(u32, u32, Vec<u8>, usize), x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
    let (w, _, data, ch) = img;
    let mut n = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let i = (y as usize * *w as usize + x as usize) * ch;
            let lum = (u32::from(data[i]) + u32::from(data[i + 1]) + u32::from(data[i + 2])) / 3;
            if lum < 110 {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn chart_pngs_are_valid_images_with_text() {
    let mut s = Stats::default();
    for g in common::corpus() {
        s.add(&g.input());
    }
    let dir = std::env::temp_dir().join(format!("stats-render-{}", std::process::id()));
    let files = report::write_report(&s, &dir, &Default::default()).unwrap();
    assert!(!files.charts.is_empty());
    for c in &files.charts {
        let bytes = std::fs::read(&c.png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", c.id);
        assert!(
            bytes.len() > 5_000,
            "{} is only {} bytes",
            c.id,
            bytes.len()
        );
        let img = decode(&c.png);
        assert!(
            img.0 >= 600 && img.1 >= 380,
            "{}: {}x{}",
            c.id,
            img.0,
            img.1
        );
        // The title is drawn, centred in the top band: dark pixels there.
        let title = dark_pixels(&img, img.0 / 4, 6, img.0 * 3 / 4, 36);
        assert!(title > 100, "{}: title band has {title} dark pixels", c.id);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn only_registered_fonts_are_used() {
    // The embedded faces are registered as `sans-serif`; no other family exists, because
    // plotters is built without its system-font (`ttf`) feature. Drawing with another family
    // fails instead of silently picking a system font.
    report::init_fonts();
    report::init_fonts(); // idempotent
    let mut buf = vec![255u8; 200 * 40 * 3];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (200, 40)).into_drawing_area();
        let missing = root.draw(&Text::new("Tama", (5, 5), ("serif", 16).into_font()));
        assert!(
            missing.is_err(),
            "a family that was never registered must not be found"
        );
        let ok = root.draw(&Text::new("Tama", (5, 5), ("sans-serif", 24).into_font()));
        assert!(ok.is_ok());
    }
    assert!(
        buf.iter().any(|&b| b < 100),
        "glyphs were drawn from the embedded face"
    );
    // And the registered face measures real glyphs.
    let (w, _) = ("sans-serif", 20)
        .into_font()
        .box_size("Odnocvetnie")
        .unwrap();
    assert!((90..160).contains(&w), "width {w}");
}

fn small_diagram() -> Diagram {
    // A 5×5 board with crosses on the keep and the four palaces.
    let mut d = Diagram::empty(&common::THAAYAM.profile.board, "Thaayam: twins on c5");
    for (f, r) in [(2, 2), (2, 0), (4, 2), (2, 4), (0, 2)] {
        d.marks.push((f, r, Mark::Cross));
    }
    d.pieces.push(PieceGlyph {
        twin: true,
        label: Some("S".into()),
        ..PieceGlyph::man(2, 4, PieceColour::Seat(0))
    });
    d.pieces.push(PieceGlyph {
        count: 2,
        ..PieceGlyph::man(1, 0, PieceColour::Seat(2))
    });
    d.pieces.push(PieceGlyph::king(4, 4, PieceColour::Dark));
    d.marks.push((3, 3, Mark::Highlight));
    d.arrows.push(Arrow {
        squares: vec![(2, 0), (4, 0), (4, 2)],
        style: ArrowStyle::Played,
    });
    d.arrows.push(Arrow {
        squares: vec![(0, 2), (0, 4)],
        style: ArrowStyle::Suggested,
    });
    d.captions.push("Series [8 4 2]".into());
    d
}

#[test]
fn diagram_svg_snapshot() {
    insta::assert_snapshot!("thaayam_diagram", small_diagram().to_svg());
}

/// The text of every `<text>` element, in order.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let start = t.find('>')? + 1;
            let end = t.find("</text>")?;
            Some(t[start..end].trim().to_string())
        })
        .collect()
}

#[test]
fn diagram_svg_has_what_was_asked() {
    let svg = small_diagram().to_svg();
    assert_eq!(
        texts(&svg),
        [
            "Thaayam: twins on c5",
            "a",
            "b",
            "c",
            "d",
            "e",
            "1",
            "2",
            "3",
            "4",
            "5",
            "S",
            "2",
            "Series [8 4 2]"
        ]
    );
    // Grid lines (6 + 6) and the five crosses (two strokes each) in the grid colour.
    assert_eq!(
        svg.matches("stroke=\"#8A7A5A\" stroke-width=\"2\"").count(),
        12 + 10
    );
    // The king's gold ring.
    assert!(svg.contains("#D4A017"));
}

#[test]
fn a1_is_dark() {
    let svg = Diagram::empty(&common::TAMA.profile.board, "t").to_svg();
    // Squares are drawn file by file from a1; the first rect is the white background.
    let rects: Vec<&str> = svg.split("<rect").skip(2).take(2).collect();
    assert!(
        rects[0].contains("fill=\"#B58863\""),
        "a1 dark: {}",
        rects[0]
    );
    assert!(
        rects[1].contains("fill=\"#F0D9B5\""),
        "a2 light: {}",
        rects[1]
    );
    let odn = Diagram::empty(&common::ODNOCVETNIE.profile.board, "o").to_svg();
    let first = odn.split("<rect").nth(2).unwrap();
    assert!(first.contains("fill=\"#B58863\""));
}

#[test]
fn diagram_png_has_board_and_coordinates() {
    let dir = std::env::temp_dir().join(format!("stats-diagram-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d.png");
    let mut d = Diagram::empty(&common::TAMA.profile.board, "Tama");
    d.pieces.push(PieceGlyph::man(0, 0, PieceColour::Dark));
    d.write_png(&path).unwrap();
    let img = decode(&path);
    assert!(std::fs::metadata(&path).unwrap().len() > 3_000);
    // The board is square-ish and the picture is wider than tall only by the margins.
    assert!(img.0 >= 360 && img.1 >= 400, "{}x{}", img.0, img.1);
    // File letters below the board: dark text pixels in the bottom band (no captions).
    let bottom = dark_pixels(&img, 0, img.1 - 40, img.0, img.1 - 5);
    assert!(bottom > 30, "coordinates drawn: {bottom}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_candidate_of_an_ambiguous_move_is_drawn() {
    let mut d = Diagram::empty(&common::ODNOCVETNIE.profile.board, "ambiguous");
    d.add_paths(&[vec![(1, 1), (3, 3)]], ArrowStyle::Played);
    let candidates = vec![
        vec![(1, 1), (3, 3), (5, 5)],
        vec![(1, 1), (3, 3), (1, 5)],
        vec![(1, 1), (3, 3), (5, 1)],
    ];
    d.add_paths(&candidates, ArrowStyle::Suggested);
    assert_eq!(d.arrows.len(), 4);
    let svg = d.to_svg();
    // Each arrow ends in a filled head: one polygon per arrow, played and suggested.
    assert_eq!(svg.matches("<polygon").count(), 4, "{svg}");
}

#[test]
fn dark_square_boards_are_numbered_whatever_their_size() {
    let mut shape = common::ODNOCVETNIE.profile.board;
    shape.files = 8;
    shape.ranks = 8;
    let svg = Diagram::empty(&shape, "8x8").to_svg();
    let numbers: Vec<String> = texts(&svg)
        .into_iter()
        .filter(|t| t.parse::<u32>().is_ok_and(|n| n > 8))
        .collect();
    // 32 dark squares: numbers 9 to 32 are only square numbers (1–8 are also rank labels).
    assert_eq!(numbers.len(), 32 - 8);
    assert_eq!(stats::square_name(&shape, 1, 7), "1");
    assert_eq!(stats::square_name(&shape, 0, 0), "29");
    assert_eq!(stats::square_name(&common::TAMA.profile.board, 3, 4), "d5");
}
