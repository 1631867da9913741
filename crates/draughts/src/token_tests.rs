//! The move-token grammar (`game::token`) over the standard boards.

#[cfg(test)]
mod tests {
    use crate::token::*;
    use crate::{Geometry, INTERNATIONAL, RUSSIAN};

    fn nums(g: &Geometry, t: &str) -> Vec<u32> {
        parse_token(g, t.as_bytes())
            .unwrap()
            .squares
            .iter()
            .map(|&b| g.number(b))
            .collect()
    }

    #[test]
    fn numeric_forms() {
        let g = Geometry::of(&INTERNATIONAL);
        assert_eq!(nums(g, "32-28"), [32, 28]);
        assert_eq!(nums(g, "28x19x10"), [28, 19, 10]);
        assert_eq!(nums(g, "28:19"), [28, 19]);
        assert_eq!(nums(g, "1- 6"), [1, 6]);
        assert_eq!(nums(g, "06-11"), [6, 11]);
        assert_eq!(nums(g, "3228"), [32, 28]);
        assert_eq!(nums(g, "32×28"), [32, 28]);
        assert_eq!(nums(g, "32-28!?"), [32, 28]);
        assert_eq!(nums(g, "32\u{2013}28"), [32, 28]);
        assert_eq!(nums(g, "32\u{2014}28"), [32, 28]);
        assert_eq!(
            parse_token(g, "32\u{2013}28".as_bytes()).unwrap().separator,
            Separator::Quiet
        );
        assert!(parse_token(g, "32\u{2012}28".as_bytes()).is_err());
        let t = parse_token(g, b"28x19").unwrap();
        assert_eq!(t.separator, Separator::Capture);
        assert_eq!(
            parse_token(g, b" 51-46 "),
            Err(TokenError::NoSuchSquare {
                token: "51-46".to_string(),
                number: 51
            })
        );
        assert_eq!(
            parse_token(g, b"51-46").unwrap_err().to_string(),
            "`51-46` names square 51, which this board does not have"
        );
        assert!(parse_token(g, b"- -").is_err());
        assert!(parse_token(g, b"32").is_err());
        assert!(parse_token(g, b"32-").is_err());
    }

    /// The canonical fast path and the general reader agree on every token they both read.
    #[test]
    fn fast_path_agrees_with_general_reader() {
        let g = Geometry::of(&INTERNATIONAL);
        for t in [
            "32-28", "28x19x10", "1-6", "6:1", "46-41", "c3-d4", "a1xc3xe5", "j10-i9",
        ] {
            let fast = canonical(g, t.as_bytes(), &mut |_| Ok(()));
            let padded = format!(" {t} ");
            let general = parse_token(g, padded.as_bytes()).unwrap();
            assert_eq!(parse_token(g, t.as_bytes()).unwrap(), general, "{t}");
            if t == "j10-i9" {
                assert!(fast.is_none(), "two-digit ranks take the general path");
            } else {
                assert!(fast.is_some(), "{t} is canonical");
            }
        }
        for t in [
            "32-", "32", "06-11", "3228", "C3-d4", "c3-28", "51-46", "32--28",
        ] {
            assert!(canonical(g, t.as_bytes(), &mut |_| Ok(())).is_none(), "{t}");
        }
    }

    /// The stack reader gives what the general reader gives, for canonical tokens, tokens
    /// that start canonical and then turn odd, bad tokens and tokens too long for it.
    #[test]
    fn fixed_reader_agrees_with_general_reader() {
        let g = Geometry::of(&INTERNATIONAL);
        let long = ["28"; 9].join("x");
        for t in [
            "32-28",
            "28x19x10",
            "6:1",
            "c3-d4",
            "j10-i9",
            "32-28!?",
            "06-11",
            "3228",
            "32\u{2013}28",
            "28x19-",
            "28x19x",
            "c3-28",
            "51-46",
            "32",
            "- -",
            "28X19",
            "28x19x10x",
            &long,
        ] {
            let general = parse_token(g, t.as_bytes());
            let fixed = FixedToken::<crate::geometry::Bit, 4>::parse(
                g,
                t.as_bytes(),
                crate::geometry::NONE,
            );
            match (&general, &fixed) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.squares, b.squares(), "{t}");
                    assert_eq!(
                        (a.separator, a.numeric),
                        (b.separator(), b.is_numeric()),
                        "{t}"
                    );
                }
                (Err(_), Err(_)) => {}
                (Ok(a), Err(e)) => assert!(a.squares.len() > 4, "{t}: {e}"),
                (Err(e), Ok(_)) => panic!("{t}: the general reader refuses it ({e})"),
            }
        }
    }

    #[test]
    fn algebraic_forms() {
        let g = Geometry::of(&RUSSIAN);
        let names = |t: &str| -> Vec<String> {
            parse_token(g, t.as_bytes())
                .unwrap()
                .squares
                .iter()
                .map(|&b| g.algebraic(b))
                .collect()
        };
        assert_eq!(names("c3-d4"), ["c3", "d4"]);
        assert_eq!(names("C3-D4"), ["c3", "d4"]);
        assert_eq!(names("c3:e5:g3"), ["c3", "e5", "g3"]);
        assert_eq!(names("c3d4"), ["c3", "d4"]);
        assert!(parse_token(g, b"c4-d5")
            .unwrap_err()
            .to_string()
            .contains("c4"));
        assert!(parse_token(g, b"c3-22").is_err());
    }
}
