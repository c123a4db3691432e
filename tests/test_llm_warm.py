"""bot.llm.select: the SDK a step will call is imported in the background; no model, no SDK.

Plus the events as the action runs them, in a fresh interpreter: an offline review and an
event that reaches no model import no SDK at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config.load import Config, parse
from bot.llm.select import sdk_for
from tests.github_world import NOW, RFD_PATH, RFD_TEXT, event_env, make_world, payload

CHECKOUT = Path(__file__).resolve().parent.parent
GEMINI = '[provider]\nbase_url = "https://example.test/v1"\napi_key_env = "GEMINI_API_KEY"\n'
SDKS = ("anthropic", "httpx")


@pytest.mark.parametrize(
    ("config", "environ", "step", "module"),
    [
        ("", {}, "review", None),  # offline: no model
        ("", {"ANTHROPIC_API_KEY": "k"}, "review", "anthropic"),
        ("", {"ANTHROPIC_API_KEY": "k"}, "accept", "anthropic"),
        (
            GEMINI + '[steps.review]\nmodel = "gemini-pro"\n',
            {"GEMINI_API_KEY": "g"},
            "review",
            "httpx",
        ),
        # a non-Claude model with only the Anthropic key: the step reports it, nothing is loaded
        ('[steps.review]\nmodel = "gemini-pro"\n', {"ANTHROPIC_API_KEY": "k"}, "review", None),
    ],
)
def test_the_sdk_of_the_steps_provider(
    config: str, environ: dict[str, str], step: str, module: str | None
) -> None:
    assert sdk_for(parse(config) if config else Config(), environ, step) == module


def _modules_after(code: str, env: dict[str, str]) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return [m for m in json.loads(proc.stdout.splitlines()[-1]) if m in SDKS]


def test_warm_up_imports_the_sdk_in_the_background_and_only_with_a_model() -> None:
    code = (
        "import json, sys; from bot.config.load import Config; from bot.llm.select import warm_up; "
        "thread = warm_up(Config(), dict(__import__('os').environ), 'review'); "
        "thread and thread.join(); print(json.dumps(sorted(sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("OPENAI_API_KEY", None)
    assert _modules_after(code, env) == []
    assert _modules_after(code, {**env, "ANTHROPIC_API_KEY": "k"}) == ["anthropic"]


def test_the_collector_runs_again_after_the_import_and_skips_the_sdk() -> None:
    """The import pauses the garbage collector, never leaves it off (a long implement run
    would grow), and freezes the SDK's objects so later collections do not scan them."""
    code = (
        "import gc, json; from bot.config.load import Config; from bot.llm.select import "
        "warm_up; thread = warm_up(Config(), {'ANTHROPIC_API_KEY': 'k'}, 'review'); "
        "thread.join(); print(json.dumps([gc.isenabled(), gc.get_freeze_count()]))"
    )
    env = {**os.environ, "PYTHONPATH": str(CHECKOUT)}
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    enabled, frozen = json.loads(proc.stdout.splitlines()[-1])
    assert enabled is True
    assert frozen > 100_000  # the SDK's classes, functions and their dictionaries


CASSETTES = CHECKOUT / "cassettes"
CHILD = f"""
import json, sys, vcr
from pathlib import Path
from bot.github.router import main
recorder = vcr.VCR(record_mode="none", decode_compressed_response=True,
                   match_on=["method", "scheme", "host", "port", "path", "query", "body"])
with recorder.use_cassette(sys.argv[1]) as cassette:
    code = main(dict(__import__("os").environ), root=Path(sys.argv[2]), clock=lambda: {NOW})
    assert cassette.all_played, "requests not made"
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] != "vcr")))
sys.exit(code)
"""


@pytest.mark.parametrize(
    ("cassette", "kind", "event"),
    [
        (
            "test_github_review_label/test_review_is_committed_posted_and_label_removed.yaml",
            "pull_request_target",
            "pull_request.labeled.review",
        ),
        (
            "test_github_status_comment/test_opened_posts_one_status_comment.yaml",
            "pull_request",
            "pull_request.opened",
        ),
    ],
)
def test_an_event_without_a_model_imports_no_sdk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cassette: str, kind: str, event: str
) -> None:
    """An offline review (no key) and a status comment, as the action runs them."""
    path = CASSETTES / cassette
    for name in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):  # the cassette's shas
        monkeypatch.setenv(name, "2026-11-22T02:00:00+00:00")
    _, checkout = make_world(tmp_path, {"README.md": "hello\n"}, {RFD_PATH: RFD_TEXT})
    (checkout / ".github" / "rfd.toml").write_text("", encoding="utf-8")
    env = {**os.environ, **event_env(tmp_path, kind, payload(event)), "PYTHONPATH": str(CHECKOUT)}
    env["GITHUB_STEP_SUMMARY"] = str(tmp_path / "summary.md")
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        env.pop(name, None)
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(checkout)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    modules = json.loads(proc.stdout.splitlines()[-1])
    assert [m for m in modules if m.split(".")[0] == "anthropic"] == []
    assert [m for m in modules if m.split(".")[0] == "pluggy" or m.startswith("bot.plugins")] == []
    assert "github" in modules  # it did reach GitHub
