"""Explore's research tools, against a local server on 127.0.0.1 (nothing else is reached)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from bot.agent.toolbox.research import as_text, packages
from bot.cli.main import main
from tests.conftest import rfd_text, write_rfd
from tests.fakes import ScriptedLLM, reply, scripted_providers

LOCAL = pytest.mark.block_network(allowed_hosts=[r"127\.0\.0\.1"])
PAGE = "<html><head><style>p{}</style></head><body><h1>Queues</h1><p>Use SKIP LOCKED.</p>"
PYPI = {
    "info": {"name": "httpx", "version": "0.28.1", "summary": "The next generation HTTP client."}
}


class Site:
    """What the local server answers, and every request it saw (path, headers)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, str]]] = []
        self.port = 0


@pytest.fixture
def site() -> Iterator[Site]:
    state = Site()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.seen.append((self.path, dict(self.headers.items())))
            if self.path == "/away":
                self.send_response(302)
                self.send_header("Location", "http://example.org/elsewhere")
                self.end_headers()
                return
            body, kind = (
                (PAGE, "text/html")
                if self.path == "/page"
                else (json.dumps(PYPI), "application/json")
            )
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> list[ScriptedLLM]:
    from bot.llm.select import Providers

    models: list[ScriptedLLM] = []

    def next_model(cfg: Any, environ: Mapping[str, str]) -> Providers:
        return scripted_providers(models.pop(0))(cfg, environ) if models else Providers(cfg, {})

    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", next_model)
    return models


def _tool_results(llm: ScriptedLLM) -> list[str]:
    last = llm.requests[-1].messages
    return [r.content for m in last for r in m.tool_results]


def _explore(repo: Path, llm: ScriptedLLM, scripted: list[ScriptedLLM]) -> int:
    scripted.append(llm)
    return main(["-C", str(repo), "explore", "1", "--yes"])


@LOCAL
def test_explore_reads_allowed_pages_and_registries_and_nothing_else(
    git_repo: Path, site: Site, scripted: list[ScriptedLLM], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-api03-never-sent-anywhere")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_neverSentAnywhere000000000000000000")
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", status="Draft"))
    base = f"http://127.0.0.1:{site.port}"
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text(
        f'[research]\nweb = true\nallowed_hosts = ["127.0.0.1"]\npypi_url = "{base}"\n'
    )
    calls = (
        ("web_fetch", {"url": f"{base}/page"}),
        ("package_search", {"registry": "pypi", "query": "httpx"}),
        ("web_fetch", {"url": f"{base}/away"}),
        ("web_fetch", {"url": "https://example.org/"}),
    )
    llm = ScriptedLLM([reply("", *calls), reply("Found what I needed.")])
    assert _explore(git_repo, llm, scripted) == 0
    page, package, away, other = _tool_results(llm)
    assert "Queues" in page and "Use SKIP LOCKED." in page and "<p>" not in page
    assert "httpx 0.28.1 — The next generation HTTP client." in package
    assert "'example.org' is not in research.allowed_hosts" in away
    assert "'example.org' is not in research.allowed_hosts" in other
    assert [path for path, _ in site.seen] == ["/page", "/pypi/httpx/json", "/away"]
    for _, headers in site.seen:
        sent = json.dumps(headers).lower()
        assert "authorization" not in sent and "cookie" not in sent
        assert "never-sent" not in sent and "neversent" not in sent
    research = (git_repo / "docs/rfd/.state/001/explore.md").read_text()
    assert research == "Found what I needed.\n"


@LOCAL
def test_research_is_off_by_default(
    git_repo: Path, site: Site, scripted: list[ScriptedLLM]
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", status="Draft"))
    fetch = ("web_fetch", {"url": f"http://127.0.0.1:{site.port}/page"})
    llm = ScriptedLLM([reply("", fetch), reply("Done.")])
    assert _explore(git_repo, llm, scripted) == 0
    assert "web_fetch" not in [t.name for t in llm.requests[0].tools]
    assert "unknown tool `web_fetch`" in _tool_results(llm)[0]
    assert site.seen == []


def test_long_pages_are_cut_visibly_and_html_becomes_text() -> None:
    text = as_text("text/html; charset=utf-8", "<script>x()</script><b>bold</b> " + "a" * 50, 20)
    assert text.startswith("bold ") and "x()" not in text
    assert text.endswith("[cut: 35 more characters]")


def test_registry_answers_become_package_lines() -> None:
    npm = {"objects": [{"package": {"name": "left-pad", "version": "1.3.0", "description": "Pad"}}]}
    crates = {"crates": [{"name": "serde", "max_version": "1.0.0", "description": "Serialize"}]}
    assert packages("npm", json.dumps(npm)) == "- left-pad 1.3.0 — Pad"
    assert packages("crates", json.dumps(crates)) == "- serde 1.0.0 — Serialize"
    assert packages("npm", json.dumps({"objects": []})) == "no package found"
