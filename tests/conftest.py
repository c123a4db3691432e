"""Shared fixtures: tests cannot touch the real world by accident.

* HOME, config dirs and git's global config point into a temp dir;
* API keys and tokens are removed from the environment;
* the network is blocked (``--block-network``) and cassettes replay only
  (pytest-recording's default record mode ``none``);
* property-based tests have no per-example deadline: they check behaviour, and
  timing on a shared machine is no behaviour (speed lives in ``tests/bench``).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("rfd", deadline=None)
settings.load_profile("rfd")

SECRET_ENV = (
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "RFD_GITHUB_TOKEN",
    "GEMINI_API_KEY",
    "OPENROUTER_API_KEY",
)


@pytest.fixture(autouse=True)
def _isolated_env(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("RFD_CONFIG_HOME", raising=False)
    gitconfig = home / ".gitconfig"
    gitconfig.write_text(
        "[user]\n\tname = Test User\n\temail = test@example.com\n"
        "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"
    )
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in SECRET_ENV:
        monkeypatch.delenv(name, raising=False)
    for name in (
        "GITHUB_EVENT_NAME",
        "GITHUB_EVENT_PATH",
        "GITHUB_ACTIONS",
        "RFD_DIR",
        "RFD_PROVIDER",
        "RFD_PLUGINS",
        "RFD_BASE_URL",
        "PRE_COMMIT_FROM_REF",
        "PRE_COMMIT_TO_REF",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    from bot.model.status import use

    use({})  # no repository's status words carried from one test to the next


@pytest.fixture(scope="module")
def vcr_config() -> dict[str, Any]:
    return {
        "filter_headers": [
            ("authorization", "REDACTED"),
            ("x-api-key", "REDACTED"),
            ("cookie", None),
        ],
        "decode_compressed_response": True,
        "match_on": ["method", "scheme", "host", "port", "path", "query", "body"],
    }


@pytest.fixture(scope="module")
def vcr_cassette_dir(request: pytest.FixtureRequest) -> str:
    root = Path(__file__).resolve().parent.parent / "cassettes"
    return str(root / request.module.__name__.split(".")[-1])


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` and return its stdout (tests use real repositories)."""
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="session", autouse=True)
def _worlds_built_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Git worlds are built once per test run and copied into each test (tests/worlds.py)."""
    from tests.worlds import cache_in

    cache_in(tmp_path_factory.mktemp("worlds"))


def _initial_commit(into: Path) -> None:
    repo = into / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text("# test repo\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "initial")


@pytest.fixture
def git_repo(tmp_path: Path) -> Iterator[Path]:
    """An empty git repository with one initial commit."""
    from tests.worlds import copied

    copied(tmp_path, "git_repo", _initial_commit)
    yield tmp_path / "repo"


@pytest.fixture
def rfd_repo(git_repo: Path) -> Path:
    """A git repository set up by ``rfd init --example`` and committed."""
    from bot.lifecycle import repo_setup

    repo_setup.init(git_repo, example=True)
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-q", "-m", "rfd init --example")
    return git_repo


def write_rfd(repo: Path, name: str, text: str) -> Path:
    """Write an RFD file under docs/rfd/ of ``repo``."""
    path = repo / "docs" / "rfd" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def rfd_text(
    rid: str, title: str, status: str = "Discussion", *, requires: str = "", plan: str = ""
) -> str:
    """A small but complete design RFD."""
    header = f"- **Status**: {status}\n- **Category**: Design\n- **Authors**: A <a@x.org>\n"
    header += "- **Date**: 2026-01-02\n" + (f"- **Requires**: {requires}\n" if requires else "")
    phases = plan or (
        "### Phase 1: Schema\n\nAdd the table.\n\n### Phase 2: Worker\n\nProcess the rows.\n"
    )
    sections = "".join(
        f"## {name}\n\nWritten {name.lower()} text.\n\n"
        for name in (
            "Summary",
            "Motivation",
            "Design",
            "Drawbacks",
            "Alternatives",
            "Non-Goals",
            "Risks and Open Questions",
        )
    )
    return f"# RFD {rid}: {title}\n\n{header}\n{sections}## Implementation Plan\n\n{phases}"


# Used by the GitHub bot's tests (tests/github_world.py builds their world).
@pytest.fixture
def fixed_git_dates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits made in tests (the world's and the bot's) get fixed dates, hence fixed shas."""
    for name in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(name, "2026-11-22T02:00:00+00:00")


@pytest.fixture
def all_played(vcr: Any) -> Iterator[None]:
    """Every recorded exchange was made: the cassette is the exact list of requests."""
    yield
    assert vcr.all_played, f"requests not made: {len(vcr.data) - vcr.play_count}"


def bodies_sent(vcr: Any) -> list[str]:
    """The text of every comment, review or issue body the bot sent, in order: what users
    read.  Requests are matched on their body, so what was played is what the bot sent."""
    texts = []
    for index, (request, _) in enumerate(vcr.data):
        if not vcr.play_counts[index] or request.method == "GET" or not request.body:
            continue
        data = json.loads(request.body)
        if isinstance(data, dict) and isinstance(data.get("body"), str):
            texts.append(data["body"])
    return texts


def lines(text: str) -> list[str]:
    """The lines of a posted text a reader sees (hidden markers left out)."""
    return [line for line in text.splitlines() if line and not line.startswith("<!--")]
