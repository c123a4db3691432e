"""Notify: post selected events to a webhook as Slack-compatible JSON (``{"text": ...}``).

Delivery never fails or delays the step: messages go to a background
:class:`~bot.plugins.outbox.Outbox` (a daemon thread with a bounded queue) and the
listener returns at once.  There 429 and 5xx answers and network errors are retried
(``Retry-After`` honoured, capped), each request has a timeout, and what still fails
is logged; at exit a short, bounded wait lets the last messages go out.  The webhook
URL is a secret: it comes from ``url_env`` (an environment variable) unless ``url`` is
set, and it is never logged.
"""

from __future__ import annotations

import email.utils
import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.core.outbox import Outbox
from bot.core.text import plural
from bot.events import Event
from bot.plugins.api import PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl

if TYPE_CHECKING:
    import httpx

NAME = "notify"
log = logging.getLogger(__name__)

MESSAGES: Mapping[str, str] = {
    "rfd.created": "RFD {rfd_id} created: {title}",
    "status.changed": "RFD {rfd_id}: {old} → {new}",
    "review.saved": "RFD {rfd_id}: {kind} review saved ({findings_counted})",
    "plan.extracted": "RFD {rfd_id}: plan extracted ({method})",
    "phase.completed": "RFD {rfd_id}: phase {label} done — {title} ({done}/{total})",
    "phase.failed": "RFD {rfd_id}: phase {name} failed — {title}: {reason}",
    "tracking.updated": "RFD {rfd_id}: tracking issue #{number} updated {url}",
    "turn.aborted": "RFD {rfd_id}: {step} stopped: {reason}",
}
"""The events notify can post, and how each reads."""

OPTIONS_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "minLength": 1, "description": "The webhook URL (a secret)."},
        "url_env": {"type": "string", "minLength": 1, "default": "RFD_WEBHOOK_URL"},
        "events": {
            "type": "array",
            "items": {"type": "string", "enum": list(MESSAGES)},
            "default": ["status.changed", "review.saved", "phase.completed", "phase.failed"],
        },
        "timeout_seconds": {"type": "number", "minimum": 0.1, "default": 10},
        "retries": {"type": "integer", "minimum": 0, "maximum": 5, "default": 2},
        "max_wait_seconds": {"type": "number", "minimum": 0, "default": 30},
    },
}


@hookimpl
def rfd_plugin_info() -> PluginInfo:
    return PluginInfo(
        name=NAME,
        description="Post selected events to a Slack-compatible webhook",
        events=tuple(MESSAGES),
        options_schema=OPTIONS_SCHEMA,
        inline=True,  # its listener only queues: the posting is its own outbox's
    )


@hookimpl
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    url = options.get("url") or context.environ.get(options["url_env"], "")
    if not url:
        log.warning("notify: no webhook URL (set %s or url); nothing is posted", options["url_env"])
        return
    webhook = Webhook(url, options, sleep=context.sleep)
    outbox: Outbox[tuple[str, str]] = Outbox(
        NAME, lambda item: webhook.post(item[1]), label=lambda item: item[0]
    )  # (event name, message): a warning names the event, never the message
    for name in options["events"]:
        bus.subscribe(name, lambda event: outbox.put((event.name, text_of(event))))


def text_of(event: Event) -> str:
    """The message for ``event``, escaped the way Slack wants (``&``, ``<``, ``>``)."""
    fields = {k: ("" if v is None else v) for k, v in event.payload().items()}
    findings = fields.get("findings")
    if isinstance(findings, int):
        fields["findings_counted"] = plural(findings, "finding")
    fields["name"] = fields.get("label") or fields.get("number", "")
    text = MESSAGES.get(event.name, "{event}").format_map(fields)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Webhook:
    """One webhook endpoint, posted to with retries; :meth:`post` never raises."""

    def __init__(
        self, url: str, options: Mapping[str, Any], *, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self.url = url
        self.timeout = float(options["timeout_seconds"])
        self.retries = int(options["retries"])
        self.max_wait = float(options["max_wait_seconds"])
        self.sleep = sleep

    def post(self, text: str) -> bool:
        """Deliver ``text``; True when the endpoint accepted it."""
        import httpx  # lazily: only runs that post anything pay for it

        with httpx.Client(timeout=self.timeout) as client:
            for attempt in range(self.retries + 1):
                outcome = self._attempt(client, text, attempt)
                if isinstance(outcome, bool):
                    return outcome
                if attempt < self.retries:
                    self.sleep(outcome)
        log.warning("notify: webhook still failing after %d attempts; gave up", self.retries + 1)
        return False

    def _attempt(self, client: httpx.Client, text: str, attempt: int) -> bool | float:
        """Post once: True delivered, False refused for good, a number: seconds until a retry."""
        import httpx

        try:
            response = client.post(self.url, json={"text": text})
        except httpx.TransportError as exc:
            log.warning("notify: webhook request failed: %s", type(exc).__name__)
            return min(backoff(attempt), self.max_wait)
        if response.is_success:
            return True
        if response.status_code == 429 or response.status_code >= 500:
            log.warning("notify: webhook answered %d", response.status_code)
            return min(retry_delay(response.headers, attempt), self.max_wait)
        log.warning(
            "notify: webhook refused the message: %d %s", response.status_code, response.text[:200]
        )
        return False


def backoff(attempt: int) -> float:
    """Exponential backoff: 1, 2, 4... seconds."""
    return float(2**attempt)


def retry_delay(headers: Mapping[str, str], attempt: int) -> float:
    """Seconds to wait: ``Retry-After`` (seconds or an HTTP date) if given, else backoff."""
    value = headers.get("retry-after", "").strip()
    if value.replace(".", "", 1).isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return backoff(attempt)
    return max(0.0, when.timestamp() - time.time())
