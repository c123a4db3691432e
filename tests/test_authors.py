"""An RFD's authors: the PR's author, the users behind the commits that wrote it, and
whoever its `Authors` field names, in every form people write."""

from __future__ import annotations

import pytest

from bot.core.authors import CommitBy, Named, author_logins, login_of, named


@pytest.mark.parametrize(
    ("entry", "logins", "emails"),
    [
        ("Mona Lisa <mona@example.com>", set(), {"mona@example.com"}),
        ("Mona Lisa (@MonaLisa)", {"monalisa"}, set()),
        ("[@mona-lisa](https://github.com/mona-lisa)", {"mona-lisa"}, set()),
        ("[Mona](https://github.com/Mona)", {"mona"}, set()),
        ("@octocat", {"octocat"}, set()),
        ("octocat", {"octocat"}, set()),
        ("Mona Lisa", set(), set()),  # a name alone names no account
        ("mona@example.com", set(), {"mona@example.com"}),
        ("Mona <1+mona@users.noreply.github.com>", set(), {"1+mona@users.noreply.github.com"}),
    ],
)
def test_every_form_of_authors_entry(entry: str, logins: set[str], emails: set[str]) -> None:
    assert named([entry]) == Named(frozenset(logins), frozenset(emails))


def test_noreply_emails_stand_for_their_login() -> None:
    assert login_of("583231+Octocat@users.noreply.github.com") == "octocat"
    assert login_of("octocat@users.noreply.github.com") == "octocat"
    assert login_of("octocat@example.com") is None


PR_COMMITS = [
    CommitBy("a1", ("mona",), ("mona@example.com",)),
    CommitBy("b2", ("hubot",), ("hubot@example.com",)),
]


def test_the_email_in_authors_names_the_user_behind_its_commits() -> None:
    names = named(["Mona Lisa <MONA@example.com>"])
    logins = author_logins("octocat", names, PR_COMMITS, writers=[])
    assert logins == {"octocat", "mona"}


def test_whoever_wrote_the_file_is_an_author() -> None:
    writers = [
        CommitBy("b2", (), ("hubot@example.com",)),
        CommitBy("c3", (), ("9+Ann@users.noreply.github.com",)),
    ]
    logins = author_logins("octocat", named(["Someone Else"]), PR_COMMITS, writers)
    assert logins == {"octocat", "hubot", "ann"}
