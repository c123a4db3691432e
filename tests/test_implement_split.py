"""``/rfd implement`` as the shipped workflow runs it: a check job, a work job, a publish job.

The check job (no model) refuses what it can and posts the progress comment.  The work job
talks to the (hostile, scripted) model and runs its commands; its token is read-only: it
makes GET requests only, posts nothing, and leaves an artifact.  The publish job holds the
write token and no model key, checks the artifact again, pushes, opens the PR and posts —
also how the work job ended when it handed no phase, worded from the manifest's known names
(tests/test_implement_work_ended.py).  All replay one cassette (built by
tests/data/cassettes/scenarios_phase_prs.py from the one-job run's scenario), and what they
post is compared with what the one-job run posts: its endings (failed items, the last phase
finishing the RFD) and its recovery of a branch pushed without its pull request.  The texts
are the one-job run's word for word; they differ on purpose only in the progress comment's
run-link note (the check job cannot edit it as the run goes: "follow the run"), which shows
only inside Actions, so not in these cassettes.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
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
from tests.test_github_finish_phase import ENDPOINT, MERGE_3, last_phase_world
from tests.test_github_slash import (
    FAILING,
    WRITER,
    failing_world,
    hand_pushed_phase,
    not_the_bots,
    scripted_model,
)
from tests.test_github_slash import accepted_world as two_phase_world
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
    assert check_job(tmp_path, monkeypatch, checkout, implement_comment())
    work = {
        "RFD_BOT_STAGE": "work",
        "RFD_BOT_ARTIFACT": str(artifact),
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_TOKEN": SECRETS["GITHUB_TOKEN"],
    }
    with only_reads(vcr):
        assert run_bot(tmp_path, checkout, "issue_comment", implement_comment(), **work) == 0

    assert "handed=true" in outputs.read_text(encoding="utf-8")
    assert BRANCH not in git(tmp_path, "ls-remote", "--heads", str(origin))  # nothing pushed
    manifest = json.loads((artifact / MANIFEST).read_text(encoding="utf-8"))
    base = git(checkout, "rev-parse", "HEAD").strip()
    assert (manifest["rid"], manifest["label"], manifest["base"]) == ("045", "1", base)
    assert [line for line in manifest["checked"] if DISCARDED in line] != []
    assert "reply" not in manifest and "pr_body" not in manifest  # the publish job words them
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
    write_manifest(artifact, Handed("045", "1", base, False))
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


# The endings a user reads, in two jobs as in one (each compared with the one-job run's
# cassette), and the recovery of a branch the publish job pushed without opening its PR.
FAILING_TEST = "test_implement_with_failing_checks_opens_a_pr_that_records_nothing"
RECOVERS_TEST = "test_implement_recovers_when_opening_its_pr_failed"
SHA_MARK = re.compile(r"<!-- rfd-bot:commit:[0-9a-f]{40} -->")


def one_job_bodies(test: str) -> list[str]:
    """What the one-job run of ``test`` posted (``module/name``), commit shas masked as this
    module masks them (each run's publish job makes its own commit)."""
    import yaml

    path = Path(__file__).parent.parent / "cassettes" / f"{test}.yaml"
    exchanges = yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"]
    sent = [json.loads(e["request"]["body"]) for e in exchanges if e["request"]["body"]]
    texts = [d["body"] for d in sent if isinstance(d, dict) and isinstance(d.get("body"), str)]
    return [SHA_MARK.sub("<!-- rfd-bot:commit:<sha> -->", text) for text in texts]


@contextmanager
def only_reads(vcr: Any) -> Iterator[None]:
    """The work job's token is read-only: every exchange it makes is a GET."""
    before = [vcr.play_counts[i] for i in range(len(vcr.data))]
    yield
    made = [vcr.data[i][0] for i in range(len(vcr.data)) if vcr.play_counts[i] != before[i]]
    assert [r.method for r in made if r.method != "GET"] == []


def check_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checkout: Path, event: Any) -> bool:
    """The check job on ``event`` (no model): did it let the work job go (output ``go``)?"""
    outputs = tmp_path / "check-outputs"
    outputs.unlink(missing_ok=True)
    check = {"RFD_BOT_STAGE": "check", "GITHUB_OUTPUT": str(outputs)}
    with monkeypatch.context() as patched:
        patched.setattr("bot.lifecycle.workspace.make_providers", no_model)
        assert run_bot(tmp_path, checkout, "issue_comment", event, **check) == 0
    return outputs.exists() and "go=true" in outputs.read_text(encoding="utf-8")


