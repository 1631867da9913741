"""arbiter.spark in a local Spark session, against the package on the same texts."""

import os
import shutil
import sys

import pytest

import arbiter
import arbiter.spark  # noqa: F401


@pytest.fixture(scope="module")
def spark():
    pyspark = pytest.importorskip("pyspark", reason="pyspark not installed: Spark test skipped")
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        pytest.skip("no Java runtime: Spark test skipped (apt-get install openjdk-17-jre-headless)")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("arbiter-test")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    yield session
    session.stop()


def test_spark_validate_and_plies_agree_with_the_package(spark, repo):
    from pyspark.sql import functions as F

    folders = [repo / "corpus/defects/english", repo / "corpus/defects/international",
               repo / "corpus/english"]
    df = spark.read.option("pathGlobFilter", "*.pdn") \
        .text([str(f) for f in folders], wholetext=True) \
        .withColumn("path", F.input_file_name())
    diags = arbiter.spark.validate(df, name_column="path")
    want = arbiter.validate(folders).diagnostics
    got = diags.select("code", "line", "column", "ply").collect()
    key = lambda r: (r[0], r[1], r[2], r[3] or 0)  # noqa: E731
    assert sorted(map(key, got)) == sorted(
        map(key, zip(*(want.column(c).to_pylist() for c in ("code", "line", "column", "ply")))))
    plies = arbiter.spark.plies(df)
    tables = arbiter.read_tables(folders)
    assert plies.count() == tables["plies"].num_rows
    per_game = plies.groupBy("game_id").count().count()
    assert per_game == len(set(tables["plies"].column("game_id").to_pylist()))


def test_read_pdn_descends_into_subfolders(spark, repo):
    """corpus/defects holds its records in one folder per game: read_pdn finds every file the
    package finds, and the diagnostics are the package's."""
    folder = repo / "corpus/defects"
    df = arbiter.spark.read_pdn(spark, folder)
    report = arbiter.validate(folder)
    assert df.count() == report.files > 1
    diags = arbiter.spark.validate(df, name_column="path")
    assert diags.count() == report.diagnostics.num_rows


def test_spark_analyse_gives_the_cli_rows(spark, international_games, cli_analysis,
                                         analysis_nodes):
    """Each file analysed whole on one executor: the rows and the players' figures are the
    CLI's for the same games and nodes."""
    want = cli_analysis
    df = arbiter.spark.read_pdn(spark, international_games)
    analysis = arbiter.spark.analyse(df, nodes=analysis_nodes, name_column="path").cache()
    # Spark names a file by its URI, the CLI by its path: both end in the file's name.
    base = lambda f: os.path.basename(f)  # noqa: E731
    got = sorted(analysis.collect(),
                 key=lambda r: (base(r["file"]), r["index_in_file"], r["ply"]))
    plies = sorted((w for w in want if w["kind"] == "ply"),
                   key=lambda w: (base(w["file"]), w["game"], w["ply"]))
    assert len(got) == len(plies) > 200
    fields = ["ply", "move", "eval_before", "eval_after", "best", "line", "loss", "class",
              "agreed", "shot", "depth", "nodes", "player"]
    for g, w in zip(got, plies):
        assert (base(g["file"]), g["index_in_file"]) == (base(w["file"]), w["game"])
        assert [g[k] for k in fields] == [w[k] for k in fields]
    players = {w["player"]: w for w in want if w["kind"] == "player"}
    rows = arbiter.spark.players(analysis).collect()
    assert [r["player"] for r in rows] == sorted(players)
    for r in rows:
        w = players[r["player"]]
        assert (r["games"], r["moves"], r["blunders"]) == \
            (w["games"], w["moves"], w["classes"]["blunder"])
        assert abs(r["accuracy"] - w["accuracy"]) <= 0.05 + 1e-9
