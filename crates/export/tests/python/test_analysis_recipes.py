"""The analysis tables of `arbiter analyse --export` and the analysis recipes of
docs/export.md, on real International games.

A few games of ../shared/corpora/real/international (skipped with a notice when absent) are
exported (`arbiter export`) and analysed (`arbiter analyse --export`, at a small node count)
into one folder; with ARBITER_EVIDENCE=DIR every game of that folder at the default node
count, as scripts/analysis-evidence exported and analysed them into DIR/tables. The tables
are checked against the CLI's `--format json` output, joined to `plies` and `games`, and every ``sql analysis-recipe=`` block of the document runs in DuckDB
and in Spark (local mode), answers checked against figures counted here with pyarrow.
"""

import collections
import json
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
DOC = ROOT / "docs" / "export.md"
REAL = ROOT.parent / "shared" / "corpora" / "real" / "international"
# Two tournaments whose Date tags are written differently (09.07.2007, 2014.10.29).
FILES = ["bruno-1er_Open_International_Allinges_2007.pdn", "bruno-29eme_Open_d'Avignon_2014.pdn"]
GAMES_PER_FILE = 5
NODES = "1000"
EVIDENCE = os.environ.get("ARBITER_EVIDENCE")

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install pyarrow)")
pq = pytest.importorskip("pyarrow.parquet")


def arbiter_bin():
    path = Path(os.environ.get("ARBITER_BIN", ROOT / "target" / "debug" / "arbiter"))
    if not path.exists():
        pytest.skip(f"no arbiter binary at {path} (cargo build -p arbiter, or set ARBITER_BIN)")
    return path


def recipes():
    text = DOC.read_text()
    return {m.group(1): m.group(2).strip().rstrip(";")
            for m in re.finditer(r"```sql analysis-recipe=([\w-]+)\n(.*?)```", text, re.S)}


def first_games(text, n):
    games = re.split(r"\n(?=\[Event )", text.strip("\n"))
    return "\n".join(g.rstrip("\n") + "\n" for g in games[:n]) + "\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    if EVIDENCE:
        with open(Path(EVIDENCE) / "analysis.jsonl", encoding="utf-8") as f:
            yield Path(EVIDENCE) / "tables", [json.loads(l) for l in f if l.strip()]
        return
    if not all((REAL / f).exists() for f in FILES):
        pytest.skip(f"the real International games are not in {REAL}")
    tmp = tmp_path_factory.mktemp("analysis")
    inputs = tmp / "in"
    inputs.mkdir()
    for i, name in enumerate(FILES):
        text = (REAL / name).read_text(encoding="utf-8", errors="replace")
        (inputs / f"{i}.pdn").write_text(first_games(text, GAMES_PER_FILE), encoding="utf-8")
    out = tmp / "tables"
    run = lambda *a: subprocess.run([str(arbiter_bin()), *map(str, a)], capture_output=True)
    done = run("export", inputs, "-o", out)
    assert done.returncode in (0, 1), done.stderr.decode()
    done = run("analyse", inputs, "--nodes", NODES, "--export", out, "--format", "json")
    assert done.returncode in (0, 1), done.stderr.decode()
    lines = [json.loads(l) for l in done.stdout.decode().splitlines() if l.strip()]
    yield out, lines
    shutil.rmtree(tmp, ignore_errors=True)


def r1(x):
    """Rounded to one decimal, halves away from zero (as SQL's round and Rust's)."""
    return math.floor(x * 10 + 0.5) / 10


def table(folder, name):
    return pq.read_table(folder / f"{name}.parquet").to_pylist()


def test_analysis_rows_are_the_cli_json_plies(folder):
    out, lines = folder
    plies = [l for l in lines if l["kind"] == "ply"]
    rows = table(out, "analysis")
    assert len(rows) == len(plies) > 500
    for r, p in zip(rows, plies):
        assert (r["file"], r["index_in_file"], r["ply"], r["move"]) == \
            (p["file"], p["game"], p["ply"], p["move"])
        for key in ["eval_before", "eval_after", "best", "line", "loss", "class", "agreed",
                    "shot", "depth", "nodes", "player"]:
            assert r[key] == p[key], (key, r, p)
        assert r["accuracy"] == pytest.approx(p["accuracy"])


def test_analysis_joins_plies_and_games(folder):
    out, _ = folder
    plies = {(p["game_id"], p["ply"]): p for p in table(out, "plies")}
    games = {g["game_id"]: g for g in table(out, "games")}
    for r in table(out, "analysis"):
        p = plies[(r["game_id"], r["ply"])]
        assert (p["notation"], p["mover"]) == (r["move"], r["mover"])
        g = games[r["game_id"]]
        assert (g["file"], g["offset"], g["index_in_file"]) == \
            (r["file"], r["offset"], r["index_in_file"])


