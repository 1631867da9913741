//! The trial file itself: its lines, parsed into a [`Trial`].

use thiserror::Error;

/// Why a trial file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TrialError {
    /// The file is not UTF-8 text.
    #[error("a trial file is text, but line {line} is not valid UTF-8")]
    NotText {
        /// 1-based line.
        line: u32,
    },
    /// A line that no trial file holds, or a known line with a malformed value.
    #[error("line {line}: {message}")]
    BadLine {
        /// 1-based line.
        line: u32,
        /// What is wrong, naming the line's content.
        message: String,
    },
    /// A line every trial must have is missing.
    #[error("the trial has no `{0}` line")]
    Missing(&'static str),
}

/// One action of a Ludii move: its kind and its `key=value` fields in order, e.g.
/// `Remove:type=Cell,to=39` is kind `Remove` with fields `type=Cell`, `to=39`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// The action kind (`Move`, `Remove`, `Promote`, `SetNextPlayer`, `Add`, ...).
    pub kind: String,
    /// The fields, in the order written.
    pub fields: Vec<(String, String)>,
}

impl Action {
    /// The value of field `key`, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of field `key` as a number, if present and numeric.
    pub fn num(&self, key: &str) -> Option<i64> {
        self.get(key)?.parse().ok()
    }
}

/// One `Move=` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LudiiMove {
    /// 1-based line of the trial file.
    pub line: u32,
    /// 1-based number of the move in the trial, placement moves included.
    pub number: u32,
    /// The player who made it (0 for placement moves, then 1, 2, ...).
    pub mover: u8,
    /// `from=` of the move, when written.
    pub from: Option<u32>,
    /// `to=` of the move, when written.
    pub to: Option<u32>,
    /// The actions, in order.
    pub actions: Vec<Action>,
}

impl LudiiMove {
    /// The actions of one kind, in order.
    pub fn actions_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Action> + 'a {
        self.actions.iter().filter(move |a| a.kind == kind)
    }

    /// True when the move hands the turn back to its own mover (`SetNextPlayer` naming it).
    pub fn keeps_turn(&self) -> bool {
        self.actions_of("SetNextPlayer")
            .any(|a| a.num("player") == Some(i64::from(self.mover)))
    }
}

/// A parsed trial file.
#[derive(Debug, Clone, PartialEq)]
pub struct Trial {
    /// The `game=` value: a resource path, a file path or a game name.
    pub game: String,
    /// The option block, one `Category/Item` per entry (possibly empty).
    pub options: Vec<String>,
    /// The `RNG internal state=` value, as written.
    pub rng_state: Option<String>,
    /// Every `Move=` line, in order.
    pub moves: Vec<LudiiMove>,
    /// `numInitialPlacementMoves=`: how many of the first moves set up the board.
    pub placement_moves: u32,
    /// `winner=`: the winning player, 0 for none; `None` when not written.
    pub winner: Option<i32>,
    /// `endtype=`, e.g. `NaturalEnd`.
    pub end_type: Option<String>,
    /// `rankings=`: index 0 unused, then one rank per player (1.0 = first).
    pub rankings: Vec<f64>,
    /// `SANDBOX=`.
    pub sandbox: Option<bool>,
    /// `LUDII_VERSION=`.
    pub version: Option<String>,
}

impl Trial {
    /// The game named by `game=`: its last path component, without `.lud`.
    pub fn game_name(&self) -> &str {
        let name = self.game.rsplit(['/', '\\']).next().unwrap_or("");
        name.strip_suffix(".lud").unwrap_or(name).trim()
    }

    /// The moves after the placement moves.
    pub fn play_moves(&self) -> &[LudiiMove] {
        let n = (self.placement_moves as usize).min(self.moves.len());
        &self.moves[n..]
    }

    /// The placement moves.
    pub fn setup_moves(&self) -> &[LudiiMove] {
        let n = (self.placement_moves as usize).min(self.moves.len());
        &self.moves[..n]
    }
}

