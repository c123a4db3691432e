"""Counting words for messages: ``plural(1, "finding")`` is ``1 finding``, never ``1 findings``.

Pure and import-free, so the pre-commit hooks may use it and stay instant.
"""

from __future__ import annotations

_SIBILANT = ("s", "x", "z", "ch", "sh")


def noun(count: int, singular: str, many: str | None = None) -> str:
    """``singular`` when ``count`` is 1, else its plural (``many`` when English is irregular)."""
    if count == 1:
        return singular
    if many is not None:
        return many
    if singular.endswith("y") and singular[-2:-1] not in ("", *"aeiou"):
        return singular[:-1] + "ies"
    if singular.endswith(_SIBILANT):
        return singular + "es"
    return singular + "s"


def plural(count: int, singular: str, many: str | None = None) -> str:
    """``count`` and the noun that agrees with it: ``2 findings``, ``1 RFD``, ``0 passes``."""
    return f"{count} {noun(count, singular, many)}"
