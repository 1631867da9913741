//! The game viewer: every game of a run (or every game with a problem) in one self-contained
//! HTML page, stepped through move by move, with every problem listed so that one click opens
//! its game at the position before the faulty move.
//!
//! The page carries the games as compact JSON (`<script type="application/json"
//! id="viewer-data">`) and a small hand-written script (`viewer.js`) that draws the board as
//! SVG. Nothing here names a game: a game brings its boards ([`game::Board`]), its position
//! strings and its moves, all from the game contract.
//!
//! Each position is stored as the change from the one before ([`diff`]): its position string
//! cut into tokens and its board as a list of items (`p` piece, `m` mark, `t` seat to move,
//! `n` note, `a` last move). A game's changes and moves are packed into one string
//! ([`pack`]) that the script unpacks when the game is opened, so a ply costs about 60
//! bytes and the page reads one string per game when it loads.
//!
//! A problem in a variation carries the variation's position before the faulty ply (its
//! string and board), which the page shows instead of a main-line position. A game that was
//! not replayed (not identified) carries its movetext as written, shown as text.
//!
//! The page's test contract: the board element (`#board`) carries the position shown in
//! `data-fen` (the string `arbiter convert --to json --positions` writes), `data-ply` and
//! `data-line` (`main`, or `variation` for the position of a problem inside a variation);
//! each problem entry (`.problem`) carries `data-file`, `data-game` (1-based in its file),
//! `data-ply` (empty for a problem not about a ply) and `data-severity` (`error`, `warning` or
//! `note`; the list shows each severity's count and can hide any of them). The games table
//! names every seat's player (the tags named after the game's seats).
//!
//! A game analysed by an engine ([`ViewerGame::analysis`], from `analyse --report` or read back
//! from the comments `analyse --annotate` writes) adds an evaluation graph under the board
//! (`#vw-graph`, whose `data-evals` holds the evaluation after each ply, comma-separated;
//! a click goes to that ply), its classed moves marked in the move list and listed in a tab of
//! their own (each `.classed` entry with `data-class`, `data-file`, `data-game`, `data-ply`;
//! a click shows the position before the move), and the engine's choice for the next ply drawn
//! as a dashed arrow and named, with its line, in `#vw-best` (`data-best`). The analysis is
//! packed with the game's moves and kept or left out with them under the page's budget.

mod diff;
mod pack;

use std::fmt::Write as _;

use game::{Board, BoardStyle, SquareMark, SquarePath};
use serde_json::{json, Value};

/// One position of a game: its string, its board and the squares of the ply that led to it.
#[derive(Debug, Clone, Copy)]
pub struct ViewerPosition<'a> {
    /// The position string, as `convert --positions` writes it.
    pub fen: &'a str,
    /// The board.
    pub board: &'a Board,
    /// The paths of the ply that led here (empty for the start).
    pub last_move: &'a [SquarePath],
}

/// One problem of a game, for the viewer.
#[derive(Debug, Clone, Copy)]
pub struct ViewerProblem<'a> {
    /// 1-based ply of the move it is about (`None`: a problem of the game as a whole).
    pub ply: Option<u32>,
    /// The diagnostic code.
    pub code: &'a str,
    /// How serious it is (the page counts and filters problems by it).
    pub severity: ViewerSeverity,
    /// The diagnostic's message.
    pub message: &'a str,
    /// The line in the file.
    pub line: u64,
    /// The move as written, where the problem is about a ply the replay refused.
    pub written: Option<&'a str>,
    /// The squares the written move names.
    pub played: &'a [SquarePath],
    /// The legal or maximal alternative.
    pub suggested: &'a [SquarePath],
    /// For a ply of a variation: the variation's position before it (its string and board).
    pub variation: Option<(&'a str, &'a Board)>,
}

/// How serious a problem is: the page counts each kind and lets the reader hide any of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ViewerSeverity {
    /// Worth knowing, not a fault (how a game was identified, an exporter's habit).
    #[default]
    Note,
    /// A tolerated deviation from the standard.
    Warning,
    /// A fault.
    Error,
}

impl ViewerSeverity {
    /// The figure the page stores (`p[2]` of a problem): 0 note, 1 warning, 2 error.
    fn code(self) -> u8 {
        self as u8
    }
}