def test_players_table_is_the_cli_player_figures(folder):
    out, lines = folder
    expected = {l["player"]: l for l in lines if l["kind"] == "player"}
    rows = table(out, "players")
    assert [r["player"] for r in rows] == sorted(expected)
    for r in rows:
        e = expected[r["player"]]
        assert (r["games"], r["moves"]) == (e["games"], e["moves"])
        for key in ["accuracy", "average_loss", "agreement"]:
            assert r1(r[key]) == pytest.approx(e[key]), (key, r, e)
        assert r["blunders"] == e["classes"]["blunder"]
        assert r["missed_shots"] == e["classes"]["missed-shot"]


# ---- what the recipes must answer, counted here -------------------------------------------


def expected_answers(out):
    rows = table(out, "analysis")
    games = {g["game_id"]: g for g in table(out, "games")}
    plies = {(p["game_id"], p["ply"]): p for p in table(out, "plies")}
    by = collections.defaultdict(list)
    for r in rows:
        m = re.search(r"[0-9]{4}", games[r["game_id"]]["date"] or "")
        by[(r["player"], m.group(0) if m else None)].append(r)
    accuracy = [(player, year, len({r["game_id"] for r in rs}), len(rs),
                 r1(sum(r["accuracy"] for r in rs) / len(rs)),
                 r1(sum(r["loss"] for r in rs) / len(rs)),
                 sum(r["class"] == "blunder" for r in rs))
                for (player, year), rs in by.items()]
    missed = collections.Counter()
    openings = collections.Counter()
    for r in rows:
        if r["class"] != "missed-shot":
            continue
        g = games[r["game_id"]]
        before = plies.get((r["game_id"], r["ply"] - 1))
        key = (g["variant"], before["position_key"] if before else g["start_key"])
        missed[key] += 1
        openings[key + (g["opening"],)] += 1
    top = sorted(missed.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    shots = [(v, k, n, o, t) for (v, k), n in top
             for (v2, k2, o), t in openings.items() if (v2, k2) == (v, k)]
    players = {r["player"]: r for r in table(out, "players")}
    return {"accuracy-by-player-year": accuracy, "missed-shot-openings": shots,
            "players-from-plies": players}


def check(name, got, expected):
    if name == "players-from-plies":
        assert [g[0] for g in got] == sorted(expected)
        for player, games, moves, accuracy, loss, agreement in got:
            e = expected[player]
            assert (games, moves) == (e["games"], e["moves"])
            assert float(accuracy) == pytest.approx(e["accuracy"])
            assert float(loss) == pytest.approx(e["average_loss"])
            assert float(agreement) == pytest.approx(e["agreement"])
        return
    # Rounded figures compare within a rounding step: SQL rounds the binary value (7.55 may
    # be 7.5499...), Python the decimal one.
    fuzzy = lambda v: isinstance(v, float) or type(v).__name__ == "Decimal"  # noqa: E731
    key = lambda r: tuple("" if fuzzy(v) else str(v) for v in r)  # noqa: E731
    got, expected = sorted(got, key=key), sorted(expected, key=key)
    assert len(got) == len(expected), name
    for g, e in zip(got, expected):
        assert key(g) == key(e), (name, g, e)
        for a, b in zip(g, e):
            if fuzzy(a):
                assert float(a) == pytest.approx(float(b), abs=0.1 + 1e-9), (name, g, e)


def test_recipes_are_in_the_doc():
    assert set(recipes()) == {"accuracy-by-player-year", "missed-shot-openings",
                              "players-from-plies"}


def test_duckdb_analysis_recipes(folder):
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed (pip install duckdb)")
    out, _ = folder
    con = duckdb.connect()
    for name in ["games", "plies", "analysis"]:
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM '{out / (name + '.parquet')}'")
    expected = expected_answers(out)
    assert any(r[6] > 0 for r in expected["accuracy-by-player-year"]), "no blunder to count"
    assert expected["missed-shot-openings"], "no missed shot to find"
    for name, sql in recipes().items():
        check(name, con.execute(sql).fetchall(), expected[name])


def test_spark_analysis_recipes(folder):
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no java: Spark needs a Java runtime")
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("arbiter-analysis-recipes")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "4").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    out, _ = folder
    for name in ["games", "plies", "analysis"]:
        spark.read.parquet(str(out / f"{name}.parquet")).createOrReplaceTempView(name)
    expected = expected_answers(out)
    for name, sql in recipes().items():
        check(name, [tuple(r) for r in spark.sql(sql).collect()], expected[name])
