"""arbiter: check, read and tabulate recorded draughts-family games (PDN).

The Python face of the arbiter command-line tool, over the same engine:

- :func:`games` lists the games arbiter knows;
- :func:`validate` re-plays records against the rules, as ``arbiter validate`` does, and
  returns a :class:`Report` whose ``diagnostics`` is a ``pyarrow.Table``;
- :func:`read_games` reads records lazily as :class:`Game` objects;
- :func:`read_tables` and :func:`record_batches` give the ``games``, ``plies`` and
  ``diagnostics`` tables of ``arbiter export`` as Arrow data (same schema as its Parquet
  files), for pandas, polars, DuckDB or Spark;
- :class:`Board` plays moves on a position and draws itself in Jupyter;
- :class:`Engine` searches a board's position and returns the best move, its score, depth,
  nodes and line (:class:`SearchResult`);
- :mod:`arbiter.spark` runs the checks on a Spark DataFrame of PDN texts.

Long work runs with the GIL released and on every core; Ctrl-C interrupts it.
Errors are Python exceptions carrying the CLI's messages: ``ValueError`` for a game or
ruleset option that does not exist, ``OSError`` (``FileNotFoundError``) for inputs that
cannot be read.
"""

from __future__ import annotations

import os
from typing import Iterable, Iterator, Optional, Sequence, Union

import pyarrow as pa

from . import _arbiter
from ._arbiter import Board, Engine, Game, SearchResult, __version__

__all__ = [
    "Board",
    "Engine",
    "Game",
    "Report",
    "SearchResult",
    "TABLES",
    "Analysis",
    "analyse",
    "games",
    "read_games",
    "read_tables",
    "record_batches",
    "schema",
    "validate",
    "__version__",
]

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Iterable[PathLike]]

#: The tables of ``arbiter export``, in the order it writes them.
TABLES = ("games", "plies", "diagnostics")


