"""arbiter.analyse against `arbiter analyse --format json` and `--export`, on a few real
International games at a small node count, or on all of them at the default count with
ARBITER_EVIDENCE (skipped with a notice without ../shared)."""

import pytest

import arbiter
from conftest import FULL_CORPUS

pq = pytest.importorskip("pyarrow.parquet")

FIELDS = ["ply", "move", "eval_before", "eval_after", "best", "line", "loss", "class",
          "agreed", "shot", "depth", "nodes", "player"]


@pytest.fixture(scope="module")
def games(international_games):
    return international_games


@pytest.fixture(scope="module")
def cli_lines(cli_analysis):
    return cli_analysis


@pytest.fixture(scope="module")
def analysis(games, analysis_nodes):
    return arbiter.analyse(games, nodes=analysis_nodes)


def test_plies_are_the_cli_json_plies(analysis, cli_lines):
    want = [l for l in cli_lines if l["kind"] == "ply"]
    got = analysis.plies.to_pylist()
    assert len(got) == len(want) > 200
    for g, w in zip(got, want):
        assert (g["file"], g["index_in_file"]) == (w["file"], w["game"])
        for key in FIELDS:
            assert g[key] == w[key], (key, g, w)
        assert g["accuracy"] == pytest.approx(w["accuracy"])
    # game_id numbers the games read, in order: a new id exactly where a new game begins.
    ids = analysis.plies.column("game_id").to_pylist()
    games = [(w["file"], w["game"]) for w in want]
    for i in range(1, len(ids)):
        assert (ids[i] > ids[i - 1]) == (games[i] != games[i - 1]), (i, games[i])
        assert ids[i] >= ids[i - 1]
    if not FULL_CORPUS:
        assert ids == [w["game"] - 1 for w in want]


def test_players_are_the_cli_players(analysis, cli_lines):
    want = {l["player"]: l for l in cli_lines if l["kind"] == "player"}
    got = analysis.players.to_pylist()
    assert [g["player"] for g in got] == sorted(want)
    assert len(got) == 8 or FULL_CORPUS, "the four games have eight players"
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