def work_then_publish(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    origin: Path,
    checkout: Path,
    event: Any,
    vcr: Any = None,
) -> tuple[int | None, int | None]:
    """The workflow's jobs on ``event``: the check job, the work job when it lets it go (only
    GET requests, when ``vcr`` is given), then the publish job on a fresh clone of main with
    no model (when the check job let the work go: it says how the work ended, whatever it
    handed over); the work and publish jobs' exit codes."""
    artifact, outputs = tmp_path / "artifact", tmp_path / "outputs"
    shutil.rmtree(artifact, ignore_errors=True)
    outputs.unlink(missing_ok=True)
    if not check_job(tmp_path, monkeypatch, checkout, event):
        return None, None
    work = {
        "RFD_BOT_STAGE": "work",
        "RFD_BOT_ARTIFACT": str(artifact),
        "GITHUB_OUTPUT": str(outputs),
    }
    with only_reads(vcr) if vcr is not None else nullcontext():
        worked = run_bot(tmp_path, checkout, "issue_comment", event, **work)
    return worked, publish_job(tmp_path, monkeypatch, origin, event)


def publish_job(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    origin: Path,
    event: Any,
    checked: dict[str, str] | None = None,
) -> int:
    """The publish job on the work job's artifact: a fresh clone of main, no model;
    ``checked``: the check job's outputs the workflow passes it (``rfd``, ``phase``)."""
    artifact = tmp_path / "artifact"
    publisher = tmp_path / "publish"
    shutil.rmtree(publisher, ignore_errors=True)
    git(tmp_path, "clone", "-q", "--branch", "main", str(origin), str(publisher))
    publish = {"RFD_BOT_STAGE": "publish", "RFD_BOT_ARTIFACT": str(artifact)}
    for name, value in (checked or {}).items():
        publish[f"RFD_BOT_CHECKED_{name.upper()}"] = value
    with monkeypatch.context() as patched:
        patched.setattr("bot.lifecycle.workspace.make_providers", no_model)
        return run_bot(tmp_path, publisher, "issue_comment", event, **publish)


@isolating
@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_a_phase_with_failed_items_ends_in_two_jobs_as_in_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """The item's check fails: the pull request records nothing and says how to, the phase
    comment ends in the warning, the reply says so — every text the one-job run's."""
    scripted_model(monkeypatch, *FAILING)
    origin, checkout = failing_world(tmp_path)
    assert work_then_publish(tmp_path, monkeypatch, origin, checkout, implement_comment(), vcr) == (
        0,
        0,
    )
    assert "phases/1.md" not in git(origin, "ls-tree", "-r", "--name-only", BRANCH)
    sent = bodies_sent(vcr)
    assert sent == one_job_bodies(f"test_github_slash/{FAILING_TEST}")
    _, pr_body, _, shown, reply = sent
    assert lines(shown) == [
        "### ⚠️ RFD 045, phase 1: Writer — pull request "
        "[#3](https://github.com/Codertocat/Hello-World/pull/3) opened with 1 failed item",
        "Finished in 0 s · 75 tokens · branch `rfd/045-phase-1`.",
        "Some items failed, so the phase is not recorded (see the pull request for them and "
        "for how to record it anyway).",
        "- [ ] 1. Write the CSV writer — ❌ failed: \\`false\\` failed (exit code 1)",
    ]
    assert "> Some items failed (listed below): merging this pull request does **not** record" in (
        pr_body
    )
    assert lines(reply) == [
        "Opened https://github.com/Codertocat/Hello-World/pull/3 for phase 1 of RFD 045, with "
        "failed items: merging it does not record the phase (the pull request says how to)."
    ]


@isolating
@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_the_last_phase_finishes_the_rfd_in_two_jobs_as_in_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """``finish_in_last_phase``: the publish job commits the Implemented status after the
    phase, the pull request closes the tracking issue, the phase comment says to merge it —
    every text the one-job run's."""
    scripted_model(monkeypatch, *ENDPOINT)
    origin, checkout = last_phase_world(tmp_path)
    assert work_then_publish(tmp_path, monkeypatch, origin, checkout, implement_comment(), vcr) == (
        0,
        0,
    )
    branch = "rfd/045-phase-2"
    log = git(origin, "log", "--format=%s", f"main..{branch}").splitlines()
    assert log == ["RFD 045: implemented by rfd-bot", "RFD 045: phase 2 by rfd-bot"]
    assert "- **Status**: Implemented" in git(origin, "show", f"{branch}:{RFD_PATH}")
    sent = bodies_sent(vcr)
    finish_test = "test_the_last_phase_pr_marks_the_rfd_implemented_and_closes_the_issue"
    assert sent == one_job_bodies(f"test_github_finish_phase/{finish_test}")
    _, pr_body, _, shown = sent
    assert lines(pr_body)[-1] == (
        "It also marks RFD 045 Implemented (`[implement] finish_in_last_phase`): merging it"
        " closes #12, the tracking issue."
    )
    assert lines(shown)[0].startswith("### ✅ RFD 045, phase 2: Endpoint — pull request [#3](")
    assert lines(shown)[2] == MERGE_3


def again(text: str = "/rfd implement 1") -> dict[str, object]:
    """The command commented again on the tracking issue (a new comment, a new delivery)."""
    data = implement_comment()
    data["comment"] = {**data["comment"], "id": AGAIN, "body": text}  # type: ignore[dict-item]
    return data


AGAIN = 492700401


