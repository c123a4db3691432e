"""An accepted RFD's pull request merged by squash or by rebase, the way most repositories
merge: afterwards every page still says who accepted it with whose sign-offs, and every
commit it links exists on GitHub.

The git side is real (an origin repository with ``refs/pull/2/head``, which GitHub keeps
after the merge and after the branch is deleted); GitHub's side is replayed.  A squash
leaves the bot's accept and sign-off commits off ``main`` (the merge makes one new commit),
a rebase copies them with new shas: the Decision block links the pull request's own
commits, which stay reachable through its ref, and names the commit the merge made.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from bot.cli.main import main as rfd
from tests.conftest import git, lines
from tests.github_world import BRANCH, CONFIG, RFD_PATH, RFD_TEXT, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
CONSENSUS = """
[consensus]
reviewers = ["hubot", "@Codertocat/architects"]
approvals = 2
"""
WEB = "https://github.com/Codertocat/Hello-World"
STATUS_MARK = "<!-- rfd-bot:status:2 -->"
PULL_REF = "refs/pull/2/head"
GITHUB = ("-c", "user.name=GitHub", "-c", "user.email=noreply@github.com")
MERGER = ("-c", "user.name=Codertocat", "-c", "user.email=codertocat@example.com")
_COMMIT = re.compile(r"\]\(" + re.escape(WEB) + r"/commit/([0-9a-f]{40})\)")
_BLOB = re.compile(r"\]\(" + re.escape(WEB) + r"/blob/([^/)]+)/([^)#\s]+)\)")


def comment(body: str, sender: str, cid: int) -> dict[str, object]:
    changes = {
        "comment.body": body,
        "comment.user.login": sender,
        "sender.login": sender,
        "comment.id": cid,
        "comment.html_url": f"{WEB}/pull/2#issuecomment-{cid}",
    }
    return payload("issue_comment.created.pr", **changes)


def sent(vcr: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """The bot's writes so far, in order: method, path, JSON body."""
    out = []
    for request in (vcr.requests[i] for i in sorted(i for i, n in vcr.play_counts.items() if n)):
        if request.method in ("POST", "PATCH") and request.body:
            data = json.loads(request.body)
            out.append((request.method, request.path, data if isinstance(data, dict) else {}))
    return out


def status(vcr: Any) -> str:
    """PR 2's status comment as it reads now (its last write)."""
    return [d["body"] for _, _, d in sent(vcr) if STATUS_MARK in d.get("body", "")][-1]


def decision(text: str) -> list[str]:
    """The lines of the Decision block a reader sees."""
    block = text.split("#### Decision\n\n", 1)[1].split("\n\n<sub>", 1)[0]
    return lines(block)


def commits_exist(origin: Path, text: str) -> list[str]:
    """The commits ``text`` links, each checked to exist in the repository GitHub serves."""
    shas = _COMMIT.findall(text)
    for sha in shas:
        assert git(origin, "cat-file", "-t", sha).strip() == "commit", sha
    return shas


def files_exist(origin: Path, text: str) -> None:
    """Every file ``text`` links is there at the ref it names."""
    for ref, path in _BLOB.findall(text):
        shown = git(origin, "cat-file", "-t", f"{unquote(ref)}:{unquote(path)}")
        assert shown.strip() == "blob", (ref, path)


def on(origin: Path, ref: str, sha: str) -> bool:
    """Is commit ``sha`` in the history of ``ref``?"""
    try:
        git(origin, "merge-base", "--is-ancestor", sha, ref)
    except subprocess.CalledProcessError:  # git says no with exit code 1
        return False
    return True


