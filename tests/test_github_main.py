"""The entry point: environment in, exit code and summary out."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from tests.github_world import event_env, payload


def test_without_actions_environment_it_says_what_is_missing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main() == 1
    assert "::error::GITHUB_EVENT_NAME and GITHUB_EVENT_PATH are not set" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("event", "name"),
    [
        ("pull_request", "pull_request.labeled.review"),  # wrong shape: assigned below
        ("issues", "issue_comment.created.issue"),
        ("watch", "push"),
    ],
)
def test_other_events_are_ignored_with_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    event: str,
    name: str,
) -> None:
    data = payload(name, action="assigned") if event == "pull_request" else payload(name)
    for key, value in event_env(tmp_path, event, data).items():
        monkeypatch.setenv(key, value)
    caplog.set_level("INFO")
    assert main() == 0
    assert [r.getMessage() for r in caplog.records if "ignoring" in r.getMessage()] != []
    assert not (tmp_path / "summary.md").exists()
