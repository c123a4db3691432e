"""Test worlds (git repositories on disk) built once per test run and copied into each test.

A world is a function of its inputs: the files of its commits and the git dates in the
environment (``fixed_git_dates`` makes the shas fixed).  The first test that asks for one
builds it under the session's temp dir; every test gets its own copy (symlinks kept), so
a test may change its world freely.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

DATES = ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE")
_cache: list[Path] = []


def cache_in(root: Path) -> None:
    """Keep the worlds of this test run under ``root`` (conftest, once per session)."""
    _cache[:] = [root]


def copied(dest: Path, inputs: object, build: Callable[[Path], None]) -> None:
    """Fill ``dest`` with what ``build(dir)`` makes from ``inputs``: built once, then copied."""
    if not _cache:
        build(dest)
        return
    key = json.dumps([inputs, [os.environ.get(name) for name in DATES]], sort_keys=True)
    cached = _cache[0] / hashlib.sha256(key.encode()).hexdigest()[:20]
    if not cached.is_dir():
        staging = cached.with_suffix(".part")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        build(staging)
        staging.rename(cached)
    dest.mkdir(parents=True, exist_ok=True)
    for item in cached.iterdir():
        if item.is_dir() and not item.is_symlink():
            shutil.copytree(item, dest / item.name, symlinks=True, dirs_exist_ok=True)
        else:
            shutil.copy2(item, dest / item.name, follow_symlinks=False)
