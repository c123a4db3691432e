"""``issue_comment`` created: run the ``/rfd`` commands of a comment.

Only new comments count (an edit never re-runs anything).  The bot's own
comments are ignored.  A mutating command is acknowledged with 👀 and ends with
🚀 or 😕 and a reply — a sign-off step or a dismissal that worked ends with 🚀 and
the status comment's edit alone (:data:`QUIET`); read-only ones (status, help) just
reply.  Every refusal says why.  A comment the bot already answered (a re-delivered event) is left
alone: each command's final reply carries the comment's id and the verb in its
marker.  A run that failed half-way left no final reply, so a re-run finishes it; its
reply takes the place of the failure report (see :meth:`Context.reply`).  A comment
deleted before its command ran (the 👀 finds it gone) runs nothing, on a re-run too.
"""

from __future__ import annotations

from bot.core.errors import ForgeError, RfdError
from bot.core.github_markdown import fenced, inline
from bot.core.text import noun
from bot.forge.base import Reaction, marker
from bot.github.auth import authorize, is_own
from bot.github.commands import Command, Verb, parse
from bot.github.failure import retry_text, steps_done
from bot.github.ops import Refused
from bot.github.run import Context, JobStage, stage_of
from bot.github.verbs import HANDLERS

PARSE_ERRORS = "I could not run this comment's {what}:\n\n{errors}\n\n`/rfd help` lists them."
FINISHED = "✅ Finished by a re-run of this job: nothing is left half-done."
FAILED = "😕 `/rfd {verb}` failed:\n\n{error}\n\n{retry}"
RETRY = "Nothing was left half-done: fix this, then comment again."
GONE = "the comment of `/rfd {verb}` was deleted before it ran: not run"
MAX_ERRORS = 20
"""Usage errors listed in one reply (a flood of bad commands is summed up)."""
DONE, REFUSED, FAILED_OUTCOME = "✅ done", "😕 refused", "❌ failed"
OTHER_JOB = "`/rfd {verb}` runs in the workflow's other job for it: not run here"
HANDED = (
    "checked: handed to the work job (model, no write token), whose phase or failure the "
    "publish job checks again and posts"
)
QUIET = frozenset((Verb.APPROVE, Verb.CONCERN, Verb.RESOLVE, Verb.FCP, Verb.DISMISS))
"""Verbs whose success is said by 🚀 and the status comment's edit, without a reply (a
refusal or a failure still gets one): the status comment already shows the outcome."""


def on_comment(ctx: Context) -> None:
    body = str(ctx.delivery.comment.get("body") or "")
    actor = ctx.delivery.actor
    if is_own(actor, ctx.forge.login):
        ctx.summary.note("ignored: the bot's own comment")
        return
    parsed = parse(body)
    if not parsed.commands and not parsed.errors:
        ctx.summary.note("no /rfd command in this comment")
        return
    stage = stage_of(ctx.environ)
    if parsed.errors and stage in (JobStage.ALL, JobStage.COMMANDS):  # said once
        ctx.reply(usage_reply(parsed.errors), key=f"{ctx.delivery.key}-usage")
    for command in parsed.commands:
        if not stage.runs(command.verb is Verb.IMPLEMENT):
            ctx.summary.note(OTHER_JOB.format(verb=command.verb.value))
        elif stage is JobStage.WORK:  # checked, 👀 and answered by the jobs around it
            from bot.github.implement.command import work

            work(ctx, command)
        elif _answered(ctx, command):
            ctx.summary.note(f"`/rfd {command.verb.value}` was already answered: nothing to do")
        else:
            run(ctx, command)


def usage_reply(errors: tuple[str, ...]) -> str:
    """What was wrong with the comment's commands (the first :data:`MAX_ERRORS` of them)."""
    lines = [f"- {inline(e)}" for e in errors[:MAX_ERRORS]]
    if len(errors) > MAX_ERRORS:
        lines.append(f"- … and {len(errors) - MAX_ERRORS} more")
    return PARSE_ERRORS.format(what=noun(len(errors), "command"), errors="\n".join(lines))


