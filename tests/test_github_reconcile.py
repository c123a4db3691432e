"""workflow_dispatch / schedule → drift repaired and reported; a second run writes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.model.plan import PlanPhase, dumps
from tests.conftest import bodies_sent, lines
from tests.github_world import (
    CONFIG,
    RFD_PATH,
    RFD_TEXT,
    make_world,
    payload,
    run_bot,
)

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")


def reconcile(tmp_path: Path, checkout: Path) -> str:
    assert run_bot(tmp_path, checkout, "workflow_dispatch", payload("workflow_dispatch")) == 0
    return (tmp_path / "summary.md").read_text()


@pytest.fixture
def open_prs(tmp_path: Path) -> Path:
    """A PR branch adding RFD 045; the cassettes list it as open PRs #2 and #3."""
    return make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})[1]


def accepted_unlinked(tmp_path: Path) -> Path:
    """The default branch holds RFD 045, Accepted with a plan, its header without a link."""
    plan = dumps(
        (
            PlanPhase("Writer", "A streaming CSV writer."),
            PlanPhase("Endpoint", "The HTTP endpoint that uses it."),
        )
    )
    files = {
        RFD_PATH: RFD_TEXT.replace("Discussion", "Accepted"),
        "docs/rfd/.state/045/plan.json": plan,
    }
    return make_world(tmp_path, files, {})[1]


WEB = "https://github.com/Codertocat/Hello-World"
LINK = f"`- **Tracking Issue**: [#12]({WEB}/issues/12)`"
HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"  # the PRs' head in the cassettes


@pytest.mark.vcr
def test_missing_tracking_issue_is_created(tmp_path: Path, vcr: Any) -> None:
    summary = reconcile(tmp_path, accepted_unlinked(tmp_path))
    assert "RFD 045: tracking issue #12 created" in summary
    assert "reconcile: 1 write" in summary
    # the job may not commit to the default branch: it says which line to add, and where
    assert f"`{RFD_PATH}:1`: RFD 045's header does not link its tracking issue #12" in summary
    assert f"add the line {LINK}" in summary
    (opened,) = [json.loads(r.body) for r in vcr.requests if r.method == "POST"]
    assert opened["title"] == "RFD 045: Streaming exports"
    (tracking,) = bodies_sent(vcr)
    shown = lines(tracking)
    assert f"Tracking issue for [RFD 045: Streaming exports]({WEB}/blob/main/{RFD_PATH})." in shown
    assert "**Progress:** 0/2 phases ░░░░░░░░░░░░░░░░░░░░ 0%" in shown
    assert shown[-2:] == ["- [ ] 1. Writer", "- [ ] 2. Endpoint"]


@pytest.mark.vcr
def test_an_unlinked_header_is_reported_again_without_a_write(tmp_path: Path, vcr: Any) -> None:
    summary = reconcile(tmp_path, accepted_unlinked(tmp_path))
    assert "RFD 045: tracking issue #12 in sync" in summary
    assert "does not link its tracking issue #12" in summary
    assert "reconcile: nothing to repair, 0 writes" in summary
    assert bodies_sent(vcr) == []  # said in the job summary only, never on the issue


@pytest.mark.vcr
def test_stale_label_removed_and_status_comments_rebuilt(
    tmp_path: Path, open_prs: Path, vcr: Any
) -> None:
    # the cassette holds the writes: DELETE the label on #2, POST #2's missing status
    # comment, PATCH #3's status comment (of an older revision) in place, and each PR's
    # lifecycle label
    summary = reconcile(tmp_path, open_prs)
    assert "#2: removed `rfd:review` (its run ended without removing it)" in summary
    assert "status comment posted on #2" in summary
    assert "status comment updated on #3" in summary
    assert "#2 labelled rfd: discussion" in summary and "#3 labelled rfd: discussion" in summary
    assert "reconcile: 5 writes" in summary
    posted, updated = bodies_sent(vcr)  # #2's new status comment, then #3's brought up to date
    heading = f"### [RFD 045: Streaming exports]({WEB}/blob/{HEAD}/{RFD_PATH}) — Discussion"
    footer = (
        f"<sub>Updated for [`{HEAD[:12]}`]({WEB}/commit/{HEAD})"
        " · rfd-bot keeps this comment current</sub>"
    )
    for status in (posted, updated):
        shown = lines(status)
        assert shown[0] == heading
        assert shown[1] == "✓ Draft → **Discussion** → Accepted → Implemented"
        assert shown[2].startswith("**Next step:** label `rfd:review` or comment `/rfd review`")
        assert shown[-1] == footer  # #3's was of an older revision


@pytest.mark.vcr
def test_second_run_changes_nothing(tmp_path: Path, open_prs: Path, vcr: Any) -> None:
    # the state the first run left: no label, both status comments current
    summary = reconcile(tmp_path, open_prs)
    assert "reconcile: nothing to repair, 0 writes" in summary
    assert "status comment unchanged on #2" in summary
    assert "status comment unchanged on #3" in summary
    assert bodies_sent(vcr) == []


@pytest.mark.vcr
def test_a_label_applied_minutes_ago_is_left_alone(
    tmp_path: Path, open_prs: Path, vcr: Any
) -> None:
    # its run may still be queued or running: only labels older than the job's timeout go
    summary = reconcile(tmp_path, open_prs)
    assert "removed" not in summary
    assert "0 writes" in summary
    assert bodies_sent(vcr) == []


RENAMED = CONFIG + '\n[labels]\nreview = "rfd: please review"\n'


@pytest.mark.vcr
def test_a_renamed_trigger_label_is_created_and_the_old_one_reported(
    tmp_path: Path, vcr: Any
) -> None:
    """[labels] review renamed, the old rfd:review still on the repository: the new label is
    made (applying it triggers a review) and the old one named, since it triggers nothing."""
    checkout = make_world(tmp_path, {".github/rfd.toml": RENAMED}, {})[1]
    summary = " ".join(reconcile(tmp_path, checkout).split())
    assert "created label rfd: please review on Codertocat/Hello-World" in summary
    assert "⚠️ label rfd:review is still on Codertocat/Hello-World" in summary
    assert "applying rfd:review no longer triggers anything" in summary
    assert "reconcile: 1 write" in summary
    (made,) = [json.loads(r.body) for r in vcr.requests if r.method == "POST"]
    # what people see in the label picker
    assert made["name"] == "rfd: please review"
    assert made["description"] == "rfd-bot: review the RFDs this pull request changes"


@pytest.mark.vcr
def test_a_renamed_label_once_created_costs_one_read(tmp_path: Path, vcr: Any) -> None:
    checkout = make_world(tmp_path, {".github/rfd.toml": RENAMED}, {})[1]
    summary = reconcile(tmp_path, checkout)
    assert "rfd:review" not in summary
    assert "reconcile: nothing to repair, 0 writes" in summary
    assert bodies_sent(vcr) == []
