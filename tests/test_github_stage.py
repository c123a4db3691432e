"""Which job runs what (bot/github/run.py): the shipped workflow's split of implement."""

from __future__ import annotations

import pytest

from bot.core.errors import ConfigError
from bot.github.run import JobStage, stage_of


@pytest.mark.parametrize(
    ("value", "implement", "other"),
    [
        ("", True, True),
        ("all", True, True),
        ("commands", False, True),
        ("check", True, False),
        ("work", True, False),
        ("publish", False, False),
    ],
)
def test_each_stage_runs_its_own_commands(value: str, implement: bool, other: bool) -> None:
    stage = stage_of({"RFD_BOT_STAGE": value})
    assert (stage.runs(True), stage.runs(False)) == (implement, other)


def test_an_unknown_stage_is_an_error_naming_the_stages() -> None:
    with pytest.raises(ConfigError, match="is no stage") as caught:
        stage_of({"RFD_BOT_STAGE": "publsh"})
    assert caught.value.hint is not None and "publish" in caught.value.hint
    assert stage_of({}) is JobStage.ALL


def test_only_the_work_job_posts_nothing() -> None:
    """The work job runs code a model wrote: it posts nothing, every other job may."""
    assert [s.value for s in JobStage if not s.posts] == ["work"]
