//! The 5x5 board, the seats and their routes (rules 1 and 3).

use std::fmt;

/// A square of the 5x5 board, seen from South: `a1` = 0, `b1` = 1, …, `e1` = 4, `a2` = 5, …,
/// `e5` = 24.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The keep, `c3`: the end of every route.
    pub const KEEP: Square = Square(12);

    /// The square with this index (0..25), if it exists.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 25 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are below 5.
    pub const fn at(file: u8, rank: u8) -> Option<Square> {
        if file < 5 && rank < 5 {
            Some(Square(rank * 5 + file))
        } else {
            None
        }
    }

    /// The index 0..25 (`a1` = 0, `e5` = 24).
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file, 0 = `a` … 4 = `e`.
    pub const fn file(self) -> u8 {
        self.0 % 5
    }

    /// The rank, 0 = `1` … 4 = `5`.
    pub const fn rank(self) -> u8 {
        self.0 / 5
    }

    /// True for the five marked (safe) squares: the keep and the four palaces (rule 1).
    pub const fn is_marked(self) -> bool {
        matches!(self.0, 2 | 10 | 12 | 14 | 22)
    }

    /// Reads a square name such as `c1` (lower case).
    pub fn parse(text: &[u8]) -> Option<Square> {
        match text {
            [f @ b'a'..=b'e', r @ b'1'..=b'5'] => Square::at(f - b'a', r - b'1'),
            _ => None,
        }
    }

    /// The two-byte name, e.g. `*b"c1"`.
    pub const fn name_bytes(self) -> [u8; 2] {
        [b'a' + self.file(), b'1' + self.rank()]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.name_bytes();
        write!(f, "{}{}", a as char, b as char)
    }
}

/// Seat letters by seat index: 0 South, 1 West, 2 North, 3 East.
pub const SEAT_LETTERS: [u8; 4] = *b"SWNE";

/// Seat names by seat index.
pub const SEAT_NAMES: [&str; 4] = ["South", "West", "North", "East"];

/// The letter of a seat index (`S`, `W`, `N`, `E`).
pub fn seat_letter(seat: u8) -> char {
    SEAT_LETTERS[usize::from(seat & 3)] as char
}

/// The name of a seat index (`South`, …).
pub fn seat_name(seat: u8) -> &'static str {
    SEAT_NAMES[usize::from(seat & 3)]
}

/// The seat index of a seat letter.
pub fn seat_from_letter(letter: u8) -> Option<u8> {
    SEAT_LETTERS
        .iter()
        .position(|&l| l == letter)
        .map(|i| i as u8)
}

/// Length of a route: 24 squares and then the keep.
pub const ROUTE_LEN: usize = 25;
/// Route index of the keep.
pub const KEEP_INDEX: u8 = 24;
/// Route index of the opposite palace, where twins are declared (rule 15).
pub const TWIN_INDEX: u8 = 8;

/// South's route by index, as square names (rule 3).
const SOUTH_ROUTE: [&[u8; 2]; ROUTE_LEN] = [
    b"c1", b"d1", b"e1", b"e2", b"e3", b"e4", b"e5", b"d5", b"c5", b"b5", b"a5", b"a4", b"a3",
    b"a2", b"a1", b"b1", b"b2", b"b3", b"b4", b"c4", b"d4", b"d3", b"d2", b"c2", b"c3",
];

/// Quarter turns anticlockwise from South's route, per seat index (S, W, N, E).
const TURNS: [u8; 4] = [0, 3, 2, 1];

const fn rotate(square: u8, turns: u8) -> u8 {
    let mut file = square % 5;
    let mut rank = square / 5;
    let mut t = 0;
    while t < turns {
        // A quarter turn anticlockwise about c3: (file, rank) -> (4 - rank, file).
        let f = 4 - rank;
        rank = file;
        file = f;
        t += 1;
    }
    rank * 5 + file
}

const fn build_routes() -> ([[u8; ROUTE_LEN]; 4], [[u8; 25]; 4]) {
    let mut route = [[0u8; ROUTE_LEN]; 4];
    let mut index = [[0u8; 25]; 4];
    let mut seat = 0;
    while seat < 4 {
        let mut i = 0;
        while i < ROUTE_LEN {
            let name = SOUTH_ROUTE[i];
            let south = (name[1] - b'1') * 5 + (name[0] - b'a');
            let sq = rotate(south, TURNS[seat]);
            route[seat][i] = sq;
            index[seat][sq as usize] = i as u8;
            i += 1;
        }
        seat += 1;
    }
    (route, index)
}

const TABLES: ([[u8; ROUTE_LEN]; 4], [[u8; 25]; 4]) = build_routes();
/// `ROUTE[seat][i]`: the board square (index) of route index `i`.
pub(crate) const ROUTE: [[u8; ROUTE_LEN]; 4] = TABLES.0;
/// `INDEX[seat][square]`: the route index of a board square.
pub(crate) const INDEX: [[u8; 25]; 4] = TABLES.1;

/// The board square at route index `i` (0..=24) of `seat`'s route.
pub fn route_square(seat: u8, i: u8) -> Square {
    Square(ROUTE[usize::from(seat & 3)][usize::from(i.min(KEEP_INDEX))])
}

/// The route index (0..=24) of `square` on `seat`'s route.
pub fn route_index(seat: u8, square: Square) -> u8 {
    INDEX[usize::from(seat & 3)][usize::from(square.0)]
}

/// Appends `n` in decimal (these writers run for every ply of an export: no formatting
/// machinery).
pub(crate) fn push_number(out: &mut String, n: u8) {
    if n >= 100 {
        out.push(char::from(b'0' + n / 100));
    }
    if n >= 10 {
        out.push(char::from(b'0' + n / 10 % 10));
    }
    out.push(char::from(b'0' + n % 10));
}

/// Appends a square's name (`c3`).
pub(crate) fn push_square(out: &mut String, square: Square) {
    let [file, rank] = square.name_bytes();
    out.push(char::from(file));
    out.push(char::from(rank));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(seat: u8) -> Vec<String> {
        (0..25).map(|i| route_square(seat, i).to_string()).collect()
    }

    #[test]
    fn routes_are_rotations() {
        assert_eq!(names(0)[..5], ["c1", "d1", "e1", "e2", "e3"]);
        assert_eq!(names(3)[..5], ["e3", "e4", "e5", "d5", "c5"]);
        assert_eq!(names(2)[0], "c5");
        assert_eq!(names(1)[0], "a3");
        for seat in 0..4 {
            let mut seen = [false; 25];
            for i in 0..25u8 {
                let sq = route_square(seat, i);
                assert!(!seen[sq.index() as usize]);
                seen[sq.index() as usize] = true;
                assert_eq!(route_index(seat, sq), i);
            }
            assert_eq!(route_square(seat, KEEP_INDEX), Square::KEEP);
        }
        // The opposite palace: index 8 is the palace of the seat across the board.
        assert_eq!(route_square(0, 8).to_string(), "c5");
        assert_eq!(route_square(2, 8).to_string(), "c1");
        assert_eq!(route_square(3, 8).to_string(), "a3");
        assert_eq!(route_square(1, 8).to_string(), "e3");
    }
}
