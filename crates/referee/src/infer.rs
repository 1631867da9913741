//! Identifying a record's game from the record itself, when no tag names it, and telling a
//! tag that contradicts its moves from a faulty move.
//!
//! While such a record is read its movetext is kept as a list of events ([`EventLog`]) and
//! its [`RecordShape`] is taken in. At the end of the game the registry's games whose board
//! fits the shape are the candidates; each replays the events, and those that replay fewer
//! plies (or, on equal plies, find more errors) drop out. One candidate left is the game;
//! several left are decided by the games' [`game::Claim`]s (the documented precedence); where
//! no claim decides, the game is not checked and the candidates are listed.
//!
//! A file's games nearly always share one shape: the game a claim chose is tried first for
//! the next game with the same candidates, and kept without trying the others when it is on
//! the smallest of their boards, replays that game cleanly and still holds its claim (the
//! others could not do better).

use game::{Claim, Code, GameInfo, Options, RecordShape, Seat, Unidentified};
use pdn::visitor::{Severity, Span};

use crate::replay::{Mode, Replay};
use crate::report::{Diagnostic, GameReport};
use crate::tags::TagView;
use crate::Referee;

/// Move tokens kept of a record whose game a tag names: enough to see that another board's
/// game plays the moves the tagged game refuses at once.
const HEAD_TOKENS: u32 = 24;

/// Plies another board's game must play, from the start position, before the tag of a game
/// that refuses them is called wrong.
const EVIDENCE_PLIES: u32 = 4;

/// One movetext event, its text in the log's byte buffer.
#[derive(Debug, Clone, Copy)]
enum Event {
    MoveNumber(u32, bool),
    Token(usize, usize, Span),
    Setup(usize, usize, Span),
    Open(Span),
    Close(Span),
    Result(usize, usize, Span),
}

/// What the log keeps of the current record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Keep {
    /// Nothing: the game is known and its tag cannot be wrong (`--game`, `--default-game`).
    #[default]
    Nothing,
    /// The first move tokens: a tag names the game.
    Head,
    /// Everything: the game must be found from the record.
    All,
}

/// The movetext of the current record, kept to be replayed under other games.
#[derive(Default)]
pub(crate) struct EventLog {
    keep: Keep,
    bytes: Vec<u8>,
    events: Vec<Event>,
    tokens: u32,
    /// What the FEN shows; the move tokens' part is added when asked for (see
    /// [`EventLog::shape`]), as most records never need it.
    fen_shape: RecordShape,
}

impl EventLog {
    pub(crate) fn start(&mut self, keep: Keep, fen: Option<&str>) {
        self.keep = keep;
        self.bytes.clear();
        self.events.clear();
        self.tokens = 0;
        self.fen_shape = RecordShape::EMPTY;
        if let (Some(fen), true) = (fen, keep != Keep::Nothing) {
            self.fen_shape.add_fen(fen);
        }
    }

    /// What the move tokens kept (and the FEN) show: the FEN's part, then each token's in
    /// order, as they came.
    pub(crate) fn shape(&self) -> RecordShape {
        let mut shape = self.fen_shape;
        for event in &self.events {
            if let Event::Token(s, e, _) = *event {
                shape.add_token(&self.bytes[s..e]);
            }
        }
        shape
    }

    pub(crate) fn keep(&self) -> Keep {
        self.keep
    }

    /// True when the record has neither a move nor a position to check.
    fn nothing_to_check(&self, fen: bool) -> bool {
        !fen && !self
            .events
            .iter()
            .any(|e| matches!(e, Event::Token(..) | Event::Setup(..)))
    }

    fn open(&self) -> bool {
        match self.keep {
            Keep::Nothing => false,
            Keep::Head => self.tokens < HEAD_TOKENS,
            Keep::All => true,
        }
    }

