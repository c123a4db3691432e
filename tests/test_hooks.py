"""The hooks as users install them: manifest, console scripts, README, imports, pre-commit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from tests.conftest import git
from tests.hooks_support import commit, plan_json, rfd, write

CHECKOUT = Path(__file__).resolve().parent.parent
HOOK_IDS = ("rfd-lint", "rfd-status", "rfd-state", "rfd-sync")
HEAVY = (
    "anthropic",
    "github",
    "httpx",
    "httpx2",
    "git",
    "click",
    "rich",
    "jinja2",
    "pydantic",
    "requests",
    "yaml",
    "ruamel",
    # standard library, but each costs a hook milliseconds: dataclasses brings inspect
    # (~8 ms and ~1 ms per class), importlib.resources brings zipfile and tempfile
    "dataclasses",
    "inspect",
    "zipfile",
    "tempfile",
)


def manifest_ids() -> list[str]:
    text = (CHECKOUT / ".pre-commit-hooks.yaml").read_text()
    return re.findall(r"^- id: (\S+)$", text, re.MULTILINE)


def test_manifest_lists_every_hook_with_its_console_script() -> None:
    scripts = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())["project"]["scripts"]
    assert tuple(manifest_ids()) == HOOK_IDS
    for hook_id in HOOK_IDS:
        module = hook_id.replace("-", "_")
        assert scripts[hook_id] == f"hooks.{module}:main"
        assert f"entry: {hook_id}\n" in (CHECKOUT / ".pre-commit-hooks.yaml").read_text()


def test_manifest_is_valid_for_pre_commit() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", ".pre-commit-hooks.yaml"],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("hook_id", ("rfd-lint", "rfd-status"))
def test_pre_commit_passes_asciidoc_rfds_to_the_hooks(
    hook_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Oxide repository's RFDs are ``rfd/0001/README.adoc``: pre-commit's own file filter,
    applied to the manifest's entry, hands them to the hooks like Markdown ones (a hook that
    never sees them lets a broken RFD be committed with "(no files to check)")."""
    from pre_commit.clientlib import load_manifest
    from pre_commit.commands.run import Classifier

    (hook,) = (
        h for h in load_manifest(str(CHECKOUT / ".pre-commit-hooks.yaml")) if h["id"] == hook_id
    )
    names = ["rfd/0001/README.adoc", "docs/rfd/045-x.md", "rfd/0001/power.svg"]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("text\n")
    monkeypatch.chdir(tmp_path)
    passed = Classifier(names).by_types(
        names, hook["types"], hook["types_or"], hook["exclude_types"]
    )
    assert list(passed) == names[:2]


def test_rfd_sync_is_verbose_so_its_preview_shows() -> None:
    """pre-commit hides what a passing hook prints unless the manifest says verbose."""
    text = (CHECKOUT / ".pre-commit-hooks.yaml").read_text()
    sync = text[text.index("- id: rfd-sync") :]
    assert re.search(r"^  verbose: true\b", sync, re.MULTILINE)


@pytest.mark.parametrize("hook_id", HOOK_IDS)
def test_every_hook_declares_its_stages(hook_id: str) -> None:
    """A hook without stages runs (and prints "Skipped") at every stage installed: after a
    commit only rfd-sync has something to do."""
    text = (CHECKOUT / ".pre-commit-hooks.yaml").read_text()
    entry = text[text.index(f"- id: {hook_id}") :].split("\n- id:")[0]
    stages = re.search(r"^  stages: \[(.*)\]", entry, re.MULTILINE)
    assert stages is not None, entry
    assert ("post-commit" in stages[1]) == (hook_id == "rfd-sync")


def test_readme_documents_every_hook() -> None:
    readme = (CHECKOUT / "bot/docs/hooks.md").read_text()
    missing = [hook_id for hook_id in manifest_ids() if f"id: {hook_id}" not in readme]
    assert not missing, f"bot/docs/hooks.md does not document {missing}"


@pytest.mark.parametrize("hook_id", HOOK_IDS)
def test_hooks_import_nothing_heavy(git_repo: Path, hook_id: str) -> None:
    """Each hook, imported and run in a fresh interpreter on a real commit, stays light."""
    commit(git_repo, {"docs/rfd/001-a.md": rfd(), "docs/rfd/002-b.md": rfd("002")})
    files = write(
        git_repo,
        {
            "docs/rfd/001-a.md": rfd(status="Discussion"),
            "docs/rfd/.state/001/explore.md": "notes\n",
        },
    )
    git(git_repo, "commit", "-q", "-m", "promote")
    module = hook_id.replace("-", "_")
    script = (
        f"import sys; from hooks.{module} import main; code = main({files!r}); "
        f"print([m for m in sys.modules if m.split('.')[0] in {HEAVY!r}]); print(code)"
    )
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=git_repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    *_, heavy, code = proc.stdout.splitlines()
    assert heavy == "[]"
    assert code == "0", proc.stdout


def offline_install_env(home: Path) -> dict[str, str]:
    """The environment in which pre-commit builds the hooks' package here, without an index:
    pip builds the wheel locally with this interpreter's hatchling (no build isolation) and
    finds the dependencies already installed beside it (on PYTHONPATH), so nothing is
    downloaded and the install takes seconds."""
    site_packages = sysconfig.get_paths()["purelib"]
    return {
        **os.environ,
        "PRE_COMMIT_HOME": str(home / "pre-commit"),
        "PIP_CACHE_DIR": str(home / "pip"),
        "PRE_COMMIT_COLOR": "never",
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads it inverted
        "VIRTUALENV_NO_SETUPTOOLS": "1",
        "VIRTUALENV_NO_WHEEL": "1",
        "PYTHONPATH": site_packages,
    }


