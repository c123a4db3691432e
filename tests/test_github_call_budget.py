"""REST calls per event, counted from the cassettes (each test asserts all were made).

The bot reference's table of calls per event (``bot/docs/bot.md``) is checked against the
cassettes its rows name in :data:`README_ROWS`; ``python tests/test_github_call_budget.py``
prints that table and, below it, the count of every scenario.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CASSETTES = ROOT / "cassettes"
README = ROOT / "bot" / "docs" / "bot.md"  # the bot's reference topic
BOT_MODULES = (
    "test_github_status_comment",
    "test_github_review_label",
    "test_github_slash",
    "test_github_accept_label",
    "test_github_push",
    "test_github_reconcile",
    "test_github_signing",
)
BUDGETS = {
    "test_github_review_label/test_review_is_committed_posted_and_label_removed": 8,
    "test_github_slash/test_status": 5,  # one read lists who may act (named on it)
}


def calls(name: str) -> tuple[int, int]:
    """``(requests, writes)`` of one cassette."""
    text = (CASSETTES / f"{name}.yaml").read_text(encoding="utf-8")
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    methods = [item["request"]["method"] for item in data["interactions"]]
    return len(methods), sum(1 for m in methods if m != "GET")


def scenarios() -> list[str]:
    return sorted(
        f"{module}/{path.stem}"
        for module in BOT_MODULES
        for path in (CASSETTES / module).glob("*.yaml")
    )


SLASH, STATUS = "test_github_slash/test_", "test_github_status_comment/test_"
RECONCILE = "test_github_reconcile/test_"
SIGNING = "test_github_signing/test_"
README_ROWS: dict[str, tuple[str, ...]] = {
    "`rfd:review`, one-RFD PR (target ≤ 8)": (
        "test_github_review_label/test_review_is_committed_posted_and_label_removed",
    ),
    "`/rfd status` on a PR (target ≤ 5)": (SLASH + "status",),
    "`/rfd review`": (SLASH + "review",),
    "`/rfd refine` (commits the refined RFD; its progress comment posted, then its outcome)": (
        SLASH + "refine_commits_the_refined_rfd",
    ),
    "`/rfd dismiss all`, `/rfd dismiss 1 3`": (
        SLASH + "dismiss_all",
        SLASH + "dismiss_by_number_keeps_the_others",
    ),
    "`/rfd accept` (creates the tracking issue)": (SLASH + "accept_by_a_maintainer",),
    "`/rfd implement` (opens the phase's PR, links it on the tracking issue)": (
        SLASH + "implement_opens_a_pr_for_the_next_phase",
    ),
    "`/rfd done` on the RFD's PR": (
        SLASH + "done_on_a_pr_commits_the_status_and_leaves_the_issue_to_the_merge",
    ),
    "`/rfd help`": (SLASH + "help",),
    "label applied again, nothing left to do (reviewed / accepted)": (
        "test_github_review_label/test_label_applied_again_on_a_reviewed_pr_is_answered",
        "test_github_accept_label/test_accept_label_on_an_accepted_rfd_is_answered",
    ),
    "`rfd:review` whose post failed after its commit, then re-run (both runs: the failure "
    "report, then the committed review posted)": (
        "test_github_review_label/test_rerun_after_posting_failed_posts_the_committed_review",
    ),
    "`rfd:review` with `review.inline = true` (the PR review listed, then submitted)": (
        "test_github_review_label/test_inline_review_comments_on_the_lines_of_the_diff",
    ),
    "the same, its comment failed after the PR review was submitted, then re-run (both runs)": (
        "test_github_review_label/test_inline_review_is_submitted_once_across_a_rerun",
    ),
    "`rfd:accept` label": (
        "test_github_accept_label/test_accept_commits_once_and_opens_the_tracking_issue",
    ),
    "PR opened → status comment": (STATUS + "opened_posts_one_status_comment",),
    "PR synchronize → status comment edited, older review marked (one 502 retried)": (
        STATUS + "synchronize_marks_older_reviews_and_survives_a_502",
    ),
    "PR reopened → status comment edited in place": (
        STATUS + "reopened_edits_the_status_comment_in_place",
    ),
    "PR reopened, status comment current": (
        STATUS + "reopened_with_a_current_status_comment_writes_nothing",
    ),
    "push ticking a phase": (
        "test_github_push/test_phase_summary_ticks_its_box_and_keeps_a_human_tick",
    ),
    "`reconcile` creating a missing tracking issue": (
        RECONCILE + "missing_tracking_issue_is_created",
    ),
    "`reconcile`, 2 open PRs: stale label, missing and outdated status comments": (
        RECONCILE + "stale_label_removed_and_status_comments_rebuilt",
    ),
    "`reconcile` run again (nothing to repair)": (RECONCILE + "second_run_changes_nothing",),
    "sign-offs, 6 commands: `/rfd approve` ×2 (one by team membership), `/rfd concern`, "
    "`/rfd accept` refused, `/rfd resolve`, `/rfd fcp`": (
        SIGNING + "two_reviewers_approve_a_concern_blocks_accept_until_resolved",
    ),
    "`/rfd approve` by someone not in `consensus.reviewers`": (
        SIGNING + "someone_not_among_the_reviewers_cannot_approve",
    ),
    "`reconcile` at the end of a final comment period (announces it, applies the accept label)": (
        SIGNING + "the_scheduled_run_ends_an_elapsed_final_comment_period[announces]",
        SIGNING + "the_scheduled_run_ends_an_elapsed_final_comment_period[accepts]",
    ),
    "`reconcile` run again after the end was announced": (
        SIGNING + "the_end_of_a_final_comment_period_is_announced_once",
    ),
    "re-delivered event (status, review, accept, push, comment, refused label)": tuple(
        s for s in scenarios() if "redelivered" in s
    ),
}
"""README row → the cassettes it counts (a range when several)."""


def counted(names: tuple[str, ...]) -> tuple[str, str]:
    """``(calls, writes)`` as the README writes them: ``1–3`` over several cassettes."""
    found = [calls(name) for name in names]

    def span(values: list[int]) -> str:
        low, high = min(values), max(values)
        return str(low) if low == high else f"{low}–{high}"

    return span([c for c, _ in found]), span([w for _, w in found])


def readme_rows() -> dict[str, tuple[str, str]]:
    """The bot reference's calls-per-event table: event → ``(calls, writes)``, bold dropped."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index("| event | calls | writes |") + 2
    rows: dict[str, tuple[str, str]] = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        event, total, writes = (cell.strip().strip("*") for cell in line.strip("|").split(" | "))
        rows[event] = (total, writes)
    return rows


