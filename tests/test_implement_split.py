"""``/rfd implement`` as the shipped workflow runs it: two jobs.

The work job talks to the (hostile, scripted) model and runs its commands; it holds a token
that cannot push and leaves an artifact.  The publish job holds the write token and no model
key, checks the artifact again, pushes, opens the PR and posts.  Both replay one cassette
(built by tests/data/cassettes/scenarios_phase_prs.py from the one-job hostile run).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import pytest

from bot.agent.implementation.work_copy import bounds_for
from bot.config.load import load
from bot.github.implement.artifact import BUNDLE, MANIFEST
from tests.conftest import bodies_sent, git, lines
from tests.fakes import scripted_providers
from tests.github_world import RFD_PATH, run_bot
from tests.hostile import SECRETS, leaked, plant
from tests.test_implement_hostile import (
    ACCEPTED_RFD,
    DISCARDED,
    WORKFLOW,
    _sha_masked,
    accepted_world,
    hostile_model,
    implement_comment,
    isolating,
    sent_bodies,
)

CASSETTE = "test_the_work_job_hands_over_and_the_publish_job_pushes.yaml"
BRANCH = "rfd/045-phase-1"
MODEL_SDKS = ("anthropic", "openai", "httpx2", "bot.llm.anthropic", "bot.llm.openai")
PHASE_COMMENT = "<!-- rfd-bot:implement:045-1 -->\n"


@pytest.fixture(scope="module")
def vcr_config(vcr_config: dict[str, Any]) -> dict[str, Any]:
    """The publish job's reply names the commit it pushed, whose sha differs each run: the
    marker is compared without it."""
    return {**vcr_config, "before_record_request": _sha_masked}


def no_model(*_: object, **__: object) -> NoReturn:
    raise AssertionError("the publish job built a model provider")


@isolating
@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_the_work_job_hands_over_and_the_publish_job_pushes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    origin, checkout = accepted_world(tmp_path)
    plant(monkeypatch, Path.home(), checkout)
    llm = hostile_model("The writer streams rows.")
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    artifact, outputs = tmp_path / "artifact", tmp_path / "outputs"
    work = {
        "RFD_BOT_STAGE": "work",
        "RFD_BOT_ARTIFACT": str(artifact),
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_TOKEN": SECRETS["GITHUB_TOKEN"],
    }
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment(), **work) == 0

    assert "handed=true" in outputs.read_text(encoding="utf-8")
    assert BRANCH not in git(tmp_path, "ls-remote", "--heads", str(origin))  # nothing pushed
    manifest = json.loads((artifact / MANIFEST).read_text(encoding="utf-8"))
    base = git(checkout, "rev-parse", "HEAD").strip()
    assert (manifest["rid"], manifest["label"], manifest["base"]) == ("045", "1", base)
    assert DISCARDED in manifest["reply"] and DISCARDED in manifest["pr_body"]
    changed, blobs = unbundled(tmp_path / "unpacked", origin, artifact / BUNDLE, base)
    assert {"conftest.py", "leak.txt", "docs/rfd/.state/045/phases/1.md"} <= changed
    assert WORKFLOW not in changed and RFD_PATH not in changed
    allowed = bounds_for(load(checkout).config)
    own = ("docs/rfd/.state/045/phases/1.md", "docs/rfd/.state/045/usage.jsonl")
    assert [
        p
        for p in changed
        if allowed.refusal(p)
        and p not in own
        and not p.startswith("docs/rfd/.state/045/implement/1/")
    ] == []
    assert leaked(blobs + json.dumps(manifest)) == []  # the artifact holds no secret

    for name in SECRETS:  # the publish job holds the write token, no model key
        if name != "GITHUB_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", no_model)
    publisher = tmp_path / "publish"
    git(tmp_path, "clone", "-q", "--branch", "main", str(origin), str(publisher))
    publish = {
        "RFD_BOT_STAGE": "publish",
        "RFD_BOT_ARTIFACT": str(artifact),
        "GITHUB_TOKEN": SECRETS["GITHUB_TOKEN"],
    }
    assert run_bot(tmp_path, publisher, "issue_comment", implement_comment(), **publish) == 0

    pushed = tmp_path / "pushed"
    git(tmp_path, "clone", "-q", "--branch", BRANCH, str(origin), str(pushed))
    assert not (pushed / WORKFLOW).exists()
    assert (pushed / RFD_PATH).read_text(encoding="utf-8") == ACCEPTED_RFD
    assert (pushed / "docs/rfd/.state/045/phases/1.md").read_text() == "The writer streams rows.\n"
    assert git(pushed, "rev-parse", "HEAD^").strip() == base
    assert git(pushed, "log", "-1", "--format=%an").strip() == "rfd-bot"  # its own commit

    # The phase comment ends as the one-job run ends it: time, tokens, branch and checklist.
    shown = [text for text in bodies_sent(vcr) if text.startswith(PHASE_COMMENT)]
    one_job = [
        t for b in sent_bodies() if (t := json.loads(b).get("body", "")).startswith(PHASE_COMMENT)
    ]
    assert shown[-1] == one_job[-1]
    assert lines(shown[-1]) == [
        "### ✅ RFD 045, phase 1: Writer — pull request "
        "[#3](https://github.com/Codertocat/Hello-World/pull/3) opened",
        "Finished in 0 s · 75 tokens · branch `rfd/045-phase-1`.",
        "- [x] 1. Write the CSV writer",
    ]


def unbundled(dest: Path, origin: Path, bundle: Path, base: str) -> tuple[set[str], str]:
    """The paths the bundle's commit changes on ``base``, and all their contents."""
    git(dest.parent, "clone", "-q", str(origin), str(dest))
    git(dest, "fetch", "-q", str(bundle), "HEAD:refs/phase")
    names = git(dest, "diff", "--name-only", base, "refs/phase").split()
    blobs = [git(dest, "show", f"refs/phase:{name}") for name in names]
    return set(names), "\n".join(blobs)


