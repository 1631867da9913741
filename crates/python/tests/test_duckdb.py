"""DuckDB, pandas and polars over the Arrow tables, without files."""

import pytest

import arbiter

duckdb = pytest.importorskip("duckdb")


@pytest.fixture(scope="module")
def tables():
    return arbiter.read_tables(["corpus/english", "corpus/defects"])


def test_duckdb_queries_the_arrow_tables(tables):
    games, plies, diagnostics = (tables[t] for t in arbiter.TABLES)
    con = duckdb.connect()
    con.register("games", games)
    con.register("plies", plies)
    con.register("diagnostics", diagnostics)
    n, = con.execute("select count(*) from plies").fetchone()
    assert n == plies.num_rows
    rows = con.execute("""
        select g.variant, count(*) as plies, sum(p.pieces_taken) as taken
        from plies p join games g using (game_id)
        group by g.variant order by g.variant""").fetchall()
    df = plies.to_pandas().merge(games.to_pandas()[["game_id", "variant"]], on="game_id")
    want = df.groupby("variant").agg(plies=("ply", "size"), taken=("pieces_taken", "sum"))
    assert [(v, p, t) for v, p, t in rows] == \
        [(v, int(r.plies), int(r.taken)) for v, r in want.iterrows()]
    codes = dict(con.execute(
        "select code, count(*) from diagnostics group by code").fetchall())
    assert sum(codes.values()) == diagnostics.num_rows and "illegal-move" in codes


def test_duckdb_reads_a_record_batch_stream():
    reader = arbiter.record_batches("corpus/tama", "games", batch_size=100)
    (n,), = duckdb.sql("select count(*) from reader").fetchall()
    assert n == 1100


def test_polars_takes_the_tables(tables):
    pl = pytest.importorskip("polars")
    df = pl.from_arrow(tables["plies"])
    assert df.height == tables["plies"].num_rows
    assert df.filter(pl.col("promotion")).height == \
        sum(tables["plies"].column("promotion").to_pylist())
