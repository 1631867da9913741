//! The `arbiter._arbiter` extension module: a thin layer over the workspace crates. The
//! Python package `arbiter` (in `python/arbiter`) wraps it and turns its Arrow streams into
//! pyarrow objects.
//!
//! Long work runs with the GIL released ([`Python::detach`]) and stops between chunks when
//! Python has a signal pending (Ctrl-C raises `KeyboardInterrupt` as usual).

use game::GameInfo;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use referee::Settings;

mod analyse;
mod board;
mod engine;
mod records;
mod stream;
mod tables;
mod validate;

/// Expands `paths` as the CLI does (files, folders walked for record files), `-` being a
/// path like any other; the first path that cannot be read is the error.
pub(crate) fn collect(paths: &[std::path::PathBuf]) -> PyResult<Vec<archive::Source>> {
    let (sources, errors) = archive::collect(paths, archive::Dash::Path);
    match errors.into_iter().next() {
        Some((path, e)) => Err(io_error(&path.display().to_string(), &e.into())),
        None => Ok(sources),
    }
}

/// The registry of games, as the referee identifies them.
pub(crate) fn registry() -> &'static game::Registry {
    referee::Catalog::registry(games::games())
}

/// A game named by `name` (a command-line name or one of its aliases), with the CLI's
/// message when it names none.
pub(crate) fn game_named(name: &str) -> PyResult<&'static GameInfo> {
    registry().by_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "`{name}` is not a game arbiter knows (known: {})",
            registry().id_list()
        ))
    })
}

/// The replay settings of `--game`, `--default-game` and `--rules`, checked as the CLI
/// checks them.
pub(crate) fn settings(
    game: Option<&str>,
    default_game: Option<&str>,
    rules: Option<&str>,
) -> PyResult<Settings> {
    let game = game.map(game_named).transpose()?;
    let default_game = default_game.map(game_named).transpose()?;
    if let Some(rules) = rules {
        registry()
            .check_rules(game.or(default_game), rules)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(Settings {
        game,
        default_game,
        rules: rules.map(str::to_string),
        ..Settings::default()
    })
}

/// An input that cannot be read, as the CLI reports it.
pub(crate) fn io_error(name: &str, e: &std::io::Error) -> PyErr {
    let message = format!("{name}: cannot read: {e}");
    match e.kind() {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// games() -> list[dict]
/// --
///
/// The games arbiter knows, as `arbiter games --format json` lists them: one dict per game
/// with `id` (the name `game=` takes), `label`, `variant_tag` (what a `Variant` tag says),
/// `aliases`, `game_types` (the PDN `GameType` numbers), `options` (ruleset options for
/// `rules=`, each a dict with `name` and `help`) and `seats`.
#[pyfunction]
#[pyo3(name = "games")]
fn games_list(py: Python<'_>) -> PyResult<Vec<Bound<'_, pyo3::types::PyDict>>> {
    use pyo3::types::PyDict;
    registry()
        .games()
        .iter()
        .map(|g| {
            let d = PyDict::new(py);
            d.set_item("id", g.id)?;
            d.set_item("label", g.label)?;
            d.set_item("variant_tag", g.variant_tag)?;
            d.set_item("aliases", g.aliases.to_vec())?;
            d.set_item("game_types", g.game_types.to_vec())?;
            let options = g
                .options
                .iter()
                .map(|o| {
                    let od = PyDict::new(py);
                    od.set_item("name", o.name)?;
                    od.set_item("help", o.help)?;
                    Ok(od)
                })
                .collect::<PyResult<Vec<_>>>()?;
            d.set_item("options", options)?;
            d.set_item("seats", g.seat_names.to_vec())?;
            Ok(d)
        })
        .collect()
}

#[pymodule]
fn _arbiter(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games_list, m)?)?;
    m.add_function(wrap_pyfunction!(validate::validate, m)?)?;
    m.add_function(wrap_pyfunction!(validate::validate_texts, m)?)?;
    m.add_function(wrap_pyfunction!(tables::record_batches, m)?)?;
    m.add_function(wrap_pyfunction!(tables::text_batches, m)?)?;
    m.add_function(wrap_pyfunction!(tables::read_tables, m)?)?;
    m.add_function(wrap_pyfunction!(tables::schema, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(analyse::analyse, m)?)?;
    m.add_function(wrap_pyfunction!(analyse::analyse_texts, m)?)?;
    m.add_class::<validate::Report>()?;
    m.add_class::<records::Game>()?;
    m.add_class::<records::GameIter>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::SearchResult>()?;
    m.add_class::<stream::ArrowStream>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Which cargo profile built the module (the benchmark refuses a debug build).
    m.add(
        "_build_profile",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
    )?;
    Ok(())
}