def _run_hooks(repo: Path, files: list[str], home: Path, *extra: str) -> tuple[int, str]:
    """``pre-commit run --files …`` with a configuration naming every hook of the manifest at
    the checkout's committed HEAD: each at its pre-commit stage (or as ``extra`` says).  The
    hooks' environment is installed by the first call and kept under ``home`` for the next."""
    head = git(CHECKOUT, "rev-parse", "HEAD").strip()
    config = home / "pre-commit-config.yaml"
    hooks = "".join(f"  - id: {hook_id}\n" for hook_id in HOOK_IDS)
    config.write_text(f"repos:\n- repo: {CHECKOUT}\n  rev: {head}\n  hooks:\n{hooks}")
    env = offline_install_env(home)
    for name in ("RFD_GITHUB_TOKEN", "GITHUB_TOKEN"):
        env.pop(name, None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "run",
            "--config",
            str(config),
            *extra,
            "--files",
            *files,
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    if proc.returncode not in (0, 1) and "Installing environment" in out:
        log = home / "pre-commit" / "pre-commit.log"
        detail = log.read_text()[-1500:] if log.exists() else out[-1500:]
        pytest.fail(f"pre-commit could not install the hooks offline:\n{detail}")
    return proc.returncode, out


def test_pre_commit_installs_and_runs_the_hooks(
    git_repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The real pre-commit installs this checkout (a wheel built here, no package index) and
    runs its hooks on a good and a bad commit (the environment lives under pytest's base
    temp dir, installed once for the three runs; pytest's cache is not used, so
    ``-p no:cacheprovider`` changes nothing)."""
    if not (CHECKOUT / ".git").exists():
        pytest.skip("this checkout is not a git repository: pre-commit clones it")
    home = tmp_path_factory.mktemp("pre-commit-hooks")
    commit(git_repo, {"docs/rfd/001-a.md": rfd()})
    good = write(
        git_repo,
        {
            "docs/rfd/001-a.md": rfd(status="Discussion"),
            "docs/rfd/.state/001/explore.md": "notes\n",
        },
    )
    code, out = _run_hooks(git_repo, good, home)
    assert code == 0, out
    for hook in ("rfd-lint", "rfd-status", "rfd-state"):
        assert re.search(rf"^{hook} .*\.+Passed$", out, re.MULTILINE), out
    assert not re.search(r"^rfd-sync .*\.{3}", out, re.MULTILINE)  # post-commit/pre-push only

    git(git_repo, "commit", "-q", "-m", "to discussion")
    bad_text = rfd(status="Implemented").replace("2026-01-15", "15 Jan")
    bad = write(git_repo, {"docs/rfd/001-a.md": bad_text})
    code, out = _run_hooks(git_repo, bad, home)
    assert code == 1
    assert re.search(r"^rfd-lint .*\.+Failed$", out, re.MULTILINE), out
    assert "docs/rfd/001-a.md:6: RFD004" in out
    assert re.search(r"^rfd-status .*\.+Failed$", out, re.MULTILINE), out
    assert "docs/rfd/001-a.md:3: cannot move to Implemented: 2 of 2 phases not done" in out

    git(git_repo, "reset", "-q", "--hard")
    commit(
        git_repo,
        {
            "docs/rfd/.state/001/plan.json": plan_json(),
            "docs/rfd/.state/001/phases/1.md": "Done.\n",
        },
    )
    code, out = _run_hooks(git_repo, [], home, "rfd-sync", "--hook-stage", "post-commit")
    assert code == 0, out  # shown without -v: the manifest makes rfd-sync verbose
    assert "no GitHub token" in out and "RFD 001: tick phase 1 on its tracking issue" in out


def test_default_layout_is_the_configured_default() -> None:
    """Hooks skip loading bot.config.load when there is no config file: same answer either way."""
    from bot.config.load import CONFIG_PATH, Config
    from hooks._common import CONFIG_PATH as HOOKS_CONFIG_PATH
    from hooks._common import DEFAULT_LAYOUT, Layout

    assert (Layout.of(Config()), CONFIG_PATH) == (DEFAULT_LAYOUT, HOOKS_CONFIG_PATH)


def test_rfd_dir_from_the_environment(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hooks.rfd_lint import main

    write(git_repo, {"rfcs/001-a.md": rfd("002")})
    monkeypatch.setenv("RFD_DIR", "rfcs")
    monkeypatch.chdir(git_repo)
    assert main(["rfcs/001-a.md"]) == 1
    assert "rfcs/001-a.md:1: RFD003" in capsys.readouterr().out


@pytest.mark.parametrize("hook_id", ("rfd-lint", "rfd-status", "rfd-state"))
def test_a_commit_without_rfds_costs_next_to_nothing(git_repo: Path, hook_id: str) -> None:
    """Most commits touch no RFD: then a hook loads no RFD code and runs no git — except
    rfd-status, which asks git once whether an RFD was removed (never passed to a hook)."""
    files = write(git_repo, {"src/app.py": "print('hi')\n", "docs/guide.md": "# Guide\n"})
    module = hook_id.replace("-", "_")
    script = (
        f"import sys; from hooks.{module} import main; code = main({files!r}); "
        "print(sorted(m for m in sys.modules "
        "if m.startswith(('bot.', 'hooks._git', 'subprocess', 'json'))))"
    )
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=git_repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    extra = ", 'hooks._git'" if hook_id == "rfd-status" else ""
    # the configuration reader reads the table of lint codes only for a [lint.severity]
    loaded = "'bot.core', 'bot.core.errors'"
    assert proc.stdout.strip() == f"[{loaded}{extra}]"
