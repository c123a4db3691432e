"""The status moves git history shows, as `rfd init` writes them into `[transitions]`: only a
status the document itself has moves.  A status line in a code block, a front-matter sample
in an RFD's body or an AsciiDoc listing, edited from one word to another, is no move, and
the hooks then refuse the move it would otherwise have allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.main import main
from bot.core.git_log import Commit
from bot.model.status_moves import Edit, Version, moves
from hooks import rfd_status
from tests.conftest import git
from tests.hooks_support import commit, run_hook

PROCESS, STORAGE, BOOT = "rfd/0001/README.md", "rfd/0002/README.md", "rfd/0003/README.adoc"


def oxide(state: str, title: str, body: str, *, extra: str = "") -> str:
    head = f"---\nauthors: Ada Lovelace <ada@example.com>\nstate: {state}\n{extra}---\n"
    return f"{head}\n{title}\n\n{body}"


def process_rfd(state: str, example: str) -> str:
    """A process RFD showing its readers the header, in a fenced YAML sample."""
    body = f"## How\n\nWrite the header so:\n\n```yaml\n---\nstate: {example}\n---\n```\n"
    return oxide(state, "# RFD 1 The RFD process", body)


def storage_rfd(state: str, example: str, reviewer: str) -> str:
    """A front-matter sample in the body (no fence) and a status nested in the header."""
    body = f"## Migration\n\nOld documents say:\n\n---\nstate: {example}\n---\n\nThat is all.\n"
    nested = f"review:\n  state: {reviewer}\n"
    return oxide(state, "# RFD 2 Storage", body, extra=nested)


def boot_rfd(state: str, example: str) -> str:
    """AsciiDoc, with its attribute shown in a listing block."""
    return (
        f"= RFD 3 Network boot\n:authors: Ada Lovelace <ada@example.com>\n:state: {state}\n\n"
        f"== Header\n\n----\n:state: {example}\n----\n"
    )


@pytest.fixture
def examples_repo(git_repo: Path) -> Path:
    """Real moves: 0001 prediscussion → discussion → published, 0002 discussion → published.
    Edits of examples only: discussion → committed (0001's fence), published → abandoned
    (0002's body), open → closed (0002's nested key), discussion → abandoned (0003's listing)."""
    commit(git_repo, {PROCESS: process_rfd("prediscussion", "discussion")}, "RFD 1")
    commit(git_repo, {PROCESS: process_rfd("discussion", "discussion")}, "RFD 1 discussion")
    commit(git_repo, {STORAGE: storage_rfd("discussion", "published", "open")}, "RFD 2")
    commit(git_repo, {BOOT: boot_rfd("discussion", "discussion")}, "RFD 3")
    commit(git_repo, {PROCESS: process_rfd("published", "discussion")}, "RFD 1 published")
    commit(git_repo, {PROCESS: process_rfd("published", "committed")}, "example: committed")
    commit(git_repo, {STORAGE: storage_rfd("discussion", "abandoned", "closed")}, "examples")
    commit(git_repo, {STORAGE: storage_rfd("published", "abandoned", "closed")}, "RFD 2 published")
    commit(git_repo, {BOOT: boot_rfd("discussion", "abandoned")}, "example: abandoned")
    return git_repo


TRANSITIONS = """\
[transitions]
# the moves the history shows: from a word listed here, only the words they lead to
# 2 moves in history
discussion = ["published"]
# 1 move in history
prediscussion = ["discussion"]
"""


def table(text: str, header: str) -> str:
    """A table of the configuration, from its header to the blank line ending it."""
    start = text.index(f"\n{header}\n") + 1
    end = text.find("\n\n", start)
    return text[start : end + 1 if end != -1 else len(text)]


def test_init_writes_only_the_moves_the_documents_made(
    examples_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-C", str(examples_repo), "init"]) == 0
    assert "created .github/rfd.toml from the conventions of the RFDs in rfd/" in (
        capsys.readouterr().out
    )
    written = (examples_repo / ".github/rfd.toml").read_text(encoding="utf-8")
    assert table(written, "[transitions]") == TRANSITIONS
    evidence = [line for line in written.splitlines() if "history:" in line]
    assert evidence == [
        "# 1 document; Oxide's word for discussion; history: discussion → published 2 times, "
        "prediscussion → discussion 1 time",
        "# 2 documents; Oxide's word for accepted; history: discussion → published 2 times",
    ]
    for example in ("committed", "abandoned", "open", "closed"):
        assert f"→ {example}" not in written and f'"{example}"' not in written


def test_a_move_only_an_example_made_is_refused_by_the_hook(
    examples_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["-C", str(examples_repo), "init"]) == 0
    git(examples_repo, "add", "-A")
    git(examples_repo, "commit", "-qm", "Adopt rfd-bot")
    text = (examples_repo / BOOT).read_text(encoding="utf-8")
    moved = text.replace(":state: discussion", ":state: abandoned", 1)  # the header's
    (examples_repo / BOOT).write_text(moved, encoding="utf-8")
    git(examples_repo, "add", "-A")
    code, out = run_hook(rfd_status.main, examples_repo, [BOOT], monkeypatch, capsys)
    assert code == 1
    assert "cannot move from discussion to abandoned: the repository's history never does" in out
    assert "from discussion the history shows: published" in out


def test_the_rfd_init_of_a_repository_without_history_has_no_transitions(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {PROCESS: process_rfd("published", "discussion")}, "RFD 1")
    commit(git_repo, {STORAGE: storage_rfd("published", "discussion", "open")}, "RFD 2")
    assert main(["-C", str(git_repo), "init"]) == 0
    written = (git_repo / ".github/rfd.toml").read_text(encoding="utf-8")
    assert 'published = "accepted"' in written
    assert "[transitions]" not in written and "history:" not in written


def edit(sha: str, rfd: str, before: str, after: str) -> Edit:
    path = f"rfd/{rfd}/README.md"
    return Edit(Commit(sha, "", "", ""), rfd, Version(before, path), Version(after, path))


def test_a_version_that_does_not_parse_moves_from_the_last_status_read() -> None:
    edits = [
        edit("c1", "0001", "a", "b"),
        edit("c2", "0001", "b", "c"),
        edit("c3", "0001", "c", "d"),
    ]
    words = {
        Version("a", "rfd/0001/README.md"): "discussion",
        Version("b", "rfd/0001/README.md"): None,  # broken front matter for a commit
        Version("c", "rfd/0001/README.md"): "Published",
        Version("d", "rfd/0001/README.md"): "published",  # the case only: no move
    }
    assert [(m.edit.commit.sha, m.old, m.new) for m in moves(edits, words)] == [
        ("c2", "discussion", "Published")
    ]
