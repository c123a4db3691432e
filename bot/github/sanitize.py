"""Text crossing the bot's edges: comment text towards a model, bot text towards GitHub.

Towards a model, :func:`bot.sanitize.for_prompt` (shared with every step) removes
what a reader cannot see — HTML comments, invisible and bidi characters — and
neutralises prompt delimiters; here control characters and credentials go too,
and the length is capped.  Towards GitHub, everything the bot posts passes
:func:`redact`, so no token or key can leak into a comment.
"""

from __future__ import annotations

import re
import unicodedata

from bot.sanitize import for_prompt

MAX_CHARS = 20_000

_SECRET = re.compile(
    r"""(
        gh[pousr]_[A-Za-z0-9]{20,}      # GitHub tokens
      | github_pat_[A-Za-z0-9_]{20,}
      | sk-ant-[A-Za-z0-9_-]{20,}       # Anthropic keys
      | sk-[A-Za-z0-9]{32,}             # OpenAI-style keys
      | AKIA[0-9A-Z]{16}                # AWS access key ids
    )""",
    re.VERBOSE,
)


def for_model(text: str, limit: int = MAX_CHARS) -> str:
    """``text`` without hidden content, control characters or secrets, at most ``limit``."""
    text = str(for_prompt(text))
    text = "".join(c for c in text if c in "\n\t" or unicodedata.category(c) != "Cc")
    text = redact(text)
    if len(text) > limit:
        text = text[:limit] + "\n[… truncated]"
    return text


def redact(text: str) -> str:
    """Replace anything shaped like a credential."""
    return _SECRET.sub("[redacted]", text)
