"""Cassettes of the tracking issue linking each phase's pull request across syncs.

``/rfd implement`` linked phase 1's PR (#3) on the tracking issue; the push of the merge,
which records the phase, ticks it and keeps that link beside the summary's.
"""

from __future__ import annotations

from gh_data import call
from scenarios_bot import CREATED_12, ISSUES_Q, body

P = "test_github_push/"
LINKED = {**CREATED_12, "body": body("tracking-pr-linked")}
TICKED = body("tracking-pr-linked-done")

CASSETTES = {
    P + "test_a_ticked_phase_keeps_its_pr_link_beside_its_summary": [
        call("GET", "/issues", query=ISSUES_Q, reply=[LINKED]),
        call("GET", "/issues/12", reply=LINKED),
        call("PATCH", "/issues/12", body={"body": TICKED}, reply={**LINKED, "body": TICKED}),
    ],
}
