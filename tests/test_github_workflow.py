"""The example workflow and the reusable action stay safe (what zizmor checks, and more)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "rfd.yml"
ACTION = ROOT / ".github" / "actions" / "rfd" / "action.yml"
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")


def load(path: Path) -> dict[Any, Any]:
    data: dict[Any, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def steps() -> list[dict[str, Any]]:
    jobs = load(WORKFLOW)["jobs"].values()
    return [s for job in jobs for s in job["steps"]] + load(ACTION)["runs"]["steps"]


def test_every_job_has_least_privilege_and_a_concurrency_group() -> None:
    workflow = load(WORKFLOW)
    assert workflow["permissions"] == {}
    for name, job in workflow["jobs"].items():
        assert job.get("permissions"), name
        assert "write-all" not in str(job["permissions"]), name
        assert job["concurrency"]["group"].startswith("rfd-"), name


def test_checkouts_never_persist_credentials_nor_check_out_pr_code() -> None:
    for step in steps():
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False
            assert "ref" not in step["with"]  # the default branch, never the PR head


def test_actions_are_pinned_to_full_shas() -> None:
    for step in steps():
        uses = str(step.get("uses", ""))
        assert uses.startswith("$/") or PINNED.match(uses) or not uses, uses


def test_no_expression_inside_a_script() -> None:
    for step in steps():
        assert "${{" not in str(step.get("run", "")), step


def test_zizmor_reports_nothing() -> None:
    exe = shutil.which("zizmor") or str(Path(sys.executable).parent / "zizmor")
    if not Path(exe).exists():
        pytest.skip("zizmor is not installed")
    done = subprocess.run([exe, "--offline", str(ROOT / ".github")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
