"""Re-record LLM cassettes offline: answer each request with the cassette's own responses.

The *responses* in ``cassettes/`` were written by hand to match what the real APIs
send (field names, headers, SSE event order, error bodies).  When a prompt template
or the request a provider builds changes, the recorded *requests* stop matching.
Re-record them without a network or a key::

    python -m pytest tests/test_llm_anthropic.py -p tests.data.rerecord --record-mode=rewrite

Each HTTP request of a test is answered with the next response of that test's
existing cassette, in order, while vcrpy records the request as the provider now
sends it (with the Authorization / x-api-key headers filtered, see conftest).
Only for maintainers; tests never load this plugin.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

CASSETTES = Path(__file__).resolve().parents[2] / "cassettes"
_queue: list[dict[str, Any]] = []
_header: dict[Path, str] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Load the responses before pytest-recording deletes the cassette (rewrite mode)."""
    module = item.module.__name__.split(".")[-1]  # type: ignore[attr-defined]
    path = CASSETTES / module / f"{item.name}.yaml"
    _queue.clear()
    if path.is_file():
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        _queue.extend(i["response"] for i in data.get("interactions", []))
        lines = text.splitlines(keepends=True)
        _header[path] = "".join(line for line in lines[:5] if line.startswith("#"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Any:
    """Put back the cassette's header (how it was made) once vcrpy has rewritten it."""
    yield
    for path, header in list(_header.items()):
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        if text and not text.startswith("#"):
            path.write_text(header + text, encoding="utf-8")
    _header.clear()


def _serve(transport: Any, request: Any) -> Any:
    import httpx
    import httpx2

    lib = httpx2 if type(transport).__module__.startswith("httpx2") else httpx
    request.read()
    if not _queue:
        raise RuntimeError(f"no hand-written response left for {request.method} {request.url}")
    r = _queue.pop(0)
    headers = [(k, v) for k, values in r["headers"].items() for v in values]
    body = r["body"]["string"]
    return lib.Response(
        r["status"]["code"],
        headers=headers,
        content=body.encode() if isinstance(body, str) else body,
        extensions={"reason_phrase": r["status"]["message"].encode("ascii")},
    )


def pytest_configure(config: pytest.Config) -> None:
    """Make vcrpy's "real" transports the hand-written responses (imported late: vcrpy's
    matchers must be imported after pytest-recording registers them for rewriting)."""
    import vcr.patch

    vcr.patch._HttpxHttpTransport_handle_request = _serve  # type: ignore[attr-defined]
    vcr.patch._Httpx2HttpTransport_handle_request = _serve  # type: ignore[attr-defined]
