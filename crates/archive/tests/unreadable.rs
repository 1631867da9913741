//! An input that cannot be read, whole or from some game on, is reported and skipped: the
//! games read before the error are kept, the other inputs are read, in order, on both of
//! `select`'s paths (one input after another, and in parallel through the spool); `split`'s
//! reader marks the error the same way. An error of the output still ends the run.

use std::io::{self, Read, Write};

use archive::{each_game, is_read_error, select, Filter, Input, Problems, Selector};

const ONE: &str = "[Variant \"International\"]\n\n1. 32-28 19-23 *\n\n";
const TWO: &str = "[Variant \"English\"]\n\n1. 11-15 23-19 *\n\n";

/// A reader that gives `text` and then fails. (A game is handed out once the reader has seen
/// where it ends: the start of the next record, or the end of the input.)
struct FailsAfter {
    text: io::Cursor<Vec<u8>>,
}

impl Read for FailsAfter {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.text.read(buf)? {
            0 => Err(io::Error::other("the disk went away")),
            n => Ok(n),
        }
    }
}

fn good(name: &str, text: &'static str) -> Input {
    Input {
        name: name.to_string(),
        open: Box::new(move || Ok(Box::new(io::Cursor::new(text)) as Box<dyn Read + Send>)),
    }
}

fn missing(name: &str) -> Input {
    Input {
        name: name.to_string(),
        open: Box::new(|| Err(io::Error::new(io::ErrorKind::NotFound, "no such file"))),
    }
}

/// Two whole games, then a cut third one, then the error.
fn failing(name: &str) -> Input {
    Input {
        name: name.to_string(),
        open: Box::new(|| {
            let text = format!("{ONE}{TWO}[Variant \"Russian\"]\n\n1. c3-d4");
            let text = io::Cursor::new(text.into_bytes());
            Ok(Box::new(FailsAfter { text }) as Box<dyn Read + Send>)
        }),
    }
}

fn run(selector: &Selector) -> (String, Vec<String>, archive::SelectTally) {
    let inputs = [
        missing("a.pdn"),
        good("b.pdn", ONE),
        failing("c.pdn"),
        good("d.pdn", TWO),
    ];
    let mut out = Vec::new();
    let mut reported = Vec::new();
    let tally = select(
        selector,
        &inputs,
        &mut out,
        None,
        &std::env::temp_dir(),
        &|_| {},
        &mut |name, e| {
            assert!(is_read_error(&e), "{name}: {e}");
            reported.push(format!("{name}: {e}"));
        },
    )
    .expect("only inputs fail");
    (String::from_utf8(out).unwrap(), reported, tally)
}

fn check(selector: &Selector) {
    let (out, reported, tally) = run(selector);
    // b, then the two whole games of c, then d: the cut game is not a game to keep.
    let variants: Vec<&str> = out.lines().filter(|l| l.starts_with("[Variant")).collect();
    assert_eq!(
        variants,
        [
            "[Variant \"International\"]",
            "[Variant \"International\"]",
            "[Variant \"English\"]",
            "[Variant \"English\"]"
        ],
        "{out}"
    );
    assert_eq!(tally.unreadable, 2);
    assert_eq!(reported.len(), 2, "{reported:?}");
    assert!(
        reported[0].starts_with("a.pdn: cannot read: no such file"),
        "{reported:?}"
    );
    assert!(
        reported[1].starts_with("c.pdn: cannot read: the disk went away"),
        "{reported:?}"
    );
}

#[test]
fn select_one_input_after_another_skips_what_it_cannot_read() {
    check(&Selector::default());
}

#[test]
fn select_through_the_spool_skips_what_it_cannot_read() {
    let selector = Selector {
        filters: vec![Filter::Problems(Problems::None)],
        ..Selector::default()
    };
    assert!(selector.needs_replay());
    check(&selector);
}

#[test]
fn an_output_error_still_ends_the_run() {
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::StorageFull, "no room"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let inputs = [good("b.pdn", ONE)];
    let e = select(
        &Selector::default(),
        &inputs,
        &mut Full,
        None,
        &std::env::temp_dir(),
        &|_| {},
        &mut |name, e| panic!("{name}: {e}"),
    )
    .expect_err("the output is full");
    assert!(!is_read_error(&e));
    assert_eq!(e.kind(), io::ErrorKind::StorageFull);
}

#[test]
fn each_game_marks_errors_of_its_input_and_not_of_its_caller() {
    let text = io::Cursor::new(format!("{ONE}{TWO}[Variant \"Russian\"]\n\n1. c3").into_bytes());
    let mut seen = 0;
    let e = each_game(FailsAfter { text }, &|_| {}, &mut |_, _| {
        seen += 1;
        Ok(())
    })
    .expect_err("the input fails");
    assert!(is_read_error(&e));
    assert_eq!(seen, 2);
    let e = each_game(io::Cursor::new(ONE), &|_| {}, &mut |_, _| {
        Err(io::Error::new(io::ErrorKind::StorageFull, "no room"))
    })
    .expect_err("the caller fails");
    assert!(!is_read_error(&e));
}
