"""Slash commands: the verb table (:data:`REGISTRY`) and the parser of ``/rfd`` lines.

:data:`REGISTRY` declares each verb of ``/rfd <verb> [args]``: what it does, what may
follow it, whether it changes anything and whether it calls the model.  The parser, the
authorization and ``/rfd help`` (generated from it) all read it.

Parsing has no side effects.  Only lines a reader sees as prose count
(:mod:`bot.github.prose`, a CommonMark parser): code, quotes, lists, HTML blocks and
comments are skipped, so quoting, hiding or documenting a command never runs it.  Each
verb accepts only its own arguments; a comment may carry at most one AI verb.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from bot.config.load import Config
from bot.core.errors import ValidationError
from bot.github.prose import prose_lines
from bot.model import phase_ids


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


@dataclass(frozen=True)
class Command:
    verb: Verb
    line: int
    rfd: str | None = None
    model: str | None = None
    selection: tuple[int, ...] | None = None
    """Review numbers for ``dismiss``; None means ``all``."""
    phase: str | None = None
    """The phase ``implement`` was given, as typed (a label such as ``3a``)."""
    text: str = ""
    """What ``concern`` says (the rest of its line)."""

    @property
    def spec(self) -> VerbSpec:
        return REGISTRY[self.verb]


@dataclass(frozen=True)
class Parsed:
    commands: tuple[Command, ...]
    errors: tuple[str, ...]


_COMMAND = re.compile(r"^\s{0,3}/rfd(?:\s+(?P<rest>.*?))?\s*$")
MODEL_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/-]{0,80}$")
RFD_ID = re.compile(r"^[Dd]?\d{1,5}$")


def parse(body: str) -> Parsed:
    """All commands of a comment, and what was wrong with the ones that failed."""
    commands: list[Command] = []
    errors: list[str] = []
    for number, line in prose_lines(body):
        match = _COMMAND.match(line)
        if match is None:
            continue
        try:
            commands.append(parse_line(match.group("rest") or "", number))
        except ValidationError as exc:
            errors.append(f"line {number}: {exc.message}")
    ai = [c for c in commands if c.spec.ai]
    if len(ai) > 1:
        errors.append(f"one AI command per comment, found {len(ai)}: post them separately")
        commands = [c for c in commands if not c.spec.ai]
    return Parsed(tuple(commands), tuple(errors))


def parse_line(rest: str, line: int) -> Command:
    words = rest.split()
    if not words:
        raise ValidationError("`/rfd` needs a command: try `/rfd help`")
    try:
        verb = Verb(words[0].lower())
    except ValueError:
        raise ValidationError(unknown_verb(words[0])) from None
    spec = REGISTRY[verb]
    if spec.args is Args.TEXT:
        return _with_text(verb, words[1:], line)
    options, positional = _options(words[1:], spec)
    selection, phase = _positional(positional, spec)
    return Command(verb, line, options.get("--rfd"), options.get("--model"), selection, phase)


def unknown_verb(word: str) -> str:
    """The error of an unknown verb, with the closest known one when it looks like a typo."""
    import difflib

    known = [v.value for v in Verb]
    close = difflib.get_close_matches(word.lower(), known, n=1, cutoff=0.6)
    hint = f"did you mean `/rfd {close[0]}`?" if close else "try `/rfd help`"
    return f"unknown command `/rfd {word}`: {hint}"


def _with_text(verb: Verb, words: list[str], line: int) -> Command:
    """``/rfd concern [--rfd ID] text…``: everything after the options is the text."""
    rfd = None
    if words[:1] == ["--rfd"] and len(words) > 1:
        if not RFD_ID.match(words[1]):
            raise ValidationError(f"`--rfd` needs a value like {_EXAMPLE['--rfd']}")
        rfd, words = words[1], words[2:]
    if not words:
        raise ValidationError(f"`/rfd {verb.value}` needs a text: {REGISTRY[verb].usage}")
    return Command(verb, line, rfd, text=" ".join(words))


def _options(words: list[str], spec: VerbSpec) -> tuple[dict[str, str], list[str]]:
    allowed = {"--rfd"} if spec.verb is not Verb.HELP else set()
    if spec.ai:
        allowed.add("--model")
    options: dict[str, str] = {}
    positional: list[str] = []
    it = iter(words)
    for word in it:
        if not word.startswith("--"):
            positional.append(word)
            continue
        name, _, value = word.partition("=")
        if name not in allowed:
            raise ValidationError(
                f"`/rfd {spec.verb.value}` does not take `{name}`: `{spec.usage}`"
            )
        value = value or next(it, "")
        pattern = MODEL_NAME if name == "--model" else RFD_ID
        if not pattern.match(value):
            raise ValidationError(f"`{name}` needs a value like {_EXAMPLE[name]}")
        options[name] = value
    return options, positional


_EXAMPLE = {"--model": "`--model sonnet`", "--rfd": "`--rfd 045`"}


def _positional(words: list[str], spec: VerbSpec) -> tuple[tuple[int, ...] | None, str | None]:
    if spec.args is Args.SELECTION:
        if words == ["all"]:
            return None, None
        if words and all(w.isdigit() and int(w) > 0 for w in words):
            return tuple(sorted({int(w) for w in words})), None
        raise ValidationError(f"`/rfd dismiss` needs review numbers or `all`: `{spec.usage}`")
    if spec.args is Args.NUMBER:
        if len(words) == 1 and words[0].isdigit() and int(words[0]) > 0:
            return (int(words[0]),), None
        raise ValidationError(f"`/rfd {spec.verb.value}` needs a concern number: `{spec.usage}`")
    if spec.args is Args.PHASE and len(words) <= 1:
        if not words:
            return (), None
        if phase_ids.normalize(words[0]) is not None:
            return (), words[0]
    if words:
        raise ValidationError(
            f"`/rfd {spec.verb.value}` does not take `{' '.join(words)}`: `{spec.usage}`"
        )
    return (), None


def _cell(text: str) -> str:
    """Text for a markdown table cell (a bare ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def who_may(spec: VerbSpec, cfg: Config) -> str:
    """Who may run ``spec`` under ``cfg``, as ``bot.github.auth.authorize`` decides it."""
    if not spec.mutating:
        return "anyone"
    who = f"people with {cfg.accept.min_permission} access or more"
    if spec.verb is Verb.ACCEPT:
        author = cfg.accept.allow_author
        who += " (the RFD's author too)" if author else " other than the RFD's author"
    if spec.verb in SIGNING:
        who += " listed in `consensus.reviewers`"
        who += " (not the RFD's author)" if spec.verb is Verb.APPROVE else ""
    return who


SIGNING = (Verb.APPROVE, Verb.CONCERN, Verb.FCP)
"""Verbs only ``consensus.reviewers`` may use (besides the repository permission)."""
CONSENSUS = (*SIGNING, Verb.RESOLVE)
"""Verbs listed by ``/rfd help`` only where the repository asks for sign-offs."""


def _bots(cfg: Config) -> str:
    if not cfg.bot.allowed_bots:
        return "Commands from bot accounts are ignored (`bot.allowed_bots` is empty)."
    names = ", ".join(f"`{name}`" for name in cfg.bot.allowed_bots)
    return f"Of bot accounts, only {names} may use the commands above (`bot.allowed_bots`)."


def command_table(cfg: Config) -> str:
    """Every command, what it does and who may use it: a markdown table (the sign-off
    commands only under ``[consensus]``)."""
    rows = ["| command | what it does | who may use it |", "|---|---|---|"]
    shown = [s for s in REGISTRY.values() if cfg.consensus.enabled or s.verb not in CONSENSUS]
    rows += [f"| `{_cell(s.usage)}` | {s.summary} | {who_may(s, cfg)} |" for s in shown]
    return "\n".join(rows)


def help_text(cfg: Config) -> str:
    """The reply to ``/rfd help``, from the registry and the repository's configuration."""
    notes = (
        "Commands inside code blocks, quotes and HTML comments are ignored. "
        "One AI command (review, refine, implement) per comment. " + _bots(cfg)
    )
    return "\n".join(["### RFD bot commands", "", command_table(cfg), "", notes])
