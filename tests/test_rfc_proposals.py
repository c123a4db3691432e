"""RFC proposals as rust-lang/rfcs and emberjs/rfcs write them: ``text/0000-my-feature.md``,
one per pull request, several in flight at once.  They are listed, shown and linted as
proposals named by their slug (never as "RFD 0000", never as a clash of ids), ``rfd new``
writes one, and accepting one gives it its number (a git rename, said in the output)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.core.errors import AlreadyExists
from bot.lifecycle.accept import accept
from bot.lifecycle.publish import with_pull
from bot.lifecycle.workspace import Workspace
from hooks import rfd_lint, rfd_state, rfd_status
from tests.conftest import git
from tests.dialect_corpora import build_rfc, rfc_number
from tests.hooks_support import run_hook

HIGHEST = f"{rfc_number(29):04d}"
"""The highest RFC number of the corpus (RFCs are numbered by pull request: sparse)."""
NEXT = f"{rfc_number(29) + 1:04d}"
COLD = "text/0000-cold-storage-tier.md"
WARM = "text/0000-warm-cache.md"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Ember-style corpus, adopted, with two proposals in flight written by `rfd new`
    (each committed as its own pull request would add it)."""
    repo = build_rfc(tmp_path_factory.mktemp("corpus") / "rfcs")
    assert main(["-C", str(repo), "init"]) == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Adopt rfd-bot")
    for title in ("Cold storage tier", "Warm cache"):
        assert main(["-C", str(repo), "new", "design", title]) == 0
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"RFC: {title}")
    return repo


@pytest.fixture
def repo(pristine: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(pristine, tmp_path / "rfcs"))