/// The classes of analysed moves, as the page names them (`data-class`), each with the letter
/// that stands for it in a game's packed classes.
pub const MOVE_CLASSES: [(&str, char); 6] = [
    ("inaccuracy", 'i'),
    ("mistake", 'm'),
    ("blunder", 'b'),
    ("missed-win", 'w'),
    ("missed-shot", 's'),
    ("allowed-shot", 'a'),
];

/// What an engine analysis says of one ply, for the viewer's graph, marks and arrows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewerPly<'a> {
    /// The seat that played the ply.
    pub seat: u8,
    /// The evaluation after the ply, in hundredths of a man from the first seat's view
    /// (`None`: not known).
    pub eval: Option<i32>,
    /// The move's class (one of [`MOVE_CLASSES`]; anything else is left out).
    pub class: Option<&'a str>,
    /// The engine's choice, when it is not the move played.
    pub best: Option<&'a str>,
    /// The engine's line from its choice on (moves separated by spaces).
    pub line: &'a str,
    /// The squares of the engine's choice, drawn as an arrow on the position before the ply.
    pub best_paths: Vec<SquarePath>,
}

/// One game, for the viewer. Encode it where it was replayed ([`ViewerGame::encode`]) and
/// add it to the [`Viewer`] in run order.
#[derive(Debug, Clone, Default)]
pub struct ViewerGame<'a> {
    /// The game's label in the registry, or `Unknown game`.
    pub label: &'a str,
    /// White, Black, Event, Date and Result tags as written (empty: absent).
    pub tags: [&'a str; 5],
    /// Every seat of the game in seat order, each with its player as the record's tag of that
    /// name says (`[South "…"]`; empty: absent). Empty for a game not identified: the page then
    /// names the White and Black players of `tags`.
    pub players: Vec<(&'a str, &'a str)>,
    /// The start position, then the position after every replayed ply of the main line.
    pub positions: Vec<ViewerPosition<'a>>,
    /// The replayed plies, in the game's notation (one fewer than `positions`).
    pub moves: Vec<&'a str>,
    /// Plies of the main line as written.
    pub plies_written: u32,
    /// Every diagnostic of the game.
    pub problems: Vec<ViewerProblem<'a>>,
    /// For a game that was not replayed (no positions): its movetext as written, to show
    /// as text (empty: none).
    pub record: &'a str,
    /// The engine's analysis of the replayed plies, ply 1 first (empty: not analysed).
    pub analysis: Vec<ViewerPly<'a>>,
    /// Each seat's accuracy in the game (seats in turn order; empty: not analysed), shown in
    /// the table of games (kept past the page's budget).
    pub accuracy: Vec<f64>,
}

impl ViewerGame<'_> {
    /// The game as the page stores it, with and without its moves.
    pub fn encode(&self) -> EncodedGame {
        self.encode_with(true)
    }

    /// The game as the page stores it once the viewer keeps no more moves
    /// ([`Viewer::wants_moves`]): without them, sparing the work of packing its positions.
    pub fn encode_without_moves(&self) -> EncodedGame {
        self.encode_with(false)
    }

    fn encode_with(&self, moves: bool) -> EncodedGame {
        EncodedGame {
            full: moves.then(|| safe(self.value(true))),
            lite: safe(self.value(false)),
            has_moves: !(self.positions.is_empty() && self.record.is_empty()),
            label: self.label.to_string(),
            tags: self.tags.map(str::to_string),
            players: self
                .players
                .iter()
                .map(|&(s, p)| (s.to_string(), p.to_string()))
                .collect(),
            problems: self.problems.iter().map(EncodedProblem::of).collect(),
        }
    }

    /// The game's JSON object without its label and problems (the [`Viewer`] adds those,
    /// with their texts in its table of strings).
    fn value(&self, keep_moves: bool) -> Value {
        let g = self;
        let mut v = json!({ "w": g.plies_written });
        if !g.accuracy.is_empty() {
            let tenths: Vec<f64> = g
                .accuracy
                .iter()
                .map(|a| (a * 10.0).round() / 10.0)
                .collect();
            v["q"] = json!(tenths);
        }
        // The board's shape, for the game's positions and for a problem in a variation,
        // which brings its own board (kept even past the budget).
        let variation = g.problems.iter().find_map(|p| p.variation.map(|(_, b)| b));
        let kept = g.positions.first().filter(|_| keep_moves).map(|p| p.board);
        if let Some(board) = kept.or(variation) {
            v["h"] = head(board);
        }
        if g.positions.is_empty() && g.record.is_empty() {
            return v;
        }
        if !keep_moves {
            v["x"] = Value::from(1);
            return v;
        }
        if g.positions.is_empty() {
            v["r"] = Value::from(g.record);
            return v;
        }
        let mut packer = pack::Packer::default();
        for pos in &g.positions {
            packer.push(pos.fen, board_items(pos.board, pos.last_move));
        }
        v["z"] = Value::from(packer.finish(&g.moves));
        if !g.analysis.is_empty() {
            v["a"] = analysis_value(&g.analysis);
        }
        v
    }
}

