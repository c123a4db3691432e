"""The one router: which handler (one module per concern) a delivery goes to.

Unknown events and actions are ignored with one log line, before anything is
read or any request made.  Errors are translated here, once: a user error
becomes a reply on the PR or issue saying what to do, a configuration error is
posted where it was triggered, and the exit code tells Actions what happened.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.config.load import Config, Resolved, load
from bot.core.errors import ConfigError, ForgeError, RfdError
from bot.core.github_markdown import fenced
from bot.forge.base import carries, marker
from bot.forge.github import GitHubForge, RepoApi
from bot.github.failure import FAILED, retry_text, steps_done
from bot.github.run import Context, Delivery, JobStage, Summary, stage_of, with_run_link
from bot.llm.select import warm_up

log = logging.getLogger(__name__)

Handler = Callable[[Context], None]


@dataclass(frozen=True)
class Route:
    kinds: tuple[str, ...]
    handler: Handler
    """Imports its module only when a delivery goes there."""
    label: str | None = None
    """For ``labeled`` routes: the attribute of ``cfg.labels`` that must match."""
    step: str | None = None
    """The step whose model the handler calls: its SDK is imported while GitHub is read."""


# The handlers, each imported when a delivery goes to it (a run imports only its own).


def _pull_request_changed(ctx: Context) -> None:
    from bot.github.status_comment import on_pull_request

    on_pull_request(ctx)


def _pull_request_closed(ctx: Context) -> None:
    from bot.github.closed_pr import on_closed

    on_closed(ctx)


def _review_label(ctx: Context) -> None:
    from bot.github.review import on_label

    on_label(ctx)


def _accept_label(ctx: Context) -> None:
    from bot.github.accept import on_label

    on_label(ctx)


def _comment(ctx: Context) -> None:
    from bot.github.slash import on_comment

    on_comment(ctx)


def _push(ctx: Context) -> None:
    from bot.github.push import on_push

    on_push(ctx)


def _dispatch(ctx: Context) -> None:
    from bot.github.reconcile import on_dispatch

    on_dispatch(ctx)


def _publish(ctx: Context) -> None:
    """The publish job of ``/rfd implement`` (:mod:`bot.github.run`)."""
    from bot.github.implement.publish import on_publish

    on_publish(ctx)


PR_CHANGES = ("pull_request.opened", "pull_request.synchronize", "pull_request.reopened")
ROUTES = (
    Route(PR_CHANGES, _pull_request_changed),
    Route(("pull_request.closed",), _pull_request_closed),
    Route(("pull_request.labeled",), _review_label, label="review", step="review"),
    Route(("pull_request.labeled",), _accept_label, label="accept", step="accept"),
    Route(("issue_comment.created",), _comment),
    Route(("push",), _push),
    Route(("workflow_dispatch", "schedule"), _dispatch),
)

CONFIG_BROKEN = (
    "### rfd-bot cannot read its configuration\n\n{error}\n\n"
    "Fix `.github/rfd.toml` on the default branch, then re-run this job."
)
CONFIG_FIXED = "✅ rfd-bot reads its configuration again: the error reported here is fixed."


def candidates(delivery: Delivery) -> list[Route]:
    return [route for route in ROUTES if delivery.kind in route.kinds]


def choose(routes: list[Route], delivery: Delivery, cfg: Config) -> Route | None:
    for route in routes:
        if route.label is None or getattr(cfg.labels, route.label) == delivery.label:
            return route
    return None


def main(
    environ: Mapping[str, str],
    *,
    root: Path | None = None,
    clock: Callable[[], float] = time.time,
) -> int:
    """Handle the delivery described by ``environ``; the process exit code."""
    delivery = Delivery.from_env(environ)
    routes = candidates(delivery)
    if routes and stage_of(environ) is JobStage.PUBLISH:  # the work job's phase
        routes = [Route((delivery.kind,), _publish)]
    if not routes:
        log.info("rfd-bot: ignoring %s (nothing to do for it)", delivery.kind)
        return 0
    root = root or Path(environ.get("GITHUB_WORKSPACE") or ".")
    summary = Summary(f"rfd-bot · {delivery.kind}")
    try:
        return _run(delivery, routes, root, environ, summary, clock)
    finally:
        summary.flush(environ)


def _run(
    delivery: Delivery,
    routes: list[Route],
    root: Path,
    environ: Mapping[str, str],
    summary: Summary,
    clock: Callable[[], float],
) -> int:
    try:
        resolved = _resolve(root)
    except ConfigError as err:
        return _config_broken(delivery, err, environ, summary)
    cfg = resolved.config
    route = choose(routes, delivery, cfg)
    if route is None:
        log.info("rfd-bot: ignoring %s %r (not one of our labels)", delivery.kind, delivery.label)
        return 0
    forge = GitHubForge.from_env(
        environ,
        seconds_between_writes=cfg.bot.seconds_between_writes,
        write_burst=cfg.bot.write_burst,
        branch=delivery.default_branch,
        login=cfg.bot.login,
    )
    api = RepoApi(forge.repo, forge.pacer)
    if route.step is not None:  # after PyGithub's import: the two do not contend
        warm_up(cfg, environ, route.step)
    ctx = Context(delivery, cfg, forge, api, root, environ, summary, clock, resolved)
    try:
        route.handler(ctx)
        if stage_of(environ).posts:
            _clear_config_error(ctx)
    except RfdError as err:
        _label_ran(ctx, f"❌ failed: {err}")
        return _failed(ctx, err)
    _label_ran(ctx, "✅ done")
    return 0


def _label_ran(ctx: Context, outcome: str) -> None:
    """A label event's line in the job summary (commands write their own)."""
    if ctx.delivery.label and not ctx.summary.ran:
        label = ctx.delivery.label.replace("`", "")
        ctx.summary.answered(f"label `{label}`", ctx.delivery.actor.login, outcome)