    fn text(&mut self, text: &[u8]) -> (usize, usize) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(text);
        (start, self.bytes.len())
    }

    pub(crate) fn move_number(&mut self, number: u32, continuation: bool) {
        if self.open() {
            self.events.push(Event::MoveNumber(number, continuation));
        }
    }

    #[inline]
    pub(crate) fn token(&mut self, token: &[u8], span: Span) {
        if self.open() {
            self.keep_token(token, span);
        }
    }

    /// The keeping part of [`EventLog::token`], out of line: most tokens of a record are past
    /// the head kept, and inlined into the referee's handler of every move token, it made that
    /// handler save and restore more registers on each call.
    #[inline(never)]
    fn keep_token(&mut self, token: &[u8], span: Span) {
        self.tokens += 1;
        let (s, e) = self.text(token);
        self.events.push(Event::Token(s, e, span));
    }

    pub(crate) fn setup(&mut self, fen: &[u8], span: Span) {
        if self.open() {
            let (s, e) = self.text(fen);
            self.events.push(Event::Setup(s, e, span));
        }
    }

    pub(crate) fn variation(&mut self, open: bool, span: Span) {
        if self.open() {
            self.events.push(if open {
                Event::Open(span)
            } else {
                Event::Close(span)
            });
        }
    }

    pub(crate) fn result(&mut self, token: &[u8], span: Span) {
        if self.open() {
            let (s, e) = self.text(token);
            self.events.push(Event::Result(s, e, span));
        }
    }

    /// Plays the events into a started replay; returns the plies written in the main line.
    fn replay(&self, r: &mut dyn Replay, diags: &mut Vec<Diagnostic>) -> u32 {
        let mut depth = 0u32;
        let mut plies = 0;
        for event in &self.events {
            match *event {
                Event::MoveNumber(n, c) => r.move_number(n, c),
                Event::Token(s, e, span) => {
                    if r.token(&self.bytes[s..e], span, diags) && depth == 0 {
                        plies += 1;
                    }
                }
                Event::Setup(s, e, span) => r.setup(&self.bytes[s..e], span, diags),
                Event::Open(span) => {
                    depth += 1;
                    r.begin_variation(span, diags);
                }
                Event::Close(span) => {
                    depth = depth.saturating_sub(1);
                    r.end_variation(span, diags);
                }
                Event::Result(s, e, span) => r.result(&self.bytes[s..e], span, diags),
            }
        }
        plies
    }
}

/// How one candidate game did on the record.
#[derive(Debug, Clone, Copy)]
struct Trial {
    game: &'static GameInfo,
    /// Main-line plies replayed.
    plies: u32,
    /// Main-line plies written, as this game reads them.
    written: u32,
    /// Errors found (results included).
    errors: usize,
    /// Errors about moves and positions (results aside).
    move_errors: usize,
    /// The seat that makes the first move.
    first: Option<Seat>,
}

/// What the record's candidates decide.
enum Decision {
    /// The one candidate left after the replays, and the seat that moves first in it.
    Only(&'static GameInfo, Option<Seat>),
    /// Several left; this one claims the record's shape.
    Claimed(&'static GameInfo, Claim),
    /// Several left and no claim decides (the candidates, and the first's first seat).
    Ambiguous(Vec<&'static GameInfo>, Option<Seat>),
    /// No game accepts the record.
    NoneFits,
}

/// The earlier decisions of this referee by claim, by the candidate games they were made
/// among.
#[derive(Default)]
pub(crate) struct Decisions(Vec<(Vec<&'static str>, &'static GameInfo)>);

impl Referee<'_> {
    /// Ruleset options from the `Rules` tag for `game`, or the default rules, without a word
    /// (candidates are only tried; the chosen game's options are checked as usual).
    fn quiet_options(&self, game: &'static GameInfo) -> Options {
        let text = self
            .settings
            .rules
            .clone()
            .or_else(|| self.tags.get(b"Rules"));
        text.and_then(|t| game.parse_options(&t).ok())
            .unwrap_or_default()
    }

    /// Replays the log under `game` without keeping anything.
    fn trial(&mut self, game: &'static GameInfo) -> Trial {
        let options = self.quiet_options(game);
        let index = self.engine_for(game, &options);
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.diagnostics.clear();
        let view = TagView(&self.tags);
        let engine = &mut self.engines[index].engine.0;
        engine.start(&view, Mode::default(), &mut scratch.diagnostics);
        let first = engine.first_seat();
        let written = self.log.replay(&mut **engine, &mut scratch.diagnostics);
        engine.finish(&view, &mut scratch);
        let errors = scratch
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error);
        let move_errors = errors
            .clone()
            .filter(|d| d.code != Code::ResultMismatch)
            .count();
        let trial = Trial {
            game,
            plies: scratch.plies,
            written,
            errors: errors.count(),
            move_errors,
            first,
        };
        self.scratch = scratch;
        trial
    }

    /// The candidates: the registry's games whose board fits the record's squares.
    fn candidates(&self) -> Vec<&'static GameInfo> {
        let shape = self.log.shape();
        self.catalog
            .registry()
            .games()
            .iter()
            .copied()
            .filter(|g| g.fits(&shape))
            .collect()
    }

