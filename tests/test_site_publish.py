"""``rfd init --github --site``: the Pages workflow, pinned and least privilege, and the
site's address recorded so the bot's texts can link to RFD pages."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.cli.main import main
from bot.config.load import load_config
from bot.site import publish
from tests.conftest import git

SHA = "0123456789abcdef0123456789abcdef01234567"
OFFICIAL = {
    "actions/checkout",
    "actions/setup-python",
    "actions/upload-pages-artifact",
    "actions/deploy-pages",
}


@pytest.fixture
def repo(git_repo: Path) -> Path:
    git(git_repo, "remote", "add", "origin", "https://github.com/Acme-Labs/jp.git")
    return git_repo


def init(repo: Path) -> int:
    return main(
        [
            "-C",
            str(repo),
            "init",
            "--github",
            "--site",
            "--action-repo",
            "acme/rfd-bot",
            "--action-ref",
            SHA,
        ]
    )


def test_the_workflow_builds_and_deploys_with_pinned_official_actions(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert init(repo) == 0
    assert 'Settings → Pages → Source: "GitHub Actions"' in capsys.readouterr().out
    text = (repo / publish.WORKFLOW_PATH).read_text(encoding="utf-8")
    flow: dict[Any, Any] = yaml.safe_load(text)
    steps = [s for job in flow["jobs"].values() for s in job["steps"]]
    uses = [s["uses"] for s in steps if "uses" in s]
    assert {u.split("@")[0] for u in uses} == OFFICIAL
    assert all(re.fullmatch(r"[\w/-]+@[0-9a-f]{40}", u) for u in uses), uses
    assert flow["permissions"] == {}
    assert flow["jobs"]["build"]["permissions"] == {"contents": "read"}
    assert flow["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert not any("run" in s for s in flow["jobs"]["deploy"]["steps"])  # runs no repo code
    assert f'"rfd-bot[site] @ git+https://github.com/acme/rfd-bot@{SHA}"' in text
    assert "rfd site --out _site" in text
    assert flow[True]["push"]["branches"] == ["main"]


def test_zizmor_as_an_auditor_finds_nothing(repo: Path) -> None:
    exe = shutil.which("zizmor") or str(Path(sys.executable).parent / "zizmor")
    if not Path(exe).exists():
        pytest.skip("zizmor is not installed")
    assert init(repo) == 0
    done = subprocess.run(
        [exe, "--offline", "--persona=auditor", str(repo / ".github")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_site_address_is_recorded_once(repo: Path) -> None:
    assert init(repo) == 0
    assert load_config(repo).site.url == "https://acme-labs.github.io/jp/"
    assert init(repo) == 0
    config = (repo / ".github/rfd.toml").read_text(encoding="utf-8")
    assert config.count("[site]") == 1
    assert (repo / publish.WORKFLOW_PATH).is_file()


@pytest.mark.parametrize(
    ("repository", "url"),
    [("acme/jp", "https://acme.github.io/jp/"), ("Acme/acme.github.io", "https://acme.github.io/")],
)
def test_pages_url(repository: str, url: str) -> None:
    assert publish.pages_url(repository) == url
