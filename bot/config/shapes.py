"""Shapes of configuration strings that reach git, the environment or the network.

A value that does not have its key's shape is a ConfigError before anything uses it:
``rfd.main_branch = "--output=/some/file"`` never reaches ``git diff`` as an option.
Branch names follow git's own rules (``git check-ref-format --branch``).  Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_REF_FORBIDDEN = re.compile(
    r"""[\x00-\x20\x7f~^:?*\[\\]   # control characters, space and git's special characters
      | \.\.                        # ".." anywhere
      | @\{                         # "@{" (reflog syntax)
      | //                          # an empty component
      | (?:^|/)\.                   # a component starting with "."
      | \.lock(?:/|$)               # a component ending with ".lock"
    """,
    re.VERBOSE,
)
_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HTTP_URL = re.compile(r"https?://[^\s/?#@]+(?:[/?#][^\s]*)?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def is_branch(value: str) -> bool:
    """A name git accepts as a branch (and that no git command can read as an option)."""
    return bool(value) and not (
        value.startswith(("-", "/"))
        or value.endswith(("/", "."))
        or value == "@"
        or _REF_FORBIDDEN.search(value)
    )


def is_login(value: str) -> bool:
    return _LOGIN.fullmatch(value) is not None


def is_env_name(value: str) -> bool:
    return _ENV_NAME.fullmatch(value) is not None


def is_http_url(value: str) -> bool:
    return _HTTP_URL.fullmatch(value) is not None


def is_plain_text(value: str) -> bool:
    """No control character (newline, tab, ESC...) and no leading ``-`` (never an option)."""
    return not value.startswith("-") and _CONTROL.search(value) is None


Shape = tuple[Callable[[str], bool], str]
"""A check and what to write instead (said in the error)."""

SHAPES: dict[str, Shape] = {
    "rfd.main_branch": (
        is_branch,
        "a branch name git accepts (`git check-ref-format --branch`), such as `main`",
    ),
    "bot.login": (
        is_login,
        "a GitHub login such as `github-actions[bot]`, `my-app[bot]` or `rfd-machine-user`",
    ),
    "provider.api_key_env": (is_env_name, "an environment variable name such as `OPENAI_API_KEY`"),
    "provider.base_url": (is_http_url, "an http(s) URL such as `https://api.openai.com/v1`"),
    "implement.verify": (
        is_plain_text,
        'one command line such as `pytest -q` (no newline, not starting with `-`), `auto` or ""',
    ),
}
"""Strings with a shape: dotted key → (check, what to write)."""