def _paths(paths: Paths) -> list:
    """One path or several, as a list of strings."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    out = [os.fsdecode(p) for p in paths]
    if not out:
        raise ValueError("no paths given")
    return out


def _reader(stream) -> pa.RecordBatchReader:
    return pa.RecordBatchReader.from_stream(stream)


def games() -> list:
    """The games arbiter knows, as ``arbiter games --format json`` lists them.

    One dict per game: ``id`` (the name ``game=`` takes), ``label``, ``variant_tag`` (the
    value of a ``Variant`` tag naming it), ``aliases``, ``game_types`` (PDN ``GameType``
    numbers), ``options`` (ruleset options for ``rules=``, each with ``name`` and ``help``)
    and ``seats``.

    >>> [g["id"] for g in games()][:3]
    ['tama', 'odnocvetnie', 'thaayam']
    """
    return _arbiter.games()


class Report:
    """What :func:`validate` found, with the counts of the CLI's closing line.

    Attributes:
        files: inputs read.
        games: games read.
        plies: plies written in the main lines.
        replayed: games recognised and replayed against the rules.
        unchecked: games whose game could not be identified (moves not checked).
        errors: diagnostics of severity error in the records read (as the CLI's closing line
            counts them: an input that cannot be read is counted in ``unreadable``, not here,
            though its ``unreadable`` row in ``diagnostics`` has severity error).
        warnings: diagnostics of severity warning.
        games_with_errors: games with at least one error.
        unreadable: inputs that could not be read.
        diagnostics: a ``pyarrow.Table`` with one row per diagnostic and the fields of
            ``arbiter validate --format json``: ``file``, ``game`` (1-based in its file),
            ``line``, ``column``, ``ply``, ``move`` (the move number), ``ludii_move``, ``code``,
            ``severity`` and ``message``.
    """

    def __init__(self, inner) -> None:
        self._inner = inner
        for name in ("files", "games", "plies", "replayed", "identified", "unchecked", "errors",
                     "warnings", "notes", "games_with_errors", "unreadable"):
            setattr(self, name, getattr(inner, name))
        self.diagnostics: pa.Table = _reader(inner._diagnostics).read_all()

    @property
    def ok(self) -> bool:
        """True when nothing was found: no error, no warning, no unreadable input."""
        return self.errors == 0 and self.warnings == 0 and self.unreadable == 0

    def __repr__(self) -> str:
        return (f"Report(files={self.files}, games={self.games}, plies={self.plies}, "
                f"errors={self.errors}, warnings={self.warnings}, "
                f"unchecked={self.unchecked}"
                + (f", unreadable={self.unreadable})" if self.unreadable else ")"))


def validate(paths: Paths, game: Optional[str] = None, default_game: Optional[str] = None,
             rules: Optional[str] = None) -> Report:
    """Re-play every game of ``paths`` against the rules, as ``arbiter validate`` does.

    Args:
        paths: a file or folder, or several. Folders are walked for ``*.pdn``,
            ``*.pdn.gz`` and ``*.trl`` files in sorted order; gzip is recognised by its
            bytes.
        game: force this game on every record (``--game``): a name of :func:`games`.
        default_game: the game of records whose ``Variant`` and ``GameType`` tags name no
            game; records whose tags name a game keep it.
        rules: ruleset options (comma-separated, ``--rules``), checked as the CLI checks
            them.

    Returns:
        a :class:`Report`; ``report.diagnostics`` holds the diagnostics in input order.

    Raises:
        ValueError: ``game``, ``default_game`` or ``rules`` names nothing arbiter knows.
        FileNotFoundError: a path does not exist. (A file that exists but cannot be read
            is reported as an ``unreadable`` diagnostic, as the CLI reports it.)
        KeyboardInterrupt: Ctrl-C.
    """
    return Report(_arbiter.validate(_paths(paths), game, default_game, rules))


def read_games(source: Union[PathLike, str]) -> Iterator[Game]:
    """The games of a PDN file, of a folder, or of a PDN text, one :class:`Game` at a time.

    ``source`` is taken as a text when it is a ``str`` that contains a newline or a ``[``
    and names no existing file; otherwise as a path (plain or gzip, or a Ludii trial), or a
    folder, whose files (``*.pdn``, ``*.pdn.gz``, ``*.trl`` below it, in the CLI's order)
    are read one after another, each game with its own file's name and index. Games are read
    lazily, so any size is fine.

    >>> g = next(read_games('[Variant "English draughts"]\\n1. 11-15 23-19 *\\n'))
    >>> g.moves, g.result
    (['11-15', '23-19'], '*')
    """
    if isinstance(source, str) and ("\n" in source or "[" in source) \
            and not os.path.exists(source):
        return _arbiter.read_games(text=source)
    return _arbiter.read_games(path=os.fsdecode(source))


def _table(table: str) -> str:
    if table not in TABLES:
        raise ValueError(f"`{table}` is not a table (tables: games, plies, diagnostics)")
    return table


def schema(table: str, positions: bool = False) -> pa.Schema:
    """The Arrow schema of a table of ``arbiter export`` (``games``, ``plies`` or
    ``diagnostics``), exactly as its Parquet file records it; ``positions=True`` is the
    schema of ``arbiter export --positions`` (``plies`` gets ``fen_after``)."""
    return _reader(_arbiter.schema(_table(table), positions)).schema


def read_tables(paths: Paths, game: Optional[str] = None, default_game: Optional[str] = None,
                rules: Optional[str] = None, positions: bool = False) -> dict:
    """The three tables of ``arbiter export`` over ``paths``, in memory.

    Returns ``{"games": Table, "plies": Table, "diagnostics": Table}``: ``pyarrow.Table``
    objects with exactly the schema of ``games.parquet``, ``plies.parquet`` and
    ``diagnostics.parquet`` (see ``docs/export.md``) and the same rows, ``game_id`` linking
    them. ``game``, ``default_game`` and ``rules`` are as for :func:`validate`. Every ply
    has its 64-bit ``position_key``; ``positions=True`` also writes the position string
    after each ply in ``fen_after``, as ``arbiter export --positions`` does (the column is
    absent otherwise). The tables are built in one pass on every core; for archives larger
    than memory use :func:`record_batches`.

    Raises:
        ValueError: ``game``, ``default_game`` or ``rules`` names nothing arbiter knows.
        OSError: an input cannot be read (the message names it).
    """
    streams = _arbiter.read_tables(_paths(paths), game, default_game, rules, positions)
    return {name: _reader(streams[name]).read_all() for name in TABLES}


def record_batches(paths: Paths, table: str = "plies", batch_size: int = 65536,
                   game: Optional[str] = None, default_game: Optional[str] = None,
                   rules: Optional[str] = None, positions: bool = False) -> pa.RecordBatchReader:
    """One table of ``arbiter export`` over ``paths``, as a stream of record batches.

    The records are read and checked as the batches are consumed, so memory stays bounded
    whatever the size of the input (a round of pieces of a megabyte or two of records, one
    per core, consecutive small files sharing a piece). Each batch holds at most
    ``batch_size`` rows (fewer where a piece ends); the schema is exactly that of the table's
    Parquet file, and ``game_id`` counts games as ``arbiter export`` does. ``positions``
    is as for :func:`read_tables` (``fen_after`` in ``plies`` only when true).

    The reader can be handed to anything that takes Arrow streams:
    ``pyarrow.parquet.write_table``, ``duckdb.from_arrow``, ``polars.from_arrow``, or
    iterated batch by batch. An input that cannot be read raises ``OSError`` (pyarrow may
    wrap it as ``pyarrow.ArrowException``) when the stream reaches it.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    stream = _arbiter.record_batches(_paths(paths), _table(table), batch_size, game,
                                     default_game, rules, positions)
    return _reader(stream)


class Analysis:
    """The engine analysis of some games, as ``arbiter analyse --export`` writes it.

    ``plies`` is the ``analysis`` table (one row per analysed ply: ``game_id``, ``file``,
    ``offset``, ``index_in_file``, ``ply``, ``mover``, ``player``, ``move``,
    ``eval_before``, ``eval_after``, ``best``, ``line``, ``loss``, ``class``, ``accuracy``,
    ``agreed``, ``shot``, ``depth``, ``nodes``) and ``players`` the per-player figures
    (``player``, ``games``, ``moves``, ``accuracy``, ``average_loss``, ``agreement``, the
    class counts, ``agreed``, ``total_loss``), both ``pyarrow.Table`` with the schemas of
    ``analysis.parquet`` and ``players.parquet`` (see ``docs/export.md``).
    """

    def __init__(self, plies: pa.Table, players: pa.Table) -> None:
        self.plies = plies
        self.players = players

    def __repr__(self) -> str:
        return f"Analysis(plies={self.plies.num_rows}, players={self.players.num_rows})"


def analyse(paths: Paths, nodes: Optional[int] = None, depth: Optional[int] = None,
            movetime: Optional[int] = None, hash_mb: int = 16, game: Optional[str] = None,
            default_game: Optional[str] = None, rules: Optional[str] = None) -> Analysis:
    """Every ply of every game of ``paths`` searched by arbiter's engine and judged, as
    ``arbiter analyse`` does: the same pipeline, the same numbers.

    ``nodes`` (default 20,000 when neither ``depth`` nor ``movetime`` is given), ``depth``
    (plies) and ``movetime`` (milliseconds) limit each position's search, as ``--nodes``,
    ``--depth`` and ``--movetime`` do; ``hash_mb`` is the table per game (``--hash``).
    Under ``nodes`` or ``depth`` the result is the same on every machine. ``game``,
    ``default_game`` and ``rules`` are as for :func:`validate`. The games are analysed on
    every core with the GIL released; Ctrl-C stops the run with ``KeyboardInterrupt``.

    Raises:
        ValueError: a limit out of range, or ``game``/``rules`` naming nothing arbiter knows.
        OSError: an input cannot be read (the message names it).
    """
    plies, players = _arbiter.analyse(_paths(paths), nodes, depth, movetime, hash_mb, game,
                                      default_game, rules)
    return Analysis(_reader(plies).read_all(), _reader(players).read_all())
