"""A directory per RFD on GitHub (Oxide's ``rfd/0015/README.adoc``, front matter in
``docs/rfd/0042/README.md``): a pull request that changes the directory's document, or only
another file in it (a diagram), is a pull request on that RFD — the review, the status
comment and ``/rfd accept`` work on it as on a flat ``045-slug.md``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import bodies_sent, git, lines
from tests.github_world import (
    BRANCH,
    OXIDE_MAIN,
    OXIDE_PATH,
    OXIDE_TEXT,
    make_world,
    payload,
    run_bot,
)

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")

LABELED = "pull_request.labeled.review"
WEB = "https://github.com/Codertocat/Hello-World"
REVIEWED = "rfd/.state/0015/reviews/1795831200.md"


def oxide(tmp_path: Path, pr: dict[str, str] | None = None) -> tuple[Path, Path]:
    return make_world(tmp_path, OXIDE_MAIN, {OXIDE_PATH: OXIDE_TEXT} if pr is None else pr)


@pytest.mark.vcr
def test_review_label_on_an_oxide_rfd_reviews_and_saves_it(tmp_path: Path, vcr: Any) -> None:
    origin, checkout = oxide(tmp_path)
    assert run_bot(tmp_path, checkout, "pull_request_target", payload(LABELED)) == 0
    log = git(origin, "log", "--format=%s", f"main..{BRANCH}").splitlines()
    assert log == ["RFD 0015: review by rfd-bot", "pr"]
    assert git(origin, "show", f"{BRANCH}:{REVIEWED}").startswith("# Review of RFD 0015")
    review, status = bodies_sent(vcr)
    assert lines(review)[:2] == [
        "### 🔍 Review 1 of RFD 0015 — no findings",
        "**Nothing to fix** as far as this review sees.",
    ]
    assert f"saved as `{REVIEWED}`" in review
    head = git(origin, "rev-parse", BRANCH).strip()
    assert lines(status)[:2] == [
        f"### [RFD 0015: Console access]({WEB}/blob/{head}/{OXIDE_PATH}) — discussion",
        "✓ prediscussion → **discussion** → published → committed",
    ]
    assert "`/rfd dismiss all` once read; accept with `/rfd accept`" in status
