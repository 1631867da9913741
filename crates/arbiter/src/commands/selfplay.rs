//! `arbiter selfplay`: generate games by self-play.

use std::path::PathBuf;

use clap::Args;
use game::GameInfo;

use crate::args::{parse_game, AgentArg};
use crate::exit::{Outcome, Stop, CLEAN};
use crate::output;

#[derive(Args)]
pub struct SelfplayArgs {
    /// The game (see `arbiter games`).
    #[arg(long, value_parser = parse_game, value_name = "GAME")]
    pub game: &'static GameInfo,
    /// How many games.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Seed of the random choices and the throws.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games of chance for 2 to 4: number of players (default: a mix).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: Option<u8>,
    /// The agent for every seat (default: a documented mix).
    #[arg(long, value_enum)]
    pub agent: Option<AgentArg>,
    /// Stop a game after this many plies and record it as unfinished.
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// Depth of the search agent.
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// The Event tag.
    #[arg(long)]
    pub event: Option<String>,
    /// Output file, written whole or not at all (default or `-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: SelfplayArgs) -> Outcome {
    let mut config = selfplay::Config::new(player(args.game)?);
    config.games = args.games;
    config.seed = args.seed;
    config.players = args.players;
    config.agent = args.agent.map(|a| match a {
        AgentArg::Random => selfplay::Agent::Random,
        AgentArg::Greedy => selfplay::Agent::Greedy,
        AgentArg::Search => selfplay::Agent::Search,
    });
    config.max_plies = args.max_plies;
    config.search_depth = args.depth;
    if let Some(event) = args.event {
        config.event = event;
    }
    config.check().map_err(|e| Stop::Usage(e.to_string()))?;
    let mut out = output::Output::create(args.output.as_deref())?;
    let summary = selfplay::generate(&config, &mut out)?;
    out.commit()?;
    eprintln!(
        "wrote {} ({}, {} ended by rule)",
        crate::archive::plural(summary.games as u64, "game"),
        crate::archive::plural(summary.plies as u64, "ply"),
        summary.ended_by_rule
    );
    Ok(CLEAN)
}

/// The registry's self-play of `game`.
fn player(game: &'static GameInfo) -> Result<&'static dyn selfplay::Player, Stop> {
    games::games()
        .entry(game)
        .map(games::Entry::player)
        .ok_or_else(|| Stop::Usage(format!("{} is not in the registry", game.label)))
}
