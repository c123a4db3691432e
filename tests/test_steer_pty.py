"""``--edit`` at a real terminal: ``$EDITOR`` opens on the prompt, what is saved is sent.

The editor is a small script (what a person does in vim: add a line, save, quit — or quit
without saving); ``rfd`` runs on a pseudo-terminal with a scripted model.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.config.load import load_config
from bot.state import StateStore
from tests.conftest import rfd_text, write_rfd
from tests.pty_support import Terminal

STEERING = "Concentrate on the retry policy; ignore naming."
ADD_LINE = f"""import pathlib, sys
path = pathlib.Path(sys.argv[-1])
pathlib.Path(__file__).with_name("seen.md").write_text(path.read_text())
path.write_text(path.read_text() + "\\n{STEERING}\\n")
"""
QUIT = "import sys\n"  # leaves the file as it was: not saved


def _editor(tmp: Path, body: str) -> dict[str, str]:
    script = tmp / "editor.py"
    script.write_text(body)
    return {"EDITOR": f"{sys.executable} {script}", "VISUAL": ""}


def _review(summary: str) -> dict[str, object]:
    args = {"summary": summary, "findings": [], "questions": []}
    return {"calls": [["submit_review", args]]}


def test_review_edit_sends_what_the_person_saved(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    env = {**_editor(git_repo.parent, ADD_LINE), "ANTHROPIC_API_KEY": "test-key"}
    term = Terminal(git_repo, [_review("Retry policy is fine.")], "review", "1", "--edit", env=env)
    assert term.wait() == 0, term.screen
    shown = (git_repo.parent / "seen.md").read_text()
    assert "Review" in shown or "review" in shown  # the prompt the step would send
    task = term.sent()[0][-1]
    assert task.startswith(shown.strip()) and task.rstrip().endswith(STEERING)
    assert list((git_repo / "docs/rfd/.state/001/reviews").glob("*.md"))


def test_review_edit_closed_without_saving_sends_nothing(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    env = {**_editor(git_repo.parent, QUIT), "ANTHROPIC_API_KEY": "test-key"}
    term = Terminal(git_repo, [_review("never")], "review", "1", "--edit", env=env)
    assert term.wait() == 1
    assert "nothing was sent" in term.screen
    assert term.sent() == []
    assert not (git_repo / "docs/rfd/.state/001/reviews").exists()


def test_refine_edit_steers_its_first_pass(git_repo: Path) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    StateStore(git_repo, load_config(git_repo)).save_review("001", "# R\n\nVague.\n", now=1)
    notes = {"sections": [], "notes": "CONVERGED\nNothing to change."}
    env = _editor(git_repo.parent, ADD_LINE)
    replies = [{"calls": [["submit_revision", notes]]}]
    term = Terminal(git_repo, replies, "refine", "1", "--edit", "--yes", env=env)
    term.expect("Dismiss resolved reviews?")
    term.send("\r")
    assert term.wait() == 0, term.screen
    assert "stopped: converged" in term.screen
    shown = (git_repo.parent / "seen.md").read_text()
    assert "active review" in shown
    task = term.sent()[0][-1]
    assert task.rstrip().endswith(STEERING) and task.startswith(shown.strip())
