"""A third-party plugin on ``query.before``, ``response.*`` and a tool call it answers itself."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from tests import cache_plugin
from tests.conftest import rfd_text, write_rfd
from tests.fakes import ScriptedLLM, reply, scripted_providers


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The plugin as if pip had installed it (its entry point found by name)."""
    import bot.plugins.manager

    builtin = {**bot.plugins.manager.BUILTIN, "cache": "tests.cache_plugin"}
    monkeypatch.setattr(bot.plugins.manager, "BUILTIN", builtin)
    cache_plugin.seen.clear()
    yield


def _run_explore(repo: Path, llm: ScriptedLLM, monkeypatch: pytest.MonkeyPatch) -> int:
    def providers(cfg: Any, environ: Mapping[str, str]) -> Any:
        return scripted_providers(llm)(cfg, environ)

    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", providers)
    return main(["-C", str(repo), "explore", "1", "--yes"])


def test_a_plugin_steers_the_query_hears_the_response_and_answers_a_tool_itself(
    git_repo: Path,
    installed: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A", status="Draft"))
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text('[plugins]\nenabled = ["cache"]\n')
    llm = ScriptedLLM(
        [reply("Let me read it.", ("read_file", {"path": "no-such-file.txt"})), reply("It is 42.")]
    )
    assert _run_explore(git_repo, llm, monkeypatch) == 0
    out = capsys.readouterr()
    screen = out.out + out.err
    first = llm.requests[0].messages[-1].text
    assert first.rstrip().endswith(cache_plugin.STEERING)  # the query as the plugin left it
    assert "plugin `cache` changed the prompt of explore before it was sent" in screen
    result = llm.requests[1].messages[-1].tool_results[0]
    assert (result.content, result.is_error) == (cache_plugin.CACHED, False)  # never ran
    assert "cache answered `read_file` itself: the tool did not run" in screen
    assert ("response.complete", "Let me read it.") in cache_plugin.seen
    assert ("response.complete", "It is 42.") in cache_plugin.seen
    chunks = "".join(t for name, t in cache_plugin.seen if name == "response.chunk")
    assert chunks == "Let me read it.It is 42."
