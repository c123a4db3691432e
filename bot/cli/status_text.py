"""``rfd status`` on a terminal: the view's fields, reviews, phases and actions as grids and
the Decision block's table as a table (rich), each wrapped at word boundaries.

The text is the same as :func:`bot.lifecycle.views.to_text` (the plain form other commands
and the bot use); only the layout differs.  The Decision block is the markdown the status
comment shows; its few constructs (a table, bullets, bold, code, links) are laid out here
rather than through ``rich.markdown``, whose parser would double what ``rfd status``
imports.  rich is imported when this module is.
"""

from __future__ import annotations

import re

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bot.lifecycle.views import StatusView


def renderable(view: StatusView, decision: list[str]) -> RenderableType:
    """The whole of ``rfd status``: what :func:`to_text` says, then the Decision block."""
    parts: list[RenderableType] = [
        Text(view.heading, style="bold"),
        Text(view.path),
        Text(""),
    ]
    parts.append(_grid([(f"{key}:", value) for key, value in view.lines]))
    parts += [_grid([(f"  {i}.", r.partition(". ")[2] or r) for i, r in _numbered(view.reviews)])]
    if view.phases and view.stage != "final":
        parts.append(
            _grid(
                [
                    (
                        f"  [{'x' if p.done else ' '}] {p.label or p.number}.",
                        p.title + (f" ({p.summary})" if p.summary else ""),
                    )
                    for p in view.phases
                ]
            )
        )
    parts.append(_grid([("!", problem) for problem in view.problems]))
    if view.actions:
        parts += [Text(""), Text("Actions:", style="bold")]
        parts.append(_grid([(f"  {a.command}", a.description) for a in view.actions], gap=3))
    if decision:
        parts += [Text(""), *_decision(decision)]
    return Group(*parts)


def _numbered(reviews: tuple[str, ...]) -> list[tuple[int, str]]:
    return list(enumerate(reviews, start=1))


def _grid(rows: list[tuple[str, str]], gap: int = 1, *, inline: bool = False) -> RenderableType:
    """Two columns: the first never wrapped, the second wrapped under itself (``inline``:
    its markdown bold, code and links laid out)."""
    if not rows:
        return Group()
    grid = Table.grid(padding=(0, gap))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for key, value in rows:
        grid.add_row(Text(key), _inline(value) if inline else Text(value))
    return grid


def _decision(block: list[str]) -> list[RenderableType]:
    """The block's heading in bold, its table as a table, its other lines as text, in order."""
    heading, *rest = block
    parts: list[RenderableType] = [Text(heading.lstrip("# "), style="bold")]
    rows: list[list[str]] = []
    for line in [*rest, ""]:
        if line.startswith("|"):
            rows += [] if _RULE.fullmatch(line) else [_cells(line)]
            continue
        if rows:
            parts.append(_table(rows))
            rows = []
        bullet = _BULLET.match(line)
        parts.append(_grid([(" •", bullet[1])], inline=True) if bullet else _inline(line))
    return parts[:-1]  # the line added to close a table at the end


_RULE = re.compile(r"\|(?:\s*:?-+:?\s*\|)+")
_CELL = re.compile(r"(?<!\\)\|")
_BULLET = re.compile(r"^- (.*)$")
_INLINE = re.compile(
    r"""\*\*(?P<bold>.+?)\*\*                          # **bold**
      | (?P<tick>`+)(?P<code>.+?)(?P=tick)                # `code`
      | \[(?P<label>[^\]]+)\]\((?P<url>https://[^)\s]+)\)  # [text](https://…)
    """,
    re.VERBOSE,
)


def _cells(row: str) -> list[str]:
    """A markdown table row's cells, their escaped pipes unescaped."""
    return [c.strip().replace("\\|", "|") for c in _CELL.split(row.strip().strip("|"))]


def _table(rows: list[list[str]]) -> Table:
    head, *body = rows
    table = Table(*head, box=box.SIMPLE_HEAD, header_style="bold", show_edge=False)
    for row in body:
        table.add_row(*(_inline(c) for c in row))
    return table


def _inline(text: str) -> Text:
    """Bold, code and links of one markdown line as styles; a link shows its address."""
    out, at = Text(), 0
    for m in _INLINE.finditer(text):
        out.append(text[at : m.start()])
        if m["bold"] is not None:
            out.append(m["bold"], style="bold")
        elif m["code"] is not None:
            out.append(f"`{m['code']}`", style="cyan")
        else:
            out.append(f"{m['label']} ({m['url']})")
        at = m.end()
    out.append(text[at:])
    return out