/// A game's analysis as the page stores it: `e`, the evaluations per ply separated by commas
/// (empty where unknown); `k`, one letter per ply for its class ([`MOVE_CLASSES`], `.` for
/// none); `b`, for each ply whose best move is not the one played, `[ply, best, line,
/// paths, seat]`.
fn analysis_value(plies: &[ViewerPly<'_>]) -> Value {
    let evals: Vec<String> = plies
        .iter()
        .map(|p| p.eval.map_or(String::new(), |e| e.to_string()))
        .collect();
    let classes: String = plies
        .iter()
        .map(|p| {
            let known = MOVE_CLASSES.iter().find(|(name, _)| Some(*name) == p.class);
            known.map_or('.', |&(_, letter)| letter)
        })
        .collect();
    let best: Vec<Value> = plies
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let b = p.best?;
            Some(json!([i + 1, b, p.line, paths(&p.best_paths), p.seat]))
        })
        .collect();
    json!({ "e": evals.join(","), "k": classes, "b": best })
}

/// The JSON text of `v`, with `<` escaped: no `</script>` can close the page's data early.
fn safe(v: Value) -> String {
    v.to_string().replace('<', "\\u003c")
}

/// A game encoded for the page ([`ViewerGame::encode`]): two JSON objects, with its moves and
/// positions and without them (the page keeps the second once its budget is spent), and its
/// label, tags and problems, whose texts the [`Viewer`] keeps once each in a table of strings
/// (players, events and dates repeat across an archive's games).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedGame {
    /// With its moves (`None`: encoded without them, see [`ViewerGame::encode_without_moves`]).
    full: Option<String>,
    lite: String,
    /// The game has moves or a record to show (`full` is more than `lite`).
    has_moves: bool,
    label: String,
    tags: [String; 5],
    players: Vec<(String, String)>,
    problems: Vec<EncodedProblem>,
}

/// A problem encoded for the page: `[ply, code, severity, message, line, written, played,
/// suggested, variation]` (`severity`: 0 note, 1 warning, 2 error; `variation`: `[position
/// string, board items]`), with the code and message as indices into the table of strings
/// and the trailing fields left out when empty. An ambiguous ply's `played` holds each move
/// its notation fits (the page draws each along its path).
#[derive(Debug, Clone, PartialEq, Eq)]
struct EncodedProblem {
    ply: String,
    code: String,
    severity: ViewerSeverity,
    message: String,
    rest: String,
}

impl EncodedProblem {
    fn of(p: &ViewerProblem<'_>) -> Self {
        let mut rest = vec![json!(p.line)];
        let variation = p.variation.map_or(Value::Null, |(fen, board)| {
            json!([fen, board_items(board, &[])])
        });
        let tail = [
            json!(p.written),
            paths(p.played),
            paths(p.suggested),
            variation,
        ];
        let used = tail
            .iter()
            .rposition(|v| !(v.is_null() || v.as_array().is_some_and(|a| a.is_empty())))
            .map_or(0, |i| i + 1);
        rest.extend(tail.into_iter().take(used));
        let rest = safe(Value::Array(rest));
        EncodedProblem {
            ply: p.ply.map_or("null".to_string(), |n| n.to_string()),
            code: p.code.to_string(),
            severity: p.severity,
            message: p.message.to_string(),
            rest: rest[1..rest.len() - 1].to_string(),
        }
    }
}

