"""arbiter.analyse against `arbiter analyse --format json` and `--export`, on a few real
International games at a small node count (skipped with a notice without ../shared)."""

import pytest

import arbiter

pq = pytest.importorskip("pyarrow.parquet")

NODES = 1000
FIELDS = ["ply", "move", "eval_before", "eval_after", "best", "line", "loss", "class",
          "agreed", "shot", "depth", "nodes", "player"]


@pytest.fixture(scope="module")
def games(international_games):
    return international_games


@pytest.fixture(scope="module")
def cli_lines(cli_json, games):
    return cli_json("analyse", games, "--nodes", NODES, "--format", "json")


@pytest.fixture(scope="module")
def analysis(games):
    return arbiter.analyse(games, nodes=NODES)


def test_plies_are_the_cli_json_plies(analysis, cli_lines):
    want = [l for l in cli_lines if l["kind"] == "ply"]
    got = analysis.plies.to_pylist()
    assert len(got) == len(want) > 200
    for g, w in zip(got, want):
        assert (g["file"], g["index_in_file"]) == (w["file"], w["game"])
        for key in FIELDS:
            assert g[key] == w[key], (key, g, w)
        assert g["accuracy"] == pytest.approx(w["accuracy"])
    assert analysis.plies.column("game_id").to_pylist() == \
        [w["game"] - 1 for w in want]


def test_players_are_the_cli_players(analysis, cli_lines):
    want = {l["player"]: l for l in cli_lines if l["kind"] == "player"}
    got = analysis.players.to_pylist()
    assert [g["player"] for g in got] == sorted(want) and len(got) == 8
    for g in got:
        w = want[g["player"]]
        assert (g["games"], g["moves"], g["blunders"], g["mistakes"]) == \
            (w["games"], w["moves"], w["classes"]["blunder"], w["classes"]["mistake"])
        for key in ["accuracy", "average_loss", "agreement"]:
            assert abs(g[key] - w[key]) <= 0.05 + 1e-9, (key, g, w)


def test_schemas_are_those_of_the_exported_files(analysis, cli, games, tmp_path):
    cli("analyse", games, "--nodes", "50", "--limit", "1", "--export", tmp_path, "-q")
    assert pq.read_schema(tmp_path / "analysis.parquet").remove_metadata() == \
        analysis.plies.schema.remove_metadata()
    assert pq.read_schema(tmp_path / "players.parquet").remove_metadata() == \
        analysis.players.schema.remove_metadata()


def test_bad_arguments_are_refused_with_the_cli_words(games, tmp_path):
    with pytest.raises(ValueError, match="nodes"):
        arbiter.analyse(games, nodes=0)
    with pytest.raises(ValueError, match="not a game"):
        arbiter.analyse(games, game="chess")
    with pytest.raises(FileNotFoundError):
        arbiter.analyse(tmp_path / "missing.pdn")