@isolating
@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_implement_again_opens_the_pr_the_publish_job_could_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """Run 1's publish job pushes the branch, then GitHub answers 502 to the pull request.
    `/rfd implement 1` again: the work job asks no model and hands over only that; the
    publish job, shown by GitHub's activity record that the bot pushed the branch's head,
    opens its pull request — the phase comment as the one-job recovery writes it."""
    llm = scripted_model(monkeypatch, *WRITER)
    origin, checkout = two_phase_world(tmp_path)
    first = work_then_publish(tmp_path, monkeypatch, origin, checkout, implement_comment(), vcr)
    assert first == (0, 1)  # the publish job failed after its push
    pushed = git(origin, "rev-parse", BRANCH)
    assert work_then_publish(tmp_path, monkeypatch, origin, checkout, again(), vcr) == (0, 0)
    assert git(origin, "rev-parse", BRANCH) == pushed  # nothing implemented or pushed again
    assert len(llm.requests) == 4  # the model was asked in run 1 only
    manifest = json.loads((tmp_path / "artifact" / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["recover"] is True and not (tmp_path / "artifact" / BUNDLE).exists()
    *_, pr_body, _, shown = bodies_sent(vcr)
    one_job = one_job_bodies(f"test_github_slash/{RECOVERS_TEST}")
    assert pr_body == one_job[-4]  # the pull request's body, from the branch's summary
    assert (
        lines(shown)
        == lines(one_job[-2])
        == [
            "### ✅ RFD 045, phase 1: Writer — pull request "
            "[#3](https://github.com/Codertocat/Hello-World/pull/3) opened",
            "From branch `rfd/045-phase-1`, which an earlier run pushed before it could open the "
            "pull request: nothing was implemented again.",
        ]
    )
    assert shown.startswith(f"{PHASE_COMMENT}<!-- rfd-bot:reply:c{AGAIN}-implement -->\n")


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_a_branch_the_bot_did_not_push_is_not_opened_as_the_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """Someone pushed `rfd/045-phase-1` with a `phases/1.md` of their own: the work job hands
    over the branch, the publish job finds no push of it by the bot in GitHub's record and
    opens nothing, saying what to do."""
    scripted_model(monkeypatch)  # asking the model would fail the test
    origin, checkout = two_phase_world(tmp_path)
    head = hand_pushed_phase(tmp_path, origin)
    assert work_then_publish(tmp_path, monkeypatch, origin, checkout, again(), vcr) == (0, 0)
    assert git(origin, "rev-parse", BRANCH).strip() == head
    (reply,) = bodies_sent(vcr)
    assert lines(reply) == not_the_bots(head)


@isolating
@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_a_rerun_of_the_publish_job_opens_the_pr_it_pushed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """The failure report says to re-run the job: re-running the publish job alone (the same
    artifact) finds the branch it pushed, opens its pull request, and ends as the one-job
    re-run does — the phase comment and the failure report, word for word."""
    scripted_model(monkeypatch, *WRITER)
    origin, checkout = two_phase_world(tmp_path)
    first = work_then_publish(tmp_path, monkeypatch, origin, checkout, implement_comment(), vcr)
    assert first == (0, 1)
    pushed = git(origin, "rev-parse", BRANCH)
    assert publish_job(tmp_path, monkeypatch, origin, implement_comment()) == 0
    assert git(origin, "rev-parse", BRANCH) == pushed  # pushed once
    one_job = one_job_bodies(f"test_github_slash/{RECOVERS_TEST}")
    sent = bodies_sent(vcr)
    assert sent[-4:] == one_job[-4:]  # the PR's body, the tracking issue, comment, report
    assert lines(sent[-1]) == ["✅ Finished by a re-run of this job: nothing is left half-done."]


@isolating
@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_implement_again_opens_the_pr_of_a_pushed_phase_with_failed_items(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, vcr: Any
) -> None:
    """The pushed phase had failed items: the pull request opened from the branch's kept
    summary has the body it would have had at once, the phase comment keeps the warning, and
    the reply says it came from the earlier run's branch."""
    llm = scripted_model(monkeypatch, *FAILING)
    origin, checkout = failing_world(tmp_path)
    first = work_then_publish(tmp_path, monkeypatch, origin, checkout, implement_comment(), vcr)
    assert first == (0, 1)
    assert work_then_publish(tmp_path, monkeypatch, origin, checkout, again(), vcr) == (0, 0)
    assert len(llm.requests) == 5  # the model was asked in run 1 only
    *_, pr_body, _, shown, reply = bodies_sent(vcr)
    assert pr_body == one_job_bodies(f"test_github_slash/{FAILING_TEST}")[1]
    assert lines(shown) == [
        "### ⚠️ RFD 045, phase 1: Writer — pull request "
        "[#3](https://github.com/Codertocat/Hello-World/pull/3) opened",
        "Some items failed, so the phase is not recorded (see the pull request for them and "
        "for how to record it anyway).",
    ]
    assert lines(reply) == [
        "Opened https://github.com/Codertocat/Hello-World/pull/3 for phase 1 of RFD 045 from "
        "branch `rfd/045-phase-1`, which an earlier run pushed before it could open the pull "
        "request (nothing was implemented again)."
    ]
