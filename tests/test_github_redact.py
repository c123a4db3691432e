"""What the bot posts never carries a credential."""

from __future__ import annotations

import pytest

from bot.core.redact import redact


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain text", "plain text"),
        ("token ghp_" + "a" * 36, "token [redacted]"),
        ("installation ghs_" + "B" * 36 + " used", "installation [redacted] used"),
        ("key sk-ant-api03-" + "b" * 40, "key [redacted]"),
        ("aws AKIAABCDEFGHIJKLMNOP", "aws [redacted]"),
        (
            "sha ec26c3e57ca3a959ca5aad62de7213c562f8c821",
            "sha ec26c3e57ca3a959ca5aad62de7213c562f8c821",
        ),
        (  # the same shapes rfd-state refuses in state files (bot.core.secret_shapes)
            "run with GITHUB_TOKEN=9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc set",
            "run with GITHUB_TOKEN=[redacted] set",
        ),
        ('api_key: "a8f5f167f44f4964e6c998dee827110c"', 'api_key: "[redacted]"'),
        (
            "Authorization: Bearer 4f2a9c1e7b3d8f6a0e5c9b2d7a1f3e8c",
            "Authorization: Bearer [redacted]",
        ),
        ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3", "jwt [redacted]"),
        (
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3",
            "Authorization: Bearer [redacted]",
        ),
        ("token: ${{ secrets.GITHUB_TOKEN }}", "token: ${{ secrets.GITHUB_TOKEN }}"),
        ("password: REDACTED", "password: REDACTED"),
        # in text beyond ASCII (the case-insensitive search) and in mixed case (the ASCII one)
        ("café Api_Key=a8f5f167f44f4964e6c998dee827110c", "café Api_Key=[redacted]"),
        ("Api_Key=a8f5f167f44f4964e6c998dee827110c", "Api_Key=[redacted]"),
        ("«clé» aws AKIAABCDEFGHIJKLMNOP", "«clé» aws [redacted]"),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_every_forge_write_is_redacted_whoever_calls_it() -> None:
    """A review or PR body carrying model output cannot post a credential."""
    from types import SimpleNamespace
    from typing import Any

    from bot.forge.github import GitHubForge

    posted: list[str] = []
    secret = "ghp_" + "z" * 36

    class FakeIssue(SimpleNamespace):
        def create_comment(self, body: str) -> Any:
            posted.append(body)
            author = SimpleNamespace(login="b")
            return SimpleNamespace(id=1, body=body, html_url="u", user=author, updated_at=None)

        def edit(self, **changes: str) -> None:
            posted.extend(changes.values())

    issue = FakeIssue(
        number=7, title="t", body="", state="open", html_url="u", labels=[], user=None
    )

    class FakeRepo:
        def get_issue(self, number: int) -> FakeIssue:
            return issue

        def create_issue(self, **fields: Any) -> FakeIssue:
            posted.extend([fields["title"], fields["body"]])
            return issue

    forge = GitHubForge(FakeRepo())  # type: ignore[arg-type]
    forge.create_comment(7, f"the model said {secret}")
    forge.create_issue(f"title {secret}", f"body {secret}")
    forge.edit_issue(7, body=f"edited {secret}")
    assert posted and all(secret not in text for text in posted)
    assert all("[redacted]" in text for text in posted)
