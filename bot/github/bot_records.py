"""What the bot can prove it wrote on a pull request, and the ledger that therefore counts.

A commit message is text anyone who can push may write (an ``Rfd-Bot-Event`` trailer
included), and so is a ledger on the PR's branch.  What only the bot writes is its
own comments: every reply of a run that committed, and the PR's status comment that the
run refreshes (the only answer of a quiet sign-off besides its 🚀), carry in their leading
markers ``<!-- rfd-bot:commit:<sha> -->`` for each commit, kept across edits
(:meth:`Context.reply`, :meth:`Context.upsert` with ``proofs``).  A commit
is the bot's when one of the bot's comments on the PR names it so, or when GitHub's record
of the repository's activity says the bot's account pushed the branch to it (asked only
when a commit that changed a ledger is named by none of its comments — its status comment
was deleted, or the commit is someone else's): deleting a comment loses no proof.  "An
earlier run already did this" and the sign-offs that count are decided from those
commits only.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bot.core.github_markdown import inline
from bot.forge.base import leading_markers
from bot.github.checkout import Checkout, _repo, _run
from bot.github.run import COMMIT_MARK, Context
from bot.model import consensus
from bot.model.consensus import Step, forged, trusted

FOLLOWED = "On RFD {rfd}: {notes}."
FORGED = (
    "Not counted on RFD {rfd}: {entries} — written into `consensus.json` on the branch, not "
    "through GitHub (only `/rfd approve`, `/rfd concern`, `/rfd resolve` and `/rfd fcp`, "
    "recorded by the bot, count)."
)


def forged_line(rid: str, found: Iterable[str]) -> str:
    """What RFD ``rid``'s ledger on the branch holds that was written by hand (logins from
    the file made inert text)."""
    return FORGED.format(rfd=rid, entries=inline(", ".join(found)))


def followed_line(rid: str, notes: Iterable[str]) -> str:
    """What RFD ``rid``'s sign-off comments, edited or deleted since, now count for."""
    return FOLLOWED.format(rfd=rid, notes=inline("; ".join(notes)))


def proven(ctx: Context, number: int) -> frozenset[str]:
    """The shas of the commits the bot's own comments on ``number`` say it made."""
    marks = (m for c in ctx.forge.comments(number) for m in leading_markers(c.body))
    return frozenset(m[len(COMMIT_MARK) : -len(" -->")] for m in marks if m.startswith(COMMIT_MARK))


def delivery_commit(ctx: Context, checkout: Checkout, number: int) -> str | None:
    """The bot's commit of this event on the branch, when an earlier run made one: found by
    its trailer, counted only when the bot's own comments name it or GitHub's activity record
    says the bot's account pushed it."""
    from bot.github.checkout import delivery_commit as by_trailer

    sha = by_trailer(checkout, ctx.delivery.key)
    if sha is None:
        return None
    if sha not in proven(ctx, number) and sha not in ctx.api.pushed(
        checkout.branch, ctx.forge.login
    ):
        return None
    ctx.commits.append(sha)  # the reply of this run names it again
    return sha


def trust_ledgers(ctx: Context, checkout: Checkout, number: int) -> dict[str, tuple[str, ...]]:
    """Rewrite each ledger of the checkout to what counts (:mod:`bot.model.consensus`),
    its comments' edits and deletions followed (:mod:`bot.github.followed`);
    ``{rfd id: its forged entries}`` for the ledgers that held any."""
    from bot.github.followed import STAYS, follow

    state = checkout.root / ctx.cfg.state_root
    found: dict[str, tuple[str, ...]] = {}
    for path in sorted(state.glob(f"*/{consensus.FILE}")):
        rel = path.relative_to(checkout.root).as_posix()
        head = consensus.loads(path.read_text(encoding="utf-8"), rel)
        steps, shas = _steps(ctx, checkout, rel, number)
        steps, notes = follow(lambda: ctx.forge.all_comments(number), checkout, steps, shas)
        counted = trusted(_at_default(ctx.root, rel), steps)
        changed = forged(head, counted)
        wrong = tuple(w for w in changed if w not in notes)
        notes = {k: v for k, v in notes.items() if k in changed or k.endswith(STAYS)}
        if changed:
            path.write_text(consensus.dumps(counted), encoding="utf-8")
        if wrong:
            found[path.parent.name] = wrong
        if notes:
            ctx.followed[path.parent.name] = tuple(notes.values())
    ctx.forged.update(found)
    return found


def _at_default(root: Path, rel: str) -> consensus.Ledger:
    file = root / rel
    if not file.is_file():
        return consensus.Ledger()
    return consensus.loads(file.read_text(encoding="utf-8"), rel)


def _steps(ctx: Context, checkout: Checkout, rel: str, number: int) -> tuple[list[Step], list[str]]:
    """The branch's commits that changed ``rel`` since the default branch, oldest first, and
    their shas."""
    if not checkout.writable:  # a fork's files over the default branch: no bot commits
        return [], []
    repo = _repo(checkout.root)
    base = _run(_repo(ctx.root), {}, "rev-parse", "--verify", "--end-of-options", "HEAD")
    shas = _run(
        repo,
        {},
        "rev-list",
        "--reverse",
        "--topo-order",
        "--no-merges",
        "HEAD",
        "--not",
        base,
        "--",
        rel,
    ).split()
    mine = proven(ctx, number) if shas else frozenset()
    if any(sha not in mine for sha in shas):  # a status comment deleted, or a hand's commit
        mine |= ctx.api.pushed(checkout.branch, ctx.forge.login)
    return [
        Step(_ledger(checkout, f"{sha}^", rel), _ledger(checkout, sha, rel), sha in mine)
        for sha in shas
    ], shas


def _ledger(checkout: Checkout, rev: str, rel: str) -> consensus.Ledger:
    from bot.core.errors import ForgeError

    try:
        text = _run(_repo(checkout.root), {}, "show", "--end-of-options", f"{rev}:{rel}")
    except ForgeError:
        return consensus.Ledger()
    return consensus.loads(text + "\n", rel)
