"""The ``rfd`` command through its real entry point: output, --json, exit codes."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.conftest import rfd_text, write_rfd


def run(repo: Path, *argv: str) -> int:
    return main(["-C", str(repo), *argv])


def test_init_is_idempotent_and_commits_state(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (git_repo / ".gitignore").write_text(".state/\n")
    assert run(git_repo, "init", "--example") == 0
    assert (git_repo / ".github/rfd.toml").exists()
    assert "!docs/rfd/.state/" in (git_repo / ".gitignore").read_text()
    assert list((git_repo / "docs/rfd").glob("001-*.md"))
    capsys.readouterr()
    assert run(git_repo, "init") == 0
    assert "already set up" in capsys.readouterr().out


def test_init_example_twice_adds_nothing_twice(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(git_repo, "init", "--example") == 0
    assert run(git_repo, "promote", "D1") == 0  # the example draft is now RFD 002
    rfds = git_repo / "docs/rfd"
    before = sorted(p.name for p in rfds.glob("*.md"))
    capsys.readouterr()
    assert run(git_repo, "init", "--example") == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in rfds.glob("*.md")) == before  # no second D1
    assert "example D1-tracing-for-background-jobs.md is there already: " in out
    assert "docs/rfd/002-tracing-for-background-jobs.md" in out
    assert "nothing to do: already set up" in out and "added example" not in out
    assert run(git_repo, "init", "--example", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["changed"] == [] and len(data["kept"]) == 2


def test_init_example_never_adds_a_second_rfd_with_an_id_in_use(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    own = write_rfd(git_repo, "001-our-own.md", rfd_text("001", "Our own"))
    (git_repo / "docs/rfd/.state/D1").mkdir(parents=True)  # draft number D1 was used
    assert run(git_repo, "init", "--example") == 0
    out = capsys.readouterr().out
    assert "example 001-webhook-retry-queue.md not added: RFD 001 is docs/rfd/001-our-own.md" in out
    assert "example D1-tracing-for-background-jobs.md not added: draft number D1" in out
    assert sorted(p.name for p in own.parent.glob("*.md")) == ["001-our-own.md"]


def test_list_and_json(rfd_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(rfd_repo, "list") == 0
    text = capsys.readouterr().out
    assert "001" in text and "Discussion" in text and "\x1b[" not in text
    assert run(rfd_repo, "list", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["id"] for r in data["rfds"]} >= {"001"}


def test_status_ends_with_next_actions(rfd_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(rfd_repo, "status", "1") == 0
    out = capsys.readouterr().out
    assert out.startswith("RFD 001: ")
    assert "Actions:" in out and "rfd accept 001" in out


def test_unknown_rfd_is_exit_1_with_a_clear_line(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(rfd_repo, "status", "99") == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "99" in err


def test_usage_errors_are_exit_2(rfd_repo: Path) -> None:
    assert run(rfd_repo, "status", "1", "2") == 2
    assert run(rfd_repo, "frobnicate") == 2


def test_status_alone_shows_every_rfd_in_flight_with_its_next_step(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_rfd(rfd_repo, "002-done.md", rfd_text("002", "Shipped Long Ago", "Implemented"))
    write_rfd(rfd_repo, "003-old.md", rfd_text("003", "Accepted Before The Bot", "Accepted"))
    assert run(rfd_repo, "accept", "1") == 0
    capsys.readouterr()
    assert run(rfd_repo, "status") == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "  001  Accepted     Retry Queue for Outgoing Webhooks  0/3 phases",
        "       next: `rfd implement 001` — Implement phase 1: Delivery table and enqueue (opus)",
        "   D1  Draft        Tracing for Background Jobs",
        "       next: `rfd explore D1` — Research the problem space (sonnet)",
    ]
    assert run(rfd_repo, "status", "--json") == 0
    rows = json.loads(capsys.readouterr().out)["rfds"]
    assert [(r["id"], r["next"]["command"]) for r in rows] == [
        ("001", "rfd implement 001"),
        ("D1", "rfd explore D1"),
    ]


def test_status_alone_says_when_nothing_is_in_flight(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(git_repo, "status") == 0
    assert "no RFDs under docs/rfd/ — create one with `rfd new design" in capsys.readouterr().out
    write_rfd(git_repo, "001-done.md", rfd_text("001", "Shipped", "Implemented"))
    assert run(git_repo, "status") == 0
    out = capsys.readouterr().out
    assert out.startswith("no RFD in flight (1 RFD: none is a draft, in discussion or accepted")
    assert "`rfd list` shows them all" in out


def test_json_errors_are_json(rfd_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(rfd_repo, "status", "99", "--json") == 1
    data = json.loads(capsys.readouterr().out)
    assert data["error"]["type"] == "file_not_found"


def test_usage_errors_are_json_too_with_json(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(rfd_repo, "dismiss", "1", "--json") == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error["type"] == "usage_error" and "WHICH" in error["message"]
    assert error["hint"] == "see `rfd dismiss --help`"
    assert "Usage: rfd dismiss" in captured.err  # people still get click's usage text


def test_an_empty_no_color_does_not_turn_colour_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.cli.output import Output

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("NO_COLOR", "")
    assert Output()._styled(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Output()._styled(Tty())


def test_lint_reports_path_and_line(git_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    write_rfd(git_repo, "002-b.md", rfd_text("003", "B"))  # heading id ≠ file name
    assert run(git_repo, "lint") == 1
    out = capsys.readouterr().out
    assert "docs/rfd/002-b.md:1:" in out


def test_full_offline_cycle(rfd_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(rfd_repo, "review", "1") == 0
    assert run(rfd_repo, "dismiss", "1", "nonsense") == 1
    assert run(rfd_repo, "dismiss", "1", "all") == 0
    assert run(rfd_repo, "plan", "1", "--json") == 0
    capsys.readouterr()
    assert run(rfd_repo, "accept", "1") == 0
    summary = rfd_repo / "s.md"
    summary.write_text("did it\n")
    for n in ("1", "2", "3"):
        assert run(rfd_repo, "phase", "1", "done", n, "--summary", str(summary)) == 0
    assert run(rfd_repo, "done", "1") == 0
    capsys.readouterr()
    assert run(rfd_repo, "status", "1", "--json") == 0
    view = json.loads(capsys.readouterr().out)
    assert view["status"] == "Implemented"
    assert [p["done"] for p in view["phases"]] == [True, True, True]


def test_new_asks_nothing_when_told(git_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(git_repo, "new", "design", "Queue") == 0
    assert run(git_repo, "new", "design", "Queue") == 1
    assert "--on-exists" in capsys.readouterr().err
    assert run(git_repo, "new", "design", "Queue", "--on-exists", "suffix") == 0
    assert (git_repo / "docs/rfd/D2-queue-2.md").exists()


def test_demo_runs_every_step_offline(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    for step in ("$ rfd review 1", "$ rfd accept 1", "$ rfd done 1", "tracking issue"):
        assert step in out
    assert "Implemented" in out


def test_status_reads_only_the_rfd_asked_for(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.config import discovery

    for n in range(1, 30):
        write_rfd(git_repo, f"{n:03d}-r{n}.md", rfd_text(f"{n:03d}", f"R{n}"))
    reads: list[str] = []
    real = discovery.read
    monkeypatch.setattr(discovery, "read", lambda root, f: reads.append(f.path) or real(root, f))
    assert run(git_repo, "status", "7") == 0
    assert reads == ["docs/rfd/007-r7.md"]


def test_decide_by_hand_validates_and_keeps_numbers(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(rfd_repo, "decide", "1", "add", "--text", "Use a table", "--status", "locked") == 0
    assert run(rfd_repo, "decide", "1", "add", "--text", "Backoff cap") == 0
    assert run(rfd_repo, "decide", "1", "reject", "1") == 1  # no reason
    assert "reason" in capsys.readouterr().err
    assert run(rfd_repo, "decide", "1", "reject", "1", "--reason", "a broker is simpler") == 0
    text = (rfd_repo / "docs/rfd/.state/001/decisions.md").read_text()
    assert "2. Backoff cap" in text and "- ~~1. Use a table~~ a broker is simpler" in text


def test_lint_reports_broken_state_with_what_to_do(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = rfd_repo / "docs/rfd/.state/001/plan.json"
    plan.parent.mkdir(parents=True)
    plan.write_text("[{]")
    assert run(rfd_repo, "lint") == 1
    out = capsys.readouterr().out
    assert "plan.json" in out and "rfd plan 001" in out


def test_demo_needs_no_git_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "gitconfig"
    empty.write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    for var in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "EMAIL"):
        monkeypatch.delenv(var, raising=False)
    assert main(["demo"]) == 0
    assert "$ rfd done 1" in capsys.readouterr().out


@pytest.mark.parametrize("ignore", [".state/\n", "*.json\n", "docs/rfd/.state/\n"])
def test_init_makes_every_state_file_committable(git_repo: Path, ignore: str) -> None:
    from tests.conftest import git as run_git

    (git_repo / ".gitignore").write_text(ignore)
    assert run(git_repo, "init") == 0
    for sample in ("001/plan.json", "001/reviews/1700000000.md"):
        path = f"docs/rfd/.state/{sample}"
        proc = subprocess.run(
            ["git", "check-ignore", "--no-index", "-q", path], cwd=git_repo, check=False
        )
        assert proc.returncode == 1, f"{path} is still ignored"
    assert run_git(git_repo, "status", "--short")  # .gitignore changed


def test_init_ignores_the_site_once_and_keeps_the_users_gitignore(git_repo: Path) -> None:
    from tests.conftest import git as run_git

    mine = b"# ours\r\nnode_modules/\r\n*.log"  # CRLF, no newline at the end
    (git_repo / ".gitignore").write_bytes(mine)
    assert run(git_repo, "init") == 0
    assert run(git_repo, "init") == 0
    written = (git_repo / ".gitignore").read_bytes()
    assert written.startswith(mine + b"\r\n# `rfd site` builds here")
    assert written.count(b"/_site/\r\n") == 1
    (git_repo / "_site").mkdir()
    (git_repo / "_site/index.html").write_text("<html></html>")
    run_git(git_repo, "add", "-A")
    assert "_site" not in run_git(git_repo, "status", "--short")


def test_init_unignores_the_state_and_keeps_the_users_ignore_and_attributes_bytes(
    git_repo: Path,
) -> None:
    from tests.conftest import git as run_git

    mine = b"# ours\r\n.state/\r\n\r\n"  # CRLF, a blank line at the end: ignores the state
    attrs = b"*.png binary"  # no newline at the end
    (git_repo / ".gitignore").write_bytes(mine)
    (git_repo / ".gitattributes").write_bytes(attrs)
    assert run(git_repo, "init") == 0
    assert run(git_repo, "init") == 0
    ignore = (git_repo / ".gitignore").read_bytes()
    assert ignore.startswith(mine + b"# rfd-bot state is committed\r\n")
    assert ignore.count(b"!docs/rfd/.state/**\r\n") == 1 and b"\r\r" not in ignore
    assert (git_repo / ".gitattributes").read_bytes() == (
        attrs + b"\ndocs/rfd/.state/** linguist-generated=true\n"
    )
    (git_repo / "docs/rfd/.state/001").mkdir(parents=True)
    (git_repo / "docs/rfd/.state/001/plan.json").write_text("[]\n")
    assert "docs/rfd/.state/001/plan.json" in run_git(git_repo, "status", "--short", "-uall")


def test_init_adds_no_site_rule_where_git_ignores_the_site_already(git_repo: Path) -> None:
    (git_repo / ".gitignore").write_text("_site\n")
    assert run(git_repo, "init") == 0
    assert (git_repo / ".gitignore").read_text() == "_site\n"


@pytest.mark.parametrize(
    ("ignore", "said"),
    [
        ("", "warning: _site/ is not ignored by git: `git add -A` would commit the built site"),
        ("/_site/\n", None),
    ],
)
def test_site_warns_when_git_would_commit_what_it_builds(
    rfd_repo: Path, ignore: str, said: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    (rfd_repo / ".gitignore").write_text(ignore)
    assert run(rfd_repo, "site", "--no-search") == 0
    err = capsys.readouterr().err
    assert (said in err) if said else "_site/" not in err


def test_site_warns_when_its_output_is_committed(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.conftest import git as run_git

    (rfd_repo / ".gitignore").write_text("public/\n")
    assert run(rfd_repo, "site", "--out", "public", "--no-search") == 0
    assert "public/" not in capsys.readouterr().err
    run_git(rfd_repo, "add", "-f", "public")
    assert run(rfd_repo, "site", "--out", "public", "--no-search") == 0
    err = capsys.readouterr().err
    assert "public/ is committed: the built site goes into every commit" in err
    assert "`git rm -r --cached public`" in err


def test_an_rfd_accepted_without_a_plan_gets_an_issue_that_says_how_to_finish_it(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(git_repo, "init") == 0
    config = git_repo / ".github/rfd.toml"
    config.write_text(config.read_text() + "\n[process]\naccepted_needs_plan = false\n")
    planless = rfd_text("001", "Naming Things").split("## Implementation Plan")[0]
    write_rfd(git_repo, "001-naming-things.md", planless)
    assert run(git_repo, "accept", "1") == 0
    issue = git_repo / "docs/rfd/.state/.forge/issues/1.md"
    body = issue.read_text()
    assert "0/0" not in body and "- [" not in body
    assert (
        "RFD 001 was accepted without a plan ([process] `accepted_needs_plan = false`): there "
        "are no phases to tick here. When its work is done, comment `/rfd done` on this issue "
        "(or run `rfd done 001`): the RFD becomes Implemented and this issue closes."
    ) in body
    assert "write `### Phase 1: Title` headings under `## Implementation Plan`" in body
    capsys.readouterr()
    assert run(git_repo, "done", "1") == 0  # no phase to record: nothing stands in the way
    assert "- **Status**: Implemented" in (git_repo / "docs/rfd/001-naming-things.md").read_text()
    assert issue.read_text().startswith("# #1 RFD 001: Naming Things (closed)")


def test_lint_of_a_path_that_is_no_rfd_says_so(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(rfd_repo, "lint", str(rfd_repo / "README.md")) == 1
    assert "not an RFD" in capsys.readouterr().err
    one = rfd_repo / "docs/rfd/001-webhook-retry-queue.md"
    assert run(rfd_repo, "lint", str(one)) == 0
    assert "1 RFD checked" in capsys.readouterr().out


def test_abandoning_an_accepted_rfd_closes_its_tracking_issue(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(rfd_repo, "accept", "1") == 0
    assert run(rfd_repo, "abandon", "1", "--reason", "replaced by a broker") == 0
    issue = (rfd_repo / "docs/rfd/.state/.forge/issues/1.md").read_text()
    assert issue.startswith("# #1 RFD 001: Retry Queue for Outgoing Webhooks (closed)")


def test_status_names_the_configured_models(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (rfd_repo / ".github/rfd.toml").write_text('[steps.review]\nmodel = "gemini-pro"\n')
    assert run(rfd_repo, "review", "1") == 0
    capsys.readouterr()
    assert run(rfd_repo, "status", "1") == 0
    out = capsys.readouterr().out
    assert "Review the RFD (gemini-pro)" in out
    assert "Refine the RFD from its reviews (opus)" in out


def test_review_and_dismiss_say_each_result_once(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RFD_PROVIDER", "offline")
    assert run(rfd_repo, "review", "1") == 0
    out = capsys.readouterr().out
    saved = next(p for p in (rfd_repo / "docs/rfd/.state/001/reviews").iterdir())
    shown = saved.relative_to(rfd_repo).as_posix()
    assert out.count(shown) == 1  # the path of the saved review, once
    assert out.count("# Review of RFD 001") == 1
    assert "✓ RFD 001: 1 active review — `rfd refine 001`" in out
    assert run(rfd_repo, "dismiss", "1", "all") == 0
    out = capsys.readouterr().out
    assert out.count(shown) == 1 and out.count("dismissed") == 1
    assert out.rstrip().endswith("✓ RFD 001: no active reviews left")


def test_review_and_dismiss_json_is_one_document(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RFD_PROVIDER", "offline")
    assert run(rfd_repo, "review", "1", "--json") == 0
    captured = capsys.readouterr()
    review = json.loads(captured.out)
    assert review["review"].startswith("# Review of RFD 001")
    assert captured.err.count(review["path"]) == 1
    assert run(rfd_repo, "dismiss", "1", "all", "--json") == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"dismissed": [review["path"]]}
    assert captured.err.count(review["path"]) == 1


def test_promote_accept_phase_and_done_say_each_fact_once_then_what_is_next(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The event lines (→) say what changed; the ✓ line names the next step, nothing twice."""
    monkeypatch.setenv("RFD_PROVIDER", "offline")
    assert run(rfd_repo, "promote", "D1") == 0
    out = capsys.readouterr().out
    assert out.count("Draft → Discussion") == 1 and out.count("002-tracing") == 1
    assert "✓ RFD 002: next, `rfd review 002` — Review the RFD" in out
    assert run(rfd_repo, "accept", "1") == 0
    out = capsys.readouterr().out
    assert out.count("3 phases") == 1 and out.count("tracking issue #1") == 1
    assert "✓ RFD 001: next, `rfd implement 001` — Implement phase 1: Delivery table" in out
    assert run(rfd_repo, "status", "1") == 0
    out = capsys.readouterr().out
    assert "Phases:         0/3 done\n" in out and "0/3 phases" not in out
    summary = rfd_repo / "s.md"
    summary.write_text("did it\n")
    assert run(rfd_repo, "phase", "1", "done", "1", "--summary", str(summary)) == 0
    out = capsys.readouterr().out
    assert out.count("Delivery table and enqueue") == 1 and out.count("1/3") == 1
    assert "✓ RFD 001: next, `rfd implement 001` — Implement phase 2: Worker" in out
    for n in ("2", "3"):
        assert run(rfd_repo, "phase", "1", "done", n, "--summary", str(summary)) == 0
    assert "✓ RFD 001: next, `rfd done 001` — Promote to Implemented" in capsys.readouterr().out
    assert run(rfd_repo, "review", "1") == 0
    assert "nothing to fix: `rfd done 001` promotes it" in capsys.readouterr().out
    assert run(rfd_repo, "done", "1", "--json") == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["new"] == "Implemented"  # still one JSON document
    assert captured.err.count("Accepted → Implemented") == 1
    assert "nothing left to do" not in captured.out


