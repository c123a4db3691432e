"""Nothing the bot posts can carry a credential.

Every title and body goes through :func:`redact` on its way out: in the forge's
writes (comments, issues, pull requests) whoever calls them, and already in
``Context.upsert`` so that comparing with what is posted stays idempotent.
Text travelling the other way — RFDs read from PRs, reviews — reaches a model only
through the prompt templates, which sanitise all data (:mod:`bot.sanitize`);
comment text never does: the bot takes only the parsed, validated command.
"""

from __future__ import annotations

import re

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


def redact(text: str) -> str:
    """``text`` with anything shaped like a credential replaced by ``[redacted]``."""
    return _SECRET.sub("[redacted]", text)
