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

Authors rebase their PR onto a newer default branch, squash it and force-push: the bot's
commits then come back under new shas, written by the author's git, that no comment names.
The commits the bot's comments name (or its account pushed) stay its record, and GitHub keeps
a commit a force-push took off the branch: those the checkout lacks are fetched by sha
(:func:`_elsewhere`), and they stand in for the branch's commits
(:func:`bot.model.consensus.in_place`):

- a branch commit that makes *exactly* the change one of them made (the same files, each from
  the same blob to the same blob: what ``git rebase`` makes of a commit whose files did not
  change underneath) is that commit: it counts in its place, and the comment it follows is
  the one the bot's own commit message names, never the copy's (the author wrote that one);
- a commit of the bot that no branch commit copies (squashed, dropped, or edited during the
  rebase) still counts as the bot made it, when this PR's comments name it: rewriting the
  branch neither adds a sign-off nor takes one away.  What the branch's ledger holds that
  differs (an entry edited during the rebase, a concern whose commit was dropped) is named
  as written by hand.

A commit of the bot origin no longer gives out counts for nothing, as any commit the bot
cannot show it made.  A re-run of an event whose commit was rebased since finds the copy the
same way (:func:`delivery_commit`) and does not do the work again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from bot.core.github_markdown import inline
from bot.forge.base import leading_markers
from bot.github.checkout import Checkout, _repo, _run, git_env
from bot.github.run import COMMIT_MARK, Context
from bot.model import consensus
from bot.model.consensus import Step, forged, in_place, trusted

if TYPE_CHECKING:
    import git

FOLLOWED = "On RFD {rfd}: {notes}."
FORGED = (
    "Not counted on RFD {rfd}: {entries} — written into `consensus.json` on the branch, not "
    "through GitHub (only `/rfd approve`, `/rfd concern`, `/rfd resolve` and `/rfd fcp`, "
    "recorded by the bot, count)."
)
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


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
    says the bot's account pushed it, or when it is the exact copy (a rebase) of a commit of
    the bot, named so, whose own message names this event."""
    from bot.github.checkout import delivery_commit as by_trailer

    sha = by_trailer(checkout, ctx.delivery.key)
    if sha is None:
        return None
    named = proven(ctx, number)
    pushed = ctx.api.pushed(checkout.branch, ctx.forge.login) if sha not in named else named
    if sha in named or sha in pushed:
        ctx.commits.append(sha)  # the reply of this run names it again
        return sha
    base = _run(_repo(ctx.root), {}, "rev-parse", "--verify", "--end-of-options", "HEAD")
    olds = _elsewhere(checkout, named | pushed, base, ctx.environ)
    trailer = f"Rfd-Bot-Event: {ctx.delivery.key}"
    change = _change(checkout.root, sha)
    events = (o for o in olds if trailer in _message(checkout, o))
    copied = next((o for o in events if _change(checkout.root, o) == change), None)
    if copied is None:
        return None
    ctx.commits.append(copied)  # the bot's own commit: never the copy, whose message is anyone's
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
    """The commits that changed ``rel`` since the default branch, oldest first, as steps, and
    the sha of each: the branch's, with the bot's commits the branch no longer has in place
    (:func:`bot.model.consensus.in_place`)."""
    if not checkout.writable:  # a fork's files over the default branch: no bot commits
        return [], []
    base = _run(_repo(ctx.root), {}, "rev-parse", "--verify", "--end-of-options", "HEAD")
    shas = _changes(checkout, base, rel)
    named = proven(ctx, number) if shas else frozenset()
    mine = named
    if any(sha not in named for sha in shas):  # a status comment deleted, a hand's, a rebase
        mine |= ctx.api.pushed(checkout.branch, ctx.forge.login)
    olds = _elsewhere(checkout, mine, base, ctx.environ, rel)
    branch = [(sha, sha in mine) for sha in shas]
    placed = in_place(branch, olds, named, lambda sha: _change(checkout.root, sha))
    return [
        Step(_ledger(checkout, f"{sha}^", rel), _ledger(checkout, sha, rel), counts)
        for sha, counts in placed
    ], [sha for sha, _ in placed]


def _changes(checkout: Checkout, base: str, rel: str) -> list[str]:
    """The branch's commits since ``base`` that changed ``rel``, oldest first (ancestors
    before their descendants)."""
    return _run(
        _repo(checkout.root),
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


def _elsewhere(
    checkout: Checkout, named: frozenset[str], base: str, environ: Mapping[str, str], *rel: str
) -> list[str]:
    """The commits of ``named`` (the bot's) that neither the branch nor the default branch has
    (a rebase or a force-push replaced them) and that changed ``rel`` (when given), oldest
    first; fetched by sha when the checkout lacks them, left out when origin has them no more."""
    shas = sorted(s for s in named if _SHA.fullmatch(s))  # never an option, never a range
    if not shas:
        return []
    repo = _repo(checkout.root)
    have = set(_run(repo, {}, "rev-list", "--no-walk", "--ignore-missing", *shas).split())
    missing = [s for s in shas if s not in have]
    if missing:
        have |= _fetched(checkout, missing, environ)
    found = [s for s in shas if s in have]
    if not found:
        return []
    paths = ["--", *rel] if rel else []
    listed = _run(
        repo,
        {},
        "rev-list",
        "--reverse",
        "--topo-order",
        "--no-merges",
        *found,
        "--not",
        base,
        "HEAD",
        *paths,
    ).split()
    return [s for s in listed if s in named]


def _fetched(checkout: Checkout, shas: list[str], environ: Mapping[str, str]) -> set[str]:
    """Those of ``shas`` origin still gives out (asked all at once, then, when one is gone,
    which fails the whole fetch, one by one)."""
    repo, env = _repo(checkout.root), git_env(environ)
    if not _fetch(repo, env, shas) and shas[1:]:
        for sha in shas:
            _fetch(repo, env, [sha])
    return set(_run(repo, {}, "rev-list", "--no-walk", "--ignore-missing", *shas).split())


def _fetch(repo: git.Repo, env: Mapping[str, str], shas: list[str]) -> bool:
    from bot.core.errors import ForgeError

    try:
        _run(repo, env, "fetch", "--quiet", "--no-tags", "--end-of-options", "origin", *shas)
    except ForgeError:
        return False
    return True


@lru_cache(maxsize=512)
def _change(root: Path, sha: str) -> str:
    """Commit ``sha``'s change as ``git diff-tree --raw`` lists it (commits never change)."""
    return _run(
        _repo(root),
        {},
        "diff-tree",
        "-r",
        "--no-commit-id",
        "--raw",
        "--no-abbrev",
        "--end-of-options",
        sha,
    )


def _message(checkout: Checkout, sha: str) -> list[str]:
    """The lines of commit ``sha``'s message."""
    text = _run(_repo(checkout.root), {}, "log", "-1", "--format=%B", "--end-of-options", sha)
    return [line.strip() for line in text.splitlines()]


def _ledger(checkout: Checkout, rev: str, rel: str) -> consensus.Ledger:
    from bot.core.errors import ForgeError

    try:
        text = _run(_repo(checkout.root), {}, "show", "--end-of-options", f"{rev}:{rel}")
    except ForgeError:
        return consensus.Ledger()
    return consensus.loads(text + "\n", rel)
