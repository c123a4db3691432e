"""Marking an RFD Implemented from GitHub: ``/rfd done`` away from its pull request, and
the last phase's pull request that does it too (``finish_in_last_phase``).

``/rfd done`` on the tracking issue (:func:`finish_on_issue`): the bot opens (or finds)
the one-line pull request that marks the RFD Implemented, the way Ember's process opens
its advancement PRs: branch ``rfd/045-implemented`` from the default branch, the status
line changed, a body that closes the tracking issue when merged.  On any other pull
request — a phase's, or the RFD's once merged or closed — the answer links the tracking
issue, where it works (:mod:`bot.github.places`).

With ``[implement] finish_in_last_phase`` the last phase's pull request also marks the
RFD Implemented (:func:`finish_with_phase`).  After the phase's commit is pushed, a
second bot commit on the phase's branch changes the RFD's status line — only when every
phase is then recorded (the same gate as ``/rfd done``), so an earlier phase, or one
with failed items, never carries it.  The pull request's body says so and closes the
tracking issue on merge; the phase's comment on the tracking issue, and ``/rfd status``
and ``/rfd done`` there while it is open, say to review and merge it (no ``/rfd done``
needed).  Both the one-job run and the publish job of the split run call it, each with
the commit it pushed.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.errors import GateError
from bot.core.github_markdown import inline
from bot.forge.base import Permission
from bot.github.checkout import close, open_branch, pushed_branch
from bot.github.issue_status import MERGE_FINISHES, pull_to_merge
from bot.github.ops import Refused, bot_commit, open_workspace
from bot.github.places import stage_words, words_on_default_branch
from bot.github.run import Context
from bot.github.targets import issue_rfd
from bot.lifecycle.tracking import PULL_LINK
from bot.model import phase_ids
from bot.model.status import Status

CLOSES = (
    "\n\nIt also marks RFD {rid} {implemented} (`[implement] finish_in_last_phase`): "
    "merging it closes #{issue}, the tracking issue."
)


@dataclass(frozen=True)
class Finished:
    """The last phase's branch also marks RFD ``rid`` Implemented; ``issue``: its tracking
    issue, which the pull request's merge closes (None: it has none)."""

    rid: str
    issue: int | None
    word: str = ""
    """The status word the RFD then has (``committed``): texts say the RFD's words."""

    def pr_body(self) -> str:
        """What the pull request's body adds."""
        if not self.issue:
            return ""
        return CLOSES.format(rid=self.rid, issue=self.issue, **stage_words(self.word))

    def next_step(self, url: str, label: str) -> str:
        """The phase's comment on the tracking issue ends in it: merge ``url``, and done."""
        pr = PULL_LINK.format(number=url.rsplit("/", 1)[-1], url=url)
        words = stage_words(self.word)
        return MERGE_FINISHES.format(pr=pr, label=label, rid=self.rid, **words)


def finish_with_phase(ctx: Context, rid: str, branch: str, phase_commit: str) -> Finished | None:
    """Commit the Implemented status on ``branch`` after ``phase_commit`` and push it, when
    the option is on and every phase is recorded there (None when nothing was done)."""
    if not ctx.cfg.implement.finish_in_last_phase:
        return None
    from bot.lifecycle.lifecycle import promote

    checkout = open_branch(ctx.root, branch, ctx.environ, at=phase_commit)
    try:
        ws = open_workspace(ctx, checkout.root)
        try:
            outcome = promote(ws, rid, Status.IMPLEMENTED)
        except GateError:
            return None  # phases remain: not the last one
        noted = f"RFD {rid} marked Implemented on `{{branch}}`"
        sha = bot_commit(ctx, checkout, outcome.changed, rid, "implemented", noted=noted)
        doc = ws.document(rid)
    finally:
        close(ctx.root, checkout)
    return None if sha is None else Finished(rid, doc.tracking_issue, doc.status_word)


