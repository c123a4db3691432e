"""One run of the bot: the delivery it handles, the job stage it is, the link to it, the
context every handler gets, the job summary it writes, and its cosmetic writes.

:class:`Delivery` is one webhook delivery as GitHub Actions hands it over (event name and
JSON payload); everything the handlers read from the payload goes through its accessors,
so the shapes they rely on are written down once.  :class:`Context` is what every handler
gets: the delivery, the configuration and the edges to GitHub.

:class:`JobStage` is which part of the bot's work this job does (``RFD_BOT_STAGE``, the
action's ``stage``).  GitHub's guidance splits untrusted work from privileged work:
``/rfd implement`` is first checked by a ``check`` job without a model (refusals, the
progress comment), then runs the model and its commands in a ``work`` job holding a
read-only token (it posts nothing), which hands its phase, or why it ended, to a
``publish`` job that holds the write token and no model key
(:mod:`bot.github.implement.publish`); ``commands`` runs every other event and command.
``all`` (the default) does everything in one job, as a workflow without the split does.

Every reply ends with a link to its workflow run (:func:`with_run_link`), so a
maintainer can open the log behind it.  The values come from the runner
(``GITHUB_SERVER_URL``, ``GITHUB_REPOSITORY``, ``GITHUB_RUN_ID``), never from the event;
each is checked against its shape before it becomes part of a link, and outside Actions
(no run id) there is no link.

What the run tells the people watching Actions (:class:`Summary`): lines collected
during the run are appended, as markdown, to the file named by ``$GITHUB_STEP_SUMMARY``
(one line each, HTML and images defused: they quote RFDs); problems in files become
``::error file=…,line=…::`` workflow commands, which GitHub shows on the PR's diff.

Some writes only decorate a run's work: a reaction, a label's colour, a progress edit,
the status comment's refresh after the bot's own change.  When GitHub refuses one (403,
422, a 5xx past its retries) the work the run did stands (:func:`cosmetic`): the failure
is a warning in the job summary and in the log (a ``::warning::`` line), and the run goes
on to its end and its exit code.
"""

from __future__ import annotations

import enum
import json
import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.config.load import Config, Resolved
from bot.core.errors import ConfigError, ForgeError, ForgeGone, RfdError
from bot.core.github_markdown import cell, inline
from bot.core.redact import redact
from bot.forge.base import (
    MARKER_PREFIX,
    Comment,
    PullRequest,
    Reaction,
    leading_markers,
    marker,
    upsert_comment,
    with_marker,
)
from bot.forge.github import GitHubForge, RepoApi
from bot.github.auth import Actor

STAGE_ENV = "RFD_BOT_STAGE"


class JobStage(enum.Enum):
    ALL = "all"
    COMMANDS = "commands"
    CHECK = "check"
    WORK = "work"
    PUBLISH = "publish"

    def runs(self, implement: bool) -> bool:
        """Whether this job runs a command (``implement``: it is ``/rfd implement``)."""
        if self is JobStage.ALL:
            return True
        if self in (JobStage.CHECK, JobStage.WORK):
            return implement
        return self is JobStage.COMMANDS and not implement

    @property
    def posts(self) -> bool:
        """Whether this job writes on GitHub: the work job runs model-written code and holds
        a read-only token, so it posts nothing (the publish job says how it ended)."""
        return self is not JobStage.WORK


def stage_of(environ: Mapping[str, str]) -> JobStage:
    value = environ.get(STAGE_ENV, "") or JobStage.ALL.value
    try:
        return JobStage(value)
    except ValueError:
        names = ", ".join(s.value for s in JobStage)
        hint = f"use one of {names}"
        raise ConfigError(f"{STAGE_ENV}={value!r} is no stage", hint=hint) from None


RUN_ID = re.compile(r"[0-9]{1,20}")
REPOSITORY = re.compile(r"[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}")
SERVER = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?")
RUN_URL = "{server}/{repository}/actions/runs/{run}"
FOOTER = "<sub>[Workflow run {run}]({url})</sub>"


def run_id(environ: Mapping[str, str]) -> str | None:
    """This run's id (``GITHUB_RUN_ID``), when it looks like one."""
    run = environ.get("GITHUB_RUN_ID", "")
    return run if RUN_ID.fullmatch(run) else None


def run_url(environ: Mapping[str, str]) -> str | None:
    """``$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID``, or None
    outside Actions (or when a value does not have its shape)."""
    run = run_id(environ)
    server = environ.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    repository = environ.get("GITHUB_REPOSITORY", "")
    if run is None or not SERVER.fullmatch(server) or not REPOSITORY.fullmatch(repository):
        return None
    return RUN_URL.format(server=server, repository=repository, run=run)


