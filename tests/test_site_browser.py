"""The site in a real browser: a headless Chromium opens the board, filters it, searches and
follows links; nothing is logged to the console and no request leaves the site."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.site.build import build_site
from bot.site.search import executable
from tests.site_browser import chromium, missing, serve
from tests.site_repo import RARE_SECTION, RARE_WORD, build_site_repo

pytestmark = [
    pytest.mark.block_network(allowed_hosts=[r"127\.0\.0\.1", "localhost"]),
    pytest.mark.skipif(missing() is not None, reason=str(missing())),
    pytest.mark.skipif(executable() is None, reason="Pagefind is not installed"),
]
WAIT = 15


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = build_site_repo(tmp_path_factory.mktemp("browser") / "jp")
    out = repo.parent / "out"
    build_site(repo, out, repository="acme-labs/jp")
    return out


@pytest.fixture(scope="module")
def browser(site: Path) -> Iterator[tuple[Any, str]]:
    with serve(site) as base, chromium() as driver:
        yield driver, base


def wait(driver: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(condition)


def requests(driver: Any) -> list[str]:
    sent = (json.loads(e["message"])["message"] for e in driver.get_log("performance"))
    wanted = "Network.requestWillBeSent"
    return [m["params"]["request"]["url"] for m in sent if m["method"] == wanted]


def test_board_filter_search_and_links(browser: tuple[Any, str], site: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver, base = browser
    rfds = json.loads((site / "rfds.json").read_text(encoding="utf-8"))["rfds"]
    driver.get(base + "index.html")
    wait(driver, lambda d: d.find_element(By.ID, "shown").text.startswith(f"{len(rfds)} RFDs"))

    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)  # the first stop: skip link
    assert driver.switch_to.active_element.text == "Skip to content"

    Select(driver.find_element(By.NAME, "status")).select_by_visible_text("Abandoned")
    abandoned = sorted(r["id"] for r in rfds if r["status"] == "Abandoned")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rows tr")) == len(abandoned))
    shown = [
        row.find_element(By.CSS_SELECTOR, "td").text
        for row in driver.find_elements(By.CSS_SELECTOR, "#rows tr")
    ]
    assert sorted(shown) == abandoned and "D23" in shown
    assert "status=Abandoned" in driver.current_url

    box = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".pagefind-ui__search-input"))
    box.send_keys(RARE_WORD)
    wanted = f"rfd/032.html#{RARE_SECTION}"
    link = wait(
        driver,
        lambda d: next(
            (
                a
                for a in d.find_elements(By.CSS_SELECTOR, ".pagefind-ui__result-link")
                if a.get_attribute("href").endswith(wanted)
            ),
            False,
        ),
    )
    link.click()
    wait(driver, lambda d: d.current_url.endswith(wanted))
    assert driver.find_element(By.ID, RARE_SECTION).text == "Backpressure"

    driver.find_element(By.CSS_SELECTOR, 'aside a[href="010.html"]').click()
    wait(driver, lambda d: d.title.startswith("RFD 010: Streaming Markdown Renderer"))

    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    elsewhere = [u for u in requests(driver) if not u.startswith((base, "data:", "blob:"))]
    assert elsewhere == []


def test_a_phone_sees_one_column(browser: tuple[Any, str]) -> None:
    from selenium.webdriver.common.by import By

    driver, base = browser
    driver.set_window_size(390, 844)
    try:
        driver.get(base + "rfd/032.html")
        article = driver.find_element(By.TAG_NAME, "article").rect
        aside = driver.find_element(By.TAG_NAME, "aside").rect
        assert aside["y"] > article["y"] + article["height"] - 1  # below, not beside
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390  # nothing wider than the screen
    finally:
        driver.set_window_size(1280, 900)
