"""Board against `arbiter moves` and the referee's positions."""

import xml.etree.ElementTree as ET

import pytest

import arbiter


def cli_moves(cli, game, fen):
    return cli("moves", "--game", game, "--fen", fen).stdout.split()


@pytest.mark.parametrize("path,game", [
    ("corpus/english/english-greedy.pdn", "english"),
    ("corpus/international/international-mixed.pdn", "international"),
    ("corpus/russian/russian-random.pdn", "russian"),
    ("corpus/tama/tama-greedy.pdn", "tama"),
])
def test_legal_moves_and_replay_agree_with_the_cli(cli, repo, path, game):
    g = next(arbiter.read_games(repo / path))
    assert g.game == game
    positions = g.positions()
    assert len(positions) == len(g.moves) + 1
    board = arbiter.Board(game, fen=positions[0])
    for i, move in enumerate(g.moves[:40]):
        if i % 8 == 0:
            assert board.legal_moves() == cli_moves(cli, game, board.fen()), (path, i)
        board.push(move)
        assert board.fen() == positions[i + 1]
    assert board.pop() == g.moves[39]
    assert board.fen() == positions[39]
    assert len(board.move_stack) == 39


def test_start_position_and_result():
    board = arbiter.Board("english")
    assert board.fen() == arbiter.Board("english", fen=board.fen()).fen()
    assert not board.is_over() and board.result() == "*"
    # White to move with no pieces left: Black, who moves first in English draughts and so
    # is the first side of its results, has won.
    over = arbiter.Board("english", fen="W:W:B1,2")
    assert over.is_over() and over.result() == "1-0"
    assert over.legal_moves() == []


def test_illegal_moves_and_bad_input_raise():
    board = arbiter.Board("english")
    with pytest.raises(ValueError, match="22-17"):
        board.push("22-17")  # Black moves first in English draughts
    assert board.move_stack == []
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(ValueError, match="not a game arbiter knows"):
        arbiter.Board("chess")
    with pytest.raises(ValueError, match="cannot read the position"):
        arbiter.Board("english", fen="nonsense")
    with pytest.raises(ValueError, match="throws"):
        arbiter.Board("thaayam").legal_moves()


def test_thaayam_needs_throws(cli):
    board = arbiter.Board("thaayam")
    want = cli("moves", "--game", "thaayam", "--throws", "1 2").stdout.splitlines()
    assert board.legal_moves(throws=[1, 2]) == want


def test_svg_is_the_report_diagram():
    board = arbiter.Board("international")
    svg = board._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    # 20 white and 20 black men are drawn.
    assert svg.count("<circle") >= 40
