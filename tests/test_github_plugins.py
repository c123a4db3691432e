"""The bot loads the enabled plugins like the CLI, and reports bad plugin options on the PR."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.config.load import load
from bot.events import Notice
from bot.forge.github import GitHubForge, RepoApi
from bot.github.ops import open_workspace
from bot.github.run import Context, Delivery, Summary
from tests.conftest import bodies_sent, lines
from tests.github_world import RFD_PATH, RFD_TEXT, event_env, make_world, payload, run_bot

PLUGINS = '[plugins]\nenabled = ["event-log"]\n'


def bot_context(tmp: Path, root: Path) -> Context:
    data = payload("pull_request.labeled.accept")
    environ = event_env(tmp, "pull_request_target", data)
    delivery = Delivery.from_env(environ)
    forge = GitHubForge.from_env(environ)
    resolved = load(root)
    api = RepoApi(forge.repo, forge.pacer)
    summary = Summary("test")
    return Context(delivery, resolved.config, forge, api, root, environ, summary, resolved=resolved)


def test_the_bots_workspace_runs_the_enabled_plugins(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / ".github").mkdir(parents=True)
    (root / ".github/rfd.toml").write_text(PLUGINS, encoding="utf-8")
    ws = open_workspace(bot_context(tmp_path, root), root)
    assert [p.name for p in ws.plugins] == ["event-log"]
    ws.bus.emit(Notice(rfd_id="045", message="Reviewing"))
    assert '"Reviewing"' in (root / "docs/rfd/.state/045/events.jsonl").read_text()


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_a_bad_plugin_option_is_posted_on_the_pr(tmp_path: Path, vcr: Any) -> None:
    config = "[bot]\nseconds_between_writes = 0\n\n[plugins.policy]\nbogus = 1\n"
    broken = {".github/rfd.toml": config}
    _, checkout = make_world(tmp_path, broken, {RFD_PATH: RFD_TEXT})
    data = payload("pull_request.labeled.accept", **{"sender.login": "hubot"})
    assert run_bot(tmp_path, checkout, "pull_request_target", data) == 1
    summary = (tmp_path / "summary.md").read_text()
    assert "plugin `policy`" in summary and "bogus" in summary
    assert ".github/rfd.toml:5" in summary
    (error,) = bodies_sent(vcr)
    assert lines(error) == [
        "### rfd-bot cannot read its configuration",
        "```",
        ".github/rfd.toml:5: plugin `policy`: unknown key `plugins.policy.bogus`",
        "  hint: known keys here: deny_tools_in_steps, path_arguments, protected_globs,"
        " protected_steps",
        "```",
        "Fix `.github/rfd.toml` on the default branch, then re-run this job.",
    ]
