from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.lifecycle import tracking
from bot.model.plan import PlanPhase

PHASES = (PlanPhase("Skeleton", "a", "1"), PlanPhase("Tools", "b", "2"), PlanPhase("UI", "c"))
URL = "docs/rfd/045-layered.md"


def body(done: set[int], **kwargs: object) -> str:
    return tracking.render_body("045", "Layered", URL, PHASES, done, **kwargs)  # type: ignore[arg-type]


def tick(text: str, number: int, box: str = "x") -> str:
    """What a person does in GitHub's UI: flip one box."""
    for old in (" ", "x"):
        text = text.replace(f"- [{old}] {number}. ", f"- [{box}] {number}. ")
    return text


def test_render_body_shape() -> None:
    text = body({1}, failed={3: "tests red"})
    assert text.startswith("<!-- rfd-bot:tracking:045 -->\n")
    assert "[RFD 045: Layered](docs/rfd/045-layered.md)" in text
    assert "**Progress:** 1/3 phases ▓▓▓▓▓▓░░░░░░░░░░░░░░ 33%" in text
    assert "- [x] 1. Skeleton\n- [ ] 2. Tools\n- [!] 3. UI [Failed: tests red]\n" in text
    assert text.index(tracking.START) < text.index("- [x] 1.") < text.index(tracking.END)
    assert tracking.ticked(text) == {1}


def test_brackets_in_the_title_do_not_break_the_link() -> None:
    text = tracking.render_body("045", "Use [brackets]", URL, PHASES, set())
    assert "[RFD 045: Use \\[brackets\\]](docs/rfd/045-layered.md)" in text


def test_phase_labels_that_differ_from_positions_are_shown() -> None:
    phases = [PlanPhase("Groundwork", "", "0"), PlanPhase("Split", "", "3a")]
    text = tracking.render_body("045", "T", URL, phases, set())
    assert "- [ ] 0. Groundwork\n- [ ] 3a. Split\n" in text


@pytest.mark.parametrize("done", [set(), {1}, {1, 2, 3}, {2, 9, 0}])
def test_merge_of_render_is_identity(done: set[int]) -> None:
    rendered = body(done)
    assert tracking.merge_body(rendered, PHASES, done) == rendered


NO_PLAN = "RFD 7 was accepted without a plan: comment `/rfd done` here once the work is done."


def test_an_rfd_without_phases_says_why_instead_of_an_empty_checklist() -> None:
    body = tracking.render_body("7", "T", "docs/rfd/007-t.md", (), set(), unplanned=NO_PLAN)
    assert f"{tracking.START}\n{NO_PLAN}\n{tracking.END}" in body
    assert "0/0" not in body and tracking.EXPLAINED not in body
    assert tracking.merge_body(body, (), set(), unplanned=NO_PLAN) == body
    phases = (PlanPhase("Rename", "Rename things."),)
    grown = tracking.merge_body(body, phases, set(), unplanned=NO_PLAN)  # phases added later
    assert NO_PLAN not in grown and "- [ ] 1. Rename" in grown


def test_merge_updates_only_the_region() -> None:
    text = "Intro by a person.\n\n" + body({1}) + "\n## Notes\nKeep **me**.\n"
    merged = tracking.merge_body(text, PHASES, {1, 2})
    assert merged.startswith("Intro by a person.\n\n<!-- rfd-bot:tracking:045 -->")
    assert merged.endswith("\n## Notes\nKeep **me**.\n")
    assert tracking.ticked(merged) == {1, 2} and "2/3 phases" in merged


def test_person_ticks_and_unticks_are_kept_across_updates() -> None:
    text = tick(tick(body({1}), 3), 1, " ")  # person ticked 3 and unticked 1
    once = tracking.merge_body(text, PHASES, {1, 2})
    assert tracking.ticked(once) == {2, 3}
    assert tracking.merge_body(once, PHASES, {1, 2}) == once


def test_without_record_every_tick_is_kept() -> None:
    legacy = f"{tracking.START}\n- [x] 2. Tools\n{tracking.END}\n"
    assert tracking.ticked(tracking.merge_body(legacy, PHASES, {1})) == {1, 2}


def test_body_without_region_gets_one_appended() -> None:
    merged = tracking.merge_body("Hand-written issue.\n\n", PHASES, {2})
    assert merged.startswith("Hand-written issue.\n\n" + tracking.START)
    assert tracking.ticked(merged) == {2} and merged.endswith(tracking.END + "\n")


def test_crlf_bodies_from_the_web_editor_stay_crlf() -> None:
    text = body({1}).replace("\n", "\r\n") + "Edited on the web.\r\n"
    merged = tracking.merge_body(text, PHASES, {1, 3})
    assert "\n" not in merged.replace("\r\n", "")
    assert merged.endswith("Edited on the web.\r\n") and tracking.ticked(merged) == {1, 3}


def test_stray_start_marker_does_not_swallow_text() -> None:
    text = f"{tracking.START}\nhuman text\n" + body({1})
    merged = tracking.merge_body(text, PHASES, {1, 2})
    assert merged.startswith(f"{tracking.START}\nhuman text\n<!-- rfd-bot:tracking:045 -->")


def test_ticked_ignores_boxes_outside_the_region() -> None:
    assert tracking.ticked("- [x] 1. Outside\n") == set()
    assert tracking.ticked("- [x] 1. Outside\n" + body(set())) == set()


