from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.config.discovery import RfdFile, load_all, next_number, read, resolve, scan
from bot.config.load import Config, RfdSection
from bot.core.errors import AmbiguousId, FileNotFound, ParseError, ValidationError
from bot.model.ids import RfdId
from bot.model.status import Status

CFG = Config()


def rfd(number: str, status: str = "Discussion", title: str = "Title") -> str:
    return f"# RFD {number}: {title}\n\n- **Status**: {status}\n\n## Summary\n\nText.\n"


def write(root: Path, relative: str, text: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write(tmp_path, "docs/rfd/001-process.md", rfd("001", "Implemented"))
    write(tmp_path, "docs/rfd/045-layered-stack.md", rfd("045"))
    write(tmp_path, "docs/rfd/D32-tracing.md", rfd("D32", "Draft"))
    write(tmp_path, "docs/rfd/drafts/D7-notes.md", rfd("D7", "Draft"))
    write(tmp_path, "docs/rfd/README.md", "# RFDs\n")
    write(tmp_path, "docs/rfd/template.md", "x")
    write(tmp_path, "docs/rfd/.state/045/plan.json", "[]")
    (tmp_path / "docs/rfd/099-a-directory.md").mkdir()
    return tmp_path


def test_scan_lists_published_and_drafts_in_both_places(repo: Path) -> None:
    assert [(str(f.rfd_id), f.slug, f.path) for f in scan(repo, CFG)] == [
        ("001", "process", "docs/rfd/001-process.md"),
        ("045", "layered-stack", "docs/rfd/045-layered-stack.md"),
        ("D7", "notes", "docs/rfd/drafts/D7-notes.md"),
        ("D32", "tracing", "docs/rfd/D32-tracing.md"),
    ]


def test_scan_honours_the_configured_directories(tmp_path: Path) -> None:
    write(tmp_path, "rfcs/003-x.md", rfd("003"))
    write(tmp_path, "rfcs/wip/D1-y.md", rfd("D1", "Draft"))
    cfg = dataclasses.replace(CFG, rfd=RfdSection(dir="rfcs/", drafts_dir="wip"))
    assert [f.path for f in scan(tmp_path, cfg)] == ["rfcs/003-x.md", "rfcs/wip/D1-y.md"]


def test_scan_of_a_missing_directory_is_empty(tmp_path: Path) -> None:
    assert scan(tmp_path, CFG) == []


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("045", "docs/rfd/045-layered-stack.md"),
        ("45", "docs/rfd/045-layered-stack.md"),
        ("RFD 045", "docs/rfd/045-layered-stack.md"),
        ("1", "docs/rfd/001-process.md"),
        ("D32", "docs/rfd/D32-tracing.md"),
        ("d32", "docs/rfd/D32-tracing.md"),
        ("D7", "docs/rfd/drafts/D7-notes.md"),
        ("D32-tracing.md", "docs/rfd/D32-tracing.md"),
        ("docs/rfd/001-process.md", "docs/rfd/001-process.md"),
    ],
)
def test_resolve(repo: Path, query: str, path: str) -> None:
    assert resolve(query, scan(repo, CFG)).path == path


def test_resolve_none_lists_nearby_ids(repo: Path) -> None:
    with pytest.raises(FileNotFound) as err:
        resolve("44", scan(repo, CFG))
    assert err.value.message == "no RFD 044"
    assert err.value.alternatives[0].startswith("001")
    assert any(a.startswith("045  docs/rfd/045-layered-stack.md") for a in err.value.alternatives)
    assert "rfd list" in str(err.value)


def test_resolve_several_lists_candidates(repo: Path) -> None:
    write(repo, "docs/rfd/045-other.md", rfd("045"))
    with pytest.raises(AmbiguousId) as err:
        resolve("045", scan(repo, CFG))
    assert err.value.alternatives == ("docs/rfd/045-layered-stack.md", "docs/rfd/045-other.md")


def test_resolve_junk() -> None:
    with pytest.raises(ValidationError):
        resolve("latest", [])


@pytest.mark.parametrize(
    ("ids", "expected"),
    [([], 1), (["D1", "D9"], 1), (["001", "045", "D99"], 46), (["007", "003"], 8)],
)
def test_next_number(ids: list[str], expected: int) -> None:
    files = [RfdFile(RfdId.parse(i), "x", f"{i}-x.md") for i in ids]
    assert next_number(files) == expected


def test_read_keeps_crlf_and_parses(tmp_path: Path) -> None:
    write(tmp_path, "docs/rfd/002-x.md", rfd("002").replace("\n", "\r\n"))
    [file] = scan(tmp_path, CFG)
    document = read(tmp_path, file)
    assert document.status is Status.DISCUSSION
    assert document.path == "docs/rfd/002-x.md"
    assert "\r\n" in document.text


def test_read_non_utf8_names_file_and_line(tmp_path: Path) -> None:
    write(tmp_path, "docs/rfd/002-x.md", b"# RFD 002: T\n\n- **Status**: Dr\xe4ft\n")
    [file] = scan(tmp_path, CFG)
    with pytest.raises(ParseError) as err:
        read(tmp_path, file)
    assert str(err.value).startswith("docs/rfd/002-x.md:3: not valid UTF-8")
    assert "UTF-8" in (err.value.hint or "")


def test_read_unreadable_names_file(tmp_path: Path) -> None:
    file = RfdFile(RfdId.parse("3"), "gone", "docs/rfd/003-gone.md")
    with pytest.raises(ParseError) as err:
        read(tmp_path, file)
    assert err.value.path == "docs/rfd/003-gone.md"
    assert "cannot read" in err.value.message


def test_load_all_lists_the_good_and_reports_the_broken(repo: Path) -> None:
    write(repo, "docs/rfd/002-broken.md", "no heading here\n")
    write(repo, "docs/rfd/003-binary.md", b"\xff\xfe")
    write(repo, "docs/rfd/004-status.md", rfd("004", "Approved"))
    documents, errors = load_all(repo, CFG)
    assert [str(d.rfd_id) for d in documents] == ["001", "045", "D7", "D32"]
    assert sorted(e.path or "" for e in errors) == [
        "docs/rfd/002-broken.md",
        "docs/rfd/003-binary.md",
        "docs/rfd/004-status.md",
    ]


def test_load_all_reports_duplicate_ids_naming_both_files(repo: Path) -> None:
    write(repo, "docs/rfd/drafts/D32-copy.md", rfd("D32", "Draft"))
    documents, errors = load_all(repo, CFG)
    [error] = errors
    assert isinstance(error, AmbiguousId)
    assert "docs/rfd/D32-tracing.md" in error.message
    assert "docs/rfd/drafts/D32-copy.md" in error.message
    assert len(documents) == 5
