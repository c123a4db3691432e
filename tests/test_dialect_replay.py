"""Replays of the commits teams of each dialect make, through the hooks: the repository's
own advancement commits, new documents, renames and rfd's commands pass; moves the history
never makes, unknown words and broken front matter are refused with a reason."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli.main import main
from hooks import rfd_lint, rfd_state, rfd_status
from tests.conftest import git
from tests.dialect_corpora import build_joyent, build_oxide, build_rfc
from tests.hooks_support import run_hook

Change = Callable[[Path], None]


def edit(path: str, old: str, new: str) -> Change:
    def change(repo: Path) -> None:
        text = (repo / path).read_text(encoding="utf-8")
        assert old in text, (path, old)
        (repo / path).write_text(text.replace(old, new, 1), encoding="utf-8")

    return change


def cli(*argv: str) -> Change:
    def change(repo: Path) -> None:
        assert main(["-C", str(repo), *argv]) == 0

    return change


def write(path: str, text: str) -> Change:
    def change(repo: Path) -> None:
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, encoding="utf-8")

    return change


def rename(old: str, new: str) -> Change:
    def change(repo: Path) -> None:
        git(repo, "mv", old, new)

    return change


def stage(repo: Path) -> None:
    git(repo, "add", "-A")


def steps(*changes: Change) -> Change:
    def change(repo: Path) -> None:
        for one in changes:
            one(repo)

    return change


NEW_OXIDE = (
    "---\nauthors: Ada Lovelace <ada@example.com>\nstate: prediscussion\ndiscussion:\n---\n\n"
    "# RFD 40 Cold storage\n\n## Background\n\nWhy.\n"
)

# (what the team does, the change, the verdict, what the hooks must say)
Replay = list[tuple[str, Change, int, str]]
OXIDE: Replay = [
    (
        "discussion → published by editing the state line (an advancement commit)",
        edit("rfd/0011/README.md", "state: 'discussion'", "state: 'published'"),
        0,
        "rfd/0011/README.md: discussion → published (Discussion → Accepted)",
    ),
    ("a typo fix in an AsciiDoc RFD", edit("rfd/0008/README.adoc", "Why", "Why, "), 0, ""),
    ("a diagram added beside an RFD", write("rfd/0012/flow.svg", "<svg/>\n"), 0, ""),
    (
        "a new RFD directory in prediscussion",
        write("rfd/0040/README.md", NEW_OXIDE),
        0,
        "rfd/0040/README.md: new RFD in prediscussion (Draft)",
    ),
    ("rfd promote on it (prediscussion → discussion)", cli("promote", "40"), 0, ""),
    (
        "discussion → committed in one commit: the two moves history makes",
        edit("rfd/0003/README.md", "state: discussion", "state: committed"),
        0,
        "rfd/0003/README.md: discussion → committed (Discussion → Implemented)",
    ),
    (
        "published → abandoned: history never does it",
        edit("rfd/0004/README.md", "state: published", "state: abandoned"),
        1,
        "cannot move from published to abandoned: the repository's history never does",
    ),
    (
        "a state word nobody defined",
        edit("rfd/0019/README.md", "state: discussion", "state: pondering"),
        1,
        "unknown status 'pondering'",
    ),
    (
        "front matter broken by a stray bracket",
        edit("rfd/0005/README.md", "labels: control-plane", "labels: [control-plane"),
        1,
        "rfd/0005/README.md:",
    ),
]
JOYENT: Replay = [
    (
        "predraft → draft",
        edit("rfd/0001/README.md", "state: 'predraft'", "state: 'draft'"),
        0,
        "Draft → Discussion",
    ),
    (
        "draft → publish",
        edit("rfd/0003/README.md", "state: draft", "state: publish"),
        0,
        "Discussion → Accepted",
    ),
    (
        "predraft → publish in one commit (through draft, as history does)",
        edit("rfd/0007/README.md", "state: predraft", "state: publish"),
        0,
        "rfd/0007/README.md: predraft → publish (Draft → Accepted)",
    ),
    (
        "publish → predraft: backwards",
        edit("rfd/0004/README.md", "state: publish", "state: predraft"),
        1,
        "cannot move from publish to predraft",
    ),
    (
        "an RFD's directory renamed, its title left saying the old number",
        rename("rfd/0032", "rfd/0033"),
        1,
        "rfd/0033/README.md:10: RFD003 error: heading says RFD 32 but the directory name says "
        "RFD 0033\n  hint: make the heading '# RFD 33 Operator console' or rename the directory",
    ),
    (
        "an RFD renumbered (its directory renamed, its title with it)",
        steps(rename("rfd/0032", "rfd/0033"), edit("rfd/0033/README.md", "# RFD 32 ", "# RFD 33 ")),
        0,
        "",
    ),
]
RFC: Replay = [
    (
        "accepted → ready-for-release (an advancement commit)",
        edit("text/0011-requests-for-discussion.md", "stage: accepted", "stage: ready-for-release"),
        0,
        "Accepted → Implemented",
    ),
    (
        "ready-for-release → released: the same stage, a move history makes",
        edit(
            "text/0038-control-plane-database.md", 'stage: "ready-for-release"', 'stage: "released"'
        ),
        0,
        "text/0038-control-plane-database.md: ready-for-release → released (both Implemented)",
    ),
    (
        "released → accepted: backwards",
        edit("text/0065-network-boot.md", "stage: released", "stage: accepted"),
        1,
        "cannot move from released to accepted",
    ),
    (
        "a new RFC from the template, then renamed to its pull request's number",
        steps(
            cli("new", "design", "Cold storage tier"),
            stage,
            rename("text/0000-cold-storage-tier.md", "text/0812-cold-storage-tier.md"),
        ),
        0,
        "text/0812-cold-storage-tier.md: new RFD (Accepted)",
    ),
]

REPLAYS = {"oxide": (build_oxide, OXIDE), "joyent": (build_joyent, JOYENT), "rfc": (build_rfc, RFC)}


@pytest.mark.parametrize("dialect", list(REPLAYS))
def test_replayed_commits_get_the_verdict_of_the_repositorys_process(
    dialect: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build, replay = REPLAYS[dialect]
    repo = build(tmp_path / dialect)
    assert main(["-C", str(repo), "init"]) == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Adopt rfd-bot")
    for what, change, verdict, says in replay:
        change(repo)
        git(repo, "add", "-A")
        staged = git(repo, "diff", "--cached", "--name-only", "--diff-filter=d").split()
        code, out = 0, ""
        for hook in (rfd_lint.main, rfd_status.main, rfd_state.main):
            got, said = run_hook(hook, repo, staged, monkeypatch, capsys)
            code, out = max(code, got), out + said
        assert code == verdict, f"{what}:\n{out}"
        assert says in out, f"{what}:\n{out}"
        if verdict == 0:
            git(repo, "commit", "-qm", what)
        else:
            git(repo, "reset", "-q", "--hard", "HEAD")
            git(repo, "clean", "-qfd")


def test_a_replayed_repository_lists_what_it_committed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = shutil.copytree(build_oxide(tmp_path / "built"), tmp_path / "oxide")
    assert main(["-C", str(repo), "init"]) == 0
    write("rfd/0040/README.md", NEW_OXIDE)(repo)
    capsys.readouterr()
    assert main(["-C", str(repo), "list"]) == 0
    assert "0040  prediscussion  Cold storage" in capsys.readouterr().out
