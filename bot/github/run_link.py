"""The workflow run a bot text comes from: its URL, read from the Actions environment.

Every reply ends with a link to its run, so a maintainer can open the log behind
it.  The values come from the runner (``GITHUB_SERVER_URL``, ``GITHUB_REPOSITORY``,
``GITHUB_RUN_ID``), never from the event; each is checked against its shape before
it becomes part of a link, and outside Actions (no run id) there is no link.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

RUN_ID = re.compile(r"[0-9]{1,20}")
REPOSITORY = re.compile(r"[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}")
SERVER = re.compile(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?")
RUN_URL = "{server}/{repository}/actions/runs/{run}"
FOOTER = "<sub>[Workflow run {run}]({url})</sub>"


def run_id(environ: Mapping[str, str]) -> str | None:
    """This run's id (``GITHUB_RUN_ID``), when it looks like one."""
    run = environ.get("GITHUB_RUN_ID", "")
    return run if RUN_ID.fullmatch(run) else None


def run_url(environ: Mapping[str, str]) -> str | None:
    """``$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID``, or None
    outside Actions (or when a value does not have its shape)."""
    run = run_id(environ)
    server = environ.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
    repository = environ.get("GITHUB_REPOSITORY", "")
    if run is None or not SERVER.fullmatch(server) or not REPOSITORY.fullmatch(repository):
        return None
    return RUN_URL.format(server=server, repository=repository, run=run)


def footer(environ: Mapping[str, str]) -> str:
    """The line linking this run (empty outside Actions)."""
    url = run_url(environ)
    return FOOTER.format(run=run_id(environ), url=url) if url else ""


def with_run_link(body: str, environ: Mapping[str, str]) -> str:
    """``body`` ending with the link to this run (unchanged outside Actions)."""
    line = footer(environ)
    return f"{body.rstrip()}\n\n{line}" if line else body