def footer(environ: Mapping[str, str]) -> str:
    """The line linking this run (empty outside Actions)."""
    url = run_url(environ)
    return FOOTER.format(run=run_id(environ), url=url) if url else ""


def with_run_link(body: str, environ: Mapping[str, str]) -> str:
    """``body`` ending with the link to this run (unchanged outside Actions)."""
    line = footer(environ)
    return f"{body.rstrip()}\n\n{line}" if line else body


@dataclass(frozen=True)
class Delivery:
    event: str
    payload: Mapping[str, Any]
    repository: str

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Delivery:
        """Read ``GITHUB_EVENT_NAME`` and the payload at ``GITHUB_EVENT_PATH``."""
        event = environ.get("GITHUB_EVENT_NAME", "")
        path = environ.get("GITHUB_EVENT_PATH", "")
        if not event or not path:
            raise ConfigError(
                "GITHUB_EVENT_NAME and GITHUB_EVENT_PATH are not set",
                hint="`rfd bot` runs inside GitHub Actions; locally use the other rfd commands",
            )
        try:
            payload = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"cannot read the event payload: {exc}", path=path) from exc
        repository = environ.get("GITHUB_REPOSITORY") or payload.get("repository", {}).get(
            "full_name", ""
        )
        return cls(event, payload, repository)

    @property
    def action(self) -> str:
        return str(self.payload.get("action", ""))

    @property
    def kind(self) -> str:
        """``pull_request.labeled``, ``push``… (``pull_request_target`` reads as a PR)."""
        event = "pull_request" if self.event == "pull_request_target" else self.event
        return f"{event}.{self.action}" if self.action else event

    @property
    def key(self) -> str:
        """Stable across re-deliveries of this event: keys the markers of what it writes."""
        if self.comment:
            return f"c{self.comment['id']}"
        parts = [self.action or self.event, self.head_sha[:12], self.label]
        return "-".join(p.replace(":", "_") for p in parts if p)

    @property
    def actor(self) -> Actor:
        return Actor.from_sender(self.payload.get("sender") or {})

    @property
    def default_branch(self) -> str:
        return str(self.payload.get("repository", {}).get("default_branch", "main"))

    @property
    def number(self) -> int | None:
        """The PR or issue the event is about, if any."""
        for key in ("pull_request", "issue"):
            if key in self.payload:
                return int(self.payload[key]["number"])
        return None

    @property
    def pull_request(self) -> PullRequest | None:
        data = self.payload.get("pull_request")
        return PullRequest.from_payload(data) if data else None

    @property
    def on_pull_request(self) -> bool:
        """A comment on a PR (``issue.pull_request`` is set) or a PR event."""
        issue = self.payload.get("issue") or {}
        return "pull_request" in self.payload or bool(issue.get("pull_request"))

    @property
    def happened_at(self) -> datetime | None:
        """When the event happened, as far as the payload says (a PR's ``updated_at``)."""
        pr = self.payload.get("pull_request") or {}
        stamp = pr.get("updated_at")
        return datetime.fromisoformat(stamp) if isinstance(stamp, str) else None

    @property
    def label(self) -> str:
        return str((self.payload.get("label") or {}).get("name", ""))

    @property
    def comment(self) -> Mapping[str, Any]:
        return self.payload.get("comment") or {}

    @property
    def head_sha(self) -> str:
        pr = self.pull_request
        return pr.head_sha if pr else str(self.payload.get("after", ""))

    @property
    def pushed_ref(self) -> str:
        return str(self.payload.get("ref", ""))

    def touched_paths(self) -> set[str]:
        """Files added, modified or removed by the commits of a push."""
        paths: set[str] = set()
        for commit in self.payload.get("commits") or ():
            for key in ("added", "modified", "removed"):
                paths.update(commit.get(key) or ())
        return paths


if TYPE_CHECKING:
    from bot.events import TurnComplete

RAN_HEAD = "| command | by | outcome |\n| --- | --- | --- |"
RAN_ROW = "| {command} | @{actor} | {outcome} |"
COST = "Model cost of this run: {tokens} tokens · ${cost:.4f}"
NO_COST = "Model cost of this run: none (no model was called)"


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: str, message: str, *, file: str | None = None, line: int | None = None
) -> str:
    """A workflow command such as ``::error file=docs/rfd/045-x.md,line=3::message``."""
    props = []
    if file:
        props.append(f"file={escape_property(file)}")
        if line:
            props.append(f"line={line}")
    head = f"::{level} {','.join(props)}" if props else f"::{level}"
    return f"{head}::{escape_data(message)}"