def accepted_pr(tmp: Path, vcr: Any) -> tuple[Path, Path, str]:
    """hubot and mona sign off, hubot accepts: ``(origin, checkout, the reply's text)``."""
    origin, checkout = make_world(
        tmp, {".github/rfd.toml": CONFIG + CONSENSUS}, {RFD_PATH: RFD_TEXT}
    )
    for cid, login, said in ((1001, "hubot", "approve"), (1002, "mona", "approve")):
        assert run_bot(tmp, checkout, "issue_comment", comment(f"/rfd {said}", login, cid)) == 0
    assert run_bot(tmp, checkout, "issue_comment", comment("/rfd accept", "hubot", 1006)) == 0
    git(origin, "update-ref", PULL_REF, f"refs/heads/{BRANCH}")  # as GitHub keeps it
    reply = [d["body"] for _, p, d in sent(vcr) if "c1006-accept" in d.get("body", "")][-1]
    return origin, checkout, reply


def merge(tmp: Path, origin: Path, how: str) -> str:
    """Merge PR 2 into ``main`` as GitHub's button does ``how`` (main moved on meanwhile),
    delete its branch; the sha GitHub's payload gives as ``merge_commit_sha``."""
    work = tmp / "merger"
    git(tmp, "clone", "-q", str(origin), str(work))
    (work / "NEWS.md").write_text("Something else landed first.\n", encoding="utf-8")
    git(work, "add", "NEWS.md")
    git(work, *MERGER, "commit", "-q", "-m", "news")
    if how == "squash":  # one new commit, authored by who merged
        git(work, "merge", "-q", "--squash", f"origin/{BRANCH}")
        git(work, *MERGER, "commit", "-q", "-m", "RFD 045: Streaming exports (#2)")
    else:  # each commit copied onto main, committed by GitHub
        git(work, "checkout", "-q", "-b", "landing", f"origin/{BRANCH}")
        git(work, *GITHUB, "rebase", "-q", "main")
        git(work, "checkout", "-q", "main")
        git(work, "merge", "-q", "--ff-only", "landing")
    git(work, "push", "-q", "origin", "main")
    git(origin, "update-ref", "-d", f"refs/heads/{BRANCH}")
    return git(origin, "rev-parse", "main").strip()


def closed(merge_commit: str, number: int = 2, labels: tuple[str, ...] = ()) -> dict[str, Any]:
    """GitHub's ``pull_request`` closed event of a merged PR."""
    data = payload("pull_request.reopened", action="closed")
    found = [{"id": 1, "name": n, "color": "1f883d", "default": False} for n in labels]
    data["pull_request"].update(
        state="closed", merged=True, merge_commit_sha=merge_commit, number=number, labels=found
    )
    data["number"] = number
    return data


def after_the_merge(tmp: Path, vcr: Any, how: str) -> tuple[Path, Path, str, str]:
    """PR 2 accepted then merged ``how``: ``(origin, checkout, the accept reply, the merge
    commit)``, the closed event handled."""
    origin, checkout, reply = accepted_pr(tmp, vcr)
    merged = merge(tmp, origin, how)
    git(checkout, "pull", "-q", "--ff-only", "origin", "main")
    assert (
        run_bot(tmp, checkout, "pull_request_target", closed(merged, labels=("rfd: accepted",)))
        == 0
    )
    return origin, checkout, reply, merged


def link(sha: str) -> str:
    return f"[`{sha[:7]}`]({WEB}/commit/{sha})"


