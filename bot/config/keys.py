"""Every key of the configuration, with its default and its documentation: the field
docstrings of the schema's dataclasses (:mod:`bot.config.schema`), for the README and tests.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.config.schema import Config


def schema_keys() -> list[tuple[str, str, str]]:
    """Every configuration key as ``(dotted key, default, description)`` (for docs and tests)."""
    out: list[tuple[str, str, str]] = []
    _walk_keys(Config, Config(), "", out)
    return out


def _walk_keys(cls: type[Any], default: Any, prefix: str, out: list[tuple[str, str, str]]) -> None:
    docs = _field_docs(cls)
    for f in dataclasses.fields(cls):
        value = getattr(default, f.name)
        key = f"{prefix}{f.name}"
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            _walk_keys(type(value), value, key + ".", out)
        else:
            out.append((key, repr(value), docs.get(f.name, "")))


def _field_docs(cls: type[Any]) -> dict[str, str]:
    """Attribute docstrings (the string literal after each field) of a dataclass."""
    import ast
    import inspect
    import itertools
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for prev, node in itertools.pairwise(body):
        if (
            isinstance(prev, ast.AnnAssign)
            and isinstance(prev.target, ast.Name)
            and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            docs[prev.target.id] = " ".join(node.value.value.split())
    return docs
