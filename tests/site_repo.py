"""A realistic corpus for the site: the adopter's repository (:mod:`tests.adopt_repo`) taken
further with rfd-bot's own commands, each step a commit, so the site has every kind of fact
to show and the history every kind of change to report:

* RFD 020 tracked, phases 1 and 2 recorded (the first one's summary names its PR);
* a new draft with code, a table and links (``Requires`` 010, ``Extends`` 020), promoted to
  RFD 032, reviewed (offline), with decisions, a sign-off and an open concern;
* draft D23 abandoned.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from bot.cli.main import main
from tests.adopt_repo import build_adopt_repo

CONSENSUS = '\n[consensus]\nreviewers = ["ana", "ben"]\n'
RARE_WORD = "zeugmatic"
"""In one section of RFD 032 only: search must find it and land on that section."""
RARE_SECTION = "backpressure"

STREAMING = """\
# RFD D60: Streaming Exports

- **Status**: Draft
- **Category**: Design
- **Authors**: Ana Lima <ana@example.org>
- **Date**: 2025-09-01
- **Requires**: [RFD 010]
- **Extends**: [RFD 020]
- **Labels**: exports, performance
- **Discussion**: #412

## Summary

Exports of more than 10 000 rows time out. Stream them as newline-delimited JSON and
deliver completion webhooks through an outbox table. The send stage of [RFD 020] stays as
it is; see also the [pipeline overview](../020-query-pipeline-rewrite.md#design).

## Design

| Part | Where | Owner |
| --- | --- | --- |
| writer | `exports/stream.py` | Ana |
| outbox | `exports/outbox.sql` | Ben |

```python
async def stream(rows: AsyncIterator[Row]) -> AsyncIterator[bytes]:
    async for row in rows:
        yield json.dumps(row.to_dict()).encode() + b"\\n"
```

```toml
[exports]
max_rows = 1_000_000
```

### Backpressure

A slow reader must not hold a database cursor open: the writer pauses the query after
64 KiB in flight. This zeugmatic coupling of reader and cursor is the one risk we keep.

## Implementation Plan

### Phase 1: Outbox table and worker

### Phase 2: Streaming writer

### Phase 3: Replay from the admin page (optional)

[RFD 010]: ../010-streaming-markdown-renderer.md
[RFD 020]: ../020-query-pipeline-rewrite.md
"""


def _git(repo: Path, *args: str, date: str) -> None:
    env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    import os

    subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, env={**os.environ, **env}
    )


def _rfd(repo: Path, *argv: str, who: str = "Jean Mertz") -> None:
    subprocess.run(["git", "config", "user.name", who], cwd=repo, check=True)
    code = main(["-C", str(repo), *argv])
    if code != 0:
        raise AssertionError(f"rfd {' '.join(argv)} exited {code}")


def _commit(repo: Path, message: str, day: int) -> None:
    _git(repo, "add", "-A", date="")
    _git(repo, "commit", "-q", "-m", message, date=f"2025-09-{day:02d}T10:00:00+00:00")


def build_site_repo(dest: Path) -> Path:
    """The repository at ``dest``; its RFD 032 is the rich one."""
    build_adopt_repo(dest)
    _rfd(dest, "init")
    with (dest / ".github/rfd.toml").open("a", encoding="utf-8") as handle:
        handle.write(CONSENSUS)
    _commit(dest, "rfd init, with sign-offs by ana and ben", 1)
    _rfd(dest, "track", "020")
    _commit(dest, "RFD 020: the plan, tracked", 2)
    for label, text in (
        ("1", "Collect stage extracted; merged in PR #301.\n"),
        ("2", "Prompt rendering extracted.\n"),
    ):
        summary = dest / f"summary-{label}.md"
        summary.write_text(text, encoding="utf-8")
        _rfd(dest, "phase", "020", "done", label, "--summary", str(summary))
        summary.unlink()
        _commit(dest, f"RFD 020: phase {label} done", 3 + int(label))
    draft = dest / "docs/rfd/drafts/D60-streaming-exports.md"
    draft.write_text(STREAMING, encoding="utf-8")
    _commit(dest, "Draft: streaming exports", 6)
    _rfd(dest, "promote", "D60", who="Ana Lima")
    _commit(dest, "RFD 032: streaming exports, for discussion", 7)
    _rfd(dest, "review", "032")
    for text in ("Newline-delimited JSON, one object per row", "Webhooks through an outbox table"):
        _rfd(dest, "decide", "032", "add", "--text", text, "--status", "locked")
    _rfd(
        dest, "decide", "032", "add", "--text", "Retry budget per tenant", "--status", "discussing"
    )
    _rfd(dest, "approve", "032", who="ana")
    _rfd(dest, "concern", "032", "the outbox grows without bound", who="ben")
    _commit(dest, "RFD 032: review, decisions, sign-offs", 8)
    _rfd(dest, "abandon", "D23", "--reason", "offline mode is out of scope this year")
    _commit(dest, "D23 abandoned", 9)
    return dest
