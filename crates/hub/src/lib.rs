//! The Hub protocol (version 2, as Scan 3.1 and the Hub GUI speak it) on both sides:
//! its text ([`protocol`]: lines, positions, moves, levels, scores), the games it plays
//! ([`variants`]: the games of a registry Hub carries, by Hub's variant names), and a client
//! ([`Client`]) that runs an engine speaking it as a child process, for the analysis
//! ([`analysis::External`]).
//!
//! `arbiter hub` serves the protocol with arbiter's own engine; `arbiter analyse --engine`
//! is the client.
#![deny(missing_docs)]

mod client;
pub mod protocol;

pub use client::{Client, EngineCommand, HubEngines, HubError, What};
pub use protocol::{HubMove, Level, Line, SQUARES};

use game::{GameInfo, Registry};

/// The games of `registry` the protocol can play (two sides, no chance, the 50 numbered
/// squares of a 10x10 board), each with the name Hub's `variant` parameter gives it:
/// `hub_names` gives Hub's own names (Hub's name, the game's id; the registry keeps them),
/// which come first, in their order; the other games follow under their ids.
pub fn variants(
    registry: &Registry,
    hub_names: &[(&str, &str)],
) -> Vec<(String, &'static GameInfo)> {
    let mut offered: Vec<(String, &'static GameInfo)> = registry
        .games()
        .iter()
        .copied()
        .filter(|g| {
            let p = &g.profile;
            g.numbered_squares() == SQUARES as u32
                && p.two_sides
                && p.chance.is_none()
                && p.board.files == 10
                && p.board.ranks == 10
        })
        .map(|g| {
            let name = hub_names
                .iter()
                .find(|(_, id)| *id == g.id)
                .map_or(g.id, |(hub_name, _)| hub_name);
            (name.to_string(), g)
        })
        .collect();
    offered.sort_by_key(|(name, _)| {
        hub_names
            .iter()
            .position(|(n, _)| n == name)
            .unwrap_or(hub_names.len())
    });
    offered
}

/// The variant an engine plays when it offers no `variant` parameter.
pub const DEFAULT_VARIANT: &str = "normal";

/// The name Hub gives `game` among `variants` (from [`variants`]), if it carries it.
pub fn variant_name(variants: &[(String, &'static GameInfo)], game: &GameInfo) -> Option<String> {
    variants
        .iter()
        .find(|(_, g)| g.id == game.id)
        .map(|(n, _)| n.clone())
}
