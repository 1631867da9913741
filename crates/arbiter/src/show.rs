//! `arbiter show`: draw the position of one game after some plies of its main line.

use std::io::Write;
use std::path::{Path, PathBuf};

use ::report::{ArrowStyle, Diagram};
use referee::{BoardAt, GameInfo, GameReport, Referee, Settings, Severity};

use crate::exit::Stop;
use crate::output::{self, Output};
use ::archive::Source;

/// What to draw and where.
#[derive(Debug, Clone)]
pub struct Request {
    /// The records.
    pub input: Source,
    /// Which game of the input, from 1.
    pub index: u64,
    /// Plies of the main line to play first (`None`: up to where the main line ends).
    pub ply: Option<u32>,
    /// The game, whatever the `Variant` tag says.
    pub game: Option<&'static GameInfo>,
    /// The game where no tag names one.
    pub default_game: Option<&'static GameInfo>,
    /// Ruleset options, whatever the `Rules` tag says.
    pub rules: Option<String>,
    /// The picture: `.svg` or `.png`.
    pub output: PathBuf,
}

/// What was drawn.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The diagram's title.
    pub title: String,
    /// Things the user should know (e.g. where the replay stopped).
    pub notes: Vec<String>,
    /// The diagram written.
    pub diagram: Diagram,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Picture {
    Svg,
    Png,
}

fn picture(path: &Path) -> Result<Picture, Stop> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("svg") => Ok(Picture::Svg),
        Some("png") => Ok(Picture::Png),
        _ => Err(Stop::Usage(format!(
            "{}: the picture's name must end in .svg or .png",
            path.display()
        ))),
    }
}

/// Draws the requested position and writes the picture (`-`: SVG on standard output).
pub fn show(request: &Request) -> Result<Shown, Stop> {
    let out = &request.output;
    let kind = if output::is_stdout(out) {
        Picture::Svg
    } else {
        picture(out)?
    };
    let shown = draw(request)?;
    let mut file = Output::create(Some(out))?;
    let written = match kind {
        Picture::Png => shown.diagram.write_png_to(&mut file),
        Picture::Svg => file.write_all(shown.diagram.to_svg().as_bytes()),
    };
    written
        .map_err(|e| Stop::Usage(format!("{}: cannot write the picture: {e}", out.display())))?;
    file.commit()
        .map_err(|e| Stop::Usage(format!("{}: cannot write the picture: {e}", out.display())))?;
    Ok(shown)
}

/// Reads up to the requested game and returns its report.
fn find_game(request: &Request) -> Result<GameReport, Stop> {
    let name = request.input.name();
    if request.index == 0 {
        return Err(Stop::Usage(
            "games are counted from 1: --index 1 is the first".to_string(),
        ));
    }
    let settings = Settings {
        game: request.game,
        default_game: request.default_game,
        rules: request.rules.clone(),
        board_at: Some(request.ply.map_or(BoardAt::End, BoardAt::Ply)),
        ..Settings::default()
    };
    let mut referee = Referee::new(games::games(), settings);
    let source = request
        .input
        .open(games::games())
        .map_err(|e| Stop::Usage(format!("{name}: cannot read: {e}")))?;
    let mut reader = pdn::Reader::new(source);
    let mut seen = 0u64;
    loop {
        let game = reader
            .read_game(&mut referee)
            .map_err(|e| Stop::Usage(format!("{name}: cannot read: {e}")))?;
        let Some(game) = game else {
            return Err(Stop::Usage(format!(
                "{name} has {seen} game{}; there is no game {}",
                if seen == 1 { "" } else { "s" },
                request.index
            )));
        };
        seen += 1;
        if seen == request.index {
            return Ok(game);
        }
    }
}

/// The first error about ply `ply` of the game, as `code: message`.
fn error_at(game: &GameReport, ply: u32) -> Option<String> {
    game.diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error && d.ply == Some(ply))
        .map(|d| format!("{}: {}", d.code, d.message))
}

