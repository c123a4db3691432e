"""`rfd init --github`: the bot's workflow, pinned to a release, for the repository's branch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli.main import main
from bot.lifecycle import workflow_setup
from tests.conftest import git

ROOT = Path(__file__).resolve().parent.parent
SHA = "0123456789abcdef0123456789abcdef01234567"


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


def test_the_template_is_this_repositorys_own_workflow() -> None:
    """One workflow: what `init --github` writes is what rfd-bot runs on itself."""
    own = (ROOT / ".github" / "workflows" / "rfd.yml").read_text(encoding="utf-8")
    rendered = workflow_setup.render("$/.github/actions/rfd", "main")
    strip = [line for line in own.splitlines() if not line.startswith("#")]
    assert [line for line in rendered.splitlines() if not line.startswith("#")] == strip


def test_init_github_writes_the_workflow_pinned_and_for_the_default_branch(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    origin = git_repo.parent / "origin.git"
    git(git_repo.parent, "init", "-q", "--bare", "-b", "trunk", str(origin))
    git(git_repo, "push", "-q", str(origin), "HEAD:refs/heads/trunk")
    git(git_repo, "remote", "add", "origin", str(origin))
    git(git_repo, "fetch", "-q", "origin")
    git(git_repo, "remote", "set-head", "origin", "trunk")
    argv = ("init", "--github", "--action-repo", "acme/rfd-bot", "--action-ref", SHA)
    assert run(git_repo, *argv) == 0
    flow: dict[Any, Any] = yaml.safe_load((git_repo / ".github/workflows/rfd.yml").read_text())
    uses = {s["uses"] for job in flow["jobs"].values() for s in job["steps"] if "rfd" in s["uses"]}
    assert uses == {f"acme/rfd-bot/.github/actions/rfd@{SHA}"}
    assert flow[True]["push"]["branches"] == ["trunk"]  # YAML reads `on:` as True
    comment = flow["jobs"]["comment"]["steps"][-1]["with"]
    assert comment["openai-api-key"] == "${{ secrets.OPENAI_API_KEY }}"
    out = capsys.readouterr().out
    assert "Allow GitHub Actions to create and approve pull requests" in out
    assert "`rfd:review` and `rfd:accept`" in out
    assert run(git_repo, *argv) == 0  # a second run keeps the file
    assert "kept .github/workflows/rfd.yml" in capsys.readouterr().out


def test_without_a_known_source_it_says_what_to_give(
    git_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workflow_setup, "installed_source", lambda: None)
    assert run(git_repo, "init", "--github") == 1
    assert "--action-repo OWNER/rfd-bot" in capsys.readouterr().err
    assert not (git_repo / ".github/workflows/rfd.yml").exists()


def test_a_git_install_pins_the_commit_it_came_from(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    class Dist:
        def read_text(self, name: str) -> str:
            url = {"url": "https://github.com/acme/rfd-bot.git", "vcs_info": {"commit_id": SHA}}
            return json.dumps(url)

    monkeypatch.setattr(workflow_setup.metadata, "distribution", lambda name: Dist())
    assert workflow_setup.source(None, None, "0.1.0").action == (
        f"acme/rfd-bot/.github/actions/rfd@{SHA}"
    )
    assert workflow_setup.source("acme/fork", None, "0.1.0").ref == "v0.1.0"


@pytest.mark.parametrize("repo", ["acme", "a/b/c", "acme/rfd bot", "../x", "acme/.."])
def test_a_bad_action_repo_is_refused(repo: str) -> None:
    from bot.core.errors import ConfigError

    with pytest.raises(ConfigError, match="does not look like OWNER/NAME"):
        workflow_setup.source(repo, None, "0.1.0")


def test_the_readmes_pictures_exist_and_its_diagram_has_every_status() -> None:
    import re

    from bot.model.status import Status

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert ".github/images/bot-on-a-pr.png" in pictures
    assert all((ROOT / p).is_file() and p.startswith(".github/images/") for p in pictures)
    diagram = readme[
        readme.index("```mermaid") : readme.index("```", readme.index("```mermaid") + 3)
    ]
    assert "flowchart TD" in diagram
    assert all(f"<b>{s.value}</b>" in diagram for s in Status)


def test_the_written_workflow_is_as_safe_as_our_own(tmp_path: Path) -> None:
    """zizmor finds nothing in what `rfd init --github` writes (pinned to a commit)."""
    import shutil
    import subprocess
    import sys

    exe = shutil.which("zizmor") or str(Path(sys.executable).parent / "zizmor")
    if not Path(exe).exists():
        pytest.skip("zizmor is not installed")
    flows = tmp_path / ".github" / "workflows"
    flows.mkdir(parents=True)
    action = workflow_setup.Source("acme/rfd-bot", SHA).action
    (flows / "rfd.yml").write_text(workflow_setup.render(action, "trunk"), encoding="utf-8")
    done = subprocess.run([exe, "--offline", str(tmp_path / ".github")], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_init_github_creates_the_labels_with_a_token(
    git_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cassette: POST rfd:review (created), POST rfd:accept (422 already_exists)."""
    git(git_repo, "remote", "add", "origin", "https://github.com/Codertocat/Hello-World.git")
    monkeypatch.setenv("RFD_GITHUB_TOKEN", "ghs_test")
    monkeypatch.setenv("GITHUB_API_URL", "https://api.github.com")
    assert run(git_repo, "init", "--github", "--action-repo", "acme/rfd-bot") == 0
    out = capsys.readouterr().out
    assert "created label rfd:review on Codertocat/Hello-World" in out
    assert "label rfd:accept exists on Codertocat/Hello-World already" in out
    assert "create the labels" not in out
