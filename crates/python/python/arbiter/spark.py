"""arbiter on Spark: check and tabulate PDN texts held in a Spark DataFrame.

The input is a DataFrame with one PDN text per row, for instance one row per file of a folder
and every folder below it (:func:`read_pdn`)::

    df = arbiter.spark.read_pdn(spark, "archive/")          # columns "value", "path"
    diagnostics = arbiter.spark.validate(df, name_column="path")
    plies = arbiter.spark.plies(df)

Each partition runs the arbiter engine on its texts through ``DataFrame.mapInArrow``: the
texts reach Python as Arrow batches and the results go back as Arrow batches, so no row is
converted one by one. The ``arbiter`` package (and pyarrow) must be installed where the
executors run.

Spark has no unsigned integers: the unsigned columns of arbiter's tables come back as
``long`` (64-bit signed) columns, with the same values.
"""

from __future__ import annotations

from typing import Iterator, Optional

import pyarrow as pa
import pyarrow.compute  # noqa: F401  (pa.compute)

from . import _arbiter

__all__ = ["read_pdn", "validate", "plies", "table", "analyse", "players"]

#: Bits of ``game_id`` given to a game's number within one batch of texts, and to the batch's
#: number within its partition (see :func:`table`).
_GAME_BITS = 24
_BATCH_BITS = 16


def read_pdn(spark, path, glob: str = "*.{pdn,pdn.gz}"):
    """The PDN files of ``path`` (a file, a folder, or a list of them) as a DataFrame of one
    row per file: its text in ``value`` and its path in ``path``. Folders are searched
    recursively, as the CLI searches them: Spark's text reader alone does not descend into
    subfolders, and a plain ``spark.read.text(folder)`` of an archive sorted into folders
    reads nothing. ``glob`` chooses the files (gzip files are decompressed by Spark)."""
    from pyspark.sql import functions as F

    paths = [str(p) for p in path] if isinstance(path, (list, tuple)) else str(path)
    return (spark.read.option("recursiveFileLookup", "true")
            .option("pathGlobFilter", glob)
            .text(paths, wholetext=True)
            .withColumn("path", F.input_file_name()))


def _signed_type(t: pa.DataType) -> pa.DataType:
    if pa.types.is_unsigned_integer(t):
        return pa.int64()
    if pa.types.is_list(t):
        return pa.list_(_signed_type(t.value_type))
    if pa.types.is_map(t):
        return pa.map_(_signed_type(t.key_type), _signed_type(t.item_type))
    return t


def _signed(schema: pa.Schema) -> pa.Schema:
    return pa.schema([pa.field(f.name, _signed_type(f.type), f.nullable) for f in schema])


def _spark_schema(schema: pa.Schema):
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(schema)


def _texts(batch: pa.RecordBatch, column: str, name_column: Optional[str], prefix: str):
    texts = batch.column(column).to_pylist()
    if name_column is not None:
        names = [str(n) for n in batch.column(name_column).to_pylist()]
    else:
        names = [f"{prefix}{i}" for i in range(len(texts))]
    pairs = [(t, n) for t, n in zip(texts, names) if t is not None]
    return [t for t, _ in pairs], [n for _, n in pairs]


def _partition() -> int:
    from pyspark import TaskContext

    context = TaskContext.get()
    return context.partitionId() if context is not None else 0


def _cast(batch: pa.RecordBatch, schema: pa.Schema) -> pa.RecordBatch:
    return pa.Table.from_batches([batch]).cast(schema).to_batches()[0] if batch.num_rows \
        else pa.RecordBatch.from_pylist([], schema=schema)


def validate(df, column: str = "value", game: Optional[str] = None,
             default_game: Optional[str] = None, rules: Optional[str] = None,
             name_column: Optional[str] = None):
    """The diagnostics of every PDN text of ``df[column]``, as a Spark DataFrame.

    The columns are the fields of ``arbiter validate --format json`` (``file``, ``game``,
    ``line``, ``column``, ``ply``, ``move``, ``ludii_move``, ``code``, ``severity``,
    ``message``). ``file`` is the value of ``name_column`` when given (e.g. a column made
    with ``pyspark.sql.functions.input_file_name()``), else ``part-P:N`` (row ``N`` of a
    batch of partition ``P``); ``game`` counts games from 1 within each text. ``game``,
    ``default_game`` and ``rules`` are as for :func:`arbiter.validate`.
    """
    # Check the arguments on the driver, with the CLI's messages.
    _arbiter.validate_texts([], [], game, default_game, rules)
    schema = _signed(_diagnostics_schema())

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        part = _partition()
        for n, batch in enumerate(batches):
            texts, names = _texts(batch, column, name_column, f"part-{part}:{n}:")
            report = _arbiter.validate_texts(texts, names, game, default_game, rules)
            for b in pa.RecordBatchReader.from_stream(report._diagnostics):
                yield _cast(b, schema)

    return df.mapInArrow(run, _spark_schema(schema))


def _diagnostics_schema() -> pa.Schema:
    report = _arbiter.validate_texts([], [], None, None, None)
    return pa.RecordBatchReader.from_stream(report._diagnostics).schema


