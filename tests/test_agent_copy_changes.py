"""What comes back from the model's copy: only regular files on the allow-list, within the
caps, without secrets, written into the checkout through no link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.agent.implementation.work_copy import Bounds, Taken, apply, collect, opened
from bot.agent.toolbox.sandbox import Refused, read_bounded
from bot.core.redact import held
from tests.conftest import git
from tests.hostile import SECRETS

BOUNDS = Bounds(protected=(), bot_only=("docs/rfd/**",), max_file=1_000, max_phase=1_500)
NO_SECRETS = held({})


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    (root / "docs/rfd").mkdir(parents=True)
    (root / "docs/rfd/001-a.md").write_text("# RFD 001\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "src/app.py").write_text("print(1)\n", encoding="utf-8")
    (root / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (root / "run.sh").chmod(0o755)
    (root / ".gitignore").write_text("*.log\n", encoding="utf-8")
    git(tmp_path, "init", "-q", str(root))
    git(root, "add", "-A")
    git(root, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "base")
    (root / "notes.txt").write_text("untracked, mine\n", encoding="utf-8")
    return root


def refused(taken: Taken) -> dict[str, str]:
    return dict(taken.refused)


def test_the_copy_holds_tracked_and_untracked_files_and_nothing_changed_is_taken(
    checkout: Path,
) -> None:
    with opened(checkout) as copy:
        assert (copy.path / "notes.txt").read_text() == "untracked, mine\n"
        assert not (copy.path / ".git").exists()
        assert os.access(copy.path / "run.sh", os.X_OK)
        assert collect(copy, BOUNDS, NO_SECRETS, checkout) == Taken()


def test_changes_are_taken_and_written_while_everything_else_is_refused(checkout: Path) -> None:
    with opened(checkout) as copy:
        work = copy.path
        (work / "src/app.py").write_text("print(2)\n")
        (work / "src/new.py").write_text("x = 1\n")
        (work / "run.sh").unlink()
        (work / "docs/rfd/001-a.md").write_text("# hijacked\n")
        (work / "debug.log").write_text("ignored by the checkout's rules\n")
        (work / "big.txt").write_text("x" * 1_001)
        (work / "link").symlink_to("/etc/passwd")
        (work / "secret.txt").write_text(f"k={SECRETS['MYSQL_PWD']}\n")
        taken = collect(copy, BOUNDS, held(SECRETS), checkout)
        done = apply(checkout, taken)
    assert (checkout / "src/app.py").read_text() == "print(2)\n"
    assert (checkout / "src/new.py").read_text() == "x = 1\n"
    assert not (checkout / "run.sh").exists()
    assert (checkout / "docs/rfd/001-a.md").read_text() == "# RFD 001\n"
    assert not (checkout / "link").exists() and not (checkout / "secret.txt").exists()
    assert refused(done) == {
        "big.txt": "is 1,001 bytes, over the limit of 1,000 bytes per file",
        "docs/rfd/001-a.md": "is an RFD or RFD state, which only the bot writes",
        "link": "is a symbolic link (links are never followed, read or committed)",
        "secret.txt": "holds the value of MYSQL_PWD",
    }


def test_the_phase_cap_counts_every_file(checkout: Path) -> None:
    with opened(checkout) as copy:
        for name in ("a", "b"):
            (copy.path / f"{name}.txt").write_text("y" * 900)
        taken = collect(copy, BOUNDS, NO_SECRETS, checkout)
    assert [c.path for c in taken.changes] == ["a.txt"]
    assert refused(taken) == {"b.txt": "would take the phase's changes over 1,500 bytes"}


def test_nothing_is_written_through_a_link_in_the_checkout(checkout: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (checkout / "out").symlink_to(outside)  # a link the checkout holds (a person's)
    with opened(checkout) as copy:
        (copy.path / "out").unlink()
        (copy.path / "out").mkdir()
        (copy.path / "out/x.py").write_text("x\n")
        taken = collect(copy, BOUNDS, NO_SECRETS, checkout)
    done = apply(checkout, taken)
    assert list(outside.iterdir()) == []
    assert "out/x.py" in refused(done)


def test_a_fifo_or_a_giant_sparse_file_is_refused_without_being_read(tmp_path: Path) -> None:
    fifo, sparse = tmp_path / "pipe", tmp_path / "big.bin"
    os.mkfifo(fifo)
    with sparse.open("wb") as fh:
        fh.truncate(600_000_000)
    with pytest.raises(Refused, match="not a regular file"):
        read_bounded(fifo, 1_000)  # O_NONBLOCK: no hang
    with pytest.raises(Refused, match="600,000,000 bytes"):
        read_bounded(sparse, 10_000_000)
    (tmp_path / "link").symlink_to(sparse)
    with pytest.raises(Refused, match="symbolic link"):
        read_bounded(tmp_path / "link", 10_000_000)


def test_a_copy_of_an_rfd_is_refused_but_an_empty_file_is_no_copy(checkout: Path) -> None:
    (checkout / ".gitkeep").write_text("")
    long_rfd = "# RFD 001\n\nWritten motivation text.\n" * 4
    (checkout / "docs/rfd/001-a.md").write_text(long_rfd)
    with opened(checkout) as copy:
        (copy.path / "elsewhere").mkdir()
        (copy.path / "elsewhere/a.md").write_text(long_rfd)
        (copy.path / "pkg").mkdir()
        (copy.path / "pkg/__init__.py").write_text("")
        taken = collect(copy, BOUNDS, NO_SECRETS, checkout)
    assert [c.path for c in taken.changes] == ["pkg/__init__.py"]
    assert refused(taken) == {
        "elsewhere/a.md": "is a copy of `docs/rfd/001-a.md`, which the model may not write"
    }
