"""Building blocks of the hook tests: RFD texts, staged commits, running a hook's main().

Every test works on a real git repository (the ``git_repo`` fixture of conftest.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from tests.conftest import git

STATE = "docs/rfd/.state"
SECTIONS = (
    "Motivation",
    "Design",
    "Drawbacks",
    "Alternatives",
    "Non-Goals",
    "Risks and Open Questions",
)
"""The sections the Design template requires, besides Summary and Implementation Plan."""

Files = Mapping[str, "str | None"]
"""Repository-relative path → text (None: delete it)."""


def rfd(
    rfd_id: str = "001",
    status: str = "Draft",
    *,
    title: str = "Alpha",
    requires: str = "",
    extends: str = "",
    phases: int = 2,
    extra: str = "",
) -> str:
    """An RFD with a valid header and ``phases`` phases in its Implementation Plan."""
    header = [
        f"# RFD {rfd_id}: {title}",
        "",
        f"- **Status**: {status}",
        "- **Category**: Design",
        "- **Authors**: Ada Lovelace <ada@example.com>",
        "- **Date**: 2026-01-15",
    ]
    if requires:
        header.append(f"- **Requires**: {requires}")
    if extends:
        header.append(f"- **Extends**: {extends}")
    plan = "".join(f"### Phase {n}: Step {n}\n\nDo step {n}.\n\n" for n in range(1, phases + 1))
    sections = "".join(f"## {name}\n\n{name} of {title}.\n\n" for name in SECTIONS)
    return "\n".join(header) + (
        f"\n\n## Summary\n\n{title} in one line.\n\n{extra}{sections}"
        f"## Implementation Plan\n\n{plan or 'Nothing planned yet.'}\n"
    )


def plan_json(phases: int = 2) -> str:
    return json.dumps(
        [{"title": f"Step {n}", "description": f"Do step {n}."} for n in range(1, phases + 1)],
        indent=2,
    )


def write(repo: Path, files: Files) -> list[str]:
    """Write (or delete) ``files`` and stage them; the paths written."""
    for path, text in files.items():
        target = repo / path
        if text is None:
            git(repo, "rm", "-q", "--cached", "--ignore-unmatch", "--", path)
            target.unlink(missing_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        git(repo, "add", "--", path)
    return [p for p, t in files.items() if t is not None]


def commit(repo: Path, files: Files, message: str = "change") -> str:
    write(repo, files)
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


def run_hook(
    main: Callable[[Sequence[str] | None], int],
    repo: Path,
    args: Sequence[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str]:
    """Run a hook's ``main`` in ``repo`` as pre-commit would; its exit code and output."""
    monkeypatch.chdir(repo)
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def staged(repo: Path) -> list[str]:
    """The files pre-commit would pass: staged, not deleted."""
    out = git(repo, "diff", "--cached", "--name-only", "--diff-filter=ACMRT", "-z")
    return [p for p in out.split("\0") if p]
