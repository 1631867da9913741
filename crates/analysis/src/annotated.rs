//! An analysis read back from a record that `arbiter analyse --annotate` wrote: after each
//! analysed ply a comment `{[%eval +0.32]}` (with `[%class blunder]` after a classed move), the
//! move's mark (`?!`, `?`, `??`) and the engine's line as a variation.

use crate::{Class, WON_SCORE};

/// What an annotated record says of one ply of its main line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnnotatedPly {
    /// The evaluation after the ply as written (hundredths of a man; a proven result as
    /// [`WON_SCORE`] less the plies to it).
    pub eval: Option<i32>,
    /// The class: `[%class NAME]` when written, else read from the move's mark (`?!` an
    /// inaccuracy, `?` a mistake, `??` a blunder).
    pub class: Option<Class>,
    /// The variation after the comment: the engine's choice, then its line.
    pub line: Vec<String>,
}

/// The plies of `record`'s main line that carry an `[%eval]` comment, in order. In a record
/// written by `analyse --annotate` every analysed ply has one, so the n-th entry is ply n.
///
/// A record with any `[%class]` command was classed by arbiter: its classes are those
/// commands alone, and a mark written by someone else (a `?!` kept from a lidraughts export)
/// stays a mark. A record without one (annotated by another program) is classed by its marks.
pub fn read_annotations(record: &pdn::GameRecord) -> Vec<AnnotatedPly> {
    let mut out: Vec<AnnotatedPly> = Vec::new();
    // Whether each entry's class came from its move's mark, and whether any came from a command.
    let mut by_mark: Vec<bool> = Vec::new();
    let mut commanded = false;
    let mut mark: Option<&str> = None;
    // The last entry may still take the variation that follows its comment.
    let mut open = false;
    for node in &record.movetext {
        match node {
            pdn::Node::Move(m) => {
                mark = m
                    .strength()
                    .or_else(|| m.annotations.iter().find_map(nag_mark));
                open = false;
            }
            pdn::Node::Comment(c) => {
                let Some(eval) = command(&c.text, "eval") else {
                    continue;
                };
                let named = command(&c.text, "class")
                    .and_then(|n| Class::ALL.into_iter().find(|k| k.name() == n));
                commanded |= named.is_some();
                by_mark.push(named.is_none());
                let class = named.or_else(|| mark.and_then(class_of_mark));
                out.push(AnnotatedPly {
                    eval: parse_eval(eval),
                    class,
                    line: Vec::new(),
                });
                open = true;
            }
            pdn::Node::Variation(v) if open => {
                if let Some(last) = out.last_mut() {
                    last.line = v
                        .nodes
                        .iter()
                        .filter_map(|n| match n {
                            pdn::Node::Move(m) => Some(m.token.clone()),
                            _ => None,
                        })
                        .collect();
                }
                open = false;
            }
            _ => {}
        }
    }
    if commanded {
        for (ply, marked) in out.iter_mut().zip(by_mark) {
            if marked {
                ply.class = None;
            }
        }
    }
    out
}

/// The argument of the comment command `[%NAME ARG]`.
fn command<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    pdn::commands(text.as_bytes())
        .find(|(n, _)| *n == name.as_bytes())
        .and_then(|(_, arg)| std::str::from_utf8(arg).ok())
        .map(str::trim)
}

/// `+0.32` → 32, `-1.5` → -150, `#7` → a win in 7 plies, `-#7` a loss.
fn parse_eval(text: &str) -> Option<i32> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let value = match rest.strip_prefix('#') {
        Some(plies) => WON_SCORE - plies.parse::<i32>().ok()?.clamp(0, 10_000),
        None => {
            let men: f64 = rest.parse().ok()?;
            if !men.is_finite() || men.abs() > 10_000.0 {
                return None;
            }
            (men * 100.0).round() as i32
        }
    };
    Some(if negative { -value } else { value })
}

fn nag_mark(a: &pdn::Annotation) -> Option<&'static str> {
    match a {
        pdn::Annotation::Nag(n) => match n.nag {
            2 => Some("?"),
            4 => Some("??"),
            6 => Some("?!"),
            _ => None,
        },
        pdn::Annotation::Strength(_) => None,
    }
}

fn class_of_mark(mark: &str) -> Option<Class> {
    match mark {
        "?!" => Some(Class::Inaccuracy),
        "?" => Some(Class::Mistake),
        "??" => Some(Class::Blunder),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> pdn::GameRecord {
        let mut reader = pdn::Reader::new(text.as_bytes());
        reader
            .read_game(&mut pdn::RecordBuilder::new())
            .unwrap()
            .unwrap()
    }

    #[test]
    fn evals_classes_and_lines_come_back() {
        let r = record(
            "[White \"a\"]\n1. 32-28 {[%eval +0.32]} 19-23?? {[%eval +2.06] [%class allowed-shot]} \
             (1... 18-23 28x19 14x23) 2. 28x19 {[%eval -#3]} 14x23? {[%eval x]} (2... 13x24) \
             3. 33-28 {a comment} 4. 1-2 {[%eval 1.5]} *\n",
        );
        let a = read_annotations(&r);
        assert_eq!(a.len(), 5);
        assert_eq!(a[0].eval, Some(32));
        assert_eq!(a[0].class, None);
        assert_eq!(a[1].eval, Some(206));
        assert_eq!(a[1].class, Some(Class::AllowedShot));
        assert_eq!(a[1].line, ["18-23", "28x19", "14x23"]);
        assert_eq!(a[2].eval, Some(-(WON_SCORE - 3)));
        // Classed by arbiter: the `?` without a command is someone else's mark.
        assert_eq!((a[3].eval, a[3].class), (None, None));
        assert_eq!(a[3].line, ["13x24"]);
        assert_eq!((a[4].eval, a[4].class), (Some(150), None));
    }

    #[test]
    fn marks_class_a_record_that_names_no_class() {
        let r = record(
            "[White \"a\"]\n1. 32-28?! {[%eval +0.32]} 19-23?? {[%eval +2.06]} \
             2. 28x19 $2 {[%eval -0.5]} 14x23 {[%eval -0.4]} *\n",
        );
        let classes: Vec<_> = read_annotations(&r).into_iter().map(|a| a.class).collect();
        assert_eq!(
            classes,
            [
                Some(Class::Inaccuracy),
                Some(Class::Blunder),
                Some(Class::Mistake),
                None
            ]
        );
    }
}
