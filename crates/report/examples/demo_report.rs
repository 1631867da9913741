//! Writes a report of synthetic games to /tmp/stats-demo (or the directory given as the first
//! argument), with a few problem examples, and an example diagram per game.

#[path = "../../stats/benches/common/synth.rs"]
mod synth;

use std::path::PathBuf;

use report::{
    Arrow, ArrowStyle, Diagram, Mark, PieceColour, PieceGlyph, ProblemExample, ReportExtras,
};
use stats::Stats;

fn tama_diagram() -> Diagram {
    let mut d = Diagram::empty(
        &synth::TAMA.profile.board,
        "Tama: a longer capture was available",
    );
    for (f, r) in [(1, 1), (2, 1), (3, 2), (6, 2), (0, 2), (4, 3)] {
        d.pieces.push(PieceGlyph::man(f, r, PieceColour::Light));
    }
    for (f, r) in [(3, 4), (3, 6), (5, 6), (6, 5), (1, 5), (2, 6)] {
        d.pieces.push(PieceGlyph::man(f, r, PieceColour::Dark));
    }
    d.pieces.push(PieceGlyph::king(7, 7, PieceColour::Light));
    d.marks.push((3, 3, Mark::Highlight));
    d.arrows.push(Arrow {
        squares: vec![(3, 2), (3, 3)],
        style: ArrowStyle::Played,
    });
    d.arrows.push(Arrow {
        squares: vec![(4, 3), (2, 3), (2, 5), (4, 5)],
        style: ArrowStyle::Suggested,
    });
    d.captions.push(
        "Played: d3-d4 (solid). A capture of three pieces existed: e4xc4xc6xe6 (dashed).".into(),
    );
    d
}

fn odnocvetnie_diagram() -> Diagram {
    let shape = synth::ODNOCVETNIE.profile.board;
    let square = |n| stats::numbered_dark_square(shape.files, shape.ranks, n);
    let mut d = Diagram::empty(&shape, "Odnocvetnie: the man on 28 is locked");
    for n in [28, 32, 33, 19, 23, 24, 37, 12] {
        if let Some((f, r)) = square(n) {
            d.pieces.push(PieceGlyph::man(f, r, PieceColour::Light));
        }
    }
    if let Some((f, r)) = square(3) {
        d.pieces.push(PieceGlyph::king(f, r, PieceColour::Light));
    }
    let (a, b) = (square(28).unwrap(), square(22).unwrap());
    d.marks.push((a.0, a.1, Mark::Highlight));
    d.arrows.push(Arrow {
        squares: vec![a, b],
        style: ArrowStyle::Played,
    });
    d.captions
        .push("West moved the man South moved last turn (28-22).".into());
    d
}

fn thaayam_diagram() -> Diagram {
    let mut d = Diagram::empty(
        &synth::THAAYAM.profile.board,
        "Thaayam: throw 4 left unused",
    );
    for (f, r) in [(2, 2), (2, 0), (4, 2), (2, 4), (0, 2)] {
        d.marks.push((f, r, Mark::Cross));
    }
    let mut south = PieceGlyph::man(3, 0, PieceColour::Seat(0));
    south.label = Some("S".into());
    d.pieces.push(south);
    let mut twins = PieceGlyph::man(2, 4, PieceColour::Seat(0));
    twins.twin = true;
    twins.label = Some("S".into());
    d.pieces.push(twins);
    let mut north = PieceGlyph::man(1, 4, PieceColour::Seat(2));
    north.count = 2;
    north.label = Some("N".into());
    d.pieces.push(north);
    d.pieces.push(PieceGlyph {
        label: Some("N".into()),
        ..PieceGlyph::man(2, 2, PieceColour::Seat(2))
    });
    d.arrows.push(Arrow {
        squares: vec![(3, 0), (4, 0), (4, 1)],
        style: ArrowStyle::Played,
    });
    d.captions
        .push("Series [4 1 2]: the 4 could have moved the twins on c5.".into());
    d
}

fn main() -> std::io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("/tmp/stats-demo"), PathBuf::from);
    std::fs::create_dir_all(&dir)?;
    let mut rng = synth::Rng::new(2024);
    let mut stats = Stats::default();
    for _ in 0..20_000 {
        stats.add(&synth::game(&mut rng).input());
    }
    let mut extras = ReportExtras::new();
    extras.set_title("arbiter statistics — synthetic demo corpus");
    for (game, code, diagram) in [
        (&synth::TAMA, "non-maximal-capture", tama_diagram()),
        (&synth::ODNOCVETNIE, "locked-piece", odnocvetnie_diagram()),
        (&synth::THAAYAM, "unused-throw", thaayam_diagram()),
    ] {
        extras.add_example(ProblemExample {
            title: format!("demo.pdn, {}", diagram.title),
            game: game.label.into(),
            code: code.into(),
            message: diagram.captions.join(" "),
            diagram: Some(diagram.clone()),
        });
        diagram.write_png(&dir.join(format!("diagram-{code}.png")))?;
    }
    let files = report::write_report(&stats, &dir, &extras)?;
    println!(
        "{} games; wrote {} ({} charts) and {}",
        stats.games(),
        files.html.display(),
        files.charts.len(),
        files.json.display()
    );
    Ok(())
}
