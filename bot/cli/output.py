"""Terminal output: rich text for people, ``--json`` for scripts, NO_COLOR respected.

rich is imported only when it is used — styled output on a terminal, or markdown
rendering — so piped and scripted runs start fast.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from bot.core.errors import RfdError

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


DIFF_STYLES = (("+++ ", "bold"), ("--- ", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))


def diff_style(line: str) -> str | None:
    """The colour of one line of a unified diff (None: context)."""
    return next((style for start, style in DIFF_STYLES if line.startswith(start)), None)


@dataclass
class Output:
    json_mode: bool = False
    quiet: bool = False
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)
    _consoles: dict[bool, Console] = field(default_factory=dict, repr=False)

    def _styled(self, stream: IO[str]) -> bool:
        return not os.environ.get("NO_COLOR") and stream.isatty()  # set and non-empty: no colour

    @property
    def styled(self) -> bool:
        """Whether people read stdout on a terminal that takes colour (and markdown)."""
        return not self.json_mode and self._styled(self.stdout)

    def _console(self, stderr: bool) -> Console:
        if stderr not in self._consoles:
            from rich.console import Console

            stream = self.stderr if stderr else self.stdout
            self._consoles[stderr] = Console(file=stream, highlight=False, soft_wrap=True)
        return self._consoles[stderr]

    def width(self, stream: IO[str]) -> int | None:
        """The columns to wrap at: the terminal's, ``COLUMNS`` when set; None when piped
        (lines are then left whole for whatever reads them)."""
        columns = os.environ.get("COLUMNS", "")
        if columns.isdigit() and int(columns) > 0:
            return int(columns)
        if stream.isatty():
            import shutil

            return shutil.get_terminal_size().columns
        return None

    def _write(
        self, text: str, style: str | None, *, stderr: bool = False, wrap: bool = False
    ) -> None:
        stream = self.stderr if stderr else self.stdout
        width = self.width(stream) if wrap else None
        if width:
            text = wrapped(text, width)
        if style and self._styled(stream):
            self._console(stderr).print(text, style=style, markup=False)
        else:
            stream.write(text + "\n")

    def rich(self, renderable: RenderableType) -> None:
        """A rich renderable (tables, grids), wrapped at word boundaries to the width;
        coloured only on a terminal that takes colour, never padded with spaces."""
        if self.quiet:
            return
        import io

        from rich.console import Console

        stream = self.stderr if self.json_mode else self.stdout
        styled = self._styled(stream)
        buffer = io.StringIO()
        console = Console(
            file=buffer,
            width=self.width(stream) or UNWRAPPED,
            highlight=False,
            force_terminal=styled,
            no_color=not styled,
            emoji=False,
            color_system="standard" if styled else None,
        )
        console.print(renderable)
        lines = [line.rstrip() for line in buffer.getvalue().splitlines()]
        lines = [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]
        stream.write("\n".join(lines).strip("\n") + "\n")

    def line(self, text: str = "", style: str | None = None) -> None:
        """A line for people (on stderr in --json mode, where stdout is data)."""
        if not self.quiet:
            self._write(text, style, stderr=self.json_mode)

    def markdown(self, text: str) -> None:
        """Rendered on a terminal; the markdown itself when piped (nothing cropped)."""
        if self.json_mode or self.quiet:
            return
        if self._styled(self.stdout):
            from rich.markdown import Markdown

            # soft_wrap (the console's default, for plain lines) would crop markdown at the
            # terminal's edge: rendered text is wrapped to the width instead
            self._console(False).print(Markdown(text), soft_wrap=False)
        else:
            self.stdout.write(text if text.endswith("\n") else text + "\n")

    def diff(self, text: str) -> None:
        """A unified diff, coloured on a terminal (additions green, removals red)."""
        stream = self.stderr if self.json_mode else self.stdout
        if self.quiet:
            return
        if not self._styled(stream):
            stream.write(text.rstrip("\n") + "\n")
            return
        for line in text.rstrip("\n").splitlines():
            self._console(self.json_mode).print(line, style=diff_style(line), markup=False)

    def data(self, payload: Any) -> None:
        """The result of a command: JSON in --json mode (the one thing on stdout)."""
        if self.json_mode:
            self.stdout.write(json.dumps(payload, indent=2, default=str) + "\n")

    def success(self, text: str) -> None:
        self.line(f"✓ {text}", style="green")

    def warning(self, text: str) -> None:
        self._write(f"warning: {text}", "yellow", stderr=True, wrap=True)

    def error(self, err: RfdError) -> None:
        if self.json_mode:
            self.stdout.write(json.dumps({"error": err.to_dict()}, indent=2) + "\n")
        self._write(f"error: {err}", "red", stderr=True, wrap=True)


UNWRAPPED = 10_000
"""The width rich lays out at when nothing says one (piped): no line is wrapped."""


def wrapped(text: str, width: int) -> str:
    """Each line broken at spaces to fit ``width`` (a word longer than that stays whole, and
    so does a `code span`: a command to copy is never split), continuation lines indented
    under the line's own text."""
    import re
    import textwrap

    out = []
    for line in text.splitlines() or [""]:
        indent = line[: len(line) - len(line.lstrip())] + "  "
        kept = re.sub(r"`[^`\n]+`", lambda m: m.group().replace(" ", _HELD), line)
        filled = textwrap.fill(
            kept, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
        )
        out.append(filled.replace(_HELD, " ") or line)
    return "\n".join(out)


_HELD = "\x00"
"""A space inside a code span while lines are filled: not a place to break."""
