"""One RFD's life on GitHub, run after run through `rfd bot`, read as its people read it.

At every step: where the RFD stands, the next step and who may take it, that the command
named as next works where it is named, how many comments the bot has written on the RFD's
pull request, that no page still shows an earlier state, and that every link in every post
resolves at that moment (files at the PR's head before the merge, on `main` after).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from tests.conftest import bodies_sent, git, lines
from tests.github_world import BRANCH, CONFIG, RFD_PATH, RFD_TEXT, make_world, payload, run_bot

pytestmark = pytest.mark.usefixtures("all_played", "fixed_git_dates")
CONSENSUS = """
[consensus]
reviewers = ["hubot", "@Codertocat/architects"]
approvals = 2
"""
WEB = "https://github.com/Codertocat/Hello-World"
PR_URL = f"{WEB}/pull/2"
STATUS_MARK = "<!-- rfd-bot:status:2 -->"
DONE = "rfd/045-implemented"
_LINK = re.compile(r"\]\((https?://[^\s)]+)\)")


class Page:
    """What GitHub shows, rebuilt from the bot's writes in the cassette so far."""

    def __init__(self, vcr: Any, origin: Path) -> None:
        self.vcr, self.origin = vcr, origin
        self.issues = {2}  # the RFD's pull request

    def writes(self) -> list[tuple[str, str, dict[str, Any]]]:
        out = []
        played = sorted(i for i, n in self.vcr.play_counts.items() if n)  # so far, in order
        for r in (self.vcr.requests[i] for i in played):
            if r.method in ("POST", "PATCH") and r.body:
                data = json.loads(r.body)
                out.append((r.method, r.path, data if isinstance(data, dict) else {}))
        return out

    def comments_on(self, number: int) -> list[str]:
        """Bodies of the comments the bot posted on #number (each once, at its last edit)."""
        path = f"/repos/Codertocat/Hello-World/issues/{number}/comments"
        return [d["body"] for m, p, d in self.writes() if m == "POST" and p == path]

    def last(self, mark: str) -> str:
        """The bot's comment carrying ``mark`` as it reads now (its last write)."""
        return [d["body"] for _, _, d in self.writes() if mark in d.get("body", "")][-1]

    def status(self) -> str:
        """The status comment of PR 2 as it reads now (its last write)."""
        found = [d["body"] for _, _, d in self.writes() if STATUS_MARK in d.get("body", "")]
        return found[-1]

    def links_resolve(self, text: str) -> None:
        """Every link of ``text`` leads somewhere now: a file at its ref in the repository,
        an issue or pull request that exists."""
        for url in _LINK.findall(text):
            url = url.split("#")[0]
            if url.startswith(f"{WEB}/blob/"):
                ref, _, path = url.removeprefix(f"{WEB}/blob/").partition("/")
                shown = git(self.origin, "cat-file", "-t", f"{unquote(ref)}:{unquote(path)}")
                assert shown.strip() == "blob", url
            elif m := re.fullmatch(rf"{WEB}/(?:pull|issues)/(\d+)", url):
                assert int(m[1]) in self.issues, url


def standing(status: str) -> str:
    """The status comment's heading: the RFD and where it stands (after the hidden markers)."""
    return next(line for line in status.splitlines() if line.startswith("### "))


def decision(text: str) -> str:
    """The line of the Decision block: who accepted, at which commit, with whose sign-offs."""
    return text.split("#### Decision\n\n", 1)[1].split("\n", 1)[0]


def accepted_by(sha: str, signed_at: str) -> str:
    """hubot accepted at the bot's commit ``sha``, with the sign-offs hubot and mona gave on
    the commit ``signed_at`` (logins shown as text: no mention pings them again)."""
    signed = f"[`{signed_at[:7]}`]({WEB}/commit/{signed_at})"
    return (
        f"✅ Accepted by @\u200bhubot at [`{sha[:7]}`]({WEB}/commit/{sha}) with the sign-offs "
        f"of @\u200bhubot (at {signed}), @\u200bmona (at {signed})."
    )


def next_step(status: str) -> str:
    return status.split("**Next step:**", 1)[1].split("\n", 1)[0].strip()


