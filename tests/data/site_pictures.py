"""The README's pictures of the RFD site, taken by the real headless Chromium the browser
test drives, from the site of the realistic corpus (:mod:`tests.site_repo`):

    .venv/bin/python tests/data/site_pictures.py

writes ``.github/images/site-board.png``, ``site-rfd.png`` (dark) and ``site-graph.png``.
Run it again after a change to the site's templates or style and commit the PNGs.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.site.build import build_site  # noqa: E402
from tests.site_browser import chromium, serve  # noqa: E402
from tests.site_repo import build_site_repo  # noqa: E402

IMAGES = ROOT / ".github" / "images"
SHOTS = (
    ("site-board", "index.html", "light", 1200, 860),
    ("site-rfd", "rfd/032.html", "dark", 1200, 1000),
    ("site-graph", "graph.html", "light", 1200, 760),
)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = build_site_repo(Path(tmp) / "jp")
        out = Path(tmp) / "site"
        build_site(repo, out, repository="acme-labs/jp", title="acme-labs/jp · RFDs")
        with serve(out) as base, chromium() as driver:
            for name, page, theme, width, height in SHOTS:
                driver.set_window_size(width, height)
                driver.get(base + page)
                driver.execute_script(f"localStorage.setItem('rfd-theme', '{theme}')")
                driver.get(base + page)
                time.sleep(1)
                driver.save_screenshot(str(IMAGES / f"{name}.png"))
                print(IMAGES / f"{name}.png")


if __name__ == "__main__":
    main()
