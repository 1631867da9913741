//! Square names and numbers of a board: pure arithmetic over its shape, shared by the
//! statistics (capture squares) and the drawings of the `report` crate.

/// Is `(file, rank)` a dark square? a1 is dark, and colours alternate.
pub fn is_dark(file: u8, rank: u8) -> bool {
    (file + rank).is_multiple_of(2)
}

/// The number of a dark square of a `files` × `ranks` board, counting the dark squares row by
/// row from the far side (the top rank as the first seat sees it), left to right, from 1 — as
/// international draughts numbers its board (1 = b10, 46 = a1 on 10×10). `None` for a light
/// square or one off the board.
pub fn dark_square_number(files: u8, ranks: u8, file: u8, rank: u8) -> Option<u32> {
    if file >= files || rank >= ranks || !is_dark(file, rank) {
        return None;
    }
    // Dark squares on the rows above (rows of an odd width alternate between two counts),
    // then those left of the square on its own row.
    let dark_in = |r: u8, below: u8| (0..below).filter(|&f| is_dark(f, r)).count() as u32;
    let earlier: u32 = (rank + 1..ranks).map(|r| dark_in(r, files)).sum();
    Some(earlier + dark_in(rank, file) + 1)
}

/// The dark square numbered `n` on a `files` × `ranks` board (see [`dark_square_number`]),
/// as `(file, rank)`.
pub fn numbered_dark_square(files: u8, ranks: u8, n: u32) -> Option<(u8, u8)> {
    let mut k = 0u32;
    for rank in (0..ranks).rev() {
        for file in 0..files {
            if is_dark(file, rank) {
                k += 1;
                if k == n {
                    return Some((file, rank));
                }
            }
        }
    }
    None
}

/// The name of a square of a board of this shape: its number on a board of dark squares only
/// ([`dark_square_number`]), else algebraic (`a1`, file letter then rank from 1).
pub fn square_name(shape: &game::BoardShape, file: u8, rank: u8) -> String {
    if shape.style == game::BoardStyle::DarkOnly {
        if let Some(n) = dark_square_number(shape.files, shape.ranks, file, rank) {
            return n.to_string();
        }
    }
    format!("{}{}", char::from(b'a' + file.min(25)), u32::from(rank) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_squares() {
        // International draughts, seen from the first seat: 1 = b10, 5 = j10, 6 = a9,
        // 46 = a1, 50 = i1.
        for (n, f, r) in [
            (1, 1, 9),
            (5, 9, 9),
            (6, 0, 8),
            (10, 8, 8),
            (46, 0, 0),
            (50, 8, 0),
        ] {
            assert_eq!(numbered_dark_square(10, 10, n), Some((f, r)), "square {n}");
            assert_eq!(dark_square_number(10, 10, f, r), Some(n), "square {n}");
        }
        assert_eq!(numbered_dark_square(10, 10, 0), None);
        assert_eq!(numbered_dark_square(10, 10, 51), None);
        assert_eq!(dark_square_number(10, 10, 1, 0), None, "b1 is light");
        // Every board: the numbers are 1..=dark squares, each once, both ways.
        for (files, ranks) in [(8, 8), (10, 10), (12, 12), (5, 7), (7, 5)] {
            let dark = (0..files)
                .flat_map(|f| (0..ranks).map(move |r| (f, r)))
                .filter(|&(f, r)| (f + r) % 2 == 0)
                .count() as u32;
            for n in 1..=dark {
                let (f, r) = numbered_dark_square(files, ranks, n).unwrap();
                assert_eq!(dark_square_number(files, ranks, f, r), Some(n));
            }
            assert_eq!(numbered_dark_square(files, ranks, dark + 1), None);
        }
    }
}