@dataclass
class Spent:
    """What the model calls of one run cost, added up as they complete."""

    tokens: int = 0
    cost_usd: float = 0.0

    def add(self, event: TurnComplete) -> None:
        self.tokens += event.input_tokens + event.output_tokens
        self.cost_usd += event.cost_usd

    def line(self) -> str:
        if not self.tokens and not self.cost_usd:
            return NO_COST
        return COST.format(tokens=f"{self.tokens:,}", cost=self.cost_usd)


@dataclass(frozen=True)
class Ran:
    """One command (or label) this run answered: what, who asked, how it ended."""

    command: str
    actor: str
    outcome: str


@dataclass
class Summary:
    title: str
    lines: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    """Workflow commands (annotations) printed to the log."""
    ran: list[Ran] = field(default_factory=list)
    spent: Spent = field(default_factory=Spent)

    def answered(self, command: str, actor: str, outcome: str) -> None:
        """``command`` (markdown: `` `/rfd review` ``, a label) asked by ``actor`` ended so."""
        self.ran.append(Ran(command, actor, _cell(outcome)))

    def note(self, line: str) -> None:
        self.lines.append(line)

    def problem(self, err: RfdError, level: str = "error") -> None:
        """An error for the summary and, when it names a file, an annotation on it."""
        message = err.message + (f" ({err.hint})" if err.hint else "")
        self.commands.append(annotation(level, message, file=err.path, line=err.line))
        where = f"`{err.location}`: " if err.location else ""
        self.lines.append(f"{'❌' if level == 'error' else '⚠️'} {where}{message}")

    def annotate(self, level: str, message: str, *, file: str, line: int | None) -> None:
        """A finding in a file (lint): an annotation only, the summary gets the count."""
        self.commands.append(annotation(level, message, file=file, line=line))

    def markdown(self) -> str:
        body = "\n".join(f"- {inline(line)}" for line in self.lines) or "- nothing to do"
        head = f"### {self.title}\n\n"
        if self.ran:
            rows = "\n".join(RAN_ROW.format(**vars(r)) for r in self.ran)
            head += f"{RAN_HEAD}\n{rows}\n\n{self.spent.line()}\n\n"
        return f"{head}{body}\n"

    def flush(self, environ: Mapping[str, str], out: TextIO | None = None) -> None:
        out = out or sys.stdout
        for command in self.commands:
            print(command, file=out)
        target = environ.get("GITHUB_STEP_SUMMARY")
        if target:
            with Path(target).open("a", encoding="utf-8") as handle:
                handle.write(self.markdown())
        else:
            print(self.markdown(), file=out)


def _cell(text: str) -> str:
    """The first line of ``text`` (cut at 200 characters), safe in a table cell."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return cell(first[:200])


COMMIT_MARK = f"{MARKER_PREFIX}commit:"
"""The start of the marker by which the bot's reply names a commit it made."""


