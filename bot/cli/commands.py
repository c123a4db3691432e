"""The commands of ``rfd``: the line ``rfd --help`` shows for each, and where each lives.

The line is the first sentence of the command's docstring, kept here so that listing the
commands imports none of them (tests/test_cli.py holds the two the same); :func:`load`
imports one command's module when that command runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import click


COMMANDS: dict[str, str] = {
    "init": (
        "Set the repository up for RFDs: config (detected from the RFDs already there), RFD "
        "directory, committed state directory; ``--github`` adds the bot's workflow and "
        "labels."
    ),
    "pin": (
        "Move rfd-bot's action in the repository's workflows to a newer release, pinned to "
        "its commit; everything else in those files stays as it is."
    ),
    "adopt": "Record the adoption baseline and the process rules the history shows.",
    "track": "Make a legacy Accepted RFD trackable: extract its plan into plan.json.",
    "demo": "Walk an example RFD through review → dismiss → accept → phases → done, offline.",
    "new": (
        "Create a draft RFD from the repository's template for CATEGORY (design, decision, "
        "guide, process, or any its templates name)."
    ),
    "list": "List every RFD: id, status, title and phase progress.",
    "status": "Where an RFD stands, and what to do next (without RFD: every RFD in flight).",
    "plan": "Show the plan `rfd accept` would extract (changes nothing).",
    "site": "Build the RFD site: board, a page per RFD, graph, search, rfds.json, Atom feed.",
    "lint": "Check RFD headers and structure (all RFDs, or the files given).",
    "promote": "Move an RFD to its next status (a draft takes its permanent number).",
    "abandon": (
        "Abandon an RFD that is not implemented, recording why; warn about the RFDs that "
        "require or extend it."
    ),
    "supersede": (
        "Mark OLD (Accepted or Implemented) as superseded by NEW; both are cross-linked."
    ),
    "accept": (
        "Extract the plan, promote to Accepted and open the tracking issue (or change nothing)."
    ),
    "done": "Promote to Implemented once every phase is recorded; close the tracking issue.",
    "review": "Review the RFD (Discussion) or its implementation (Accepted); save the review.",
    "dismiss": "Delete reviews that are addressed: numbers from `rfd status`, or `all`.",
    "phase": (
        "Record a phase implemented by hand (phases/<label>.md: 1, 0, 3a, B as the plan names"
        " it) and tick it on the tracking issue."
    ),
    "decide": "Add, update or reject a decision in decisions.md (numbers stay stable).",
    "approve": "Sign off on the RFD at its current revision (you must be one of its reviewers).",
    "concern": "Raise a blocking concern (it pauses a running final comment period).",
    "resolve": (
        "Resolve a concern by its number (locally anyone with commit access is a maintainer)."
    ),
    "fcp": "Start the final comment period (the approvals in, no concern open).",
    "refine": (
        "Refine the RFD from its active reviews (rule of five), then offer to dismiss them."
    ),
    "implement": "Implement the next phase: research → plan → one item at a time → summary.",
    "author": "Start a new RFD: create the draft, then explore the problem with the model.",
    "explore": "Research the problem space (saves explore.md).",
    "converge": "Discuss and record design decisions.",
    "draft": "Draft the RFD section by section (needs decisions).",
    "plugins": "List installed plugins, enabled or not, with their events and intercepted tools.",
    "config": "Inspect the configuration (resolved once: defaults, user, repo, env, flags).",
    "help": (
        "Show the reference: the list of topics, or the one named (commands, configuration …)."
    ),
    "bot": (
        "Handle this job's GitHub event: status comment, review/accept labels, /rfd commands,"
        " tracking issues."
    ),
}


def load(name: str) -> click.Command:
    """The click command ``name`` of :data:`COMMANDS`, importing its module only now (so that
    ``rfd --help`` and one command cost no other command's imports)."""
    match name:
        case "init":
            from bot.cli.setup import init as command
        case "pin":
            from bot.cli.setup import pin as command
        case "adopt":
            from bot.cli.adopt import adopt as command
        case "track":
            from bot.cli.adopt import track as command
        case "demo":
            from bot.cli.demo import demo as command
        case "new":
            from bot.cli.setup import new as command
        case "list":
            from bot.cli.show import list_cmd as command
        case "status":
            from bot.cli.show import status as command
        case "plan":
            from bot.cli.show import plan_cmd as command
        case "site":
            from bot.cli.site_cmd import site as command
        case "lint":
            from bot.cli.lint_cmd import lint as command
        case "promote":
            from bot.cli.transitions import promote as command
        case "abandon":
            from bot.cli.transitions import abandon as command
        case "supersede":
            from bot.cli.transitions import supersede as command
        case "accept":
            from bot.cli.transitions import accept as command
        case "done":
            from bot.cli.transitions import done as command
        case "review":
            from bot.cli.reviewing import review as command
        case "dismiss":
            from bot.cli.reviewing import dismiss as command
        case "phase":
            from bot.cli.reviewing import phase as command
        case "decide":
            from bot.cli.decide import decide as command
        case "approve":
            from bot.cli.signing import approve as command
        case "concern":
            from bot.cli.signing import concern as command
        case "resolve":
            from bot.cli.signing import resolve as command
        case "fcp":
            from bot.cli.signing import fcp as command
        case "refine":
            from bot.cli.ai import refine as command
        case "implement":
            from bot.cli.ai import implement as command
        case "author":
            from bot.cli.ai import author as command
        case "explore":
            from bot.cli.ai import explore as command
        case "converge":
            from bot.cli.ai import converge as command
        case "draft":
            from bot.cli.ai import draft as command
        case "plugins":
            from bot.cli.plugins import plugins as command
        case "config":
            from bot.cli.config_cmd import config as command
        case "help":
            from bot.cli.help import help_cmd as command
        case "bot":
            from bot.cli.bot_cmd import command
        case _:
            raise KeyError(name)
    return command