def _answered(ctx: Context, command: Command) -> bool:
    """Has a run given this command its final reply?

    Only the final reply counts: a run that died after 👀 (or whose failure the
    router reported) left none, so a re-run finishes the command.  A quiet verb's
    success is its 🚀 (read only when no reply answered it).
    """
    mark = marker("reply", f"{ctx.delivery.key}-{command.verb.value}")
    if ctx.forge.find_comment(ctx.number, mark) is not None:
        return True
    if command.verb not in QUIET and command.verb is not Verb.REFINE:  # refine: its progress
        return False
    return ctx.api.reacted(int(ctx.delivery.comment["id"]), Reaction.ROCKET, ctx.forge.is_mine)


def run(ctx: Context, command: Command) -> None:
    spec, key = command.spec, f"{ctx.delivery.key}-{command.verb.value}"
    authors = _pr_author(ctx) if command.verb is Verb.ACCEPT else ()
    decision = authorize(spec, ctx.delivery.actor, ctx.cfg, ctx.api.permission, authors=authors)
    if not decision.allowed:
        _answer(ctx, command, key, decision.reason, Reaction.CONFUSED, REFUSED)
        return
    if spec.mutating and not _react(ctx, Reaction.EYES):
        ctx.summary.note(GONE.format(verb=command.verb.value))
        return
    try:
        message = HANDLERS[command.verb](ctx, command)
    except Refused as refusal:
        _answer(ctx, command, key, str(refusal), Reaction.CONFUSED, REFUSED)
        return
    except ForgeError:
        _ran(ctx, command, FAILED_OUTCOME)
        raise  # GitHub itself failed: the router replies once and fails the job
    except RfdError as err:
        ctx.summary.problem(err)
        report = ctx.failure_report()  # an earlier run's: what it did stays said
        done = steps_done(report.body if report else None, ctx.progress)
        retry = retry_text(done) if done else RETRY
        text = FAILED.format(verb=command.verb.value, error=fenced(str(err)), retry=retry)
        _answer(ctx, command, key, text, Reaction.CONFUSED, FAILED_OUTCOME)
        return
    if not message and stage_of(ctx.environ) is JobStage.CHECK:
        _ran(ctx, command, HANDED)  # the publish job reacts and replies
        return
    reaction = Reaction.ROCKET if spec.mutating else None
    # a reply replaces a failure report, and names ledger entries written by hand
    quiet = (
        command.verb in QUIET
        and ctx.failure_report() is None
        and not ctx.forged
        and not ctx.followed
    )
    if message and not quiet:
        _answer(ctx, command, key, message, reaction, DONE)
        return
    if reaction is not None:  # the reaction and what the command posted say it all
        _react(ctx, reaction)
    _ran(ctx, command, f"{DONE}: {message}" if message else DONE)
    ctx.settle_failure(FINISHED)


def _answer(
    ctx: Context, command: Command, key: str, text: str, reaction: Reaction | None, how: str
) -> None:
    """End ``command``: the reaction, the reply, and its line in the job summary."""
    if reaction is not None:
        _react(ctx, reaction)
    _ran(ctx, command, f"{how}: {text}")
    ctx.reply(text, key=key)


def _ran(ctx: Context, command: Command, outcome: str) -> None:
    login = ctx.delivery.actor.login
    ctx.summary.answered(f"`/rfd {command.verb.value}`", login, outcome)


def _react(ctx: Context, reaction: Reaction) -> bool:
    """React to the command's comment; False when it was deleted meanwhile (a reaction
    GitHub refuses is a warning in the job summary: :mod:`bot.github.run`)."""
    from bot.github.run import react

    return react(ctx, reaction)


def _pr_author(ctx: Context) -> tuple[str, ...]:
    if not ctx.delivery.on_pull_request:
        return ()
    return (str(ctx.delivery.payload["issue"]["user"]["login"]),)
