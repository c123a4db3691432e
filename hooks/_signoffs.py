"""Which sign-offs rfd-status counts: what GitHub's side of the repository can vouch for.

Where sign-offs are given on GitHub (the ``origin`` remote is on GitHub, or the hook runs
in GitHub Actions), ``consensus.json`` on a branch is a file anyone who can push edits.
The hook then counts the ledger the default branch has (at the merge base with
``origin/$GITHUB_BASE_REF``, else ``origin/HEAD``), changed only by the branch's commits
the bot can be shown to have made, as the bot itself decides (:mod:`bot.model.consensus`),
under the default branch's ``[consensus]`` rules (:func:`counted`).  Every other entry the
branch adds is *unverified*: it is left out and named with the commit that wrote it.
Elsewhere (no GitHub remote, a local-only team) the committed ledger is the record, as
the local commands write it.

The proof that the bot made a commit (:func:`load`): the bot names each commit it makes
in the leading markers of the comments it writes (``<!-- rfd-bot:commit:<sha> -->``,
:mod:`bot.github.bot_records`).  In GitHub Actions with a token (``GITHUB_TOKEN``) on a
pull request's run, the hook reads the pull request's comments once and keeps the
markers of those the bot's account (``[bot] login``) wrote, and the commits GitHub's
activity record says that account pushed to the branch (``GITHUB_HEAD_REF``): a deleted
status comment loses no proof here either.  Without a token, outside a pull request, or
when GitHub cannot be asked, nothing is proven: an entry only such a commit added is then
reported as unverified.  After a rebase, a branch commit that makes exactly the change of
one of the bot's commits the branch lost (fetched from origin by sha when the checkout lacks
it) counts for it (:func:`bot.model.consensus.in_place`); a lost commit nothing copies does
not count here.  Standard library only (no GitHub client): the hooks stay light.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from bot.model import consensus
from bot.model.consensus import Step, forged, in_place, trusted
from hooks import _git

if TYPE_CHECKING:
    from bot.config.load import ConsensusSection
    from hooks._files import Root

UNVERIFIED = (
    "{path}: {entry} (written by {where}, not by a commit the bot can be shown to have made)"
)
WHAT_TO_DO = (
    "sign-offs count when given on the pull request (`/rfd approve`, `/rfd concern`, "
    "`/rfd resolve`, `/rfd fcp`: the bot records them) or once merged into the default "
    "branch; in CI give the hook GITHUB_TOKEN so it can check the bot's commits"
)
NO_BASE = (
    "cannot tell which sign-offs in {path} are trusted: the default branch is not fetched "
    "(check out with `fetch-depth: 0`, or fetch origin/$GITHUB_BASE_REF)"
)
STAGED = "the staged change"
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")

Proofs = Callable[[], frozenset[str]]
"""The shas of the commits the bot's own comments name (asked of GitHub once, on need)."""


@dataclass(frozen=True)
class Counted:
    """The ledger that counts, and each entry left out (file, entry, why)."""

    ledger: consensus.Ledger
    unverified: tuple[str, ...] = ()
    problem: str = ""
    """Set when the hook cannot tell what to trust (the check fails, saying how to fix it)."""
    rules: ConsensusSection | None = None
    """The default branch's ``[consensus]`` (None: none there) when ``from_base``."""
    from_base: bool = False
    """The rules are the default branch's: a branch cannot lower what acceptance needs."""