def _clear_config_error(ctx: Context) -> None:
    """The configuration read fine: a config-error comment on this PR or issue says it is
    fixed (checked only when this run listed the comments anyway: no extra request)."""
    number = ctx.delivery.number
    if number is None:
        return
    known = ctx.forge.read_comments(number) or ()
    if any(carries(c.body, marker("config-error", number)) for c in known):
        ctx.upsert("config-error", number, CONFIG_FIXED)


def _resolve(root: Path) -> Resolved:
    """The default branch's configuration (repo file, environment), plugin sections checked
    (no plugin code is imported for a repository that configures none)."""
    resolved = load(root)
    if resolved.config.plugins.enabled or resolved.config.plugins.options:
        from bot.plugins import check_plugins

        check_plugins(resolved, root=root)
    return resolved


def _config_broken(
    delivery: Delivery, err: ConfigError, environ: Mapping[str, str], summary: Summary
) -> int:
    summary.problem(err)
    if delivery.number is not None and stage_of(environ).posts:
        forge = GitHubForge.from_env(environ)
        api = RepoApi(forge.repo, forge.pacer)
        ctx = Context(delivery, Config(), forge, api, Path("."), environ, summary)
        body = with_run_link(CONFIG_BROKEN.format(error=fenced(str(err))), environ)
        ctx.upsert("config-error", delivery.number, body)
    return 1


def _failed(ctx: Context, err: RfdError) -> int:
    ctx.summary.problem(err)
    if ctx.delivery.number is not None and stage_of(ctx.environ).posts:
        try:
            earlier = ctx.forge.find_comment(ctx.number, marker("reply", ctx.failure_key))
            done = steps_done(earlier.body if earlier else None, ctx.progress)
            body = FAILED.format(error=fenced(str(err)), retry=retry_text(done))
            ctx.reply(body, key=ctx.failure_key)
        except ForgeError as again:
            ctx.summary.problem(again)
            return 1
    return 1 if isinstance(err, ForgeError) else 0