@dataclass(frozen=True)
class Context:
    delivery: Delivery
    cfg: Config
    forge: GitHubForge
    api: RepoApi
    root: Path
    """The Actions checkout of the default branch (configuration, base of worktrees)."""
    environ: Mapping[str, str]
    summary: Summary
    clock: Callable[[], float] = time.time
    """Time for the files the operations write (review names): fixed in tests."""
    resolved: Resolved | None = None
    """The resolved configuration ``cfg`` comes from (with each value's source): the
    workspace loads the enabled plugins from it."""
    progress: list[str] = field(default_factory=list)
    """What this run has already written (said in the failure reply if a later step fails)."""
    commits: list[str] = field(default_factory=list)
    """The shas of the commits this run made: its reply names each in a leading marker,
    the proof :mod:`bot.github.bot_records` asks for that the bot made them."""
    forged: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """``{rfd id: ledger entries written by hand}``, left out of what counts (the reply says)."""
    followed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """``{rfd id: what its sign-off comments, edited or deleted since, now count for}``."""

    @property
    def number(self) -> int:
        number = self.delivery.number
        if number is None:
            raise ValueError(f"{self.delivery.kind} is not about an issue or a PR")
        return number

    @property
    def server_url(self) -> str:
        return self.environ.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")

    def upsert(
        self,
        kind: str,
        key: str | int,
        body: str,
        number: int | None = None,
        *,
        proofs: bool = False,
        answers: str | None = None,
    ) -> Comment:
        """Create or edit the bot's comment ``kind:key`` (no write when the text is the same);
        the job summary says which of the three happened.  With ``proofs`` its leading
        markers name this run's commits and keep those the comment named before (the
        status comment: the proof of the commits of quiet sign-offs, which post no reply).
        ``answers``: the key of the reply this comment stands for (a long run's progress
        comment, once it ends in the outcome): a re-delivery finds it answered."""
        target = self.number if number is None else number
        mark = marker(kind, key)
        before = self.forge.find_comment(target, mark)
        if answers is not None:
            body = f"{marker('reply', answers)}\n{body}"
        if proofs:
            body = "\n".join([*self._proofs(before), body])
        found, created = upsert_comment(self.forge, target, mark, redact(body))
        verb = "posted" if created else "unchanged" if before == found else "updated"
        self.summary.note(f"{kind} comment {verb} on #{target}: {found.url}")
        return found

    def replied_after_event(self, key: str | None = None) -> bool:
        """Did a run already reply to this very event (a re-delivery), not to an earlier one?

        The reply's marker is the same when the same person applies a label again
        at the same head; only a reply written after the event answers *this* one.
        """
        found = self.forge.find_comment(self.number, marker("reply", key or self.delivery.key))
        return found is not None and self.written_after_event(found)

    def written_after_event(self, comment: Comment) -> bool:
        """Was ``comment`` written after this event happened (so it answers this event)?"""
        when = self.delivery.happened_at
        if when is None or not comment.updated:
            return False
        return datetime.fromisoformat(comment.updated) >= when

    @property
    def failure_key(self) -> str:
        """The key of the reply saying this delivery's run could not finish."""
        return f"{self.delivery.key}-failed"

    def reply(self, body: str, key: str | None = None) -> Comment:
        """A reply to this delivery; one per delivery, so a re-run edits instead of repeating.

        A re-run that answers where an earlier run reported a failure edits that report in
        place (it takes this reply's marker): the thread shows one, current, answer.  Its
        leading markers name the commits this run and the replaced text's runs made
        (:mod:`bot.github.bot_records`).
        """
        key = key or self.delivery.key
        report = self._failure_report(key)
        earlier = report or self.forge.find_comment(self.number, marker("reply", key))
        body = "\n".join([*self._proofs(earlier), with_run_link(body, self.environ)])
        if report is None:
            return self.upsert("reply", key, body)
        text = with_marker(redact(body), marker("reply", key))
        try:
            edited = self.forge.edit_comment(self.number, report.id, text)
        except ForgeGone:  # someone deleted the report meanwhile
            return self.upsert("reply", key, body)
        self.summary.note(f"failure report replaced by the reply on #{self.number}: {edited.url}")
        return edited

    def _proofs(self, earlier: Comment | None) -> list[str]:
        """The commit markers of this run's commits and of those ``earlier`` (the comment it
        replaces or edits) named: the proof that the bot made them is never edited away."""
        kept = leading_markers(earlier.body) if earlier is not None else ()
        before = [m for m in kept if m.startswith(COMMIT_MARK)]
        return list(dict.fromkeys([*before, *(marker("commit", sha) for sha in self.commits)]))

    def settle_failure(self, body: str) -> None:
        """A run that finished where an earlier run of this event reported a failure: the
        report says ``body`` instead (no write when there was no report)."""
        if self.failure_report() is not None:
            self.reply(body)

    def failure_report(self) -> Comment | None:
        """This delivery's failure report, when no reply has replaced it yet."""
        return None if self.delivery.number is None else self._failure_report(self.delivery.key)

    def _failure_report(self, key: str) -> Comment | None:
        """The earlier run's failure report, when ``key`` has no reply of its own yet."""
        if key == self.failure_key or self.forge.find_comment(self.number, marker("reply", key)):
            return None
        return self.forge.find_comment(self.number, marker("reply", self.failure_key))


FAILED = "{what} failed ({why}); the run's work is done and stands"


@contextmanager
def cosmetic(summary: Summary, what: str) -> Iterator[None]:
    """Run the write inside; a :class:`ForgeError` becomes a warning saying ``what`` failed."""
    try:
        yield
    except ForgeError as err:
        warn(summary, what, err)


def warn(summary: Summary, what: str, err: ForgeError) -> None:
    why = err.message + (f": {err.hint}" if err.hint else "")
    summary.problem(ForgeError(FAILED.format(what=what, why=why)), level="warning")


def react(ctx: Context, reaction: Reaction) -> bool:
    """React to the command's comment; False only when the comment was deleted meanwhile
    (a reaction GitHub refuses is a warning: the command still runs and its work stands)."""
    reacted = True  # a refused reaction: the warning says so and the command goes on
    with cosmetic(ctx.summary, f"the {reaction.value} reaction"):
        reacted = ctx.api.react(int(ctx.delivery.comment["id"]), reaction)
    return reacted