class Terminal(io.StringIO):
    """Standard input that is a terminal, with the user's answers already typed."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def accepted(rfd_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example RFD 001 accepted, phase 1 recorded from first.md."""
    monkeypatch.setenv("RFD_PROVIDER", "offline")
    assert run(rfd_repo, "accept", "1") == 0
    (tmp_path / "first.md").write_text("First summary.\n")
    (tmp_path / "second.md").write_text("Second summary.\n")
    assert run(rfd_repo, "phase", "1", "done", "1", "--summary", str(tmp_path / "first.md")) == 0
    return rfd_repo


def test_phase_done_twice_without_a_terminal_overwrites_nothing(
    accepted: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = accepted / "docs/rfd/.state/001/phases/1.md"
    capsys.readouterr()
    argv = ("phase", "1", "done", "1", "--summary", str(tmp_path / "second.md"))
    assert run(accepted, *argv) == 1
    err = capsys.readouterr().err
    assert "phase 1 of RFD 001 is recorded already: docs/rfd/.state/001/phases/1.md" in err
    assert "--on-exists use" in err and "--on-exists replace" in err
    assert recorded.read_text() == "First summary.\n"
    assert run(accepted, *argv, "--on-exists", "use") == 0
    assert "using the existing docs/rfd/.state/001/phases/1.md" in capsys.readouterr().out
    assert recorded.read_text() == "First summary.\n"
    assert run(accepted, *argv, "--on-exists", "suffix") == 2  # a phase has one summary
    assert run(accepted, *argv, "--on-exists", "replace") == 0
    assert recorded.read_text() == "Second summary.\n"


def test_phase_done_twice_on_a_terminal_asks(
    accepted: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorded = accepted / "docs/rfd/.state/001/phases/1.md"
    monkeypatch.setattr("sys.stdin", Terminal("replace\n"))
    argv = ("phase", "1", "done", "1", "--summary", str(tmp_path / "second.md"))
    assert run(accepted, *argv) == 0
    out = capsys.readouterr().out
    assert "is recorded already" in out and "Choose (use, replace) [use]" in out
    assert recorded.read_text() == "Second summary.\n"


def test_status_of_an_accepted_rfd_whose_plan_was_deleted_says_so(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(rfd_repo, "accept", "1") == 0
    (rfd_repo / "docs/rfd/.state/001/plan.json").unlink()
    capsys.readouterr()
    assert run(rfd_repo, "status", "1") == 0
    out = capsys.readouterr().out
    assert "plan.json is missing — `rfd accept 001` extracts it" in out
    assert "rfd accept 001   Extract its plan and open its tracking issue (stays Accepted)" in out
    assert run(rfd_repo, "accept", "1") == 0  # what status suggests works
    assert (rfd_repo / "docs/rfd/.state/001/plan.json").is_file()
    issues = sorted((rfd_repo / "docs/rfd/.state/.forge/issues").glob("*.md"))
    assert [p.name for p in issues] == [
        "1.md"
    ]  # the tracking issue found by its marker, not opened again
