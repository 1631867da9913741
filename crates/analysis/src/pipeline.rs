//! Whole games analysed: records replayed by the referee and analysed on every core, a
//! batch of games a task, handed back in input order.
//!
//! The caller reads the records ([`read_game`] gives one with the places of its move
//! tokens) and consumes the results ([`Analysed`]); [`analyse_games`] does the rest. The CLI
//! (`arbiter analyse`) and the Python package both run it, so they give the same rows.

use std::collections::BTreeMap;
use std::io;

use pdn::{GameRecord, Node, RecordBuilder};
use referee::{GameReport, Referee, Severity};

use crate::{
    Analyser, Catalog, EngineError, Engines, Figures, GameAnalysis, Settings, Started, Unanalysed,
};

/// Games per task: enough to keep the cores busy, few enough to hand results back steadily.
const BATCH: usize = 2;

/// One game as read: the record, and the line and column of every move token of its main
/// line (in order).
pub struct ReadGame {
    /// The record.
    pub record: GameRecord,
    /// Line and column (1-based) of each move token of the main line.
    pub places: Vec<(u64, u64)>,
}

/// What became of one game.
pub struct Analysed {
    /// 1-based index of the game in its input.
    pub index: u64,
    /// The record as read.
    pub record: GameRecord,
    /// The referee's report of its replay.
    pub report: GameReport,
    /// The analysis of its main line.
    pub analysis: GameAnalysis,
    /// Why the game was not analysed at all (its game is not known, it could not be set up,
    /// the external engine does not play it).
    pub skipped: Option<String>,
    /// The external engine failed on this game (its analysis is empty).
    pub failed: Option<EngineError>,
    /// Line and column of each analysed ply's first token.
    pub places: Vec<(u64, u64)>,
    /// For each analysed ply, the indices in the record's movetext of its first and last move
    /// tokens.
    pub nodes: Vec<(usize, usize)>,
}

impl Analysed {
    /// Errors the referee found in the record.
    pub fn errors(&self) -> usize {
        self.report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// The name of `seat` as its game names it (`White`, `South`), `?` when unknown.
    pub fn seat_name(&self, seat: u8) -> &'static str {
        self.report
            .game
            .and_then(|g| g.seat_names.get(usize::from(seat)).copied())
            .unwrap_or("?")
    }

    /// The player of `seat` as the record's tags name them (the tag named after the seat),
    /// else the seat's name.
    pub fn player(&self, seat: u8) -> String {
        let name = self.seat_name(seat);
        match self.record.tag(name).map(str::trim) {
            Some(v) if !v.is_empty() && v != "?" => v.to_string(),
            _ => name.to_string(),
        }
    }
}

/// Analyses `games` (numbered 1, 2, ... in the order given) on every core of the rayon pool;
/// `consume` gets them in that order. The first error of `games` or of `consume` stops the
/// run and is returned (games already analysed after it are dropped).
///
/// `settings` must ask for [`referee::Settings::details`] and
/// [`referee::Settings::positions`] (the analysis replays from them).
pub fn analyse_games<C: referee::Catalog + Catalog>(
    games: impl Iterator<Item = io::Result<ReadGame>>,
    catalog: &C,
    settings: &referee::Settings,
    asettings: Settings,
    consume: &mut dyn FnMut(Analysed) -> io::Result<()>,
) -> io::Result<()> {
    analyse_games_with(games, catalog, settings, asettings, None, consume)
}

/// [`analyse_games`] with the positions searched by external engines, one started for each
/// game (`None`: arbiter's own search). A game the engine does not play is skipped; one it
/// fails on comes back with [`Analysed::failed`].
pub fn analyse_games_with<C: referee::Catalog + Catalog>(
    games: impl Iterator<Item = io::Result<ReadGame>>,
    catalog: &C,
    settings: &referee::Settings,
    asettings: Settings,
    engines: Option<&dyn Engines>,
    consume: &mut dyn FnMut(Analysed) -> io::Result<()>,
) -> io::Result<()> {
    let mut games = games.zip(1u64..).peekable();
    let batches = std::iter::from_fn(|| {
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            match games.next()? {
                (Ok(game), i) => batch.push((i, game)),
                (Err(e), _) => return Some(Err(e)),
            }
            if games.peek().is_none() {
                break;
            }
        }
        Some(Ok(batch))
    });
    let threads = rayon::current_num_threads();
    pdn::chunk::map_ordered(
        batches,
        2 * threads,
        |batch: &Vec<(u64, ReadGame)>| {
            let mut referee = Referee::new(catalog, settings.clone());
            batch
                .iter()
                .map(|(i, g)| analyse_one(&mut referee, catalog, *i, g, asettings, engines))
                .collect::<Vec<_>>()
        },
        |done: Vec<Analysed>| done.into_iter().try_for_each(&mut *consume),
    )
}