/// Reads a trial file. Line ends may be LF or CRLF; blank lines are ignored.
pub fn read_trial(bytes: &[u8]) -> Result<Trial, TrialError> {
    let mut trial = Trial {
        game: String::new(),
        options: Vec::new(),
        rng_state: None,
        moves: Vec::new(),
        placement_moves: 0,
        winner: None,
        end_type: None,
        rankings: Vec::new(),
        sandbox: None,
        version: None,
    };
    let mut game_seen = false;
    let mut in_options = false;
    let mut placement_seen = false;
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = i as u32 + 1;
        let text = std::str::from_utf8(raw).map_err(|_| TrialError::NotText { line })?;
        let text = text.strip_suffix('\r').unwrap_or(text);
        let text = if line == 1 {
            text.trim_start_matches('\u{feff}')
        } else {
            text
        };
        let bad = |message: String| TrialError::BadLine { line, message };
        if in_options {
            if text == "END GAME OPTIONS" {
                in_options = false;
            } else if !text.trim().is_empty() {
                trial.options.push(text.trim().to_string());
            }
            continue;
        }
        if text.trim().is_empty() {
            continue;
        }
        if text == "START GAME OPTIONS" {
            in_options = true;
            continue;
        }
        let Some((key, value)) = text.split_once('=') else {
            return Err(bad(format!(
                "`{}` is not a line of a trial file",
                short(text)
            )));
        };
        match key {
            "game" => {
                trial.game = value.to_string();
                game_seen = true;
            }
            "RNG internal state" => trial.rng_state = Some(value.to_string()),
            "Move" => {
                let number = trial.moves.len() as u32 + 1;
                trial
                    .moves
                    .push(parse_move(value, line, number).map_err(|e| bad(e.to_string()))?);
            }
            "numInitialPlacementMoves" => {
                trial.placement_moves = value.parse().map_err(|_| {
                    bad(format!(
                        "numInitialPlacementMoves `{}` is not a count",
                        short(value)
                    ))
                })?;
                placement_seen = true;
            }
            "winner" => {
                trial.winner = Some(value.parse().map_err(|_| {
                    bad(format!("winner `{}` is not a player number", short(value)))
                })?)
            }
            "endtype" => trial.end_type = Some(value.to_string()),
            "rankings" => {
                trial.rankings = value
                    .split(',')
                    .filter(|v| !v.trim().is_empty())
                    .map(|v| v.trim().parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad(format!("rankings `{}` are not numbers", short(value))))?
            }
            "SANDBOX" => trial.sandbox = Some(value.trim() == "true"),
            "LUDII_VERSION" => trial.version = Some(value.to_string()),
            _ => return Err(bad(format!("unknown line `{}`", short(text)))),
        }
    }
    if in_options {
        return Err(TrialError::Missing("END GAME OPTIONS"));
    }
    if !game_seen {
        return Err(TrialError::Missing("game="));
    }
    if !placement_seen {
        return Err(TrialError::Missing("numInitialPlacementMoves="));
    }
    if trial.placement_moves as usize > trial.moves.len() {
        return Err(TrialError::BadLine {
            line: 0,
            message: format!(
                "numInitialPlacementMoves={} but the trial has only {} moves",
                trial.placement_moves,
                trial.moves.len()
            ),
        });
    }
    Ok(trial)
}

/// At most 60 characters of `s`, for messages.
fn short(s: &str) -> String {
    if s.chars().count() <= 60 {
        s.to_string()
    } else {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    }
}

/// Why a `Move=` line does not read: what is wrong, and the value (shortened).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{fault} in `Move={value}`")]
struct MoveError {
    fault: MoveFault,
    value: String,
}

/// What is wrong with a `Move=` value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
enum MoveFault {
    #[error("expected `[Move:...]`")]
    Shape,
    #[error("no `actions=`")]
    NoActions,
    #[error("a field without `=`")]
    NoEquals,
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("mover out of range")]
    MoverRange,
    #[error("no `mover=`")]
    NoMover,
    #[error("malformed actions")]
    Actions,
}

