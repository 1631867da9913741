//! Diagrams made from the rules crates' neutral board description (`game::Board`).

use game::{Board, BoardPiece, BoardStyle, Seat, SquareMark};
use report::{ArrowStyle, Diagram, Mark, PieceColour, SquareStyle};

const TWO: &[&str] = &["White", "Black"];
const FOUR: &[&str] = &["South", "West", "North", "East"];

#[test]
fn two_seats_are_light_and_dark() {
    let mut b = Board::new(8, 8, BoardStyle::Checkered, TWO, Seat(1));
    b.pieces.push(BoardPiece::man(2, 2, Some(0)));
    b.pieces.push(BoardPiece {
        king: true,
        ..BoardPiece::man(3, 5, Some(1))
    });
    let d = Diagram::from_board(&b, "Tama");
    assert_eq!(
        (d.files, d.ranks, d.squares),
        (8, 8, SquareStyle::Checkered)
    );
    assert!(!d.numbered);
    assert_eq!(d.pieces[0].colour, PieceColour::Light);
    assert_eq!(d.pieces[1].colour, PieceColour::Dark);
    assert!(d.pieces[1].king && !d.pieces[0].king);
    assert!(d.pieces.iter().all(|p| p.label.is_none()));
    assert_eq!(d.captions, ["Black to move."]);
}

#[test]
fn ownerless_pieces_numbered_board_and_lock() {
    let mut b = Board::new(10, 10, BoardStyle::DarkOnly, FOUR, Seat(1));
    b.pieces.push(BoardPiece::man(4, 4, None));
    b.marks.push((4, 4, SquareMark::Locked));
    b.notes.push("The man on 28 is locked.".into());
    let d = Diagram::from_board(&b, "Odnocvetnie");
    assert!(d.numbered);
    assert_eq!(d.squares, SquareStyle::DarkOnly);
    assert_eq!(d.pieces[0].colour, PieceColour::Light);
    assert_eq!(d.pieces[0].label, None);
    assert_eq!(d.marks, [(4, 4, Mark::Highlight)]);
    assert_eq!(d.captions, ["West to move.", "The man on 28 is locked."]);
}

#[test]
fn four_seats_have_colours_letters_stacks_and_twins() {
    let mut b = Board::new(5, 5, BoardStyle::Plain, FOUR, Seat(0));
    b.marks.push((2, 2, SquareMark::Safe));
    b.pieces.push(BoardPiece {
        count: 2,
        ..BoardPiece::man(3, 0, Some(0))
    });
    b.pieces.push(BoardPiece {
        twin: true,
        ..BoardPiece::man(2, 4, Some(0))
    });
    b.pieces.push(BoardPiece::man(2, 4, Some(2)));
    let d = Diagram::from_board(&b, "Thaayam");
    assert_eq!(d.marks, [(2, 2, Mark::Cross)]);
    assert_eq!(d.pieces[0].colour, PieceColour::Seat(0));
    assert_eq!(d.pieces[0].count, 2);
    assert_eq!(d.pieces[0].label.as_deref(), Some("S"));
    assert!(d.pieces[1].twin);
    assert_eq!(d.pieces[2].colour, PieceColour::Seat(2));
    assert_eq!(d.pieces[2].label.as_deref(), Some("N"));
    // The two pieces on c5 are drawn apart: the seat labels stand at different places.
    let svg = d.to_svg();
    let label_x = |letter: &str| -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter(|t| {
                let body = t.split_once('>').map_or("", |(_, b)| b);
                body.split("</text>").next().map(str::trim) == Some(letter)
            })
            .filter_map(|t| t.split("x=\"").nth(1)?.split('"').next().map(String::from))
            .collect()
    };
    let (s, n) = (label_x("S"), label_x("N"));
    assert_eq!((s.len(), n.len()), (2, 1), "{svg}");
    assert!(!s.contains(&n[0]), "S at {s:?}, N at {n:?}");
}

#[test]
fn paths_become_arrows_or_highlights() {
    let b = Board::new(5, 5, BoardStyle::Plain, FOUR, Seat(0));
    let mut d = Diagram::from_board(&b, "t");
    d.add_paths(
        &[vec![(2, 0), (4, 0), (4, 2)], vec![(2, 0)], vec![]],
        ArrowStyle::Played,
    );
    d.add_paths(&[vec![(2, 0), (4, 0), (4, 4)]], ArrowStyle::Suggested);
    assert_eq!(d.arrows.len(), 2);
    assert_eq!(d.arrows[0].squares, [(2, 0), (4, 0), (4, 2)]);
    assert_eq!(d.arrows[0].style, ArrowStyle::Played);
    assert_eq!(d.arrows[1].style, ArrowStyle::Suggested);
    assert_eq!(d.marks, [(2, 0, Mark::Highlight)]);
    // The same highlight is not added twice.
    d.add_paths(&[vec![(2, 0)]], ArrowStyle::Suggested);
    assert_eq!(d.marks.len(), 1);
}

#[test]
fn extras_say_whether_an_example_would_be_kept() {
    use report::{ProblemExample, ReportExtras, MAX_EXAMPLES_PER_CODE};
    let mut extras = ReportExtras::new();
    let example = |code: &str| ProblemExample {
        title: "t".into(),
        game: "Tama".into(),
        code: code.into(),
        message: "m".into(),
        diagram: None,
    };
    for _ in 0..MAX_EXAMPLES_PER_CODE {
        assert!(extras.accepts("Tama", "illegal-move"));
        assert!(extras.add_example(example("illegal-move")));
    }
    assert!(!extras.accepts("Tama", "illegal-move"));
    assert!(extras.accepts("Tama", "locked-piece"));
    assert!(extras.accepts("Thaayam", "illegal-move"));
    extras.skip_example("Tama", "illegal-move");
    assert!(!extras.add_example(example("illegal-move")));
    assert_eq!(extras.dropped(), 2);
    assert_eq!(extras.examples().len(), MAX_EXAMPLES_PER_CODE);
}
