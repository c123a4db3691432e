"""The example workflow and the reusable action stay safe (what zizmor checks, and more)."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import platform
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import parse_wheel_filename

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


AI_JOBS = {"label", "comment", "implement"}
"""The only jobs that run AI steps: they alone get the key."""
WRITING_JOBS = {"label", "comment", "publish"}
"""The only jobs that may write code: ``implement``'s model runs where nothing can."""


def test_every_job_has_least_privilege_and_a_concurrency_group() -> None:
    workflow = load(WORKFLOW)
    assert workflow["permissions"] == {}
    for name, job in workflow["jobs"].items():
        assert job.get("permissions"), name
        assert "write-all" not in str(job["permissions"]), name
        assert job["concurrency"]["group"].startswith("rfd-"), name


def test_every_concurrency_group_queues_instead_of_dropping_pending_runs() -> None:
    # Without `queue: max` GitHub keeps one pending run per group and cancels it when a
    # third arrives: a label, a command or a push would be lost.  `queue` is only valid
    # when cancel-in-progress is false or unset.
    for name, job in load(WORKFLOW)["jobs"].items():
        concurrency = job["concurrency"]
        assert concurrency.get("queue") == "max", name
        assert concurrency.get("cancel-in-progress", False) is False, name


def test_jobs_sharing_a_group_are_those_that_touch_the_same_pr_or_issues() -> None:
    groups = {name: job["concurrency"]["group"] for name, job in load(WORKFLOW)["jobs"].items()}
    pr_group = groups["pull-request"]
    assert groups["label"] == pr_group  # a label and a new push on one PR run in order
    assert groups["tracking"] == groups["reconcile"]  # both write tracking issues
    # `/rfd implement` on the tracking issue and on the PR wait for each other (one group);
    # any other comment queues with the label and push runs of its PR
    assert groups["implement"] == "rfd-implement"
    assert groups["comment"] == "rfd-pr-${{ github.event.issue.number }}"
    assert pr_group == "rfd-pr-${{ github.event.pull_request.number }}"


def test_only_the_ai_jobs_see_the_key_and_may_write_code() -> None:
    jobs = load(WORKFLOW)["jobs"]
    sees_key = {name for name, job in jobs.items() if "secrets." in yaml.safe_dump(job)}
    writes_code = {
        name for name, job in jobs.items() if job["permissions"].get("contents") == "write"
    }
    assert sees_key == AI_JOBS
    assert writes_code == WRITING_JOBS


def test_no_job_that_runs_model_written_code_holds_a_token_that_can_write() -> None:
    """``implement`` runs the commands a model wrote: its token may read, never write —
    no comment, reaction or issue edit (a thief could write as the bot and forge the markers
    :mod:`bot.github.bot_records` trusts), no push, nothing else."""
    jobs = load(WORKFLOW)["jobs"]
    work = jobs["implement"]
    assert set(work["permissions"].values()) == {"read"}
    assert set(work["permissions"]) <= {"contents", "pull-requests"}
    model_code = {n for n, job in jobs.items() if _stage(job) == ["work"]}
    assert model_code == {"implement"}


def _stage(job: dict[str, Any]) -> list[str]:
    return [s["with"]["stage"] for s in job["steps"] if "stage" in s.get("with", {})]


