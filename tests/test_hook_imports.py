"""Each hook imports only what its check needs: the modules it loads stay within a list.

A hook runs in a fresh interpreter on a real commit that touches an RFD, its state and a
review (the kind of commit users make), and reports every module it loaded.  The list of the
project's modules is exact per hook; third-party packages are none; the standard library's
top-level modules stay within what the hooks load today.  A new import fails here: either it
belongs on the list (say why in the commit) or it should be imported where it is used.

The RFDs here are in the flat format (``- **Status**: …``): an RFD with a YAML front matter
may load its parser too, only when a file has one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import git
from tests.hooks_support import commit, plan_json, rfd, write

CHECKOUT = Path(__file__).resolve().parent.parent
_READ = (
    "bot",
    "bot.config",
    "bot.config.repo_templates",
    "bot.core",
    "bot.core.errors",
    "bot.core.patterns",
    "bot.model",
    "bot.model.ids",
    "hooks",
    "hooks._common",
    "hooks._config",
    "hooks._files",
    "hooks._tree",
)
_DOCUMENT = (
    "bot.core.text",
    "bot.model.document",
    "bot.model.header",
    "bot.model.markdown",
    "bot.model.status",
)
_GIT = ("hooks._changes", "hooks._git")
OWN = {
    "rfd-lint": {
        *_READ,
        *_DOCUMENT,
        "bot.config.discovery",
        "bot.lifecycle",
        "bot.lifecycle.lint",
        "bot.model.lint_codes",
        "bot.templates",
        "hooks.rfd_lint",
        # the adoption baseline (grandfathered findings) is read by hooks._transitions
        *_GIT,
        "hooks._gates",
        "hooks._transitions",
    },
    "rfd-status": {
        *_READ,
        *_DOCUMENT,
        *_GIT,
        "bot.model.plan",
        "bot.model.process",
        "hooks._gates",
        "hooks._transitions",
        "hooks.rfd_status",
    },
    "rfd-state": {
        *_READ,
        "bot.core.secret_shapes",
        "bot.model.plan",
        "hooks._state_files",
        "hooks.rfd_state",
    },
    "rfd-sync": {
        *_READ,
        *_DOCUMENT,
        *_GIT,
        "bot.model.phase_ids",
        "hooks._tracking",
        "hooks.rfd_sync",
    },
}
"""The project's modules each hook loads (rfd-sync without a token: it prints what it would do)."""
STDLIB = {
    "__future__",
    "abc",
    "builtins",
    "codecs",
    "collections",
    "contextlib",
    "copyreg",
    "datetime",
    "encodings",
    "enum",
    "functools",
    "genericpath",
    "io",
    "itertools",
    "json",
    "keyword",
    "marshal",
    "math",
    "operator",
    "os",
    "posix",
    "posixpath",
    "re",
    "reprlib",
    "site",
    "stat",
    "sys",
    "time",
    "types",
    "typing",
    "warnings",
    "zipimport",
}
"""Top-level modules of the standard library any hook may load (private ``_x`` ones aside)."""

CHILD = """
import json, sys
from hooks.{module} import main
code = main(sys.argv[1:])
print(json.dumps({{"code": code, "modules": sorted(sys.modules)}}))
"""


def hook_modules(repo: Path, hook_id: str, files: list[str]) -> list[str]:
    """The modules ``hook_id`` loaded checking ``files`` in ``repo`` (it must pass)."""
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    for name in ("RFD_GITHUB_TOKEN", "GITHUB_TOKEN"):
        env.pop(name, None)
    script = CHILD.format(module=hook_id.replace("-", "_"))
    proc = subprocess.run(
        [sys.executable, "-c", script, *files],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(proc.stdout.splitlines()[-1])
    assert report["code"] == 0, proc.stdout + proc.stderr
    return list(report["modules"])


@pytest.fixture
def accepted_commit(git_repo: Path) -> list[str]:
    """RFD 001 accepted, with its plan and a review, staged."""
    commit(
        git_repo, {"docs/rfd/001-a.md": rfd(status="Discussion"), "docs/rfd/002-b.md": rfd("002")}
    )
    review = "docs/rfd/.state/001/reviews/1721700000.md"
    return write(
        git_repo,
        {
            "docs/rfd/001-a.md": rfd(status="Accepted"),
            "docs/rfd/.state/001/plan.json": plan_json(),
            review: "Looks right.\n",
        },
    )


@pytest.mark.parametrize("hook_id", sorted(OWN))
def test_each_hook_loads_only_its_list(
    git_repo: Path, accepted_commit: list[str], hook_id: str
) -> None:
    files = [] if hook_id == "rfd-sync" else accepted_commit
    if hook_id == "rfd-sync":
        git(git_repo, "commit", "-q", "-m", "accept")
    modules = hook_modules(git_repo, hook_id, files)
    own = {m for m in modules if m.split(".")[0] in ("bot", "hooks")}
    assert sorted(own - OWN[hook_id]) == []
    assert sorted(OWN[hook_id] - own) == [], "no longer loaded: take it off the list"
    assert f"hooks.{hook_id.replace('-', '_')}" in own
    tops = {m.split(".")[0] for m in modules} - {"bot", "hooks", "__main__"}
    third_party = {m for m in tops - set(sys.stdlib_module_names) if not m.startswith("_")}
    assert sorted(third_party) == []
    public_stdlib = {m for m in tops & set(sys.stdlib_module_names) if not m.startswith("_")}
    assert sorted(public_stdlib - STDLIB) == []
