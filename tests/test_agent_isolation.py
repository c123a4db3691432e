"""Commands implement runs: what they can and cannot reach, for each mechanism that works here."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.agent.implementation.isolation import Mechanism, command_env, works
from bot.agent.toolbox.base import ToolContext
from bot.agent.toolbox.catalog import ALL_TOOLS, check_arguments
from bot.agent.toolbox.permission import Mode, permit
from bot.config.load import Config, ImplementSection
from bot.core.errors import PermissionDenied
from tests.conftest import git
from tests.fakes import ScriptedPrompter
from tests.hostile import CONFTEST, PYTEST, SECRETS, TEST_TMP, leaked, plant

RFD = "docs/rfd/001-a.md"
MECHANISMS = [
    pytest.param(m, marks=pytest.mark.skipif(not works(m), reason=f"{m.value} does not work here"))
    for m in Mechanism
]


def test_the_environment_is_an_allowlist() -> None:
    environ = {**SECRETS, "PATH": "/usr/bin", "LC_ALL": "C", "TZ": "UTC", "HOME": "/home/me"}
    environ |= {"PYTHONPATH": "/evil", "GIT_CONFIG_COUNT": "1", "SSH_AUTH_SOCK": "/run/a"}
    env = command_env(environ, passed=("TZ", "CI"))
    assert env == {
        "PATH": "/usr/bin",
        "LC_ALL": "C",
        "TZ": "UTC",
        "HOME": "/tmp/home",
        "TMPDIR": "/tmp",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }


@pytest.fixture
def worktree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A linked worktree of a repository holding an RFD, as the bot makes one; secrets planted."""
    base = tmp_path / "base"
    (base / "docs/rfd").mkdir(parents=True)
    (base / RFD).write_text("# RFD 001: A\n", encoding="utf-8")
    git(tmp_path, "init", "-q", str(base))
    git(base, "add", "-A")
    git(base, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "rfd")
    git(base, "worktree", "add", "-q", "--detach", str(tmp_path / "wt"), "HEAD")
    plant(monkeypatch, Path.home(), base)
    return tmp_path / "wt"


