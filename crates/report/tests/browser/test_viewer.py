"""The game viewer in a real browser: Selenium driving Debian's chromium and chromium-driver.

Runs the arbiter binary named by ARBITER_BIN (default: target/debug/arbiter of this
workspace) to write report and viewer pages, opens them headless, clicks problems and steps
with the keys, and checks the page's test contract: `#board[data-fen]` is the position
`arbiter convert --to json --positions` writes for the ply shown, every `.problem` entry
carries `data-file`, `data-game` and `data-ply`, and every diagnostic of the run is listed.

Skipped with a notice when chromium, chromedriver or selenium are missing (CI installs them);
the real archives of ../shared/corpora/real are skipped with a notice when absent. Set
ARBITER_SCREENSHOT=path.png to keep a screenshot of the viewer on a real archive.
"""

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]
DEFECTS = ROOT / "corpus" / "defects"
REAL = ROOT.parent / "shared" / "corpora" / "real"
if not REAL.exists():
    REAL = Path("/work/shared/corpora/real")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - reported as a skip
    webdriver = None


def arbiter_bin():
    path = Path(os.environ.get("ARBITER_BIN", ROOT / "target" / "debug" / "arbiter"))
    if not path.exists():
        pytest.skip(f"NOTICE: no arbiter binary at {path} (build it, or set ARBITER_BIN)")
    return str(path)


def arbiter(*args, ok=(0, 1)):
    run = subprocess.run([arbiter_bin(), *map(str, args)], capture_output=True, text=True)
    assert run.returncode in ok, f"arbiter {' '.join(map(str, args))}: {run.stderr}"
    return run.stdout