def counted(
    root: Root,
    tip: str,
    path: str,
    text: str | None,
    proofs: Proofs,
    environ: Mapping[str, str] = os.environ,
    github: Callable[[], bool] | None = None,
) -> Counted:
    """The ledger at ``path`` (``text``, as the tree checked at commit ``tip`` has it) as far
    as it can be trusted; ``github`` answers :func:`hooks._git.on_github` when the caller
    asked it already."""
    ledger = consensus.Ledger() if text is None else consensus.loads(text, path)
    if not (github or partial(_git.on_github, root, environ))():
        return Counted(ledger)
    base = _base(root, tip, environ)
    if base is None:
        if environ.get("GITHUB_ACTIONS") == "true":
            return Counted(consensus.Ledger(), problem=NO_BASE.format(path=path))
        return Counted(ledger)
    rules = _rules_at(root, base)
    steps, shas = _steps(root, base, tip, path, proofs)
    tip_ledger = _at(root, tip, path)
    if ledger != tip_ledger:  # the staged (or working) file differs from the commit
        steps.append(Step(tip_ledger, ledger, proven=False))
        shas.append(STAGED)
    kept = trusted(_at(root, base, path), steps)
    wrong = forged(ledger, kept)
    unverified = tuple(
        UNVERIFIED.format(path=path, entry=entry, where=_writer(entry, steps, shas))
        for entry in wrong
    )
    return Counted(kept, unverified, rules=rules, from_base=True)


def _base(root: Root, tip: str, environ: Mapping[str, str]) -> str | None:
    """The merge base of ``tip`` with the default branch as fetched, None when not fetched."""
    for ref in _git.base_refs(environ):
        try:
            found = _git.run(
                root, "rev-parse", "-q", "--verify", "--end-of-options", f"{ref}^{{commit}}"
            )
        except _git.GitFailed:
            continue
        try:
            merged = _git.run(root, "merge-base", "--end-of-options", tip, found.decode().strip())
        except _git.GitFailed:
            return None
        return merged.decode().strip()
    return None


def _rules_at(root: Root, base: str) -> ConsensusSection | None:
    """The ``[consensus]`` table of the configuration the default branch has."""
    from hooks._common import CONFIG_PATH

    try:
        text = _git.run(root, "show", "--end-of-options", f"{base}:{CONFIG_PATH}").decode()
    except _git.GitFailed:
        return None
    from bot.config.load import parse

    section = parse(text, f"{CONFIG_PATH} (on the default branch)").consensus
    return section if section.enabled else None


def _steps(
    root: Root, base: str, tip: str, path: str, proofs: Proofs
) -> tuple[list[Step], list[str]]:
    """The commits of ``base..tip`` that changed ``path``, oldest first, and their shas."""
    out = _git.run(
        root,
        "rev-list",
        "--reverse",
        "--topo-order",
        "--no-merges",
        "--end-of-options",
        tip,
        f"^{base}",
        "--",
        path,
    )
    shas = out.decode().split()
    mine = proofs() if shas else frozenset()
    placed = [(sha, sha in mine) for sha in shas]
    if not all(proven for _, proven in placed):  # a hand's commit, or a rebase's copy
        olds = _lost(root, base, tip, path, mine)
        placed = in_place(placed, olds, frozenset(), partial(_change, root))
    steps = [Step(_at(root, f"{sha}^", path), _at(root, sha, path), ok) for sha, ok in placed]
    return steps, [sha for sha, _ in placed]


def _lost(root: Root, base: str, tip: str, path: str, mine: frozenset[str]) -> list[str]:
    """The bot's commits (``mine``) that changed ``path`` and that neither ``tip`` nor the
    default branch has any more (a rebase or a force-push replaced them), oldest first;
    fetched from origin by sha when the checkout lacks them (left out when that fails)."""
    shas = sorted(s for s in mine if _SHA.fullmatch(s))
    if not shas:
        return []
    have = set(_git.run(root, "rev-list", "--no-walk", "--ignore-missing", *shas).decode().split())
    missing = [s for s in shas if s not in have]
    if missing:
        with suppress(_git.GitFailed):  # not given out: their copies stay unverified
            _git.run(root, "fetch", "--quiet", "--no-tags", "--end-of-options", "origin", *missing)
        have = set(
            _git.run(root, "rev-list", "--no-walk", "--ignore-missing", *shas).decode().split()
        )
    found = [s for s in shas if s in have]
    if not found:
        return []
    out = _git.run(
        root,
        "rev-list",
        "--reverse",
        "--topo-order",
        "--no-merges",
        *found,
        "--not",
        base,
        tip,
        "--",
        path,
    )
    return [s for s in out.decode().split() if s in have]


