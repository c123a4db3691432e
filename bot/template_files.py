"""Which files in the RFD directory are a repository's own templates, never RFDs.

A file named like ``000-design-template.md`` (or ``000-template.md``) holds placeholders
such as ``RFD 000`` and ``DATE``: it is not listed, numbered, or linted as an RFD.
"""

from __future__ import annotations

import re

_TEMPLATE_RE = re.compile(r"^0+-(?:[a-z0-9-]+-)?template\.md$", re.IGNORECASE)


def is_template(path: str) -> bool:
    """Whether the file at ``path`` (any directory) is a template."""
    return bool(_TEMPLATE_RE.match(path.rpartition("/")[2]))
