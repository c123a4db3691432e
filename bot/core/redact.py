"""Nothing the bot posts can carry a credential.

Every title and body goes through :func:`redact` on its way out: in the forge's
writes (comments, issues, pull requests) whoever calls them, and already in
``Context.upsert`` so that comparing with what is posted stays idempotent.
Text travelling the other way — RFDs read from PRs, reviews — reaches a model only
through the prompt templates, which sanitise all data (:mod:`bot.core.sanitize`);
comment text never does: the bot takes only the parsed, validated command.
What counts as a credential is :mod:`bot.core.secret_shapes` (rfd-state's detector too), and
the values of the secrets this process holds in any encoding (:mod:`bot.core.secret_values`).
"""

from __future__ import annotations

import os

from bot.core.secret_shapes import find
from bot.core.secret_values import SecretValues, held


def redact(text: str, values: SecretValues | None = None) -> str:
    """``text`` with anything shaped like a credential, and every form of a secret value the
    process holds (``values``, default: its environment's), replaced by ``[redacted]`` (a
    value given to a secret-ish name loses the value, the name stays: ``API_KEY=[redacted]``)."""
    values = held(os.environ) if values is None else values
    spans = sorted((secret.start, secret.end) for secret in find(text))
    spans = sorted(spans + [(start, end) for start, end, _ in values.find(text)])
    if not spans:
        return text
    out, done = [], 0
    for start, end in spans:
        if start < done:  # overlaps the span redacted last
            done = max(done, end)
            continue
        out += [text[done:start], "[redacted]"]
        done = end
    return "".join(out) + text[done:]