/// A board's shape: files, ranks, square style, seat names.
fn head(b: &Board) -> Value {
    let style = match b.style {
        BoardStyle::Checkered => "checkered",
        BoardStyle::DarkOnly => "dark",
        BoardStyle::DarkOnlyTurned => "turned",
        BoardStyle::Plain => "plain",
    };
    json!([b.files, b.ranks, style, b.seat_names])
}

/// One input file of the run, with its counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileRow {
    /// The name as the run prints it.
    pub name: String,
    /// Games read.
    pub games: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Errors.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
}

/// The games and problems of a run, encoded for the page as they come.
#[derive(Debug, Clone)]
pub struct Viewer {
    files: Vec<FileRow>,
    games: String,
    /// Texts said by many games (labels, tags, codes, messages), each once.
    strings: Vec<String>,
    string_index: std::collections::HashMap<String, usize>,
    game_count: u64,
    problem_count: u64,
    /// Problems by severity: notes, warnings, errors.
    by_severity: [u64; 3],
    /// Games kept without their moves because the budget was spent.
    moves_left_out: u64,
    budget: usize,
}

/// The default budget of game data in a report page: enough for tens of thousands of games
/// with problems, and a page that opens in a second or two.
pub const VIEWER_BUDGET: usize = 6 << 20;

impl Viewer {
    /// An empty viewer; games are kept with their moves until their data reaches `budget`
    /// bytes, and without them (tags and problems only) after that.
    pub fn new(budget: usize) -> Self {
        Viewer {
            files: Vec::new(),
            games: String::new(),
            strings: Vec::new(),
            string_index: std::collections::HashMap::new(),
            game_count: 0,
            problem_count: 0,
            by_severity: [0; 3],
            moves_left_out: 0,
            budget,
        }
    }

    /// Registers a file; returns its index for [`ViewerGame::file`].
    pub fn add_file(&mut self, name: &str) -> u32 {
        self.files.push(FileRow {
            name: name.to_string(),
            ..FileRow::default()
        });
        (self.files.len() - 1) as u32
    }

    /// The row of file `index`, to count its games into.
    pub fn file_row(&mut self, index: u32) -> Option<&mut FileRow> {
        self.files.get_mut(index as usize)
    }

    /// The files, in run order.
    pub fn files(&self) -> &[FileRow] {
        &self.files
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.game_count
    }

    /// Problems added.
    pub fn problems(&self) -> u64 {
        self.problem_count
    }

    /// Problems of `severity` added.
    pub fn count(&self, severity: ViewerSeverity) -> u64 {
        self.by_severity[usize::from(severity.code())]
    }

