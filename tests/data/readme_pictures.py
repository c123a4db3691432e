"""The README's pictures of the bot, made from the texts the bot itself posts.

The comment bodies are the ones the bot's renderers produced in the cassette tests
(``tests/data/cassettes/bodies/``, checked by every replay), laid out as GitHub's
timeline by the design renderer (``github-render``: GitHub's CSS, task lists, mermaid):

    .venv/bin/python tests/data/readme_pictures.py > /tmp/spec.json
    cd <github-render> && node render.mjs /tmp/spec.json html
    OUT=<repo>/.github/images ./shoot.sh bot-on-a-pr 900
    OUT=<repo>/.github/images ./shoot.sh bot-implementing 740
    OUT=<repo>/.github/images ./shoot.sh finish-in-last-phase 1100
    for n in 1-discussion 2-concern 3-accepted 4-merged 5-phase 6-finished; do
      OUT=<repo>/.github/images ./shoot.sh lifecycle-$n 900; done

Run it again after a change to those texts and commit the PNGs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

BODIES = Path(__file__).resolve().parent / "cassettes" / "bodies"
TITLE = "RFD 045: Streaming exports"


def body(name: str) -> str:
    return (BODIES / f"{name}.md").read_text(encoding="utf-8")


def person(text: str, *reactions: str, author: str = "octocat") -> dict[str, object]:
    return {"md": text, "author": author, "bot": False, "reactions": list(reactions)}


def pages() -> list[dict[str, object]]:
    on_pr = [  # the lifecycle scenario's ([consensus]: the Decision block says who accepted)
        {"md": body("life-status-accepted"), "edited": True, "when": "5 minutes ago"},
        person("Looks good to me now.\n\n/rfd accept", "👀 1", "🚀 1", author="hubot"),
        {"md": body("life-accepted")},
    ]
    on_issue = [
        {"md": body("tracking-new"), "verb": "opened this issue", "when": "yesterday"},
        person("/rfd implement", "👀 1"),
        {"md": body("run-progress-item-2"), "edited": True},
    ]
    stages = [
        ("1-discussion", [{"md": body("status-after-review"), "edited": True}]),
        (
            "2-concern",
            [
                {"md": body("consensus-status-concern"), "edited": True},
                person("/rfd concern Proxies may buffer the chunked response", "👀 1", "🚀 1"),
            ],
        ),
        ("3-accepted", [{"md": body("life-status-accepted"), "edited": True}]),
        ("4-merged", [{"md": body("life-status-merged"), "edited": True}]),
    ]
    lifecycle = [
        {
            "name": f"lifecycle-{name}",
            "title": f"Add {TITLE}",
            "number": 2,
            "state": "closed" if name == "4-merged" else "open",
            "items": items,
        }
        for name, items in stages
    ]
    phase = [  # the scenario's own texts (tests/test_github_lifecycle.py)
        {"md": body("life-tracking-phase-1"), "verb": "opened this issue", "when": "yesterday"},
        person("/rfd implement", "👀 1", "🚀 1"),
        {"md": body("life-phase-1-opened"), "edited": True},
    ]
    finished = [
        {"md": body("life-tracking-done"), "verb": "opened this issue", "when": "last week"},
        person("/rfd done", "👀 1", "🚀 1"),
        {"md": body("done-issue-opened")},
    ]
    last_phase = [  # [implement] finish_in_last_phase (tests/test_github_finish_phase.py)
        {"md": body("finish-phase-tracking"), "verb": "opened this issue", "when": "last week"},
        person("/rfd implement", "👀 1", "🚀 1"),
        {"md": body("finish-phase-opened"), "edited": True},
        person("/rfd status"),
        {"md": body("finish-phase-status")},
    ]
    for name, items in (("5-phase", phase), ("6-finished", finished)):
        lifecycle.append(
            {
                "name": f"lifecycle-{name}",
                "title": TITLE,
                "number": 12,
                "state": "open",
                "items": items,
            }
        )
    return [
        *lifecycle,
        {
            "name": "bot-on-a-pr",
            "title": f"Add {TITLE}",
            "number": 2,
            "state": "open",
            "items": on_pr,
        },
        {
            "name": "finish-in-last-phase",
            "title": TITLE,
            "number": 12,
            "state": "open",
            "items": last_phase,
        },
        {
            "name": "bot-implementing",
            "title": TITLE,
            "number": 12,
            "state": "open",
            "items": on_issue,
        },
    ]


if __name__ == "__main__":
    json.dump(pages(), sys.stdout, ensure_ascii=False, indent=1)
    sys.exit(0)
