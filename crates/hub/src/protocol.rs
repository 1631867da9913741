//! The protocol's text: lines of `command name=value flag name="quoted value"`, Hub's
//! positions (the side to move, then one letter per square of the 50: `w`, `b`, `W`, `B` or
//! `e`), its moves (`32-28`; a capture as `from x to x captured x ...`, the captured squares
//! in any order), its levels and its scores.

use std::time::Duration;

use game::MoveInfo;

/// The squares of a Hub position.
pub const SQUARES: usize = 50;

/// One line of the protocol: its command and arguments (a flag has no value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The command, the line's first word.
    pub command: String,
    /// Its arguments in order: a name with a value, or a flag (no value).
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// Reads a line. Spaces separate words; a value may be quoted with `"` (and must be when
    /// it holds a space or `=`, or is empty). An unterminated quote is an error.
    pub fn parse(text: &str) -> Result<Line, String> {
        let mut words: Vec<(String, Option<String>)> = Vec::new();
        let mut chars = text.trim().chars().peekable();
        loop {
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            if chars.peek().is_none() {
                break;
            }
            let mut name = String::new();
            while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
                name.push(c);
            }
            let value = if chars.next_if_eq(&'=').is_some() {
                let mut value = String::new();
                if chars.next_if_eq(&'"').is_some() {
                    loop {
                        match chars.next() {
                            Some('"') => break,
                            Some(c) => value.push(c),
                            None => return Err(format!("unterminated quote after `{name}=`")),
                        }
                    }
                } else {
                    while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                        value.push(c);
                    }
                }
                Some(value)
            } else {
                None
            };
            words.push((name, value));
        }
        let mut words = words.into_iter();
        match words.next() {
            Some((command, None)) if !command.is_empty() => Ok(Line {
                command,
                args: words.collect(),
            }),
            Some((command, Some(_))) => Err(format!("`{command}=` is not a command")),
            _ => Err("empty line".to_string()),
        }
    }

    /// A line to send.
    pub fn new(command: &str) -> Line {
        Line {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// The same line with `name=value`.
    pub fn arg(mut self, name: &str, value: impl ToString) -> Line {
        self.args.push((name.to_string(), Some(value.to_string())));
        self
    }

    /// The same line with the flag `name` (`go think`).
    pub fn flag(mut self, name: &str) -> Line {
        self.args.push((name.to_string(), None));
        self
    }

    /// The value of argument `name` (the first if repeated; a flag's is empty).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// True when the line has argument or flag `name`.
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }

    /// The first argument's name (`go think`: `think`).
    pub fn first(&self) -> Option<&str> {
        self.args.first().map(|(n, _)| n.as_str())
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.command)?;
        for (name, value) in &self.args {
            write!(f, " {name}")?;
            if let Some(v) = value {
                let plain =
                    !v.is_empty() && !v.contains(|c: char| c.is_whitespace() || "=\"".contains(c));
                if plain {
                    write!(f, "={v}")?;
                } else {
                    // Hub has no escape for a quote inside a value: it becomes an apostrophe.
                    write!(f, "=\"{}\"", v.replace('"', "'"))?;
                }
            }
        }
        Ok(())
    }
}

/// A Hub position (`W` or `B`, then 50 of `w b W B e`) as a PDN FEN (`W:W31,K32:B1`).
pub fn position_to_fen(text: &str) -> Result<String, String> {
    let bytes = text.trim().as_bytes();
    if bytes.len() != SQUARES + 1 {
        return Err(format!(
            "a position is the side to move and {SQUARES} squares ({} characters), not {} characters",
            SQUARES + 1,
            bytes.len()
        ));
    }
    let side = match bytes[0] {
        b'W' | b'w' => 'W',
        b'B' | b'b' => 'B',
        other => {
            return Err(format!(
                "a position starts with the side to move, W or B, not `{}`",
                char::from(other).escape_default()
            ))
        }
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, &b) in bytes[1..].iter().enumerate() {
        let square = i + 1;
        match b {
            b'w' => white.push(square.to_string()),
            b'W' => white.push(format!("K{square}")),
            b'b' => black.push(square.to_string()),
            b'B' => black.push(format!("K{square}")),
            b'e' | b'E' | b'.' => {}
            other => {
                return Err(format!(
                    "square {square} holds `{}`: a square is w, b, W, B or e",
                    char::from(other).escape_default()
                ))
            }
        }
    }
    Ok(format!("{side}:W{}:B{}", white.join(","), black.join(",")))
}

