"""Nothing the bot sends to a model may hold the value of a secret the process has.

Redacting posts cannot help once the model has read a token: so every request is checked
before it leaves (:func:`check`) — its system prompt, messages, tool calls and results and
tool descriptions — for the value of every secret this job holds, in every encoding
:mod:`bot.core.redact` knows.  One found stops the step with :class:`SecretInRequest`:
nothing is sent.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator, Mapping
from typing import Any

from bot.core.errors import RfdError
from bot.core.redact import SecretValues, held
from bot.llm.base import Request

STOPPED = "a request to the model held {kind}; nothing was sent and the run stopped"
HINT = (
    "something the model's tools read or a command printed carries a secret of this job: "
    "find which file or output holds it before running again"
)


class SecretInRequest(RfdError):
    """A model request would have carried a secret value."""

    kind = "secret-in-request"


def check(request: Request, values: SecretValues | None = None) -> None:
    """SecretInRequest when ``request`` holds a value of ``values`` (default: this process's
    environment's secrets)."""
    values = held(os.environ) if values is None else values
    if not values:
        return
    for text in _texts(request):
        for _, _, kind in values.find(text):
            raise SecretInRequest(STOPPED.format(kind=kind), hint=HINT)


def _texts(value: Any) -> Iterator[str]:
    """Every string inside ``value`` (dataclasses, mappings, sequences; keys included)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _texts(getattr(value, field.name))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _texts(item)