def test_merge_with_a_grown_plan_keeps_ticks() -> None:
    more = (*PHASES, PlanPhase("Docs", "d"))
    merged = tracking.merge_body(tick(body({1}), 2), more, {1})
    assert tracking.ticked(merged) == {1, 2} and "2/4 phases" in merged


@settings(max_examples=100)
@given(
    st.sets(st.integers(1, 3)),
    st.sets(st.integers(1, 3)),
    st.text(alphabet=st.characters(blacklist_characters="<\r"), max_size=40),
)
def test_merge_is_idempotent_and_keeps_outside_text(
    done: set[int], flips: set[int], outside: str
) -> None:
    text = body(done)
    for n in flips:
        text = tick(text, n, " " if n in done else "x")
    text = outside + text + outside
    once = tracking.merge_body(text, PHASES, done)
    assert once.startswith(outside) and once.endswith(outside)
    assert tracking.merge_body(once, PHASES, done) == once
    assert tracking.ticked(once) == done ^ flips


LABELLED = [
    PlanPhase("Groundwork", "", "0"),
    PlanPhase("Split", "", "3a"),
    PlanPhase("Polish (optional)", "", "3b"),
]


def test_a_person_ticking_a_labelled_phase_is_kept() -> None:
    text = tracking.render_body("045", "T", URL, LABELLED, {1}).replace("[ ] 3a.", "[x] 3a.")
    merged = tracking.merge_body(text, LABELLED, {1})
    assert "- [x] 0. Groundwork\n- [x] 3a. Split\n- [ ] 3b. Polish (optional)\n" in merged
    assert tracking.ticked(merged, LABELLED) == {1, 2}


def test_bodies_numbered_by_position_before_labels_keep_their_ticks() -> None:
    old = f"{tracking.START}\n<!-- rfd-bot:done: 1 -->\n- [x] 1. Groundwork (Phase 0)\n"
    old += f"- [x] 2. Split (Phase 3a)\n- [ ] 3. Polish\n{tracking.END}\n"
    merged = tracking.merge_body(old, LABELLED, {1})
    assert "- [x] 0. Groundwork\n- [x] 3a. Split\n- [ ] 3b. Polish (optional)\n" in merged


def test_progress_counts_the_boxes_a_person_ticked_and_leaves_optional_phases_out() -> None:
    phases = (*PHASES[:2], PlanPhase("Dark mode (optional)", "d"))
    first = tracking.render_body("045", "Layered", URL, phases, {1})
    merged = tracking.merge_body(tick(first, 2), phases, {1})  # a person ticked phase 2
    assert "**Progress:** 2/2 phases" in merged
    assert "Optional phases are not counted." in merged


def test_the_region_explains_itself() -> None:
    assert "tick one yourself if it was done another way — the bot keeps your tick" in body(set())


def test_closing_note_names_the_successor_or_the_reason() -> None:
    from bot.lifecycle.tracking_issue import closing_note
    from bot.model import document

    head = "# RFD 045: Layered\n\n- **Status**: {status}\n{extra}\n## Summary\n\nx\n"
    successor = head.format(status="Superseded", extra="- **Superseded by**: [RFD 050]\n")
    superseded = document.parse(successor, URL)
    assert "superseded by RFD 050" in closing_note("045", superseded)
    reason = head.format(status="Abandoned", extra="- **Abandoned**: too **slow** @x\n")
    abandoned = document.parse(reason, URL)
    assert closing_note("045", abandoned).endswith(
        "RFD 045 was abandoned: too **slow** @\u200bx. This issue closes as not planned."
    )


def test_a_recorded_phase_links_its_summary_and_a_persons_tick_still_counts() -> None:
    links = {1: "[summary](https://x/blob/main/docs/rfd/.state/045/phases/1.md)"}
    text = tracking.render_body("045", "Layered", URL, PHASES, {1}, links=links)
    assert (
        "- [x] 1. Skeleton — [summary](https://x/blob/main/docs/rfd/.state/045/phases/1.md)\n"
        in text
    )
    assert tracking.ticked(tick(text, 2), PHASES) == {1, 2}


PR = "[#7](https://github.com/o/r/pull/7)"
SUMMARY = "[summary](https://github.com/o/r/blob/main/docs/rfd/.state/045/phases/2.md)"


def test_a_phase_pr_link_is_kept_by_later_syncs_and_joined_by_its_summary() -> None:
    linked = tracking.merge_body(body(set()), PHASES, set(), pulls={2: PR})
    assert f"- [ ] 2. Tools — {PR}\n" in linked
    assert tracking.merge_body(linked, PHASES, set()) == linked  # a sync knowing no PR keeps it
    done = tracking.merge_body(linked, PHASES, {2}, links={2: SUMMARY})
    assert f"- [x] 2. Tools — {PR} · {SUMMARY}\n" in done
    assert tracking.pull_links(done, PHASES) == {2: PR}


def test_a_phase_with_a_failed_reason_keeps_its_pr_link() -> None:
    linked = tracking.merge_body(body(set()), PHASES, set(), pulls={3: PR}, failed={3: "red"})
    assert f"- [!] 3. UI — {PR} [Failed: red]\n" in linked
    assert tracking.pull_links(linked, PHASES) == {3: PR}


def test_a_pr_link_written_in_a_phase_title_is_not_read_as_the_phases_pr() -> None:
    phases = (PlanPhase(f"Tools — {PR}", "b", "1"),)
    text = tracking.render_body("045", "Layered", URL, phases, set())
    assert tracking.pull_links(text, phases) == {}
