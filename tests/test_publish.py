"""Publishing a draft (Draft → Discussion) through ``rfd promote``, in real git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.main import main
from tests.conftest import git, rfd_text, write_rfd


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


def snapshot(repo: Path) -> dict[str, bytes]:
    """Every file of the work tree (outside .git) and its bytes."""
    return {
        p.relative_to(repo).as_posix(): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(repo).parts
    }


def committed_draft(repo: Path) -> Path:
    write_rfd(repo, "001-base.md", rfd_text("001", "Base"))
    draft = write_rfd(repo, "drafts/D1-queue.md", rfd_text("D1", "Queue", "Draft"))
    (repo / "docs/rfd/.state/D1").mkdir(parents=True)
    (repo / "docs/rfd/.state/D1/explore.md").write_text("research\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "draft")
    return draft


def test_a_state_directory_in_the_way_stops_promotion_before_anything_changes(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    committed_draft(git_repo)
    stale = git_repo / "docs/rfd/.state/002"
    stale.mkdir()
    (stale / "explore.md").write_text("left over from a deleted RFD 002\n")
    before, status = snapshot(git_repo), git(git_repo, "status", "--short")
    assert run(git_repo, "promote", "D1") == 1
    err = capsys.readouterr().err
    assert "docs/rfd/.state/002/ exists already" in err
    assert "delete docs/rfd/.state/002/" in err and "then retry" in err
    assert snapshot(git_repo) == before
    assert git(git_repo, "status", "--short") == status


def test_a_file_in_the_way_of_the_new_name_stops_promotion_before_anything_changes(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    committed_draft(git_repo)
    (git_repo / "docs/rfd/002-queue.md").mkdir()  # not a file: discovery does not list it
    before = snapshot(git_repo)
    assert run(git_repo, "promote", "D1") == 1
    assert "docs/rfd/002-queue.md is in the way" in capsys.readouterr().err
    assert snapshot(git_repo) == before


def test_a_published_draft_keeps_its_relative_links_working(git_repo: Path) -> None:
    write_rfd(git_repo, "001-base.md", rfd_text("001", "Base"))
    write_rfd(git_repo, "drafts/D2-other.md", rfd_text("D2", "Other", "Draft"))
    body = (
        "See [RFD 001](../001-base.md#design), ![diagram](../img/flow.png), "
        "[the other draft](D2-other.md), [itself](D1-queue.md#summary), "
        "[site](https://example.org/x.md) and [top](#summary).\n\n"
        '[ref]: ../001-base.md "Base"\n\n'
        "```\n[example](../001-base.md)\n```\n"
    )
    draft = write_rfd(git_repo, "drafts/D1-queue.md", rfd_text("D1", "Queue", "Draft") + body)
    assert run(git_repo, "promote", "D1") == 0
    text = (git_repo / "docs/rfd/002-queue.md").read_text()
    assert not draft.exists()
    assert (
        "See [RFD 001](001-base.md#design), ![diagram](img/flow.png), "
        "[the other draft](drafts/D2-other.md), [itself](002-queue.md#summary), "
        "[site](https://example.org/x.md) and [top](#summary).\n\n"
        '[ref]: 001-base.md "Base"\n\n'
        "```\n[example](../001-base.md)\n```\n"
    ) in text
    expected = rfd_text("D1", "Queue", "Draft").replace("# RFD D1:", "# RFD 002:")
    expected = expected.replace("**Status**: Draft", "**Status**: Discussion")
    assert text.startswith(expected)  # nothing but the heading, status and targets changed


def test_links_to_a_published_draft_follow_it_from_every_directory(git_repo: Path) -> None:
    write_rfd(git_repo, "001-base.md", rfd_text("001", "Base") + "[q](drafts/D1-queue.md)\n")
    write_rfd(
        git_repo, "drafts/D2-other.md", rfd_text("D2", "Other", "Draft") + "[q](D1-queue.md)\n"
    )
    write_rfd(git_repo, "drafts/D1-queue.md", rfd_text("D1", "Queue", "Draft"))
    assert run(git_repo, "promote", "D1") == 0
    assert (git_repo / "docs/rfd/001-base.md").read_text().endswith("[q](002-queue.md)\n")
    other = (git_repo / "docs/rfd/drafts/D2-other.md").read_text()
    assert other.endswith("[q](../002-queue.md)\n")


def test_draft_numbers_are_never_reused_after_promotion(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(git_repo, "D1-queue.md", rfd_text("D1", "Queue", "Draft"))
    assert run(git_repo, "promote", "D1") == 0
    assert (git_repo / "docs/rfd/.state/001/draft-id").read_text() == "D1\n"
    assert run(git_repo, "new", "design", "Another idea") == 0
    assert (git_repo / "docs/rfd/D2-another-idea.md").exists()
    assert not list((git_repo / "docs/rfd").glob("D1-*"))
    assert "created RFD D2" in capsys.readouterr().out


def test_a_left_over_draft_state_directory_keeps_its_number(git_repo: Path) -> None:
    (git_repo / "docs/rfd/.state/D4").mkdir(parents=True)  # its draft file was deleted
    assert run(git_repo, "new", "design", "Fresh") == 0
    assert (git_repo / "docs/rfd/D5-fresh.md").exists()


def test_new_transliterates_accented_titles(git_repo: Path) -> None:
    assert run(git_repo, "new", "design", "Café résumé") == 0
    path = git_repo / "docs/rfd/D1-cafe-resume.md"
    assert path.read_text().startswith("# RFD D1: Café résumé\n")


def test_new_refuses_a_title_with_nothing_to_name_the_file(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(git_repo, "new", "design", "日本語") == 1
    assert "no letters or digits" in capsys.readouterr().err
    assert not (git_repo / "docs/rfd").exists() or not list((git_repo / "docs/rfd").glob("*.md"))


def test_a_broken_rfd_elsewhere_does_not_stop_promotion_half_way(git_repo: Path) -> None:
    broken = git_repo / "docs/rfd/003-broken.md"
    write_rfd(git_repo, "D1-queue.md", rfd_text("D1", "Queue", "Draft"))
    broken.write_bytes(b"# RFD 003: Broken\n\xff see RFD D1\n")
    assert run(git_repo, "promote", "D1") == 0
    assert (git_repo / "docs/rfd/004-queue.md").exists()
    assert broken.read_bytes() == b"# RFD 003: Broken\n\xff see RFD D1\n"


def test_references_rewritten_on_publication_keep_crlf_line_endings(git_repo: Path) -> None:
    other = write_rfd(git_repo, "001-base.md", "")
    text = rfd_text("001", "Base", requires="[RFD D1](D1-queue.md)")
    other.write_bytes(text.replace("\n", "\r\n").encode())
    write_rfd(git_repo, "D1-queue.md", rfd_text("D1", "Queue", "Draft"))
    assert run(git_repo, "promote", "D1") == 0
    after = other.read_bytes()
    assert b"RFD 002" in after and b"D1" not in after
    assert b"\n" not in after.replace(b"\r\n", b"")  # only the reference changed, CRLF kept


def test_a_published_header_keeps_its_back_links_to_published_rfds_only(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Draft D1 is required by RFD 001 and by draft D2, and says so.  Published, its header
    names no draft; D2 adds itself back under its new number when it is published (the RFD
    keeps `Required by` itself, though the repository's settings do not list the field)."""
    required = "- **Required by**: [RFD 001], [RFD D2](D2-other.md)\n"
    draft = rfd_text("D1", "Queue", "Draft").replace("- **Date**", required + "- **Date**")
    write_rfd(git_repo, "drafts/D1-queue.md", draft)
    write_rfd(git_repo, "001-base.md", rfd_text("001", "Base", requires="[RFD D1]"))
    write_rfd(git_repo, "drafts/D2-other.md", rfd_text("D2", "Other", "Draft", requires="[RFD D1]"))
    assert run(git_repo, "promote", "D1") == 0
    published = (git_repo / "docs/rfd/002-queue.md").read_text()
    assert "- **Required by**: [RFD 001]\n" in published
    assert run(git_repo, "promote", "D2") == 0
    published = (git_repo / "docs/rfd/002-queue.md").read_text()
    assert "- **Required by**: [RFD 001], [RFD 003](003-other.md)\n" in published
    capsys.readouterr()
    assert run(git_repo, "lint") == 0, capsys.readouterr().out
