"""The engine analysis in the viewer, in a real browser (Selenium with Debian's chromium).

`arbiter analyse --annotate` writes real International games with their analysis (a small
node budget, for speed); `arbiter view` pages them. The test contract: every classed move's
entry (`.classed`) carries `data-class`, `data-file`, `data-game` and `data-ply`;
`#vw-graph[data-evals]` holds the evaluation after each ply (the first seat's view);
`#vw-best[data-best]` names the engine's choice for the ply after the position shown.
Clicking a classed move shows the position before it (`#board[data-fen]`, as `convert`
writes it) and the engine's choice as `analyse --format json` gives it.

Skipped with a notice when the browser or ../shared/corpora/real is missing. The games are
the first six of one tournament at a small node budget; with ARBITER_EVIDENCE=DIR every game
of real/international at the default budget, as scripts/analysis-evidence analysed them into
DIR (annotated.pdn, report/, analysis.jsonl). Set ARBITER_SCREENSHOT_DIR to keep the screenshots of the user guide
(analysis-players.png, analysis-graph.png, analysis-blunder.png).
"""

import json
import os
from pathlib import Path

import pytest
from test_viewer import REAL, arbiter, board, driver, expected_fen, open_page, out  # noqa: F401

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

EVIDENCE = os.environ.get("ARBITER_EVIDENCE")
CLASSES = {"inaccuracy", "mistake", "blunder", "missed-win", "missed-shot", "allowed-shot"}
WON = 100_000