def table(df, name: str, column: str = "value", game: Optional[str] = None,
          default_game: Optional[str] = None, rules: Optional[str] = None,
          name_column: Optional[str] = None, batch_size: int = 65536,
          positions: bool = False):
    """A table of ``arbiter export`` (``games``, ``plies`` or ``diagnostics``) over the PDN
    texts of ``df[column]``, as a Spark DataFrame with the table's columns.

    ``file`` is named as in :func:`validate`. ``game_id`` links the rows of one game across
    tables made from the same DataFrame; it is unique but not consecutive: the partition's
    number, the batch's number within it and the game's number within the batch, in bit
    fields of 24, 16 and 24 bits. ``positions=True`` adds ``fen_after`` to ``plies``, as
    ``arbiter export --positions`` does.
    """
    if name not in ("games", "plies", "diagnostics"):
        raise ValueError(f"`{name}` is not a table (tables: games, plies, diagnostics)")
    _arbiter.text_batches([], [], name, batch_size, game, default_game, rules, positions)
    source = pa.RecordBatchReader.from_stream(_arbiter.schema(name, positions)).schema
    schema = _signed(source)

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        part = _partition()
        for n, batch in enumerate(batches):
            texts, names = _texts(batch, column, name_column, f"part-{part}:{n}:")
            base = (part << (_BATCH_BITS + _GAME_BITS)) | (n << _GAME_BITS)
            stream = _arbiter.text_batches(texts, names, name, batch_size, game,
                                           default_game, rules, positions)
            for b in pa.RecordBatchReader.from_stream(stream):
                b = _cast(b, schema)
                ids = pa.compute.add(b.column("game_id"), pa.scalar(base, pa.int64()))
                yield b.set_column(0, "game_id", ids)

    return df.mapInArrow(run, _spark_schema(schema))


def plies(df, column: str = "value", game: Optional[str] = None,
          default_game: Optional[str] = None, rules: Optional[str] = None,
          name_column: Optional[str] = None, positions: bool = False):
    """The plies table of ``arbiter export`` (one row per main-line ply, with the key of the
    position after it, and with ``positions=True`` its position string) over the PDN texts
    of ``df[column]``, as a Spark DataFrame. See :func:`table`.
    """
    return table(df, "plies", column, game, default_game, rules, name_column,
                 positions=positions)


def analyse(df, column: str = "value", nodes: Optional[int] = None,
            depth: Optional[int] = None, movetime: Optional[int] = None, hash_mb: int = 16,
            game: Optional[str] = None, default_game: Optional[str] = None,
            rules: Optional[str] = None, name_column: Optional[str] = None):
    """The engine analysis of every game of the PDN texts of ``df[column]``: the
    ``analysis`` table of ``arbiter analyse --export`` (one row per analysed ply), as a
    Spark DataFrame.

    Each text (a file, with :func:`read_pdn`) is analysed whole by one task, so every game
    is analysed on one executor from its first ply, and the rows are those the CLI gives for
    the same file and limits. ``nodes``, ``depth``, ``movetime`` and ``hash_mb`` are as for
    :func:`arbiter.analyse`; ``file`` and ``game_id`` are as in :func:`table` (the same
    DataFrame gives the same ``game_id`` there, so the rows join ``plies`` on ``game_id``
    and ``ply``). :func:`players` adds the rows up per player.
    """
    limits = (nodes, depth, movetime, hash_mb, game, default_game, rules)
    empty, _ = _arbiter.analyse_texts([], [], *limits)
    schema = _signed(pa.RecordBatchReader.from_stream(empty).schema)

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        part = _partition()
        for n, batch in enumerate(batches):
            texts, names = _texts(batch, column, name_column, f"part-{part}:{n}:")
            base = (part << (_BATCH_BITS + _GAME_BITS)) | (n << _GAME_BITS)
            stream, _ = _arbiter.analyse_texts(texts, names, *limits)
            for b in pa.RecordBatchReader.from_stream(stream):
                b = _cast(b, schema)
                ids = pa.compute.add(b.column("game_id"), pa.scalar(base, pa.int64()))
                yield b.set_column(0, "game_id", ids)

    return df.mapInArrow(run, _spark_schema(schema))


def players(analysis):
    """Each player's figures over the rows of :func:`analyse` (or of ``analysis.parquet``),
    as ``players.parquet`` gives them: games, moves, accuracy, average loss, agreement (in
    percent) and the count of each class."""
    from pyspark.sql import functions as F

    def count(name):
        return F.sum(F.when(F.col("class") == name, 1).otherwise(0)).cast("long")

    return (analysis.groupBy("player").agg(
        F.countDistinct("game_id").alias("games"),
        F.count("*").alias("moves"),
        F.avg("accuracy").alias("accuracy"),
        F.avg("loss").alias("average_loss"),
        (100 * F.avg(F.col("agreed").cast("double"))).alias("agreement"),
        count("inaccuracy").alias("inaccuracies"),
        count("mistake").alias("mistakes"),
        count("blunder").alias("blunders"),
        count("missed-win").alias("missed_wins"),
        count("missed-shot").alias("missed_shots"),
        count("allowed-shot").alias("allowed_shots"),
    ).orderBy("player"))
