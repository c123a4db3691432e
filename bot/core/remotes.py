"""Which GitHub repository a git remote names: ``owner/name`` of its URL, in any of the forms
git takes (``git@github.com:owner/name.git``, ``https://github.com/owner/name``, …).
"""

from __future__ import annotations

import re

_REMOTE = re.compile(
    r"""[/:@]                       # after the host: git@host:owner/name or https://host/owner/name
        (?P<repo>[^/:]+/[^/]+?)     # owner/name
        (?:\.git)?/?$""",
    re.VERBOSE,
)


def repository_of(url: str) -> str | None:
    """``owner/name`` of a remote URL, None when it names none."""
    match = _REMOTE.search(url)
    return match["repo"] if match else None
