"""Which provider runs, and the reason the user is told."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.config import Config, parse
from bot.errors import ConfigError, ProviderError
from bot.llm.offline import OfflineLLM
from bot.llm.select import NONE_SET, select


@pytest.mark.parametrize(
    ("environ", "name", "reason"),
    [
        ({"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"}, "anthropic",
         "ANTHROPIC_API_KEY is set: using Anthropic"),
        ({"OPENAI_API_KEY": "k"}, "openai", "OPENAI_API_KEY is set: using https://api.openai.com/v1"),
        ({"ANTHROPIC_API_KEY": ""}, "offline", NONE_SET),
        ({}, "offline", NONE_SET),
    ],
)  # fmt: skip
def test_auto(environ: dict[str, str], name: str, reason: str) -> None:
    llm, why = select(Config(), environ)
    assert (llm.name, why) == (name, reason)


def test_the_offline_reason_is_said_plainly() -> None:
    assert NONE_SET == (
        "no ANTHROPIC_API_KEY or OPENAI_API_KEY set: using the offline provider "
        "(structural review, deterministic plan extraction)"
    )


def test_custom_key_variable_and_base_url() -> None:
    config = parse(
        '[provider]\nbase_url = "https://generativelanguage.googleapis.com/v1beta/openai"\n'
        'api_key_env = "GEMINI_API_KEY"\n'
    )
    llm, why = select(config, {"GEMINI_API_KEY": "k"})
    assert llm.name == "openai" and "generativelanguage" in why
    assert "no ANTHROPIC_API_KEY or GEMINI_API_KEY set" in select(config, {})[1]


def test_override_and_configured_name() -> None:
    assert select(Config(), {"ANTHROPIC_API_KEY": "k"}, override="offline")[0].offline
    with pytest.raises(ProviderError, match="ANTHROPIC_API_KEY is not set"):
        select(parse('[provider]\nname = "anthropic"\n'), {})
    with pytest.raises(ConfigError, match="unknown provider 'gpt'"):
        select(Config(), {}, override="gpt")


def test_offline_has_no_free_form_model() -> None:
    from bot.llm.base import Message, Request

    with pytest.raises(ProviderError, match="offline provider has no free-form model"):
        OfflineLLM().complete(Request("m", "s", (Message("user", "hi"),)))


def test_selecting_imports_no_sdk() -> None:
    code = (
        "import sys; from bot.config import Config; from bot.llm.select import select; "
        "import bot.usage, bot.llm.base; "
        "select(Config(), {'ANTHROPIC_API_KEY': 'k'}); select(Config(), {'OPENAI_API_KEY': 'k'}); "
        "heavy = {'anthropic', 'httpx', 'httpx2', 'jinja2'} & set(sys.modules); "
        "sys.exit(sorted(heavy) or 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert run.returncode == 0, run.stderr