def analysis(out, name, *option):
    """`analyse --format json`'s rows and the output `name` its `option` writes: of the first
    six games of a tournament at 1,500 nodes, or the evidence's (every game, default nodes)."""
    files = sorted((REAL / "international").glob("*.pdn"))
    if not files:
        pytest.skip(f"NOTICE: {REAL / 'international'} is absent: the analysis pages not checked")
    if EVIDENCE:
        written = Path(EVIDENCE) / name
        text = (Path(EVIDENCE) / "analysis.jsonl").read_text(encoding="utf-8")
    else:
        written = out / name
        text = arbiter("analyse", files[0], "--limit", "6", "--nodes", "1500", "--format", "json",
                       *option, written)
    return written, [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def analysed(out):  # noqa: F811
    """The annotated games, the viewer's page and `analyse --format json`'s plies by (game, ply)."""
    annotated, rows = analysis(out, "annotated.pdn", "--annotate", "-o")
    # The annotated file holds every game read, in order: its game N is the N-th game named
    # by a "game" row or a "not-analysed" one (a game whose replay failed at once has no
    # "game" row), whatever file it came from.
    read = dict.fromkeys((r["file"], r["game"]) for r in rows if r["kind"] in ("game", "not-analysed"))
    number = {key: n for n, key in enumerate(read, 1)}
    plies = {(number[(r["file"], r["game"])], r["ply"]): r for r in rows if r["kind"] == "ply"}
    page = out / "analysed.html"
    arbiter("view", annotated, "-o", page)
    return annotated, page, plies


def first_view(row):
    """The evaluation after the ply from the first seat's view (International: two seats)."""
    return row["eval_after"] if row["seat"] == 0 else -row["eval_after"]


def classed_entries(driver):  # noqa: F811
    driver.find_element(By.ID, "vw-tab-moves").click()
    return driver.find_elements(By.CSS_SELECTOR, "#vw-problems .classed")


def pager(driver):  # noqa: F811
    """(entries listed, this page, pages) from the pager's "N shown · page P of Q"."""
    words = driver.find_element(By.ID, "vw-page").text.split()
    return int(words[0]), int(words[4]), int(words[6])


def every_classed_entry(driver):  # noqa: F811
    """The attributes of every entry of the classed moves' list, page after page."""
    classed_entries(driver)
    read = """return Array.from(document.querySelectorAll('#vw-problems .classed')).map(
        e => [e.dataset.game, e.dataset.ply, e.dataset.class, e.dataset.file])"""
    entries = []
    while True:
        entries += driver.execute_script(read)
        listed, page, pages = pager(driver)
        if page == pages:
            break
        driver.find_element(By.ID, "vw-page-next").click()
        assert pager(driver)[1] == page + 1
    assert len(entries) == listed
    return entries


def test_classed_moves_are_listed_with_the_contract(driver, analysed):  # noqa: F811
    annotated, page, plies = analysed
    open_page(driver, page)
    entries = every_classed_entry(driver)
    listed = sorted((int(game), int(ply), cls) for game, ply, cls, _ in entries)
    # `--annotate` marks a classed move unless it was the engine's own choice.
    expected = sorted((g, p, r["class"]) for (g, p), r in plies.items() if r["class"] and not r["agreed"])
    assert listed == expected
    assert listed, "the games have classed moves"
    for _, _, cls, file in entries:
        assert cls in CLASSES
        assert file == str(annotated)


def test_the_graph_holds_every_evaluation_and_jumps(driver, analysed):  # noqa: F811
    annotated, page, plies = analysed
    open_page(driver, page)
    driver.find_element(By.ID, "vw-tab-games").click()
    driver.find_element(By.CSS_SELECTOR, "#vw-games tbody tr").click()
    graph = driver.find_element(By.ID, "vw-graph")
    evals = [int(v) for v in graph.get_attribute("data-evals").split(",")]
    game = int(board(driver)["game"])
    expected = [first_view(plies[(game, p)]) for p in range(1, len(evals) + 1)]
    assert evals == expected
    # A click on the graph's middle shows a position near the game's middle.
    width = graph.size["width"]
    ActionChains(driver).move_to_element_with_offset(graph, 0, 0).click().perform()
    middle = int(board(driver)["ply"])
    assert abs(middle - len(evals) / 2) <= 2, (middle, len(evals))
    ActionChains(driver).move_to_element_with_offset(graph, width // 2 - 8, 0).click().perform()
    assert int(board(driver)["ply"]) == len(evals), "the right edge is the last ply"
    # The keys step as before.
    driver.find_element(By.ID, "board").send_keys(Keys.HOME)
    driver.find_element(By.ID, "board").send_keys(Keys.ARROW_RIGHT)
    assert board(driver)["ply"] == "1"
    shots = os.environ.get("ARBITER_SCREENSHOT_DIR")
    if shots:
        driver.set_window_size(1200, 1200)
        driver.find_element(By.ID, "board").send_keys(Keys.END)
        driver.find_element(By.CLASS_NAME, "vw-main").screenshot(os.path.join(shots, "analysis-graph.png"))


def test_a_clicked_blunder_shows_the_position_before_it_and_the_best_move(driver, analysed):  # noqa: F811
    annotated, page, plies = analysed
    open_page(driver, page)
    clicked = 0
    for i in range(6):
        entries = classed_entries(driver)
        worst = [e for e in entries if e.get_attribute("data-class") == "blunder"] or entries
        if i >= len(worst):
            break
        e = worst[i]
        game, ply = int(e.get_attribute("data-game")), int(e.get_attribute("data-ply"))
        cls = e.get_attribute("data-class")
        e.click()
        b = board(driver)
        assert (b["game"], b["ply"]) == (str(game), str(ply - 1))
        fen = expected_fen(str(annotated), game, ply - 1)
        if fen is not None:
            assert b["fen"] == fen
        best = driver.find_element(By.ID, "vw-best")
        assert best.get_attribute("data-best") == plies[(game, ply)]["best"]
        assert best.is_displayed()
        # The best move is drawn: a dashed arrow on the board.
        assert driver.find_elements(By.CSS_SELECTOR, "#board path[stroke-dasharray]")
        # The move list marks it (the first entry is the start).
        marked = driver.find_element(By.CSS_SELECTOR, f"#vw-moves span.mv:nth-of-type({ply + 1})")
        assert marked.get_attribute("data-class") == cls
        clicked += 1
    assert clicked
    shots = os.environ.get("ARBITER_SCREENSHOT_DIR")
    if shots:
        driver.set_window_size(1200, 1200)
        entries = classed_entries(driver)
        ([e for e in entries if e.get_attribute("data-class") == "blunder"] or entries)[0].click()
        driver.find_element(By.ID, "viewer").screenshot(os.path.join(shots, "analysis-blunder.png"))


@pytest.fixture(scope="module")
def analysis_report(out):  # noqa: F811
    """`analyse --report` on a few real games: the page and `analyse --format json`'s rows."""
    report, rows = analysis(out, "report", "--report")
    return report / "report.html", rows


ROWS = """return Array.from(document.querySelectorAll('#player-table tbody tr')).map(
    r => [r.dataset.player].concat(Array.from(r.cells).map(c => c.textContent)))"""


def test_the_player_table_sorts_and_its_counts_list_the_moves(driver, analysis_report):  # noqa: F811
    page, rows = analysis_report
    players = {r["player"]: r for r in rows if r["kind"] == "player"}
    plies = {(r["file"], r["game"], r["ply"]): r for r in rows if r["kind"] == "ply"}
    open_page(driver, page)
    table = driver.find_element(By.ID, "player-table")
    shown = driver.execute_script(ROWS)
    assert sorted(r[0] for r in shown) == sorted(players)
    for player, *cells in shown:
        p = players[player]
        assert cells[1:4] == [str(p["games"]), str(p["moves"]), f"{p['accuracy']:.1f}"]
        assert [int(c) for c in cells[5:11]] == [p["classes"][c] for c in
                                                 ["inaccuracy", "mistake", "blunder", "missed-win",
                                                  "missed-shot", "allowed-shot"]]
    # Sorting by accuracy (a click: ascending).
    table.find_elements(By.TAG_NAME, "th")[3].click()
    values = [float(r[4]) for r in driver.execute_script(ROWS)]
    assert values == sorted(values)
    shots = os.environ.get("ARBITER_SCREENSHOT_DIR")
    if shots:
        # The players with the most moves first (a second click sorts descending).
        driver.set_window_size(1400, 900)
        for _ in range(2):
            table.find_elements(By.TAG_NAME, "th")[2].click()
        moves = [int(r[3]) for r in driver.execute_script(ROWS)]
        assert moves == sorted(moves, reverse=True)
        driver.execute_script("arguments[0].scrollIntoView()", table)
        driver.save_screenshot(os.path.join(shots, "analysis-players.png"))
    # Each count lists those moves of that player; an entry opens the position before the move.
    links = driver.find_elements(By.CSS_SELECTOR, "#player-table a.moves")
    assert links
    for i in range(min(4, len(links))):
        link = driver.find_elements(By.CSS_SELECTOR, "#player-table a.moves")[i]
        player = link.find_element(By.XPATH, "./ancestor::tr").get_attribute("data-player")
        cls, count = link.get_attribute("data-class"), int(link.text)
        link.click()
        # The link changes the address's fragment; the page lists the moves when the browser
        # reports that change, which may come after the click returns.
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.ID, "vw-page").text.endswith(f" · {cls} of {player}"))
        entries = driver.find_elements(By.CSS_SELECTOR, "#vw-problems .classed")
        # A page holds 100 entries; the pager counts them all.
        assert len(entries) == min(count, 100)
        assert pager(driver)[0] == count
        assert {(e.get_attribute("data-class"), e.get_attribute("data-player")) for e in entries} == {(cls, player)}
        e = entries[0]
        key = (e.get_attribute("data-file"), int(e.get_attribute("data-game")), int(e.get_attribute("data-ply")))
        assert plies[key]["class"] == cls and plies[key]["player"] == player
        b = board(driver)
        assert (b["game"], b["ply"]) == (str(key[1]), str(key[2] - 1))
        assert driver.find_element(By.ID, "vw-best").get_attribute("data-best") == plies[key]["best"]
        driver.execute_script("window.scrollTo(0, 0)")


def test_the_reports_games_table_fits_its_panel_at_1400_by_900(driver, analysis_report):  # noqa: F811
    """The games table with its accuracy columns needs no sideways scrolling at 1400x900, and
    the step buttons sit above the board, both in view once the viewer is scrolled to."""
    page, _ = analysis_report
    driver.set_window_size(1400, 900)
    try:
        open_page(driver, page)
        driver.find_element(By.ID, "vw-tab-games").click()
        driver.find_element(By.CSS_SELECTOR, "#vw-games tbody tr").click()
        widths = driver.execute_script(
            "var t = document.getElementById('vw-games'), side = document.querySelector('.vw-side');"
            " document.getElementById('vw-title').scrollIntoView();"
            " var b = document.getElementById('vw-last').getBoundingClientRect(),"
            " d = document.getElementById('board').getBoundingClientRect();"
            " return [t.scrollWidth, side.clientWidth, b.bottom, d.top, innerHeight];")
        table, panel, buttons, board_top, height = widths
        assert table <= panel, widths
        assert 0 < buttons <= board_top < height, widths
    finally:
        driver.set_window_size(1400, 1000)
