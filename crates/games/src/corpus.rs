//! The recipe of the shipped self-play corpus: which games, by which agents, with which seeds.

use selfplay::{Agent, CorpusFile};

/// The recipe of the shipped corpus: each file is one [`selfplay::generate`] call with the default
/// event, ply caps and search depths (`arbiter selfplay --game G --games N --seed S
/// [--agent A]`, piped through `gzip -9n` for a compressed file). A new game's files are new
/// lines here: the generator example and the corpus test read this list.
pub const CORPUS_FILES: &[CorpusFile] = {
    use Agent::{Greedy, Random, Search};
    const fn plain(game: &'static str, agent: Option<Agent>, games: u32, seed: u64) -> CorpusFile {
        CorpusFile {
            game,
            agent,
            games,
            seed,
            gzip: false,
        }
    }
    const fn gzip(game: &'static str, agent: Option<Agent>, games: u32, seed: u64) -> CorpusFile {
        CorpusFile {
            game,
            agent,
            games,
            seed,
            gzip: true,
        }
    }
    &[
        plain("tama", Some(Search), 300, 101),
        plain("tama", Some(Greedy), 200, 102),
        plain("tama", Some(Random), 200, 103),
        plain("tama", None, 400, 104),
        plain("odnocvetnie", Some(Search), 300, 201),
        plain("odnocvetnie", Some(Greedy), 200, 202),
        plain("odnocvetnie", Some(Random), 200, 203),
        plain("odnocvetnie", None, 400, 204),
        gzip("thaayam", Some(Search), 300, 301),
        gzip("thaayam", Some(Greedy), 200, 302),
        gzip("thaayam", Some(Random), 200, 303),
        gzip("thaayam", None, 400, 304),
        plain("international", Some(Search), 300, 401),
        plain("international", Some(Greedy), 200, 402),
        plain("international", Some(Random), 200, 403),
        plain("international", None, 400, 404),
        plain("english", Some(Search), 300, 501),
        plain("english", Some(Greedy), 200, 502),
        plain("english", Some(Random), 200, 503),
        plain("english", None, 400, 504),
        plain("russian", Some(Search), 300, 601),
        plain("russian", Some(Greedy), 200, 602),
        plain("russian", Some(Random), 200, 603),
        plain("russian", None, 400, 604),
    ]
};
