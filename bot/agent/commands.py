"""The run_command tool: allow-listed command prefixes, no shell, a timeout, capped output.

What follows the prefix is confined by :mod:`bot.agent.command_args` (paths inside the
repository and outside the protected globs); the command runs in the repository root
with an environment stripped of keys and tokens.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.agent import command_args
from bot.agent.context import Tool, ToolContext, schema
from bot.errors import PermissionDenied, ValidationError

MAX_OUTPUT_CHARS = 20_000
SECRET_NAME = re.compile(
    r"KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|COOKIE|(?:^|_)PAT(?:_|$)", re.IGNORECASE
)
"""Environment variables a command never sees (API keys, forge tokens)."""


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


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not SECRET_NAME.search(k)}


def _run(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    done = execute(ctx, _checked(ctx, args["command"]))
    return cap(f"exit code {done.returncode}\n{done.output}")


@dataclass(frozen=True)
class Completed:
    """What one command left: its exit code and its output (stdout, then stderr)."""

    returncode: int
    output: str


def execute(ctx: ToolContext, argv: Sequence[str]) -> Completed:
    """Run ``argv`` the way every implement command runs (the model's and the verify
    command alike); ValidationError when it is not installed or times out."""
    try:
        done = subprocess.run(
            list(argv),
            cwd=ctx.sandbox.root,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=ctx.command_timeout,
            env=_clean_env(),
            check=False,
        )
    except FileNotFoundError as exc:
        raise ValidationError(f"`{argv[0]}` is not installed") from exc
    except subprocess.TimeoutExpired as exc:
        raise ValidationError(f"timed out after {ctx.command_timeout:g} s") from exc
    return Completed(done.returncode, f"{done.stdout}{done.stderr}")


def _preview(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    return "$ " + shlex.join(_checked(ctx, args["command"]))


RUN_COMMAND = Tool(
    "run_command",
    "Run a command (no shell) in the repository root; only allow-listed commands run.",
    schema({"command": "string"}),
    _run,
    writes=True,
    preview=_preview,
    confined=True,
)
