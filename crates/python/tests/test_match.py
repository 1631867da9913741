"""scripts/match.py plays English against py-draughts (skipped when py-draughts is absent)."""

import importlib.util
import sys

import pytest

from conftest import REPO


def _match_module():
    spec = importlib.util.spec_from_file_location("match_script", REPO / "scripts" / "match.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def match():
    try:
        import draughts  # noqa: F401
    except ImportError:
        print("py-draughts is not installed: the match script's English test is skipped", file=sys.stderr)
        pytest.skip("py-draughts is not installed (pip install py-draughts)")
    module = _match_module()
    yield module
    module.GAME = "international"


def test_english_ballots_are_every_pair_of_first_moves(match):
    match.GAME = "english"
    every = match.ballots(seed=1, count=100)
    assert len(every) == 49
    assert len({fen for fen, _ in every}) == 49
    assert all(fen.startswith("B:") for fen, _ in every)  # Black started, so Black moves again


def test_py_draughts_english_board_forces_captures(match):
    match.GAME = "english"
    board = match.pydraughts_board_class().from_fen("B:W18,30:B14,3")
    assert [str(m) for m in board.legal_moves] == [str(m) for m in board.legal_moves if m.captured_list]
    assert len(list(board.legal_moves)) == 1


def test_a_two_game_english_match_runs(match, capsys):
    assert match.main(["--game", "english", "--opponent", "pydraughts", "--games", "2",
                       "--time", "0.01", "--max-plies", "60"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("english: arbiter")
    assert "2 games: +" in out
    assert "pydraughts:" in out
