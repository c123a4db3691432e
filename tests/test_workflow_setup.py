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
    # the release tag of the installed version is that commit, said as the line's comment
    assert workflow_setup.source("acme/rfd-bot", None, "0.1.0").action == (
        f"acme/rfd-bot/.github/actions/rfd@{SHA} # v0.1.0"
    )


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
    action = workflow_setup.Source("acme/rfd-bot", SHA, tag="v1.2.0").action
    (flows / "rfd.yml").write_text(workflow_setup.render(action, "trunk"), encoding="utf-8")
    done = subprocess.run(
        [exe, "--offline", str(tmp_path / ".github")], capture_output=True, text=True
    )
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
    assert (
        run(git_repo, "init", "--github", "--action-repo", "acme/rfd-bot", "--action-ref", SHA) == 0
    )
    out = capsys.readouterr().out
    assert "created label rfd:review on Codertocat/Hello-World" in out
    assert "label rfd:accept exists on Codertocat/Hello-World already" in out
    assert "create the labels" not in out


def tree(repo: Path) -> dict[str, bytes]:
    """Every file of the working tree (``.git`` aside), with its bytes."""
    return {
        p.relative_to(repo).as_posix(): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(repo).parts[:1]
    }


def dirs(repo: Path) -> set[str]:
    return {p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_dir()}


