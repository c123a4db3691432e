"""The publish job checks the work job's phase again (bot/github/phase_artifact.py).

A work job taken over by model-written code could hand anything over; each tampered
artifact below is refused with the reason a user reads in the reply, and nothing is
fetched into a branch that could be pushed.  Real git repositories in temp dirs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.config.load import load
from bot.github.implement.artifact import (
    BUNDLE,
    MANIFEST,
    Handed,
    Tampered,
    read,
    recheck,
    write_bundle,
    write_manifest,
)
from tests.conftest import git
from tests.github_world import RFD_PATH, RFD_TEXT, make_world
from tests.hostile import SECRETS

MARKER = "<!-- rfd-bot:implement:045-1 -->\n"
OWN = ("docs/rfd/.state/045/phases/1.md", "docs/rfd/.state/045/implement/1/**")
PLAN = '[{"title": "Writer", "body": "w"}]'


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """``(checkout, work)``: the publish job's checkout of main, the work job's worktree."""
    files = {RFD_PATH: RFD_TEXT, "docs/rfd/.state/045/plan.json": PLAN, "src/app.py": "x = 1\n"}
    _, checkout = make_world(tmp_path, files, {})
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", str(checkout), str(work))
    return checkout, work


def handed_over(
    work: Path, dest: Path, *, base: str | None = None, body: str = "", reply: str = "Opened."
) -> Handed:
    """Commit what the test left in ``work`` (and staged) and write its artifact to ``dest``."""
    head = git(work, "rev-parse", "HEAD").strip()
    git(work, "add", "-A")
    for line in os.environ.get("TEST_GITLINK", "").split():
        git(work, "update-index", "--add", "--cacheinfo", f"160000,{head},{line}")
    git(work, "-c", "user.name=w", "-c", "user.email=w@x", "commit", "-q", "-m", "phase 1")
    write_bundle(dest, work, head)
    handed = Handed("045", "1", base or head, False, MARKER + (body or "Phase 1."), reply)
    write_manifest(dest, handed)
    return handed


def checked(checkout: Path, dest: Path, handed: Handed, **environ: str) -> str:
    config = load(checkout).config
    return recheck(checkout, dest, handed, config, OWN, environ, MARKER)


def refusal(checkout: Path, dest: Path, handed: Handed, **environ: str) -> str:
    with pytest.raises(Tampered) as caught:
        checked(checkout, dest, handed, **environ)
    return "\n".join(caught.value.reasons)


def put(work: Path, rel: str, data: str | bytes) -> None:
    path = work / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")


def test_a_clean_phase_passes_with_the_bots_own_files(
    world: tuple[Path, Path], tmp_path: Path
) -> None:
    checkout, work = world
    put(work, "src/app.py", "x = 2\n")
    put(work, "src/run.sh", "#!/bin/sh\n")
    os.chmod(work / "src/run.sh", 0o755)
    put(work, "docs/rfd/.state/045/phases/1.md", "Done.\n")
    put(work, "docs/rfd/.state/045/implement/1/summary.md", "Done.\n")
    handed = handed_over(work, tmp_path / "a")
    commit = checked(checkout, tmp_path / "a", handed)
    assert git(checkout, "rev-parse", f"{commit}^").strip() == handed.base
    assert "100755" in git(checkout, "ls-tree", commit, "src/run.sh")


@pytest.mark.parametrize(
    ("rel", "data", "reason"),
    [
        (".github/workflows/x.yml", "on: push\n", "`.github/workflows/x.yml` is protected"),
        (".pre-commit-config.yaml", "repos: []\n", "`.pre-commit-config.yaml` is protected"),
        (RFD_PATH, "# RFD 045: mine\n", f"`{RFD_PATH}` is an RFD or RFD state"),
        ("docs/rfd/.state/045/plan.json", "[]", "is an RFD or RFD state"),
        ("docs/rfd/.state/002/phases/1.md", "x", "is an RFD or RFD state"),
        ("big.bin", b"\0" * 10_000_001, "`big.bin` is 10,000,001 bytes, over the limit"),
        ("leak.txt", SECRETS["GITHUB_TOKEN"][::-1], "`leak.txt` holds the value of GITHUB_TOKEN"),
    ],
    ids=["workflow", "hooks", "rfd", "plan", "other-rfd", "oversize", "secret"],
)
def test_a_tampered_change_is_refused_with_its_reason(
    world: tuple[Path, Path], tmp_path: Path, rel: str, data: str | bytes, reason: str
) -> None:
    checkout, work = world
    put(work, rel, data)
    handed = handed_over(work, tmp_path / "a")
    token = {"GITHUB_TOKEN": SECRETS["GITHUB_TOKEN"]}
    assert reason in refusal(checkout, tmp_path / "a", handed, **token)


def test_a_symbolic_link_and_a_gitlink_are_refused(
    world: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout, work = world
    (work / "env.txt").symlink_to("/proc/self/environ")
    monkeypatch.setenv("TEST_GITLINK", "vendor/lib")
    handed = handed_over(work, tmp_path / "a")
    reasons = refusal(checkout, tmp_path / "a", handed)
    assert "`env.txt` is a symbolic link" in reasons
    assert "`vendor/lib` is a submodule (a gitlink)" in reasons


def test_a_phase_on_another_base_is_refused(world: tuple[Path, Path], tmp_path: Path) -> None:
    checkout, work = world
    base = git(work, "rev-parse", "HEAD").strip()
    put(work, "src/a.py", "a = 1\n")
    git(work, "add", "-A")
    git(work, "-c", "user.name=w", "-c", "user.email=w@x", "commit", "-q", "-m", "elsewhere")
    put(work, "src/b.py", "b = 1\n")
    handed = handed_over(work, tmp_path / "a")  # on a commit the checkout lacks
    assert "which this job checked out" in refusal(checkout, tmp_path / "a", handed)
    write_bundle(tmp_path / "b", work, base)  # two commits on the checkout's base
    two = Handed(**{**handed.__dict__, "base": base})
    assert "is based on" in refusal(checkout, tmp_path / "b", two)
    put(checkout, "later.txt", "main moved on\n")
    git(checkout, "add", "-A")
    git(checkout, "-c", "user.name=w", "-c", "user.email=w@x", "commit", "-q", "-m", "later")
    moved = refusal(checkout, tmp_path / "b", two)  # the publish job checked out another base
    assert f"not on `{git(checkout, 'rev-parse', 'HEAD').strip()}`" in moved


@pytest.mark.parametrize(
    ("body", "reply", "reason"),
    [
        ("<!-- rfd-bot:tracking:045 -->", "Opened.", "the pull request body holds an HTML"),
        ("Fine.", "Opened <!-- rfd-bot:reply:1 -->", "the reply holds an HTML comment"),
        ("x" * 60_001, "Opened.", "the pull request body is 60,0"),
        ("Fine.", "t: " + " ".join(SECRETS["GITHUB_TOKEN"]), "the reply holds the value of"),
    ],
    ids=["marker-in-body", "marker-in-reply", "oversize", "spaced-secret"],
)
def test_texts_that_are_not_inert_are_refused(
    world: tuple[Path, Path], tmp_path: Path, body: str, reply: str, reason: str
) -> None:
    checkout, work = world
    put(work, "src/app.py", "x = 3\n")
    handed = handed_over(work, tmp_path / "a", body=body, reply=reply)
    token = {"GITHUB_TOKEN": SECRETS["GITHUB_TOKEN"]}
    assert reason in refusal(checkout, tmp_path / "a", handed, **token)


def test_a_manifest_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    """The run's numbers the phase comment shows are numbers, in range: no text, no NaN."""
    manifest = {"format": 2, "rid": "../x", "elapsed": float("nan"), "tokens": True}
    manifest |= {"cost_usd": "$1", "recover": "yes"}
    (tmp_path / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(Tampered) as caught:
        read(tmp_path)
    for field in ("rid", "elapsed", "tokens", "cost_usd", "recover"):
        assert f"the manifest has no valid `{field}`" in caught.value.reasons
    (tmp_path / MANIFEST).unlink()
    (tmp_path / MANIFEST).symlink_to("/proc/self/environ")
    with pytest.raises(Tampered, match="symbolic link"):
        read(tmp_path)


def test_a_bundle_that_is_a_link_is_refused(world: tuple[Path, Path], tmp_path: Path) -> None:
    checkout, work = world
    put(work, "src/app.py", "x = 4\n")
    handed = handed_over(work, tmp_path / "a")
    (tmp_path / "a" / BUNDLE).unlink()
    (tmp_path / "a" / BUNDLE).symlink_to("/proc/self/environ")
    assert "the bundle cannot be read" in refusal(checkout, tmp_path / "a", handed)