def listed(repo: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, str]]:
    """`rfd list --json`: each row by its path (and no error listed)."""
    capsys.readouterr()
    assert main(["-C", str(repo), "list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == []
    return {r["path"]: r for r in data["rfds"]}


def run(repo: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["-C", str(repo), *argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_init_says_new_rfcs_are_proposals_numbered_on_accept(pristine: Path) -> None:
    config = (pristine / ".github/rfd.toml").read_text(encoding="utf-8")
    assert (
        "`rfd new` fills 0000-template.md (the RFC template), whatever the category — a "
        "proposal 0000-slug.md, numbered when it is accepted\n" in config
    )


def test_new_writes_a_proposal_beside_another_named_by_its_slug(
    tmp_path: Path, pristine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = Path(shutil.copytree(pristine, tmp_path / "rfcs"))
    code, said = run(repo, capsys, "new", "design", "Hot tier")
    assert code == 0
    assert "created proposal hot-tier: text/0000-hot-tier.md" in said
    assert "`rfd status hot-tier`" in said and "0000`" not in said
    text = (repo / "text/0000-hot-tier.md").read_text(encoding="utf-8")
    assert text.startswith("---\nstage: accepted\n") and "# Hot tier\n" in text
    assert (repo / COLD).is_file() and (repo / WARM).is_file()  # the others untouched


def test_list_shows_proposals_by_their_status_and_no_clash(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = listed(repo, capsys)
    assert len(rows) == 32
    assert (rows[COLD]["status"], rows[COLD]["title"]) == ("proposal", "Cold storage tier")
    assert (rows[WARM]["status"], rows[WARM]["stage"]) == ("proposal", "Proposal")
    code, said = run(repo, capsys, "list")
    assert code == 0 and "used by 2 files" not in said and "proposal" in said


def test_lint_and_the_hooks_pass_two_proposals(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, said = run(repo, capsys, "lint")
    assert code == 0, said
    assert "0000" not in said
    for hook in (rfd_lint.main, rfd_status.main, rfd_state.main):
        assert run_hook(hook, repo, [COLD, WARM], monkeypatch, capsys) == (0, "")


def test_status_names_a_proposal_by_its_slug_and_offers_accept(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, said = run(repo, capsys, "status", "warm-cache")
    assert code == 0
    lines = said.splitlines()
    assert lines[:2] == ["Proposal warm-cache: Warm cache", WARM]
    assert any(line.split() == ["Status:", "proposal"] for line in lines)
    assert "rfd accept warm-cache" in said
    assert "plan.json is missing" not in said  # no plan is expected of a proposal yet


def test_a_number_shared_by_proposals_asks_for_the_slug(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, said = run(repo, capsys, "status", "0000")
    assert code == 1
    assert "2 proposals have no number yet" in said
    assert "name the proposal by its slug" in said
    assert "cold-storage-tier" in said and "warm-cache" in said


def test_accept_gives_a_proposal_the_next_free_number_in_a_git_rename(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, said = run(repo, capsys, "accept", "cold-storage-tier")
    assert code == 0, said
    numbered = f"text/{NEXT}-cold-storage-tier.md"
    assert f"{COLD} is now RFD {NEXT} ({numbered})" in said
    assert git(repo, "status", "--short", "--", "text/0*").splitlines() == [
        f"R  {COLD} -> {numbered}"
    ]
    assert (repo / "text/.state" / NEXT / "plan.json").is_file()
    rows = listed(repo, capsys)
    assert (rows[numbered]["id"], rows[numbered]["status"]) == (NEXT, "accepted")
    assert rows[WARM]["status"] == "proposal"  # the other one is still in flight
    git(repo, "add", "-A")
    staged = git(repo, "diff", "--cached", "--name-only").split()
    for hook in (rfd_lint.main, rfd_status.main, rfd_state.main):
        assert run_hook(hook, repo, staged, monkeypatch, capsys)[0] == 0


def test_accept_refuses_a_number_that_is_taken_and_renames_nothing(repo: Path) -> None:
    ws = Workspace.open(repo)
    with pytest.raises(AlreadyExists) as refused:
        accept(ws, "warm-cache", number=int(HIGHEST))
    assert str(refused.value.message).startswith(
        f"cannot number {WARM} as RFD {HIGHEST}: text/{HIGHEST}-"
    )
    assert (repo / WARM).is_file()
    assert git(repo, "status", "--short") == ""


def test_accept_with_the_pull_requests_number(repo: Path) -> None:
    outcome = accept(Workspace.open(repo), "warm-cache", number=812)
    assert outcome.rfd_id == "0812"
    assert outcome.message.startswith(f"{WARM} is now RFD 0812 (text/0812-warm-cache.md); ")
    assert (repo / "text/0812-warm-cache.md").is_file() and not (repo / WARM).exists()


RUST_HEADER = """\
- Feature Name: `cold_storage`
- Start Date: 2026-11-20
- RFC PR: [rust-lang/rfcs#0000](https://github.com/rust-lang/rfcs/pull/0000)
- Rust Issue: [rust-lang/rust#0000](https://github.com/rust-lang/rust/issues/0000)

# Summary

- RFC PR: a list item of the body, not the header
"""


def test_the_pull_request_is_written_into_rusts_header_line_only() -> None:
    url = "https://github.com/rust-lang/rfcs/pull/3456"
    assert with_pull(RUST_HEADER, url) == RUST_HEADER.replace(
        "[rust-lang/rfcs#0000](https://github.com/rust-lang/rfcs/pull/0000)",
        f"[rust-lang/rfcs#3456]({url})",
    )


def test_a_pull_request_the_author_wrote_already_is_kept() -> None:
    filled = RUST_HEADER.replace("#0000](https://github.com/rust-lang/rfcs/pull/0000)", "#12](x)")
    assert with_pull(filled, "https://github.com/rust-lang/rfcs/pull/3456") == filled
    ember = "---\nstage: accepted\nprs:\n  accepted: https://github.com/acme/rfcs/pull/9\n---\n"
    assert with_pull(ember, "https://github.com/acme/rfcs/pull/10") == ember


def test_the_only_proposals_state_moves_with_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A review of the proposal, kept under `.state/0000/` while it had no number, is the
    numbered RFD's once accepted (with one proposal in flight, `0000` is its alone)."""
    git(repo, "rm", "-q", WARM)
    review = repo / "text/.state/0000/reviews/1700000000.md"
    review.parent.mkdir(parents=True)
    review.write_text("# Review\n\nLooks right.\n", encoding="utf-8")
    code, said = run(repo, capsys, "accept", "cold-storage-tier")
    assert code == 0, said
    moved = repo / "text/.state" / NEXT / "reviews/1700000000.md"
    assert moved.read_text(encoding="utf-8") == "# Review\n\nLooks right.\n"
    assert not (repo / "text/.state/0000").exists()
