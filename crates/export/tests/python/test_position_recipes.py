"""The position recipes of docs/export.md, run on exports of the shipped corpus.

The `arbiter` binary (ARBITER_BIN, else target/debug/arbiter) exports `corpus/` into a
temporary folder, once as three files and once partitioned by variant and year. Every
``sql recipe=`` block of the document then runs in DuckDB on both, and in Spark (local mode)
on the partitioned folders (with the ``sparksql recipe=`` block where the dialects differ).
The answers are checked against counts made here with pyarrow, and Spark's against DuckDB's.
Tests skip with a notice when pyarrow, duckdb, pyspark or java is missing.
"""

import collections
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
DOC = ROOT / "docs" / "export.md"
CORPUS = ROOT / "corpus"

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install pyarrow)")
pq = pytest.importorskip("pyarrow.parquet")


def arbiter_bin():
    path = Path(os.environ.get("ARBITER_BIN", ROOT / "target" / "debug" / "arbiter"))
    if not path.exists():
        pytest.skip(f"no arbiter binary at {path} (cargo build -p arbiter, or set ARBITER_BIN)")
    return path


def recipes(dialect):
    """(name, sql) of every ``<dialect> recipe=name`` block of the document."""
    out = {}
    for m in re.finditer(r"```(\w+) recipe=([\w-]+)\n(.*?)```", DOC.read_text(), re.S):
        if m.group(1) == dialect:
            out[m.group(2)] = m.group(3).strip().rstrip(";")
    return out


def export(tmp, name, *flags, source=CORPUS):
    out = tmp / name
    done = subprocess.run(
        [str(arbiter_bin()), "export", str(source), "-o", str(out), *flags],
        capture_output=True,
    )
    # 1: the tables are written and the records hold errors (corpus/defects), as documented.
    assert done.returncode in (0, 1), done.stderr.decode()
    return out


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tables")
    yield {
        "plain": export(tmp, "plain"),
        "parts": export(tmp, "parts", "--partition-by", "variant,year"),
    }
    shutil.rmtree(tmp, ignore_errors=True)


def read_table(folder, name):
    """A table as pyarrow reads it: one file, or Hive partition folders."""
    single = folder / f"{name}.parquet"
    if single.exists():
        return pq.read_table(single)
    import pyarrow.dataset as ds

    return ds.dataset(folder / name, format="parquet", partitioning="hive").to_table()


# ---- what the recipes must answer, computed from the files with pyarrow -----------------


class Corpus:
    """Games and plies of an export as Python rows, with the answers the recipes owe."""

    def __init__(self, folder):
        games = read_table(folder, "games").to_pydict()
        plies = read_table(folder, "plies").select(
            ["game_id", "ply", "mover", "notation", "position_key"]).to_pydict()
        self.variant = dict(zip(games["game_id"], games["variant"]))
        self.result = dict(zip(games["game_id"], games["recorded_result"]))
        self.start = dict(zip(games["game_id"], games["start_key"]))
        self.lines = collections.defaultdict(list)
        for g, p, m, n, k in zip(*(plies[c] for c in
                                   ["game_id", "ply", "mover", "notation", "position_key"])):
            self.lines[g].append((p, m, n, k))
        for line in self.lines.values():
            line.sort()

    def games_through(self, game, ply):
        key = next(k for p, _, _, k in self.lines[game] if p == ply)
        return sorted(g for g, line in self.lines.items()
                      if self.variant[g] == self.variant[game] and any(k == key for *_, k in line))

    def opening_tree(self, depth):
        edges = collections.Counter()
        for g, line in self.lines.items():
            parent = self.start[g]
            for p, _, n, k in line:
                if p > depth:
                    break
                edges[(self.variant[g], parent, n, k)] += 1
                parent = k
        return edges

    def common_positions(self, top):
        games = collections.defaultdict(set)
        for g, line in self.lines.items():
            for *_, k in line:
                games[(self.variant[g], k)].add(g)
        best = collections.defaultdict(list)
        for (v, k), gs in games.items():
            best[v].append((-len(gs), k))
        return {v: sorted(x)[:top] for v, x in best.items()}

    def transpositions(self, depth):
        orders = collections.defaultdict(set)
        for g, line in self.lines.items():
            moves = []
            for p, _, n, k in line:
                if p > depth:
                    break
                moves.append(n)
                orders[(self.variant[g], k)].add(" ".join(moves))
        return {vk: len(o) for vk, o in orders.items() if len(o) > 1}


@pytest.fixture(scope="module")
def corpus(tables):
    return Corpus(tables["plain"])


def check_answers(answers, corpus):
    """Checks the rows each recipe returned against the Python counts."""
    through = [r[0] for r in answers["games-through-position"]]
    assert through == corpus.games_through(17, 4)
    assert len(through) > 1, "the position after ply 4 of game 17 is reached in other games"

    tree = {(r[0], r[2], r[3], r[4]): r[5] for r in answers["opening-tree"]}
    assert tree == dict(corpus.opening_tree(4))
    # Transpositions merge: some node is reached from two different parents.
    parents = collections.defaultdict(set)
    for v, parent, _, child in tree:
        parents[(v, child)].add(parent)
    assert any(len(p) > 1 for p in parents.values())
    for r in answers["opening-tree"]:
        assert r[6] is None or 0 <= r[6] <= 100

    common = collections.defaultdict(list)
    for v, k, _, games in answers["common-positions"]:
        common[v].append((-games, k))
    assert dict(common) == corpus.common_positions(5)

    expected = corpus.transpositions(8)
    got = {(r[0], r[1]): r[2] for r in answers["transpositions"]}
    assert len(got) == min(20, len(expected)) and len(got) > 0
    for vk, orders in got.items():
        assert expected[vk] == orders
    assert max(got.values()) == max(expected.values())