/// A position as the game's FEN writes it (`W:W31,K32:B1-3`: numeric squares, kings marked
/// `K`, ranges allowed) as a Hub position.
pub fn fen_to_position(fen: &str) -> Result<String, String> {
    let bad = |why: String| format!("the position `{fen}` cannot be written for Hub: {why}");
    let mut fields = fen.trim().trim_end_matches('.').split(':');
    let side = match fields.next().map(str::trim) {
        Some("W") => 'W',
        Some("B") => 'B',
        other => return Err(bad(format!("the side to move is {other:?}, not W or B"))),
    };
    let mut squares = [b'e'; SQUARES];
    for field in fields {
        let field = field.trim();
        let (man, king) = match field.chars().next() {
            Some('W') => (b'w', b'W'),
            Some('B') => (b'b', b'B'),
            _ => return Err(bad(format!("`{field}` is not a side's list of pieces"))),
        };
        for item in field[1..]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (letter, span) = match item.strip_prefix('K') {
                Some(rest) => (king, rest),
                None => (man, item),
            };
            let (first, last) = span.split_once('-').unwrap_or((span, span));
            let square = |s: &str| match s.trim().parse::<usize>() {
                Ok(n) if (1..=SQUARES).contains(&n) => Ok(n),
                _ => Err(bad(format!("`{s}` is not a square from 1 to {SQUARES}"))),
            };
            for n in square(first)?..=square(last)? {
                squares[n - 1] = letter;
            }
        }
    }
    let mut text = String::with_capacity(SQUARES + 1);
    text.push(side);
    text.extend(squares.iter().map(|&b| char::from(b)));
    Ok(text)
}

/// A move as Hub writes it: where it starts and ends, and the squares it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubMove {
    /// The square it starts on.
    pub from: u32,
    /// The square it ends on.
    pub to: u32,
    /// Sorted (Hub gives them in any order).
    pub captured: Vec<u32>,
}

impl HubMove {
    /// Reads `32-28` or `28x19x23` (from, to, then the captured squares).
    pub fn parse(text: &str) -> Result<HubMove, String> {
        let bad = |why: &str| format!("`{text}` is not a Hub move: {why}");
        let square = |s: &str| match s.parse::<u32>() {
            Ok(n) if (1..=SQUARES as u32).contains(&n) => Ok(n),
            _ => Err(bad(&format!("`{s}` is not a square from 1 to {SQUARES}"))),
        };
        let (parts, quiet): (Vec<&str>, bool) = if text.contains('x') {
            (text.split('x').collect(), false)
        } else {
            (text.split('-').collect(), true)
        };
        if parts.len() < 2 || quiet && parts.len() != 2 {
            return Err(bad(
                "write from-to, or fromxto followed by xcaptured for each piece taken",
            ));
        }
        let mut captured = parts[2..]
            .iter()
            .map(|s| square(s))
            .collect::<Result<Vec<u32>, String>>()?;
        captured.sort_unstable();
        Ok(HubMove {
            from: square(parts[0])?,
            to: square(parts[1])?,
            captured,
        })
    }

    /// True when `info` (a legal move as the rules describe it, numeric squares) is this
    /// move.
    pub fn matches(&self, info: &MoveInfo) -> bool {
        let number = |s: &Option<String>| s.as_deref().and_then(|s| s.parse::<u32>().ok());
        let mut captured: Vec<u32> = info
            .captured
            .iter()
            .filter_map(|s| s.parse().ok())
            .collect();
        captured.sort_unstable();
        number(&info.from) == Some(self.from)
            && number(&info.to) == Some(self.to)
            && captured.len() == info.captured.len()
            && captured == self.captured
    }
}

/// A legal move in Hub's notation: `32-28`, or `28x19x23` (captured squares as taken).
pub fn write_move(info: &MoveInfo) -> String {
    let from = info.from.as_deref().unwrap_or("?");
    let to = info.to.as_deref().unwrap_or("?");
    if info.captured.is_empty() {
        format!("{from}-{to}")
    } else {
        let mut s = format!("{from}x{to}");
        for c in &info.captured {
            s.push('x');
            s.push_str(c);
        }
        s
    }
}

/// What a `level` line asks for. A new `level` line replaces the last one.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Level {
    /// Plies to search at most.
    pub depth: Option<u32>,
    /// Nodes to search at most.
    pub nodes: Option<u64>,
    /// Seconds for this move.
    pub move_time: Option<f64>,
    /// Seconds left on the clock, the moves to play in them and the increment per move.
    pub time: Option<f64>,
    /// The moves to play in the time left.
    pub moves: Option<u32>,
    /// Seconds added per move.
    pub inc: Option<f64>,
    /// Search until `stop`.
    pub infinite: bool,
}

