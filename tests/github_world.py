"""A small GitHub world for the bot's tests: an origin repository, the Actions
checkout of its default branch, a PR branch, and the webhook payload of an event.

Shared by the bot's test modules (one fake per edge, in one place).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.conftest import git
from tests.worlds import copied

WEBHOOKS = Path(__file__).resolve().parent / "data" / "webhooks"
REPO = "Codertocat/Hello-World"
BRANCH = "rfd-045-streaming-exports"
CONFIG = "[bot]\nseconds_between_writes = 0\n"


def payload(name: str, **changes: Any) -> dict[str, Any]:
    """A webhook fixture with dotted-key changes: ``payload(..., **{"comment.body": "x"})``."""
    data = json.loads((WEBHOOKS / f"{name}.json").read_text(encoding="utf-8"))
    for dotted, value in changes.items():
        node = data
        *parents, last = dotted.split(".")
        for key in parents:
            node = node[key]
        node[last] = copy.deepcopy(value)
    return data


def write(root: Path, files: Mapping[str, str]) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def make_world(tmp: Path, main: Mapping[str, str], pr: Mapping[str, str]) -> tuple[Path, Path]:
    """``(origin, checkout)``: origin has ``main`` and the PR branch; checkout is on main.

    Built once per test run for the same files and copied (``tests/worlds.py``); the seed
    repository that made it is in ``tmp / "seed"``, on the PR branch if there is one."""
    origin, checkout = tmp / "origin.git", tmp / "checkout"
    copied(
        tmp,
        ["github_world", CONFIG, sorted(main.items()), sorted(pr.items())],
        lambda into: _build_world(into, main, pr),
    )
    git(checkout, "remote", "set-url", "origin", str(origin))
    return origin, checkout


def _build_world(tmp: Path, main: Mapping[str, str], pr: Mapping[str, str]) -> None:
    origin, seed, checkout = tmp / "origin.git", tmp / "seed", tmp / "checkout"
    git(tmp, "init", "-q", "--bare", str(origin))
    git(tmp, "init", "-q", str(seed))
    write(seed, {".github/rfd.toml": CONFIG, **main})
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "main")
    git(seed, "push", "-q", str(origin), "HEAD:refs/heads/main")
    if pr:
        git(seed, "checkout", "-q", "-b", BRANCH)
        write(seed, pr)
        git(seed, "add", "-A")
        git(seed, "commit", "-q", "-m", "pr")
        git(seed, "push", "-q", str(origin), f"HEAD:refs/heads/{BRANCH}")
    git(tmp, "clone", "-q", "--branch", "main", str(origin), str(checkout))


def event_env(tmp: Path, event: str, data: Mapping[str, Any]) -> dict[str, str]:
    path = tmp / "event.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return {
        "GITHUB_EVENT_NAME": event,
        "GITHUB_EVENT_PATH": str(path),
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_API_URL": "https://api.github.com",
        "GITHUB_TOKEN": "ghs_test",
        "RUNNER_TEMP": str(tmp),
    }


RFD_PATH = "docs/rfd/045-streaming-exports.md"
RFD_TEXT = """\
# RFD 045: Streaming exports

- **Status**: Discussion
- **Category**: Design
- **Authors**: @octocat
- **Date**: 2026-11-01

## Summary

Export large reports as a stream instead of building them in memory.

## Motivation

Reports over 100k rows time out and exhaust the worker's memory.

## Design

A generator yields CSV rows; the endpoint streams them with chunked encoding.

## Drawbacks

Errors after the first byte cannot change the status code.

## Alternatives

Background export to object storage with an email link.

## Non-Goals

Excel output.

## Risks and Open Questions

- Do proxies buffer chunked responses?

## Implementation Plan

### Phase 1: Writer

A streaming CSV writer.

### Phase 2: Endpoint

The HTTP endpoint that uses it.
"""


NOW = 1795831200.0
"""2026-11-22T02:00:00Z: the clock of the bot's operations in tests."""


def run_bot(tmp: Path, checkout: Path, event: str, data: Mapping[str, Any], **env: str) -> int:
    """The bot's entry point on this world (what `rfd bot` runs in Actions)."""
    from bot.github.router import main

    environ = event_env(tmp, event, data) | env
    environ["GITHUB_STEP_SUMMARY"] = str(tmp / "summary.md")
    return main(environ, root=checkout, clock=lambda: NOW)


# The RFD with a TODO in its design and a plan without phases: a review with findings.
UNPLANNED = (
    RFD_TEXT.replace(
        "A generator yields CSV rows;", "A generator yields CSV rows (TODO: the chunk size);"
    ).split("## Implementation Plan")[0]
    + "## Implementation Plan\n\nWe will see.\n"
)

# A plan without phases (a major on its heading) and, on the PR branch, a Date that is no
# real date (a major on the Date line, the one line the PR changes): for ``review.inline``.
PLANLESS = RFD_TEXT.split("## Implementation Plan")[0] + "## Implementation Plan\n\nWe will see.\n"
MISDATED = PLANLESS.replace("2026-11-01", "2026-11-31")
INLINE_CONFIG = CONFIG + "\n[review]\ninline = true\n"


# A directory per RFD, Oxide's way: AsciiDoc, `:state:` words, a diagram beside it.
OXIDE_CONFIG = (
    CONFIG
    + """
[rfd]
dir = "rfd"

[conventions]
id_digits = 4

[statuses]
prediscussion = "draft"
published = "accepted"
committed = "implemented"
"""
)
"""What `rfd init` writes for an Oxide repository (tests/dialect_corpora.py), shortened."""
OXIDE_PATH = "rfd/0015/README.adoc"
OXIDE_TEXT = """\
:showtitle:
:toc: left
:numbered:
:state: discussion
:discussion: https://github.com/Codertocat/Hello-World/pull/2
:authors: Barbara Liskov <liskov@example.com>

= RFD 15 Console access
Barbara Liskov <liskov@example.com>

== Background

Operators need a serial console on each sled when the network is down.

== Determinations

. The sled agent proxies the console over the management network.
. Sessions are logged and time out after an hour idle.

image::console.svg[The console path]

== Security Considerations

Only operators with the fleet admin role open a console.

== Open Questions

* Should sessions be shared by two operators?

== Implementation Plan

=== Phase 1: Proxy

The sled agent's console proxy.

=== Phase 2: Audit log

Every session written to the audit log.
"""
OXIDE_MAIN = {
    ".github/rfd.toml": OXIDE_CONFIG,
    OXIDE_PATH: OXIDE_TEXT.replace("an hour idle", "a day idle"),
    "rfd/0015/console.svg": "<svg/>\n",
    "rfd/0014/README.md": "---\nstate: published\n---\n\n# RFD 14 Sled agent\n",
}

# A directory per RFD with YAML front matter (`state:`), in the default RFD directory.
FRONT_PATH = "docs/rfd/0042/README.md"
FRONT_TEXT = """\
---
authors:
  - Barbara Liskov <liskov@example.com>
state: discussion
---

# RFD 42 Customer API versioning

## Summary

Version the customer API by date.

## Motivation

Clients break when a field changes.

## Design

A `Version` header names the date; the server answers in that version's shape.

## Implementation Plan

### Phase 1: Header

Read the header and default to the oldest version.
"""
