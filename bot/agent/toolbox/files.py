"""File tools: read, list and grep (read-only); write and edit (previewed as a diff)."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from bot.agent.toolbox.base import Tool, ToolContext, schema
from bot.agent.toolbox.sandbox import Refused, read_bounded, write_text
from bot.core.errors import FileNotFound, RfdError, ValidationError
from bot.core.text import plural

MAX_READ_CHARS = 100_000
MAX_FILE_BYTES = 10_000_000
"""Largest file the tools read at all (a giant file a command made is refused, never read)."""
MAX_LIST = 500
MAX_MATCHES = 200
MAX_GREP_FILE_BYTES = 1_000_000
SKIP_DIRS = frozenset({".git", ".venv", "node_modules", "__pycache__", ".mypy_cache"})


def _read(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    target = ctx.sandbox.readable(args["path"])
    if not target.is_file():
        raise FileNotFound(f"`{args['path']}` is not a file")
    text = bounded_text(target, args["path"])
    lines = text.splitlines(keepends=True)
    start = max(int(args.get("offset", 1)), 1) - 1
    chunk = "".join(lines[start : start + int(args.get("limit", len(lines)))])
    if len(chunk) > MAX_READ_CHARS:
        return chunk[:MAX_READ_CHARS] + f"\n[truncated at {MAX_READ_CHARS} characters]"
    return chunk


def _walk(base: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            yield Path(dirpath) / name


def _list(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    base = ctx.sandbox.readable(args.get("path") or ".")
    if not base.is_dir():
        raise FileNotFound(f"`{args.get('path')}` is not a directory")
    found = [ctx.sandbox.relative(p) for p in _walk(base) if not p.is_symlink()]
    shown = found[:MAX_LIST]
    more = f"\n[{len(found) - MAX_LIST} more not shown]" if len(found) > MAX_LIST else ""
    return "\n".join(shown) + more if shown else "(no files)"


def _grep(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    try:
        pattern = re.compile(args["pattern"])
    except re.error as exc:
        raise ValidationError(f"bad regular expression: {exc}") from exc
    base = ctx.sandbox.readable(args.get("path") or ".")
    files = [base] if base.is_file() else list(_walk(base))
    hits: list[str] = []
    for path in files:
        hits.extend(_grep_file(ctx, path, pattern))
        if len(hits) >= MAX_MATCHES:
            return "\n".join(hits[:MAX_MATCHES]) + f"\n[stopped at {MAX_MATCHES} matches]"
    return "\n".join(hits) if hits else "(no matches)"


def _grep_file(ctx: ToolContext, path: Path, pattern: re.Pattern[str]) -> list[str]:
    try:
        text = read_bounded(path, MAX_GREP_FILE_BYTES).decode("utf-8")
    except (UnicodeDecodeError, OSError, Refused):  # a link, a FIFO, a file too big
        return []
    rel = ctx.sandbox.relative(path)
    return [
        f"{rel}:{n}: {line}" for n, line in enumerate(text.splitlines(), 1) if pattern.search(line)
    ]


def current_text(target: Path) -> str:
    """The text of a file the tools may write (empty when there is none); bounded, no link."""
    if not os.path.lexists(target):
        return ""
    return bounded_text(target, str(target), strict=True)


def bounded_text(target: Path, shown: str, *, strict: bool = False) -> str:
    """The text of ``target`` read as :func:`bot.agent.toolbox.sandbox.read_bounded` reads (at most
    :data:`MAX_FILE_BYTES`); ``strict``: undecodable bytes are an error, not replaced."""
    data = read_bounded(target, MAX_FILE_BYTES, shown)
    return data.decode("utf-8", errors="strict" if strict else "replace")


def unified_diff(before: str, after: str, name: str) -> str:
    """A unified diff of two texts, ``a/name`` → ``b/name``; empty when equal."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{name}", f"b/{name}"
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


DIFF_CAP = 20_000
"""Characters of a recorded diff shown to a judge; the rest is cut with a note."""


def recorded_diff(ctx: ToolContext, originals: Mapping[str, str], cap: int = DIFF_CAP) -> str:
    """The unified diff of every file in ``originals`` against its current content (capped)."""
    parts = [_diff_now(ctx, path, before) for path, before in sorted(originals.items())]
    text = "".join(parts)
    if len(text) <= cap:
        return text
    return text[:cap] + f"\n[diff cut: {len(text) - cap} more characters]\n"


def _diff_now(ctx: ToolContext, path: str, before: str) -> str:
    """The diff of ``path`` since ``before``; a note when a command made it unreadable (a
    link, a FIFO, a giant or binary file)."""
    try:
        return unified_diff(before, current_text(ctx.sandbox.resolve(path)), path)
    except (RfdError, OSError, UnicodeDecodeError) as exc:
        return f"[{path}: not shown: {exc}]\n"


def _new_content(ctx: ToolContext, args: Mapping[str, Any]) -> tuple[Path, str, str]:
    """(target, before, after) of a write_file or edit_file call, without writing."""
    target = ctx.sandbox.writable(args["path"])
    before = current_text(target)
    if "content" in args:
        return target, before, args["content"]
    old, new = args["old"], args["new"]
    count = before.count(old) if old else 0
    if count != 1 and not (count > 1 and args.get("replace_all")):
        where = "not found" if count == 0 else f"found {count} times (set replace_all)"
        raise ValidationError(f"`old` text {where} in `{args['path']}`", hint="read the file again")
    return target, before, before.replace(old, new)


def _preview(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    target, before, after = _new_content(ctx, args)
    return unified_diff(before, after, ctx.sandbox.relative(target)) or "(no change)"


def _write(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    target, before, after = _new_content(ctx, args)
    ctx.originals.setdefault(ctx.sandbox.relative(target), before)
    write_text(target, after)
    verb = "created" if not before and "content" in args else "updated"
    return f"{verb} {ctx.sandbox.relative(target)} ({plural(len(after.splitlines()), 'line')})"


READ_FILE = Tool(
    "read_file",
    "Read a text file of the repository (optionally lines offset..offset+limit, 1-based).",
    schema({"path": "string"}, {"offset": "integer", "limit": "integer"}),
    _read,
)
LIST_FILES = Tool(
    "list_files",
    "List the files under a directory of the repository (recursive; default: the root).",
    schema({}, {"path": "string"}),
    _list,
)
GREP_FILES = Tool(
    "grep_files",
    "Search files for a Python regular expression; answers `path:line: text` lines.",
    schema({"pattern": "string"}, {"path": "string"}),
    _grep,
)
WRITE_FILE = Tool(
    "write_file",
    "Create or overwrite a file of the repository with the given content.",
    schema({"path": "string", "content": "string"}),
    _write,
    writes=True,
    preview=_preview,
    confined=True,
)
EDIT_FILE = Tool(
    "edit_file",
    "Replace an exact string of a file (it must occur exactly once unless replace_all).",
    schema({"path": "string", "old": "string", "new": "string"}, {"replace_all": "boolean"}),
    _write,
    writes=True,
    preview=_preview,
    confined=True,
)
