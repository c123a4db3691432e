"""Cassettes of the review comments kept in line with the branch (``tests/test_github_slash.py``).

PR 2 holds three reviews, each posted by the bot under its number; ``/rfd dismiss 1 3``
removes the files of the first and the third: their comments are edited to say they were
dismissed and by whom (their text folded), the second one moves up to number 1, and the
status comment lists it alone, the two dismissed ones folded away.
"""

from __future__ import annotations

from typing import Any

from gh_data import COLLABORATORS, call, comment
from scenarios_bot import (
    DISMISS_SOME_COMMIT,
    HEAD,
    PULL,
    RFD_BLOB,
    SLASH_FILES,
    C,
    body,
    perm,
    react,
    rockets,
    status_posted,
)

Interaction = dict[str, Any]
STAMPS = (1795820000, 1795825000, 1795830000)
FOOTER = "<sub>model `m` · of `{sha}` · saved as `docs/rfd/.state/045/reviews/{stamp}.md`</sub>"


def posted_review(n: int) -> dict[str, Any]:
    """Review ``n`` as the bot posted it (of the PR's head, its file on the branch)."""
    markers = (
        f"<!-- rfd-bot:review:045:{HEAD[:12]} -->\n<!-- rfd-bot:head:{HEAD[:12]} -->\n"
        f"<!-- rfd-bot:blob:{RFD_BLOB[:12]} -->"
    )
    text = (
        f"### 🔍 Review {n} of RFD 045 — no findings\n\n**Nothing to fix** as far as this "
        "review sees."
    )
    footer = FOOTER.format(sha=HEAD[:12], stamp=STAMPS[n - 1])
    return comment(940 + n, 2, f"{markers}\n{text}\n\n{footer}")


def edited(n: int, name: str) -> Interaction:
    text = body(name)
    return call(
        "PATCH", f"/issues/comments/{940 + n}", body={"body": text}, reply=comment(940 + n, 2, text)
    )


def dismissed_by_number() -> list[Interaction]:
    listed = [posted_review(n) for n in (1, 2, 3)]
    return [
        call("GET", "/issues/2/comments", query="per_page=100", reply=listed),
        rockets(),
        perm("Codertocat", "admin"),
        react("eyes"),
        PULL,
        SLASH_FILES,
        COLLABORATORS,
        *status_posted("status-dismissed-folded", made=DISMISS_SOME_COMMIT),
        edited(1, "review-1-dismissed"),
        edited(2, "review-2-renumbered"),
        edited(3, "review-3-dismissed"),
        react("rocket"),
    ]


CASSETTES = {
    C + "test_dismiss_folds_the_dismissed_review_comments_and_moves_the_rest_up": (
        dismissed_by_number()
    ),
}
