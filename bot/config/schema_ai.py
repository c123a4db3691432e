"""The schema of what the AI steps run with: the provider (``[provider]``), each step's model
and budget (``[steps.<step>]``), and the limits of the implement step (``[implement]``).

Part of the configuration's schema (:mod:`bot.config.schema`, whose :class:`Config` holds
these sections); each field's docstring is its documentation, as there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class ProviderSection:
    """Which LLM provider to use and how to reach it."""

    name: Literal["auto", "anthropic", "openai", "offline"] = "auto"
    """``auto``: per step, ``claude-*`` models go to Anthropic and any other model to the
    OpenAI-compatible endpoint; a provider without its key is offline."""
    base_url: str = "https://api.openai.com/v1"
    """Base URL of the OpenAI-compatible endpoint (Gemini, OpenRouter, Ollama, vLLM...)."""
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the OpenAI-compatible key."""
    timeout_seconds: float = 120.0
    """Timeout of one request."""
    max_retries: int = 2
    """Retries of 408/409/429/5xx answers (the SDK's own retry loop)."""
    context_tokens: int = 180_000
    """Input budget; larger inputs are truncated visibly."""


@dataclass(frozen=True)
class StepSection:
    """Settings of one lifecycle step."""

    model: str = ""
    """Model alias or id; empty means the built-in default of the step."""
    provider: Literal["", "auto", "anthropic", "openai", "offline"] = ""
    """The step's provider (values as ``provider.name``); empty means ``provider.name``."""
    max_tokens: int = 8192
    """Largest reply of one model call."""
    budget_tokens: int = 0
    """Stop the step cleanly past this many tokens (0: no limit)."""
    budget_usd: float = 0.0
    """Stop the step cleanly past this cost in US dollars (0: no limit)."""


@dataclass(frozen=True)
class StepsSection:
    explore: StepSection = StepSection(model="sonnet")
    converge: StepSection = StepSection(model="opus")
    draft: StepSection = StepSection(model="opus")
    review: StepSection = StepSection(model="sonnet")
    refine: StepSection = StepSection(model="opus")
    accept: StepSection = StepSection(model="sonnet")
    implement: StepSection = StepSection(model="opus")


@dataclass(frozen=True)
class ImplementSection:
    allowed_commands: tuple[str, ...] = ("pytest", "python -m pytest", "make test", "ruff")
    """Command prefixes the implement step may run."""
    allowed_paths: tuple[str, ...] = ("**",)
    """Globs the implement step may write."""
    protected_paths: tuple[str, ...] = (".git/**", ".github/workflows/**")
    """Globs the implement step may never write, whatever ``allowed_paths`` says."""
    max_items: int = 30
    """Largest item checklist per phase (amendments are capped at twice the original count)."""
    verify: str = "auto"
    """Command run after each item (through the same runner as the model's commands); an item
    is ``[x]`` only when it passes.  ``auto``: ``pytest`` when the repository has pytest tests,
    ``make test`` when the Makefile has a ``test`` target, ``npm test`` when package.json has a
    test script; ``""``: no check."""
    isolation: Literal["auto", "bwrap", "unshare", "none"] = "auto"
    """How commands are isolated (fresh namespaces, see README "What implement's commands can
    reach"): ``auto`` probes bubblewrap, then ``unshare``; ``none`` runs them unisolated, which
    only a person confirming each command may allow (the bot refuses)."""
    finish_in_last_phase: bool = False
    """The last phase's pull request also marks the RFD Implemented (a bot commit after the
    phase's) and closes the tracking issue when merged; off: ``/rfd done`` on the tracking
    issue opens a pull request of its own for that."""
    network: bool = False
    """Whether commands may reach the network (off: a namespace without interfaces)."""
    toolchain: tuple[str, ...] = ()
    """Host directories commands see read-only besides ``/usr``, ``/bin``, ``/lib*``, ``/etc``
    and the bot's Python (``/opt/hostedtoolcache`` for tools that ``actions/setup-*``
    installed): everything else of the host is hidden."""
    env: tuple[str, ...] = ()
    """Environment variables passed to commands besides the built-in allowlist (PATH, LANG,
    LC_*, TERM, TZ): never a secret, whose value the bot redacts from everything it writes."""
    redacted_env: tuple[str, ...] = ()
    """More environment variables whose values are secrets (redacted in every encoding from
    command output and commits), beyond key-, token- and password-like names."""


@dataclass(frozen=True)
class ResearchSection:
    """What explore may look up outside the repository (seed 000: web pages, package
    registries).  Off by default: nothing leaves the machine unless ``web`` is on."""

    web: bool = False
    """Give explore ``web_fetch`` and ``package_search``."""
    allowed_hosts: tuple[str, ...] = (
        "pypi.org",
        "registry.npmjs.org",
        "crates.io",
        "docs.python.org",
        "docs.rs",
        "developer.mozilla.org",
        "en.wikipedia.org",
    )
    """Hosts the tools may reach (a subdomain of one counts); every redirect is checked too."""
    pypi_url: str = "https://pypi.org"
    """Where ``package_search`` asks PyPI (its JSON API)."""
    npm_url: str = "https://registry.npmjs.org"
    """Where ``package_search`` asks npm (its search API)."""
    crates_url: str = "https://crates.io"
    """Where ``package_search`` asks crates.io (its search API)."""
    max_chars: int = 20_000
    """Longest answer the model is shown (the rest is cut, visibly)."""
    timeout_seconds: float = 15.0
    """Timeout of one request."""
