"""Size and load time of a report or viewer page in headless Chromium (docs/performance.md).

    python3 crates/report/tests/browser/measure_page.py report/report.html [runs]

Prints the page's size, then per run the time from navigation start to the end of the load
event, to the DOM being ready, and to the viewer's data being read and its list drawn
(`#viewer[data-ready-ms]`), and the time to open a problem. Each run uses a fresh browser profile (no cache).
"""

import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1400,1000", f"--user-data-dir={tempfile.mkdtemp()}"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main():
    page = Path(sys.argv[1]).resolve()
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(f"{page}: {page.stat().st_size / 1e6:.2f} MB")
    for _ in range(runs):
        d = browser()
        d.get(page.as_uri())
        WebDriverWait(d, 60).until(
            lambda d: d.find_element(By.ID, "viewer").get_attribute("data-ready") == "yes")
        t = d.execute_script(
            "var t = performance.timing; return [t.loadEventEnd - t.navigationStart,"
            " t.domContentLoadedEventEnd - t.navigationStart];")
        ready = d.find_element(By.ID, "viewer").get_attribute("data-ready-ms") + " ms"
        start = time.perf_counter()
        entries = d.find_elements(By.CSS_SELECTOR, "#vw-problems .problem")
        if entries:
            entries[-1].click()
        click = (time.perf_counter() - start) * 1000
        print(f"load {t[0]} ms, DOM ready {t[1]} ms, viewer ready: {ready}, "
              f"open a problem (incl. WebDriver round trips) {click:.0f} ms")
        d.quit()


if __name__ == "__main__":
    main()
