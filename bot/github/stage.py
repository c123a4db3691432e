"""Which part of the bot's work this job does (``RFD_BOT_STAGE``, the action's ``stage``).

GitHub's guidance splits untrusted work from privileged work: ``/rfd implement`` runs the
model and its commands in a ``work`` job holding no token that can write code, which hands
its validated phase to a ``publish`` job that holds the write token and no model key
(:mod:`bot.github.implement_publish`); ``commands`` runs every other event and command.
``all`` (the default) does everything in one job, as a workflow without the split does.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from bot.core.errors import ConfigError

STAGE_ENV = "RFD_BOT_STAGE"


class JobStage(enum.Enum):
    ALL = "all"
    COMMANDS = "commands"
    WORK = "work"
    PUBLISH = "publish"

    def runs(self, implement: bool) -> bool:
        """Whether this job runs a command (``implement``: it is ``/rfd implement``)."""
        if self is JobStage.ALL:
            return True
        return implement if self is JobStage.WORK else self is JobStage.COMMANDS and not implement


def stage_of(environ: Mapping[str, str]) -> JobStage:
    value = environ.get(STAGE_ENV, "") or JobStage.ALL.value
    try:
        return JobStage(value)
    except ValueError:
        names = ", ".join(s.value for s in JobStage)
        hint = f"use one of {names}"
        raise ConfigError(f"{STAGE_ENV}={value!r} is no stage", hint=hint) from None
