//! The input side of `arbiter analyse`: one source read game by game, its games analysed on
//! every core by [`analysis::pipeline`] and handed back in input order.

use std::io::{self, BufReader};

use referee::Settings;

use ::archive::{read_error, Source};

pub use analysis::pipeline::Analysed;

/// Reads `source` game by game (at most `most` games) and analyses the games on every core
/// (searched by `engines` if given, else by arbiter's own search); `consume` gets them in
/// input order. An error reading the source is a [`::archive::read_error`].
pub fn run(
    source: &Source,
    most: u64,
    settings: &Settings,
    asettings: analysis::Settings,
    engines: Option<&dyn analysis::Engines>,
    consume: &mut dyn FnMut(Analysed) -> io::Result<()>,
) -> io::Result<()> {
    let opened = source
        .open(games::games())
        .map_err(|e| read_error(e.into()))?;
    let mut reader = pdn::Reader::new(BufReader::with_capacity(1 << 16, opened));
    let games = std::iter::from_fn(|| analysis::pipeline::read_game(&mut reader).transpose())
        .map(|g| g.map_err(read_error))
        .take(usize::try_from(most).unwrap_or(usize::MAX));
    let catalog = games::games();
    analysis::pipeline::analyse_games_with(games, catalog, settings, asettings, engines, consume)
}