def _change(root: Root, sha: str) -> str:
    """Commit ``sha``'s change: each file from its blob to its blob (``diff-tree --raw``)."""
    out = _git.run(root, "diff-tree", "-r", "--no-commit-id", "--raw", "--no-abbrev", sha)
    return out.decode()


def _at(root: Root, rev: str, path: str) -> consensus.Ledger:
    try:
        text = _git.run(root, "show", "--end-of-options", f"{rev}:{path}").decode("utf-8")
    except _git.GitFailed:
        return consensus.Ledger()
    return consensus.loads(text, path) if text.strip() else consensus.Ledger()


def _writer(entry: str, steps: list[Step], shas: list[str]) -> str:
    """The last unproven change that wrote ``entry`` (a commit, or the staged file)."""
    unproven = [(s, sha) for s, sha in zip(steps, shas, strict=True) if not s.proven]
    wrote = [sha for s, sha in unproven if entry in forged(s.after, s.before)]
    last = (wrote or [sha for _, sha in unproven] or [STAGED])[-1]
    return STAGED if last == STAGED else f"commit {last[:12]}"


COMMIT_MARK = "<!-- rfd-bot:commit:"
PAGE = 100


def load(login: str, environ: Mapping[str, str] = os.environ) -> frozenset[str]:
    """The shas named by ``login``'s comments on the run's pull request (empty offline)."""
    token, repo = environ.get("GITHUB_TOKEN", ""), environ.get("GITHUB_REPOSITORY", "")
    number = _pull_number(environ.get("GITHUB_EVENT_PATH", ""))
    if not token or not repo or number is None:
        return frozenset()
    api = environ.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    found: set[str] = set()
    for page in range(1, 101):
        url = f"{api}/repos/{repo}/issues/{number}/comments?per_page={PAGE}&page={page}"
        comments = _get(url, token)
        found.update(_named(comments, login))
        if len(comments) < PAGE:
            break
    branch = environ.get("GITHUB_HEAD_REF", "")
    if branch:  # the bot's pushes, as GitHub recorded them: a deleted comment loses no proof
        query = urlencode(
            {
                "ref": f"refs/heads/{branch}",
                "actor": login,
                "activity_type": "push",
                "per_page": PAGE,
            }
        )
        found.update(_pushed(_get(f"{api}/repos/{repo}/activity?{query}", token), login))
    return frozenset(found)


def _pushed(activity: list[Any], login: str) -> set[str]:
    return {
        str(a.get("after", ""))
        for a in activity
        if isinstance(a, dict)
        and str((a.get("actor") or {}).get("login", "")).lower() == login.lower()
        and a.get("activity_type") == "push"
    }


def _pull_number(event_path: str) -> int | None:
    if not event_path:
        return None
    try:
        with open(event_path, encoding="utf-8") as file:
            event = json.load(file)
    except (OSError, ValueError):
        return None
    pull = event.get("pull_request") if isinstance(event, dict) else None
    number = pull.get("number") if isinstance(pull, dict) else None
    return number if isinstance(number, int) else None


def _get(url: str, token: str) -> list[Any]:
    from urllib.request import Request, urlopen

    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "rfd-status",
    }
    try:
        with urlopen(Request(url, headers=headers), timeout=30) as answer:
            data = json.load(answer)
    except (OSError, ValueError):
        return []  # not asked: nothing proven, the entries are reported as unverified
    return data if isinstance(data, list) else []


def _named(comments: list[Any], login: str) -> set[str]:
    from bot.forge.base import leading_markers

    shas: set[str] = set()
    for comment in comments:
        if not isinstance(comment, dict):
            continue
        author = str((comment.get("user") or {}).get("login", ""))
        if author.lower() != login.lower():
            continue
        for mark in leading_markers(str(comment.get("body") or "")):
            if mark.startswith(COMMIT_MARK):
                shas.add(mark[len(COMMIT_MARK) : -len(" -->")])
    return shas
