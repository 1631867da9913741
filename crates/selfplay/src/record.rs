//! One generated game and its PDN text.

/// Movetext lines are at most this many characters, as the project's canonical writer
/// produces them.
pub(crate) const LINE_WIDTH: usize = 80;

/// A finished game, ready to be written.
#[derive(Debug, Clone, Default)]
pub(crate) struct Record {
    /// Tag pairs, in the order written (values contain no `"` or line break).
    pub(crate) tags: Vec<(&'static str, String)>,
    /// Movetext units, each kept on one line: `1. c3-c4`, `d6-d5`, `2. S [1 2] in c1+2`.
    pub(crate) units: Vec<String>,
    /// The result token.
    pub(crate) result: String,
    /// Plies played (a game of chance: turns).
    pub(crate) plies: u32,
    /// True when the rules ended the game (not the ply cap).
    pub(crate) ended_by_rule: bool,
}

impl Record {
    /// Appends the game as PDN: tags, a blank line, the movetext wrapped at [`LINE_WIDTH`]
    /// with the result last, and a final line break.
    pub(crate) fn write(&self, out: &mut String) {
        for (name, value) in &self.tags {
            out.push('[');
            out.push_str(name);
            out.push_str(" \"");
            out.push_str(value);
            out.push_str("\"]\n");
        }
        out.push('\n');
        let mut col = 0usize;
        for unit in self.units.iter().chain(std::iter::once(&self.result)) {
            if unit.chars().count() <= LINE_WIDTH {
                place(out, &mut col, unit);
            } else {
                // A unit too long for a line (a long turn of several series) is wrapped between its
                // tokens, a move number staying with the token after it.
                for piece in pieces(unit) {
                    place(out, &mut col, piece);
                }
            }
        }
        out.push('\n');
    }
}

/// Appends `text` to the current line, or starts a new line if it would pass
/// [`LINE_WIDTH`].
fn place(out: &mut String, col: &mut usize, text: &str) {
    let len = text.chars().count();
    if *col > 0 {
        if *col + 1 + len > LINE_WIDTH {
            out.push('\n');
            *col = 0;
        } else {
            out.push(' ');
            *col += 1;
        }
    }
    out.push_str(text);
    *col += len;
}

/// Splits a unit at the blanks that are not inside a throw group `[...]`, keeping a move
/// number (`12.`) with the token that follows it.
fn pieces(unit: &str) -> Vec<&str> {
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut depth = 0u32;
    let mut start = 0;
    for (i, c) in unit.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 => {
                if i > start {
                    cuts.push((start, i));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if unit.len() > start {
        cuts.push((start, unit.len()));
    }
    let is_number = |t: &str| {
        t.len() > 1 && t.ends_with('.') && t[..t.len() - 1].bytes().all(|b| b.is_ascii_digit())
    };
    if cuts.len() >= 2 && is_number(&unit[cuts[0].0..cuts[0].1]) {
        let joined = (cuts[0].0, cuts[1].1);
        cuts.splice(0..2, [joined]);
    }
    cuts.into_iter().map(|(a, b)| &unit[a..b]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_eighty_columns_without_splitting_units() {
        let rec = Record {
            tags: vec![("Event", "x".into())],
            units: (1..=30).map(|i| format!("{i}. a{i}")).collect(),
            result: "*".into(),
            ..Record::default()
        };
        let mut s = String::new();
        rec.write(&mut s);
        assert!(s.starts_with("[Event \"x\"]\n\n1. a1 2. a2"));
        assert!(s.ends_with(" *\n"));
        for line in s.lines() {
            assert!(line.len() <= LINE_WIDTH, "{line}");
        }
        let joined: String = s.lines().skip(2).collect::<Vec<_>>().join(" ");
        let expected: Vec<String> = (1..=30).map(|i| format!("{i}. a{i}")).collect();
        assert_eq!(joined, format!("{} *", expected.join(" ")));
    }

    #[test]
    fn a_unit_longer_than_a_line_is_split_between_tokens() {
        let long = format!("7. S {}", ["[1 1 2] in c1+2+1"; 6].join(" "));
        assert_eq!(pieces(&long)[..4], ["7. S", "[1 1 2]", "in", "c1+2+1"]);
        let rec = Record {
            units: vec!["6. N [3]".into(), long.clone()],
            result: "S+".into(),
            ..Record::default()
        };
        let mut s = String::new();
        rec.write(&mut s);
        assert!(s.lines().all(|l| l.len() <= LINE_WIDTH), "{s}");
        assert_eq!(
            s.split_whitespace().collect::<Vec<_>>().join(" "),
            format!("6. N [3] {long} S+")
        );
        assert!(s.contains("6. N [3] 7. S [1 1 2]"), "{s}");
    }
}