# ---- DuckDB -------------------------------------------------------------------------------


def duckdb_answers(folder):
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (pip install duckdb)")
    con = duckdb.connect()
    for name in ["games", "plies"]:
        single = folder / f"{name}.parquet"
        source = (f"'{single}'" if single.exists() else
                  f"read_parquet('{folder / name}/**/*.parquet', hive_partitioning = true)")
        con.sql(f"CREATE VIEW {name} AS SELECT * FROM {source}")
    return {name: con.sql(sql).fetchall() for name, sql in recipes("sql").items()}


def test_recipes_are_in_the_doc():
    assert set(recipes("sql")) == {
        "games-through-position", "opening-tree", "common-positions", "transpositions"}
    assert set(recipes("sparksql")) <= set(recipes("sql"))


def test_duckdb_recipes_on_one_folder(tables, corpus):
    check_answers(duckdb_answers(tables["plain"]), corpus)


def test_duckdb_recipes_on_partitions_give_the_same_answers(tables, corpus):
    plain = duckdb_answers(tables["plain"])
    parts = duckdb_answers(tables["parts"])
    for name in plain:
        assert sorted(map(repr, plain[name])) == sorted(map(repr, parts[name])), name
    check_answers(parts, corpus)


def test_partitions_read_back_whole(tables):
    for name in ["games", "plies", "diagnostics"]:
        whole = read_table(tables["plain"], name).sort_by("game_id")
        parts = read_table(tables["parts"], name)
        assert parts.num_rows == whole.num_rows > 0, name
        assert {"variant", "year"} <= set(parts.column_names)
        parts = parts.select(whole.column_names).sort_by(
            [("game_id", "ascending")] + ([("ply", "ascending")] if name == "plies" else [])
            + ([("byte", "ascending")] if name == "diagnostics" else []))
        if name == "plies":
            whole = whole.sort_by([("game_id", "ascending"), ("ply", "ascending")])
        if name == "diagnostics":
            whole = whole.sort_by([("game_id", "ascending"), ("byte", "ascending")])
        for column in whole.column_names:
            a, b = whole.column(column), parts.column(column)
            if column == "variant":
                # Hive's partition value may come back as a dictionary or a plain string.
                a, b = a.cast(pa.string()), b.cast(pa.string())
            assert a.to_pylist() == b.to_pylist(), f"{name}.{column}"


def test_default_plies_have_keys_and_no_position_strings(tables):
    schema = pq.read_schema(tables["plain"] / "plies.parquet")
    assert schema.field("position_key").type == pa.int64()
    assert "fen_after" not in schema.names
    assert pq.read_schema(tables["plain"] / "games.parquet").field("start_key").type == pa.int64()


# ---- Spark --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no java: Spark needs a Java runtime")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("arbiter-recipes")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_recipes_agree_with_duckdb(tables, corpus, spark):
    folder = tables["parts"]
    for name in ["games", "plies"]:
        spark.read.parquet(str(folder / name)).createOrReplaceTempView(name)
    sql = {**recipes("sql"), **recipes("sparksql")}
    answers = {name: [tuple(r) for r in spark.sql(q).collect()] for name, q in sql.items()}
    check_answers(answers, corpus)
    duck = duckdb_answers(folder) if _has("duckdb") else None
    if duck is not None:
        for name in answers:
            assert sorted(map(_plain, answers[name])) == sorted(map(_plain, duck[name])), name


def _has(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def _plain(row):
    return tuple(float(v) if hasattr(v, "as_integer_ratio") and not isinstance(v, int) else v
                 for v in row)


# ---- select --position against the key ---------------------------------------------------


def test_select_position_finds_the_games_the_key_finds(tables, corpus, tmp_path):
    """`arbiter select --position FEN` picks the games whose plies carry the FEN's key."""
    positions = export(tmp_path, "positions", "--positions")
    plies = pq.read_table(positions / "plies.parquet").to_pydict()
    fen = next(f for g, p, f in zip(plies["game_id"], plies["ply"], plies["fen_after"])
               if g == 17 and p == 4)
    expected = corpus.games_through(17, 4)
    selected = tmp_path / "selected.pdn"
    subprocess.run([str(arbiter_bin()), "select", str(CORPUS), "--game", corpus.variant[17],
                    "--position", fen, "-o", str(selected)], check=True, capture_output=True)
    picked = export(tmp_path, "picked", source=selected)
    got = pq.read_table(picked / "games.parquet").to_pydict()
    whole = pq.read_table(tables["plain"] / "games.parquet").to_pydict()
    ident = lambda t, i: (t["variant"][i], t["white"][i], t["black"][i], t["date"][i],
                          t["event"][i], t["plies_written"][i])
    assert len(got["game_id"]) == len(expected) > 1
    assert sorted(map(repr, (ident(got, i) for i in range(len(got["game_id"]))))) == \
        sorted(map(repr, (ident(whole, g) for g in expected)))
