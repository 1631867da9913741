//! A game's moves and positions packed into one string for the page, which the script
//! unpacks only when the game is opened (`viewer.js`, `unpack`): at page load the browser
//! reads one string per game instead of thousands of small values.
//!
//! The string has three parts separated by `~`:
//!
//! 1. the game's dictionary: every distinct item its scripts insert (position-string tokens
//!    and board items, see [`super::board_items`]), in order of first use, joined by `|`;
//! 2. one step per position (the start, then after each ply), separated by spaces: the
//!    script of the position string, `/`, the script of the board items ([`diff::script`]).
//!    An operation is `=n` (keep n), `-n` (skip n) or `+i` (insert dictionary item i), with
//!    the numbers in base 36;
//! 3. the moves in the game's notation, joined by `|`.
//!
//! Items and moves are escaped so that `%`, `|` and `~` never appear in them as such
//! (`%25`, `%7C`, `%7E`). A quiet draughts ply costs 20–25 bytes of script plus the items
//! it brings for the first time (its arrow, a new square): about 60 bytes a ply on real
//! International games, against 90–100 as JSON scripts.

use std::collections::HashMap;

use super::diff::{self, Op};

/// Builds the packed string of one game, position by position.
#[derive(Debug, Default)]
pub(crate) struct Packer {
    index: HashMap<String, usize>,
    dict: String,
    steps: String,
    /// The position string and board items of the previous position.
    fen: Vec<String>,
    items: Vec<String>,
    started: bool,
}

impl Packer {
    /// Adds the next position: its position string cut into tokens ([`diff::tokens`]) and its
    /// board items.
    pub(crate) fn push(&mut self, fen: &str, items: Vec<String>) {
        if self.started {
            self.steps.push(' ');
        }
        self.started = true;
        let next_fen: Vec<&str> = diff::tokens(fen);
        let old: Vec<&str> = self.fen.iter().map(String::as_str).collect();
        let ops = diff::script(&old, &next_fen);
        self.write(&ops);
        self.steps.push('/');
        let old: Vec<&str> = self.items.iter().map(String::as_str).collect();
        let new: Vec<&str> = items.iter().map(String::as_str).collect();
        let ops = diff::script(&old, &new);
        self.write(&ops);
        self.fen = next_fen.into_iter().map(str::to_string).collect();
        self.items = items;
    }

    fn write(&mut self, ops: &[Op<'_>]) {
        for op in ops {
            let (sign, n) = match *op {
                Op::Keep(n) => ('=', n),
                Op::Delete(n) => ('-', n),
                Op::Insert(item) => ('+', self.intern(item)),
            };
            self.steps.push(sign);
            base36(&mut self.steps, n);
        }
    }

    fn intern(&mut self, item: &str) -> usize {
        if let Some(&i) = self.index.get(item) {
            return i;
        }
        let i = self.index.len();
        if i > 0 {
            self.dict.push('|');
        }
        escape(&mut self.dict, item);
        self.index.insert(item.to_string(), i);
        i
    }

    /// The packed string, with the game's moves.
    pub(crate) fn finish(self, moves: &[&str]) -> String {
        let mut out = self.dict;
        out.reserve(self.steps.len() + moves.len() * 6 + 2);
        out.push('~');
        out.push_str(&self.steps);
        out.push('~');
        for (i, m) in moves.iter().enumerate() {
            if i > 0 {
                out.push('|');
            }
            escape(&mut out, m);
        }
        out
    }
}

fn base36(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 16];
    let mut len = 0;
    loop {
        digits[len] = b"0123456789abcdefghijklmnopqrstuvwxyz"[n % 36];
        len += 1;
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[..len].iter().rev().map(|&d| d as char));
}

fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '|' => out.push_str("%7C"),
            '~' => out.push_str("%7E"),
            c => out.push(c),
        }
    }
}

/// One position unpacked: the position string and the board items.
#[cfg(test)]
pub(crate) type Unpacked = (String, Vec<String>);

