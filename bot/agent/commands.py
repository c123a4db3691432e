"""The run_command tool: allow-listed command prefixes, no shell, a timeout, capped output.

The one place implement starts a command.  What follows the prefix is confined by
:mod:`bot.agent.command_args` (paths inside the repository and outside the protected
globs); the command runs in the repository root, isolated (:mod:`bot.agent.isolation`:
fresh namespaces, read-only but the worktree, an allowlisted environment).  Where no
isolation works only a person may let it run (:mod:`bot.agent.permission`).  Its output
reaches the model with every form of the process's secret values redacted.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.agent import command_args
from bot.agent.context import Tool, ToolContext, schema
from bot.agent.isolation import ENABLE, NO_ISOLATION, choose, command_env, isolated
from bot.agent.jail_view import sanitized_copy, view_for
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
    command_args.check(argv, prefix_words, ctx.sandbox)
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
