"""The header of an RFD written as YAML front matter, read and edited in place.

    ---
    authors: Ada <ada@example.com>, Grace <grace@example.com>
    state: discussion          # or stage:, status:
    discussion: https://github.com/org/rfd/pull/12
    labels: [api, storage]
    ---

    # RFD 12 Title

The YAML is read with ruamel.yaml (imported only when a file has front matter: the hooks
stay light on the flat format).  An edit of a one-line value replaces just that value on its
line (quotes and a trailing comment kept), so a state change is a one-line diff; any other edit
(a list or a nested map replaced, a missing key added) rewrites only that key's lines.
ruamel.yaml (round trip) reads the keys, their lines and their values; it never re-emits the
front matter, so comments, quoting, list indentation and dates stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.core.errors import InvalidStructure, ParseError
from bot.model.header import Field, normalize_key
from bot.model.markdown import content, ending, split_lines

STATUS_KEYS = ("state", "stage", "status")
"""Keys that hold an RFD's status in front matter, by how often corpora use them."""

BAD_YAML_HINT = "fix the YAML between the two '---' lines (a key per line: 'state: draft')"

_SCALAR_LINE_RE = re.compile(
    r"""
    ^(?P<key>[A-Za-z0-9_][A-Za-z0-9_ -]*?)   # a top-level key
    (?P<sep>[ \t]*:[ \t]*)
    (?P<quote>["']?)
    (?P<value>[^"'\#\n]*?)                   # a plain one-line value
    (?P=quote)
    (?P<rest>[ \t]+\#.*|[ \t]*)$             # a comment, trailing spaces
    """,
    re.VERBOSE,
)
_PLAIN_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ .,/@<>+()-]*$")


def has_front_matter(text: str) -> bool:
    return text.startswith(("---\n", "---\r\n", "--- \n", "\ufeff---"))


_STATUS_LINE_RE = re.compile(r"^(?:state|stage|status)[ \t]*:", re.IGNORECASE | re.MULTILINE)


def holds_status(lines: Sequence[str], end: int) -> bool:
    """Does the front matter (ending at line ``end``) have a status key?  Front matter
    without one (tags for a site generator) leaves the header to a field list."""
    return _STATUS_LINE_RE.search("".join(lines[1:end])) is not None


def end_of(lines: Sequence[str]) -> int | None:
    """The 0-based index of the line closing the front matter (None without one)."""
    if not lines or content(lines[0]).lstrip("\ufeff").rstrip() != "---":
        return None
    return next(
        (i for i in range(1, len(lines)) if content(lines[i]).rstrip() in ("---", "...")), None
    )


def read_fields(lines: Sequence[str], end: int, path: str) -> tuple[Field, ...]:
    """The top-level keys of the front matter as header fields (lists joined by ``, ``,
    maps as ``key: value; …``), each at the 1-based line of its key."""
    data = _load("".join(lines[1:end]), path)
    fields = []
    for key, value in data.items():
        line = data.lc.key(key)[0] + 2 if hasattr(data, "lc") else 1
        fields.append(Field(str(key), _as_text(value), line, _span(lines, line - 1, end)))
    return tuple(fields)


def status_key(fields: Sequence[Field]) -> Field | None:
    """The field holding the status (``state``, ``stage`` or ``status``)."""
    by_key = {normalize_key(f.key): f for f in fields}
    return next((by_key[k] for k in STATUS_KEYS if k in by_key), None)


def _load(source: str, path: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        data = YAML(typ="rt").load(source)
    except YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = None if mark is None else mark.line + 2
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise ParseError(
            f"front matter: {problem}", path=path, line=line, hint=BAD_YAML_HINT
        ) from err
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InvalidStructure(
            "front matter is not a map of keys", path=path, line=2, hint=BAD_YAML_HINT
        )
    return data


def _as_text(value: object) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_as_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_as_text(v) for v in value)
    return "" if value is None else str(value).strip()


def _span(lines: Sequence[str], index: int, end: int) -> int:
    """Lines a key takes: its own and the indented (or list) lines after it."""
    count = 1
    while index + count < end:
        line = content(lines[index + count])
        if line.strip() and not line[0].isspace() and not line.startswith("-"):
            break
        count += 1
    return count


def set_value(text: str, key: str, value: str) -> str:
    """``text`` with front-matter ``key`` set to ``value`` (a one-line string).  ``Status``
    means the key that holds the status."""
    lines = split_lines(text)
    end = end_of(lines)
    assert end is not None, "set_value needs front matter"
    fields = read_fields(lines, end, "")
    existing = _existing(fields, key)
    if existing is not None and existing.span == 1:
        match = _SCALAR_LINE_RE.match(content(lines[existing.index]))
        if match is not None and (match["quote"] or _PLAIN_RE.match(value)):
            line = lines[existing.index]
            quote = match["quote"]
            new = f"{match['key']}{match['sep']}{quote}{value}{quote}{match['rest']}"
            lines[existing.index] = new + ending(line)
            return "".join(lines)
    if existing is None:  # a new key: one new line before the closing '---'
        line = f"{_key_name(key)}: {_scalar(value)}" + (ending(lines[0]) or "\n")
        lines.insert(end, line)
        return "".join(lines)
    return _replace_lines(lines, existing, value)


def _scalar(value: str) -> str:
    """``value`` as a YAML scalar: plain when it reads back the same, else double-quoted."""
    import json

    return value if _PLAIN_RE.match(value) and ": " not in value else json.dumps(value)


def remove_value(text: str, key: str) -> str:
    lines = split_lines(text)
    end = end_of(lines)
    assert end is not None, "remove_value needs front matter"
    existing = _existing(read_fields(lines, end, ""), key)
    if existing is None:
        return text
    del lines[existing.index : existing.index + existing.span]
    return "".join(lines)


def _existing(fields: Sequence[Field], key: str) -> Field | None:
    if normalize_key(key) == "status":
        return status_key(fields)
    wanted = {normalize_key(key), normalize_key(_key_name(key))}
    return next((f for f in fields if normalize_key(f.key) in wanted), None)


def _key_name(key: str) -> str:
    """A header field's name as a front-matter key: ``Tracking Issue`` → ``tracking-issue``."""
    return "-".join(key.lower().split())


def _replace_lines(lines: list[str], existing: Field, value: str) -> str:
    """Replace the lines of a key whose value is not a one-line scalar (a list, a map) with
    ``key: value``; every other line is kept byte for byte."""
    eol = ending(lines[0]) or "\n"
    lines[existing.index : existing.index + existing.span] = [
        f"{existing.key}: {_scalar(value)}{eol}"
    ]
    return "".join(lines)
