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
    FRONT_PATH,
    FRONT_TEXT,
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
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
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


@pytest.mark.vcr
def test_a_pr_changing_only_a_diagram_is_a_pr_on_its_rfd(tmp_path: Path, vcr: Any) -> None:
    """The diagram belongs to RFD 0015: the status comment shows that RFD, as on main."""
    _, checkout = oxide(tmp_path, {"rfd/0015/console.svg": "<svg><path/></svg>\n"})
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    (status,) = bodies_sent(vcr)
    assert lines(status)[:2] == [
        f"### [RFD 0015: Console access]({WEB}/blob/{HEAD}/{OXIDE_PATH}) — discussion",
        "✓ prediscussion → **discussion** → published → committed",
    ]


@pytest.mark.vcr
def test_a_front_matter_directory_pr_gets_its_status_comment(tmp_path: Path, vcr: Any) -> None:
    _, checkout = make_world(tmp_path, {"README.md": "x\n"}, {FRONT_PATH: FRONT_TEXT})
    assert run_bot(tmp_path, checkout, "pull_request", payload("pull_request.opened")) == 0
    (status,) = bodies_sent(vcr)
    assert lines(status)[:2] == [
        f"### [RFD 0042: Customer API versioning]({WEB}/blob/{HEAD}/{FRONT_PATH}) — discussion",
        "✓ prediscussion → **discussion** → published → committed",
    ]
    assert lines(status)[2].startswith("**Next step:** label `rfd:review` or comment `/rfd review`")
