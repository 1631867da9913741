//! `convert --to trl`: each game written as a Ludii trial by the converter its game declares
//! on its registry entry, one trial per game.
//!
//! The games go through `convert` first (rewrites, fixes and strips apply as for PDN); the
//! canonical PDN it writes is then read back game by game. Where the trials go: into a folder
//! (`-o DIR`: an existing folder, or a path not ending in `.trl`, which is made), one file per
//! game named after its input and its number there (`games-003.trl`); or, for a single game,
//! into one file (`-o game.trl`) or standard output.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use game::GameInfo;
use pdn::GameRecord;

use crate::args::Target;
use crate::convert::{self, ConvertTally};
use crate::exit::Stop;
use ::archive::Source;

/// Where the trials go.
enum Destination {
    /// One file per game in this folder.
    Folder(PathBuf),
    /// One game, to this file or (`None`) standard output.
    One(Option<PathBuf>),
}

impl Destination {
    fn of(output: Option<&Path>) -> Destination {
        match output {
            None => Destination::One(None),
            Some(p) if p.as_os_str() == "-" => Destination::One(None),
            Some(p) if p.is_dir() => Destination::Folder(p.to_path_buf()),
            Some(p) => {
                let trl = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("trl"));
                if trl {
                    Destination::One(Some(p.to_path_buf()))
                } else {
                    Destination::Folder(p.to_path_buf())
                }
            }
        }
    }
}

/// The trial of one record: through the converter of its game (`--game`, else its tags).
pub fn trial_of(record: &GameRecord, game: Option<&'static GameInfo>) -> Result<String, Stop> {
    let games = games::games();
    let info = match game {
        Some(info) => info,
        None => games
            .registry()
            .identify(record.tag("Variant"), record.tag("GameType"))
            .map_err(|why| games.registry().explain(&why))?,
    };
    let format = games.entry(info).and_then(|e| e.trials()).ok_or_else(|| {
        format!(
            "{} games cannot be written as Ludii trials (arbiter converts trials of {})",
            info.label,
            games.trial_games()
        )
    })?;
    format
        .write(&ludii::RecordView::from_pdn(record))
        .map_err(|e| Stop::Usage(e.to_string()))
}

/// The stem of an input's file name, for the trials made from it (`games` for
/// `games.pdn.gz`, `stdin` for standard input).
fn stem(input: &Source) -> String {
    match input {
        Source::Stdin => "stdin".to_string(),
        Source::Text { name, .. } => name.clone(),
        Source::File(p) => {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let lower = name.to_ascii_lowercase();
            let cut = [".pdn.gz", ".pdn", ".json", ".jsonl", ".trl", ".gz"]
                .iter()
                .find(|ext| lower.ends_with(*ext))
                .map_or(name.len(), |ext| name.len() - ext.len());
            name[..cut].to_string()
        }
    }
}

/// Converts every game of `inputs` to trials at `output`; notes about problems go to
/// `notes`. The tally counts the trials written and the problems met.
pub fn convert_all(
    inputs: &[Source],
    output: Option<&Path>,
    settings: &referee::Settings,
    edits: &crate::archive::Edits,
    notes: &mut dyn Write,
) -> Result<ConvertTally, Stop> {
    let destination = Destination::of(output);
    if let Destination::Folder(dir) = &destination {
        std::fs::create_dir_all(dir).map_err(|e| Stop::Usage(format!("{}: {e}", dir.display())))?;
    }
    let mut total = ConvertTally::default();
    let mut written = 0u64;
    let mut left_out = 0u64;
    for input in inputs {
        let mut writer = pdn::Writer::new(Vec::new());
        let tally = convert::convert(input, Target::Pdn, settings, edits, &mut writer, notes)
            .map_err(|e| Stop::Usage(format!("{}: {e}", input.name())))?;
        let pdn = writer
            .finish()
            .map_err(|e| Stop::Usage(format!("{}: {e}", input.name())))?;
        total.problems += tally.problems;
        total.rewritten += tally.rewritten;
        total.unreadable += tally.unreadable;
        for (i, record) in pdn::read_all(&pdn).iter().enumerate() {
            let at = format!("{}: game {}", input.name(), i + 1);
            let trial = match trial_of(record, settings.game) {
                Ok(t) => t,
                Err(e) => {
                    total.problems += 1;
                    writeln!(notes, "{at}: not written as a trial: {e}")
                        .map_err(|e| Stop::Usage(e.to_string()))?;
                    continue;
                }
            };
            let target = match &destination {
                Destination::Folder(dir) => {
                    Some(dir.join(format!("{}-{:03}.trl", stem(input), i + 1)))
                }
                Destination::One(_) if written > 0 => {
                    left_out += 1;
                    continue;
                }
                Destination::One(path) => path.clone(),
            };
            write_to(target.as_deref(), &trial)?;
            written += 1;
        }
    }
    if left_out > 0 {
        total.problems += 1;
        writeln!(
            notes,
            "{left_out} more game{} not written: a trial holds one game; give a folder for one trial per game (-o DIR)",
            if left_out == 1 { "" } else { "s" }
        )
        .map_err(|e| Stop::Usage(e.to_string()))?;
    }
    total.games = written;
    Ok(total)
}

/// Writes one trial to a file or standard output.
fn write_to(path: Option<&Path>, trial: &str) -> Result<(), Stop> {
    match path {
        Some(p) => {
            let mut out = crate::output::Output::create(Some(p))?;
            out.write_all(trial.as_bytes())
                .and_then(|()| out.commit())
                .map_err(|e| Stop::Usage(e.to_string()))
        }
        None => io::stdout()
            .lock()
            .write_all(trial.as_bytes())
            .map_err(Stop::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trials_go_to_a_folder_unless_one_file_is_named() {
        assert!(matches!(Destination::of(None), Destination::One(None)));
        assert!(matches!(
            Destination::of(Some(Path::new("-"))),
            Destination::One(None)
        ));
        assert!(matches!(
            Destination::of(Some(Path::new("a/game.TRL"))),
            Destination::One(Some(_))
        ));
        assert!(matches!(
            Destination::of(Some(Path::new("trials"))),
            Destination::Folder(_)
        ));
        assert!(matches!(
            Destination::of(Some(&std::env::temp_dir())),
            Destination::Folder(_)
        ));
    }

    #[test]
    fn stems_drop_the_record_extensions() {
        let file = |p: &str| Source::File(PathBuf::from(p));
        assert_eq!(stem(&file("x/games.pdn.gz")), "games");
        assert_eq!(stem(&file("x/games.PDN")), "games");
        assert_eq!(stem(&file("notes")), "notes");
        assert_eq!(stem(&Source::Stdin), "stdin");
    }

    #[test]
    fn a_game_without_a_converter_is_refused_with_the_games_that_have_one() {
        let rec = &pdn::read_all(b"[Variant \"International\"]\n\n1. 32-28 *\n")[0];
        let e = trial_of(rec, None).unwrap_err().to_string();
        assert!(e.contains("International") && e.contains("Tama"), "{e}");
        let rec = &pdn::read_all(b"\n1. c3-c4 *\n")[0];
        assert!(trial_of(rec, None)
            .unwrap_err()
            .to_string()
            .contains("--game"));
    }
}
