"""``rfd bot``: handle the GitHub Actions event of this job (what the reusable action runs)."""

from __future__ import annotations

import click


@click.command("bot")
def command() -> None:
    """Handle this job's GitHub event: status comment, review/accept labels, /rfd commands,
    tracking issues.  Reads GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY,
    GITHUB_API_URL and GITHUB_TOKEN; run it from a checkout of the default branch."""
    from bot.__main__ import main

    click.get_current_context().exit(main())
