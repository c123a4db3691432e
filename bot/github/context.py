"""What every handler gets: the delivery, the configuration and the edges to GitHub."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from bot.config.load import Config, Resolved
from bot.core.errors import ForgeGone
from bot.core.redact import redact
from bot.forge.base import Comment
from bot.forge.comments import MARKER_PREFIX, leading_markers, marker, upsert_comment, with_marker
from bot.forge.github import GitHubForge, RepoApi
from bot.github.delivery import Delivery
from bot.github.run_link import with_run_link
from bot.github.summary import Summary

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
