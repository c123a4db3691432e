from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.agent.toolbox.base import Step, ToolContext
from bot.agent.toolbox.catalog import ALL_TOOLS, check_arguments, spec, toolset
from bot.agent.toolbox.commands import cap
from bot.config.load import Config, ImplementSection
from bot.core.errors import FileNotFound, PermissionDenied, RfdError, ValidationError

AUTHOR_WRITES = {
    Step.EXPLORE: {"rfd_explore_summary"},
    Step.CONVERGE: {"rfd_decision"},
    Step.DRAFT: {"rfd_draft", "rfd_section"},
    Step.IMPLEMENT: {"write_file", "edit_file", "run_command"},
}


@pytest.mark.parametrize("step", list(Step))
def test_each_step_gets_only_its_write_tools(step: Step) -> None:
    writes = {t.name for t in toolset(step) if t.writes}
    assert writes == AUTHOR_WRITES.get(step, set())


@pytest.mark.parametrize("step", [Step.REVIEW, Step.RESEARCH, Step.PLAN, Step.SUMMARY])
def test_read_only_steps_have_no_write_tool_at_all(step: Step) -> None:
    assert not any(t.writes for t in toolset(step))
    assert not any(spec(t).writes for t in toolset(step))


def test_the_document_steps_answer_tools_write_nothing() -> None:
    """Review, refine and plan extraction are offered these tools, and only these."""
    from bot.ai.shared import DOCUMENT_TOOLS

    assert [t.name for t in DOCUMENT_TOOLS] == ["submit_review", "submit_revision", "submit_plan"]
    assert not any(t.writes for t in DOCUMENT_TOOLS)
    assert not {t.name for t in DOCUMENT_TOOLS} & set(ALL_TOOLS)
    assert toolset(Step.REFINE) == ()


def ctx_for(root: Path, **implement: Any) -> ToolContext:
    return ToolContext.for_repo(root, Config(implement=ImplementSection(**implement)))


def call(ctx: ToolContext, name: str, **args: Any) -> str:
    tool = ALL_TOOLS[name]
    return tool.handler(ctx, check_arguments(tool, args))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("one\ntwo\nthree\n")
    (root / "notes.md").write_text("two roads\n")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("two\n")
    return root


def test_read_file_with_a_line_window(repo: Path) -> None:
    assert call(ctx_for(repo), "read_file", path="src/app.py") == "one\ntwo\nthree\n"
    assert call(ctx_for(repo), "read_file", path="src/app.py", offset=2, limit=1) == "two\n"
    with pytest.raises(FileNotFound):
        call(ctx_for(repo), "read_file", path="src")


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read_file", {"path": ".git/config"}),
        ("read_file", {"path": "src/../.git/config"}),
        ("list_files", {"path": ".git"}),
        ("grep_files", {"pattern": "two", "path": ".git"}),
        ("read_file", {"path": "link-to-git/config"}),
        ("read_file", {"path": "outside/secret.txt"}),
    ],
)
def test_reads_never_enter_git_or_leave_the_repository(
    repo: Path, tool: str, args: dict[str, Any]
) -> None:
    (repo / "link-to-git").symlink_to(repo / ".git")
    (repo.parent / "secret.txt").write_text("outside\n")
    (repo / "outside").symlink_to(repo.parent)
    with pytest.raises(PermissionDenied, match=r"never read|outside the repository"):
        call(ctx_for(repo), tool, **args)


def test_workflows_stay_readable(repo: Path) -> None:
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\n")
    assert call(ctx_for(repo), "read_file", path=".github/workflows/ci.yml") == "on: push\n"


def test_list_and_grep_skip_git_and_stay_inside(repo: Path) -> None:
    assert call(ctx_for(repo), "list_files").splitlines() == ["notes.md", "src/app.py"]
    hits = call(ctx_for(repo), "grep_files", pattern="two")
    assert hits.splitlines() == ["notes.md:1: two roads", "src/app.py:2: two"]
    with pytest.raises(PermissionDenied):
        call(ctx_for(repo), "grep_files", pattern="x", path="..")
    with pytest.raises(ValidationError, match="regular expression"):
        call(ctx_for(repo), "grep_files", pattern="(")


def test_write_and_edit_files(repo: Path) -> None:
    ctx = ctx_for(repo)
    assert call(ctx, "write_file", path="new/a.txt", content="x\n").startswith("created new/a.txt")
    assert (repo / "new" / "a.txt").read_text() == "x\n"
    call(ctx, "edit_file", path="src/app.py", old="two", new="2")
    assert (repo / "src" / "app.py").read_text() == "one\n2\nthree\n"


@pytest.mark.parametrize(
    ("old", "message"), [("absent", "not found"), ("oo", "found 2 times"), ("", "not found")]
)
def test_edit_needs_exactly_one_match(repo: Path, old: str, message: str) -> None:
    (repo / "f.txt").write_text("foo boo\n")
    with pytest.raises(ValidationError, match=message):
        call(ctx_for(repo), "edit_file", path="f.txt", old=old, new="x")
    assert (repo / "f.txt").read_text() == "foo boo\n"


def test_edit_preview_is_a_unified_diff(repo: Path) -> None:
    tool = ALL_TOOLS["edit_file"]
    assert tool.preview is not None
    diff = tool.preview(ctx_for(repo), {"path": "src/app.py", "old": "two", "new": "2"})
    assert diff.splitlines()[:2] == ["--- a/src/app.py", "+++ b/src/app.py"]
    assert "-two" in diff.splitlines() and "+2" in diff.splitlines()
    assert (repo / "src" / "app.py").read_text() == "one\ntwo\nthree\n"  # nothing written