    fn decide(&mut self) -> Decision {
        let candidates = self.candidates();
        let ids: Vec<&'static str> = candidates.iter().map(|g| g.id).collect();
        let style = self.log.shape().style();
        let earlier = self
            .decisions
            .0
            .iter()
            .find(|(k, _)| *k == ids)
            .map(|e| e.1);
        // The earlier game decides alone only where the full decision could not pass it over
        // for a smaller board (see `judge`).
        let smallest = candidates.iter().map(|g| board_size(g, style)).min();
        let earlier = earlier.filter(|g| Some(board_size(g, style)) == smallest);
        if let Some(game) = earlier {
            let t = self.trial(game);
            if t.errors == 0 && t.plies == t.written {
                if let Some(claim) = game.claim_for(style, t.first) {
                    return Decision::Claimed(game, *claim);
                }
            }
        }
        let trials: Vec<Trial> = candidates.iter().map(|&g| self.trial(g)).collect();
        let decision = judge(&trials, style);
        if let Decision::Claimed(game, _) = decision {
            self.decisions.0.retain(|(k, _)| *k != ids);
            self.decisions.0.push((ids, game));
        }
        decision
    }

    /// Finds the game of a record no tag names and replays it, or says why it cannot.
    pub(crate) fn infer(&mut self, why: &Unidentified) {
        if self.log.nothing_to_check(self.tags.get(b"FEN").is_some()) {
            return;
        }
        let span = self.tag_span(&[b"Variant", b"GameType"]);
        let tags = tag_words(why);
        let (game, message) = match self.decide() {
            Decision::Only(game, first) => {
                // The only game left that also claims the record is described by its claim,
                // so that a file's games chosen either way share one note.
                let style = self.log.shape().style();
                let why = match game.claim_for(style, first) {
                    Some(claim) => game.describe_claim(claim),
                    None => format!(
                        "{}, the only game whose rules accept the record",
                        self.shape_words(game, first)
                    ),
                };
                (game, format!("{} ({why}, {tags})", game.label))
            }
            Decision::Claimed(game, claim) => (
                game,
                format!("{} ({}, {tags})", game.label, game.describe_claim(&claim)),
            ),
            Decision::Ambiguous(games, first) => {
                let labels: Vec<&str> = games.iter().map(|g| g.label).collect();
                let shape = self.shape_words(games[0], first);
                let message = format!(
                    "the record names no game ({tags}) and it fits {} ({shape}); no rule \
                     picks one of them, so the moves were not checked: choose the game with \
                     --default-game GAME",
                    labels.join(", ")
                );
                self.error(Code::UnknownGame, span, message);
                return;
            }
            Decision::NoneFits => {
                let message = format!(
                    "the record names no game ({tags}) and no game arbiter knows accepts its \
                     moves, so they were not checked: choose the game with --default-game \
                     GAME ({})",
                    self.catalog.registry().id_list()
                );
                self.error(Code::UnknownGame, span, message);
                return;
            }
        };
        self.report.diagnostics.push(Diagnostic {
            code: Code::GameInferred.into(),
            severity: Severity::Note,
            span,
            message,
            ply: None,
            move_number: None,
            snapshot: None,
        });
        self.replay_inferred(game);
    }

