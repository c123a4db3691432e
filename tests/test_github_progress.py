"""The progress comment of a long run: what it shows, and when it is written."""

from __future__ import annotations

import pytest

from bot.events import Notice
from bot.github.progress import (
    EDIT_EVERY,
    Progress,
    Snapshot,
    Stage,
    duration,
    implement_listener,
    plain,
    render,
    render_done,
    render_failed,
    render_lost,
)
from bot.model import checklist
from tests.conftest import lines

ITEMS = checklist.parse(
    "- [x] 1. Write the writer\n- [!] 2. Add the endpoint [Failed: tests fail]\n- [ ] 3. Docs\n"
).items
URL = "https://github.com/o/r/actions/runs/42"


def snap(**changes: object) -> Snapshot:
    base = Snapshot(
        "Implementing",
        "RFD 045, phase 1: Writer",
        Stage.ITEM,
        k=3,
        n=3,
        items=ITEMS,
        elapsed=125,
        tokens=12345,
        cost_usd=0.25,
        run_url=URL,
    )
    return Snapshot(**{**vars(base), **changes})  # type: ignore[arg-type]


def test_running_shows_stage_checklist_time_cost_and_run() -> None:
    text = render(snap(), run_id="42")
    assert text.startswith("<!-- rfd-bot:run:42 -->\n### ⏳ Implementing RFD 045, phase 1: Writer")
    assert "**Item 3 of 3** · 2 min 5 s · 12,345 tokens · $0.2500" in text
    assert "- [x] 1. Write the writer" in text
    assert "- [ ] 2. Add the endpoint — ❌ failed: tests fail" in text
    assert "- [ ] 3. Docs ← working on it" in text
    assert f"[Workflow run]({URL})" in text


def test_a_comment_no_job_edits_as_the_run_goes_says_to_follow_the_run() -> None:
    """Two-job implement: the check job posts it, the work job cannot edit it (read-only
    token), so it points at the run instead of promising live edits."""
    assert lines(render(snap(items=()), run_id="42"))[-1] == (
        f"<sub>[Workflow run]({URL}) · this comment is updated as the run goes</sub>"
    )
    assert lines(render(snap(items=()), run_id="42", live=False))[-1] == (
        f"<sub>[Workflow run]({URL}) · follow the run for its stages: this comment is edited "
        "when it ends</sub>"
    )


def test_outcomes_never_keep_the_hourglass_nor_the_run_marker() -> None:
    done = render_done(snap(), "pull request [#3](u) opened")
    failed = render_failed(
        snap(stage=Stage.PUSH), "502 Server Error", "Comment `/rfd implement 1`."
    )
    for text in (done, failed):
        assert "⏳" not in text and "rfd-bot:run:" not in text and f"({URL})" in text
    assert done.startswith("### ✅ RFD 045, phase 1: Writer — pull request [#3](u) opened")
    assert failed.startswith("### ❌ RFD 045, phase 1: Writer — the run failed")
    assert "It stopped during **push**, after 2 min 5 s" in failed
    assert "502 Server Error.\n\nComment `/rfd implement 1`." in failed  # a whole sentence


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("the model changed nothing", "the model changed nothing."),
        ("the work job failed (its log says why)", "the work job failed (its log says why)."),
        ("Push refused.", "Push refused."),
        ("Is the token expired?", "Is the token expired?"),
        ("x" * 500, "x" * 399 + "…"),  # cut short: no full stop after the ellipsis
    ],
)
def test_a_failed_run_says_why_in_a_whole_sentence(reason: str, said: str) -> None:
    """Where the run stopped and why read as one sentence, whatever the reason's ending."""
    failed = render_failed(snap(stage=Stage.PUSH), reason, "Comment `/rfd implement 1`.")
    assert f": {said}\n\nComment `/rfd implement 1`." in failed


def test_a_run_lost_without_saying_where_says_how_far_it_got_in_a_whole_sentence() -> None:
    lost = render_lost(snap(), "its log says how far it got", "Comment `/rfd implement 1`.")
    assert "It stopped without saying where: its log says how far it got.\n\n" in lost


