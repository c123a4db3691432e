"""Text from pull requests and comments, made safe to hand to a model as data.

It is never an instruction: HTML comments (hidden from readers, a favourite place
for injected prompts), invisible and bidirectional-control characters and other
control characters are removed, the length is capped, and the result is fenced
as quoted material by the prompt that uses it.
"""

from __future__ import annotations

import re
import unicodedata

MAX_CHARS = 20_000

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_INVISIBLE = re.compile(
    "["
    "\u200b-\u200f"  # zero-width spaces and joiners, LRM/RLM
    "\u202a-\u202e"  # bidirectional embeddings and overrides
    "\u2060-\u2064"  # word joiner, invisible operators
    "\u2066-\u2069"  # bidirectional isolates
    "\ufeff"  # zero-width no-break space
    "\U000e0000-\U000e007f"  # tag characters (invisible ASCII look-alikes)
    "]"
)
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
    text = _HTML_COMMENT.sub("", text)
    text = _INVISIBLE.sub("", text)
    text = "".join(c for c in text if c in "\n\t" or unicodedata.category(c) != "Cc")
    text = redact(text)
    if len(text) > limit:
        text = text[:limit] + "\n[… truncated]"
    return text


def redact(text: str) -> str:
    """Replace anything shaped like a credential; used on everything the bot posts too."""
    return _SECRET.sub("[redacted]", text)
