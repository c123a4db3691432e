"""The verbs of the slash commands (``/rfd <verb>``): what each does, what may follow it,
whether it changes anything and whether it calls the model — :data:`REGISTRY`, which the
parser (:mod:`bot.github.commands`), the authorization and ``/rfd help`` read.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Verb(enum.Enum):
    REVIEW = "review"
    REFINE = "refine"
    DISMISS = "dismiss"
    ACCEPT = "accept"
    IMPLEMENT = "implement"
    DONE = "done"
    APPROVE = "approve"
    CONCERN = "concern"
    RESOLVE = "resolve"
    FCP = "fcp"
    STATUS = "status"
    HELP = "help"


class Args(enum.Enum):
    """What may follow the verb, besides ``--rfd ID`` (and ``--model X`` for AI verbs)."""

    NONE = "none"
    SELECTION = "n… | all"
    PHASE = "[phase]"
    TEXT = "<text>"
    NUMBER = "<n>"


@dataclass(frozen=True)
class VerbSpec:
    verb: Verb
    summary: str
    args: Args = Args.NONE
    mutating: bool = True
    ai: bool = False

    @property
    def usage(self) -> str:
        parts = [f"/rfd {self.verb.value}"]
        if self.args is Args.TEXT:  # the text is the rest of the line: the option comes first
            return f"/rfd {self.verb.value} [--rfd ID] {Args.TEXT.value}"
        if self.args is not Args.NONE:
            parts.append("<n… | all>" if self.args is Args.SELECTION else self.args.value)
        if self.ai:
            parts.append("[--model X]")
        if self.verb is not Verb.HELP:
            parts.append("[--rfd ID]")
        return " ".join(parts)


REGISTRY: dict[Verb, VerbSpec] = {
    spec.verb: spec
    for spec in (
        VerbSpec(Verb.REVIEW, "review the RFDs of this PR and commit the review", ai=True),
        VerbSpec(Verb.REFINE, "revise the RFD to address its open reviews", ai=True),
        VerbSpec(
            Verb.DISMISS, "remove reviews by the numbers the status comment shows", Args.SELECTION
        ),
        VerbSpec(Verb.ACCEPT, "accept the RFD: plan, status, tracking issue"),
        VerbSpec(
            Verb.IMPLEMENT, "implement the next (or given) phase in a new PR", Args.PHASE, ai=True
        ),
        VerbSpec(Verb.DONE, "mark the RFD Implemented once every phase is done"),
        VerbSpec(Verb.APPROVE, "sign off on the RFD at its current revision (reviewers)"),
        VerbSpec(Verb.CONCERN, "raise a blocking concern (reviewers)", Args.TEXT),
        VerbSpec(Verb.RESOLVE, "resolve a concern (its author or a maintainer)", Args.NUMBER),
        VerbSpec(Verb.FCP, "start the final comment period (reviewers)"),
        VerbSpec(
            Verb.STATUS,
            "refresh the status comment (on a tracking issue: the phases)",
            mutating=False,
        ),
        VerbSpec(Verb.HELP, "show this help", mutating=False),
    )
}