@pytest.fixture(scope="module")
def driver():
    if webdriver is None:
        pytest.skip("NOTICE: selenium is not installed (pip install selenium): browser tests skipped")
    if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
        pytest.skip("NOTICE: chromium/chromedriver missing (apt-get install chromium chromium-driver): "
                    "browser tests skipped")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="arbiter-viewer-profile-")
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1400,1000", f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    d = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield d
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def out():
    d = Path(tempfile.mkdtemp(prefix="arbiter-viewer-"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


def open_page(driver, page):
    driver.get(page.as_uri())
    WebDriverWait(driver, 30).until(
        lambda d: d.find_element(By.ID, "viewer").get_attribute("data-ready") == "yes")
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, errors


def diagnostics(*paths):
    """Every diagnostic of `validate --format json`, as (file, game, ply) triples."""
    text = arbiter("validate", "--format", "json", *paths)
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [(r["file"], str(r["game"]), "" if r.get("ply") is None else str(r["ply"])) for r in rows
            if "game" in r]


_positions = {}


def positions(file):
    """Per game of `file` (1-based): the position strings after each ply, from convert."""
    if file not in _positions:
        text = arbiter("convert", file, "--to", "json", "--positions")
        games = [json.loads(line) for line in text.splitlines() if line.strip()]
        _positions[file] = {i + 1: ([p["position"] for p in g.get("plies", [])],
                                    next((t["value"] for t in g.get("tags", []) if t["name"] == "FEN"), None))
                            for i, g in enumerate(games)}
    return _positions[file]


def board(driver):
    return driver.execute_script("var d = document.getElementById('board').dataset;"
                                 " return {fen: d.fen, ply: d.ply, file: d.file, game: d.game,"
                                 " line: d.line};")


def expected_fen(file, game, ply_index):
    """What data-fen must say after `ply_index` plies of game `game` of `file` (None for the
    start position, which convert does not write: a FEN tag may spell it differently)."""
    after, _ = positions(file)[int(game)]
    if ply_index == 0:
        return None
    return after[ply_index - 1]


def all_problem_entries(driver):
    """Every problem entry of the list, page by page, as (file, game, ply) triples."""
    driver.find_element(By.ID, "vw-tab-problems").click()
    seen = []
    while True:
        # One round trip per page: the attributes of every entry shown.
        seen += [tuple(t) for t in driver.execute_script(
            "return Array.from(document.querySelectorAll('#vw-problems .problem')).map(function (e) {"
            " return [e.dataset.file, e.dataset.game, e.dataset.ply]; });")]
        page = driver.find_element(By.ID, "vw-page").text
        if page.split("page ")[1].split(" of ") == [page.split(" of ")[-1]] * 2:
            return seen
        driver.find_element(By.ID, "vw-page-next").click()


def search(driver, text):
    """Types `text` into the search box, replacing what was there."""
    box = driver.find_element(By.ID, "vw-search")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE)
    if text:
        box.send_keys(text)
    assert box.get_attribute("value") == text


def check_problem_clicks(driver, limit=None):
    """Clicks every problem about a ply (up to `limit`): the board must show the position
    before that ply, as convert writes it, and the message must be shown."""
    checked = 0
    targets = [t for t in all_problem_entries(driver) if t[2]]
    for file, game, ply in targets[:limit]:
        search(driver, f"{file}")
        entries = driver.find_elements(
            By.CSS_SELECTOR, f'.problem[data-game="{game}"][data-ply="{ply}"]')
        entries = [e for e in entries if e.get_attribute("data-file") == file]
        assert entries, (file, game, ply)
        entries[0].click()
        b = board(driver)
        assert (b["file"], b["game"]) == (file, game)
        if b["fen"] == "":
            continue  # a game whose start position could not be set up
        assert b["ply"] == str(int(ply) - 1), (file, game, ply, b)
        want = expected_fen(file, game, int(ply) - 1)
        if b["line"] == "variation":
            # The variation's own position: convert writes only the main line's.
            assert "variation" in driver.find_element(By.ID, "vw-message").text
        elif want is not None:
            assert b["fen"] == want, (file, game, ply)
        message = driver.find_element(By.ID, "vw-message").text
        assert message.strip(), "the diagnostic's message is shown"
        checked += 1
    search(driver, "")
    return checked


def step_through(driver, file, game):
    """Opens game `game` of `file` from the games table and steps every ply with the keys,
    checking data-fen against convert at each one."""
    driver.find_element(By.ID, "vw-tab-games").click()
    search(driver, f"{Path(file).name} {game}")
    rows = [r for r in driver.find_elements(By.CSS_SELECTOR, "#vw-games tbody tr")
            if r.get_attribute("data-file") == file and r.get_attribute("data-game") == str(game)]
    assert rows, (file, game)
    rows[0].click()
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    last = int(board(driver)["ply"])
    after, _ = positions(file)[game]
    assert last == len(after), (file, game)
    body.send_keys(Keys.HOME)
    assert board(driver)["ply"] == "0"
    for i in range(1, last + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        b = board(driver)
        assert b["ply"] == str(i) and b["fen"] == after[i - 1], (file, game, i)
    body.send_keys(Keys.ARROW_RIGHT)
    assert board(driver)["ply"] == str(last), "stepping stops at the end"
    body.send_keys(Keys.ARROW_LEFT)
    assert board(driver)["ply"] == str(max(last - 1, 0))
    search(driver, "")
    return last


def test_report_lists_every_problem_of_the_defects_and_opens_each(driver, out):
    report = out / "defects-report"
    arbiter("validate", "-q", DEFECTS, "--report", report)
    open_page(driver, report / "report.html")
    listed = all_problem_entries(driver)
    assert sorted(listed) == sorted(diagnostics(DEFECTS))
    assert check_problem_clicks(driver) >= 40


def test_a_problem_in_a_variation_shows_the_variations_position(driver, out):
    # English: the variation replaces 23-19 by 22-18; its next ply, 12-13, is illegal.
    pdn = out / "variation.pdn"
    pdn.write_text('[Event "variation"]\n[GameType "21"]\n1. 11-15 23-19 (22-18 12-13) *\n\n'
                   '[Event "not identified"]\n1. 99-98 97-96 *\n')
    line = out / "line.pdn"
    line.write_text('[GameType "21"]\n1. 11-15 22-18 *\n')
    page = out / "variation.html"
    arbiter("view", pdn, "-o", page)
    open_page(driver, page)
    driver.find_element(By.ID, "vw-tab-problems").click()
    entry = driver.find_element(By.CSS_SELECTOR, '.problem[data-game="1"][data-ply="3"]')
    entry.click()
    b = board(driver)
    variation_fen = positions(str(line))[1][0][1]
    assert (b["line"], b["ply"], b["fen"]) == ("variation", "2", variation_fen), b
    assert b["fen"] != expected_fen(str(pdn), "1", 2), "not the main line's position"
    assert "variation" in driver.find_element(By.ID, "vw-message").text
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    b = board(driver)
    assert (b["line"], b["ply"]) == ("main", "1"), "stepping goes back to the main line"
    assert b["fen"] == expected_fen(str(pdn), "1", 1)
    # The game that was not identified: no board, its moves as written and the diagnostic.
    driver.find_element(By.CSS_SELECTOR, '.problem[data-game="2"]').click()
    b = board(driver)
    assert (b["game"], b["fen"]) == ("2", ""), b
    record = driver.find_element(By.CSS_SELECTOR, "#board .vw-record").text
    assert "99-98 97-96" in record
    assert "not identified" in driver.find_element(By.ID, "board").text
    assert driver.find_element(By.ID, "vw-message").text.strip()


def test_view_steps_through_every_game_kind(driver, out):
    page = out / "kinds.html"
    files = [ROOT / "corpus/odnocvetnie/odnocvetnie-random.pdn", ROOT / "corpus/thaayam/thaayam-random.pdn.gz",
             ROOT / "corpus/tama/tama-random.pdn", ROOT / "corpus/english/english-random.pdn",
             ROOT / "corpus/international/international-random.pdn"]
    arbiter("view", *files, "-o", page, ok=(0,))
    open_page(driver, page)
    stepped = 0
    for file in files:
        # The first game, and one further down the table (past its first page).
        for game in (1, 150):
            stepped += step_through(driver, str(file), game)
    assert stepped > 100


def test_real_archives(driver, out):
    if not REAL.exists():
        pytest.skip(f"NOTICE: {REAL} is absent: real archives not checked")
    report = out / "real-report"
    arbiter("validate", "-q", REAL, "--report", report)
    open_page(driver, report / "report.html")
    assert sorted(all_problem_entries(driver)) == sorted(diagnostics(REAL))
    check_problem_clicks(driver)
    page = out / "real.html"
    international = sorted((REAL / "international").glob("*.pdn"))
    arbiter("view", *international, "-o", page)
    open_page(driver, page)
    stepped = 0
    # Games arbiter replays (some archives' games are not identified), a few per file.
    for file in international:
        replayed = [g for g, (after, _) in positions(str(file)).items() if after][:2]
        for game in replayed:
            stepped += step_through(driver, str(file), game)
        if stepped > 600:
            break
    assert stepped > 0
    shot = os.environ.get("ARBITER_SCREENSHOT")
    if shot:
        # The viewer as a person sees it: a problem of a real archive opened from the list.
        driver.set_window_size(1200, 1100)
        driver.find_element(By.ID, "vw-tab-problems").click()
        search(driver, "illegal-move")
        entries = driver.find_elements(By.CSS_SELECTOR, "#vw-problems .problem")
        if entries:
            entries[0].click()
        driver.find_element(By.ID, "viewer").screenshot(shot)


def severities(*paths):
    """Every diagnostic of `validate --format json` as (file, game, ply, severity)."""
    text = arbiter("validate", "--format", "json", *paths)
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [(r["file"], str(r["game"]), "" if r.get("ply") is None else str(r["ply"]), r["severity"])
            for r in rows if "game" in r]


def listed_with_severity(driver):
    """Every problem entry of the list, page by page, with its data-severity."""
    seen = []
    driver.find_element(By.ID, "vw-tab-problems").click()
    while True:
        seen += [tuple(t) for t in driver.execute_script(
            "return Array.from(document.querySelectorAll('#vw-problems .problem')).map(function (e) {"
            " return [e.dataset.file, e.dataset.game, e.dataset.ply, e.dataset.severity]; });")]
        page = driver.find_element(By.ID, "vw-page").text
        if page.split("page ")[1].split(" of ") == [page.split(" of ")[-1]] * 2:
            return seen
        driver.find_element(By.ID, "vw-page-next").click()


def severity_button(driver, kind):
    return driver.find_element(By.CSS_SELECTOR, f'#vw-severity button[data-severity="{kind}"]')


def test_problems_are_counted_and_filtered_by_severity(driver, out):
    # Notes: games whose game is found from their moves (no tag names it).
    untagged = out / "untagged.pdn"
    untagged.write_text("1. 32-28 19-23 2. 28x19 14x23 *\n\n1. 32-28 18-23 *\n")
    inputs = [DEFECTS, untagged]
    page = out / "severity.html"
    arbiter("view", *inputs, "-o", page)
    want = severities(*inputs)
    counts = {k: sum(1 for r in want if r[3] == k) for k in ("error", "warning", "note")}
    assert all(counts.values()), counts
    open_page(driver, page)
    # The headline counts each kind and calls no note a problem.
    lead = driver.find_element(By.CSS_SELECTOR, "p.lead").text
    for kind, n in counts.items():
        assert f"{n} {kind}{'' if n == 1 else 's'}" in lead, lead
    assert f"{len(want)} problems" not in lead, lead
    driver.find_element(By.ID, "vw-tab-problems").click()
    for kind, n in counts.items():
        b = severity_button(driver, kind)
        assert b.text == f"{n} {kind}{'' if n == 1 else 's'}"
        assert b.get_attribute("aria-pressed") == "true"
    assert sorted(listed_with_severity(driver)) == sorted(want)
    # Errors first, then warnings, then notes.
    order = [r[3] for r in listed_with_severity(driver)]
    assert order == sorted(order, key=["error", "warning", "note"].index)
    # Notes hidden: only errors and warnings, each entry saying its severity.
    severity_button(driver, "note").click()
    assert severity_button(driver, "note").get_attribute("aria-pressed") == "false"
    assert sorted(listed_with_severity(driver)) == sorted(r for r in want if r[3] != "note")
    # Errors alone.
    severity_button(driver, "warning").click()
    assert sorted(listed_with_severity(driver)) == sorted(r for r in want if r[3] == "error")
    # The search still narrows what the toggles let through.
    search(driver, "untagged")
    assert listed_with_severity(driver) == []
    severity_button(driver, "note").click()
    assert sorted(listed_with_severity(driver)) == sorted(r for r in want if r[3] == "note")
    search(driver, "")
    severity_button(driver, "warning").click()
    assert sorted(listed_with_severity(driver)) == sorted(want)
    # The games table counts errors and warnings as problems; notes only in the cell's title.
    driver.find_element(By.ID, "vw-tab-games").click()
    checked = 0
    for query in ["", "untagged"]:
        search(driver, query)
        for row in driver.find_elements(By.CSS_SELECTOR, "#vw-games tbody tr"):
            file, game = row.get_attribute("data-file"), row.get_attribute("data-game")
            mine = [r[3] for r in want if (r[0], r[1]) == (file, game)]
            cell = row.find_elements(By.TAG_NAME, "td")[6]
            assert cell.text == str(sum(1 for k in mine if k != "note")), (file, game, mine)
            notes = mine.count("note")
            assert f"{notes} note{'' if notes == 1 else 's'}" in cell.get_attribute("title")
            checked += notes > 0
    assert checked, "a game with notes is in the table"
    search(driver, "")


FOUR_SEATS = [DEFECTS / "odnocvetnie" / "ambiguous-move.pdn", DEFECTS / "odnocvetnie" / "ambiguous-move-2.pdn"]


def seat_tags(path):
    """The South, West, North and East tags of the first game of `path`."""
    tags = {}
    for line in Path(path).read_text().splitlines():
        for seat in ("South", "West", "North", "East"):
            if line.startswith(f"[{seat} "):
                tags[seat] = line.split('"')[1]
    return tags


def test_every_seat_keeps_its_player_in_the_table_and_the_search(driver, out):
    page = out / "four.html"
    arbiter("view", *FOUR_SEATS, "-o", page)
    open_page(driver, page)
    driver.find_element(By.ID, "vw-tab-games").click()
    for path in FOUR_SEATS:
        tags = seat_tags(path)
        assert len(tags) == 4, tags
        row = [r for r in driver.find_elements(By.CSS_SELECTOR, "#vw-games tbody tr")
               if r.get_attribute("data-file") == str(path)][0]
        players = row.find_elements(By.TAG_NAME, "td")[2].text
        for seat, name in tags.items():
            assert f"{seat}: {name}" in players, players
        # Each seat's player finds the game, in the games table and in the problems.
        for name in tags.values():
            surname = name.split(",")[0]
            search(driver, surname)
            rows = driver.find_elements(By.CSS_SELECTOR, "#vw-games tbody tr")
            assert str(path) in [r.get_attribute("data-file") for r in rows], (surname, path)
        search(driver, tags["East"].split(",")[0])
        driver.find_element(By.ID, "vw-tab-problems").click()
        assert {e.get_attribute("data-file") for e in
                driver.find_elements(By.CSS_SELECTOR, "#vw-problems .problem")} >= {str(path)}
        driver.find_element(By.ID, "vw-tab-games").click()
        search(driver, "")
    # The title of the game opened names every seat's player too.
    driver.find_element(By.CSS_SELECTOR, "#vw-games tbody tr").click()
    title = driver.find_element(By.ID, "vw-title").text
    assert all(name in title for name in seat_tags(FOUR_SEATS[0]).values()) or \
        all(name in title for name in seat_tags(FOUR_SEATS[1]).values()), title


AMBIGUOUS = [DEFECTS / "tama" / "ambiguous-move.pdn", DEFECTS / "tama" / "ambiguous-move-2.pdn",
             DEFECTS / "odnocvetnie" / "ambiguous-move.pdn", DEFECTS / "odnocvetnie" / "ambiguous-move-2.pdn"]


def played_arrows(driver):
    """The solid arrows of the move played, as lists of points ([x, y] per square)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#board path[data-arrow=\"played\"]')).map(function (p) {"
        " return p.getAttribute('d').slice(1).split('L').map(function (q) { return q.split(' ').map(Number); }); });")


def ambiguous_arrows(driver, page):
    open_page(driver, page)
    driver.find_element(By.ID, "vw-tab-problems").click()
    search(driver, "ambiguous-move")
    entries = driver.find_elements(By.CSS_SELECTOR, '#vw-problems .problem[data-code="ambiguous-move"]')
    assert entries
    drawn = []
    for i in range(len(entries)):
        driver.find_elements(By.CSS_SELECTOR, '#vw-problems .problem[data-code="ambiguous-move"]')[i].click()
        drawn.append(played_arrows(driver))
    search(driver, "")
    return drawn


def test_an_ambiguous_move_is_drawn_along_each_path_it_fits(driver, out):
    page = out / "ambiguous.html"
    arbiter("view", *AMBIGUOUS, "-o", page)
    drawn = ambiguous_arrows(driver, page)
    assert len(drawn) == len(AMBIGUOUS)
    for arrows in drawn:
        # Two moves fit each of these plies: two polylines through the landing squares, from
        # one start to one end, not one straight line.
        assert len(arrows) == 2, arrows
        for points in arrows:
            assert len(points) >= 3, points
        assert arrows[0] != arrows[1]
        assert arrows[0][0] == arrows[1][0] and arrows[0][-1] == arrows[1][-1]
    assert "every move the notation fits" in driver.find_element(By.ID, "vw-message").text


def test_real_ambiguous_draughts_moves_are_drawn_along_each_path(driver, out):
    suite = REAL.parent / "pdn-suite" / "succeed" / "schildpad.pdn"
    if not suite.exists():
        pytest.skip(f"NOTICE: {suite} is absent: real ambiguous moves not checked")
    page = out / "schildpad.html"
    arbiter("view", suite, "-o", page)
    drawn = ambiguous_arrows(driver, page)
    for arrows in drawn:
        assert len(arrows) >= 2 and all(len(points) >= 3 for points in arrows), arrows


def test_file_names_in_the_games_table_never_wrap(driver, out):
    deep = out / "a-folder-with-a-rather-long-name" / "and-another-one-below-it"
    deep.mkdir(parents=True, exist_ok=True)
    long_name = deep / "international-draughts-championship-of-the-netherlands-2019-round-robin.pdn"
    long_name.write_text('[GameType "20"]\n[White "A"]\n[Black "B"]\n1. 32-28 19-23 *\n')
    page = out / "names.html"
    arbiter("view", long_name, *FOUR_SEATS, "-o", page)
    open_page(driver, page)
    driver.set_window_size(1000, 900)
    try:
        driver.find_element(By.ID, "vw-tab-games").click()
        cells = driver.execute_script(
            "return Array.from(document.querySelectorAll('#vw-games td.file')).map(function (td) {"
            " var r = document.createRange(); r.selectNodeContents(td);"
            " var tops = Array.from(r.getClientRects()).map(function (q) { return Math.round(q.top); });"
            " return [td.title, td.textContent, new Set(tops).size]; });")
        assert len(cells) == 3
        for title, text, lines in cells:
            assert lines == 1, (title, text, lines)
            assert Path(title).name == text, "the whole name is in the title"
    finally:
        driver.set_window_size(1400, 1000)


def assert_in_view(driver, ids):
    rects = driver.execute_script(
        "var out = {}; arguments[0].forEach(function (id) {"
        " var r = document.getElementById(id).getBoundingClientRect();"
        " out[id] = [r.left, r.top, r.right, r.bottom]; });"
        " return [out, window.innerWidth, window.innerHeight, window.scrollY];", ids)
    boxes, width, height, scrolled = rects
    assert scrolled == 0
    for name, (left, top, right, bottom) in boxes.items():
        assert right > left and bottom > top, (name, boxes[name])
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (name, boxes[name], width, height)


STEP_BUTTONS = ["vw-first", "vw-prev", "vw-next", "vw-last", "board"]


def test_board_and_step_buttons_fit_a_1400_by_900_window(driver, out):
    page = out / "fold.html"
    inputs = [DEFECTS]
    real = sorted((REAL / "international").glob("*.pdn"))[:3]
    arbiter("view", *inputs, *real, "-o", page)
    driver.set_window_size(1400, 900)
    try:
        open_page(driver, page)
        # The first game is open on load; then the first problem, the one with the longest
        # message, and games opened from the table (10x10 boards).
        assert_in_view(driver, STEP_BUTTONS)
        driver.find_element(By.ID, "vw-tab-problems").click()
        driver.find_element(By.CSS_SELECTOR, "#vw-problems .problem").click()
        assert_in_view(driver, STEP_BUTTONS)
        longest = driver.execute_script(
            "var l = Array.from(document.querySelectorAll('#vw-problems .problem'));"
            " l.sort(function (a, b) { return b.textContent.length - a.textContent.length; });"
            " return l[0].dataset.code;")
        driver.find_element(By.CSS_SELECTOR, f'#vw-problems .problem[data-code="{longest}"]').click()
        driver.execute_script("window.scrollTo(0, 0)")
        assert_in_view(driver, STEP_BUTTONS)
        driver.find_element(By.ID, "vw-tab-games").click()
        rows = len(driver.find_elements(By.CSS_SELECTOR, "#vw-games tbody tr"))
        for i in range(0, min(rows, 42), 7):
            # The table is drawn anew at each click.
            driver.find_elements(By.CSS_SELECTOR, "#vw-games tbody tr")[i].click()
            driver.execute_script("window.scrollTo(0, 0)")
            assert_in_view(driver, STEP_BUTTONS)
    finally:
        driver.set_window_size(1400, 1000)


def test_screenshot_of_the_real_archives_at_1400_by_900(driver, out):
    """The viewer of every real archive at 1400x900: the board and the step buttons in view.
    ARBITER_SCREENSHOT_1400 keeps the picture."""
    if not REAL.exists():
        pytest.skip(f"NOTICE: {REAL} is absent: real archives not checked")
    page = out / "real-all.html"
    arbiter("view", REAL, "-o", page)
    driver.set_window_size(1400, 900)
    try:
        open_page(driver, page)
        assert_in_view(driver, STEP_BUTTONS)
        lead = driver.find_element(By.CSS_SELECTOR, "p.lead").text
        assert "note" in lead and " problems" not in lead, lead
        shot = os.environ.get("ARBITER_SCREENSHOT_1400")
        if shot:
            driver.save_screenshot(shot)
    finally:
        driver.set_window_size(1400, 1000)
