"""Cassettes of ``tests/test_github_cosmetics.py``: writes that only decorate a run's work
fail, the run's result stands.

hubot's sign-off is committed, then GitHub refuses the 🚀 (422); mona's is committed, then
GitHub refuses the status comment's edit (422).  Both runs end 0 and the job summary says
what failed.  (The label colour's refusal is in ``scenarios_finish``.)
"""

from __future__ import annotations

from typing import Any

from gh_data import call, error
from scenarios_consensus import STATUS, Thread, signed

Interaction = dict[str, Any]
C = "test_github_cosmetics/"
REACTIONS_DOC = (
    "https://docs.github.com/rest/reactions/reactions#create-reaction-for-an-issue-comment"
)
EDIT_DOC = "https://docs.github.com/rest/issues/comments#update-an-issue-comment"


def refused_cosmetics() -> list[Interaction]:
    pr = Thread()
    hubot = signed(pr, (1001, "hubot", "/rfd approve"), "maintain", team=False,
                   made=("3d69b677b3a437374c49ca8d57bdbac516edec81",
                         "0ee7a9bca6d6b1b4121c1341bed1ea76a927c217"),
                   status="consensus-status-hubot")  # fmt: skip
    hubot[-1] = call("POST", "/issues/comments/1001/reactions", body={"content": "rocket"},
                     status=422, reply=error("Validation Failed", REACTIONS_DOC, 422))  # fmt: skip
    mona = signed(pr, (1002, "mona", "/rfd approve"), "write", team=True,
                  made=("2f5c1e4557b64f3c4fbfa5a2cc082ab4125f124f",
                        "36bee8492c67d8cfc5671ac5376e5e122d1d941c"),
                  status="consensus-status-mona")  # fmt: skip
    (edit,) = [i for i in mona if i["request"]["method"] == "PATCH"]
    refused = call("PATCH", f"/issues/comments/{STATUS}", status=422,
                   reply=error("Validation Failed", EDIT_DOC, 422))  # fmt: skip
    edit["response"] = refused["response"]
    return [*hubot, *mona]


CASSETTES = {
    C + "test_a_refused_reaction_or_status_edit_is_a_warning_not_a_failed_run": (
        refused_cosmetics()
    ),
}
