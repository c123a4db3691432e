"""An RFD's page on the published RFD site (``[site] url``), for the texts that link to it
(the status comment, the tracking issue).  Only an http(s) address with no space or markdown
punctuation is used: the address comes from the configuration and must not become markdown
structure."""

from __future__ import annotations

import re

_URL = re.compile(r"https?://[^\s()<>\[\]\"'`]+")


def page_url(site_url: str, rfd_id: object) -> str:
    """``https://acme.github.io/jp/rfd/045.html``; empty without a usable site address."""
    base = site_url.strip()
    if not _URL.fullmatch(base):
        return ""
    return f"{base.rstrip('/')}/rfd/{rfd_id}.html"
