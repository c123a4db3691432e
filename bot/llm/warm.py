"""Import the SDK a step will call while the bot does something else: a review event reads
GitHub and fetches the pull request (waiting on the network) before its model is called, and
``import anthropic`` alone takes seconds.  Nothing is imported for a step with no model."""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.core.errors import ConfigError
from bot.llm.select import route

if TYPE_CHECKING:
    from bot.config.load import Config

SDKS: Mapping[str, str] = {"anthropic": "anthropic", "openai": "httpx"}
"""Provider name → the module its first call imports."""


def sdk_for(config: Config, environ: Mapping[str, str], step: str) -> str | None:
    """The module ``step``'s provider imports on its first call (None: offline, no model)."""
    try:
        name, _ = route(config, environ, step, config.model_for(step))
    except ConfigError:
        return None  # the step says so itself when it runs
    return SDKS.get(name)


def warm_up(config: Config, environ: Mapping[str, str], step: str) -> threading.Thread | None:
    """Start importing ``step``'s SDK in a background thread (None: nothing to import).

    A later ``import`` of the same module waits for this one (the import system's lock), so
    the step's call finds it ready or finishes it; the thread does not keep the process up."""
    module = sdk_for(config, environ, step)
    if module is None or module in sys.modules:
        return None
    thread = threading.Thread(target=_load, args=(module,), name=f"import {module}", daemon=True)
    thread.start()
    return thread


def _load(module: str) -> None:
    # a failure here is the call's to report: its own import raises the same error again
    with contextlib.suppress(Exception):
        importlib.import_module(module)
