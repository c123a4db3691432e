"""What :func:`bot.site.corpus.read_corpus` read last time, kept for a rebuild: each RFD's
record under a signature of its files (the RFD's file and every file of its state directory:
name, size, modification time) and of the configuration.  An RFD whose files did not change
is not read again.  Stored as JSON in the output directory (never unpickled)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.site.records import Concern, Decisions, Phase, Review, SiteRfd

VERSION = 3


def signature(paths: list[str]) -> str:
    """The files' names, sizes and times (a missing file counts as missing)."""
    parts = []
    for path in paths:
        try:
            st = os.stat(path)
            parts.append(f"{path}\0{st.st_size}\0{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{path}\0-")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()


def files_of(rfd_file: str, state_dir: str, rfd_folder: str | None = None) -> list[str]:
    """The RFD's file, every file under its state directory and (an RFD with a directory of
    its own) every file there, in a stable order."""
    found = [rfd_file]
    for top in (state_dir, rfd_folder):
        for folder, dirs, names in os.walk(top) if top else ():
            dirs.sort()
            found += [os.path.join(folder, n) for n in sorted(names)]
    return found


def load(path: Path, config: str) -> dict[str, tuple[str, SiteRfd]]:
    """``{rfd path: (signature, record)}``; empty when missing, unreadable or of another
    configuration."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != VERSION or data.get("config") != config:
            return {}
        return {k: (sig, _record(rec)) for k, (sig, rec) in data["rfds"].items()}
    except (OSError, ValueError, TypeError, KeyError):
        return {}


def save(path: Path, config: str, entries: Mapping[str, tuple[str, SiteRfd]]) -> None:
    rfds = {k: [sig, dataclasses.asdict(rec)] for k, (sig, rec) in entries.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"version": VERSION, "config": config, "rfds": rfds}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _record(data: dict[str, Any]) -> SiteRfd:
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    plan, review, decisions = data["plan"], data["review"], data["decisions"]
    fields["plan"] = None if plan is None else tuple(Phase(**p) for p in plan)
    fields["concerns"] = tuple(Concern(**c) for c in data["concerns"])
    fields["review"] = None if review is None else _review(review)
    fields["decisions"] = Decisions(
        locked=tuple(decisions["locked"]),
        discussing=tuple(decisions["discussing"]),
        rejected=tuple((text, reason) for text, reason in decisions["rejected"]),
    )
    return SiteRfd(**fields)


def _review(data: dict[str, Any]) -> Review:
    findings = tuple(tuple(f) for f in data["findings"])
    return Review(**{**data, "findings": findings})