    /// The problems counted by severity, in words: `3 errors, 41 warnings and 2,114 notes`
    /// (a severity with none left out; `no problems` when there are none).
    pub fn problems_in_words(&self) -> String {
        let parts: Vec<String> = [
            (ViewerSeverity::Error, "error"),
            (ViewerSeverity::Warning, "warning"),
            (ViewerSeverity::Note, "note"),
        ]
        .iter()
        .filter(|(s, _)| self.count(*s) > 0)
        .map(|&(s, word)| {
            let n = self.count(s);
            format!("{} {word}{}", thousands(n), if n == 1 { "" } else { "s" })
        })
        .collect();
        match parts.as_slice() {
            [] => "no problems".to_string(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        }
    }

    /// Games kept without their moves (the budget was spent).
    pub fn moves_left_out(&self) -> u64 {
        self.moves_left_out
    }

    /// True while games are kept with their moves: once false, it stays false, and games
    /// may be encoded without them ([`ViewerGame::encode_without_moves`]).
    pub fn wants_moves(&self) -> bool {
        self.games.len() < self.budget
    }

    /// Adds a game of file `file` ([`Viewer::add_file`]), numbered `number` (from 1) in it.
    pub fn add(&mut self, file: u32, number: u64, game: &EncodedGame) {
        let full = game.full.as_ref().filter(|_| self.wants_moves());
        if full.is_none() && game.has_moves {
            self.moves_left_out += 1;
        }
        let body = full.unwrap_or(&game.lite);
        if !self.games.is_empty() {
            self.games.push(',');
        }
        let label = self.string(&game.label);
        let tags = game.tags.clone().map(|t| self.string(&t));
        let _ = write!(
            self.games,
            "{{\"f\":{file},\"n\":{number},\"l\":{label},\"t\":[{},{},{},{},{}],",
            tags[0], tags[1], tags[2], tags[3], tags[4]
        );
        if !game.players.is_empty() {
            self.games.push_str("\"y\":[");
            for (i, (seat, player)) in game.players.iter().enumerate() {
                let (seat, player) = (self.string(seat), self.string(player));
                let _ = write!(
                    self.games,
                    "{}[{seat},{player}]",
                    if i > 0 { "," } else { "" }
                );
            }
            self.games.push_str("],");
        }
        self.games.push_str("\"p\":[");
        for (i, p) in game.problems.iter().enumerate() {
            let (code, message) = (self.string(&p.code), self.string(&p.message));
            let _ = write!(
                self.games,
                "{}[{},{code},{},{message},{}]",
                if i > 0 { "," } else { "" },
                p.ply,
                p.severity.code(),
                p.rest
            );
            self.by_severity[usize::from(p.severity.code())] += 1;
        }
        let _ = write!(self.games, "],{}", &body[1..]);
        self.game_count += 1;
        self.problem_count += game.problems.len() as u64;
    }

    /// The index of `text` in the table of strings.
    fn string(&mut self, text: &str) -> usize {
        if let Some(&i) = self.string_index.get(text) {
            return i;
        }
        self.strings.push(text.to_string());
        self.string_index
            .insert(text.to_string(), self.strings.len() - 1);
        self.strings.len() - 1
    }

    /// The data as one JSON document (what the page embeds).
    pub fn data_json(&self) -> String {
        let files: Vec<&str> = self.files.iter().map(|f| f.name.as_str()).collect();
        let files = serde_json::to_string(&files)
            .unwrap_or_else(|_| "[]".into())
            .replace('<', "\\u003c");
        let strings = safe(json!(self.strings));
        format!(
            "{{\"files\":{files},\"s\":{strings},\"games\":[{}]}}",
            self.games
        )
    }

    /// The viewer's markup, style, data and script, to place in a page's `<body>`.
    /// `show_table` lists the games (players, event, date, result) to choose from.
    pub fn body_html(&self, show_table: bool) -> String {
        let mut out = String::with_capacity(self.games.len() + (32 << 10));
        let _ = write!(
            out,
            "<style>{VIEWER_CSS}</style>\n<div id=\"viewer\" data-mode=\"{}\">\n{VIEWER_HTML}</div>\n\
             <script type=\"application/json\" id=\"viewer-data\">{}</script>\n\
             <script>{VIEWER_JS}</script>\n",
            if show_table { "games" } else { "problems" },
            self.data_json()
        );
        out
    }

    /// A whole page: the viewer alone, with a table of every game (`arbiter view`).
    pub fn page_html(&self, title: &str) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n</head>\n<body class=\"viewer-page\">\n<h1>{}</h1>\n<p class=\"lead\">{} \
             {} in {} {}: {}.{}</p>\n{}</body>\n</html>\n",
            esc(title),
            esc(title),
            thousands(self.game_count),
            if self.game_count == 1 { "game" } else { "games" },
            thousands(self.files.len() as u64),
            if self.files.len() == 1 { "file" } else { "files" },
            self.problems_in_words(),
            if self.count(ViewerSeverity::Note) > 0 {
                " Notes are not faults: they say how a game was read (how it was identified, \
                 an exporter's habit)."
            } else {
                ""
            },
            self.body_html(true)
        )
    }
}

/// Paths as `[[file, rank], …]` lists.
fn paths(p: &[SquarePath]) -> Value {
    json!(p
        .iter()
        .map(|path| path.iter().map(|&(f, r)| [f, r]).collect::<Vec<_>>())
        .collect::<Vec<_>>())
}