def who_may(status: str) -> str:
    return status.split("<sub>Who may: ", 1)[1].split("</sub>", 1)[0]


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    return make_world(tmp_path, {".github/rfd.toml": CONFIG + CONSENSUS}, {RFD_PATH: RFD_TEXT})


def comment(body: str, sender: str, cid: int) -> dict[str, object]:
    changes = {
        "comment.body": body,
        "comment.user.login": sender,
        "sender.login": sender,
        "comment.id": cid,
        "comment.html_url": f"{PR_URL}#issuecomment-{cid}",
    }
    return payload("issue_comment.created.pr", **changes)


@pytest.mark.vcr
def test_one_rfd_from_its_first_review_to_implemented(
    tmp_path: Path, world: tuple[Path, Path], vcr: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    origin, checkout = world
    page = Page(vcr, origin)

    def say(body: str, sender: str, cid: int) -> None:
        assert run_bot(tmp_path, checkout, "issue_comment", comment(body, sender, cid)) == 0
        git(checkout, "fetch", "-q", "origin")

    signed_at = reviewed_pushed_reviewed_refined_dismissed(tmp_path, page, monkeypatch, say)
    # discussion: two sign-offs answered by a reaction and the status comment alone
    say("/rfd approve", "hubot", 1001)
    say("/rfd approve", "mona", 1002)
    assert len(page.comments_on(2)) == OPENING  # no reply to either
    say("/rfd concern Proxies may buffer the chunked response", "mona", 1003)
    status = page.status()
    assert "— Discussion" in standing(status)
    assert next_step(status).startswith(
        "Concern 1 by mona is open: mona or a maintainer (Codertocat) resolves it"
    )  # the repository's maintainers, as GitHub lists its collaborators
    assert "(`/rfd resolve 1`)" in next_step(status)
    page.links_resolve(status)
    # accept while the concern is open: refused, and the reply names the concern
    say("/rfd accept", "hubot", 1004)
    refusal = page.comments_on(2)[-1]
    assert "- concern 1 by mona is open: Proxies may buffer the chunked response" in refusal
    assert "- **Status**: Discussion" in git(origin, "show", f"{BRANCH}:{RFD_PATH}")
    say("/rfd resolve 1", "mona", 1005)
    status = page.status()
    assert "`/rfd accept`" in next_step(status)  # named as next, and it works:
    assert who_may(status) == (
        "Codertocat, hubot, mona (write access or more); `/rfd accept` and `rfd:accept`: "
        "the same people, other than the RFD's author."
    )
    page.links_resolve(status)

    say("/rfd accept", "hubot", 1006)
    assert "- **Status**: Accepted" in git(origin, "show", f"{BRANCH}:{RFD_PATH}")
    page.issues.add(12)
    (tracking,) = [d["body"] for m, p, d in page.writes() if p.endswith("/Hello-World/issues")]
    assert f"Discussed in [#2]({PR_URL})" in tracking
    page.links_resolve(tracking)  # the RFD at the PR's head: not on main before the merge
    status = page.status()
    assert "— Accepted" in standing(status)
    assert "Ready to accept" not in status and "older revision" not in status
    accepted_at = git(origin, "rev-parse", BRANCH).strip()  # the bot's accept commit
    decided = accepted_by(accepted_at, signed_at)
    assert decision(status) == decided  # who, at which commit, with whose sign-offs
    page.links_resolve(status)
    assert len(page.comments_on(2)) <= 6

    # the merge: the status comment's final state, the tracking issue links main now
    git(origin, "update-ref", "refs/pull/2/head", f"refs/heads/{BRANCH}")  # GitHub keeps it
    git(origin, "update-ref", "refs/heads/main", f"refs/heads/{BRANCH}")
    git(checkout, "pull", "-q", "--ff-only", "origin", "main")
    merged = payload("pull_request.reopened", action="closed")
    label = {"id": 1, "name": "rfd: accepted", "color": "1f883d", "default": False}
    merged["pull_request"].update(state="closed", merged=True, labels=[label])
    assert run_bot(tmp_path, checkout, "pull_request_target", merged) == 0
    git(origin, "update-ref", "-d", f"refs/heads/{BRANCH}")  # the head branch deleted
    status = page.status()
    assert "**Merged into `main`** as Accepted." in status
    assert "merge this pull request" not in status and "Next step" not in status
    assert f"tracking issue [#12]({WEB}/issues/12)" in status
    assert decision(status) == decided  # the decision stays on the page people find
    page.links_resolve(status)
    tracking = [d["body"] for m, p, d in page.writes() if p.endswith("/issues/12")][-1]
    assert f"/blob/{BRANCH}/" not in tracking
    page.links_resolve(tracking)
    assert len(page.comments_on(2)) <= 6

    # a command given where it does not work answers with the place where it does
    say("/rfd implement", "hubot", 1007)
    misplaced = page.comments_on(2)[-1]
    assert f"works on its tracking issue: comment it on [#12]({WEB}/issues/12)" in misplaced
    page.links_resolve(misplaced)
    refusals = 2  # accept while a concern was open, and this one

    # the merged PR sent people to the tracking issue, where `/rfd implement` works: each
    # phase's one comment (its progress) ends in the pull request it opened; then it is merged
    scripted_model(monkeypatch)
    for n, (cid, number) in enumerate(((2101, 13), (2102, 14)), start=1):
        before = len(page.comments_on(12))
        assert run_bot(tmp_path, checkout, "issue_comment", on_tracking("/rfd implement", cid)) == 0
        page.issues.add(number)
        assert len(page.comments_on(12)) == before + 1  # the answer is the phase's comment
        said = page.last(f"<!-- rfd-bot:implement:045-{n} -->")
        assert f"### ✅ RFD 045, phase {n}: " in said  # ended: the pull request it opened
        assert f"[#{number}]({WEB}/pull/{number})" in said
        page.links_resolve(said)
        tracking = [d["body"] for m, p, d in page.writes() if p.endswith("/issues/12")][-1]
        assert f"— [#{number}]({WEB}/pull/{number})" in tracking
        page.links_resolve(tracking)
        git(origin, "update-ref", "refs/heads/main", f"refs/heads/rfd/045-phase-{n}")  # merged
        git(checkout, "pull", "-q", "--ff-only", "origin", "main")
    assert len(page.comments_on(2)) - refusals <= 6  # nothing more on the RFD's PR

    # `/rfd status` on the tracking issue names the next step, and the command it names
    # works there
    assert run_bot(tmp_path, checkout, "issue_comment", on_tracking("/rfd status", 2001)) == 0
    said = page.comments_on(12)[-1]
    assert "`/rfd done`" in said.split("**Next step:**", 1)[1]
    page.links_resolve(said)
    assert run_bot(tmp_path, checkout, "issue_comment", on_tracking("/rfd done", 2002)) == 0
    page.issues.add(4)
    assert "- **Status**: Implemented" in git(origin, "show", f"{DONE}:{RFD_PATH}")
    pr_4 = [d for m, p, d in page.writes() if p.endswith("/Hello-World/pulls")][-1]
    assert pr_4["head"] == DONE
    assert "Closes #12" in pr_4["body"]
    opened = page.comments_on(12)[-1]
    assert f"Opened {WEB}/pull/4" in opened and "merges it" in opened
    page.links_resolve(opened)
    assert len(page.comments_on(2)) - refusals <= 6  # nothing more on the RFD's PR

    # PR 4 merged: Implemented on main; no page still says Accepted
    git(origin, "update-ref", "refs/heads/main", f"refs/heads/{DONE}")
    git(checkout, "pull", "-q", "--ff-only", "origin", "main")
    done = payload("pull_request.reopened", action="closed")
    done["pull_request"].update(state="closed", merged=True, number=4, labels=[])
    done["pull_request"]["head"]["ref"] = DONE
    done["number"] = 4
    assert run_bot(tmp_path, checkout, "pull_request_target", done) == 0
    status = page.status()
    assert f"Since then: RFD 045 is Implemented on `main` — [#4]({WEB}/pull/4)" in status
    assert "as Accepted" not in status
    assert decision(status) == decided  # later transitions keep who accepted, and where
    page.links_resolve(status)
    (final_4,) = page.comments_on(4)
    assert "**Merged into `main`** as Implemented." in final_4
    page.links_resolve(final_4)
    assert len(page.comments_on(2)) - refusals <= 6
    # the merge's push to main: the tracking issue, all phases ticked, closes as completed
    push = payload("push")
    push["commits"][0]["added"] = [RFD_PATH]
    assert run_bot(tmp_path, checkout, "push", push) == 0
    tracking, closing = [d for m, p, d in page.writes() if p.endswith("/issues/12")][-2:]
    assert "2/2 phases" in tracking["body"] and "- [ ]" not in tracking["body"]
    page.links_resolve(tracking["body"])
    assert closing == {"state": "closed", "state_reason": "completed"}
    the_rfd_pr_got_few_comments_and_ends_where_the_rfd_lives_on(page, vcr, decided)


HAPPY_PATH_COMMENTS = 6
"""At most this many bot comments on one RFD's PR on the happy path (the status comment
edited in place, the reviews, one reply per long run), on top of the status comment."""


def the_rfd_pr_got_few_comments_and_ends_where_the_rfd_lives_on(
    page: Page, vcr: Any, decided: str
) -> None:
    """The whole life, counted as the PR's readers see it: the status comment (edited in
    place), the accept's answer, and a reply only where a command was refused or misplaced;
    the status comment's last text is what a reader finds afterwards."""
    posted = page.comments_on(2)
    assert [first_line(c) for c in posted] == [
        "### 🔍 Review 1 of RFD 045 — no findings",
        standing(posted[1]),  # the status comment, posted with the first review
        "### 🔍 Review 2 of RFD 045 — 1 minor",
        "### ⏳ Refining RFD 045",  # its one comment, edited as it runs until it ends
        "RFD 045 cannot be accepted yet: it lacks its sign-offs.",
        "🚀 RFD 045 is Accepted: 2 phases, tracking issue #12.",
        f"`/rfd implement` for RFD 045 works on its tracking issue: comment it on [#12]"
        f"({WEB}/issues/12).",
    ]
    assert posted[1].startswith(STATUS_MARK) and standing(posted[1]).endswith(" — Discussion")
    refused = [c for c in posted if "cannot be accepted yet" in c or "works on its" in c]
    happy = len(posted) - len(refused) - 1  # the status comment itself is not counted
    assert happy == 4 <= HAPPY_PATH_COMMENTS  # two reviews, refine's, the accept's answer
    final = page.status()
    assert final in bodies_sent(vcr)  # what GitHub shows is the last text the bot sent
    assert lines(final) == [
        f"### [RFD 045: Streaming exports]({WEB}/blob/main/{RFD_PATH})",
        "**Merged into `main`.**",
        f"Its implementation is followed on tracking issue [#12]({WEB}/issues/12), where the "
        "phases are ticked and the next command is named (`/rfd status` there says where it "
        "stands).",
        f"Since then: RFD 045 is Implemented on `main` — [#4]({WEB}/pull/4) made it so.",
        "#### Decision",
        decided,
        "<sub>Final: this pull request is merged · rfd-bot updates this comment only when the "
        "RFD's status changes</sub>",  # as it just did: the footer said the truth
    ]


def first_line(text: str) -> str:
    return lines(text)[0]


OPENING = 4
"""The PR's bot comments before the sign-offs: the status comment, two reviews, refine's."""
TODO = "A generator yields CSV rows (TODO: the chunk size);"


def reviewed_pushed_reviewed_refined_dismissed(
    tmp_path: Path, page: Page, monkeypatch: pytest.MonkeyPatch, say: Any
) -> str:
    """The PR's first days: the review label, a push, `/rfd review`, `/rfd refine`, then
    `/rfd dismiss` of what refine addressed.  Returns the commit the RFD then stands at."""
    origin = page.origin
    checkout = tmp_path / "checkout"  # the bot's (run_bot's) checkout
    labeled = payload("pull_request.labeled.review")
    labeled["pull_request"]["head"]["sha"] = git(origin, "rev-parse", BRANCH).strip()
    assert run_bot(tmp_path, checkout, "pull_request_target", labeled) == 0
    first, status = page.comments_on(2)
    assert lines(first)[0] == "### 🔍 Review 1 of RFD 045 — no findings"
    assert "| [Review 1](" in status  # numbered as `/rfd dismiss` takes it
    page.links_resolve(status)

    pushed = author_pushes(tmp_path, origin)  # the review's TODO, the author's own
    sync = payload("pull_request.synchronize")
    sync["pull_request"]["head"]["sha"] = pushed
    discussing = {"id": 2, "name": "rfd: discussion", "color": "fbca04", "default": False}
    sync["pull_request"]["labels"] = [discussing]  # the label the first run gave it
    assert run_bot(tmp_path, checkout, "pull_request", sync) == 0
    assert "older revision" in page.last("<!-- rfd-bot:review:045:")
    assert "(older)" in page.status()

    say("/rfd review", "Codertocat", 991)
    second = page.comments_on(2)[-1]
    assert lines(second)[0].startswith("### 🔍 Review 2 of RFD 045")
    assert "TODO" in second

    refine_model(monkeypatch)
    say("/rfd refine", "Codertocat", 992)
    refined = page.last("<!-- rfd-bot:progress:c992-refine -->")  # its one comment, ended
    assert "- **Pass 1** (reviews): Design — Settled the chunk size." in refined
    assert TODO not in git(origin, "show", f"{BRANCH}:{RFD_PATH}")
    settled = refined.split("Once you agree they are settled: ", 1)[1].split("`")[1]
    assert settled.startswith("/rfd dismiss ")
    at = git(origin, "rev-parse", BRANCH).strip()  # the refined RFD: what is signed off

    say(settled, "Codertocat", 993)  # the command refine named works where it named it
    status = page.status()
    assert "No open reviews." in status
    page.links_resolve(status)
    assert len(page.comments_on(2)) == OPENING
    return at


def author_pushes(tmp_path: Path, origin: Path) -> str:
    """The PR's author pushes an edit of the RFD to its branch: its new head."""
    clone = tmp_path / "author"
    git(tmp_path, "clone", "-q", "--branch", BRANCH, str(origin), str(clone))
    text = (clone / RFD_PATH).read_text(encoding="utf-8")
    (clone / RFD_PATH).write_text(
        text.replace("A generator yields CSV rows;", TODO), encoding="utf-8"
    )
    git(clone, "commit", "-qam", "Design: the chunk size is open")
    git(clone, "push", "-q", "origin", BRANCH)
    return git(origin, "rev-parse", BRANCH).strip()


def refine_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model rewrites the Design section without the TODO, then has nothing to add."""
    from tests.fakes import ScriptedLLM, reply, scripted_providers

    design = "A generator yields CSV rows in chunks of 64 KiB; the endpoint streams them."
    revision = {
        "sections": [{"section": "Design", "content": design}],
        "notes": "Settled the chunk size.",
    }
    llm = ScriptedLLM(
        [reply("", ("submit_revision", revision)), reply("CONVERGED\nNothing to add.")]
    )
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))


def scripted_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model implements each phase in one item (research, plan, the item, the summary)."""
    from tests.fakes import ScriptedLLM, item_done, reply, scripted_providers

    texts = []
    for item, summary in (
        ("Write the CSV writer", "The writer streams rows."),
        ("Add the endpoint", "The endpoint streams the export."),
    ):
        texts += [reply("Research."), reply(f"- [ ] 1. {item}\n"), item_done("done")]
        texts.append(reply(summary))
    providers = scripted_providers(ScriptedLLM(texts))
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", providers)


def on_tracking(body: str, cid: int) -> dict[str, Any]:
    """``body`` commented by Codertocat on RFD 045's tracking issue #12."""
    data = payload("issue_comment.created.issue", **{"comment.body": body, "comment.id": cid})
    data["issue"]["body"] = "<!-- rfd-bot:tracking:045 -->\nTracking issue"
    data["issue"]["user"] = {**data["issue"]["user"], "login": "github-actions[bot]"}
    return data
