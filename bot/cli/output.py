"""Terminal output: rich text for people, ``--json`` for scripts, NO_COLOR respected."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markdown import Markdown

from bot.errors import RfdError


def _console(stderr: bool = False) -> Console:
    no_color = "NO_COLOR" in os.environ
    return Console(
        stderr=stderr,
        no_color=no_color,
        highlight=False,
        soft_wrap=True,
        force_terminal=None if not no_color else False,
    )


@dataclass
class Output:
    json_mode: bool = False
    quiet: bool = False
    out: Console = field(default_factory=_console)
    err: Console = field(default_factory=lambda: _console(stderr=True))

    def line(self, text: str = "", style: str | None = None) -> None:
        """A line for people (suppressed in --json mode, where stdout is data)."""
        if self.json_mode:
            self.err.print(text, style=style, markup=False) if not self.quiet else None
        elif not self.quiet:
            self.out.print(text, style=style, markup=False)

    def markdown(self, text: str) -> None:
        """Rendered on a terminal; the markdown itself when piped (nothing cropped)."""
        if self.json_mode or self.quiet:
            return
        if self.out.is_terminal:
            self.out.print(Markdown(text))
        else:
            self.out.print(text, markup=False, highlight=False, crop=False)

    def data(self, payload: Any) -> None:
        """The result of a command: JSON in --json mode (the one thing on stdout)."""
        if self.json_mode:
            sys.stdout.write(json.dumps(payload, indent=2, default=str) + "\n")

    def success(self, text: str) -> None:
        self.line(f"✓ {text}", style="green")

    def warning(self, text: str) -> None:
        self.err.print(f"warning: {text}", style="yellow", markup=False)

    def error(self, err: RfdError) -> None:
        if self.json_mode:
            sys.stdout.write(json.dumps({"error": err.to_dict()}, indent=2) + "\n")
        self.err.print(f"error: {err}", style="red", markup=False)
