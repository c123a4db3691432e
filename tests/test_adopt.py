"""rfd on an adopter's repository as it is (tests/data/adopt_repo): its ids, its templates."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from bot.cli.main import main
from tests.adopt_repo import RFD_COUNT, TEMPLATES, build_adopt_repo
from tests.conftest import git
from tests.hooks_support import run_hook


@pytest.fixture
def adopted(tmp_path: Path) -> Path:
    return build_adopt_repo(tmp_path / "jp")


def run_json(repo: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object]:
    capsys.readouterr()
    code = main(["-C", str(repo), *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_list_shows_every_rfd_with_its_padding_and_no_template(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, data = run_json(adopted, capsys, "list")
    assert code == 0
    assert isinstance(data, dict)
    ids = [row["id"] for row in data["rfds"]]
    assert len(ids) == RFD_COUNT
    assert ids[-7:] == ["D05", "D12", "D18", "D23", "D31", "D48", "D55"]
    assert not [row for row in data["rfds"] if "template" in row["path"]]
    assert data["errors"] == []


def test_list_exits_0_when_it_lists_despite_a_broken_file(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (adopted / "docs/rfd/032-half-written.md").write_text("just some notes\n")
    assert main(["-C", str(adopted), "list"]) == 0
    captured = capsys.readouterr()
    assert "D05  Draft" in captured.out
    assert "032-half-written.md" in captured.err


def test_a_heading_naming_another_draft_never_redirects_a_command(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """D55's heading says "RFD D48": commands still go by the file name."""
    code, d55 = run_json(adopted, capsys, "status", "D55")
    assert code == 0 and isinstance(d55, dict)
    assert (d55["rfd_id"], d55["path"]) == (
        "D55",
        "docs/rfd/drafts/D55-inline-image-attachments.md",
    )
    commands = [action["command"] for action in d55["actions"]]
    assert commands and all(command.endswith(" D55") for command in commands)
    code, d48 = run_json(adopted, capsys, "status", "D48")
    assert code == 0 and isinstance(d48, dict)
    assert d48["path"] == "docs/rfd/drafts/D48-keyboard-shortcuts.md"