def test_the_publish_job_imports_no_model_sdk() -> None:
    """What the publish job runs (the router and its handler) pulls in no provider's SDK."""
    code = (
        "import sys, bot.github.router, bot.github.implement.publish\n"
        f"print([m for m in sys.modules if m.split('.')[0] in {MODEL_SDKS[:3]!r} "
        f"or m in {MODEL_SDKS[3:]!r}])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def handed_by_a_work_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plant: Callable[[Path], None]
) -> tuple[Path, Path, dict[str, str]]:
    """A phase commit made by ``plant`` in the checkout, handed over as a work job would (bundle
    and manifest); the origin, the publish job's clone of main and its environment."""
    from bot.github.implement.artifact import Handed, write_bundle, write_manifest

    origin, checkout = accepted_world(tmp_path)
    base = git(checkout, "rev-parse", "HEAD").strip()
    plant(checkout)
    git(checkout, "add", "-A")
    git(checkout, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "phase")
    artifact = tmp_path / "artifact"
    write_bundle(artifact, checkout, base)
    body = "<!-- rfd-bot:implement:045-1 -->\nPhase 1."
    write_manifest(artifact, Handed("045", "1", base, False, body, "Opened %PULL_URL%."))
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", no_model)
    publisher = tmp_path / "publish"
    git(tmp_path, "clone", "-q", "--branch", "main", str(origin), str(publisher))
    publish = {
        "RFD_BOT_STAGE": "publish",
        "RFD_BOT_ARTIFACT": str(artifact),
        "GITHUB_TOKEN": SECRETS["GITHUB_TOKEN"],
    }
    return origin, publisher, publish


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_the_publish_job_refuses_a_tampered_phase_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A work job taken over hands a phase with a workflow, a link to the environment and the
    token in a file: nothing is pushed, the reply lists each reason, 😕 on the command."""

    def tampered(checkout: Path) -> None:
        (checkout / ".github/workflows").mkdir()
        (checkout / WORKFLOW).write_text("on: push\n", encoding="utf-8")
        (checkout / "env.txt").symlink_to("/proc/self/environ")
        (checkout / "token.txt").write_text(SECRETS["GITHUB_TOKEN"], encoding="utf-8")

    origin, publisher, publish = handed_by_a_work_job(tmp_path, monkeypatch, tampered)
    assert run_bot(tmp_path, publisher, "issue_comment", implement_comment(), **publish) == 0
    assert BRANCH not in git(tmp_path, "ls-remote", "--heads", str(origin))


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_the_publish_job_refuses_a_commenter_without_write_access(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """The work job's hand-over is no proof of who asked: a phase handed for @octocat (read
    access) is refused by the publish job before it reads the phase; nothing is pushed."""

    def done(checkout: Path) -> None:
        (checkout / "docs/rfd/.state/045/phases").mkdir(parents=True, exist_ok=True)
        (checkout / "docs/rfd/.state/045/phases/1.md").write_text("Done.\n", encoding="utf-8")

    origin, publisher, publish = handed_by_a_work_job(tmp_path, monkeypatch, done)
    event = implement_comment()
    event["sender"] = {**event["sender"], "login": "octocat"}  # type: ignore[dict-item]
    assert run_bot(tmp_path, publisher, "issue_comment", event, **publish) == 0
    assert BRANCH not in git(tmp_path, "ls-remote", "--heads", str(origin))
    sent = bodies_sent(vcr)
    assert sent[-1].startswith("<!-- rfd-bot:reply:c492700400-implement -->\n😕 The phase")
    assert "@octocat `/rfd implement` needs write access" in sent[-1]