def test_implement_is_split_into_a_check_an_untrusted_and_a_privileged_job() -> None:
    """The commenter is checked and the progress comment posted where no model key is; the
    model and its commands run where the token is read-only; the write token sits where no
    model key is and no repository code runs (GitHub's untrusted/privileged split)."""
    jobs = load(WORKFLOW)["jobs"]
    check, work, publish = jobs["implement-check"], jobs["implement"], jobs["publish"]
    assert check["permissions"] == {"contents": "read", "pull-requests": "read", "issues": "write"}
    assert publish["permissions"] == {
        "contents": "write",
        "pull-requests": "write",
        "issues": "write",
    }
    assert "secrets." in yaml.safe_dump(work)
    assert "secrets." not in yaml.safe_dump(publish) + yaml.safe_dump(check)
    assert "api-key" not in yaml.safe_dump(publish) + yaml.safe_dump(check)
    assert "/rfd implement" in check["if"] and "if" in work
    assert work["needs"] == "implement-check"
    assert work["if"] == "needs.implement-check.outputs.go == 'true'"
    assert publish["needs"] == ["implement-check", "implement"]
    # the publish job says how the work job ended, even when it failed or was cancelled
    assert publish["if"] == "always() && needs.implement-check.outputs.go == 'true'"
    assert check["outputs"]["go"] == "${{ steps.bot.outputs.go }}"
    assert work["outputs"]["handed"] == "${{ steps.bot.outputs.handed }}"
    assert (_stage(check), _stage(work), _stage(publish)) == (["check"], ["work"], ["publish"])
    assert _stage(jobs["comment"]) == ["commands"]
    upload = next(s for s in work["steps"] if "upload-artifact" in s.get("uses", ""))
    download = next(s for s in publish["steps"] if "download-artifact" in s.get("uses", ""))
    assert upload["uses"].endswith("@ea165f8d65b6e75b540449e92b4886f43607fa02")
    assert download["uses"].endswith("@d3f86a106a0bac45b974a628896c90dbdf5c8093")
    assert upload["with"]["path"] == download["with"]["path"] == "${{ runner.temp }}/rfd-phase"
    assert upload["if"] == "always() && steps.bot.outputs.handed == 'true'"
    assert download["continue-on-error"] is True  # none: the bot says the work job died
    # the publish job runs only pinned actions: no `run:` of its own, the checkout is data
    assert not any("run" in step for step in publish["steps"])
    action = load(ACTION)
    assert action["outputs"]["handed"]["value"] == "${{ steps.event.outputs.handed }}"
    assert action["outputs"]["go"]["value"] == "${{ steps.event.outputs.go }}"
    handle = next(s for s in action["runs"]["steps"] if s.get("id") == "event")
    assert handle["env"]["RFD_BOT_STAGE"] == "${{ inputs.stage }}"
    assert handle["env"]["RFD_BOT_ARTIFACT"] == "${{ runner.temp }}/rfd-phase"
    isolate = next(s for s in action["runs"]["steps"] if "isolate" in s.get("run", ""))
    assert "inputs.stage != 'publish'" in isolate["if"]
    assert "inputs.stage != 'check'" in isolate["if"]


def test_the_status_comment_job_has_only_what_it_needs() -> None:
    job = load(WORKFLOW)["jobs"]["pull-request"]
    assert job["permissions"] == {"contents": "read", "pull-requests": "write", "issues": "write"}
    assert "github.event.action != 'labeled'" in job["if"]
    assert "github.event.action == 'labeled'" in load(WORKFLOW)["jobs"]["label"]["if"]


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


