"""Confinement of a command's arguments: every path it names stays in the repository.

An allowed prefix (``implement.allowed_commands``) says *what* may start; this module
says *where* it may reach.  Without a shell, a program only sees paths through its
arguments, so each argument after the prefix is read as a path — the whole word,
the value of ``--option=value`` or ``NAME=value``, the text glued to a short option
(``-C/``, ``-kC/``) — and must resolve inside the repository and outside
``implement.protected_paths``.  Words that are not paths (``-k "not slow"``) resolve
harmlessly inside.  Options that move the working directory or load configuration
from elsewhere are refused outright for the tools we know.
"""

from __future__ import annotations

import posixpath
import re
import shlex
import subprocess
from collections.abc import Iterator, Mapping, Sequence

from bot.agent.sandbox import OUTSIDE, PROTECTED, Sandbox, matches_any
from bot.core.argv import path_words
from bot.core.errors import PermissionDenied, ValidationError

REFUSED_OPTIONS: Mapping[str, frozenset[str]] = {
    "make": frozenset(
        {"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir"}
        | {"-E", "--eval"}
    ),
    "pytest": frozenset(
        {"--rootdir", "-c", "--config-file", "--confcutdir", "-p", "--pyargs"}
        | {"-o", "--override-ini"}
    ),
    "ruff": frozenset({"--config"}),
}
"""Per program: options that change where it works or what it loads, never allowed."""

MAKE_VARIABLE = re.compile(r"[A-Za-z_][\w.-]*[:+?!]?=")
"""``make test PYTEST=…`` would replace the command a recipe runs."""

REFUSED_OPTION = "changes where `{program}` works or what it loads"
HOME = "names a home directory (`~`)"
VARIABLE = "overrides a make variable (it could replace the command a recipe runs)"
EMPTIED = "names `{rel}`, which holds files git tracks: pytest empties its --basetemp first"
EMPTIED_OPTIONS = frozenset({"--basetemp"})
"""pytest options naming a directory it deletes before the run."""


def program(argv: Sequence[str]) -> str:
    """The tool a command starts: ``pytest`` for ``python -m pytest`` and ``.venv/bin/pytest``."""
    name = posixpath.basename(argv[0])
    if name.startswith("python") and len(argv) > 2 and argv[1] == "-m":
        return argv[2]
    return name


def option_name(argument: str) -> str:
    """``--rootdir=/`` → ``--rootdir``; ``-C/`` → ``-C``; words → ``""``."""
    if not argument.startswith("-") or argument == "-":
        return ""
    if argument.startswith("--"):
        return argument.partition("=")[0]
    return argument[:2]


def refusal(program_name: str, argument: str, sandbox: Sandbox) -> str | None:
    """Why ``argument`` may not be given to ``program_name``, or None when it may."""
    if option_name(argument) in REFUSED_OPTIONS.get(program_name, ()):
        return REFUSED_OPTION.format(program=program_name)
    if program_name == "make" and MAKE_VARIABLE.match(argument):
        return VARIABLE
    if program_name == "pytest" and option_name(argument) in EMPTIED_OPTIONS:
        return _emptied(argument.partition("=")[2], sandbox)
    for word in path_words(argument):
        reason = _path_refusal(word, sandbox)
        if reason:
            return reason
    return None


def _emptied(value: str, sandbox: Sandbox) -> str | None:
    """Why pytest may not empty ``value``: it holds tracked files (``--basetemp=docs``)."""
    reason = _path_refusal(value, sandbox)
    if reason or not value:
        return reason
    rel = sandbox.relative(sandbox.resolve(value))
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", rel], cwd=sandbox.root, capture_output=True, check=False
    )
    return EMPTIED.format(rel=rel) if listed.stdout or rel == "." else None


def _path_refusal(word: str, sandbox: Sandbox) -> str | None:
    if not word:
        return None
    if word.startswith("~"):
        return HOME
    try:
        rel = sandbox.relative(sandbox.resolve(word))
    except PermissionDenied:
        return OUTSIDE
    except (ValidationError, OSError, RuntimeError, ValueError):
        return "is not a usable path"
    if matches_any(rel, sandbox.protected_paths):
        return f"names `{rel}`, which {PROTECTED}"
    return None


def _joined(arguments: Sequence[str]) -> Iterator[str]:
    """The arguments, with ``--basetemp X`` given as ``--basetemp=X`` (checked as one)."""
    words = iter(arguments)
    for word in words:
        yield f"{word}={next(words, '')}" if word in EMPTIED_OPTIONS else word


def check(argv: Sequence[str], prefix_words: int, sandbox: Sandbox) -> None:
    """Raise PermissionDenied naming the first argument after the prefix that is refused."""
    name = program(argv)
    for argument in _joined(argv[prefix_words:]):
        reason = refusal(name, argument, sandbox)
        if reason:
            raise PermissionDenied(
                f"`{shlex.join(argv)}` refused: argument `{argument}` {reason}",
                hint="commands run in the repository root and may only name paths inside it",
            )
