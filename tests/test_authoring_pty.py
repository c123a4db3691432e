"""The authoring steps at a real terminal: the person's answer is final, leaving loses nothing.

Each test runs ``rfd`` on a pseudo-terminal with a scripted model (:mod:`tests.pty_support`)
and types what a person would: ``n`` and a note, Ctrl-D, Ctrl-C.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import rfd_text, write_rfd
from tests.pty_support import CTRL_D, Terminal

YOU = "you (enter to finish)>"
APPLY = "Apply? [Y]es / [n]o / [e]dit (enter: yes)"
STATE = "docs/rfd/.state/001"


def _summary(content: str) -> dict[str, object]:
    return {"calls": [["rfd_explore_summary", {"content": content}]]}


def test_a_declined_summary_leaves_explore_md_byte_identical(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    mine = git_repo / STATE / "explore.md"
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"# My research\r\n\r\nDo not lose this.\n")
    replies = [_summary("# Overwritten\n"), {"text": "Understood, I will not save it."}]
    term = Terminal(git_repo, replies, "explore", "1")
    term.expect(APPLY)
    term.send("n\r")
    term.expect("What should it do instead?")
    term.send("do not overwrite my research\r")
    term.expect(YOU)
    term.send("\r")
    assert term.wait() == 0
    assert mine.read_bytes() == b"# My research\r\n\r\nDo not lose this.\n"
    told = term.sent()[1][-1]
    assert 'declined this call and said: "do not overwrite my research"' in told
    assert "saved explore.md" not in term.screen


def test_ctrl_d_at_your_turn_leaves_a_partial_the_next_run_resumes(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    term = Terminal(git_repo, [{"text": "Queues retry with backoff."}], "explore", "1")
    term.expect(YOU)
    term.send(CTRL_D)
    assert term.wait() == 1
    assert "explore interrupted (Ctrl-D at the prompt)" in term.screen
    assert f"{STATE}/conversations/explore.partial.md" in term.screen
    assert "run `rfd explore 001` again to resume from it" in term.screen
    assert "aborted" not in term.screen
    partial = (git_repo / STATE / "explore.partial.md").read_text(encoding="utf-8")
    assert "Queues retry with backoff." in partial

    again = Terminal(git_repo, [{"text": "Resumed: backoff is capped."}], "explore", "1")
    again.expect(YOU)
    again.send("\r")
    assert again.wait() == 0
    first_request = "\n".join(again.sent()[0])
    assert "Queues retry with backoff." in first_request  # it resumed from the partial
    assert not (git_repo / STATE / "explore.partial.md").exists()
    assert (git_repo / STATE / "explore.md").read_text() == "Resumed: backoff is capped.\n"


def test_ctrl_c_at_apply_keeps_the_talk_and_writes_nothing(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    term = Terminal(git_repo, [_summary("# Findings\n")], "explore", "1")
    term.expect(APPLY)
    term.interrupt("explore interrupted")
    assert term.wait() == 1
    assert "explore interrupted (Ctrl-C at the prompt)" in term.screen
    assert (git_repo / STATE / "conversations/explore.partial.md").is_file()
    assert not (git_repo / STATE / "explore.md").exists()


def test_rfd_section_under_a_protected_glob_is_refused(git_repo: Path) -> None:
    rfd = write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    before = rfd.read_bytes()
    (git_repo / STATE).mkdir(parents=True)
    (git_repo / STATE / "decisions.md").write_text("# Decisions\n\n1. **Flat events** (locked)\n")
    (git_repo / ".github").mkdir(exist_ok=True)
    (git_repo / ".github/rfd.toml").write_text(
        '[plugins]\nenabled = ["policy"]\n'
        '[plugins.policy]\nprotected_globs = ["docs/rfd/**"]\nprotected_steps = ["draft"]\n'
    )
    section = {"section": "Summary", "content": "Rewritten."}
    replies = [{"text": "Next: Summary.", "calls": [["rfd_section", section]]}, {"text": "Ok."}]
    term = Terminal(git_repo, replies, "draft", "1", "--yes")
    term.expect(YOU)
    term.send("\r")
    assert term.wait() == 0
    assert "rfd_section: policy: `docs/rfd/001-a.md` is protected during draft" in term.screen
    assert rfd.read_bytes() == before
    assert "is protected during draft" in term.sent()[1][-1]  # the model is told too


def test_a_crashing_interceptor_stops_the_step_cleanly_with_a_partial_save(
    git_repo: Path,
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    (git_repo / ".github").mkdir(exist_ok=True)
    (git_repo / ".github/rfd.toml").write_text('[plugins]\nenabled = ["crashy"]\n')
    replies = [{"text": "Looking around.", "calls": [["list_files", {}]]}]
    plugin = {"RFD_TEST_PLUGIN": "crashy=tests.crashing_plugin"}
    term = Terminal(git_repo, replies, "explore", "1", "--yes", env=plugin)
    assert term.wait() == 1
    assert "plugin `crashy` failed on tool_call.intercept: KeyError: 'list_files'" in term.screen
    assert "Traceback" not in term.screen
    screen = " ".join(term.screen.split())  # the error wraps at word boundaries (100 columns)
    assert "fix the plugin or remove it from [plugins] enabled" in screen
    assert all(len(line) <= 100 for line in term.screen.splitlines()[1:])
    talk = (git_repo / STATE / "conversations/explore.partial.md").read_text(encoding="utf-8")
    assert "Looking around." in talk


def test_author_notes_are_kept_for_converge_and_draft(git_repo: Path) -> None:
    notes = "Webhook deliveries get lost when the receiver is down."
    term = Terminal(
        git_repo, [{"text": "Researched."}], "author", "Retry queue", "--notes", notes, "--yes"
    )
    term.expect(YOU)
    term.send("\r")
    assert term.wait() == 0
    [state] = list((git_repo / "docs/rfd/.state").iterdir())
    assert (state / "notes.md").read_text(encoding="utf-8") == notes + "\n"
    assert "\n".join(term.sent()[0]).count(notes) == 1  # explore: once, as its task

    again = Terminal(git_repo, [{"text": "Two decisions."}], "converge", state.name, "--yes")
    again.expect(YOU)
    again.send("\r")
    assert again.wait() == 0
    opening = "\n".join(again.sent()[0])
    assert '<document name="notes.md">' in opening and notes in opening


def test_with_no_color_the_reply_never_runs_into_a_prompt(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    replies = [
        {"text": "I will save the findings", "calls": [["rfd_explore_summary", {"content": "F"}]]},
        {"text": "Saved them"},
    ]
    term = Terminal(git_repo, replies, "explore", "1", env={"NO_COLOR": "1"})
    term.expect(APPLY)
    term.send("y\r")
    term.expect(YOU)
    term.send("\r")
    assert term.wait() == 0
    lines = term.screen.splitlines()
    assert "I will save the findings" in lines
    assert "Saved them" in lines
    assert any(line.startswith(APPLY) for line in lines)
    assert any(line.startswith(YOU) for line in lines)


def test_rfd_draft_lays_out_the_skeleton_rfd_new_created(git_repo: Path) -> None:
    term = Terminal(git_repo, [], "new", "design", "Retry queue")
    assert term.wait() == 0
    rfd = git_repo / "docs/rfd/D1-retry-queue.md"
    header = rfd.read_text(encoding="utf-8").split("\n## ")[0]
    state = git_repo / "docs/rfd/.state/D1"
    state.mkdir(parents=True)
    (state / "decisions.md").write_text("# Decisions\n\n1. **A table** (locked)\n")
    layout = {"content": "## Summary\n\n## Queue table\n\n## Worker\n"}
    replies = [{"text": "I will lay out three sections.", "calls": [["rfd_draft", layout]]}]
    draft = Terminal(git_repo, [*replies, {"text": "Laid out."}], "draft", "D1", "--yes")
    draft.expect(YOU)
    draft.send("\r")
    assert draft.wait() == 0
    assert (
        rfd.read_text(encoding="utf-8") == header + "\n## Summary\n\n## Queue table\n\n## Worker\n"
    )
    assert "kept the heading and header fields" in draft.sent()[1][-1]


def test_a_plugin_change_to_a_call_is_shown_under_yes_and_logged(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    (git_repo / ".github").mkdir(exist_ok=True)
    (git_repo / ".github/rfd.toml").write_text('[plugins]\nenabled = ["redirect", "event-log"]\n')
    replies = [{"text": "Looking.", "calls": [["list_files", {"path": "."}]]}, {"text": "Done."}]
    plugin = {"RFD_TEST_PLUGIN": "redirect=tests.redirect_plugin"}
    term = Terminal(git_repo, replies, "explore", "1", "--yes", env=plugin)
    term.expect(YOU)
    term.send("\r")
    assert term.wait() == 0
    assert 'redirect changed `list_files`\'s path: "." → "docs"' in term.screen
    log = (git_repo / STATE / "events.jsonl").read_text(encoding="utf-8")
    assert '"event": "tool_call.modified"' in log and '"plugin": "redirect"' in log


def test_calls_the_model_got_wrong_are_shown_and_a_draft_write_needs_an_intent(
    git_repo: Path,
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    (git_repo / STATE).mkdir(parents=True)
    (git_repo / STATE / "decisions.md").write_text("# Decisions\n\n1. **Flat events** (locked)\n")
    section = {"section": "Summary", "content": "Rewritten."}
    calls = [["rm_rf", {}], ["read_file", {}], ["rfd_section", section]]
    replies = [{"text": "", "calls": calls}, {"text": "Sorry."}]
    term = Terminal(git_repo, replies, "draft", "1", "--yes")
    term.expect(YOU)
    term.send("\r")
    assert term.wait() == 0
    assert 'the model\'s call of "rm_rf" was refused (it was told why)' in term.screen
    assert "read_file: missing argument path" in term.screen
    assert "`rfd_section` refused: state your intent first" in term.screen
    assert "Rewritten." not in (git_repo / "docs/rfd/001-a.md").read_text(encoding="utf-8")
