"""Idempotent bot text on a forge: find our own comment by its hidden marker, edit in place.

A marker counts only where the bot puts it: in the run of marker lines that opens
a body it wrote (:func:`leading_markers`).  The same text anywhere else — an RFD
title, a review, a quoted comment — is just text, and :mod:`bot.core.github_markdown`
keeps such text from ever forming one.
"""

from __future__ import annotations

import re

from bot.core.errors import ForgeGone
from bot.core.github_markdown import closed
from bot.forge.base import Comment, Forge

BODY_LIMIT = 65_536
"""GitHub's limit on an issue or comment body, in characters (422 beyond)."""
CUT = (
    "\n\n> [!WARNING]\n> This text was cut to fit GitHub's limit of 65,536 characters: "
    "the last {n:,} were left out (the job summary has the run's details)."
)
MARKER_PREFIX = "<!-- rfd-bot:"
_MARKER_LINE = re.compile(r"<!-- rfd-bot:[^<>\n]*? -->")


def marker(kind: str, key: str | int) -> str:
    """The hidden marker identifying one piece of bot text, e.g. ``<!-- rfd-bot:status:12 -->``."""
    return f"{MARKER_PREFIX}{kind}:{key} -->"


def leading_markers(body: str) -> tuple[str, ...]:
    """The markers in the bot's structural position: the marker lines that open ``body``."""
    found: list[str] = []
    for line in body.split("\n"):
        if not _MARKER_LINE.fullmatch(line.rstrip("\r")):
            break
        found.append(line.rstrip("\r"))
    return tuple(found)


def carries(body: str, mark: str) -> bool:
    """Does ``body`` carry ``mark`` where the bot puts it (not merely somewhere in its text)?"""
    return mark in leading_markers(body)


def fit(body: str, limit: int = BODY_LIMIT) -> str:
    """``body`` cut (at a line, fences closed) with a note saying so when it is over ``limit``."""
    if len(body) <= limit:
        return body
    room = limit - len(CUT.format(n=len(body))) - 16  # room for closing a code fence
    kept = body[:room]
    kept = kept[: kept.rfind("\n")] if "\n" in kept else kept
    return closed(kept) + CUT.format(n=len(body) - len(kept))


def with_marker(body: str, mark: str) -> str:
    return body if carries(body, mark) else f"{mark}\n{body}"


def upsert_comment(forge: Forge, number: int, mark: str, body: str) -> tuple[Comment, bool]:
    """Create the comment carrying ``mark`` on ``number``, or edit it; unchanged text is no write.

    Returns the comment and whether it was created.
    """
    text = with_marker(body, mark)
    existing = forge.find_comment(number, mark)
    if existing is None:
        return forge.create_comment(number, text), True
    if existing.body.strip() == text.strip():
        return existing, False
    try:
        return forge.edit_comment(number, existing.id, text), False
    except ForgeGone:  # deleted since it was read: write it anew
        return forge.create_comment(number, text), True