/// A board as items: `p<file>,<rank>,<seat>[K][x<count>][T]` for a piece (seat `-` when no
/// seat owns it), `m<file>,<rank>,<S|L>` for a safe or locked square, `t<seat>` for the seat
/// to move, `n<text>` for a note, `a<file>,<rank>;…` for each path of the last move.
pub(crate) fn board_items(b: &Board, last_move: &[SquarePath]) -> Vec<String> {
    let mut out = Vec::with_capacity(b.pieces.len() + b.marks.len() + 4);
    for p in &b.pieces {
        let mut s = format!(
            "p{},{},{}",
            p.file,
            p.rank,
            p.seat.map_or("-".to_string(), |s| s.to_string())
        );
        if p.king {
            s.push('K');
        }
        if p.count > 1 {
            let _ = write!(s, "x{}", p.count);
        }
        if p.twin {
            s.push('T');
        }
        out.push(s);
    }
    for &(f, r, m) in &b.marks {
        let m = match m {
            SquareMark::Safe => 'S',
            SquareMark::Locked => 'L',
        };
        out.push(format!("m{f},{r},{m}"));
    }
    out.push(format!("t{}", b.to_move.0));
    out.extend(b.notes.iter().map(|n| format!("n{n}")));
    for path in last_move {
        let squares: Vec<String> = path.iter().map(|(f, r)| format!("{f},{r}")).collect();
        out.push(format!("a{}", squares.join(";")));
    }
    out
}

/// `n` with a comma between groups of three digits (`2,114`).
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const VIEWER_HTML: &str = include_str!("viewer.html");
const VIEWER_CSS: &str = include_str!("viewer.css");
const VIEWER_JS: &str = include_str!("viewer.js");

#[cfg(test)]
mod tests {
    use super::*;
    use game::{BoardPiece, Seat};

    fn board(n: u8) -> Board {
        let mut b = Board::new(8, 8, BoardStyle::DarkOnly, &["White", "Black"], Seat(n % 2));
        for f in 0..n {
            b.pieces.push(BoardPiece::man(f, 0, Some(0)));
        }
        b
    }

    /// Rebuilds every position of a game from the page's data, as the script does.
    fn replay(data: &Value, game: usize) -> Vec<(String, Vec<String>)> {
        let packed = data["games"][game]["z"].as_str().expect("packed moves");
        pack::unpack(packed).expect("unpacks").0
    }

    #[test]
    fn positions_round_trip_through_the_page_data() {
        let boards: Vec<Board> = (0..5).map(board).collect();
        let fens: Vec<String> = (0..5).map(|i| format!("W:W{}:B{}", i, 10 - i)).collect();
        let arrow = vec![vec![(1u8, 1u8), (3, 3)]];
        let positions: Vec<ViewerPosition> = (0..5)
            .map(|i| ViewerPosition {
                fen: &fens[i],
                board: &boards[i],
                last_move: if i == 0 { &[] } else { &arrow },
            })
            .collect();
        let mut v = Viewer::new(VIEWER_BUDGET);
        let file = v.add_file("a</script>.pdn");
        let game = ViewerGame {
            label: "Test",
            tags: ["W", "B", "E", "2024", "1-0"],
            players: vec![("White", "W"), ("Black", "B")],
            positions,
            moves: vec!["a", "b", "c", "d"],
            plies_written: 4,
            problems: vec![ViewerProblem {
                ply: Some(5),
                code: "illegal-move",
                severity: ViewerSeverity::Error,
                message: "no </script> here",
                line: 9,
                written: Some("x"),
                played: &[],
                suggested: &arrow,
                variation: None,
            }],
            record: "",
            analysis: vec![
                ViewerPly {
                    eval: Some(12),
                    ..ViewerPly::default()
                },
                ViewerPly::default(),
                ViewerPly {
                    seat: 1,
                    eval: Some(-250),
                    class: Some("blunder"),
                    best: Some("c2"),
                    line: "c2 d2",
                    best_paths: arrow.clone(),
                },
                ViewerPly {
                    eval: Some(-240),
                    class: Some("no such class"),
                    ..ViewerPly::default()
                },
            ],
            accuracy: vec![97.25, 81.0],
        };
        v.add(file, 3, &game.encode());
        let json = v.data_json();
        assert!(!json.contains("</"));
        let data: Value = serde_json::from_str(&json).expect("valid JSON");
        let back = replay(&data, 0);
        assert_eq!(back.len(), 5);
        for (i, (fen, items)) in back.iter().enumerate() {
            assert_eq!(fen, &fens[i]);
            let last: &[SquarePath] = if i == 0 { &[] } else { &arrow };
            assert_eq!(items, &board_items(&boards[i], last));
        }
        assert_eq!(data["files"][0], "a</script>.pdn");
        let message = data["games"][0]["p"][0][3].as_u64().unwrap() as usize;
        assert_eq!(data["s"][message], "no </script> here");
        let text = |v: &Value| data["s"][v.as_u64().unwrap() as usize].clone();
        assert_eq!(text(&data["games"][0]["l"]), "Test");
        assert_eq!(text(&data["games"][0]["t"][3]), "2024");
        assert_eq!((v.games(), v.problems()), (1, 1));
        let a = &data["games"][0]["a"];
        assert_eq!(a["e"], "12,,-250,-240");
        assert_eq!(a["k"], "..b.");
        assert_eq!(data["games"][0]["q"], json!([97.3, 81.0]));
        assert_eq!(a["b"], json!([[3, "c2", "c2 d2", [[[1, 1], [3, 3]]], 1]]));
        assert_eq!(
            (&data["games"][0]["f"], &data["games"][0]["n"]),
            (&json!(0), &json!(3))
        );
    }

