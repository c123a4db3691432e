"""The commands of ``rfd``: where each lives and the line ``rfd --help`` shows for it.

The line is the first sentence of the command's docstring, kept here so that listing the
commands imports none of them (tests/test_cli.py holds the two the same).
"""

from __future__ import annotations

from typing import NamedTuple


class Entry(NamedTuple):
    target: str
    """``module:attribute`` of the click command."""
    summary: str


COMMANDS: dict[str, Entry] = {
    "init": Entry(
        "bot.cli.setup:init",
        "Set the repository up for RFDs: config (detected from the RFDs already there), RFD "
        "directory, committed state directory; ``--github`` adds the bot's workflow and "
        "labels.",
    ),
    "pin": Entry(
        "bot.cli.setup:pin",
        "Move rfd-bot's action in the repository's workflows to a newer release, pinned to "
        "its commit; everything else in those files stays as it is.",
    ),
    "adopt": Entry(
        "bot.cli.adopt:adopt",
        "Record the adoption baseline and the process rules the history shows.",
    ),
    "track": Entry(
        "bot.cli.adopt:track",
        "Make a legacy Accepted RFD trackable: extract its plan into plan.json.",
    ),
    "demo": Entry(
        "bot.cli.demo:demo",
        "Walk an example RFD through review → dismiss → accept → phases → done, offline.",
    ),
    "new": Entry(
        "bot.cli.setup:new",
        "Create a draft RFD from the repository's template for CATEGORY (design, decision, "
        "guide, process, or any its templates name).",
    ),
    "list": Entry("bot.cli.show:list_cmd", "List every RFD: id, status, title and phase progress."),
    "status": Entry("bot.cli.show:status", "Where an RFD stands, and what to do next."),
    "plan": Entry(
        "bot.cli.show:plan_cmd",
        "Show the plan `rfd accept` would extract (changes nothing).",
    ),
    "site": Entry(
        "bot.cli.site_cmd:site",
        "Build the RFD site: board, a page per RFD, graph, search, rfds.json, Atom feed.",
    ),
    "lint": Entry(
        "bot.cli.lint_cmd:lint",
        "Check RFD headers and structure (all RFDs, or the files given).",
    ),
    "promote": Entry(
        "bot.cli.transitions:promote",
        "Move an RFD to its next status (a draft takes its permanent number).",
    ),
    "abandon": Entry(
        "bot.cli.transitions:abandon",
        "Abandon an RFD that is not implemented, recording why; warn about the RFDs that "
        "require or extend it.",
    ),
    "supersede": Entry(
        "bot.cli.transitions:supersede",
        "Mark OLD (Accepted or Implemented) as superseded by NEW; both are cross-linked.",
    ),
    "accept": Entry(
        "bot.cli.transitions:accept",
        "Extract the plan, promote to Accepted and open the tracking issue (or change nothing).",
    ),
    "done": Entry(
        "bot.cli.transitions:done",
        "Promote to Implemented once every phase is recorded; close the tracking issue.",
    ),
    "review": Entry(
        "bot.cli.reviewing:review",
        "Review the RFD (Discussion) or its implementation (Accepted); save the review.",
    ),
    "dismiss": Entry(
        "bot.cli.reviewing:dismiss",
        "Delete reviews that are addressed: numbers from `rfd status`, or `all`.",
    ),
    "phase": Entry(
        "bot.cli.reviewing:phase",
        "Record a phase implemented by hand (phases/<label>.md: 1, 0, 3a, B as the plan names"
        " it) and tick it on the tracking issue.",
    ),
    "decide": Entry(
        "bot.cli.decide:decide",
        "Add, update or reject a decision in decisions.md (numbers stay stable).",
    ),
    "approve": Entry(
        "bot.cli.signing:approve",
        "Sign off on the RFD at its current revision (you must be one of its reviewers).",
    ),
    "concern": Entry(
        "bot.cli.signing:concern",
        "Raise a blocking concern (it pauses a running final comment period).",
    ),
    "resolve": Entry(
        "bot.cli.signing:resolve",
        "Resolve a concern by its number (locally anyone with commit access is a maintainer).",
    ),
    "fcp": Entry(
        "bot.cli.signing:fcp",
        "Start the final comment period (the approvals in, no concern open).",
    ),
    "refine": Entry(
        "bot.cli.ai:refine",
        "Refine the RFD from its active reviews (rule of five), then offer to dismiss them.",
    ),
    "implement": Entry(
        "bot.cli.ai:implement",
        "Implement the next phase: research → plan → one item at a time → summary.",
    ),
    "author": Entry(
        "bot.cli.ai:author",
        "Start a new RFD: create the draft, then explore the problem with the model.",
    ),
    "explore": Entry("bot.cli.ai:explore", "Research the problem space (saves explore.md)."),
    "converge": Entry("bot.cli.ai:converge", "Discuss and record design decisions."),
    "draft": Entry("bot.cli.ai:draft", "Draft the RFD section by section (needs decisions)."),
    "plugins": Entry(
        "bot.cli.plugins:plugins",
        "List installed plugins, enabled or not, with their events and intercepted tools.",
    ),
    "config": Entry(
        "bot.cli.config_cmd:config",
        "Inspect the configuration (resolved once: defaults, user, repo, env, flags).",
    ),
    "help": Entry(
        "bot.cli.help:help_cmd",
        "Show the reference: the list of topics, or the one named (commands, configuration …).",
    ),
    "bot": Entry(
        "bot.cli.bot_cmd:command",
        "Handle this job's GitHub event: status comment, review/accept labels, /rfd commands,"
        " tracking issues.",
    ),
}
