//! The command line: one vocabulary for every subcommand.
//!
//! `--game` always names the game every record is read as (as on `arbiter games`),
//! `--default-game` the game of records whose tags name none, `--index N` a game within a file,
//! `-o/--output` what is written, `--format human|json` how results are printed, and
//! `--rules` ruleset options. Every subcommand's help ends with examples, which a test runs.
//! Each subcommand's arguments and work live in its module under `commands`; the arguments
//! several share are in `args`.

use clap::{Parser, Subcommand};

use crate::commands::analyse::AnalyseArgs;
use crate::commands::completions::CompletionsArgs;
use crate::commands::convert::ConvertArgs;
use crate::commands::export::ExportArgs;
use crate::commands::games::GamesArgs;
use crate::commands::hub::HubArgs;
use crate::commands::man::ManArgs;
use crate::commands::moves::MovesArgs;
use crate::commands::perft::PerftArgs;
use crate::commands::select::SelectArgs;
use crate::commands::selfplay::SelfplayArgs;
use crate::commands::show::ShowArgs;
use crate::commands::split::SplitArgs;
use crate::commands::stats::StatsArgs;
use crate::commands::validate::ValidateArgs;
use crate::commands::view::ViewArgs;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Re-check recorded draughts-family games move by move and say precisely what is wrong",
    long_about = "arbiter reads game records (PDN), replays every move against the rules and says \
                  precisely what is wrong: illegal moves, non-maximal or missed captures, \
                  ambiguous notation, locked pieces, unused throws, wrong results. It also \
                  converts between notations and writes statistics reports. \
                  `arbiter games` lists the games it knows.",
    after_help = "Examples:\n  arbiter validate corpus/tama\n  arbiter games\n  arbiter moves --game tama"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Replay every game against the rules and report every problem.
    #[command(after_help = "Examples:
  arbiter validate corpus
  arbiter validate corpus/tama --format json --max-errors 5
  arbiter validate corpus/defects/tama -q
  arbiter validate corpus/defects --severity error
  arbiter validate corpus/international --default-game international")]
    Validate(ValidateArgs),
    /// Evaluate every ply of every game with arbiter's own engine: blunders, missed wins,
    /// missed and allowed shots, and each player's accuracy over the whole archive.
    #[command(after_help = "Examples:
  arbiter analyse corpus/international/international-search.pdn --limit 1 --nodes 2000
  arbiter analyse corpus/english --limit 2 --nodes 2000 --format json
  arbiter analyse corpus/russian --limit 1 --nodes 2000 --annotate -o annotated.pdn")]
    Analyse(AnalyseArgs),
    /// Replay a corpus and write a statistics report with charts.
    #[command(after_help = "Examples:
  arbiter stats corpus -o report
  arbiter stats corpus/thaayam -o thaayam-report")]
    Stats(StatsArgs),
    /// Write every game of the inputs into one self-contained HTML page to step through, with
    /// every problem listed (no network needed to open it).
    #[command(after_help = "Examples:
  arbiter view corpus/defects -o viewer.html
  arbiter view corpus/tama/tama-random.pdn --game tama -o tama.html")]
    View(ViewArgs),
    /// Write the games again as PDN or JSON, optionally in another notation; several inputs
    /// are merged in order.
    #[command(after_help = "Examples:
  arbiter convert corpus/tama/tama-random.pdn --to json -o games.jsonl
  arbiter convert corpus/tama/tama-random.pdn --squares numeric --captures full -o numeric.pdn
  arbiter convert corpus/odnocvetnie/odnocvetnie-random.pdn corpus/tama/tama-random.pdn -o merged.pdn")]
    Convert(ConvertArgs),
    /// Write the games that pass every filter to OUT (and the others to REST), each exactly
    /// as read; filters on tags, players and dates do not replay the games.
    #[command(after_help = "Examples:
  arbiter select corpus --player petrosyan -o petrosyan.pdn
  arbiter select corpus/tama --result 1-0 --plies 40..80 -o wins.pdn --rest others.pdn
  arbiter select corpus --problems any --dedupe -o broken.pdn")]
    Select(SelectArgs),
    /// Share the games out between files: N games per file, or one file per value of a tag.
    #[command(after_help = "Examples:
  arbiter split corpus/tama/tama-random.pdn --games 100 -o parts
  arbiter split corpus/tama --by Site -o by-site")]
    Split(SplitArgs),
    /// List every legal move of a position (games of chance: every legal play of the
    /// throws given).
    #[command(after_help = "Examples:
  arbiter moves --game tama
  arbiter moves --game odnocvetnie --format json
  arbiter moves --game thaayam --throws \"1 4 2\"")]
    Moves(MovesArgs),
    /// Count the move sequences of 1..N plies from a position (perft), on every core.
    ///
    /// By default every leaf is played (--bulk counts the last ply without playing it) and
    /// identical captures follow the variant's published tables (--duplicates overrides).
    /// Tama and Odnocvetnie count their own way (bulk) whatever the options.
    #[command(after_help = "Examples:
  arbiter perft --game international --depth 6
  arbiter perft --game international --depth 6 --bulk --threads 1
  arbiter perft --game english --depth 6 --duplicates drop --divide
  arbiter perft --game tama --depth 4
  arbiter perft --game odnocvetnie --depth 5 --format json")]
    Perft(PerftArgs),
    /// Draw the position of one game after some plies, as SVG or PNG.
    #[command(after_help = "Examples:
  arbiter show corpus/tama/tama-random.pdn --index 3 --ply 10 -o board.svg
  arbiter show corpus/defects/tama/ambiguous-move.pdn -o problem.png")]
    Show(ShowArgs),
    /// Generate games by self-play (identical bytes for the same arguments).
    #[command(after_help = "Examples:
  arbiter selfplay --game tama --games 5 --seed 7 -o tama.pdn
  arbiter selfplay --game thaayam --games 3 --players 4 --agent greedy")]
    Selfplay(SelfplayArgs),
    /// Write every game, main-line ply and diagnostic as Parquet tables (games.parquet,
    /// plies.parquet, diagnostics.parquet) for DuckDB, Spark or pandas; see docs/export.md.
    #[command(after_help = "Examples:
  arbiter export corpus -o tables
  arbiter export corpus --positions --partition-by variant,year -o tables
  arbiter export corpus/tama --game tama -o tama-tables")]
    Export(ExportArgs),
    /// List the games arbiter knows, with their names, GameType numbers and ruleset options.
    #[command(after_help = "Examples:
  arbiter games
  arbiter games --format json")]
    Games(GamesArgs),
    /// Play as an engine over the Hub protocol (version 2, as Scan 3.1 speaks it) on standard
    /// input and output, for draughts GUIs and pydraughts' HubEngine: the games on the 50
    /// numbered squares of the 10x10 board (International, Frisian, Antidraughts, ...).
    #[command(after_help = "Examples:
  arbiter hub
  arbiter hub --game frisian --hash 16")]
    Hub(HubArgs),
    /// Print a shell completion script.
    #[command(after_help = "Examples:
  arbiter completions bash
  arbiter completions zsh")]
    Completions(CompletionsArgs),
    /// Write the manual page (arbiter.1 and one page per subcommand).
    #[command(after_help = "Examples:
  arbiter man -o man
  arbiter man --output man-pages")]
    Man(ManArgs),
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args, CommandFactory};

    /// A subcommand without a doc comment of its own is described by the doc comment of the
    /// argument group it flattens ("The game and its rules, ..."): every subcommand must
    /// have its own.
    #[test]
    fn every_subcommand_says_what_it_does_not_what_its_arguments_are() {
        let shared: Vec<String> = [
            crate::args::GameChoice::augment_args(clap::Command::new("g")),
            crate::args::PositionArgs::augment_args(clap::Command::new("p")),
            crate::args::Inputs::augment_args(clap::Command::new("i")),
        ]
        .iter()
        .filter_map(|c| c.get_about().map(ToString::to_string))
        .collect();
        assert_eq!(shared.len(), 3, "{shared:?}");
        let cli = Cli::command();
        assert!(cli.get_subcommands().count() >= 15);
        for sub in cli.get_subcommands() {
            let about = sub.get_about().map(ToString::to_string).unwrap_or_default();
            assert!(
                !about.is_empty() && !shared.contains(&about),
                "{}: {about:?}",
                sub.get_name()
            );
        }
    }
}