    /// Each problem's severity reaches the page (0 note, 1 warning, 2 error), the headline
    /// counts each kind, and every seat's player is kept with its seat's name.
    #[test]
    fn severities_are_counted_apart_and_every_seat_keeps_its_player() {
        let problem = |severity, code| ViewerProblem {
            ply: None,
            code,
            severity,
            message: "m",
            line: 1,
            written: None,
            played: &[],
            suggested: &[],
            variation: None,
        };
        let mut problems = vec![problem(ViewerSeverity::Error, "illegal-move")];
        problems.push(problem(ViewerSeverity::Warning, "bad-tag"));
        problems.extend((0..1203).map(|_| problem(ViewerSeverity::Note, "game-inferred")));
        let game = ViewerGame {
            label: "Four seats",
            tags: ["", "", "Cup", "", "*"],
            players: vec![
                ("South", "Ann"),
                ("West", "Bo"),
                ("North", ""),
                ("East", "Dee"),
            ],
            problems,
            ..ViewerGame::default()
        };
        let mut v = Viewer::new(VIEWER_BUDGET);
        let file = v.add_file("f");
        v.add(file, 1, &game.encode());
        v.add(file, 2, &ViewerGame::default().encode());
        let data: Value = serde_json::from_str(&v.data_json()).unwrap();
        let text = |v: &Value| data["s"][v.as_u64().unwrap() as usize].clone();
        let g = &data["games"][0];
        let seats: Vec<(Value, Value)> = g["y"]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| (text(&q[0]), text(&q[1])))
            .collect();
        assert_eq!(
            seats,
            [
                (json!("South"), json!("Ann")),
                (json!("West"), json!("Bo")),
                (json!("North"), json!("")),
                (json!("East"), json!("Dee"))
            ]
        );
        assert!(data["games"][1].get("y").is_none(), "no seats known");
        let severities: Vec<u64> = (0..3).map(|i| g["p"][i][2].as_u64().unwrap()).collect();
        assert_eq!(severities, [2, 1, 0]);
        assert_eq!(
            [
                ViewerSeverity::Error,
                ViewerSeverity::Warning,
                ViewerSeverity::Note
            ]
            .map(|s| v.count(s)),
            [1, 1, 1203]
        );
        assert_eq!(v.problems_in_words(), "1 error, 1 warning and 1,203 notes");
        let page = v.page_html("t");
        assert!(
            page.contains("2 games in 1 file: 1 error, 1 warning and 1,203 notes."),
            "{}",
            &page[..600]
        );
        assert!(!page.contains("1205 problems"));
        assert_eq!(Viewer::new(1).problems_in_words(), "no problems");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn past_the_budget_games_keep_their_problems_but_not_their_moves() {
        let b = board(3);
        let mut v = Viewer::new(10);
        let file = v.add_file("f");
        for number in 1..=3 {
            let game = ViewerGame {
                label: "Test",
                positions: vec![ViewerPosition {
                    fen: "W",
                    board: &b,
                    last_move: &[],
                }],
                problems: vec![ViewerProblem {
                    ply: None,
                    code: "bad-tag",
                    severity: ViewerSeverity::Warning,
                    message: "m",
                    line: 1,
                    written: None,
                    played: &[],
                    suggested: &[],
                    variation: None,
                }],
                ..ViewerGame::default()
            };
            v.add(file, number, &game.encode());
        }
        let data: Value = serde_json::from_str(&v.data_json()).unwrap();
        assert!(data["games"][0].get("z").is_some());
        assert_eq!(data["games"][1]["x"], 1);
        assert_eq!(v.moves_left_out(), 2);
        assert_eq!(v.problems(), 3);
    }