def run_command(root: Path, command: str, mechanism: str, **implement: Any) -> str:
    commands = (PYTEST, sys.executable)
    config = Config(
        implement=ImplementSection(allowed_commands=commands, isolation=mechanism, **implement)
    )
    tool = ALL_TOOLS["run_command"]
    arguments = check_arguments(tool, {"command": command})
    return tool.handler(ToolContext.for_repo(root, config), arguments)


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_a_hostile_conftest_finds_no_secret_and_cannot_delete_the_rfds(
    worktree: Path, mechanism: Mechanism
) -> None:
    (worktree / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (worktree / "test_tmp.py").write_text(TEST_TMP, encoding="utf-8")
    out = run_command(worktree, f"{PYTEST} -q test_tmp.py", mechanism.value)
    loot = (worktree / "leak.txt").read_text(encoding="utf-8")
    assert "GIT_CONFIG_GLOBAL" in loot  # it ran, and read its own environment
    assert leaked(loot) == [] and leaked(out) == []
    assert (worktree / RFD).read_text(encoding="utf-8") == "# RFD 001: A\n"
    assert "1 passed" in out


PROBE = """
import os, pathlib, socket, sys
for target in pathlib.Path("targets.txt").read_text().split():
    try:
        pathlib.Path(target).write_text("x")
        print("wrote", target)
    except OSError as exc:
        print("refused", target, exc.errno)
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
    print("connected")
except OSError:
    print("offline")
try:
    socket.socket(socket.AF_UNIX).connect(pathlib.Path("daemon.txt").read_text())
    print("daemon reached")
except OSError:
    print("no daemon")
"""


@pytest.mark.parametrize("mechanism", MECHANISMS)
@pytest.mark.parametrize("network", [False, True])
def test_writes_stay_in_the_worktree_and_the_network_is_off_unless_configured(
    worktree: Path, tmp_path: Path, mechanism: Mechanism, network: bool
) -> None:
    (worktree / "probe.py").write_text(PROBE, encoding="utf-8")
    outside = [tmp_path / "base" / "x", tmp_path / "base/.git/hooks/pre-commit", "/usr/x"]
    inside = [worktree / "src.py", worktree / RFD, worktree / ".git"]
    daemon = socket.socket(socket.AF_UNIX)  # like Docker's socket: a network namespace
    daemon.bind(str(tmp_path / "d.sock"))  # does not cover Unix sockets, hiding does
    daemon.listen()
    (worktree / "daemon.txt").write_text(str(tmp_path / "d.sock"), encoding="utf-8")
    with daemon, socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        targets = "\n".join(str(p) for p in (*outside, *inside))
        (worktree / "targets.txt").write_text(targets, encoding="utf-8")  # no argument names them
        command = f"{sys.executable} probe.py {server.getsockname()[1]}"
        out = run_command(worktree, command, mechanism.value, network=network)
    assert (worktree / "src.py").read_text(encoding="utf-8") == "x"
    # an emptied directory may take a write, which vanishes with the command
    assert not any(Path(p).exists() for p in outside)
    assert (worktree / RFD).read_text(encoding="utf-8") == "# RFD 001: A\n"
    assert (worktree / ".git").read_text(encoding="utf-8").startswith("gitdir:")
    assert ("connected" if network else "offline") in out
    assert "no daemon" in out


def test_without_isolation_the_bot_refuses_commands_and_says_how_to_enable_it(
    tmp_path: Path,
) -> None:
    ctx = ToolContext.for_repo(tmp_path, Config(implement=ImplementSection(isolation="none")))
    with pytest.raises(PermissionDenied, match="cannot be isolated here") as info:
        permit(ALL_TOOLS["run_command"], {"command": "pytest"}, ctx, Mode.CONFINED, None)
    assert "bubblewrap" in info.value.hint


def test_without_isolation_a_person_confirms_each_command_even_with_yes(tmp_path: Path) -> None:
    ctx = ToolContext.for_repo(tmp_path, Config(implement=ImplementSection(isolation="none")))
    prompter = ScriptedPrompter(["y"])
    args = {"command": "pytest -q"}
    assert permit(ALL_TOOLS["run_command"], args, ctx, Mode.YES, prompter) == args
    [(tool, preview)] = prompter.shown
    assert tool == "run_command" and "not isolated" in preview and "$ pytest -q" in preview


def test_rfds_at_the_repository_root_leave_the_worktree_writable(tmp_path: Path) -> None:
    from bot.agent.implementation.isolation import view_for

    (tmp_path / "docs").mkdir()
    assert tmp_path.resolve() not in view_for(tmp_path, ".", {}).read_only
    assert (tmp_path / "docs").resolve() in view_for(tmp_path, "docs", {}).read_only
    assert Path("/run") in view_for(tmp_path, "docs", {}).hidden  # daemons' sockets


def test_rfd_implement_says_plainly_when_commands_cannot_be_isolated(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No terminal to ask (--yes, piped): the command is refused, the model told why."""
    from bot.cli.main import main
    from tests.conftest import rfd_text, write_rfd
    from tests.fakes import ScriptedLLM, item_done, reply, scripted_providers

    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text('[implement]\nisolation = "none"\n')
    assert main(["-C", str(git_repo), "accept", "1"]) == 0
    item = [reply("", ("run_command", {"command": "pytest -q"})), item_done("done")]
    llm = ScriptedLLM([reply("Research."), reply("- [ ] 1. Test\n"), *item, reply("Sum.")])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    assert main(["-C", str(git_repo), "implement", "1", "--yes"]) == 0
    assert "commands cannot be isolated here" in capsys.readouterr().err
    [result] = [m for m in llm.requests[3].messages if "refused" in str(m)]
    assert "cannot be isolated here" in str(result)


def test_a_command_started_outside_a_tool_call_fails_closed_without_isolation(
    tmp_path: Path,
) -> None:
    """What the item loop runs itself (a verify command) goes through the same door."""
    from bot.agent.toolbox.commands import run_isolated

    ctx = ToolContext.for_repo(tmp_path, Config(implement=ImplementSection(isolation="none")))
    with pytest.raises(PermissionDenied, match="cannot be isolated here"):
        run_isolated(ctx, [sys.executable, "-c", "print('ran')"])
    assert not list(tmp_path.iterdir())


def test_rfd_implement_refuses_to_start_where_nothing_isolates_unless_the_repo_allows_it(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``auto`` finding no mechanism: no model call, an error saying how to isolate or how
    the repository may allow unisolated commands (confirmed one by one)."""
    from bot.cli.main import main
    from tests.conftest import rfd_text, write_rfd
    from tests.fakes import ScriptedLLM, scripted_providers

    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    assert main(["-C", str(git_repo), "accept", "1"]) == 0
    llm = ScriptedLLM([])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    monkeypatch.setattr("bot.agent.implementation.isolation.works", lambda mechanism: False)
    assert main(["-C", str(git_repo), "implement", "1", "--yes"]) == 1
    err = capsys.readouterr().err
    assert "cannot be isolated here" in err and 'implement.isolation = "none"' in err
    assert llm.requests == []
