"""A real headless Chromium (Debian's ``chromium`` and ``chromium-driver``) on a site served
from 127.0.0.1, for the browser test and the README's pictures of the site."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
DRIVER = "chromedriver"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
)


def missing() -> str | None:
    """Why the browser cannot run here (None: it can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if not any(shutil.which(name) for name in CHROMIUM) or not shutil.which(DRIVER):
        return "no chromium and chromium-driver (apt-get install chromium chromium-driver)"
    return None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return None


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """The site at ``http://127.0.0.1:<port>/`` while the block runs."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium(width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A Chromium driven by selenium, logging the console and the network."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = next(p for n in CHROMIUM if (p := shutil.which(n)))
    for flag in (*FLAGS, f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(shutil.which(DRIVER)))
    try:
        yield driver
    finally:
        driver.quit()
