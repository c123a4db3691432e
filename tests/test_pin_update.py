"""``rfd pin``: the action's pin moves to a newer release; nothing else in the workflows does.

GitHub is replayed from ``cassettes/test_pin_update/`` (the releases and git-refs
endpoints, as GitHub answers them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.main import main
from bot.lifecycle import workflow_setup
from bot.site import publish

OLD = "0123456789abcdef0123456789abcdef01234567"
NEW = "5c2b7e9f1d0a4b3c8e6f2a1d9b7c5e3f1a0b2c4d"
REPO = "acme/rfd-bot"


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


@pytest.fixture
def pinned(git_repo: Path) -> Path:
    """The workflow `rfd init --github` writes on v1.2.0, a person's edit in it, CRLF and a
    second workflow of theirs that uses the action too (with a tag pin)."""
    action = workflow_setup.Source(REPO, OLD, tag="v1.2.0").action
    text = workflow_setup.render(action, "main")
    text = text.replace("jobs:\n", "jobs:\n  # our own note, kept\n", 1)
    flows = git_repo / ".github/workflows"
    flows.mkdir(parents=True)
    (flows / "rfd.yml").write_text(text, encoding="utf-8")
    other = (
        "name: nightly\r\non: {schedule: [{cron: '0 3 * * *'}]}\r\njobs:\r\n  run:\r\n"
        "    runs-on: ubuntu-latest\r\n    steps:\r\n"
        "      - uses: acme/rfd-bot/.github/actions/rfd@v1.2.0   # keep: reconcile\r\n"
        "        with: {command: reconcile}\r\n"
    )
    (flows / "nightly.yaml").write_bytes(other.encode())
    (flows / "README.txt").write_text("uses: acme/rfd-bot/.github/actions/rfd@v0.1.0\n")
    site = publish.render(workflow_setup.Source(REPO, OLD), "main")  # rfd init --site
    (flows / "rfd-site.yml").write_text(site, encoding="utf-8")
    return git_repo


def changed_lines(before: bytes, after: bytes) -> list[tuple[bytes, bytes]]:
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    assert len(old) == len(new)
    return [(a, b) for a, b in zip(old, new, strict=True) if a != b]


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_pin_moves_every_workflow_to_the_newest_release(
    pinned: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RFD_GITHUB_TOKEN", "ghp_test")
    flows = pinned / ".github/workflows"
    before = {p.name: p.read_bytes() for p in flows.iterdir()}
    assert run(pinned, "pin") == 0
    out = capsys.readouterr().out
    # one line per job running the bot (implement has three: check, work, publish)
    assert f".github/workflows/rfd.yml: v1.2.0 → v1.3.0 ({NEW}), 8 lines" in out
    assert ".github/workflows/nightly.yaml: v1.2.0 → v1.3.0" in out
    assert f"what changed: https://github.com/{REPO}/releases/tag/v1.3.0" in out
    assert f"every commit since: https://github.com/{REPO}/compare/v1.2.0...v1.3.0" in out
    rfd = changed_lines(before["rfd.yml"], (flows / "rfd.yml").read_bytes())
    assert len(rfd) == 8
    assert all(
        a.replace(f"@{OLD} # v1.2.0".encode(), f"@{NEW} # v1.3.0".encode()) == b for a, b in rfd
    )
    ((_, nightly),) = changed_lines(before["nightly.yaml"], (flows / "nightly.yaml").read_bytes())
    assert (
        nightly
        == (
            f"      - uses: acme/rfd-bot/.github/actions/rfd@{NEW} # v1.3.0   # keep: reconcile\r\n"
        ).encode()
    )
    assert (flows / "README.txt").read_bytes() == before["README.txt"]  # not a workflow
    # the site is built by the release the bot runs
    assert ".github/workflows/rfd-site.yml: v1.2.0 → v1.3.0" in out
    ((a, b),) = changed_lines(before["rfd-site.yml"], (flows / "rfd-site.yml").read_bytes())
    assert a.replace(f"rfd-bot@{OLD}".encode(), f"rfd-bot@{NEW}".encode()) == b


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_pin_to_an_annotated_tag_pins_the_commit_it_points_at(
    pinned: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An annotated tag's ref names a tag object; the commit is the one that object names."""
    monkeypatch.setenv("RFD_GITHUB_TOKEN", "ghp_test")
    assert run(pinned, "pin", "--to", "v1.2.1") == 0
    text = (pinned / ".github/workflows/rfd.yml").read_text()
    assert "rfd@3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c1e3b5d7f90 # v1.2.1\n" in text
    assert "8d1e0f2a3b4c5d6e7f8091a2b3c4d5e6f7a8b9c0" not in text  # the tag object is no commit
    assert "compare/v1.2.0...v1.2.1" in capsys.readouterr().out


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_pin_to_a_tag_that_does_not_exist_changes_nothing(
    pinned: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RFD_GITHUB_TOKEN", "ghp_test")
    before = (pinned / ".github/workflows/rfd.yml").read_bytes()
    assert run(pinned, "pin", "--to", "v9.9.9") == 1
    err = capsys.readouterr().err
    assert "acme/rfd-bot has no tag 'v9.9.9'" in err
    assert "https://github.com/acme/rfd-bot/releases" in err
    assert (pinned / ".github/workflows/rfd.yml").read_bytes() == before


def test_offline_pin_says_what_it_cannot_do(
    pinned: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (pinned / ".github/workflows/rfd.yml").read_bytes()
    assert run(pinned, "pin") == 1
    err = capsys.readouterr().err
    assert "cannot tell which release of acme/rfd-bot is the newest" in err
    assert "set RFD_GITHUB_TOKEN" in err and "nothing was changed" in err
    assert (pinned / ".github/workflows/rfd.yml").read_bytes() == before


def test_pin_without_a_workflow_says_how_to_write_one(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(git_repo, "pin") == 1
    err = capsys.readouterr().err
    assert "no workflow under .github/workflows/ uses rfd-bot's action" in err
    assert "rfd init --github" in err