def test_zizmor_auditor_reports_nothing_unexplained() -> None:
    exe = shutil.which("zizmor") or str(Path(sys.executable).parent / "zizmor")
    if not Path(exe).exists():
        pytest.skip("zizmor is not installed")
    done = subprocess.run(
        [exe, "--offline", "--persona=auditor", str(ROOT / ".github")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


SELF_USES = "$/.github/actions/rfd"
GHES_USES = "./.github/actions/rfd"
GHES_LINE = (
    f"uses: {GHES_USES} # zizmor: ignore[self-repository] GitHub Enterprise Server has no $/"
)
"""What the bot's reference tells GitHub Enterprise Server users (no `$/`) to write instead."""


def test_the_ghes_variant_is_as_safe_and_runs_after_the_checkout(tmp_path: Path) -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert GHES_LINE in (ROOT / "bot/docs/bot.md").read_text(encoding="utf-8")
    ghes = tmp_path / ".github"
    shutil.copytree(ROOT / ".github", ghes)
    (ghes / "workflows" / "rfd.yml").write_text(
        text.replace(f"uses: {SELF_USES}", GHES_LINE), encoding="utf-8"
    )
    for name, job in load(ghes / "workflows" / "rfd.yml")["jobs"].items():
        uses = [str(step.get("uses", "")) for step in job["steps"]]
        checkout = next(i for i, u in enumerate(uses) if u.startswith("actions/checkout@"))
        assert uses.index(GHES_USES) > checkout, name  # `./` needs the checkout first
        assert "path" not in job["steps"][checkout]["with"], name  # … at the workspace root
    exe = shutil.which("zizmor") or str(Path(sys.executable).parent / "zizmor")
    if Path(exe).exists():
        done = subprocess.run([exe, "--offline", str(ghes)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


REQUIREMENTS = ACTION.parent / "requirements.txt"
UV_REQUIREMENTS = ACTION.parent / "uv-requirements.txt"
_PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==\S+ \\$")
STUB = """#!/bin/sh
# logs its name and arguments; makes what the real command would make for the next one
printf "%s\\0" "$(basename "$0")" "$@" >> "$LOG"; printf "\\n" >> "$LOG"
case "$1 $2" in
  "-I "*/fetch_uv.py) mkdir -p "$4"; cp "$0" "$4/uv" ;;
  "venv --quiet") for last; do :; done; mkdir -p "$last/bin"; cp "$0" "$last/bin/python" ;;
  "-I -c") echo "$SITE" ;;
esac
"""


def _install(action_path: Path, tmp: Path, **extra: str) -> tuple[list[list[str]], Path]:
    """The commands the action's install step runs (``python``, uv and the venv's stubbed),
    and the site-packages directory the stubbed venv names."""
    bin_dir, log, site = tmp / "bin", tmp / "commands.log", tmp / "site-packages"
    bin_dir.mkdir(parents=True, exist_ok=True)
    site.mkdir()
    stub = bin_dir / "python"
    stub.write_text(STUB, encoding="utf-8")
    stub.chmod(0o755)
    (install,) = [s for s in load(ACTION)["runs"]["steps"] if "uv" in s.get("run", "")]
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "GITHUB_ACTION_PATH": str(action_path),
        "LOG": str(log),
        "SITE": str(site),
        "RFD_BOT_VENV": str(tmp / "venv"),
        "RFD_BOT_UV": str(tmp / "uv"),
        **extra,
    }
    done = subprocess.run(["bash", "-c", install["run"]], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = log.read_text(encoding="utf-8").splitlines()
    return [line.rstrip("\0").split("\0") for line in lines], site


def test_the_action_installs_rfd_bot_both_ways(tmp_path: Path) -> None:
    """The bot's own files are copied into the venv (no build), wherever the action sits."""
    # `./.github/actions/rfd` after the checkout: the action sits in the workspace.
    _, local = _install(ROOT / ".github" / "actions" / "rfd", tmp_path / "local")
    # `$/…` or `OWNER/rfd-bot/.github/actions/rfd@<sha>`: the runner downloads the
    # repository at that commit under `_actions/OWNER/rfd-bot/<sha>/`.
    downloaded = tmp_path / "_actions" / "OWNER" / "rfd-bot"
    downloaded.mkdir(parents=True)
    (downloaded / ("a" * 40)).symlink_to(ROOT)
    _, remote = _install(
        downloaded / ("a" * 40) / ".github" / "actions" / "rfd", tmp_path / "remote"
    )
    for site in (local, remote):
        assert (site / "bot" / "__main__.py").read_text() == (ROOT / "bot/__main__.py").read_text()
        assert (site / "bot" / "prompts").is_dir() or (site / "bot" / "templates").exists()
        assert not (site / "hooks").exists() and not (site / "tests").exists()


def test_the_comment_job_prepares_isolation_before_the_bot_runs() -> None:
    """`/rfd implement` runs model-written commands: bubblewrap must work first (AppArmor)."""
    names = [step["name"] for step in load(ACTION)["runs"]["steps"]]
    isolate = next(s for s in load(ACTION)["runs"]["steps"] if "isolate" in s.get("run", ""))
    assert names.index(isolate["name"]) < names.index("Handle the event")
    assert "issue_comment" in isolate["if"]
    script = (ACTION.parent / "isolate.sh").read_text(encoding="utf-8")
    assert "bwrap-userns-restrict" in script and "apparmor_parser -r" in script
    assert script.rstrip().endswith("exit 0")  # never fails the job: the bot fails closed


def test_dependencies_come_only_from_hash_pinned_requirements(tmp_path: Path) -> None:
    (fetch, *uv, where), _ = _install(ROOT / ".github" / "actions" / "rfd", tmp_path)
    assert fetch[:2] == ["python", "-I"]  # uv: fetch_uv.py's wheel, checked by its hash
    assert Path(fetch[2]).resolve() == FETCH_UV and Path(fetch[3]).resolve() == UV_REQUIREMENTS
    venv, deps = uv
    assert venv[:2] == ["uv", "venv"]
    assert deps[:3] == ["uv", "pip", "install"]
    assert {"--require-hashes", "--no-deps", "--only-binary", ":all:"} <= set(deps)
    assert Path(deps[deps.index("-r") + 1]).resolve() == REQUIREMENTS
    assert where[1] == "-I" and "sysconfig" in where[-1]  # nothing else is installed or built


RUNNERS = {
    ("linux", "x86_64"): "manylinux_2_17_x86_64",
    ("linux", "aarch64"): "aarch64",
    ("darwin", "arm64"): "macosx_11_0_arm64",
    ("darwin", "x86_64"): "macosx_10_12_x86_64",
}
"""GitHub's runner platforms (``sys_platform``, ``platform_machine``) and their wheel's tag."""


def _uv_lines() -> list[tuple[Requirement, list[str]]]:
    """Each requirement of uv-requirements.txt with its hashes (continuation lines joined)."""
    text = UV_REQUIREMENTS.read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    found = []
    for line in lines:
        spec, *hashes = line.split(" --hash=")
        found.append((Requirement(spec), [h.strip() for h in hashes]))
    return found


def test_uv_is_one_exact_wheel_pinned_by_hash_on_each_runner_platform() -> None:
    """No release index is read for uv (≈ 2 MB, ~2 s): every runner gets one named file."""
    lines, versions = _uv_lines(), set()
    for (system, machine), tag in RUNNERS.items():
        env = {"sys_platform": system, "platform_machine": machine}
        chosen = [(req, hashes) for req, hashes in lines if req.marker and req.marker.evaluate(env)]
        assert len(chosen) == 1, (system, machine)
        ((req, hashes),) = chosen
        assert req.name == "uv" and req.url and not req.specifier
        assert req.url.startswith("https://files.pythonhosted.org/packages/")
        name, version, _, tags = parse_wheel_filename(req.url.rsplit("/", 1)[1])
        assert name == "uv" and any(tag in str(t) for t in tags)
        assert len(hashes) == 1 and re.fullmatch(r"sha256:[0-9a-f]{64}", hashes[0])
        versions.add(str(version))
    assert len(versions) == 1  # the same uv everywhere
    assert len({h for _, hashes in lines for h in hashes}) == len(lines) == len(RUNNERS)


FETCH_UV = ACTION.parent / "fetch_uv.py"
CURL = """#!/bin/sh
# curl as the runner has it, serving $WHEEL for any URL: logs its arguments
printf "%s\\n" "$@" > "$LOG"
while [ $# -gt 1 ]; do [ "$1" = --output ] && cp "$WHEEL" "$2"; shift; done
"""


def _fetch_uv() -> Any:
    spec = importlib.util.spec_from_file_location("fetch_uv", FETCH_UV)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fetch_uv_reads_the_one_pinned_wheel_of_each_runner_platform() -> None:
    """The install step's script picks the same line as pip's markers would, on every runner."""
    fetch_uv = _fetch_uv()
    for (system, machine), _ in RUNNERS.items():
        env = {"sys_platform": system, "platform_machine": machine}
        ((req, (sha256,)),) = [(r, h) for r, h in _uv_lines() if r.marker.evaluate(env)]
        assert fetch_uv.pinned(UV_REQUIREMENTS, system, machine) == (req.url, sha256[7:])
    assert fetch_uv.pinned(UV_REQUIREMENTS, "win32", "AMD64") is None


def _run_fetch_uv(
    tmp: Path, pins: str, wheel: bytes
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """fetch_uv.py as the step runs it, ``pins`` as uv-requirements.txt, curl serving ``wheel``."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    (bin_dir / "curl").write_text(CURL, encoding="utf-8")
    (bin_dir / "curl").chmod(0o755)
    (tmp / "uv.whl").write_bytes(wheel)
    requirements = tmp / "uv-requirements.txt"
    requirements.write_text(pins, encoding="utf-8")
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "LOG": str(tmp / "curl.log"),
        "WHEEL": str(tmp / "uv.whl"),
    }
    argv = [sys.executable, "-I", str(FETCH_UV), str(requirements), str(tmp / "rfd-bot-uv" / "bin")]
    return subprocess.run(argv, env=env, capture_output=True, text=True), tmp / "rfd-bot-uv" / "bin"


def _wheel(uv: bytes) -> bytes:
    """A uv wheel as PyPI has it: the executable under ``uv-VERSION.data/scripts/``."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("uv/__init__.py", "")
        archive.writestr("uv-9.9.9.data/scripts/uvx", "uvx")
        archive.writestr("uv-9.9.9.data/scripts/uv", uv)
        archive.writestr("uv-9.9.9.dist-info/RECORD", "")
    return out.getvalue()


def _pin(url: str, sha256: str) -> str:
    system, machine = sys.platform, platform.machine()
    marker = f'sys_platform == "{system}" and platform_machine == "{machine}"'
    return f"# header\nuv @ {url} ; {marker} \\\n    --hash=sha256:{sha256}\n"


URL = "https://files.pythonhosted.org/packages/aa/bb/uv-9.9.9-py3-none-any.whl"


def test_fetch_uv_installs_the_pinned_wheel_over_https_only(tmp_path: Path) -> None:
    wheel = _wheel(b"#!/bin/sh\necho uv 9.9.9\n")
    done, into = _run_fetch_uv(tmp_path, _pin(URL, hashlib.sha256(wheel).hexdigest()), wheel)
    assert done.returncode == 0, done.stdout + done.stderr
    assert subprocess.run([into / "uv"], capture_output=True, text=True).stdout == "uv 9.9.9\n"
    assert sorted(p.name for p in into.iterdir()) == ["uv"]
    asked = (tmp_path / "curl.log").read_text(encoding="utf-8").splitlines()
    assert asked[-1] == URL and "--fail" in asked
    assert asked[asked.index("--proto") + 1] == asked[asked.index("--proto-redir") + 1] == "=https"


def test_fetch_uv_refuses_a_wheel_that_does_not_match_its_hash(tmp_path: Path) -> None:
    wheel = _wheel(b"#!/bin/sh\necho not uv\n")
    done, into = _run_fetch_uv(tmp_path, _pin(URL, "0" * 64), wheel)
    assert done.returncode == 1
    assert (
        done.stdout
        == f"::error::{URL} does not match its sha256 in uv-requirements.txt: not installed\n"
    )
    assert not (into / "uv").exists()


def test_a_runner_without_a_pinned_uv_wheel_stops_with_an_error(tmp_path: Path) -> None:
    pins = _pin(URL, "0" * 64).replace(platform.machine(), "riscv64")
    done, into = _run_fetch_uv(tmp_path, pins, b"")
    assert done.returncode == 1 and not (tmp_path / "curl.log").exists()
    assert not (into / "uv").exists()
    assert done.stdout.startswith("::error::uv-requirements.txt pins uv for Linux and macOS")
    assert f"not {platform.system()} {platform.machine()}" in done.stdout


def test_the_requirements_pin_every_runtime_dependency_with_hashes() -> None:
    import tomllib

    text = REQUIREMENTS.read_text(encoding="utf-8")
    pins = {
        m["name"].lower().replace("_", "-") for line in text.splitlines() if (m := _PIN.match(line))
    }
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = project["project"]["dependencies"]
    names = {re.split(r"[<>=!~\[; ]", dep, maxsplit=1)[0].lower() for dep in wanted}
    assert names <= pins
    # only what the bot imports: no build backend, no tools of the tests or the hooks
    assert not {"hatchling", "pre-commit", "virtualenv", "pyyaml", "pytest"} & pins
    for block in text.split("\n")[1:]:
        assert (
            not block.strip()
            or block.lstrip().startswith(("--hash=sha256:", "#"))
            or _PIN.match(block)
        ), block
    assert text.count("==") == len(pins) and len(pins) <= text.count("--hash=sha256:")


def test_the_bot_runs_isolated_outside_the_workspace() -> None:
    (run,) = [s for s in load(ACTION)["runs"]["steps"] if "-m bot" in s.get("run", "")]
    assert run["run"].split()[:3] == ['"$RFD_BOT_VENV/bin/python"', "-I", "-m"]
    assert run["working-directory"] == "${{ runner.temp }}"


def test_a_bot_package_in_the_workspace_cannot_shadow_the_installed_one(tmp_path: Path) -> None:
    planted = tmp_path / "bot"
    planted.mkdir()
    (planted / "__init__.py").write_text("", encoding="utf-8")
    (planted / "__main__.py").write_text("open('shadowed', 'w').close()\n", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path), "GITHUB_EVENT_NAME": "push"}
    done = subprocess.run(
        [sys.executable, "-I", "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert not (tmp_path / "shadowed").exists()
    assert "GITHUB_EVENT_PATH" in done.stdout + done.stderr  # the real bot's own error


def test_only_comments_that_can_hold_a_command_queue_the_comment_job() -> None:
    condition = " ".join(load(WORKFLOW)["jobs"]["comment"]["if"].split())
    assert "startsWith(github.event.comment.body, '/rfd')" in condition
    line_start = "format('{0}/rfd', fromJSON('\"\\n\"'))"  # a newline, then /rfd
    assert f"contains(github.event.comment.body, {line_start})" in condition
    assert "github.event.comment.user.login != 'github-actions[bot]'" in condition