BRANCH = "rfd/{rid}-implemented"
TITLE = "RFD {rid}: {implemented}"
PR_BODY = (
    "<!-- rfd-bot:implemented:{rid} -->\n"
    "Every required phase of RFD {rid} is done: this pull request changes its status line to "
    "{implemented}.\n\nCloses #{issue} (the tracking issue) when merged. Checks do not start by "
    "themselves on pull requests the bot opens: push a commit or re-run them."
)
OPENED = (
    "Opened {url}: it marks RFD {rid} {implemented}. **Next step:** {who} merges it; the merge "
    "closes this issue."
)
REOPENED = (
    "Opened {url} from branch `{branch}`, which an earlier run pushed before it could open the "
    "pull request. **Next step:** {who} merges it; the merge closes this issue."
)
EXISTS = (
    "RFD {rid} already has its pull request to {implemented}: {url}. **Next step:** {who} merges "
    "it; the merge closes this issue."
)
MERGERS = "{names} (write access or more)"
ONE_OF = "one of {names}"
ANYONE = "someone with write access"
"""Who merges, when GitHub lists nobody with write access to this token (or fails to)."""
NOT_ACCEPTED = (
    "RFD {rid} is {status} on `{branch}`: only an RFD that is {accepted} becomes {implemented}."
)
"""Each status in the RFD's own words (``only an RFD that is published becomes committed``)."""
NOT_YET = "Not yet: {why}. {next}"
NEXT_PHASES = (
    "**Next step:** comment `/rfd implement` here to run the next phase; `/rfd done` once every "
    "phase is merged."
)


def finish_on_issue(ctx: Context) -> str:
    """Open (or find) the pull request that marks the tracking issue's RFD Implemented."""
    rid = issue_rfd(ctx)
    branch = BRANCH.format(rid=rid)
    words = words_on_default_branch(ctx, rid)
    found = ctx.api.find_pull(branch)
    if found is not None:
        return EXISTS.format(rid=rid, url=found[1], who=who_merges(ctx), **words)
    if pushed_branch(ctx.root, branch, ctx.environ) is not None:
        url = _open_pull(ctx, rid, branch, words)
        return REOPENED.format(url=url, branch=branch, who=who_merges(ctx))
    _promote_on(ctx, rid, branch, words)
    url = _open_pull(ctx, rid, branch, words)
    return OPENED.format(url=url, rid=rid, who=who_merges(ctx), **words)


def who_merges(ctx: Context) -> str:
    """Who may merge the pull request to Implemented, named from the repository's
    collaborators with write access or more (without mentioning them); described instead
    when GitHub lists nobody, or the listing fails (a warning in the job summary: the pull
    request is opened all the same)."""
    from bot.github.status_comment import collaborators, named

    people = collaborators(ctx, Permission.WRITE)
    logins = people.allowed if people else ()
    if not logins:
        return ANYONE
    names = named(logins)
    return MERGERS.format(names=ONE_OF.format(names=names) if len(logins) > 1 else names)


def _promote_on(ctx: Context, rid: str, branch: str, words: dict[str, str]) -> None:
    """Commit the Implemented status on a new ``branch`` of the default branch and push it
    (``words``: the stages in the RFD's words, for the refusal)."""
    from bot.lifecycle.lifecycle import promote

    default = ctx.delivery.default_branch
    status = open_workspace(ctx, ctx.root).document(rid).status
    if status is not Status.ACCEPTED:
        said = words[status.name.lower()]
        raise Refused(NOT_ACCEPTED.format(rid=rid, status=said, branch=default, **words))
    checkout = open_branch(ctx.root, branch, ctx.environ)
    try:
        try:
            outcome = promote(open_workspace(ctx, checkout.root), rid, Status.IMPLEMENTED)
        except GateError as gate:
            why = inline(gate.message).rstrip(".")
            raise Refused(NOT_YET.format(why=why, next=_next_phase(ctx, rid))) from None
        noted = f"RFD {rid} marked Implemented on `{{branch}}`; its pull request not yet opened"
        bot_commit(ctx, checkout, outcome.changed, rid, "implemented", noted=noted, marked=False)
    finally:
        close(ctx.root, checkout)


def _next_phase(ctx: Context, rid: str) -> str:
    """What comes before ``/rfd done``: merging the next phase's open pull request (which may
    finish the RFD itself), else implementing it."""
    ws = open_workspace(ctx, ctx.root)
    state = ws.store.read(rid)
    plan = state.plan or ()
    missing = phase_ids.missing(plan, state.completed)
    merge = pull_to_merge(ctx, rid, ws.find(rid).path, plan, missing) if missing else None
    return merge.step if merge else NEXT_PHASES


def _open_pull(ctx: Context, rid: str, branch: str, words: dict[str, str]) -> str:
    body = PR_BODY.format(rid=rid, issue=ctx.number, **words)
    title = TITLE.format(rid=rid, **words)
    _, url = ctx.api.create_pull(title, branch, ctx.delivery.default_branch, body)
    return url
