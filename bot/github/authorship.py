"""Is the one acting an author of the RFD?  One check for everything an author may not do:
approve it, accept it, resolve a concern someone else raised on it.

The authors are every form :mod:`bot.core.authors` reads: the pull request's author,
the ``Authors`` field (``Name (@login)``, ``[@login](https://github.com/login)``,
``@login``, a plain login, ``Name <email>``), and the users GitHub says made the
commits that wrote the file or that carry an author's email.  The commits are asked
of GitHub only when the cheaper evidence does not already say yes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.core import authors
from bot.forge.base import PullRequest
from bot.github.checkout import Checkout, writers
from bot.github.run import Context

if TYPE_CHECKING:
    from bot.model.document import Document


def is_author(
    ctx: Context, pr: PullRequest, checkout: Checkout, docs: Iterable[Document], login: str
) -> bool:
    """Is ``login`` an author of any of ``docs`` (RFDs of ``pr`` in ``checkout``)?"""
    docs = list(docs)
    names = authors.named(a for d in docs for a in d.authors)
    wrote = [w for d in docs for w in writers(checkout, d.path)]
    if login.lower() in authors.author_logins(pr.author, names, [], wrote):
        return True
    commits = ctx.api.pull_commits(pr.number)
    return login.lower() in authors.author_logins(pr.author, names, commits, wrote)
