"""Make untrusted text (PR bodies, RFDs, reviews, diffs) safe to put in a prompt as data.

What a person reading the text on GitHub cannot see must not reach the model:
HTML comments (GitHub hides them, an unterminated one hides the rest of the
text), zero-width and other invisible characters, bidirectional controls
(Trojan Source, U+202A–U+202E and U+2066–U+2069) and Unicode tag characters
(U+E0000–U+E007F, "ASCII smuggling").  The ``<document>`` delimiters the
templates use are neutralised inside the data, so a document cannot close its
own block and talk as the prompt.
"""

from __future__ import annotations

import re
from typing import Any

SEPARATOR = "<<<rfd-bot:task>>>"
"""Splits a rendered step prompt into system and task (written in ``bot/prompts/_step.md.j2``);
removed from all data so no document can forge it."""

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)  # unterminated: hides the rest
INVISIBLE = re.compile(
    "["
    "\u00ad"  # soft hyphen
    "\u180e"  # Mongolian vowel separator
    "\u200b-\u200f"  # zero-width space, (non-)joiner, LRM, RLM
    "\u202a-\u202e"  # bidi embeddings and overrides
    "\u2060-\u2064"  # word joiner, invisible operators
    "\u2066-\u2069"  # bidi isolates
    "\ufeff"  # zero-width no-break space (BOM)
    "\U000e0000-\U000e007f"  # tag characters
    "]"
)
_DELIMITER = re.compile(r"<(/?)(document)\b", re.IGNORECASE)


def sanitize(text: str) -> str:
    """``text`` without HTML comments and invisible or bidi-control characters."""
    return INVISIBLE.sub("", _HTML_COMMENT.sub("", text))


def neutralise_delimiters(text: str) -> str:
    """``<document`` / ``</document`` inside data, made harmless (``‹document``)."""
    return _DELIMITER.sub(lambda m: f"‹{m.group(1)}{m.group(2)}", text)


def for_prompt(value: Any) -> Any:
    """Jinja ``finalize``: every string a template prints is sanitised data."""
    if isinstance(value, str):
        return neutralise_delimiters(sanitize(value)).replace(SEPARATOR, "")
    return value