impl Level {
    /// Reads a `level` line's arguments (unknown ones are ignored, as the protocol asks).
    pub fn parse(line: &Line) -> Result<Level, String> {
        fn number<T: std::str::FromStr>(line: &Line, name: &str) -> Result<Option<T>, String> {
            line.get(name)
                .map(|v| {
                    v.trim().parse::<T>().map_err(|_| {
                        format!("level {name}=`{v}` is not a number of the right kind")
                    })
                })
                .transpose()
        }
        let seconds = |name: &str| -> Result<Option<f64>, String> {
            match number::<f64>(line, name)? {
                Some(s) if !s.is_finite() || s < 0.0 => Err(format!(
                    "level {name}={s}: a time is a number of seconds, 0 or more"
                )),
                s => Ok(s),
            }
        };
        let level = Level {
            depth: number(line, "depth")?,
            nodes: number(line, "nodes")?,
            move_time: seconds("move-time")?,
            time: seconds("time")?,
            moves: number(line, "moves")?,
            inc: seconds("inc")?,
            infinite: line.has("infinite"),
        };
        if level.depth == Some(0) || level.nodes == Some(0) {
            return Err("level depth and nodes are at least 1".to_string());
        }
        Ok(level)
    }

    /// The time this move may take, if the level limits it: the move time, or a share of the
    /// clock (the increment is added first, as the protocol says; a share of the moves left,
    /// else a 30th), never more than half of it.
    pub fn budget(&self) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        let seconds = match (self.move_time, self.time) {
            (Some(t), _) => t,
            (None, Some(clock)) => {
                let left = clock + self.inc.unwrap_or(0.0);
                let share = left / f64::from(self.moves.unwrap_or(30).max(1));
                (share.min(left / 2.0) - 0.02).max(0.005)
            }
            (None, None) => return None,
        };
        Some(Duration::from_secs_f64(seconds.clamp(0.001, 1e6)))
    }
}

