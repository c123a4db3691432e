"""What the terminal says when something is off: outside a repository, a mistyped command
or id, and which lint findings are errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.main import main
from tests.conftest import write_rfd


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


@pytest.mark.parametrize("argv", [("list",), ("status", "1"), ("lint",)])
def test_outside_a_repository_is_an_error_that_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    assert run(tmp_path, *argv) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path.resolve()} is not inside a repository" in err
    assert "`rfd init` sets one up" in err


def test_a_mistyped_command_gets_a_did_you_mean(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(rfd_repo, "lsit") == 2
    assert "No such command 'lsit'. Did you mean 'list' or 'lint'?" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("query", "meant"), [("webhok", "001"), ("tracing-bg", "D1"), ("2", "001")]
)
def test_a_mistyped_id_or_name_gets_a_did_you_mean(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str], query: str, meant: str
) -> None:
    assert run(rfd_repo, "status", query) == 1
    err = capsys.readouterr().err
    assert "did you mean" in err and f"- {meant}  docs/rfd/" in err


def test_lint_says_which_findings_are_errors(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(rfd_repo, "002-bad.md", "# RFD 002: Bad\n\n- **Status**: Wat\n\n## Summary\n\nx\n")
    assert run(rfd_repo, "lint") == 1
    out = capsys.readouterr().out
    assert "docs/rfd/002-bad.md:3: error: unknown status 'Wat'" in out
    assert out.splitlines()[-1].endswith(": errors fail the check, warnings are reported only")
    assert out.splitlines()[-1].startswith("1 error, ")


@pytest.mark.parametrize(
    ("line", "style"),
    [
        ("--- a/x.md", "bold"),
        ("+++ b/x.md", "bold"),
        ("@@ -1 +1 @@", "cyan"),
        ("+added", "green"),
        ("-removed", "red"),
        (" context", None),
    ],
)
def test_diff_lines_are_coloured_by_kind(line: str, style: str | None) -> None:
    from bot.cli.output import diff_style

    assert diff_style(line) == style


def test_refine_in_ask_mode_shows_each_diff_once(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The change is shown when it is approved, and not printed again after the pass."""
    import sys

    from bot.config.load import load_config
    from bot.state import StateStore
    from tests.conftest import rfd_text
    from tests.fakes import ScriptedLLM, reply, scripted_providers

    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    StateStore(git_repo, load_config(git_repo)).save_review("001", "# R\n\nVague.\n", now=1)
    revision = {"sections": [{"section": "Summary", "content": "Kept summary."}], "notes": "ok"}
    llm = ScriptedLLM([reply("", ("submit_revision", revision)), reply("CONVERGED")])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("click.prompt", lambda *_a, **_k: "")  # enter: apply; skip dismissing
    assert run(git_repo, "refine", "1") == 0
    out = capsys.readouterr().out
    assert out.count("+Kept summary.") == 1
    assert "Kept summary." in (git_repo / "docs/rfd/001-a.md").read_text()


def test_markdown_on_a_terminal_is_wrapped_never_cropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review's long finding ends up on the screen whole, wrapped at the terminal's width."""
    import io
    import re

    from bot.cli.output import Output

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("COLUMNS", "40")
    monkeypatch.delenv("NO_COLOR")
    out = Output(stdout=Tty())
    out.markdown("## Findings\n\n- **major** · Design: " + "word " * 30 + "END\n")
    shown = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout.getvalue())
    assert "END" in shown and shown.count("word") == 30
    assert max(len(line.rstrip()) for line in shown.splitlines()) <= 40
