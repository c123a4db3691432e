"""Idempotent bot text on a forge: find our own comment by its hidden marker, edit in place."""

from __future__ import annotations

from bot.forge.base import Comment, Forge

MARKER_PREFIX = "<!-- rfd-bot:"


def marker(kind: str, key: str | int) -> str:
    """The hidden marker identifying one piece of bot text, e.g. ``<!-- rfd-bot:status:12 -->``."""
    return f"{MARKER_PREFIX}{kind}:{key} -->"


def with_marker(body: str, mark: str) -> str:
    return body if mark in body else f"{mark}\n{body}"


def is_bot_text(body: str) -> bool:
    return MARKER_PREFIX in body


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
    return forge.edit_comment(number, existing.id, text), False
