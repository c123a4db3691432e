"""``rfd lint`` keeps what it found between runs (bot.lifecycle.lint_cache) and never reports
a stale result: real repositories, real files, the real command."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot
from bot.cli.main import main as rfd
from bot.lifecycle import lint as lint_rules
from bot.lifecycle import lint_cache, lint_corpus
from bot.state import store
from tests.hooks_support import STATE, commit, plan_json, write
from tests.hooks_support import rfd as rfd_file

A, B = "docs/rfd/001-alpha.md", "docs/rfd/002-beta.md"
S = f"{STATE}/001"
CACHE = Path(".git/rfd-bot/lint-cache.json")


class Reads:
    """How many state directories and RFDs a run checked itself (not from the cache)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.state = self.docs = 0
        snapshot, own = store.Snapshot, lint_rules.own_findings

        def counted_snapshot(*args: object, **kwargs: object) -> store.Snapshot:
            self.state += 1
            return snapshot(*args, **kwargs)  # type: ignore[arg-type]

        def counted_own(*args: object, **kwargs: object) -> object:
            self.docs += 1
            return own(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(store, "Snapshot", counted_snapshot)
        monkeypatch.setattr(lint_corpus, "own_findings", counted_own)

    def take(self) -> tuple[int, int]:
        counts, self.state, self.docs = (self.state, self.docs), 0, 0
        return counts


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test count as settled (no wait of two seconds before a run)."""
    monkeypatch.setattr(lint_cache, "SETTLED_NS", 0)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Reads:
    return Reads(monkeypatch)


@pytest.fixture
def lint(git_repo: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[LintRun]:
    yield LintRun(git_repo, capsys)


class LintRun:
    def __init__(self, repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.repo, self.capsys = repo, capsys

    def __call__(self, *args: str) -> tuple[int, str]:
        self.capsys.readouterr()
        code = rfd(["-C", str(self.repo), "lint", *args])
        return code, self.capsys.readouterr().out


def _same_size_edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` (as long) and put the modification time back."""
    assert len(old) == len(new)
    before = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


BROKEN = {
    A: rfd_file(status="Accepted").replace("2026-01-15", "15/01/2026"),  # RFD004
    f"{S}/plan.json": plan_json(2),
    f"{S}/phases/9.md": "Phase nine.\n",  # no such phase
    f"{S}/reviews/my-notes.md": "# notes\n",  # not named by its timestamp
}


def test_a_second_run_reports_the_same_from_the_cache(
    git_repo: Path, lint: LintRun, reads: Reads, settled: None
) -> None:
    commit(git_repo, {**BROKEN, B: rfd_file("002", "Discussion", title="Beta")})
    first = lint()
    assert first[0] == 1 and "RFD004" in first[1] and "phases/9.md" in first[1]
    assert reads.take() == (1, 2)
    assert (git_repo / CACHE).is_file()
    assert lint() == first
    assert reads.take() == (0, 0)  # nothing read again: every result came from the cache
    assert lint("--no-cache") == first
    assert reads.take() == (1, 2)


def test_an_edit_that_keeps_size_and_modification_time_is_seen(
    git_repo: Path, lint: LintRun, settled: None
) -> None:
    """The change time (which no program sets back) is part of what a state directory is
    kept by; an RFD's text is read every run and kept by its digest."""
    commit(git_repo, {A: rfd_file(status="Accepted"), f"{S}/plan.json": plan_json(2)})
    assert lint()[0] == 0
    _same_size_edit(git_repo / S / "plan.json", '"title"', '"titel"')
    code, out = lint()
    assert code == 1 and f"{S}/plan.json" in out
    _same_size_edit(git_repo / S / "plan.json", '"titel"', '"title"')
    assert lint()[0] == 0
    _same_size_edit(git_repo / A, "Category**: Design", "Category**: Desigh")
    code, out = lint()
    assert code == 1 and "RFD005" in out


@pytest.mark.parametrize(
    ("before", "change", "expected"),
    [
        pytest.param(  # an RFD another requires is deleted: the other one's text is the same
            {A: rfd_file(requires="[RFD 002]"), B: rfd_file("002", title="Beta")},
            {B: None},
            "RFD008",
            id="required-rfd-deleted",
        ),
        pytest.param(  # a back-link no longer returned
            {
                A: rfd_file(extra="").replace(
                    "- **Date**: 2026-01-15", "- **Date**: 2026-01-15\n- **Required by**: [RFD 002]"
                ),
                B: rfd_file("002", title="Beta", requires="[RFD 001]"),
            },
            {B: rfd_file("002", title="Beta")},
            "RFD014",
            id="back-link-dropped",
        ),
        pytest.param(  # a link definition's target removed
            {A: rfd_file(extra="[spec]: ../../spec.md\n\n"), "spec.md": "the spec\n"},
            {"spec.md": None},
            "RFD015",
            id="link-target-deleted",
        ),
        pytest.param(  # a second file with the same id
            {A: rfd_file()},
            {"docs/rfd/001-again.md": rfd_file(title="Again")},
            "used by 2 files",
            id="duplicate-id",
        ),
        pytest.param(  # the RFD of a state directory deleted
            {A: rfd_file(status="Accepted"), B: rfd_file("002"), f"{STATE}/002/explore.md": "x\n"},
            {B: None},
            "state for RFD 002, which has no RFD file",
            id="state-orphaned",
        ),
    ],
)
def test_rules_across_files_see_a_change_elsewhere(
    git_repo: Path,
    lint: LintRun,
    settled: None,
    before: dict[str, str],
    change: dict[str, str | None],
    expected: str,
) -> None:
    commit(git_repo, before)
    code, out = lint()
    assert code == 0, out
    write(git_repo, change)
    code, out = lint()
    assert code == 1 and expected in out, out


def test_a_new_configuration_or_rfd_bot_release_starts_afresh(
    git_repo: Path,
    lint: LintRun,
    reads: Reads,
    settled: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    commit(git_repo, {A: rfd_file(status="Accepted"), f"{S}/plan.json": plan_json(2)})
    assert lint()[0] == 0
    reads.take()
    monkeypatch.setattr(bot, "__version__", "99.0.0")
    assert lint()[0] == 0
    assert reads.take() == (1, 1)
    write(git_repo, {".github/rfd.toml": '[lint.required_sections]\ndesign = ["Glossary"]\n'})
    code, out = lint()
    assert code == 1 and "RFD006" in out and "Glossary" in out


def test_a_change_to_rfd_bots_own_files_starts_afresh(
    tmp_path: Path, git_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A development checkout changes code without a new version: every source file counts."""
    from bot.config.load import load

    package = tmp_path / "pkg"
    (package / "lifecycle").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "lifecycle" / "lint.py").write_text("RULES = ()\n", encoding="utf-8")
    monkeypatch.setattr(bot, "__file__", str(package / "__init__.py"))
    cfg = load(git_repo).config
    before = lint_cache.setting_key(git_repo, cfg)
    assert lint_cache.setting_key(git_repo, cfg) == before
    (package / "lifecycle" / "lint.py").write_text("RULES = (1,)\n", encoding="utf-8")
    assert lint_cache.setting_key(git_repo, cfg) != before


def test_a_damaged_cache_is_ignored_and_rewritten(
    git_repo: Path, lint: LintRun, settled: None
) -> None:
    commit(git_repo, BROKEN)
    first = lint()
    path = git_repo / CACHE
    kept = json.loads(path.read_text(encoding="utf-8"))
    kept["docs"] = {doc: [digest, "not rows"] for doc, (digest, _) in kept["docs"].items()}
    kept["state"] = {
        name: [*entry[:2], [["no-such-kind", "x"]]] for name, entry in kept["state"].items()
    }
    shapeless = {
        **kept,
        "docs": dict.fromkeys(kept["docs"], 5),
        "state": {name: [1] for name in kept["state"]},
    }
    for damaged in (json.dumps(kept), json.dumps(shapeless), "{not json", "[]", ""):
        path.write_text(damaged, encoding="utf-8")
        assert lint() == first
    assert json.loads(path.read_text(encoding="utf-8"))["key"] == kept["key"]


def test_no_cache_neither_reads_nor_writes_it(git_repo: Path, lint: LintRun, settled: None) -> None:
    commit(git_repo, BROKEN)
    assert lint("--no-cache")[0] == 1
    assert not (git_repo / CACHE).exists()
    first = lint()
    path = git_repo / CACHE
    kept = json.loads(path.read_text(encoding="utf-8"))  # a cache that says all was well
    kept["state"] = {name: [*entry[:2], []] for name, entry in kept["state"].items()}
    kept["docs"] = {doc: [digest, []] for doc, (digest, _) in kept["docs"].items()}
    path.write_text(json.dumps(kept), encoding="utf-8")
    assert lint()[0] == 0  # it is read (which is why it must never be wrong) ...
    assert lint("--no-cache") == first  # ... and --no-cache does not read it


def test_state_changed_just_before_the_run_is_not_kept(git_repo: Path, lint: LintRun) -> None:
    """Like git's index: a file changed in the same clock tick as the run could change
    again unseen (every time as it was), so a directory changed in the last two seconds is
    checked but not kept."""
    commit(git_repo, {A: rfd_file(status="Accepted"), f"{S}/plan.json": plan_json(2)})
    assert lint()[0] == 0
    kept = json.loads((git_repo / CACHE).read_text(encoding="utf-8"))
    assert kept["state"] == {}
    assert list(kept["docs"]) == [A]  # an RFD's text is kept by its digest: no such race


def test_a_state_directory_holding_a_link_is_not_kept(
    git_repo: Path, lint: LintRun, settled: None
) -> None:
    commit(git_repo, {A: rfd_file(status="Accepted"), "elsewhere/plan.json": plan_json(2)})
    (git_repo / S).mkdir(parents=True)
    (git_repo / S / "plan.json").symlink_to(git_repo / "elsewhere" / "plan.json")
    assert lint()[0] == 0
    assert json.loads((git_repo / CACHE).read_text(encoding="utf-8"))["state"] == {}
    (git_repo / "elsewhere" / "plan.json").write_text("{broken", encoding="utf-8")
    code, out = lint()
    assert code == 1 and f"{S}/plan.json" in out


def test_the_cache_lives_in_the_git_directory_a_worktree_names(tmp_path: Path) -> None:
    (tmp_path / "main" / ".git" / "worktrees" / "w").mkdir(parents=True)
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / ".git").write_text(
        f"gitdir: {tmp_path / 'main' / '.git' / 'worktrees' / 'w'}\n", encoding="utf-8"
    )
    assert lint_cache.git_dir(tmp_path / "w") == tmp_path / "main" / ".git" / "worktrees" / "w"
    assert lint_cache.git_dir(tmp_path / "main") == tmp_path / "main" / ".git"
    assert lint_cache.git_dir(tmp_path) is None
