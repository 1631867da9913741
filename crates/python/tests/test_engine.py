"""arbiter.Engine: the search as a player, with the move in the form Board.push takes."""

import threading

import pytest

import arbiter


def test_a_forced_capture_is_returned_and_can_be_pushed():
    # White must take 22 (28x17): no other move is legal.
    board = arbiter.Board("international", fen="W:W28:B22,3")
    engine = arbiter.Engine("international", hash_mb=1)
    result = engine.search(board, depth=3)
    assert result.move == "28x17"
    assert result.line[0] == result.move
    assert result.index == 0
    board.push(result.move)
    assert board.fen().startswith("B:W17")


def test_the_line_plays_on_a_board_and_the_score_is_the_movers():
    board = arbiter.Board("international")
    engine = arbiter.Engine("international", hash_mb=1)
    result = engine.search(board, depth=4)
    assert result.depth == 4
    assert len(result.line) >= 4
    copy = board.copy()
    for move in result.line:
        assert move in copy.legal_moves()
        copy.push(move)
    # A man up for White: the score is White's when White moves, Black's when Black does.
    up = "W:W28,32,33,38:B3,12,13"
    white = engine.search(arbiter.Board("international", fen=up), depth=3)
    black = engine.search(arbiter.Board("international", fen="B" + up[1:]), depth=3)
    assert white.score > 50
    assert black.score < -50


def test_depth_and_node_limits_are_honoured():
    board = arbiter.Board("international")
    engine = arbiter.Engine("international", hash_mb=1)
    for depth in (1, 2, 5):
        assert engine.search(board, depth=depth).depth == depth
    small = engine.search(board, nodes=500)
    large = engine.search(board, nodes=20_000)
    assert small.nodes <= 500 + 200  # the node count is checked as the search goes
    assert large.nodes > small.nodes and large.depth >= small.depth
    timed = engine.search(board, time=0.05)
    assert timed.move in board.legal_moves()


def test_results_are_deterministic_under_a_node_limit():
    board = arbiter.Board("international")
    board.push("32-28")
    first = arbiter.Engine("international", hash_mb=1).search(board, nodes=5_000)
    again = arbiter.Engine("international", hash_mb=1).search(board, nodes=5_000)
    assert (first.move, first.score, first.depth, first.nodes, first.line) == (
        again.move, again.score, again.depth, again.nodes, again.line)
    engine = arbiter.Engine("international", hash_mb=1)
    engine.search(arbiter.Board("international"), nodes=5_000)
    engine.clear()
    cleared = engine.search(board, nodes=5_000)
    assert (cleared.move, cleared.score, cleared.line) == (first.move, first.score, first.line)


def test_other_games_and_proven_results():
    for game in ("english", "russian", "frisian", "tama"):
        board = arbiter.Board(game)
        result = arbiter.Engine(game, hash_mb=1).search(board, depth=2)
        board.push(result.move)
    # White takes the last black man: a win in one ply.
    won = arbiter.Engine("international", hash_mb=1).search(
        arbiter.Board("international", fen="W:W28:B22"), depth=3)
    assert won.mate == 1 and won.score > 900_000
    over = arbiter.Engine("international", hash_mb=1).search(
        arbiter.Board("international", fen="B:W28:B"), depth=3)
    assert over.move is None and over.line == []


def test_mistakes_are_value_errors():
    engine = arbiter.Engine("international", hash_mb=1)
    with pytest.raises(ValueError, match="this engine plays international"):
        engine.search(arbiter.Board("english"), depth=1)
    with pytest.raises(ValueError):
        engine.search(arbiter.Board("international"), nodes=0)
    with pytest.raises(ValueError):
        engine.search(arbiter.Board("international"), time=-1.0)
    with pytest.raises(ValueError):
        arbiter.Engine("chess")
    with pytest.raises(ValueError):
        arbiter.Engine("international", hash_mb=0)


def test_the_gil_is_released_while_searching():
    board = arbiter.Board("international")
    engine = arbiter.Engine("international", hash_mb=1)
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=count)
    t.start()
    engine.search(board, time=0.3)
    done.set()
    t.join()
    assert len(ticks) > 10
