"""Every reply links its workflow run; the job summary says who ran what, how it ended and
what it cost; `/rfd implement`'s progress comment follows the items and ends in the outcome."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from bot.core.errors import ProviderError
from tests.conftest import bodies_sent
from tests.github_world import NOW, RFD_PATH, RFD_TEXT, event_env, make_world
from tests.test_github_slash import accepted_world, comment, implement_comment, scripted_model

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
RUN = {"GITHUB_RUN_ID": "4242", "GITHUB_SERVER_URL": "https://github.com"}
RUN_URL = "https://github.com/Codertocat/Hello-World/actions/runs/4242"


def run(tmp_path: Path, checkout: Path, data: dict[str, object], step: float = 0.0) -> str:
    """``rfd bot`` on this world in workflow run 4242; the job summary it wrote."""
    from bot.github.router import main

    environ = event_env(tmp_path, "issue_comment", data) | RUN
    environ["GITHUB_STEP_SUMMARY"] = str(tmp_path / "summary.md")
    clock = itertools.count(NOW, step).__next__ if step else lambda: NOW
    assert main(environ, root=checkout, clock=clock) == 0
    return (tmp_path / "summary.md").read_text()


@pytest.mark.vcr
def test_a_reply_links_its_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripted_model(monkeypatch)
    _, checkout = accepted_world(tmp_path)
    summary = run(tmp_path, checkout, comment("/rfd help"))  # the cassette holds the link
    assert "| `/rfd help` | @Codertocat | ✅ done: " in summary


@pytest.mark.vcr
def test_a_refusal_links_its_run_and_the_summary_says_refused(tmp_path: Path) -> None:
    _, checkout = accepted_world(tmp_path)
    summary = run(tmp_path, checkout, implement_comment())  # no model key
    assert "| `/rfd implement` | @Codertocat | 😕 refused: `/rfd implement` needs" in summary
    assert "Model cost of this run: none" in summary


@pytest.mark.vcr
def test_implement_progress_ticks_and_fails_items_then_says_the_outcome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each stage is edited in (the clock moves 30 s a tick): research, plan, item 1 of 2,
    item 2 of 2 with item 1 ticked, the summary with item 2 failed, then the PR opened."""
    from tests.fakes import ScriptedLLM, item_done, reply, scripted_providers

    overloaded = ProviderError("the model is overloaded")
    plan = "- [ ] 1. Write the CSV writer\n- [ ] 2. Add the endpoint\n"
    script = [
        reply("Research."),
        reply(plan),
        item_done("done"),
        overloaded,
        overloaded,
        reply("Summary."),
    ]
    providers = scripted_providers(ScriptedLLM(script))
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", providers)
    _, checkout = accepted_world(tmp_path)
    summary = run(tmp_path, checkout, implement_comment(), step=30.0)
    assert "| `/rfd implement` | @Codertocat | ✅ done: Opened" in summary


@pytest.mark.vcr
def test_reconcile_marks_the_progress_of_a_dead_run_as_ended(tmp_path: Path, vcr: Any) -> None:
    """Issue #12 holds run 4100's progress, untouched for an hour, and GitHub says the run
    completed (cancelled): the comment is marked as ended, its checklist kept."""
    from tests.test_github_reconcile import accepted_unlinked, reconcile

    summary = reconcile(tmp_path, accepted_unlinked(tmp_path))
    assert "#12: progress comment of run 4100 marked as ended" in summary
    (sent,) = [text for text in bodies_sent(vcr) if "rfd-bot:implement:045-1" in text]
    assert "### ⚠️ Implementing RFD 045, phase 1: Writer — the run ended without finishing" in sent
    assert "- [ ] 2. Add the endpoint ← the run stopped here" in sent
    assert "⏳" not in sent and "rfd-bot:run:" not in sent


@pytest.mark.vcr
def test_reconcile_leaves_the_progress_of_a_queued_run_alone(tmp_path: Path, vcr: Any) -> None:
    """Run 4100's comment is an hour old, but GitHub says the run waits in its queue (the
    check job posted it, the work job has not started): nothing is edited."""
    from tests.test_github_reconcile import accepted_unlinked, reconcile

    summary = reconcile(tmp_path, accepted_unlinked(tmp_path))
    assert "#12: progress comment of run 4100 left as is: GitHub says the run is queued" in summary
    assert not [text for text in bodies_sent(vcr) if "rfd-bot:implement:" in text]


@pytest.mark.vcr
def test_reconcile_ends_the_progress_of_a_run_github_no_longer_knows(
    tmp_path: Path, vcr: Any
) -> None:
    """GitHub answers 404 for run 4100 (deleted): its comment is marked as ended."""
    from tests.test_github_reconcile import accepted_unlinked, reconcile

    summary = reconcile(tmp_path, accepted_unlinked(tmp_path))
    assert "#12: progress comment of run 4100 marked as ended" in summary
    (sent,) = [text for text in bodies_sent(vcr) if "rfd-bot:implement:045-1" in text]
    assert "— the run ended without finishing" in sent and "⏳" not in sent


@pytest.mark.vcr
def test_implement_on_the_open_accepting_pr_says_merge_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Accepted on the PR branch, not yet on main: the reply names the way on (cassette)."""
    scripted_model(monkeypatch)
    accepted = {RFD_PATH: RFD_TEXT.replace("Discussion", "Accepted")}
    _, checkout = make_world(tmp_path, {"README.md": "hello\n"}, accepted)
    summary = run(tmp_path, checkout, comment("/rfd implement"))
    assert "merge this pull request first, then comment `/rfd implement` on its tracking" in (
        summary
    )


@pytest.mark.vcr
def test_implement_with_every_phase_done_names_the_next_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted_model(monkeypatch)
    _, checkout = accepted_world(tmp_path)
    for label in ("1", "2"):
        (checkout / f"docs/rfd/.state/045/phases/{label}.md").parent.mkdir(exist_ok=True)
        (checkout / f"docs/rfd/.state/045/phases/{label}.md").write_text("Done.\n")
    summary = run(tmp_path, checkout, implement_comment())
    done = "nothing is left to implement. **Next step:** comment `/rfd done` on the tracking issue"
    assert done in summary
