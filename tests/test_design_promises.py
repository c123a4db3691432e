"""What the design documents promise, run as a user runs it (model scripted, no network)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from bot.config.load import load_config
from bot.state import StateStore
from tests.conftest import rfd_text, write_rfd
from tests.fakes import ScriptedLLM, item_done, reply, scripted_providers


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> list[ScriptedLLM]:
    """Every workspace the CLI opens talks to the next scripted model."""
    from bot.llm.select import Providers

    models: list[ScriptedLLM] = []

    def next_model(cfg: Any, environ: Mapping[str, str]) -> Providers:
        return scripted_providers(models.pop(0))(cfg, environ) if models else Providers(cfg, {})

    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", next_model)
    return models


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


def sent(llm: ScriptedLLM) -> str:
    """Everything the model was sent, as one text."""
    return json.dumps([repr(r) for r in llm.requests])


def test_refine_on_an_accepted_rfd_changes_the_code_its_impl_reviews_ask_for(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    rfd = write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    store = StateStore(git_repo, load_config(git_repo))
    store.save_review("001", "# Design\n\nThe summary is vague.\n", now=1)
    store.save_review("001", "# Impl\n\nworker.py never retries.\n", impl=True, now=2)
    (git_repo / "worker.py").write_text("def work():\n    send()\n")
    capsys.readouterr()
    assert run(git_repo, "status", "1") == 0
    assert "rfd refine 001" in capsys.readouterr().out  # status offers it

    accepted = rfd.read_text()
    fixed = "def work():\n    for _ in range(3):\n        send()\n"
    edit = ("write_file", {"path": "worker.py", "content": fixed})
    llm = ScriptedLLM([reply("", edit), item_done("Added a retry loop to worker.py.")])
    scripted.append(llm)
    assert run(git_repo, "refine", "1", "--yes") == 0
    out = capsys.readouterr().out
    assert (git_repo / "worker.py").read_text() == fixed
    assert rfd.read_text() == accepted  # the settled design is left alone
    assert "pass 1 (implementation): worker.py" in out
    assert "Added a retry loop" in out
    assert "`rfd dismiss 1 <n…|all> --impl`" in out
    assert "worker.py never retries" in sent(llm)
    assert "The summary is vague" not in sent(llm)  # design reviews do not drive it
    ledger = (git_repo / "docs/rfd/.state/001/usage.jsonl").read_text().splitlines()
    assert [json.loads(line)["step"] for line in ledger] == ["refine", "refine"]


def test_refine_on_an_accepted_rfd_without_impl_reviews_says_what_to_do(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    scripted.append(ScriptedLLM([]))
    assert run(git_repo, "refine", "1", "--yes") == 1
    err = capsys.readouterr().err
    assert "no active implementation review" in err
    assert "rfd review 001" in err


def test_a_checklist_made_for_an_older_phase_is_made_again(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.core.errors import ProviderError

    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    boom = ProviderError("model unavailable")
    old_plan = "- [ ] 1. Create the table\n"
    scripted.append(ScriptedLLM([reply("Research."), reply(old_plan), boom, boom, reply("Sum.")]))
    assert run(git_repo, "implement", "1", "--yes") == 1
    items = git_repo / "docs/rfd/.state/001/implement/1/items.md"
    assert "Create the table" in items.read_text()

    plan_file = git_repo / "docs/rfd/.state/001/plan.json"
    plan = json.loads(plan_file.read_text())
    plan[0]["title"], plan[0]["description"] = "Queue", "Use a message queue instead."
    plan_file.write_text(json.dumps(plan))
    new_plan = "- [ ] 1. Declare the queue\n"
    llm = ScriptedLLM([reply("New research."), reply(new_plan), item_done("done"), reply("Q.")])
    scripted.append(llm)
    capsys.readouterr()
    assert run(git_repo, "implement", "1", "--yes") == 0
    out = capsys.readouterr().out
    assert "phase 1 changed in plan.json" in out
    assert "- [x] 1. Declare the queue" in items.read_text()
    assert "Create the table" not in items.read_text()
    assert "Use a message queue instead." in sent(llm)


def test_explore_run_again_never_replaces_the_research_with_a_chat_line(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", status="Draft"))
    research = "# Research\n\nThree queues compared.\n"
    summary = ("rfd_explore_summary", {"content": research})
    for _ in range(2):  # the second run writes the very same summary
        scripted.append(ScriptedLLM([reply("", summary), reply("Summary written.")]))
        assert run(git_repo, "explore", "1", "--yes") == 0
        assert "saved explore.md" in capsys.readouterr().out
    assert (git_repo / "docs/rfd/.state/001/explore.md").read_text() == research


def test_new_with_on_exists_replace_starts_with_fresh_state(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(git_repo, "new", "design", "Retry queue") == 0
    draft = next((git_repo / "docs/rfd").rglob("*retry-queue.md"))
    rid = draft.name.split("-", 1)[0]
    store = StateStore(git_repo, load_config(git_repo))
    store.write_explore(rid, "# Old research\n")
    store.decide(rid, "add", text="Use Redis")
    capsys.readouterr()
    assert run(git_repo, "status", rid) == 0
    before = " ".join(capsys.readouterr().out.split())
    assert "Explore: complete" in before and "Decisions: none yet" not in before

    assert run(git_repo, "new", "design", "Retry queue", "--on-exists", "replace") == 0
    assert "is gone" in capsys.readouterr().out
    assert store.read_decisions(rid) is None
    assert store.read_explore(rid) is None
    assert run(git_repo, "status", rid) == 0
    after = " ".join(capsys.readouterr().out.split())
    assert "Explore: complete" not in after and "Decisions: none yet" in after


def _review_reply() -> ScriptedLLM:
    args = {"summary": "Fine.", "findings": [], "questions": []}
    return ScriptedLLM([reply("", ("submit_review", args))])


def test_the_users_prompt_wins_and_a_broken_one_falls_back_with_a_warning(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    layout = '{% extends "default/review.md.j2" %}{% block task %}WHO{% endblock %}'
    repo_prompt = git_repo / ".rfd/prompts/review.md.j2"
    repo_prompt.parent.mkdir(parents=True)
    repo_prompt.write_text(layout.replace("WHO", "Review as the repository asks."))
    user_prompt = Path(os.environ["XDG_CONFIG_HOME"]) / "rfd/prompts/review.md.j2"
    user_prompt.parent.mkdir(parents=True)
    user_prompt.write_text(layout.replace("WHO", "Review as I like it."))
    scripted.append(llm := _review_reply())
    assert run(git_repo, "review", "1") == 0
    assert "Review as I like it." in sent(llm) and "as the repository asks" not in sent(llm)

    user_prompt.write_text("{% block task %}{{ broken(}}{% endblock %}\n")
    scripted.append(llm := _review_reply())
    capsys.readouterr()
    assert run(git_repo, "review", "1") == 0
    err = capsys.readouterr()
    assert f"{user_prompt}:1: broken prompt template" in err.out + err.err
    assert "using the built-in review prompt instead" in err.out + err.err
    assert "Review as I like it." not in sent(llm)
    assert len(list((git_repo / "docs/rfd/.state/001/reviews").glob("*.md"))) == 2


def test_refine_asks_for_a_low_temperature(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    notes = {"sections": [], "notes": "CONVERGED"}
    scripted.append(llm := ScriptedLLM([reply("", ("submit_revision", notes))]))
    assert run(git_repo, "refine", "1", "--yes") == 0
    assert [r.temperature for r in llm.requests] == [0.2]


def test_a_long_title_makes_a_slug_of_at_most_50_characters(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    title = "Replace the webhook retry queue with a transactional outbox and a poller"
    assert run(git_repo, "new", "design", title) == 0
    (made,) = (git_repo / "docs/rfd").rglob("*.md")
    slug = made.stem.split("-", 1)[1]
    assert slug == "replace-the-webhook-retry-queue-with-a"
    assert len(slug) <= 50


def test_a_phase_whose_plan_has_no_items_is_recorded_as_nothing_to_do(
    git_repo: Path, scripted: list[ScriptedLLM], capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert run(git_repo, "accept", "1") == 0
    scripted.append(ScriptedLLM([reply("Research."), reply("The table exists already.")]))
    assert run(git_repo, "implement", "1", "--yes") == 0
    out = capsys.readouterr().out
    assert "phase 1 has nothing to do" in out
    assert "phase 1 (Schema) done — 1/2 phases" in out
    summary = (git_repo / "docs/rfd/.state/001/phases/1.md").read_text()
    assert "nothing to do" in summary and "> The table exists already." in summary
