"""Policy: refuse tool calls that break the repository's rules, before anyone is asked.

Two kinds of rule, enforced at ``tool_call.intercept`` by raising
:class:`~bot.core.errors.Aborted` — the loop shows the reason to the user and returns it
to the model as the tool's result::

    [plugins.policy]
    deny_tools_in_steps = { review = ["write_file", "edit_file"] }
    protected_globs = ["migrations/**"]      # never written during implement

A command (``run_command``'s ``command``) is read with the argument parser of
:mod:`bot.agent.toolbox.commands`: each path it names is checked like a path argument,
and a directory counts for what is below it (``ruff check --fix migrations``).  The
dedicated RFD tools name no path: the event carries what they write (the RFD file,
``explore.md``, ``decisions.md``), checked the same way.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
import shlex
from collections.abc import Iterator, Mapping, Sequence
from pathlib import PurePath
from typing import Any

from bot.config.load import StepsSection
from bot.core.argv import path_words
from bot.core.errors import Aborted
from bot.events import ToolCallIntercept
from bot.plugins.api import ALL, PluginContext, PluginInfo, ScopedBus
from bot.plugins.hookspecs import hookimpl

NAME = "policy"
STEPS = tuple(f.name for f in dataclasses.fields(StepsSection))
_NAMES = {"type": "array", "items": {"type": "string", "minLength": 1}}

OPTIONS_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "deny_tools_in_steps": {
            "type": "object",
            "properties": {step: _NAMES for step in STEPS},
            "default": {},
            "description": "Step → tool names refused during that step.",
        },
        "protected_globs": {
            **_NAMES,
            "default": [],
            "description": "Paths (globs, `**` for any depth) no tool may touch in `steps`.",
        },
        "protected_steps": {
            "type": "array",
            "items": {"type": "string", "enum": list(STEPS)},
            "default": ["implement"],
        },
        "path_arguments": {
            **_NAMES,
            "default": ["path", "file_path", "paths"],
            "description": "Tool arguments that hold a path (or a list of paths).",
        },
    },
}

DENIED = "policy: `{tool}` is not allowed during {step}"
PROTECTED = "policy: `{path}` is protected during {step} (matches `{glob}`)"
HINT = "the rule is in [plugins.policy] of the configuration"
COMMAND_ARGUMENT = "command"


@hookimpl
def rfd_plugin_info() -> PluginInfo:
    return PluginInfo(
        name=NAME,
        description="Refuse tool calls by step and protect paths (raises Aborted with the reason)",
        events=(ToolCallIntercept.name,),
        intercepts=(ALL,),
        options_schema=OPTIONS_SCHEMA,
    )


@hookimpl
def rfd_register(bus: ScopedBus, options: Mapping[str, Any], context: PluginContext) -> None:
    bus.subscribe(ToolCallIntercept, Policy(options, str(context.root)).check)


class Policy:
    def __init__(self, options: Mapping[str, Any], root: str) -> None:
        self.denied = {step: frozenset(t) for step, t in options["deny_tools_in_steps"].items()}
        self.globs = tuple((g, glob_regex(g)) for g in options["protected_globs"])
        self.protected_steps = frozenset(options["protected_steps"])
        self.path_arguments = tuple(options["path_arguments"])
        self.root = root

    def check(self, event: ToolCallIntercept) -> None:
        """Raise Aborted if ``event`` breaks a rule; return nothing (no change) otherwise."""
        if event.tool in self.denied.get(event.step, ()):
            raise Aborted(DENIED.format(tool=event.tool, step=event.step), hint=HINT)
        if event.step not in self.protected_steps:
            return
        for path in (*self._paths(event.arguments), *event.paths):
            for glob, regex in self.globs:
                if regex.fullmatch(path) or regex.fullmatch(path + "/"):
                    message = PROTECTED.format(path=path, step=event.step, glob=glob)
                    raise Aborted(message, hint=HINT)

    def _paths(self, arguments: Mapping[str, Any]) -> Iterator[str]:
        for key in self.path_arguments:
            value = arguments.get(key)
            values: Sequence[Any] = value if isinstance(value, (list, tuple)) else [value]
            for item in values:
                if isinstance(item, str) and item:
                    yield normalise(item, self.root)
        command = arguments.get(COMMAND_ARGUMENT)
        if isinstance(command, str):
            yield from (normalise(word, self.root) for word in command_paths(command))


def command_paths(command: str) -> Iterator[str]:
    """The texts of ``command``'s arguments a program could take as paths."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return  # run_command refuses it itself
    for argument in argv[1:]:
        yield from (word for word in path_words(argument) if word)


def normalise(path: str, root: str) -> str:
    """A repository-relative POSIX path (``./a/../b`` → ``b``; absolute under root → relative)."""
    posix = PurePath(path).as_posix()
    if posixpath.isabs(posix) and root:
        posix = posixpath.relpath(posix, PurePath(root).as_posix())
    return posixpath.normpath(posix)


_GLOB_PARTS = re.compile(r"\*\*/|\*\*|\*|\?|[^*?]+")


def glob_regex(glob: str) -> re.Pattern[str]:
    """``**/`` any directories (or none), ``**`` anything, ``*`` and ``?`` within one name."""
    out = []
    for part in _GLOB_PARTS.findall(glob):
        out.append(_GLOB_MEANING.get(part) or re.escape(part))
    return re.compile("".join(out))


_GLOB_MEANING = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