def test_a_tag_without_a_known_commit_is_refused_and_nothing_written(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree(git_repo)
    argv = ("init", "--github", "--action-repo", "acme/rfd-bot", "--action-ref", "v1.2.0")
    assert run(git_repo, *argv) == 1
    err = capsys.readouterr().err
    assert "will not pin rfd-bot's action to 'v1.2.0'" in err
    assert "a tag can be moved to other code" in err and "unpinned-uses" in err
    assert "git ls-remote https://github.com/acme/rfd-bot refs/tags/v1.2.0" in err
    assert "--action-ref <full sha>" in err
    assert tree(git_repo) == before


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_a_tag_is_pinned_to_its_commit_with_a_token(
    git_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cassette: GET git/ref/tags/v1.2.0 (a commit), then the two labels (there)."""
    git(git_repo, "remote", "add", "origin", "https://github.com/Codertocat/Hello-World.git")
    monkeypatch.setenv("RFD_GITHUB_TOKEN", "ghp_test")
    argv = ("init", "--github", "--action-repo", "acme/rfd-bot", "--action-ref", "v1.2.0")
    assert run(git_repo, *argv) == 0
    out = capsys.readouterr().out
    assert f"pinned the action to {SHA}, the commit v1.2.0 points at, not to the tag" in out
    text = (git_repo / ".github/workflows/rfd.yml").read_text()
    jobs = len(yaml.safe_load(text)["jobs"])  # every job runs the bot once
    assert text.count(f"uses: acme/rfd-bot/.github/actions/rfd@{SHA} # v1.2.0\n") == jobs == 8
    assert "@v1.2.0" not in text


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_a_token_github_refuses_leaves_the_repository_as_it_was(
    git_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Config, RFD directory, .gitignore/.gitattributes, example and workflow are written,
    then GitHub refuses the first label (403): every one of them is taken back."""
    git(git_repo, "remote", "add", "origin", "https://github.com/Codertocat/Hello-World.git")
    (git_repo / ".gitattributes").write_text("*.png binary\n")  # a file of theirs, edited
    (git_repo / ".github").mkdir()  # a directory of theirs: kept
    before, folders = tree(git_repo), dirs(git_repo)
    monkeypatch.setenv("RFD_GITHUB_TOKEN", "ghp_test")
    argv = ("init", "--github", "--example", "--action-repo", "acme/rfd-bot", "--action-ref", SHA)
    assert run(git_repo, *argv) == 1
    err = capsys.readouterr().err
    assert "GitHub refused to create label 'rfd:review': 403" in err
    assert "rfd init wrote nothing: the repository is as it was" in err
    assert tree(git_repo) == before
    assert dirs(git_repo) == folders
    assert git(git_repo, "status", "--porcelain", "--ignored") == "?? .gitattributes\n"


def test_a_broken_configuration_stops_init_before_it_writes(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text('[labels]\nreveiw = "rfd:review"\n')
    before = tree(git_repo)
    assert (
        run(git_repo, "init", "--github", "--action-repo", "acme/rfd-bot", "--action-ref", SHA) == 1
    )
    err = capsys.readouterr().err
    assert ".github/rfd.toml" in err and "reveiw" in err
    assert tree(git_repo) == before


def test_a_write_that_fails_half_way_is_undone(
    git_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk refuses the workflow, the last file: the ones before it are taken back."""
    import bot.core.atomic as atomic

    real = atomic.os.replace

    def full_disk(src: str, dst: str) -> None:
        if str(dst).endswith("rfd.yml"):
            raise OSError(28, "No space left on device", str(dst))
        real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", full_disk)
    before, folders = tree(git_repo), dirs(git_repo)
    assert (
        run(git_repo, "init", "--github", "--action-repo", "acme/rfd-bot", "--action-ref", SHA) == 1
    )
    err = capsys.readouterr().err
    assert "could not write" in err and "rfd.yml: No space left on device" in err
    assert "rfd init wrote nothing" in err
    assert tree(git_repo) == before
    assert dirs(git_repo) == folders


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_a_renamed_label_is_created_and_the_old_one_reported(
    git_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """[labels] review renamed: the new label is created; rfd:review, still on the
    repository, no longer triggers anything, and init says so."""
    git(git_repo, "remote", "add", "origin", "https://github.com/Codertocat/Hello-World.git")
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text('[labels]\nreview = "rfd: please review"\n')
    monkeypatch.setenv("RFD_GITHUB_TOKEN", "ghp_test")
    assert (
        run(git_repo, "init", "--github", "--action-repo", "acme/rfd-bot", "--action-ref", SHA) == 0
    )
    out = capsys.readouterr().out
    assert "created label rfd: please review on Codertocat/Hello-World" in out
    assert (
        "label rfd:review is still on Codertocat/Hello-World, but [labels] review = "
        '"rfd: please review" in .github/rfd.toml: applying rfd:review no longer triggers '
        "anything" in " ".join(out.split())
    )


def test_a_kept_workflow_pinned_to_a_tag_is_warned_about(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No source is needed to keep a workflow; its tag pin is named, with the reason."""
    flows = git_repo / ".github/workflows"
    flows.mkdir(parents=True)
    mine = workflow_setup.render("acme/rfd-bot/.github/actions/rfd@v1", "main")
    (flows / "rfd.yml").write_text(mine)
    assert run(git_repo, "init", "--github") == 0
    got = capsys.readouterr()
    assert "kept .github/workflows/rfd.yml" in got.out
    assert "warning: .github/workflows/rfd.yml:60: rfd-bot's action is pinned to 'v1'" in got.err
    assert "a tag can be moved" in got.err and "refs/tags/v1" in got.err
    assert (flows / "rfd.yml").read_text() == mine


@pytest.mark.parametrize(
    ("labels", "said"),
    [
        ('review = "rfd"\naccept = "rfd"', 'review and accept are both "rfd"'),
        ('review = ""', "[labels] review is empty: no label would trigger it"),
        ('accept = "rfd: accepted"', '[labels] accept = "rfd: accepted" is a lifecycle label'),
        (f'review = "{"x" * 51}"', "[labels] review is 51 characters long: GitHub takes at most"),
    ],
)
def test_label_settings_that_cannot_work_stop_init_before_it_writes(
    git_repo: Path, capsys: pytest.CaptureFixture[str], labels: str, said: str
) -> None:
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text(f"[labels]\n{labels}\n")
    before = tree(git_repo)
    assert (
        run(git_repo, "init", "--github", "--action-repo", "acme/rfd-bot", "--action-ref", SHA) == 1
    )
    err = capsys.readouterr().err
    assert said in " ".join(err.split()) and ".github/rfd.toml" in err
    assert "rfd init wrote nothing" in " ".join(err.split())
    assert tree(git_repo) == before
