"""games() and read_games()."""

import pytest

import arbiter


def test_registry_matches_the_cli(cli_json):
    want = cli_json("games", "--format", "json")
    got = arbiter.games()
    assert [g["id"] for g in got] == [g["id"] for g in want]
    for g, w in zip(got, want):
        assert g["game_types"] == w["game_types"]
        assert [o["name"] for o in g["options"]] == w["options"]
        assert g["seats"] == w["seats"] and g["label"] == w["label"]


def test_read_games_counts_as_validate(repo):
    path = repo / "corpus/international/international-mixed.pdn"
    games = list(arbiter.read_games(path))
    assert len(games) == arbiter.validate(path).games
    assert [g.index for g in games[:3]] == [1, 2, 3]
    assert all(g.file == str(path) for g in games[:3])


def test_read_games_reads_a_folder_as_validate_does(repo):
    """docs/python.md: paths may be folders. Every file a folder search finds, in order,
    each game with its own file and index."""
    folder = repo / "corpus/defects"
    games = list(arbiter.read_games(folder))
    assert len(games) == arbiter.validate(folder).games
    files = list(dict.fromkeys(g.file for g in games))
    assert len(files) > 1 and files == sorted(files)
    first = [g for g in games if g.file == files[1]]
    assert [g.index for g in first] == list(range(1, len(first) + 1))


def test_game_objects_keep_variations_comments_and_tags():
    text = ('[Event "Club"]\n[Variant "English draughts"]\n[Custom "x y"]\n\n'
            '{before} 1. 11-15 {a comment} 23-19 (1... 22-18 2. 15x22) 2. 8-11 1-0\n')
    g = next(arbiter.read_games(text))
    assert g.tags == {"Event": "Club", "Variant": "English draughts", "Custom": "x y"}
    assert g.tag_pairs == list(g.tags.items())
    assert g.moves == ["11-15", "23-19", "8-11"]
    assert g.variations == [(1, ["22-18", "15x22"])]
    assert g.comments == [(0, "before"), (1, "a comment")]
    assert g.result == "1-0" and g.game == "english"
    again = next(arbiter.read_games(g.to_pdn()))
    assert (again.moves, again.variations, again.comments, again.result) == \
        (g.moves, g.variations, g.comments, g.result)
    assert len(g.positions()) == 4


def test_positions_of_an_untagged_game_come_from_its_identified_game():
    # No Variant or GameType tag: the referee identifies the game from the moves, as the CLI
    # does; moves no game can play leave nothing to replay.
    g = next(arbiter.read_games("[Event \"x\"]\n\n1. 11-15 *\n"))
    assert g.game is None
    assert g.positions() == g.positions(game="english")
    assert len(g.positions()) == 2
    odd = next(arbiter.read_games("[Event \"x\"]\n\n1. zz-qq *\n"))
    with pytest.raises(ValueError):
        odd.positions()


def test_read_games_is_lazy_and_reports_missing_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        arbiter.read_games(tmp_path / "none.pdn")
    # A second game that is never reached is never read: a generator over a huge text.
    it = arbiter.read_games('[Variant "Tama"]\n\n1. c3-c4 *\n\n' * 100_000)
    assert next(it).index == 1 and next(it).index == 2
