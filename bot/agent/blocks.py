"""The first user message of a step: named blocks of data (the RFD, reviews, research...).

Instructions live in the prompt templates; this message carries only material, each
piece in its own tagged block so the model can tell them apart and cite them.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.llm.base import Message


def block(name: str, text: str, **attributes: str) -> str:
    attrs = "".join(f' {k}="{v}"' for k, v in attributes.items())
    return f"<{name}{attrs}>\n{text.rstrip()}\n</{name}>"


def material(blocks: Iterable[str], request: str = "") -> Message:
    """One user message of the given blocks, then the person's own words (if any)."""
    parts = [b for b in blocks if b]
    if request.strip():
        parts.append(request.strip())
    return Message("user", "\n\n".join(parts), cache=True)
