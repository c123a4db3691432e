"""One webhook delivery as GitHub Actions hands it over: event name and JSON payload.

Everything the handlers read from the payload goes through these accessors, so
the shapes they rely on are written down once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.core.errors import ConfigError
from bot.forge.base import PullRequest
from bot.github.auth import Actor


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
