"""One door to GitHub: only :mod:`bot.forge.github` imports PyGithub or sends a request.

Every other module reaches GitHub through the forge (``GitHubForge``) or the repository API
(``RepoApi``) it is handed, so retries, pacing, redaction and error translation happen in one
place.  Lazy imports and imports under ``TYPE_CHECKING`` count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
DOOR = "bot/forge/github.py"
RAW_REQUESTS = frozenset({"requestJsonAndCheck", "requestJson", "requestBlobAndCheck", "requester"})


def knocks(source: str) -> list[str]:
    """What in ``source`` talks to GitHub directly: PyGithub imports and raw requests."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if _pygithub(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and _pygithub(node.module or ""):
            found.append(f"{node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Attribute) and node.attr in RAW_REQUESTS:
            found.append(f"{node.lineno}: .{node.attr}")
    return found


def _pygithub(module: str) -> bool:
    return module == "github" or module.startswith("github.")


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("from github import Github", True),
        ("import github.Repository", True),
        ("def f():\n    from github import GithubException", True),
        ("if TYPE_CHECKING:\n    from github.Issue import Issue", True),
        ("api.requester.requestJsonAndCheck('POST', url)", True),
        ("from bot.github import router", False),
        ("from bot.forge.github import RepoApi", False),
        ("import githubkit", False),
    ],
)
def test_the_scan_sees_a_direct_request(source: str, caught: bool) -> None:
    assert bool(knocks(source)) is caught


def test_only_the_forge_talks_to_github() -> None:
    others = [
        f"{path.relative_to(CHECKOUT)}:{knock}"
        for package in ("bot", "hooks")
        for path in sorted((CHECKOUT / package).rglob("*.py"))
        if path.relative_to(CHECKOUT).as_posix() != DOOR
        for knock in knocks(path.read_text(encoding="utf-8"))
    ]
    assert others == [], f"reach GitHub through {DOOR} instead"


def test_the_door_is_where_the_requests_are() -> None:
    assert knocks((CHECKOUT / DOOR).read_text(encoding="utf-8"))