def test_readme_table_matches_the_cassettes() -> None:
    expected = {event: counted(names) for event, names in README_ROWS.items()}
    assert readme_rows() == expected


@pytest.mark.parametrize(("name", "budget"), sorted(BUDGETS.items()))
def test_budget(name: str, budget: int) -> None:
    assert calls(name)[0] <= budget


NO_WRITES = ("redelivered", "second_run", "writes_nothing", "without_a_write")
"""Scenarios that must write nothing: a re-delivery, a second run, an unchanged state."""


@pytest.mark.parametrize("name", [s for s in scenarios() if any(w in s for w in NO_WRITES)])
def test_redelivery_writes_nothing(name: str) -> None:
    assert calls(name)[1] == 0


def table() -> str:
    rows = ["| scenario | REST calls | writes |", "|---|---|---|"]
    for name in scenarios():
        total, writes = calls(name)
        rows.append(
            f"| {name.split('/', 1)[1].removeprefix('test_')} ({name.split('/')[0][12:]})"
            f" | {total} | {writes} |"
        )
    return "\n".join(rows)


def readme_table() -> str:
    rows = ["| event | calls | writes |", "| --- | ---: | ---: |"]
    for event, names in README_ROWS.items():
        total, writes = counted(names)
        rows.append(f"| {event} | {total} | {'**0**' if writes == '0' else writes} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(readme_table(), table(), sep="\n\n")
    sys.exit(0)
