"""rfd-lint: header and structure of each RFD being committed (bot.lifecycle.lint does the
checking)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from hooks._tree import Tree
from hooks.rfd_lint import main
from tests.conftest import git
from tests.hooks_support import Files, commit, rfd, run_hook, staged, write

A = "docs/rfd/001-alpha.md"
B = "docs/rfd/002-beta.md"

# (case id, staged files, expected exit code, what the output must say)
CASES: list[tuple[str, Files, int, tuple[str, ...]]] = [
    ("valid RFD", {A: rfd()}, 0, ()),
    ("valid draft in drafts/", {"docs/rfd/drafts/D4-x.md": rfd("D4")}, 0, ()),
    ("requires an existing RFD", {A: rfd(requires="[RFD 002]"), B: rfd("002")}, 0, ()),
    ("not an RFD file", {"docs/rfd/README.md": "# RFDs\n", "notes/001-x.md": "junk\n"}, 0, ()),
    (
        "missing date",
        {A: rfd().replace("- **Date**: 2026-01-15\n", "")},
        1,
        (f"{A}:", "RFD001", "Date"),
    ),
    ("unknown status", {A: rfd(status="Pondering")}, 1, (f"{A}:3: RFD002",)),
    ("heading id differs from the file name", {A: rfd("003")}, 1, (f"{A}:1: RFD003",)),
    ("bad date", {A: rfd().replace("2026-01-15", "15/01/2026")}, 1, (f"{A}:6: RFD004",)),
    ("unknown category", {A: rfd().replace("Design", "Musing", 1)}, 1, (f"{A}:4: RFD005",)),
    (
        "required section missing",
        {
            A: rfd().replace("## Drawbacks", "## Downsides"),
            ".github/rfd.toml": '[lint.required_sections]\ndesign = ["Drawbacks"]\n',
        },
        1,
        ("RFD006 error: required section 'Drawbacks' is missing",),
    ),
    ("no section required unless configured", {A: rfd().replace("## Drawbacks", "## D")}, 0, ()),
    (
        "a rule turned off",
        {A: rfd(status="accepted"), ".github/rfd.toml": '[lint.severity]\nRFD013 = "off"\n'},
        0,
        (),
    ),
    (
        "a rule made a warning",
        {A: rfd(requires="[RFD 009]"), ".github/rfd.toml": '[lint.severity]\nRFD008 = "warning"\n'},
        0,
        (),
    ),
    (
        "status not written exactly",
        {A: rfd(status="accepted")},
        1,
        (f"{A}:3: RFD013 error: status 'accepted' is not written as 'Accepted'",),
    ),
    (
        "a Requires cycle",
        {A: rfd(requires="[RFD 002]"), B: rfd("002", requires="[RFD 001]")},
        1,
        (
            f"{A}:7: RFD012 error: Requires RFD 002 leads back to this RFD: "
            "RFD 001 → RFD 002 → RFD 001",
            f"{B}:7: RFD012",
        ),
    ),
    ("a template is not an RFD", {"docs/rfd/000-design-template.md": "# RFD 000: TITLE\n"}, 0, ()),
    (
        "requires a missing RFD",
        {A: rfd(requires="[RFD 009]")},
        1,
        (f"{A}:7: RFD008 error: Requires: RFD 009 does not exist",),
    ),
    (
        "published RFD links to a draft",
        {A: rfd(requires="[RFD D4]"), "docs/rfd/drafts/D4-x.md": rfd("D4")},
        1,
        ("RFD009",),
    ),
    ("no heading", {A: "just text\n"}, 1, (f"{A}", "RFD00")),
]


@pytest.mark.parametrize(
    ("files", "code", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rfd_files(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: Files,
    code: int,
    expected: tuple[str, ...],
) -> None:
    write(git_repo, files)
    got, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert got == code, out
    for text in expected:
        assert text in out
    if code:
        assert "\n  hint: " in out


def test_non_utf8_file_is_reported(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (git_repo / "docs/rfd").mkdir(parents=True)
    (git_repo / A).write_bytes(rfd().encode("utf-16"))
    code, out = run_hook(main, git_repo, [A], monkeypatch, capsys)
    assert (code, out.splitlines()[0]) == (1, f"{A}: is not UTF-8 text")


def test_other_rfds_are_known_by_name_only(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cost follows the commit: of all the RFDs only the committed one is opened, and
    those its Requires lead to (a cycle would come back through them)."""
    commit(git_repo, {f"docs/rfd/{n:03d}-x.md": rfd(f"{n:03d}") for n in range(2, 40)})
    (git_repo / "docs/rfd/003-x.md").write_bytes(b"\xff\xfe not text")  # broken, not committed
    write(git_repo, {A: rfd(requires="[RFD 002], [RFD 003]")})
    opened: list[str] = []
    real = Tree.read_many

    def spy(self: Tree, paths: Iterable[str]) -> dict[str, bytes | None]:
        paths = list(paths)
        opened.extend(paths)
        return real(self, paths)

    monkeypatch.setattr(Tree, "read_many", spy)
    assert run_hook(main, git_repo, [A], monkeypatch, capsys) == (0, "")
    assert sorted(set(opened)) == [A, "docs/rfd/002-x.md", "docs/rfd/003-x.md"]


