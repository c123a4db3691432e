"""One table of hostile RFD text, run against every post the bot writes: the status comment,
the tracking issue and the replies.  Wherever a title, a phase title, a reviewer's name or
a concern's text lands, it reads as the text it is: no live link, autolink, entity,
mention, image, HTML or marker (all made inert by :mod:`bot.core.github_markdown`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from bot.config.schema import ConsensusSection
from bot.forge.base import Comment, Issue
from bot.github.accept import next_step
from bot.github.bot_records import followed_line, forged_line
from bot.github.failure import retry_text
from bot.github.followed import as_now
from bot.github.status_comment import Panel, Who, render
from bot.lifecycle import tracking
from bot.lifecycle.accept import AcceptOutcome
from bot.lifecycle.consensus_gate import block
from bot.model.consensus import Approval, Concern, Ledger, Step, forged
from bot.model.plan import PlanPhase
from bot.model.status import Status

HOSTILE = [
    "Setup [release notes](https://evil.example/p1)",
    "[release notes][1]\n\n[1]: https://evil.example/p2",
    "&#64;org/team and &commat;octocat",
    "&#x3C;img src=x&#x3E;",
    "<https://evil.example/p3>",
    "see https://evil.example/p4 or www.evil.example",
    "![pixel](https://evil.example/t.png)",
    "<img src=x onerror=alert(1)>",
    "<!-- rfd-bot:tracking:001 -->",
    "ping @octocat and @github/security",
    "mail me: mallory@evil.example",
]
URL = "https://github.com/o/r/blob/abc/docs/rfd/045-x.md"
WHO = Who("people with write access", "people with write access other than the RFD's author")
HTML = MarkdownIt("commonmark").enable("table")
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")


def live(markdown: str) -> list[str]:
    """What in ``markdown`` GitHub would make live: a link or image to the hostile site, an
    entity, a mention, a bare URL, HTML, or a marker the bot did not write."""
    ours = ("https://github.com/o/r", "docs/rfd")
    found = [
        f"href {h}"
        for h in re.findall(r'(?:href|src)="([^"]*)"', HTML.render(markdown))
        if "evil" in h or not h.startswith(ours)
    ]
    markdown = CODE_SPAN.sub("", markdown)  # text in a code span is shown as it is
    found += re.findall(r"&#?[A-Za-z0-9]+;", markdown)  # GitHub decodes it, then links it
    found += re.findall(r"(?<![\w`])@[A-Za-z0-9][\w/-]*", markdown)
    found += re.findall(r"https?://evil\S*|www\.evil\S*|\w@evil\S*", markdown)
    found += re.findall(r"<(?:img|https?:)[^>]*>", markdown)
    found += re.findall(r"<!-- rfd-bot:tracking:001 -->", markdown)
    return found


def status_comment(text: str) -> str:
    cfg = ConsensusSection(reviewers=(text, "hubot"), approvals=2, fcp_days=7)
    ledger = Ledger((Approval(text, "abc", 0.0, text),), (Concern(1, text, text),))
    decision = tuple(block(cfg, ledger, "045", "abc", 0.0, slash=True))
    panel = Panel(
        "045",
        text,
        URL,
        Status.DISCUSSION,
        next_phase=f"1: {text}",
        decision=decision,
        signed_off=False,
    )
    return render(
        [panel],
        head="abc",
        who=WHO,
        review_label="rfd:review",
        accept_label="rfd:accept",
        commands="",
    )


def tracking_issue(text: str) -> str:
    phases = (PlanPhase(text, "d", "1"), PlanPhase("Endpoint", "e", "2"))
    return tracking.render_body("045", text, "docs/rfd/045-x.md", phases, {2}, failed={1: text})


def accept_reply(text: str) -> str:
    issue = Issue(
        number=12, title=text, body="", state="open", url="https://github.com/o/r/issues/12"
    )
    outcome = AcceptOutcome(
        "045", (PlanPhase(text, "d", "1"),), "headings", issue, Path("x"), (), ""
    )
    return next_step([outcome], text)


def sign_off_reply(text: str) -> str:
    cfg = ConsensusSection(reviewers=(text,), approvals=1)
    ledger = Ledger((), (Concern(1, text, text, link=text),))
    return "\n".join(block(cfg, ledger, "045", "abc", 0.0, slash=True))


def failure_reply(text: str) -> str:
    return retry_text([f"RFD 045 accepted: committed to `{text}` as 0123456789ab", text])


def forged_note(text: str) -> str:
    """The line naming hand-written ledger entries (reply and Decision block), a login from the
    file being ``text``."""
    return forged_line("045", forged(Ledger((Approval(text, "abc", 0.0, text),)), Ledger()))


def followed_note(text: str) -> str:
    """The line saying what edited sign-off comments count for: a concern reworded to ``text``
    (one line of it: a command is one line), its author's login being ``text`` too."""
    first = next(line for line in text.splitlines() if line.strip())
    raised = Ledger((), (Concern(1, text, "Proxies may buffer"),))
    comment = Comment(1, f"/rfd concern {first}", "", text)
    _, notes = as_now(Step(Ledger(), raised, proven=True), comment)
    removed = as_now(Step(Ledger(), Ledger((Approval(text, "abc", 0.0, text),)), True), None)[1]
    return followed_line("045", [*notes.values(), *removed.values()])


POSTS = {
    "status comment": status_comment,
    "tracking issue": tracking_issue,
    "accept reply": accept_reply,
    "sign-off reply": sign_off_reply,
    "failure reply": failure_reply,
    "forged ledger note": forged_note,
    "edited sign-offs note": followed_note,
}


@pytest.mark.parametrize("post", list(POSTS.values()), ids=list(POSTS))
@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_is_inert_in_every_post(post: object, text: str) -> None:
    written = post(text)  # type: ignore[operator]
    assert live(written) == [], written


def test_the_checker_sees_what_would_be_live() -> None:
    """The table means something: raw hostile text is live by the same check."""
    for text in HOSTILE:
        assert live(text), text