/// Parses the value of a `Move=` line: `[Move:mover=1,from=16,to=24,actions=[...],[...]]`.
fn parse_move(value: &str, line: u32, number: u32) -> Result<LudiiMove, MoveError> {
    let err = |fault| MoveError {
        fault,
        value: short(value),
    };
    let body = value
        .strip_prefix("[Move:")
        .and_then(|v| v.strip_suffix(']'))
        .ok_or_else(|| err(MoveFault::Shape))?;
    let (head, actions) = body
        .split_once("actions=")
        .ok_or_else(|| err(MoveFault::NoActions))?;
    let mut mv = LudiiMove {
        line,
        number,
        mover: 0,
        from: None,
        to: None,
        actions: Vec::new(),
    };
    let mut mover_seen = false;
    for field in head.split(',').filter(|f| !f.is_empty()) {
        let (k, v) = field
            .split_once('=')
            .ok_or_else(|| err(MoveFault::NoEquals))?;
        let n = || {
            v.parse::<u32>()
                .map_err(|_| err(MoveFault::NotANumber(field.to_string())))
        };
        match k {
            "mover" => {
                mv.mover = u8::try_from(n()?).map_err(|_| err(MoveFault::MoverRange))?;
                mover_seen = true;
            }
            "from" => mv.from = Some(n()?),
            "to" => mv.to = Some(n()?),
            _ => {}
        }
    }
    if !mover_seen {
        return Err(err(MoveFault::NoMover));
    }
    mv.actions = parse_actions(actions).ok_or_else(|| err(MoveFault::Actions))?;
    Ok(mv)
}

/// `[Kind:k=v,k=v],[Kind:...]` into actions.
fn parse_actions(mut s: &str) -> Option<Vec<Action>> {
    let mut out = Vec::new();
    loop {
        s = s.strip_prefix('[')?;
        let end = s.find(']')?;
        let (inner, rest) = (&s[..end], &s[end + 1..]);
        let (kind, fields) = inner.split_once(':')?;
        let fields = fields
            .split(',')
            .filter(|f| !f.is_empty())
            .map(|f| {
                f.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
            })
            .collect::<Option<Vec<_>>>()?;
        out.push(Action {
            kind: kind.to_string(),
            fields,
        });
        if rest.is_empty() {
            return Some(out);
        }
        s = rest.strip_prefix(',')?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_small_trial() {
        let text = "game=Tama\nSTART GAME OPTIONS\nVariant/Schmidt\nEND GAME OPTIONS\n\
RNG internal state=1,2\nMove=[Move:mover=0,from=8,to=8,actions=[Add:type=Cell,to=8,what=1]]\n\
Move=[Move:mover=1,from=31,to=47,actions=[Remove:type=Cell,to=39],[Move:typeFrom=Cell,from=31,typeTo=Cell,to=47,decision=true],[SetNextPlayer:player=1]]\n\
Move=[Move:mover=1,actions=[SetPending:],[Pass:decision=true]]\n\
numInitialPlacementMoves=1\nwinner=2\nendtype=NaturalEnd\nrankings=0.0,2.0,1.0\nSANDBOX=false\nLUDII_VERSION=1.3.13\n";
        let t = read_trial(text.as_bytes()).unwrap();
        assert_eq!(t.game_name(), "Tama");
        assert_eq!(t.options, ["Variant/Schmidt"]);
        assert_eq!(t.moves.len(), 3);
        assert_eq!(t.setup_moves().len(), 1);
        let m = &t.moves[1];
        assert_eq!(
            (m.line, m.number, m.mover, m.from, m.to),
            (7, 2, 1, Some(31), Some(47))
        );
        assert_eq!(m.actions[0].kind, "Remove");
        assert_eq!(m.actions[0].num("to"), Some(39));
        assert!(m.keeps_turn());
        assert_eq!(t.moves[2].actions[0].fields, []);
        assert_eq!(t.winner, Some(2));
        assert_eq!(t.rankings, [0.0, 2.0, 1.0]);
        assert_eq!(t.version.as_deref(), Some("1.3.13"));
    }

    #[test]
    fn bad_input_gives_errors_not_panics() {
        assert!(matches!(
            read_trial(b"hello\n"),
            Err(TrialError::BadLine { line: 1, .. })
        ));
        assert_eq!(
            read_trial(b"game=Tama\n"),
            Err(TrialError::Missing("numInitialPlacementMoves="))
        );
        assert!(read_trial(b"game=Tama\nMove=[Move:mover=x,actions=[Pass:]]\n").is_err());
        assert!(
            read_trial(b"game=Tama\nMove=[Move:mover=1,actions=[Pass:decision=true]\n").is_err()
        );
        assert!(read_trial(b"game=Tama\nnumInitialPlacementMoves=3\n").is_err());
        assert!(read_trial(b"game=Tama\nSTART GAME OPTIONS\n").is_err());
        assert!(read_trial(&[b'g', 0xff, b'\n']).is_err());
    }
}
