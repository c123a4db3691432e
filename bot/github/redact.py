"""Nothing the bot posts can carry a credential.

Every title and body goes through :func:`redact` on its way out: in the forge's
writes (comments, issues, pull requests) whoever calls them, and already in
``Context.upsert`` so that comparing with what is posted stays idempotent.
Text travelling the other way — RFDs read from PRs, reviews — reaches a model only
through the prompt templates, which sanitise all data (:mod:`bot.sanitize`);
comment text never does: the bot takes only the parsed, validated command.
What counts as a credential is :mod:`bot.secret_shapes` (rfd-state's detector too).
"""

from __future__ import annotations

from bot.secret_shapes import find


def redact(text: str) -> str:
    """``text`` with anything shaped like a credential replaced by ``[redacted]`` (a value
    given to a secret-ish name loses the value, the name stays: ``API_KEY=[redacted]``)."""
    spans = sorted((secret.start, secret.end) for secret in find(text))
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
