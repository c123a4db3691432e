"""Pytest plugin for writing cassettes: dump the body of every unmatched request.

.venv/bin/python -m pytest -p snapshot_plugin tests/test_x.py  (with this dir on
PYTHONPATH) writes ``bodies/_unmatched/<n>.md``; review the text, move it to a named
file in ``bodies/`` and reference it from the scenario.  Never used by the test run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import vcr.errors

OUT = Path(__file__).resolve().parent / "bodies" / "_unmatched"
_original = vcr.errors.CannotOverwriteExistingCassetteException.__init__


def _dump(self: Any, *args: Any, **kwargs: Any) -> None:
    request, cassette = kwargs.get("failed_request"), kwargs.get("cassette")
    if request is not None and request.body:
        OUT.mkdir(parents=True, exist_ok=True)
        data = json.loads(request.body)
        text = data.get("body", json.dumps(data)) if isinstance(data, dict) else json.dumps(data)
        stem = Path(str(getattr(cassette, "_path", "unknown"))).stem
        n = len(list(OUT.glob(f"{stem}-*")))
        (OUT / f"{stem}-{n}-{request.method}.md").write_text(text, encoding="utf-8")
    _original(self, *args, **kwargs)


vcr.errors.CannotOverwriteExistingCassetteException.__init__ = _dump  # type: ignore[method-assign]