/// The next game of the reader with the places of its main line's move tokens.
pub fn read_game<R: io::Read>(reader: &mut pdn::Reader<R>) -> io::Result<Option<ReadGame>> {
    let mut builder = RecordBuilder::new();
    let Some(record) = reader.read_game(&mut builder)? else {
        return Ok(None);
    };
    let places = record
        .movetext
        .iter()
        .filter_map(|n| match n {
            Node::Move(m) => {
                let at = reader.locate(m.span.start);
                Some((at.line, at.column))
            }
            _ => None,
        })
        .collect();
    Ok(Some(ReadGame { record, places }))
}

/// Replays and analyses one game.
fn analyse_one(
    referee: &mut Referee<'_>,
    catalog: &dyn Catalog,
    index: u64,
    game: &ReadGame,
    asettings: Settings,
    engines: Option<&dyn Engines>,
) -> Analysed {
    let report = game.record.accept(referee);
    let mut out = Analysed {
        index,
        record: game.record.clone(),
        analysis: GameAnalysis::default(),
        skipped: None,
        failed: None,
        places: Vec::new(),
        nodes: Vec::new(),
        report,
    };
    let Some(info) = out.report.game else {
        out.skipped = Some("its game is not identified, so it was not replayed".into());
        return out;
    };
    if out.report.start_position.is_empty() {
        out.skipped = Some("its start position could not be set up".into());
        return out;
    }
    let options = &out.report.options;
    let made = match engines.map(|e| e.start(info)) {
        None => catalog.analyser(info, options, asettings),
        Some(Ok(Started::Ready(engine))) => catalog.analyser_with(info, options, asettings, engine),
        Some(Ok(Started::NotPlayed(why))) => {
            out.skipped = Some(why);
            return out;
        }
        Some(Err(e)) => {
            out.failed = Some(e);
            return out;
        }
    };
    let Some(mut analyser) = made else {
        out.skipped = Some(format!("{} cannot be analysed", info.label));
        return out;
    };
    match analyser.analyse(&out.report) {
        Ok(a) => out.analysis = a,
        Err(e) => {
            out.failed = Some(e);
            return out;
        }
    }
    if out.analysis.unanalysed.is_none() && out.report.plies < out.report.plies_written {
        out.analysis.unanalysed = Some(Unanalysed {
            ply: out.report.plies + 1,
            why: "the record has an error there, so the replay stopped".into(),
        });
    }
    let plies = out.analysis.plies.len();
    for (k, first, last) in ply_tokens(analyser.as_ref(), &game.record)
        .into_iter()
        .take(plies)
    {
        out.places
            .push(game.places.get(k).copied().unwrap_or((0, 0)));
        out.nodes.push((first, last));
    }
    out
}

/// The plies of the main line: for each, the index of its first move token among the main
/// line's move tokens, and the indices in the movetext of its first and last move tokens.
fn ply_tokens(analyser: &dyn Analyser, record: &GameRecord) -> Vec<(usize, usize, usize)> {
    let mut plies: Vec<(usize, usize, usize)> = Vec::new();
    let moves = record
        .movetext
        .iter()
        .enumerate()
        .filter_map(|(i, n)| match n {
            Node::Move(m) => Some((i, m.token.as_bytes())),
            _ => None,
        });
    for (k, (i, token)) in moves.enumerate() {
        match plies.last_mut() {
            Some(last) if !analyser.starts_ply(token) => last.2 = i,
            _ => plies.push((k, i, i)),
        }
    }
    plies
}

/// Each player's figures over the games added, by name (sorted).
#[derive(Debug, Clone, Default)]
pub struct Players(BTreeMap<String, Figures>);

impl Players {
    /// Adds the figures of each seat of a game that moved in it to its player's.
    pub fn add(&mut self, g: &Analysed) {
        for &seat in &g.report.seats {
            let f = g.analysis.figures(seat);
            if f.moves > 0 {
                self.0.entry(g.player(seat)).or_default().merge(&f);
            }
        }
    }

    /// The players and their figures, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Figures)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// No player moved in the games added.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