/// A score as Hub writes it, in men: `0.25`, `-1.00`; a proven win in `p` plies as
/// `99.xx`-style `(10000 - p) / 100` (so that readers which take scores above 90 for wins,
/// as pydraughts does, see one).
pub fn write_score(score: i32, decided_in: Option<i32>) -> String {
    let centi = match decided_in {
        Some(p) if p >= 0 => 10_000 - p.min(999),
        Some(p) => -10_000 - p.max(-999),
        None => score.clamp(-8_999, 8_999),
    };
    let sign = if centi < 0 { "-" } else { "" };
    let abs = centi.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Reads a score as Hub writes it, in men (`0.25`, `-1.5`), into hundredths of a man; a
/// score of 90 men or more is a proven result, returned with the plies to it (the
/// hundredths short of 100 men, as Scan and arbiter write it).
pub fn read_score(text: &str) -> Result<(i32, Option<u32>), String> {
    let men: f64 = text
        .trim()
        .trim_start_matches('+')
        .parse()
        .ok()
        .filter(|m: &f64| m.is_finite())
        .ok_or_else(|| format!("score `{text}` is not a number of men"))?;
    let centi = (men * 100.0).round().clamp(-1e9, 1e9) as i32;
    if centi.abs() >= 9_000 {
        let plies = (10_000 - centi.abs()).max(0) as u32;
        Ok((centi.signum(), Some(plies)))
    } else {
        Ok((centi, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(from: &str, to: &str, captured: &[&str]) -> MoveInfo {
        MoveInfo {
            notation: String::new(),
            from: Some(from.to_string()),
            to: Some(to.to_string()),
            path: vec![from.to_string(), to.to_string()],
            captured: captured.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn lines_read_with_quotes_and_flags() {
        let l = Line::parse(r#"pos pos=Wbe moves="32-28 17-22"  flag  x="" "#).unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("Wbe"));
        assert_eq!(l.get("moves"), Some("32-28 17-22"));
        assert_eq!(l.get("flag"), Some(""));
        assert!(l.has("flag") && !l.has("moves2"));
        assert_eq!(l.get("x"), Some(""));
        assert_eq!(Line::parse("go think").unwrap().first(), Some("think"));
        assert!(Line::parse("pos pos=\"open").is_err());
        assert!(Line::parse("   ").is_err());
        assert!(Line::parse("a=b").is_err());
    }

    #[test]
    fn lines_write_quotes_where_needed() {
        let l = Line::new("id")
            .arg("name", "arbiter")
            .arg("author", "the arbiter authors")
            .arg("empty", "")
            .arg("pv", "32-28 17-22");
        assert_eq!(
            l.to_string(),
            r#"id name=arbiter author="the arbiter authors" empty="" pv="32-28 17-22""#
        );
        assert_eq!(Line::parse(&l.to_string()).unwrap(), l);
    }

    #[test]
    fn positions_become_fens() {
        let start = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        let fen = position_to_fen(&start).unwrap();
        assert_eq!(
            fen,
            "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:\
             B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
        );
        let kings = format!("B{}W{}B", "e".repeat(3), "e".repeat(45));
        assert_eq!(position_to_fen(&kings).unwrap(), "B:WK4:BK50");
        assert_eq!(
            position_to_fen(&format!("W{}", "e".repeat(50))).unwrap(),
            "W:W:B"
        );
        assert!(position_to_fen("W").is_err());
        assert!(position_to_fen(&format!("X{}", "e".repeat(50))).is_err());
        assert!(position_to_fen(&format!("W{}q", "e".repeat(49))).is_err());
        assert!(position_to_fen(&format!("W{}é", "e".repeat(49))).is_err());
    }

    #[test]
    fn moves_read_write_and_match() {
        let quiet = HubMove::parse("32-28").unwrap();
        assert_eq!((quiet.from, quiet.to), (32, 28));
        assert!(quiet.captured.is_empty());
        let capture = HubMove::parse("28x19x23").unwrap();
        assert_eq!(
            (capture.from, capture.to, capture.captured.clone()),
            (28, 19, vec![23])
        );
        assert!(capture.matches(&info("28", "19", &["23"])));
        assert!(!capture.matches(&info("28", "19", &[])));
        let chain = HubMove::parse("26x26x9x21x3").unwrap();
        assert_eq!(chain.captured, [3, 9, 21]);
        assert!(chain.matches(&info("26", "26", &["21", "9", "3"])));
        assert!(!chain.matches(&info("26", "26", &["21", "9"])));
        assert!(quiet.matches(&info("32", "28", &[])));
        for bad in [
            "", "32", "32-", "32-28-23", "0-5", "51-46", "a-b", "32x", "-",
        ] {
            assert!(HubMove::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(write_move(&info("32", "28", &[])), "32-28");
        assert_eq!(write_move(&info("28", "19", &["23"])), "28x19x23");
        assert_eq!(
            write_move(&info("26", "26", &["21", "9", "3"])),
            "26x26x21x9x3"
        );
    }

    #[test]
    fn levels_read_and_budget() {
        let level = |s: &str| Level::parse(&Line::parse(s).unwrap());
        assert_eq!(level("level depth=5").unwrap().depth, Some(5));
        assert_eq!(level("level nodes=1000").unwrap().nodes, Some(1000));
        let mt = level("level move-time=0.5").unwrap();
        assert_eq!(mt.budget(), Some(Duration::from_millis(500)));
        let clock = level("level moves=10 time=20 inc=1").unwrap();
        let b = clock.budget().unwrap().as_secs_f64();
        assert!((b - 2.08).abs() < 1e-9, "{b}");
        let sudden = level("level time=3")
            .unwrap()
            .budget()
            .unwrap()
            .as_secs_f64();
        assert!((sudden - 0.08).abs() < 1e-9, "{sudden}");
        assert_eq!(level("level infinite").unwrap().budget(), None);
        assert_eq!(level("level").unwrap(), Level::default());
        for bad in [
            "level depth=x",
            "level nodes=-3",
            "level time=-1",
            "level depth=0",
            "level move-time=nan",
        ] {
            assert!(level(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fens_become_positions_and_back() {
        let start = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        let fen = position_to_fen(&start).unwrap();
        assert_eq!(fen_to_position(&fen).unwrap(), start);
        assert_eq!(fen_to_position("W:W31-50:B1-20").unwrap(), start);
        let kings = format!("B{}W{}B", "e".repeat(3), "e".repeat(45));
        assert_eq!(fen_to_position("B:WK4:BK50.").unwrap(), kings);
        assert_eq!(
            fen_to_position("W:W:B").unwrap(),
            format!("W{}", "e".repeat(50))
        );
        for bad in ["X:W1:B2", "W:W51:B1", "W:Wa1:B2", "W:Q1", "W:W0:B1"] {
            assert!(fen_to_position(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scores_are_read_in_men() {
        assert_eq!(read_score("0.25"), Ok((25, None)));
        assert_eq!(read_score("-1.5"), Ok((-150, None)));
        assert_eq!(read_score("+0.08"), Ok((8, None)));
        assert_eq!(read_score("99.97"), Ok((1, Some(3))));
        assert_eq!(read_score("-99.96"), Ok((-1, Some(4))));
        for bad in ["", "x", "nan", "1.2.3"] {
            assert!(read_score(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scores_are_written_in_men() {
        assert_eq!(write_score(25, None), "0.25");
        assert_eq!(write_score(-100, None), "-1.00");
        assert_eq!(write_score(-7, None), "-0.07");
        assert_eq!(write_score(0, None), "0.00");
        assert_eq!(write_score(search::WIN - 3, Some(3)), "99.97");
        assert_eq!(write_score(-search::WIN + 4, Some(-4)), "-99.96");
    }
}