    /// Games encoded without their moves once the viewer wants no more give the same page
    /// data as games encoded whole: the viewer would have left their moves out anyway.
    #[test]
    fn games_encoded_without_moves_past_the_budget_give_the_same_page() {
        let b = board(3);
        let fen = ["W:W1:B9", "B:W2:B9", "W:W2:B8"];
        let games: Vec<ViewerGame> = (0..6)
            .map(|i| ViewerGame {
                label: "Test",
                positions: fen[..1 + i % 3]
                    .iter()
                    .map(|f| ViewerPosition {
                        fen: f,
                        board: &b,
                        last_move: &[],
                    })
                    .collect(),
                moves: vec!["a", "b"][..i % 3].to_vec(),
                record: if i == 5 { "1. a *" } else { "" },
                ..ViewerGame::default()
            })
            .collect();
        let mut whole = Viewer::new(120);
        let mut lean = Viewer::new(120);
        let (f1, f2) = (whole.add_file("f"), lean.add_file("f"));
        for (n, game) in games.iter().enumerate() {
            whole.add(f1, n as u64, &game.encode());
            let encoded = if lean.wants_moves() {
                game.encode()
            } else {
                game.encode_without_moves()
            };
            lean.add(f2, n as u64, &encoded);
        }
        assert!(!lean.wants_moves(), "the budget is spent within the test");
        assert!(whole.moves_left_out() > 0);
        assert_eq!(lean.data_json(), whole.data_json());
        assert_eq!(lean.moves_left_out(), whole.moves_left_out());
    }

    #[test]
    fn a_game_not_replayed_keeps_its_record_and_a_variation_problem_its_board() {
        let b = board(2);
        let problem = ViewerProblem {
            ply: Some(7),
            code: "illegal-move",
            severity: ViewerSeverity::Error,
            message: "m",
            line: 3,
            written: Some("1-5"),
            played: &[],
            suggested: &[],
            variation: Some(("B:W1:B2", &b)),
        };
        let game = ViewerGame {
            label: "Unknown game",
            record: "1. 32-28 19-23 *",
            problems: vec![problem],
            ..ViewerGame::default()
        };
        let mut v = Viewer::new(VIEWER_BUDGET);
        let file = v.add_file("f");
        v.add(file, 1, &game.encode());
        let data: Value = serde_json::from_str(&v.data_json()).unwrap();
        let g = &data["games"][0];
        assert_eq!(g["r"], "1. 32-28 19-23 *");
        assert_eq!(g["h"][0], 8, "the variation's board has the game's shape");
        let p = &g["p"][0];
        assert_eq!(p[8][0], "B:W1:B2");
        let items: Vec<String> = serde_json::from_value(p[8][1].clone()).unwrap();
        assert_eq!(items, board_items(&b, &[]));
        // Past the budget the record is left out, the variation's board is not.
        let mut v = Viewer::new(0);
        let file = v.add_file("f");
        v.add(file, 1, &game.encode());
        let data: Value = serde_json::from_str(&v.data_json()).unwrap();
        assert_eq!(data["games"][0]["x"], 1);
        assert!(data["games"][0].get("r").is_none());
        assert_eq!(data["games"][0]["p"][0][8][0], "B:W1:B2");
    }
}
