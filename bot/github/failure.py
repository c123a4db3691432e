"""The reply saying a run could not finish, true about what was already done.

A run lists what it wrote (``Context.progress``: a commit, a posted review).  The
failure report says so — "Done before the failure: …" — and a re-run that fails
again keeps those lines: it may have done nothing new, but what the earlier run
committed is still there, so the report never turns into "Nothing was left
half-done".  The steps are shown with :func:`bot.core.github_markdown.inline` (they hold
branch names), so they read back from the report as they were written.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.core.github_markdown import inline

FAILED = "### 😕 rfd-bot could not finish\n\n{error}\n\n{retry}"
RETRY = (
    "Nothing was left half-done. Fix the problem above, then re-run the job or repeat the command."
)
DONE_HEAD = "Done before the failure:"
PARTLY = (
    DONE_HEAD + "\n{done}\n\nFix the problem above, then re-run the job (or repeat "
    "the command): the re-run finds what was done and finishes the rest without doing it twice."
)


def retry_text(progress: Iterable[str]) -> str:
    """How to retry, saying truthfully what was already written."""
    steps = list(dict.fromkeys(inline(step) for step in progress))
    if not steps:
        return RETRY
    return PARTLY.format(done="\n".join(f"- {step}" for step in steps))


def steps_done(report: str | None, progress: Iterable[str]) -> list[str]:
    """What an earlier run reported done (``report``: its failure report) and this run did."""
    return [*(steps_reported(report) if report else []), *progress]


def steps_reported(report: str) -> list[str]:
    """The steps an earlier failure report (the bot's own comment) said were done."""
    _, head, rest = report.partition(f"\n{DONE_HEAD}\n")
    if not head:
        return []
    section = rest.split("\n\n", 1)[0]
    return [line[2:] for line in section.split("\n") if line.startswith("- ")]
