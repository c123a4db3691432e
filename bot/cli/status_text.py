"""``rfd status`` on a terminal: the view's fields, reviews, phases and actions as grids and
the Decision block's table as a table (rich), each wrapped at word boundaries.

The text is the same as :func:`bot.lifecycle.views.to_text` (the plain form other commands
and the bot use); only the layout differs.  rich is imported when this module is.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from bot.lifecycle.views import StatusView


def renderable(view: StatusView, decision: list[str]) -> RenderableType:
    """The whole of ``rfd status``: what :func:`to_text` says, then the Decision block."""
    parts: list[RenderableType] = [Text(f"RFD {view.rfd_id}: {view.title}", style="bold"),
                                   Text(view.path), Text("")]  # fmt: skip
    parts.append(_grid([(f"{key}:", value) for key, value in view.lines]))
    parts += [_grid([(f"  {i}.", r.partition(". ")[2] or r) for i, r in _numbered(view.reviews)])]
    if view.phases and view.stage != "final":
        parts.append(_grid([(f"  [{'x' if p.done else ' '}] {p.label or p.number}.",
                             p.title + (f" ({p.summary})" if p.summary else ""))
                            for p in view.phases]))  # fmt: skip
    parts.append(_grid([("!", problem) for problem in view.problems]))
    if view.actions:
        parts += [Text(""), Text("Actions:", style="bold")]
        parts.append(_grid([(f"  {a.command}", a.description) for a in view.actions], gap=3))
    if decision:
        parts += [Text(""), *_decision(decision)]
    return Group(*parts)


def _numbered(reviews: tuple[str, ...]) -> list[tuple[int, str]]:
    return list(enumerate(reviews, start=1))


def _grid(rows: list[tuple[str, str]], gap: int = 1) -> RenderableType:
    """Two columns: the first never wrapped, the second wrapped under itself."""
    if not rows:
        return Group()
    grid = Table.grid(padding=(0, gap))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for key, value in rows:
        grid.add_row(Text(key), Text(value))
    return grid


def _decision(block: list[str]) -> list[RenderableType]:
    """The block's heading in bold, its table and lines as Markdown renders them."""
    heading, *rest = block
    return [Text(heading.lstrip("# "), style="bold"), Markdown("\n".join(rest), hyperlinks=False)]
