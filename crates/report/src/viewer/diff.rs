//! The edit script that takes one list of items to the next, for the viewer's compact game
//! data: each position (its string and its board) is stored as the change from the one
//! before, which is a few items for a ply.
//!
//! A script is a list of operations: keep so many items, skip (delete) so many, insert one
//! item; items left after the last operation are kept. [`super::pack`] writes scripts into
//! the page and `viewer.js` applies them (`patch`).

/// Above this many differences the new list is written whole (a script that long saves
/// nothing and the search would grow).
const MAX_EDITS: usize = 64;

/// One step of a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op<'a> {
    /// Keep this many items of the old list.
    Keep(usize),
    /// Skip this many items of the old list.
    Delete(usize),
    /// Insert this item.
    Insert(&'a str),
}
/// The script from `old` to `new`: keeps, deletions and insertions of items of `new`, with
/// the keeps after the last change left out.
pub(crate) fn script<'a>(old: &[&str], new: &[&'a str]) -> Vec<Op<'a>> {
    let mut ops = match myers(old, new) {
        Some(ops) => ops,
        None => {
            let mut ops = vec![Op::Delete(old.len())];
            ops.extend(new.iter().map(|s| Op::Insert(s)));
            ops
        }
    };
    ops.retain(|op| !matches!(op, Op::Delete(0) | Op::Keep(0)));
    // The items after the last change are kept without saying so.
    while matches!(ops.last(), Some(Op::Keep(_))) {
        ops.pop();
    }
    ops
}

/// Applies a script (the inverse of [`script`], for tests and checks).
#[cfg(test)]
pub(crate) fn patch(old: &[String], ops: &[Op<'_>]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0usize;
    for op in ops {
        match *op {
            Op::Insert(s) => out.push(s.to_string()),
            Op::Keep(k) => {
                let end = i.checked_add(k)?;
                out.extend_from_slice(old.get(i..end)?);
                i = end;
            }
            Op::Delete(k) => i = i.checked_add(k)?,
        }
    }
    out.extend_from_slice(old.get(i..)?);
    Some(out)
}

/// Myers' O(ND) shortest edit script; `None` when it needs more than [`MAX_EDITS`] edits.
fn myers<'a>(a: &[&str], b: &[&'a str]) -> Option<Vec<Op<'a>>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m).min(MAX_EDITS as isize);
    let off = max + 1;
    let mut v = vec![0isize; 2 * off as usize + 1];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut found = None;
    'outer: for d in 0..=max {
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let ki = (k + off) as usize;
            let mut x = if k == -d || (k != d && v[ki - 1] < v[ki + 1]) {
                v[ki + 1]
            } else {
                v[ki - 1] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[ki] = x;
            if x >= n && y >= m {
                found = Some(d);
                break 'outer;
            }
            k += 2;
        }
    }
    let d_end = found?;
    // Walk back through the saved frontiers, collecting single steps.
    #[derive(Clone, Copy)]
    enum Step {
        Keep,
        Del,
        Ins(usize),
    }
    let mut steps = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..=d_end).rev() {
        let v = &trace[d as usize];
        let k = x - y;
        let ki = (k + off) as usize;
        let prev_k = if k == -d || (k != d && v[ki - 1] < v[ki + 1]) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = v[(prev_k + off) as usize];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            steps.push(Step::Keep);
            x -= 1;
            y -= 1;
        }
        if x == prev_x {
            steps.push(Step::Ins((y - 1) as usize));
        } else {
            steps.push(Step::Del);
        }
        x = prev_x;
        y = prev_y;
    }
    while x > 0 && y > 0 {
        steps.push(Step::Keep);
        x -= 1;
        y -= 1;
    }
    steps.reverse();
    let mut ops: Vec<Op<'a>> = Vec::new();
    for s in steps {
        match (s, ops.last_mut()) {
            (Step::Keep, Some(Op::Keep(n))) => *n += 1,
            (Step::Keep, _) => ops.push(Op::Keep(1)),
            (Step::Del, Some(Op::Delete(n))) => *n += 1,
            (Step::Del, _) => ops.push(Op::Delete(1)),
            (Step::Ins(j), _) => ops.push(Op::Insert(b[j])),
        }
    }
    Some(ops)
}

/// A position string cut into items for [`script`]: runs of letters and digits, and every
/// other character alone (joined again without separators).
pub(crate) fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else {
            if let Some(s) = start.take() {
                out.push(&text[s..i]);
            }
            out.push(&text[i..i + c.len_utf8()]);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip<'a>(a: &[&str], b: &[&'a str]) -> Vec<Op<'a>> {
        let ops = script(a, b);
        let old: Vec<String> = a.iter().map(|s| s.to_string()).collect();
        let got = patch(&old, &ops).expect("a valid script");
        assert_eq!(got, b, "script {ops:?}");
        ops
    }

    #[test]
    fn a_draughts_move_is_a_short_script() {
        let a = tokens("W:W31,32,33,34,35:B1,2,3,4,5");
        let b = tokens("B:W28,31,33,34,35:B1,2,3,4,5");
        let ops = round_trip(&a, &b);
        assert!(ops.len() <= 8, "{ops:?}");
        assert_eq!(tokens("W:W31,K4").concat(), "W:W31,K4");
    }

    proptest! {
        #[test]
        fn scripts_round_trip(
            a in proptest::collection::vec("[a-c]{1,2}", 0..40),
            b in proptest::collection::vec("[a-c]{1,2}", 0..40),
        ) {
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            let b: Vec<&str> = b.iter().map(String::as_str).collect();
            round_trip(&a, &b);
        }
    }
}
