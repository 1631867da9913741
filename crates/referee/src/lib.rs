//! Replays recorded games against the rules and explains what is wrong.
//!
//! [`Referee`] is a [`pdn::Visitor`]: hand it to [`pdn::Reader::read_game`] and it returns a
//! [`GameReport`] per game, with every diagnostic (syntax problems from the reader and rules
//! problems from the replay) and, on request, the per-ply facts that statistics are built from.
//!
//! The referee names no game. It identifies a record's game through a [`Catalog`] (the game
//! registry: `game::Registry` plus a way to build a [`ReplayEngine`] for each game), and the
//! replay itself (the private `replay` module) is generic over [`game::Game`].
#![deny(missing_docs)]

mod details;
mod infer;
mod replay;
mod report;
mod tags;

use std::ops::ControlFlow;

pub use details::{PlyDetail, PlyDetails, Squares};
pub use game::{Board, Code, GameInfo, Options, Outcome, PlyFacts, Registry, Seat, SquarePath};
pub use pdn::visitor::{Severity, Span};
pub use report::{
    BoardAt, BoardView, Diagnostic, DiagnosticCode, GameReport, OpeningLine, Rewrite, Settings,
    Snapshot, TagList,
};

use game::Unidentified;
use infer::{Decisions, EventLog, Keep};
use pdn::visitor::{CommentKind, SyntaxProblem, Visitor};
use replay::{Mode, Replay, Replayer};
use tags::{TagStore, TagView};

/// The replay of one game's records under one ruleset, ready to be driven by a [`Referee`].
/// Made by [`engine`] from any [`game::Explore`] implementation.
pub struct ReplayEngine(Box<dyn Replay + Send>);

/// The replay engine of a game.
pub fn engine<G>(game: G) -> ReplayEngine
where
    G: game::Explore + Send + 'static,
    G::Position: Send,
{
    ReplayEngine(Box::new(Replayer::new(game)))
}

/// The games a referee can replay: the registry and a way to build each game's engine.
pub trait Catalog: Send + Sync {
    /// The games, for identifying records.
    fn registry(&self) -> &Registry;
    /// A replay engine for `game` under `options` (options already checked against the
    /// game's [`GameInfo::options`]).
    fn engine(&self, game: &'static GameInfo, options: &Options) -> ReplayEngine;
}

/// An engine kept for reuse, with what it was built for.
struct Cached {
    game: &'static str,
    options: Options,
    engine: ReplayEngine,
}

/// The visitor that checks games. Reuse one referee for a whole stream: its buffers and
/// engines are kept.
pub struct Referee<'c> {
    catalog: &'c dyn Catalog,
    settings: Settings,
    tags: TagStore,
    engines: Vec<Cached>,
    active: Option<usize>,
    report: GameReport,
    plies_written_main: u32,
    depth: u32,
    /// The last identification, by the raw `Variant` and `GameType` tags it was made from:
    /// the games of one file nearly always carry the same ones.
    last_identity: Option<(Vec<u8>, Result<&'static GameInfo, Unidentified>)>,
    /// The current record's identity key, in a buffer kept from record to record.
    identity: Vec<u8>,
    /// An emptied facts list handed back by [`Referee::recycle_facts`], for the next game.
    spare_facts: Vec<PlyFacts>,
    /// An emptied details list handed back by [`Referee::recycle_details`].
    spare_details: PlyDetails,
    /// An emptied opening line handed back by [`Referee::recycle_line`].
    spare_line: OpeningLine,
    /// The movetext of the current record, where its game may have to be found from it or
    /// its tag checked against it.
    log: EventLog,
    /// The record names no game: why, until its game is found at its end.
    unnamed: Option<Unidentified>,
    /// A report the trials of candidate games replay into.
    scratch: GameReport,
    /// Games chosen by claim for earlier records.
    decisions: Decisions,
}

/// Where the game of a record came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// `--game`.
    Forced,
    /// A `Variant` or `GameType` tag.
    Tag,
    /// `--default-game`.
    Default,
}

impl<'c> Referee<'c> {
    /// A referee for the games of `catalog`, with the given settings.
    pub fn new(catalog: &'c dyn Catalog, settings: Settings) -> Self {
        Referee {
            catalog,
            settings,
            tags: TagStore::default(),
            engines: Vec::new(),
            active: None,
            report: GameReport::default(),
            plies_written_main: 0,
            depth: 0,
            last_identity: None,
            identity: Vec::new(),
            spare_facts: Vec::new(),
            spare_details: PlyDetails::default(),
            spare_line: OpeningLine::default(),
            log: EventLog::default(),
            unnamed: None,
            scratch: GameReport::default(),
            decisions: Decisions::default(),
        }
    }