def test_all_files_lints_every_rfd(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {A: rfd(), B: rfd("007"), "src/main.py": "print()\n"})
    files = [A, B, "src/main.py", "README.md"]
    code, out = run_hook(main, git_repo, files, monkeypatch, capsys)
    assert code == 1
    assert out.startswith(f"{B}:1: RFD003")
    assert A not in out


def test_configured_directory(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {".github/rfd.toml": '[rfd]\ndir = "design/rfcs"\n'})
    write(git_repo, {"design/rfcs/001-a.md": rfd("002"), A: rfd("003")})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1
    assert "design/rfcs/001-a.md:1: RFD003" in out
    assert "docs/rfd" not in out


def test_pre_push_names_the_commit_of_each_problem(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = commit(git_repo, {"docs/rfd/001-a.md": rfd()})
    bad = commit(git_repo, {"docs/rfd/001-a.md": rfd().replace("2026-01-15", "15 Jan")}, "Date")
    head = commit(git_repo, {"docs/rfd/002-b.md": rfd("002", title="B")}, "Add B")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", head)
    code, out = run_hook(
        main, git_repo, ["docs/rfd/001-a.md", "docs/rfd/002-b.md"], monkeypatch, capsys
    )
    assert code == 1
    short = git(git_repo, "rev-parse", "--short", bad).strip()
    assert "docs/rfd/001-a.md:6: RFD004" in out and f'\n  in commit {short} "Date"\n' in out
    assert out.count("in commit") == 1


OXIDE_RFD = """:showtitle:
:toc: left
:state: discussion
:discussion: https://github.com/oxidecomputer/rfd/pull/40
:authors: Bryan Cantrill <bryan@oxide.example>
:labels: hardware

= RFD 12 Rack power budget
{authors}

== Background

A rack has 15 kW.
"""


def test_an_oxide_asciidoc_rfd_is_checked_in_its_own_syntax(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An Oxide ``rfd/0011/README.adoc`` whose title names another RFD fails the commit, and
    the hint is an AsciiDoc title in the team's own form (no padding, no colon), naming the
    directory that gives the id."""
    commit(git_repo, {".github/rfd.toml": '[rfd]\ndir = "rfd"\n'})
    write(git_repo, {"rfd/0011/README.adoc": OXIDE_RFD, "rfd/0011/power.svg": "<svg/>\n"})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert (code, out.splitlines()) == (
        1,
        [
            "rfd/0011/README.adoc:8: RFD003 error: title says RFD 12 but the directory name "
            "says RFD 0011",
            "  hint: make the title '= RFD 11 Rack power budget' or rename the directory",
        ],
    )
    write(git_repo, {"rfd/0011/README.adoc": OXIDE_RFD.replace("RFD 12", "RFD 11")})
    assert run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys) == (0, "")


def test_a_markdown_heading_keeps_its_own_padding_in_the_hint(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(git_repo, {A: rfd("003")})
    code, out = run_hook(main, git_repo, [A], monkeypatch, capsys)
    assert (code, out.splitlines()[:2]) == (
        1,
        [
            f"{A}:1: RFD003 error: heading says RFD 003 but the file name says RFD 001",
            "  hint: make the heading '# RFD 001: Alpha' or rename the file",
        ],
    )
