//! The pipeline of `arbiter analyse`: games read in order on this thread, replayed and
//! analysed on every core (a batch of games a task), handed back in input order.

use std::io::{self, BufReader};

use analysis::{Catalog as _, GameAnalysis};
use pdn::{GameRecord, Node, RecordBuilder};
use referee::{GameReport, Referee, Settings, Severity};

use ::archive::{read_error, Source};

/// Games per task: enough to keep the cores busy, few enough to hand results back steadily.
const BATCH: usize = 2;

/// One game as read: the record, and the line and column of every move token of its main
/// line (in order).
pub struct ReadGame {
    pub record: GameRecord,
    pub places: Vec<(u64, u64)>,
}

/// What became of one game.
pub struct Analysed {
    /// 1-based index of the game in its file.
    pub index: u64,
    pub record: GameRecord,
    pub report: GameReport,
    pub analysis: GameAnalysis,
    /// Why the game was not analysed at all (its game is not known, it could not be set up,
    /// the external engine does not play it).
    pub skipped: Option<String>,
    /// The external engine failed (the run stops with this message).
    pub failed: Option<String>,
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

    /// The player of `seat` as the record's tags name them (the tag named after the seat),
    /// else the seat's name.
    pub fn player(&self, seat: u8) -> String {
        let name = self
            .report
            .game
            .and_then(|g| g.seat_names.get(usize::from(seat)).copied())
            .unwrap_or("?");
        match self.record.tag(name).map(str::trim) {
            Some(v) if !v.is_empty() && v != "?" => v.to_string(),
            _ => name.to_string(),
        }
    }
}

/// An external Hub engine to search the positions with, the games Hub carries and the
/// variants the engine plays.
pub struct Engine {
    pub command: hub::EngineCommand,
    pub variants: Vec<(String, &'static game::GameInfo)>,
    pub plays: Vec<String>,
}

/// Reads `source` game by game (at most `most` games) and analyses the games on every core
/// (with `engine` if given, else arbiter's own search); `consume` gets them in input order.
pub fn run(
    source: &Source,
    most: u64,
    settings: &Settings,
    asettings: analysis::Settings,
    engine: Option<&Engine>,
    consume: &mut dyn FnMut(Analysed) -> io::Result<()>,
) -> io::Result<()> {
    let opened = source
        .open(games::games())
        .map_err(|e| read_error(e.into()))?;
    let mut reader = pdn::Reader::new(BufReader::with_capacity(1 << 16, opened));
    let mut done = false;
    let mut next_index = 0u64;
    let batches = std::iter::from_fn(|| {
        if done {
            return None;
        }
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            if next_index >= most {
                done = true;
                break;
            }
            match read_one(&mut reader) {
                Ok(Some(game)) => {
                    next_index += 1;
                    batch.push((next_index, game));
                }
                Ok(None) => {
                    done = true;
                    break;
                }
                Err(e) => {
                    done = true;
                    return Some(Err(read_error(e)));
                }
            }
        }
        (!batch.is_empty()).then_some(Ok(batch))
    });
    let threads = rayon::current_num_threads();
    pdn::chunk::map_ordered(
        batches,
        2 * threads,
        |batch: &Vec<(u64, ReadGame)>| {
            let mut referee = Referee::new(games::games(), settings.clone());
            batch
                .iter()
                .map(|(i, g)| analyse_one(&mut referee, *i, g, asettings, engine))
                .collect::<Vec<_>>()
        },
        |done: Vec<Analysed>| done.into_iter().try_for_each(&mut *consume),
    )
}

/// The next game of the reader with the places of its main line's move tokens.
fn read_one<R: io::Read>(reader: &mut pdn::Reader<R>) -> io::Result<Option<ReadGame>> {
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
    index: u64,
    game: &ReadGame,
    asettings: analysis::Settings,
    engine: Option<&Engine>,
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
    let catalog = games::games();
    let options = &out.report.options;
    let made = match engine {
        None => catalog.analyser(info, options, asettings),
        Some(e) => match e.command.start_for(&e.variants, &e.plays, info) {
            Ok(hub::Started::Ready(client)) => {
                catalog.analyser_with(info, options, asettings, Box::new(client))
            }
            Ok(hub::Started::NotPlayed(why)) => {
                out.skipped = Some(why);
                return out;
            }
            Err(e) => {
                out.failed = Some(e.to_string());
                return out;
            }
        },
    };
    let Some(mut analyser) = made else {
        out.skipped = Some(format!("{} cannot be analysed", info.label));
        return out;
    };
    match analyser.analyse(&out.report) {
        Ok(a) => out.analysis = a,
        Err(e) => {
            out.failed = Some(e.to_string());
            return out;
        }
    }
    if out.analysis.unanalysed.is_none() && out.report.plies < out.report.plies_written {
        out.analysis.unanalysed = Some(analysis::Unanalysed {
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
fn ply_tokens(
    analyser: &dyn analysis::Analyser,
    record: &GameRecord,
) -> Vec<(usize, usize, usize)> {
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
