from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bot.core.atomic import OnExists, append_line, atomic_write, unique_suffix
from bot.core.errors import ValidationError


def test_atomic_write_creates_parents_and_keeps_bytes(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "file.md"
    atomic_write(target, "héllo\r\nworld\n")
    assert target.read_bytes() == "héllo\r\nworld\n".encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert os.listdir(target.parent) == ["file.md"]


def test_atomic_write_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "run.sh"
    target.write_text("old")
    target.chmod(0o755)
    atomic_write(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o755


@pytest.mark.parametrize("fail_at", ["os.replace", "os.fsync"])
def test_failure_mid_write_leaves_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_at: str
) -> None:
    target = tmp_path / "plan.json"
    target.write_text("old content\n")

    def boom(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(fail_at, boom)
    with pytest.raises(OSError, match="disk full"):
        atomic_write(target, "new content\n")
    assert target.read_text() == "old content\n"
    assert os.listdir(tmp_path) == ["plan.json"]


def test_interrupt_mid_write_also_cleans_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("os.replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(tmp_path / "x.md", "text")
    assert os.listdir(tmp_path) == []


def test_append_line_adds_lines_and_repairs_missing_newline(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "events.jsonl"
    append_line(log, '{"a": 1}')
    append_line(log, '{"a": 2}')
    assert log.read_text() == '{"a": 1}\n{"a": 2}\n'
    log.write_text("hand edit without newline")
    append_line(log, "next")
    assert log.read_text() == "hand edit without newline\nnext\n"


def test_append_line_refuses_line_breaks(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="line break"):
        append_line(tmp_path / "log", "two\nlines")
    assert not (tmp_path / "log").exists()


@pytest.mark.parametrize(
    ("name", "taken", "expected"),
    [
        ("045-title.md", set(), "045-title-2.md"),
        ("045-title.md", {"045-title-2.md", "045-title-3.md"}, "045-title-4.md"),
        ("jwt-auth", {"jwt-auth-2"}, "jwt-auth-3"),
        (".hidden", set(), ".hidden-2"),
        ("archive.tar.gz", set(), "archive.tar-2.gz"),
    ],
)
def test_unique_suffix(name: str, taken: set[str], expected: str) -> None:
    assert unique_suffix(name, taken.__contains__) == expected


@pytest.mark.parametrize(
    ("text", "choice"),
    [("use", OnExists.USE), (" Suffix ", OnExists.SUFFIX), ("REPLACE", OnExists.REPLACE)],
)
def test_on_exists_parse(text: str, choice: OnExists) -> None:
    assert OnExists.parse(text) is choice


def test_on_exists_parse_names_the_choices() -> None:
    with pytest.raises(ValidationError, match="use one of: use, suffix, replace"):
        OnExists.parse("merge")


def test_all_or_nothing_puts_back_what_a_failed_block_wrote(tmp_path: Path) -> None:
    from bot.core.atomic import all_or_nothing, append_line, atomic_write, make_dir

    kept = tmp_path / "kept.txt"
    kept.write_bytes(b"theirs\r\n")
    with pytest.raises(RuntimeError), all_or_nothing():
        atomic_write(kept, "ours\n")
        atomic_write(tmp_path / "new/deep/file.txt", "x")
        make_dir(tmp_path / "empty/dir")
        append_line(tmp_path / "log.txt", "one")
        with all_or_nothing():  # an inner block is part of the outer one
            atomic_write(tmp_path / "inner.txt", "y")
        raise RuntimeError("a later step failed")
    assert kept.read_bytes() == b"theirs\r\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]


def test_all_or_nothing_keeps_what_a_finished_block_wrote(tmp_path: Path) -> None:
    from bot.core.atomic import all_or_nothing, atomic_write

    with all_or_nothing() as journal:
        atomic_write(tmp_path / "a.txt", "a")
    assert (tmp_path / "a.txt").read_text() == "a"
    assert journal.touched == [tmp_path / "a.txt"]
