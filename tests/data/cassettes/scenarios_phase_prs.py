"""Cassettes of the tracking issue linking each phase's pull request across syncs.

``/rfd implement`` linked phase 1's PR (#3) on the tracking issue; the push of the merge,
which records the phase, ticks it and keeps that link beside the summary's.
"""

from __future__ import annotations

import json

from gh_data import call, comment
from scenarios_bot import CASSETTES as CASSETTES_SLASH
from scenarios_bot import CREATED_12, ISSUES_Q, body, reply

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

# A hostile model drives `/rfd implement` (tests/test_implement_hostile.py): the PR is opened
# and linked on the tracking issue; the reply says what was discarded before the commit.
C = "test_github_slash/"
OPENED, HOSTILE = body("implement-opened"), body("implement-opened-hostile")  # its own tokens
CASSETTES["test_implement_hostile/test_the_bot_pushes_no_secret_and_no_protected_path"] = [
    *(call("PATCH", "/issues/comments/970", body={"body": HOSTILE},
           reply=comment(970, 12, HOSTILE))
      if exchange["request"]["body"] == json.dumps({"body": OPENED}) else exchange  # type: ignore[index]
      for exchange in CASSETTES_SLASH[C + "test_implement_opens_a_pr_for_the_next_phase"][:-1]),
    reply("slash-implement-hostile", number=12),
]  # fmt: skip
