"""The run_command tool: allow-listed command prefixes, no shell, a timeout, capped output,
and every path a command's arguments name kept inside the repository.

The one place implement starts a command.  An allowed prefix
(``implement.allowed_commands``) says *what* may start; the confinement of its arguments
says *where* it may reach.  Without a shell, a program only sees paths through its
arguments, so each argument after the prefix is read as a path — the whole word, the
value of ``--option=value`` or ``NAME=value``, the text glued to a short option
(``-C/``, ``-kC/``) — and must resolve inside the repository and outside
``implement.protected_paths``.  Words that are not paths (``-k "not slow"``) resolve
harmlessly inside.  Options that move the working directory or load configuration from
elsewhere are refused outright for the tools we know.

The command runs in the repository root, isolated
(:mod:`bot.agent.implementation.isolation`: fresh namespaces, read-only but the worktree,
an allowlisted environment).  Where no isolation works only a person may let it run
(:mod:`bot.agent.toolbox.permission`).  Its output reaches the model with every form of
the process's secret values redacted.
"""

from __future__ import annotations

import os
import posixpath
import re
import shlex
import shutil
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.agent.implementation.isolation import (
    ENABLE,
    NO_ISOLATION,
    choose,
    command_env,
    isolated,
    sanitized_copy,
    view_for,
)
from bot.agent.toolbox.base import Tool, ToolContext, schema
from bot.agent.toolbox.sandbox import OUTSIDE, PROTECTED, Sandbox, matches_any
from bot.core.argv import path_words
from bot.core.errors import PermissionDenied, ValidationError
from bot.core.redact import held

MAX_OUTPUT_CHARS = 20_000
UNISOLATED = f"⚠ not isolated: {NO_ISOLATION}."


def split(command: str) -> list[str]:
    """The argument vector of ``command`` (shell quoting rules, but no shell runs it)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValidationError(f"cannot parse the command: {exc}") from exc
    if not argv:
        raise ValidationError("the command is empty")
    return argv


def allowed(argv: Sequence[str], prefixes: Sequence[str]) -> int:
    """How many words of ``argv`` the longest matching allowed prefix covers (0: none)."""
    matched = 0
    for prefix in prefixes:
        words = shlex.split(prefix)
        if words and list(argv[: len(words)]) == words:
            matched = max(matched, len(words))
    return matched


def cap(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    """Keep the head and the tail of a long output, saying how much was cut."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - limit} characters cut ...]\n{text[-half:]}"


def _checked(ctx: ToolContext, command: str) -> list[str]:
    argv = split(command)
    prefixes = ctx.config.implement.allowed_commands
    prefix_words = allowed(argv, prefixes)
    if not prefix_words:
        raise PermissionDenied(
            f"`{command}` is not an allowed command",
            hint="allowed prefixes (implement.allowed_commands): " + ", ".join(prefixes),
        )
    check(argv, prefix_words, ctx.sandbox)
    return argv


def _run(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    # permit() let it through: isolated, or confirmed by a person where nothing isolates
    return run_isolated(ctx, _checked(ctx, args["command"]), unisolated_confirmed=True)


def run_isolated(
    ctx: ToolContext, argv: Sequence[str], *, unisolated_confirmed: bool = False
) -> str:
    """Run ``argv`` in the repository root as every implement command runs — isolated, with
    the allowlisted environment — and return its exit code and output, secret values
    redacted.  Where nothing isolates it runs only when a person confirmed it
    (``unisolated_confirmed``); otherwise PermissionDenied (fail closed)."""
    done = execute(ctx, argv, unisolated_confirmed=unisolated_confirmed)
    return cap(f"exit code {done.returncode}\n{done.output}")


@dataclass(frozen=True)
class Completed:
    """What one command left: its exit code and its output (stdout, then stderr)."""

    returncode: int
    output: str


def execute(
    ctx: ToolContext, argv: Sequence[str], *, unisolated_confirmed: bool = False
) -> Completed:
    """:func:`run_isolated`, as its exit code and whole output (secret values redacted):
    what the verify command's caller reads."""
    impl = ctx.config.implement
    mechanism = choose(impl.isolation)
    if mechanism is None and not unisolated_confirmed:
        raise PermissionDenied(f"`{shlex.join(argv)}` refused: {NO_ISOLATION}", hint=ENABLE)
    view = view_for(
        ctx.sandbox.root,
        ctx.config.rfd_dir,
        os.environ,
        network=impl.network,
        toolchain=impl.toolchain,
    )
    with sanitized_copy(view) as git_config:
        env = command_env(os.environ, impl.env)
        _require(argv[0], ctx.sandbox.root, env)
        wrapped = argv if mechanism is None else isolated(mechanism, view, argv, git_config)
        done = _execute(ctx, wrapped, env)
    values = held(os.environ, (*impl.redacted_env, ctx.config.provider.api_key_env))
    return Completed(done.returncode, values.redact(done.output))


def _require(program: str, root: Path, env: Mapping[str, str]) -> None:
    """ValidationError when ``program`` cannot be found (the isolating wrapper would only
    exit 1 saying so on its standard error)."""
    where = str(root / program) if "/" in program else program
    if shutil.which(where, path=env.get("PATH")) is None:
        raise ValidationError(f"`{program}` is not installed")


def _execute(ctx: ToolContext, argv: Sequence[str], env: Mapping[str, str]) -> Completed:
    try:
        done = subprocess.run(
            argv,
            cwd=ctx.sandbox.root,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=ctx.command_timeout,
            env=dict(env),
            check=False,
        )
    except FileNotFoundError as exc:
        raise ValidationError(f"`{argv[0]}` is not installed") from exc
    except subprocess.TimeoutExpired as exc:
        raise ValidationError(f"timed out after {ctx.command_timeout:g} s") from exc
    return Completed(done.returncode, f"{done.stdout}{done.stderr}")


def _preview(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    line = "$ " + shlex.join(_checked(ctx, args["command"]))
    if choose(ctx.config.implement.isolation) is None:
        return f"{UNISOLATED}\n{line}"
    return line


RUN_COMMAND = Tool(
    "run_command",
    "Run a command (no shell) in the repository root; only allow-listed commands run.",
    schema({"command": "string"}),
    _run,
    writes=True,
    preview=_preview,
    confined=True,
    isolated=True,
)


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