    /// `8x8 squares in numbers, White moving first`: what the candidates share.
    fn shape_words(&self, game: &GameInfo, first: Option<Seat>) -> String {
        let b = game.profile.board;
        let mut text = format!("{}x{} squares", b.files, b.ranks);
        if let Some(style) = self.log.shape().style() {
            text.push_str(&format!(" in {style}"));
        }
        if let Some(name) = first.and_then(|s| game.seat_names.get(usize::from(s.0))) {
            text.push_str(&format!(", {name} moving first"));
        }
        text
    }

    /// Replays the record under the game found for it, as if a tag had named it.
    fn replay_inferred(&mut self, game: &'static GameInfo) {
        let options = self.options(game);
        let index = self.engine_for(game, &options);
        self.report.game = Some(game);
        self.report.options = options;
        self.active = Some(index);
        let mode = self.mode();
        let view = TagView(&self.tags);
        let engine = &mut self.engines[index].engine.0;
        let diagnostics = &mut self.report.diagnostics;
        engine.start(&view, mode, diagnostics);
        self.plies_written_main = self.log.replay(&mut **engine, diagnostics);
    }

    fn error(&mut self, code: Code, span: Span, message: String) {
        self.report.diagnostics.push(Diagnostic {
            code: code.into(),
            severity: Severity::Error,
            span,
            message,
            ply: None,
            move_number: None,
            snapshot: None,
        });
    }

    /// After a tagged game's replay: the tag is what is wrong, and the report says so instead
    /// of the moves' errors, when a game on another board plays what the tagged game refuses:
    /// from the start position, the tagged game refuses one of the first two plies and the
    /// other plays the first [`HEAD_TOKENS`] (at least [`EVIDENCE_PLIES`]) without a fault;
    /// or the tagged game cannot read the FEN and the other reads it and plays the moves.
    pub(crate) fn check_tag(&mut self, report: &mut GameReport) {
        let Some(tagged) = report.game else {
            return;
        };
        if self.log.keep() != Keep::Head {
            return;
        }
        let bad_fen = report.diagnostics.iter().any(|d| d.code == Code::BadFen);
        let from_start = self.tags.get(b"FEN").is_none();
        let refused_at_once = from_start
            && report.plies < 2
            && report.plies < report.plies_written
            && report.plies_written >= EVIDENCE_PLIES;
        if !(refused_at_once || bad_fen) {
            return;
        }
        let board = tagged.profile.board;
        let others: Vec<&'static GameInfo> = self
            .candidates()
            .into_iter()
            .filter(|g| {
                (g.profile.board.files, g.profile.board.ranks) != (board.files, board.ranks)
            })
            .collect();
        let mut fitting = Vec::new();
        for game in others {
            let t = self.trial(game);
            let plays_all = t.plies == t.written.min(report.plies_written);
            let evidence = if bad_fen {
                t.first.is_some()
            } else {
                t.plies >= EVIDENCE_PLIES
            };
            if t.move_errors == 0 && plays_all && evidence {
                fitting.push(game);
            }
        }
        let Some(first) = fitting.first() else {
            return;
        };
        let b = first.profile.board;
        let same: Vec<&str> = fitting
            .iter()
            .filter(|g| (g.profile.board.files, g.profile.board.ranks) == (b.files, b.ranks))
            .map(|g| g.label)
            .collect();
        let (tag, span) = match self.tags.get(b"Variant") {
            Some(v) if self.catalog.registry().by_name(&v) == Some(tagged) => {
                ("Variant", self.tags.span(b"Variant"))
            }
            _ => ("GameType", self.tags.span(b"GameType")),
        };
        let style = self
            .log
            .shape()
            .style()
            .map(|s| format!(" in {s}"))
            .unwrap_or_default();
        let message = format!(
            "the moves are {}x{} squares{style} (they fit {}); the {tag} tag says {}, so the \
             moves were not checked: correct the tag or choose the game with --game",
            b.files,
            b.ranks,
            same.join(", "),
            tagged.label
        );
        report
            .diagnostics
            .retain(|d| !(d.severity == Severity::Error && d.code.rules().is_some()));
        report.diagnostics.push(Diagnostic {
            code: Code::BadTag.into(),
            severity: Severity::Error,
            span: span.unwrap_or(Span::new(report.span.start, report.span.start)),
            message,
            ply: None,
            move_number: None,
            snapshot: None,
        });
    }
}