    /// Hands back a report's facts list once they have been read, so that the next game
    /// collects its facts in it instead of a new one: a list is allocated and freed per game
    /// otherwise, and a long game's is big enough for the allocator to tidy its heap on every
    /// free.
    pub fn recycle_facts(&mut self, mut facts: Vec<PlyFacts>) {
        facts.clear();
        self.spare_facts = facts;
    }

    /// Like [`Referee::recycle_facts`], for a report's opening line
    /// ([`Settings::opening_plies`]).
    pub fn recycle_line(&mut self, mut line: OpeningLine) {
        line.clear();
        self.spare_line = line;
    }

    /// Like [`Referee::recycle_facts`], for a report's details ([`Settings::details`]): the
    /// next game describes its plies in these buffers instead of growing new ones.
    pub fn recycle_details(&mut self, mut details: PlyDetails) {
        details.clear();
        self.spare_details = details;
    }

    /// The game of the current record: forced by the settings, else from its tags, else the
    /// settings' default.
    fn identify(&mut self) -> Result<(&'static GameInfo, Source), Unidentified> {
        if let Some(game) = self.settings.game {
            return Ok((game, Source::Forced));
        }
        match self.identify_by_tags() {
            Ok(game) => Ok((game, Source::Tag)),
            Err(why) => match self.settings.default_game {
                Some(game) => Ok((game, Source::Default)),
                None => Err(why),
            },
        }
    }

    /// The game the record's `Variant` and `GameType` tags name.
    fn identify_by_tags(&mut self) -> Result<&'static GameInfo, Unidentified> {
        self.tags.identity_key(&mut self.identity);
        if let Some((last, found)) = &self.last_identity {
            if *last == self.identity {
                return found.clone();
            }
        }
        let key = self.identity.clone();
        let variant = self.tags.get(b"Variant");
        let game_type = self.tags.get(b"GameType");
        let found = self
            .catalog
            .registry()
            .identify(variant.as_deref(), game_type.as_deref());
        self.last_identity = Some((key, found.clone()));
        found
    }

    /// The span a game-level diagnostic points at: the first of these tags found, else the
    /// start of the game.
    fn tag_span(&self, names: &[&[u8]]) -> Span {
        names
            .iter()
            .find_map(|n| self.tags.span(n))
            .unwrap_or(Span::new(self.report.span.start, self.report.span.start))
    }

    fn warn(&mut self, code: Code, span: Span, message: String) {
        self.report.diagnostics.push(Diagnostic {
            code: code.into(),
            severity: Severity::Warning,
            span,
            message,
            ply: None,
            move_number: None,
            snapshot: None,
        });
    }

    /// The ruleset options of the record for `game`; an unknown option is a warning and the
    /// default rules are used.
    fn options(&mut self, game: &'static GameInfo) -> Options {
        let (text, from_tag) = match &self.settings.rules {
            Some(r) => (Some(r.clone()), false),
            None => (self.tags.get(b"Rules"), true),
        };
        let Some(text) = text else {
            return Options::default();
        };
        match game.parse_options(&text) {
            Ok(options) => options,
            Err(e) => {
                let span = if from_tag {
                    self.tag_span(&[b"Rules"])
                } else {
                    self.tag_span(&[])
                };
                self.warn(
                    Code::BadTag,
                    span,
                    format!("{e}; the default rules are used"),
                );
                Options::default()
            }
        }
    }

    /// The index of the cached engine for `game` under `options`, built if needed.
    fn engine_for(&mut self, game: &'static GameInfo, options: &Options) -> usize {
        if let Some(i) = self
            .engines
            .iter()
            .position(|c| c.game == game.id && &c.options == options)
        {
            return i;
        }
        self.engines.push(Cached {
            game: game.id,
            options: options.clone(),
            engine: self.catalog.engine(game, options),
        });
        self.engines.len() - 1
    }

    /// What the replay produces besides diagnostics, from the settings.
    fn mode(&self) -> Mode {
        Mode {
            collect: self.settings.collect_facts,
            rewrite: self.settings.rewrite,
            snapshots: self.settings.snapshots,
            board_at: self.settings.board_at,
            details: self.settings.details,
            positions: self.settings.positions,
            boards: self.settings.boards,
            opening_plies: self.settings.opening_plies,
        }
    }

    fn select_game(&mut self) {
        self.active = None;
        self.unnamed = None;
        let (game, source) = match self.identify() {
            Ok(found) => found,
            Err(why) => {
                // The game is found from the record at its end.
                let fen = self.tags.get(b"FEN");
                self.log.start(Keep::All, fen.as_deref());
                self.unnamed = Some(why);
                return;
            }
        };
        let keep = if source == Source::Tag {
            Keep::Head
        } else {
            Keep::Nothing
        };
        self.log.start(keep, None);
        let options = self.options(game);
        let index = self.engine_for(game, &options);
        self.report.game = Some(game);
        self.report.options = options;
        self.active = Some(index);
        let view = TagView(&self.tags);
        let mode = self.mode();
        let diagnostics = &mut self.report.diagnostics;
        self.engines[index].engine.0.start(&view, mode, diagnostics);
    }

    /// The active replay and the report's diagnostics, if the game is known.
    fn replay(&mut self) -> Option<(&mut dyn Replay, &mut Vec<Diagnostic>)> {
        let index = self.active?;
        let replay: &mut dyn Replay = &mut *self.engines[index].engine.0;
        Some((replay, &mut self.report.diagnostics))
    }
}

