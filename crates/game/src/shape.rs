//! What a record shows of its game before anyone knows which game it is: how its squares are
//! written and how far they reach ([`RecordShape`]), and the record shapes a game is the one
//! to pick for when several games accept a record that names none ([`Claim`]).
//!
//! Nothing here names a game: each game declares its claims in its [`crate::GameInfo`].

use std::fmt;

use crate::{BoardStyle, GameInfo, Seat};

/// How the squares of a record's moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SquareStyle {
    /// Numbers (`32-28`).
    Numeric,
    /// A file letter and a rank number (`c3-d4`).
    Algebraic,
}

impl fmt::Display for SquareStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SquareStyle::Numeric => "numbers",
            SquareStyle::Algebraic => "algebraic names",
        })
    }
}

/// A record shape that a game is the one to pick for: when a record names no game and its
/// moves are accepted by several games, the accepting game that claims the record's shape is
/// chosen (docs/notation.md, "Records that name no game"). The board is the game's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Claim {
    /// The squares are written this way (a record without moves: its FEN is).
    pub squares: SquareStyle,
    /// The seat that makes the record's first move (from its FEN, else the game's start);
    /// `None`: either.
    pub first: Option<Seat>,
    /// Why this game is the one people mean, in a few words.
    pub reason: &'static str,
}

/// What a record's move tokens (and, without moves, its FEN) show of its game: the square
/// style and the largest square named. Filled token by token while a record is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RecordShape {
    /// Some move token names its squares as numbers.
    pub numeric: bool,
    /// Some move token names its squares algebraically.
    pub algebraic: bool,
    /// The largest square number in a numeric token.
    pub max_number: u32,
    /// The largest file (0 = a) in an algebraic token.
    pub max_file: u8,
    /// The largest rank (1-based) in an algebraic token.
    pub max_rank: u8,
    /// With no move token: the style of the FEN's squares.
    pub fen_style: Option<SquareStyle>,
}

impl RecordShape {
    /// The empty shape (nothing seen yet).
    pub const EMPTY: RecordShape = RecordShape {
        numeric: false,
        algebraic: false,
        max_number: 0,
        max_file: 0,
        max_rank: 0,
        fen_style: None,
    };

    /// Takes in one move token. A token made only of digits and separators (`32-28`,
    /// `28x17x6`, `3228`) names numbered squares; a file letter followed by a rank (`c3`)
    /// is an algebraic square wherever it stands (`c3xe5`, Thaayam's `c1+4`). Anything else
    /// (`S`, `in`, throw groups) shows nothing.
    pub fn add_token(&mut self, token: &[u8]) {
        if is_numeric_token(token) {
            self.add_numbers(token);
            return;
        }
        let mut i = 0;
        while i < token.len() {
            let c = token[i].to_ascii_lowercase();
            // Files run from a to l (12 files at most); `x` is a capture sign, never a file.
            let is_file = (b'a'..=b'l').contains(&c);
            // A letter after another begins no square (`in`), unless that one is the `x` of
            // a capture (`c3xe5`).
            let capture_x =
                i > 1 && matches!(token[i - 1], b'x' | b'X') && token[i - 2].is_ascii_digit();
            let prev_letter = i > 0 && token[i - 1].is_ascii_alphabetic() && !capture_x;
            if is_file && !prev_letter {
                let digits = token[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                if (1..=2).contains(&digits) {
                    let rank = parse_small(&token[i + 1..i + 1 + digits]);
                    self.algebraic = true;
                    self.max_file = self.max_file.max(c - b'a');
                    self.max_rank = self.max_rank.max(rank.min(255) as u8);
                    i += 1 + digits;
                    continue;
                }
            }
            i += 1;
        }
    }

    fn add_numbers(&mut self, token: &[u8]) {
        let runs = token
            .split(|b| !b.is_ascii_digit())
            .filter(|r| !r.is_empty());
        let mut seen = false;
        for run in runs {
            seen = true;
            // `3228`: two squares written without a separator.
            if run.len() == 4 && !token.iter().any(|b| !b.is_ascii_digit()) {
                let (a, b) = run.split_at(2);
                self.max_number = self.max_number.max(parse_small(a)).max(parse_small(b));
            } else if run.len() <= 3 {
                self.max_number = self.max_number.max(parse_small(run));
            }
        }
        self.numeric |= seen;
    }

    /// Takes in the FEN tag: its square style counts when the record has no moves (a lower
    /// case file letter `a` to `j` followed by a digit is algebraic; digits alone are
    /// numbers; `k5` is a king in numbers, as draughts FENs write it).
    pub fn add_fen(&mut self, fen: &str) {
        let b = fen.as_bytes();
        let algebraic = b
            .windows(2)
            .any(|w| (b'a'..=b'j').contains(&w[0]) && w[1].is_ascii_digit());
        self.fen_style = if algebraic {
            Some(SquareStyle::Algebraic)
        } else if b.iter().any(u8::is_ascii_digit) {
            Some(SquareStyle::Numeric)
        } else {
            None
        };
    }

    /// The one style the record writes its squares in (`None`: none seen, or both).
    pub fn style(&self) -> Option<SquareStyle> {
        match (self.numeric, self.algebraic) {
            (true, false) => Some(SquareStyle::Numeric),
            (false, true) => Some(SquareStyle::Algebraic),
            (false, false) => self.fen_style,
            (true, true) => None,
        }
    }
}

/// Digits and separators only, with at least one digit (trailing marks allowed).
fn is_numeric_token(token: &[u8]) -> bool {
    token.iter().any(u8::is_ascii_digit)
        && token.iter().all(|&b| {
            b.is_ascii_digit()
                || matches!(
                    b,
                    b'-' | b'x' | b'X' | b':' | b' ' | b'!' | b'?' | b'+' | b'#'
                )
                || b >= 0x80
        })
}

/// A run of at most three digits as a number.
fn parse_small(digits: &[u8]) -> u32 {
    digits
        .iter()
        .take(3)
        .fold(0, |n, d| n * 10 + u32::from(d - b'0'))
}

impl GameInfo {
    /// How many squares have numbers: the dark squares of a board played on them, else
    /// every square (0 when the squares have no numeric form).
    pub fn numbered_squares(&self) -> u32 {
        if !self.numeric_squares {
            return 0;
        }
        let b = self.profile.board;
        let all = u32::from(b.files) * u32::from(b.ranks);
        match b.style {
            BoardStyle::DarkOnly | BoardStyle::DarkOnlyTurned => all / 2,
            BoardStyle::Checkered | BoardStyle::Plain => all,
        }
    }