/// The decision the candidates' trials give (see the module's documentation).
fn judge(trials: &[Trial], style: Option<game::SquareStyle>) -> Decision {
    let Some(best) = trials.iter().map(|t| t.plies).max() else {
        return Decision::NoneFits;
    };
    if best == 0 && trials.iter().any(|t| t.written > 0) {
        return Decision::NoneFits;
    }
    let most: Vec<&Trial> = trials.iter().filter(|t| t.plies == best).collect();
    let fewest = most.iter().map(|t| t.errors).min().unwrap_or(0);
    let left: Vec<&Trial> = most.into_iter().filter(|t| t.errors == fewest).collect();
    // The smallest board that holds every square the record names: a record of squares 1
    // to 32 (a ballot's position, say) is taken as 8x8, not as a corner of a larger board.
    let size = |t: &&Trial| board_size(t.game, style);
    let smallest = left.iter().map(size).min().unwrap_or(0);
    let left: Vec<&Trial> = left.into_iter().filter(|t| size(t) == smallest).collect();
    if let [only] = left[..] {
        return Decision::Only(only.game, only.first);
    }
    let claimed: Vec<(&Trial, &Claim)> = left
        .iter()
        .filter_map(|t| t.game.claim_for(style, t.first).map(|c| (*t, c)))
        .collect();
    match claimed[..] {
        [(t, claim)] => Decision::Claimed(t.game, *claim),
        _ => Decision::Ambiguous(
            left.iter().map(|t| t.game).collect(),
            left.first().and_then(|t| t.first),
        ),
    }
}

/// How many squares a game's board has, as the record names them: its numbered squares for
/// a record in numbers, else every square.
fn board_size(game: &GameInfo, style: Option<game::SquareStyle>) -> u32 {
    let b = game.profile.board;
    match style {
        Some(game::SquareStyle::Numeric) => game.numbered_squares(),
        _ => u32::from(b.files) * u32::from(b.ranks),
    }
}