/// Replays the requested game and draws the position.
pub fn draw(request: &Request) -> Result<Shown, Stop> {
    let name = request.input.name();
    let n = request.index;
    let game = find_game(request)?;
    let Some(info) = game.game else {
        let why = game
            .diagnostics
            .iter()
            .find(|d| d.code == "unknown-game")
            .map_or_else(String::new, |d| format!(": {}", d.message));
        return Err(Stop::Usage(format!(
            "game {n} of {name} cannot be drawn{why}"
        )));
    };
    let Some(view) = game.position.as_ref() else {
        // The position was not reached.
        let first_error = game
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map(|d| format!("{}: {}", d.code, d.message));
        return Err(Stop::Usage(match request.ply {
            Some(p) if p > game.plies_written => format!(
                "game {n} of {name} has {} plies in its main line; --ply {p} is past its end",
                game.plies_written
            ),
            Some(p) => format!(
                "game {n} of {name} cannot be replayed to ply {p}: ply {} has a problem ({})",
                game.plies + 1,
                error_at(&game, game.plies + 1)
                    .or(first_error)
                    .unwrap_or_else(|| "unknown".into())
            ),
            None => format!(
                "game {n} of {name} has no position to draw ({})",
                first_error.unwrap_or_else(|| "its start position cannot be set up".into())
            ),
        }));
    };
    let board = &view.board;
    let label = info.label;
    let mut notes = Vec::new();
    let at = match view.ply {
        0 => "at the start".to_string(),
        p => format!("after ply {p}"),
    };
    let title = format!("{label}: {name}, game {n}, {at}");
    let mut diagram = Diagram::from_board(board, title.clone());
    diagram.add_paths(&view.last_move, ArrowStyle::Played);
    if view.last_move.iter().any(|p| p.len() > 1) {
        diagram.captions.push(format!(
            "Solid blue: ply {}, the last move played.",
            view.ply
        ));
    }
    if request.ply.is_none() && view.ply < game.plies_written {
        let why = error_at(&game, view.ply + 1).unwrap_or_else(|| "a problem".into());
        let note = format!(
            "the main line cannot be replayed past ply {}: ply {} has {why}",
            view.ply,
            view.ply + 1
        );
        diagram.captions.push(format!(
            "The replay stops here: ply {} has {why}",
            view.ply + 1
        ));
        notes.push(note);
    }
    Ok(Shown {
        title,
        notes,
        diagram,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch folder removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(tag: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!(
                "arbiter-show-{tag}-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn file(&self, name: &str, text: &str) -> PathBuf {
            let p = self.0.join(name);
            std::fs::write(&p, text).unwrap();
            p
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    const GAMES: &str = r#"[Variant "Tama"]

1. c3-c4 f6-f5 2. c4-c5 *

[Variant "Odnocvetnie"]

1. 42x33 *

[Variant "Thaayam"]
[Seats "S N"]

1. S [1 4 2] in c1+4+2 N [3] *

[Variant "Chess"]

1. e4 *
"#;

    fn request(path: &Path, index: u64, ply: Option<u32>, out: PathBuf) -> Request {
        Request {
            input: Source::File(path.to_path_buf()),
            index,
            ply,
            game: None,
            default_game: None,
            rules: None,
            output: out,
        }
    }

    /// The pieces of a diagram as `(file, rank, colour)`, sorted.
    fn pieces(d: &Diagram) -> Vec<(u8, u8, ::report::PieceColour)> {
        let mut v: Vec<_> = d
            .pieces
            .iter()
            .map(|p| (p.file, p.rank, p.colour))
            .collect();
        v.sort_by_key(|p| (p.0, p.1));
        v
    }

    #[test]
    fn svg_of_each_game() {
        let dir = Scratch::new("svg");
        let pdn = dir.file("g.pdn", GAMES);
        // Thaayam's last turn (North throws a 3 with no piece out) moves nothing.
        for (game, expect, arrows) in [
            (1, "Tama", 1),
            (2, "Odnocvetnie Shashki", 1),
            (3, "Thaayam", 0),
        ] {
            let out = dir.0.join(format!("g{game}.svg"));
            let shown = show(&request(&pdn, game, None, out.clone())).unwrap();
            assert!(shown.title.starts_with(expect), "{}", shown.title);
            assert!(shown.notes.is_empty(), "{:?}", shown.notes);
            let svg = std::fs::read_to_string(&out).unwrap();
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            assert!(svg.contains(expect), "title in the picture");
            // The last move is drawn.
            assert_eq!(shown.diagram.arrows.len(), arrows, "{game}");
        }
    }

    #[test]
    fn png_of_each_game() {
        let dir = Scratch::new("png");
        let pdn = dir.file("g.pdn", GAMES);
        for game in 1..=3 {
            let out = dir.0.join(format!("g{game}.png"));
            show(&request(&pdn, game, Some(1), out.clone())).unwrap();
            let bytes = std::fs::read(&out).unwrap();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
            assert!(bytes.len() > 3_000, "{} bytes", bytes.len());
        }
    }

    #[test]
    fn tama_after_some_plies() {
        use ::report::PieceColour::{Dark, Light};
        let dir = Scratch::new("tama");
        let pdn = dir.file("g.pdn", GAMES);
        let out = dir.0.join("t.svg");
        let start = draw(&request(&pdn, 1, Some(0), out.clone())).unwrap();
        assert!(start.title.ends_with("at the start"), "{}", start.title);
        assert!(start.diagram.arrows.is_empty());
        let p = pieces(&start.diagram);
        assert_eq!(p.len(), 32);
        assert!(p.contains(&(2, 2, Light)) && p.contains(&(5, 5, Dark)));
        let two = draw(&request(&pdn, 1, Some(2), out.clone())).unwrap();
        let p = pieces(&two.diagram);
        assert_eq!(p.len(), 32);
        // c3-c4 and f6-f5 played: c4 white, f5 black; c3 and f6 empty.
        assert!(p.contains(&(2, 3, Light)) && p.contains(&(5, 4, Dark)));
        assert!(!p
            .iter()
            .any(|q| (q.0, q.1) == (2, 2) || (q.0, q.1) == (5, 5)));
        assert_eq!(two.diagram.arrows[0].squares, [(5, 5), (5, 4)]);
        assert_eq!(two.diagram.captions[0], "White to move.");
        let end = draw(&request(&pdn, 1, None, out)).unwrap();
        assert!(end.title.ends_with("after ply 3"), "{}", end.title);
        assert!(pieces(&end.diagram).contains(&(2, 4, Light)));
    }

    #[test]
    fn odnocvetnie_and_thaayam_after_one_ply() {
        let dir = Scratch::new("four");
        let pdn = dir.file("g.pdn", GAMES);
        let out = dir.0.join("o.svg");
        // 42x33 (d2 over e3 to f4) takes one of the 42 men.
        let o = draw(&request(&pdn, 2, Some(1), out.clone())).unwrap();
        assert_eq!(o.diagram.pieces.len(), 41);
        assert!(o.diagram.numbered);
        assert_eq!(o.diagram.captions[0], "West to move.");
        // The man that moved is locked.
        let to = o.diagram.arrows[0].squares.last().copied().unwrap();
        assert!(o
            .diagram
            .marks
            .contains(&(to.0, to.1, ::report::Mark::Highlight)));
        // Thaayam: South entered a piece and moved it c1+6 to e5.
        let t = draw(&request(&pdn, 3, Some(1), out)).unwrap();
        let p = pieces(&t.diagram);
        assert_eq!(p, [(4, 4, ::report::PieceColour::Seat(0))]);
        assert_eq!(t.diagram.pieces[0].label.as_deref(), Some("S"));
        assert_eq!(t.diagram.captions[0], "North to move.");
        assert!(t.diagram.captions.contains(&"South: 3 in hand".to_string()));
    }

    #[test]
    fn clear_errors() {
        let dir = Scratch::new("errors");
        let pdn = dir.file("g.pdn", GAMES);
        let out = dir.0.join("x.svg");
        let err = |game, ply| {
            draw(&request(&pdn, game, ply, out.clone()))
                .unwrap_err()
                .to_string()
        };
        assert!(err(9, None).contains("has 4 games; there is no game 9"));
        assert!(err(4, None).contains("not a game arbiter knows"));
        assert!(err(1, Some(7)).contains("has 3 plies in its main line; --ply 7 is past its end"));
        assert!(err(0, None).contains("counted from 1"));
        let bad = show(&request(&pdn, 1, None, dir.0.join("x.jpg")))
            .unwrap_err()
            .to_string();
        assert!(bad.contains(".svg or .png"), "{bad}");
        // --variant makes the chess game a Tama game, whose first move is illegal.
        let mut r = request(&pdn, 4, Some(1), out.clone());
        r.game = games::games().registry().by_name("tama");
        let e = draw(&r).unwrap_err().to_string();
        assert!(
            e.contains("cannot be replayed to ply 1: ply 1 has a problem (illegal-move"),
            "{e}"
        );
    }

    #[test]
    fn a_broken_main_line_stops_at_its_error() {
        let dir = Scratch::new("broken");
        let pdn = dir.file(
            "b.pdn",
            "[Variant \"Tama\"]\n\n1. c3-c4 f6-f5 2. c4-c6 f5-f4 *\n",
        );
        let shown = draw(&request(&pdn, 1, None, dir.0.join("b.svg"))).unwrap();
        assert!(shown.title.ends_with("after ply 2"), "{}", shown.title);
        assert_eq!(shown.notes.len(), 1);
        assert!(
            shown.notes[0].contains("cannot be replayed past ply 2: ply 3 has illegal-move"),
            "{:?}",
            shown.notes
        );
        assert!(shown
            .diagram
            .captions
            .iter()
            .any(|c| c.starts_with("The replay stops here")));
    }
}
