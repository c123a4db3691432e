"""What a run tells the people watching Actions: the job summary and annotations.

Lines collected during the run are appended, as markdown, to the file named by
``$GITHUB_STEP_SUMMARY`` (one line each, HTML and images defused: they quote RFDs);
problems in files become ``::error file=…,line=…::`` workflow commands, which GitHub
shows on the PR's diff.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.errors import RfdError
from bot.markdown_safe import inline


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: str, message: str, *, file: str | None = None, line: int | None = None
) -> str:
    """A workflow command such as ``::error file=docs/rfd/045-x.md,line=3::message``."""
    props = []
    if file:
        props.append(f"file={escape_property(file)}")
        if line:
            props.append(f"line={line}")
    head = f"::{level} {','.join(props)}" if props else f"::{level}"
    return f"{head}::{escape_data(message)}"


@dataclass
class Summary:
    title: str
    lines: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)

    def note(self, line: str) -> None:
        self.lines.append(line)

    def problem(self, err: RfdError, level: str = "error") -> None:
        """An error for the summary and, when it names a file, an annotation on it."""
        message = err.message + (f" ({err.hint})" if err.hint else "")
        self.commands.append(annotation(level, message, file=err.path, line=err.line))
        where = f"`{err.location}`: " if err.location else ""
        self.lines.append(f"{'❌' if level == 'error' else '⚠️'} {where}{message}")

    def annotate(self, level: str, message: str, *, file: str, line: int | None) -> None:
        """A finding in a file (lint): an annotation only, the summary gets the count."""
        self.commands.append(annotation(level, message, file=file, line=line))

    def markdown(self) -> str:
        body = "\n".join(f"- {inline(line)}" for line in self.lines) or "- nothing to do"
        return f"### {self.title}\n\n{body}\n"

    def flush(self, environ: Mapping[str, str], out: TextIO | None = None) -> None:
        out = out or sys.stdout
        for command in self.commands:
            print(command, file=out)
        target = environ.get("GITHUB_STEP_SUMMARY")
        if target:
            with Path(target).open("a", encoding="utf-8") as handle:
                handle.write(self.markdown())
        else:
            print(self.markdown(), file=out)