/// What the tags said, for messages: `no Variant or GameType tag`.
fn tag_words(why: &Unidentified) -> String {
    match why {
        Unidentified::NoTag => "no Variant or GameType tag".to_string(),
        Unidentified::Variant(v) => format!("Variant \"{v}\" is not a game arbiter knows"),
        Unidentified::GameType(t) => format!("GameType \"{t}\" is not a game arbiter knows"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{BoardShape, BoardStyle, Profile, SquareStyle};

    const fn info(id: &'static str, size: u8, claims: &'static [Claim]) -> GameInfo {
        GameInfo {
            id,
            label: id,
            variant_tag: id,
            aliases: &[],
            game_types: &[],
            options: &[],
            seat_names: &["White", "Black"],
            numeric_squares: true,
            profile: Profile {
                two_sides: true,
                shared_pieces: false,
                chance: None,
                counters: &[],
                board: BoardShape {
                    files: size,
                    ranks: size,
                    style: BoardStyle::DarkOnly,
                },
            },
            codes: &[],
            claims,
        }
    }

    static BIG: GameInfo = info(
        "big",
        10,
        &[Claim {
            squares: SquareStyle::Numeric,
            first: None,
            reason: "",
        }],
    );
    static BIG_TOO: GameInfo = info("big-too", 10, &[]);
    static SMALL: GameInfo = info(
        "small",
        8,
        &[Claim {
            squares: SquareStyle::Numeric,
            first: Some(Seat(1)),
            reason: "",
        }],
    );
    static SMALL_TOO: GameInfo = info("small-too", 8, &[]);

    fn trial(game: &'static GameInfo, plies: u32, errors: usize, first: u8) -> Trial {
        Trial {
            game,
            plies,
            written: 40,
            errors,
            move_errors: errors,
            first: Some(Seat(first)),
        }
    }

    fn chosen(d: Decision) -> Option<&'static str> {
        match d {
            Decision::Only(g, _) | Decision::Claimed(g, _) => Some(g.id),
            Decision::Ambiguous(..) | Decision::NoneFits => None,
        }
    }

    const NUMBERS: Option<SquareStyle> = Some(SquareStyle::Numeric);

    #[test]
    fn the_game_that_plays_furthest_wins_then_the_fewest_errors() {
        let t = [trial(&BIG, 30, 1, 0), trial(&BIG_TOO, 40, 0, 0)];
        assert!(matches!(judge(&t, NUMBERS), Decision::Only(g, _) if g.id == "big-too"));
        let t = [trial(&BIG, 40, 1, 0), trial(&BIG_TOO, 40, 0, 0)];
        assert_eq!(chosen(judge(&t, NUMBERS)), Some("big-too"));
        let t = [trial(&BIG, 0, 1, 0), trial(&BIG_TOO, 0, 1, 0)];
        assert!(matches!(judge(&t, NUMBERS), Decision::NoneFits));
        assert!(matches!(judge(&[], NUMBERS), Decision::NoneFits));
    }

    #[test]
    fn a_claim_decides_between_games_that_accept_the_record_alike() {
        let t = [trial(&BIG, 40, 0, 0), trial(&BIG_TOO, 40, 0, 0)];
        assert!(matches!(judge(&t, NUMBERS), Decision::Claimed(g, _) if g.id == "big"));
        // The claim is on numbers: a record in algebraic names is not decided.
        let algebraic = Some(SquareStyle::Algebraic);
        assert!(matches!(judge(&t, algebraic), Decision::Ambiguous(g, _) if g.len() == 2));
        // The small board's claim holds only with its second seat moving first.
        let t = [trial(&SMALL, 40, 0, 1), trial(&SMALL_TOO, 40, 0, 1)];
        assert_eq!(chosen(judge(&t, NUMBERS)), Some("small"));
        let t = [trial(&SMALL, 40, 0, 0), trial(&SMALL_TOO, 40, 0, 0)];
        assert!(matches!(judge(&t, NUMBERS), Decision::Ambiguous(..)));
    }

    #[test]
    fn squares_that_fit_a_small_board_are_taken_as_that_board() {
        // A position of squares 1 to 32 read alike by every game: the 8x8 games are left.
        let t = [
            trial(&BIG, 0, 0, 0),
            trial(&SMALL, 0, 0, 0),
            trial(&SMALL_TOO, 0, 0, 0),
        ];
        let mut t = t;
        for x in &mut t {
            x.written = 0;
        }
        match judge(&t, NUMBERS) {
            Decision::Ambiguous(games, _) => {
                let ids: Vec<&str> = games.iter().map(|g| g.id).collect();
                assert_eq!(ids, ["small", "small-too"]);
            }
            _ => panic!("expected the 8x8 games"),
        }
    }

    #[test]
    fn the_log_replays_what_it_kept() {
        let mut log = EventLog::default();
        log.start(Keep::Head, Some("W:W31-50:B1-20"));
        for i in 0..HEAD_TOKENS + 5 {
            log.token(format!("{}-{}", 31 + i % 5, 27).as_bytes(), Span::new(0, 1));
        }
        assert_eq!(log.tokens, HEAD_TOKENS);
        assert_eq!(log.shape().max_number, 35);
        log.start(Keep::Nothing, None);
        log.token(b"32-28", Span::new(0, 1));
        assert!(log.events.is_empty() && log.nothing_to_check(false));
        assert!(!log.nothing_to_check(true));
    }
}