    /// True when the squares a record names exist on this game's board in the way they are
    /// written.
    pub fn fits(&self, shape: &RecordShape) -> bool {
        let b = self.profile.board;
        let numbers = !shape.numeric || shape.max_number <= self.numbered_squares();
        let names = !shape.algebraic || (shape.max_file < b.files && shape.max_rank <= b.ranks);
        numbers && names
    }

    /// The claim of this game on a record of `style` whose first move is made by `first`.
    pub fn claim_for(&self, style: Option<SquareStyle>, first: Option<Seat>) -> Option<&Claim> {
        let style = style?;
        self.claims
            .iter()
            .find(|c| c.squares == style && (c.first.is_none() || c.first == first))
    }

    /// `10x10 squares in numbers, Black moving first`: the record shape a claim stands for.
    pub fn describe_claim(&self, claim: &Claim) -> String {
        let b = self.profile.board;
        let mut text = format!("{}x{} squares in {}", b.files, b.ranks, claim.squares);
        if let Some(seat) = claim.first {
            let name = self.seat_names.get(usize::from(seat.0)).unwrap_or(&"?");
            text.push_str(&format!(", {name} moving first"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(tokens: &[&str]) -> RecordShape {
        let mut s = RecordShape::EMPTY;
        for t in tokens {
            s.add_token(t.as_bytes());
        }
        s
    }

    #[test]
    fn numeric_tokens_give_the_largest_square() {
        let s = shape(&["32-28", "19x28x37", "3228", "1- 6", "06-11", "46x5!"]);
        assert!(s.numeric && !s.algebraic);
        assert_eq!(s.max_number, 46);
        assert_eq!(s.style(), Some(SquareStyle::Numeric));
    }

    #[test]
    fn algebraic_squares_are_found_wherever_they_stand() {
        let s = shape(&["c3-d4", "C3:E5", "h6xf4xd2", "S", "in", "c1+4+2", "[1 4 2]"]);
        assert!(s.algebraic && !s.numeric, "{s:?}");
        assert_eq!((s.max_file, s.max_rank), (7, 6));
        // The `x` of a capture is not a file.
        let s = shape(&["c3xe5"]);
        assert_eq!((s.max_file, s.max_rank), (4, 5));
        assert_eq!(shape(&["a10-b9"]).max_rank, 10);
        assert_eq!(shape(&["c3-d4", "32-28"]).style(), None);
    }

    #[test]
    fn a_record_without_moves_takes_the_style_of_its_fen() {
        let mut s = RecordShape::EMPTY;
        s.add_fen("W:W31-50:B1-20,K5,k7");
        assert_eq!(s.style(), Some(SquareStyle::Numeric));
        s.add_fen("W:Wc3,e2:Bc4");
        assert_eq!(s.style(), Some(SquareStyle::Algebraic));
        s.add_token(b"32-28");
        assert_eq!(s.style(), Some(SquareStyle::Numeric));
    }

    #[test]
    fn a_game_fits_the_squares_its_board_has() {
        use crate::{BoardShape, Profile};
        let info = |files: u8, style: BoardStyle, numeric: bool| GameInfo {
            id: "g",
            label: "G",
            variant_tag: "G",
            aliases: &[],
            game_types: &[],
            options: &[],
            seat_names: &["White", "Black"],
            numeric_squares: numeric,
            profile: Profile {
                two_sides: true,
                shared_pieces: false,
                chance: None,
                counters: &[],
                board: BoardShape {
                    files,
                    ranks: files,
                    style,
                },
            },
            codes: &[],
            claims: &[Claim {
                squares: SquareStyle::Numeric,
                first: Some(Seat(1)),
                reason: "",
            }],
        };
        let eight = info(8, BoardStyle::DarkOnly, true);
        let ten = info(10, BoardStyle::DarkOnly, true);
        let all = info(8, BoardStyle::Checkered, true);
        let named = info(5, BoardStyle::Plain, false);
        assert_eq!(
            [&eight, &ten, &all, &named].map(|g| g.numbered_squares()),
            [32, 50, 64, 0]
        );
        let s = shape(&["32-28", "46-41"]);
        assert!(!eight.fits(&s) && ten.fits(&s) && all.fits(&s) && !named.fits(&s));
        let s = shape(&["c3-d4", "j10-i9"]);
        assert!(!eight.fits(&s) && ten.fits(&s) && !named.fits(&s));
        assert!(named.fits(&shape(&["S", "c1+4"])));
        assert!(eight
            .claim_for(Some(SquareStyle::Numeric), Some(Seat(1)))
            .is_some());
        assert!(eight
            .claim_for(Some(SquareStyle::Numeric), Some(Seat(0)))
            .is_none());
        assert!(eight.claim_for(None, Some(Seat(1))).is_none());
        assert_eq!(
            eight.describe_claim(&eight.claims[0]),
            "8x8 squares in numbers, Black moving first"
        );
    }
}