def test_init_detects_each_convention_and_says_why(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-C", str(adopted), "init"]) == 0
    text = (adopted / ".github/rfd.toml").read_text()
    config = tomllib.loads(text)
    assert config["rfd"] == {
        "dir": "docs/rfd",
        "drafts_dir": "drafts",
        "templates": "000-*-template.md",
    }
    assert config["conventions"] == {
        "id_digits": 3,
        "draft_digits": 2,
        "draft_numbers": "first-free",
        "link_style": "reference",
        "back_links": ["Extended by"],
        "abandon_notice": "> [!CAUTION]\n> **Abandoned.** {reason}",
        "tracking_issue": "state",  # 6 of 25: the team stopped writing the field
    }
    for evidence in (
        "# docs/rfd — 31 RFDs live there\ndir =",
        "# 7 of 7 drafts live in drafts/\ndrafts_dir =",
        "# 4 templates: decision, design, guide, process\ntemplates =",
        "# 7 of 7 draft ids have 2 digits\ndraft_digits =",
        "# draft 5 was added while draft 55 existed: free numbers are reused\n",
        "Extended by: 2 of 2 Extends links answered",
        "# 6 of 25 Accepted/Implemented RFDs have the field (fewer than half: a retired field,",
        "Statuses in use: Accepted 13, Implemented 12, Draft 7, Discussion 4, Abandoned 1,",
    ):
        assert evidence in text
    assert "from the conventions of the RFDs in docs/rfd/" in capsys.readouterr().out


def test_init_never_replaces_an_existing_configuration_unasked(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = adopted / ".github/rfd.toml"
    config.parent.mkdir()
    config.write_text('[rfd]\ndir = "docs/rfd"  # ours\n')
    assert main(["-C", str(adopted), "init"]) == 0
    assert config.read_text() == '[rfd]\ndir = "docs/rfd"  # ours\n'
    assert "rfd init --overwrite" in capsys.readouterr().out
    assert main(["-C", str(adopted), "init", "--overwrite"]) == 0
    assert (adopted / ".github/rfd.toml.orig").read_text() == '[rfd]\ndir = "docs/rfd"  # ours\n'
    assert "draft_digits = 2" in config.read_text()


def test_new_fills_the_repository_template_in_its_drafts_directory(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-C", str(adopted), "init"]) == 0
    git(adopted, "config", "user.name", "Amara Kone")
    git(adopted, "config", "user.email", "amara.kone@example.org")
    code, data = run_json(adopted, capsys, "new", "decision", "Adopt Ruff")
    assert code == 0 and isinstance(data, dict)
    assert data["path"] == "docs/rfd/drafts/D01-adopt-ruff.md"  # first free slot, two digits
    text = (adopted / data["path"]).read_text()
    template = (adopted / "docs/rfd/000-decision-template.md").read_text()
    assert "# RFD D01: Adopt Ruff\n" in text
    assert "- **Authors**: Amara Kone <amara.kone@example.org>\n" in text
    assert "- **Date**: DATE" not in text and "- **Date**: 20" in text
    assert text.endswith(template.split("- **Date**: DATE\n", 1)[1])  # its sections, as written
    assert "## Context" in text and "## Alternatives" not in text  # not rfd-bot's template


def test_new_by_max_plus_one_continues_after_the_highest_draft(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = adopted / ".github/rfd.toml"
    config.parent.mkdir()
    config.write_text("[conventions]\ndraft_digits = 2\n")
    code, data = run_json(adopted, capsys, "new", "design", "Prompt caching")
    assert code == 0 and isinstance(data, dict)
    assert data["rfd"] == "D56"
    code, status = run_json(adopted, capsys, "status", "D05")
    assert isinstance(status, dict) and status["rfd_id"] == "D05"
    assert dict(status["lines"])["Explore"] != "not started"  # .state/D05/explore.md is read


def test_a_state_directory_named_without_the_padding_keeps_working(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before ids kept their padding, D05's state went to .state/D5/: it is still D05's."""
    state = adopted / "docs/rfd/.state"
    (state / "D05").rename(state / "D5")
    code, status = run_json(adopted, capsys, "status", "D05")
    assert code == 0 and isinstance(status, dict)
    assert dict(status["lines"])["Explore"] == "complete (explore.md)"


def test_promoting_a_draft_gives_it_a_padded_number_and_moves_its_state(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-C", str(adopted), "init"]) == 0
    assert main(["-C", str(adopted), "promote", "D05"]) == 0
    published = adopted / "docs/rfd/032-internal-dev-plugin.md"
    text = published.read_text()
    assert text.startswith("# RFD 032: Internal Dev Plugin")
    assert "\n[RFD 001]: 001-the-rfd-process.md\n" in text  # its definitions follow the move
    assert (adopted / "docs/rfd/.state/032/explore.md").is_file()


@pytest.mark.parametrize("hook", ["rfd_lint", "rfd_status", "rfd_state"])
def test_the_hooks_pass_over_the_templates(
    adopted: Path, hook: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    main_of = importlib.import_module(f"hooks.{hook}").main
    code, out = run_hook(main_of, adopted, list(TEMPLATES), monkeypatch, capsys)
    assert (code, out) == (0, "")


def test_the_readme_shows_what_init_writes_for_this_repository(adopted: Path) -> None:
    readme = (Path(__file__).resolve().parent.parent / "bot/docs/dialects.md").read_text()
    section = readme.split("## Adopting rfd-bot in an existing RFD repository", 1)[1]
    shown = section.split("```toml\n", 1)[1].split("```", 1)[0]
    assert main(["-C", str(adopted), "init"]) == 0
    assert shown in (adopted / ".github/rfd.toml").read_text()


def test_new_offers_the_categories_the_repository_has_templates_for(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template = adopted / "docs/rfd/000-research-template.md"
    template.write_text(
        "# RFD NNN: TITLE\n\n- **Status**: Draft\n- **Date**: DATE\n\n## Question\n"
    )
    assert main(["-C", str(adopted), "new", "research", "Token costs"]) == 0
    created = next((adopted / "docs/rfd/drafts").glob("*-token-costs.md")).read_text()
    assert created.endswith("## Question\n") and "# RFD D56: Token costs" in created
    capsys.readouterr()
    assert main(["-C", str(adopted), "new", "essay", "Why"]) == 1
    assert "choose one of: decision, design, guide, process, research" in capsys.readouterr().err


def test_new_without_a_git_identity_leaves_the_authors_to_fill_in(
    adopted: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(adopted / "no-such-gitconfig"))
    code, data = run_json(adopted, capsys, "new", "guide", "Reviewing RFDs")
    assert code == 0 and isinstance(data, dict)
    assert "- **Authors**: TBD\n" in (adopted / data["path"]).read_text()


def test_publishing_keeps_the_back_links_the_repository_keeps(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The team answers each Extends with an Extended by (not each Requires with a Required by)."""
    assert main(["-C", str(adopted), "init"]) == 0
    draft = adopted / "docs/rfd/drafts/D18-plugin-event-subscriptions.md"
    draft.write_text(
        draft.read_text().replace("- **Requires**: [RFD 028]", "- **Extends**: [RFD 028]")
    )
    (adopted / "docs/rfd/drafts/D12-remote-workspaces.md").write_text(
        (adopted / "docs/rfd/drafts/D12-remote-workspaces.md")
        .read_text()
        .replace("- **Date**: 2025-08-04\n", "- **Date**: 2025-08-04\n- **Requires**: [RFD 009]\n")
    )
    assert main(["-C", str(adopted), "promote", "D18"]) == 0
    assert main(["-C", str(adopted), "promote", "D12"]) == 0
    extended = (adopted / "docs/rfd/028-command-plugin-system.md").read_text()
    assert "- **Extended by**: [RFD 032]\n" in extended
    assert extended.endswith("\n[RFD 032]: ./032-plugin-event-subscriptions.md\n")
    assert "Required by" not in (adopted / "docs/rfd/009-tool-call-sandboxing.md").read_text()


def test_init_in_a_repository_with_history_records_the_baseline_and_its_process(
    adopted: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Day one: `rfd init` alone makes every status the team reached history."""
    from hooks import rfd_status

    assert main(["-C", str(adopted), "init"]) == 0
    out = capsys.readouterr().out
    assert f"the statuses of {RFD_COUNT} RFDs are history, never gated again" in out
    baseline = json.loads((adopted / "docs/rfd/.state/baseline.json").read_text())
    assert len(baseline["statuses"]) == RFD_COUNT
    assert "process" in tomllib.loads((adopted / ".github/rfd.toml").read_text())
    git(adopted, "add", "-A")
    git(adopted, "commit", "-qm", "Adopt rfd-bot")
    files = git(adopted, "ls-files").split()  # what `pre-commit run --all-files` passes
    assert run_hook(rfd_status.main, adopted, files, monkeypatch, capsys) == (0, "")


def test_list_lint_and_adopt_read_the_corpus_where_set_puts_it(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--set rfd.dir=…` is what `rfd config show` reports, and what every command reads."""
    (adopted / ".github").mkdir()
    (adopted / ".github/rfd.toml").write_text('[rfd]\ndir = "docs/archive"\n')
    here = ("--set", "rfd.dir=docs/rfd")
    code, listed = run_json(adopted, capsys, "list")
    assert code == 0 and listed == {"rfds": [], "errors": []}  # docs/archive holds nothing
    code, listed = run_json(adopted, capsys, *here, "list")
    assert code == 0 and isinstance(listed, dict) and len(listed["rfds"]) == RFD_COUNT
    code, linted = run_json(adopted, capsys, *here, "lint")
    assert code == 1 and isinstance(linted, dict)
    assert {f["code"] for f in linted["findings"]} == {"RFD003", "RFD012"}  # the planted ones
    code, recorded = run_json(adopted, capsys, *here, "adopt")
    assert code == 0 and recorded == {
        "baseline": "docs/rfd/.state/baseline.json",
        "rfds": RFD_COUNT,
        "findings": 3,
        "config_written": True,
        "process": recorded["process"],  # type: ignore[index]
    }
    code, shown = run_json(adopted, capsys, *here, "config", "show")
    settings = {s["key"]: s["value"] for s in shown["settings"]}  # type: ignore[index]
    assert settings["rfd.dir"] == "docs/rfd"


def test_abandon_warns_about_the_rfds_that_depend_on_it(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RFD 028 is required by RFD 029 (Discussion) and by drafts D05 and D18."""
    assert main(["-C", str(adopted), "abandon", "028", "--reason", "plugins run as wasm"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert warnings == [
        "warning: RFD 029 (Discussion, docs/rfd/029-tracing-infrastructure.md) requires RFD 028,"
        " now Abandoned: revise it or abandon it too",
        "warning: RFD D05 (Draft, docs/rfd/drafts/D05-internal-dev-plugin.md) requires RFD 028,"
        " now Abandoned: revise it or abandon it too",
        "warning: RFD D18 (Draft, docs/rfd/drafts/D18-plugin-event-subscriptions.md) requires"
        " RFD 028, now Abandoned: revise it or abandon it too",
    ]
    code, done = run_json(adopted, capsys, "abandon", "029", "--reason", "no plugins")
    assert code == 0 and done["dependents"] == []  # type: ignore[index]


def test_abandon_leaves_out_rfds_that_are_settled_themselves(
    adopted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = adopted / "docs/rfd/029-tracing-infrastructure.md"
    path.write_text(path.read_text().replace("**Status**: Discussion", "**Status**: Abandoned"))
    code, done = run_json(adopted, capsys, "abandon", "028", "--reason", "wasm")
    assert code == 0
    assert [d["rfd"] for d in done["dependents"]] == ["D05", "D18"]  # type: ignore[index]
    assert done["dependents"][0] == {  # type: ignore[index]
        "rfd": "D05",
        "path": "docs/rfd/drafts/D05-internal-dev-plugin.md",
        "status": "Draft",
        "link": "requires",
    }


def test_a_tracking_issue_field_few_rfds_have_is_not_written(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """43 Accepted/Implemented RFDs, 4 of them (the oldest) with the field: the team
    retired it, and `rfd init` says why it keeps issues in the state directory."""
    issue = "- **Tracking Issue**: [#{n}](https://github.com/acme/app/issues/{n})\n"
    for n in range(1, 44):
        status = "Implemented" if n < 30 else "Accepted"
        (git_repo / "docs/rfd").mkdir(parents=True, exist_ok=True)
        (git_repo / f"docs/rfd/{n:03d}-topic-{n}.md").write_text(
            f"# RFD {n:03d}: Topic {n}\n\n- **Status**: {status}\n- **Category**: Design\n"
            f"- **Authors**: Ann <ann@example.com>\n- **Date**: 2024-01-{n % 28 + 1:02d}\n"
            + (issue.format(n=n) if n <= 4 else "")
            + "\n## Summary\n\nText.\n"
        )
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "RFDs")
    assert main(["-C", str(git_repo), "init"]) == 0
    config = (git_repo / ".github/rfd.toml").read_text()
    assert tomllib.loads(config)["conventions"]["tracking_issue"] == "state"
    assert "# 4 of 43 Accepted/Implemented RFDs have the field (fewer than half" in config