def the_pages_after(origin: Path, vcr: Any, reply: str, merged: str) -> list[str]:
    """What every kind of merge leaves: the Decision names hubot and both sign-offs at the
    PR's own commits (the accept commit is the bot's, the one its reply linked), the commit
    the merge made on main is named, the tracking issue links main, every link resolves."""
    accept = git(origin, "rev-parse", PULL_REF).strip()  # the bot's accept commit
    signed_at = git(  # the author's commit: the RFD as hubot and mona signed it off
        origin, "log", "--diff-filter=A", "--format=%H", PULL_REF, "--", RFD_PATH
    ).strip()
    *_, before, text = [d["body"] for _, _, d in sent(vcr) if STATUS_MARK in d.get("body", "")]
    assert "— Accepted" in before and "**Merged into `main`** as Accepted." in text
    assert decision(text)[0] == decision(before)[0]  # the same links before and after
    assert decision(text) == [
        f"✅ Accepted by @\u200bhubot at {link(accept)} with the sign-offs of @\u200bhubot "
        f"(at {link(signed_at)}), @\u200bmona (at {link(signed_at)}).",
        "The commits linked are this pull request's own, which GitHub keeps with it; its "
        f"merge brought the accepted RFD to `main` as {link(merged)}.",
    ]
    for sha in commits_exist(origin, text):
        assert on(origin, PULL_REF, sha) or on(origin, "main", sha), sha
    assert not on(origin, "main", accept)  # its shown commit is the PR's, not main's
    files_exist(origin, text)
    assert lines(text)[-1] == (
        "<sub>Final: this pull request is merged · rfd-bot updates this comment only when the "
        "RFD's status changes</sub>"
    )
    # the accept reply's "Committed as" still opens the bot's commit: the PR keeps it
    (committed,) = commits_exist(origin, reply)
    assert committed == accept and f"Committed as [`{accept[:12]}`]" in reply
    tracking = [d["body"] for _, p, d in sent(vcr) if p.endswith("/issues/12")][-1]
    assert f"/blob/{BRANCH}/" not in tracking and f"{WEB}/blob/main/{RFD_PATH}" in tracking
    files_exist(origin, tracking)
    return decision(text)


@pytest.mark.vcr
def test_a_squash_merge_keeps_who_accepted_and_links_commits_that_exist(
    tmp_path: Path, vcr: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    origin, checkout, reply, merged = after_the_merge(tmp_path, vcr, "squash")
    assert len(git(origin, "rev-list", "--parents", "-n1", "main").split()) == 2  # no merge
    decided = the_pages_after(origin, vcr, reply, merged)

    # `rfd status` on main after the squash: what was decided, never "ready to accept"
    capsys.readouterr()
    assert rfd(["-C", str(checkout), "status", "045", "--json"]) == 0
    block = json.loads(capsys.readouterr().out)["decision"]["block"]
    accepted = git(origin, "rev-parse", f"main:{RFD_PATH}").strip()
    signed = git(origin, "rev-parse", f"{PULL_REF}~2:{RFD_PATH}").strip()
    assert (
        block[-1]
        == (  # the revisions as git blobs: a terminal has no commit page
            f"✅ Accepted by @\u200bhubot at `{accepted[:7]}` with the sign-offs of "
            f"@\u200bhubot (at `{signed[:7]}`), @\u200bmona (at `{signed[:7]}`)."
        )
    )

    # PR 4 (the RFD Implemented) squash-merged too: PR 2 keeps its Decision
    work = tmp_path / "merger"
    git(work, "pull", "-q", "origin", "main")
    text = (work / RFD_PATH).read_text(encoding="utf-8")
    (work / RFD_PATH).write_text(text.replace("Accepted", "Implemented"), encoding="utf-8")
    git(work, *MERGER, "commit", "-q", "-am", "RFD 045: Implemented (#4)")
    git(work, "push", "-q", "origin", "main")
    git(checkout, "pull", "-q", "--ff-only", "origin", "main")
    done = closed(git(origin, "rev-parse", "main").strip(), number=4)
    done["pull_request"]["head"]["ref"] = "rfd/045-implemented"
    assert run_bot(tmp_path, checkout, "pull_request_target", done) == 0
    later = status(vcr)
    assert f"Since then: RFD 045 is Implemented on `main` — [#4]({WEB}/pull/4)" in later
    assert decision(later) == decided
    commits_exist(origin, later)


@pytest.mark.vcr
def test_a_rebase_merge_keeps_who_accepted_and_links_commits_that_exist(
    tmp_path: Path, vcr: Any
) -> None:
    origin, _, reply, merged = after_the_merge(tmp_path, vcr, "rebase")
    accept = git(origin, "rev-parse", PULL_REF).strip()
    assert merged != accept  # new shas
    the_pages_after(origin, vcr, reply, merged)
