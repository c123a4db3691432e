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
from typing import TYPE_CHECKING, TextIO

from bot.core.errors import RfdError
from bot.core.github_markdown import cell, inline

if TYPE_CHECKING:
    from bot.events import TurnComplete

RAN_HEAD = "| command | by | outcome |\n| --- | --- | --- |"
RAN_ROW = "| {command} | @{actor} | {outcome} |"
COST = "Model cost of this run: {tokens} tokens · ${cost:.4f}"
NO_COST = "Model cost of this run: none (no model was called)"


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
class Spent:
    """What the model calls of one run cost, added up as they complete."""

    tokens: int = 0
    cost_usd: float = 0.0

    def add(self, event: TurnComplete) -> None:
        self.tokens += event.input_tokens + event.output_tokens
        self.cost_usd += event.cost_usd

    def line(self) -> str:
        if not self.tokens and not self.cost_usd:
            return NO_COST
        return COST.format(tokens=f"{self.tokens:,}", cost=self.cost_usd)


@dataclass(frozen=True)
class Ran:
    """One command (or label) this run answered: what, who asked, how it ended."""

    command: str
    actor: str
    outcome: str


@dataclass
class Summary:
    title: str
    lines: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    """Workflow commands (annotations) printed to the log."""
    ran: list[Ran] = field(default_factory=list)
    spent: Spent = field(default_factory=Spent)

    def answered(self, command: str, actor: str, outcome: str) -> None:
        """``command`` (markdown: `` `/rfd review` ``, a label) asked by ``actor`` ended so."""
        self.ran.append(Ran(command, actor, _cell(outcome)))

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
        head = f"### {self.title}\n\n"
        if self.ran:
            rows = "\n".join(RAN_ROW.format(**vars(r)) for r in self.ran)
            head += f"{RAN_HEAD}\n{rows}\n\n{self.spent.line()}\n\n"
        return f"{head}{body}\n"

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


def _cell(text: str) -> str:
    """The first line of ``text`` (cut at 200 characters), safe in a table cell."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return cell(first[:200])