impl Visitor for Referee<'_> {
    type Output = GameReport;

    fn begin_game(&mut self, offset: u64) -> ControlFlow<()> {
        self.tags.clear();
        self.active = None;
        self.report = GameReport {
            span: Span::new(offset, offset),
            ..Default::default()
        };
        self.plies_written_main = 0;
        self.depth = 0;
        self.unnamed = None;
        self.log.start(Keep::Nothing, None);
        ControlFlow::Continue(())
    }

    fn tag(&mut self, name: &[u8], value: &[u8], span: Span) -> ControlFlow<()> {
        self.tags.push(name, value, span);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        self.select_game();
        ControlFlow::Continue(())
    }

    fn move_number(&mut self, number: u32, continuation: bool, _span: Span) -> ControlFlow<()> {
        self.log.move_number(number, continuation);
        if let Some((r, _)) = self.replay() {
            r.move_number(number, continuation);
        }
        ControlFlow::Continue(())
    }

    fn mov(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.log.token(token, span);
        let starts = match self.replay() {
            Some((r, diags)) => r.token(token, span, diags),
            None => true,
        };
        if starts && self.depth == 0 {
            self.plies_written_main += 1;
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _text: &[u8], _kind: CommentKind, _span: Span) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn setup(&mut self, fen: &[u8], span: Span) -> ControlFlow<()> {
        self.log.setup(fen, span);
        if let Some((r, diags)) = self.replay() {
            r.setup(fen, span, diags);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.depth += 1;
        self.log.variation(true, span);
        if let Some((r, diags)) = self.replay() {
            r.begin_variation(span, diags);
        }
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self, span: Span) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        self.log.variation(false, span);
        if let Some((r, diags)) = self.replay() {
            r.end_variation(span, diags);
        }
        ControlFlow::Continue(())
    }

    fn result(&mut self, token: &[u8], span: Span) -> ControlFlow<()> {
        self.log.result(token, span);
        if let Some((r, diags)) = self.replay() {
            r.result(token, span, diags);
        }
        ControlFlow::Continue(())
    }

    fn problem(&mut self, problem: SyntaxProblem) {
        self.report
            .diagnostics
            .push(Diagnostic::from_syntax(problem));
    }

    fn end_game(&mut self, span: Span) -> GameReport {
        if let Some(why) = self.unnamed.take() {
            self.infer(&why);
        }
        let mut report = std::mem::take(&mut self.report);
        report.span = span;
        report.plies_written = self.plies_written_main;
        if self.settings.keep_tags {
            report.tags = self.tags.all();
        }
        if let Some(index) = self.active {
            let view = TagView(&self.tags);
            // The replay swaps its facts for this empty list (see `recycle_facts`).
            report.facts = std::mem::take(&mut self.spare_facts);
            report.details = std::mem::take(&mut self.spare_details);
            report.line = std::mem::take(&mut self.spare_line);
            self.engines[index].engine.0.finish(&view, &mut report);
            self.check_tag(&mut report);
        }
        report
            .diagnostics
            .sort_by_key(|d| (d.span.start, std::cmp::Reverse(d.severity)));
        report
    }
}