def test_untrusted_labels_cannot_become_markdown_or_markers() -> None:
    evil = checklist.parse("- [ ] 1. <!-- rfd-bot:run:1 --> ## [x](http://e) `a`\n").items
    text = render(snap(items=evil, k=1, n=1))
    assert "rfd-bot:run:1" not in text
    assert "\\#\\# \\[x\\]\u200b(http:\u200b//e) \\`a\\`" in text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0 s"), (59.9, "59 s"), (185, "3 min 5 s"), (3720, "1 h 2 min"), (240, "4 min")],
)
def test_duration(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_plain_is_one_line_and_bounded() -> None:
    assert plain("a\nb   c") == "a b c"
    assert len(plain("x" * 500)) == 200


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def tracker() -> tuple[Progress, list[str], Clock]:
    written: list[str] = []
    clock = Clock()
    start = Snapshot("Implementing", "RFD 045, phase 1: Writer", Stage.RESEARCH)
    progress = Progress(written.append, start, clock=clock, spent=lambda: (0, 0.0))
    return progress, written, clock


def test_edits_are_paced_and_only_for_a_change_worth_showing() -> None:
    progress, written, clock = tracker()
    progress.update(force=True)
    progress.update(stage=Stage.PLAN)  # a change, but too soon after the start
    clock.now += EDIT_EVERY
    progress.update(stage=Stage.PLAN)
    clock.now += EDIT_EVERY
    progress.update(stage=Stage.PLAN)  # nothing new to show
    assert [t.splitlines()[2] for t in written] == ["**Research** · 0 s", "**Plan** · 20 s"]
    progress.done("pull request #3 opened")  # the outcome is always written
    assert written[-1].startswith("### ✅")


def test_listener_reads_stage_and_checklist_from_the_steps_files() -> None:
    progress, written, clock = tracker()
    files: dict[str, str] = {}
    listen = implement_listener(progress, files.get)
    seen = []
    for name, text in [
        ("", ""),
        ("research.md", "r"),
        ("items.md", "- [x] 1. A\n- [ ] 2. B\n"),
        ("items.md", "- [x] 1. A\n- [!] 2. B [Failed: no]\n"),
    ]:
        if name:
            files[name] = text
        clock.now += EDIT_EVERY
        listen(Notice(rfd_id="045", message="…"))
        seen.append(written[-1].splitlines()[2].split(" · ")[0])
    assert seen == ["**Research**", "**Plan**", "**Item 2 of 2**", "**Summary**"]
    assert "- [ ] 2. B — ❌ failed: no" in written[-1]


def test_a_dead_runs_comment_is_marked_ended_and_keeps_its_checklist() -> None:
    from bot.github.progress import ended

    text = "<!-- rfd-bot:implement:045-1 -->\n" + render(snap(), run_id="42")
    repaired = ended(text)
    assert repaired is not None
    assert "⏳" not in repaired and "rfd-bot:run:" not in repaired
    assert "### ⚠️ Implementing RFD 045, phase 1: Writer — the run ended without finishing" in (
        repaired
    )
    assert "- [x] 1. Write the writer" in repaired and repaired.startswith("<!-- rfd-bot:implement")
    assert ended(repaired) is None  # an outcome (or a repaired comment) is left alone
    posted = ended("<!-- rfd-bot:implement:045-1 -->\n" + render(snap(), run_id="42", live=False))
    assert posted is not None and "follow the run" not in posted  # the check job's, two jobs
    assert lines(posted)[-1] == f"<sub>[Workflow run]({URL})</sub>"


def test_refine_progress_counts_the_passes_and_ends_with_how_it_stopped() -> None:
    from types import SimpleNamespace

    from bot.events import ResultReady, TurnStarted
    from bot.github.refine import RefineProgress

    progress, written, clock = tracker()
    follower = RefineProgress(progress)
    for focus in ("reviews", "completeness"):
        clock.now += EDIT_EVERY
        follower.on_turn(TurnStarted(rfd_id="045", step="refine", model="m"))
        follower.on_result(
            ResultReady(rfd_id="045", step="refine", item=f"refine pass 1 ({focus})", result="")
        )
    assert written[-1].splitlines()[2].startswith("**Pass 2 of at most 5**")
    follower.finish(SimpleNamespace(passes=(1, 2), stop=SimpleNamespace(value="converged")))  # type: ignore[arg-type]
    assert "— refined in 2 passes (converged)" in written[-1]
    assert "- [x] 1. reviews\n- [x] 2. completeness" in written[-1]


def test_an_outcome_with_something_left_undone_is_a_warning_not_a_tick() -> None:
    text = render_done(snap(), "pull request [#3](u) opened with 1 failed item", "Not recorded.")
    assert text.startswith("### ⚠️ RFD 045, phase 1: Writer — pull request [#3](u) opened")
    assert "✅" not in text and "Finished in 2 min 5 s" in text and "\n\nNot recorded.\n\n" in text


def test_untrusted_text_cannot_mention_or_embed() -> None:
    line = plain("ask @octocat or @org/team ![x](http://e/i.png) <img src=x>")
    assert "@octocat" not in line and "@org/team" not in line and "<img" not in line
    assert "octocat" in line and "img src=x" in line  # the text itself stays readable


def test_a_run_marker_inside_the_text_is_not_the_runs() -> None:
    from bot.github.progress import ended

    quoted = "<!-- rfd-bot:implement:045-1 -->\n### ⏳ x\n\n<!-- rfd-bot:run:7 -->\n"
    assert ended(quoted) is None  # only the marker lines opening the comment count


def test_refine_progress_marks_a_failed_pass_and_ends_in_a_warning() -> None:
    from types import SimpleNamespace

    from bot.agent.authoring.refine import StopReason
    from bot.events import ResultReady
    from bot.github.refine import RefineProgress

    progress, written, _ = tracker()
    follower = RefineProgress(progress)
    follower.on_result(ResultReady(rfd_id="045", step="refine", item="p 1 (reviews)", result=""))
    failed = SimpleNamespace(number=2, focus=SimpleNamespace(value="completeness"))
    result = SimpleNamespace(
        passes=(object(), failed), stop=StopReason.INTERRUPTED, warning="pass 2 failed (overloaded)"
    )
    follower.finish(result)  # type: ignore[arg-type]
    assert written[-1].startswith("### ⚠️ RFD 045, phase 1: Writer — stopped in pass 2 (inter")
    assert "the passes before it are kept, and so are the reviews" in written[-1]
    assert (
        "- [x] 1. reviews\n- [ ] 2. completeness — ❌ failed: pass 2 failed (overloaded)"
        in (written[-1])
    )