@pytest.mark.parametrize("path", [".git/config", ".github/workflows/x.yml", "../escape.txt"])
def test_writes_to_protected_or_outside_paths_are_refused(repo: Path, path: str) -> None:
    with pytest.raises(PermissionDenied):
        call(ctx_for(repo), "write_file", path=path, content="pwned\n")
    assert (repo / ".git" / "config").read_text() == "two\n"
    assert not (repo.parent / "escape.txt").exists()


def test_allowed_commands_run_without_a_shell(repo: Path) -> None:
    ctx = ctx_for(repo, allowed_commands=(f"{sys.executable} -c",))
    out = call(ctx, "run_command", command=f"{sys.executable} -c 'print(1+1)'; rm -rf src")
    assert out.startswith("exit code 0\n")
    assert (repo / "src" / "app.py").exists()


@pytest.mark.parametrize(
    ("command", "argument"),
    [
        ("ruff check --fix /etc", "/etc"),
        ("make test -C /", "-C"),
        ("make test -f /tmp/evil.mk", "-f"),
        ("pytest /somewhere/else", "/somewhere/else"),
        ("python -m pytest --rootdir=/ tests", "--rootdir=/"),
        ("ruff format .git/config", ".git/config"),
    ],
)
def test_allowed_commands_cannot_name_paths_outside_or_protected(
    repo: Path, command: str, argument: str
) -> None:
    tool = ALL_TOOLS["run_command"]
    assert tool.preview is not None
    refused = re.escape(f"argument `{argument}`")
    with pytest.raises(PermissionDenied, match=refused):
        call(ctx_for(repo), "run_command", command=command)
    with pytest.raises(PermissionDenied, match=refused):  # the preview refuses before asking
        tool.preview(ctx_for(repo), {"command": command})


def test_configured_protected_paths_bind_command_arguments(repo: Path) -> None:
    ctx = ctx_for(repo, protected_paths=(".git/**", "migrations/**"))
    with pytest.raises(PermissionDenied, match=r"`migrations/x\.py`, which is protected"):
        call(ctx, "run_command", command="ruff check --fix migrations/x.py")


def test_commands_run_in_the_repository_root(repo: Path) -> None:
    ctx = ctx_for(repo, allowed_commands=(f"{sys.executable} -c",))
    out = call(ctx, "run_command", command=f"{sys.executable} -c 'import os; print(os.getcwd())'")
    assert out == f"exit code 0\n{repo.resolve()}\n"


@pytest.mark.parametrize(
    "command", ["rm -rf /", "pytest-evil", "sh -c pytest", "python -m pip install x"]
)
def test_commands_outside_the_allow_list_are_refused(repo: Path, command: str) -> None:
    with pytest.raises(PermissionDenied, match="not an allowed command"):
        call(ctx_for(repo), "run_command", command=command)


def test_command_failures_are_reported(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret")
    ctx = ctx_for(repo, allowed_commands=(sys.executable, "no-such-binary"))
    code = "import os,sys; print(os.environ.get('ANTHROPIC_API_KEY')); sys.exit(3)"
    out = call(ctx, "run_command", command=f'{sys.executable} -c "{code}"')
    assert out == "exit code 3\nNone\n"  # secrets never reach the command
    with pytest.raises(ValidationError, match="not installed"):
        call(ctx, "run_command", command="no-such-binary --version")


def test_commands_get_an_environment_without_secrets(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secrets = ["GITHUB_TOKEN", "ANTHROPIC_API_KEY", "GH_PAT", "NPM_AUTH", "AWS_CREDENTIALS"]
    for name in secrets:
        monkeypatch.setenv(name, "s3cr3t")
    monkeypatch.setenv("LANG", "C.UTF-8")
    ctx = ctx_for(repo, allowed_commands=(f"{sys.executable} -c",))
    code = (
        "import os; e = os.environ;"
        " print(sorted(k for k, v in e.items() if v == 's3cr3t'), e['LANG'], 'PATH' in e)"
    )
    assert call(ctx, "run_command", command=f'{sys.executable} -c "{code}"') == (
        "exit code 0\n[] C.UTF-8 True\n"
    )


def test_a_slow_command_times_out(repo: Path) -> None:
    ctx = ctx_for(repo, allowed_commands=(sys.executable,))
    slow = ToolContext(ctx.sandbox, ctx.config, command_timeout=0.2)
    with pytest.raises(ValidationError, match="timed out"):
        call(slow, "run_command", command=f"{sys.executable} -c 'import time; time.sleep(5)'")


def test_long_output_is_capped_visibly() -> None:
    out = cap("a" * 50 + "b" * 50, limit=20)
    assert out.startswith("a" * 10) and out.endswith("b" * 10)
    assert "[... 80 characters cut ...]" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "missing argument"),
        ({"path": 3}, "must be of type string"),
        ({"path": "a", "color": "red"}, "unknown argument"),
        ({"path": "a", "offset": True}, "must be of type integer"),
    ],
)
def test_arguments_are_checked_against_the_schema(args: dict[str, Any], message: str) -> None:
    with pytest.raises(RfdError, match=message):
        check_arguments(ALL_TOOLS["read_file"], args)


def test_enums_are_checked() -> None:
    with pytest.raises(ValidationError, match="one of add, update, reject"):
        check_arguments(ALL_TOOLS["rfd_decision"], {"action": "delete"})