/// Unpacks a string of [`Packer::finish`] as `viewer.js` does: the positions and the moves.
#[cfg(test)]
pub(crate) fn unpack(packed: &str) -> Option<(Vec<Unpacked>, Vec<String>)> {
    fn unescape(s: &str) -> String {
        s.replace("%7C", "|")
            .replace("%7E", "~")
            .replace("%25", "%")
    }
    fn split(s: &str) -> Vec<String> {
        if s.is_empty() {
            Vec::new()
        } else {
            s.split('|').map(unescape).collect()
        }
    }
    fn apply(old: &[String], script: &str, dict: &[String]) -> Option<Vec<String>> {
        let mut out = Vec::new();
        let mut i = 0usize;
        let mut rest = script;
        while let Some(sign) = rest.chars().next() {
            let digits = rest[1..]
                .find(['=', '-', '+'])
                .map_or(rest.len(), |k| k + 1);
            let n = usize::from_str_radix(&rest[1..digits], 36).ok()?;
            rest = &rest[digits..];
            match sign {
                '=' => {
                    out.extend_from_slice(old.get(i..i.checked_add(n)?)?);
                    i += n;
                }
                '-' => i = i.checked_add(n)?,
                '+' => out.push(dict.get(n)?.clone()),
                _ => return None,
            }
        }
        out.extend_from_slice(old.get(i..)?);
        Some(out)
    }
    let mut parts = packed.split('~');
    let (dict, steps, moves) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let dict = split(dict);
    let (mut fen, mut items) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    for step in steps.split(' ') {
        let (f, b) = step.split_once('/')?;
        fen = apply(&fen, f, &dict)?;
        items = apply(&items, b, &dict)?;
        out.push((fen.concat(), items.clone()));
    }
    Some((out, split(moves)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_moves_come_back_with_awkward_characters() {
        let fens = ["W:W31,32:B1,2", "B:W28,32:B1,2", "W:W28,32:B2,|~%"];
        let items = [
            vec!["p1,1,0".to_string(), "t0".into()],
            vec!["p2,2,0".into(), "t1".into(), "a1,1;2,2".into()],
            vec!["p2,2,0".into(), "t0".into(), "n100% | ~".into()],
        ];
        let mut p = Packer::default();
        for (f, i) in fens.iter().zip(&items) {
            p.push(f, i.clone());
        }
        let packed = p.finish(&["32-28", "1|2~%"]);
        let (positions, moves) = unpack(&packed).expect("unpacks");
        assert_eq!(packed.matches('~').count(), 2, "{packed}");
        assert_eq!(moves, ["32-28", "1|2~%"]);
        assert_eq!(positions.len(), 3);
        for (k, (fen, its)) in positions.iter().enumerate() {
            assert_eq!(fen, fens[k]);
            assert_eq!(its, &items[k]);
        }
    }

    #[test]
    fn numbers_are_base_36() {
        let mut s = String::new();
        for n in [0, 35, 36, 1295, 1296] {
            base36(&mut s, n);
            s.push(' ');
        }
        assert_eq!(s, "0 z 10 zz 100 ");
    }

    #[test]
    fn a_ply_costs_a_few_bytes_once_its_items_are_known() {
        let mut p = Packer::default();
        let a = "W:W31,32,33,34,35:B1,2,3,4,5";
        let b = "B:W28,31,33,34,35:B1,2,3,4,5";
        for _ in 0..10 {
            p.push(a, vec!["p1,1,0".into(), "t0".into()]);
            p.push(b, vec!["p2,2,0".into(), "t1".into()]);
        }
        let packed = p.finish(&[]);
        let steps = packed.split('~').nth(1).unwrap();
        let later: Vec<&str> = steps.split(' ').skip(2).collect();
        assert!(later.iter().all(|s| s.len() <= 24), "{later:?} in {packed}");
    }
}
