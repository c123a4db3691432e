"""Which provider runs, and the reason the user is told."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.config.load import Config, parse
from bot.core.errors import ConfigError, ProviderError
from bot.llm.base import OfflineLLM
from bot.llm.openai import OpenAILLM
from bot.llm.select import NONE_SET, Providers, select


@pytest.mark.parametrize(
    ("environ", "name", "reason"),
    [
        (
            {"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"},
            "anthropic",
            "ANTHROPIC_API_KEY is set: using Anthropic",
        ),
        (
            {"OPENAI_API_KEY": "k"},
            "openai",
            "OPENAI_API_KEY is set: using https://api.openai.com/v1",
        ),
        ({"ANTHROPIC_API_KEY": ""}, "offline", NONE_SET),
        ({}, "offline", NONE_SET),
    ],
)
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
        "import sys; from bot.config.load import Config; from bot.llm.select import select; "
        "import bot.llm.usage, bot.llm.base; "
        "select(Config(), {'ANTHROPIC_API_KEY': 'k'}); select(Config(), {'OPENAI_API_KEY': 'k'}); "
        "heavy = {'anthropic', 'httpx', 'httpx2', 'jinja2'} & set(sys.modules); "
        "sys.exit(sorted(heavy) or 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert run.returncode == 0, run.stderr


GEMINI = (
    '[provider]\nbase_url = "https://generativelanguage.googleapis.com/v1beta/openai"\n'
    'api_key_env = "GEMINI_API_KEY"\n'
)
BOTH = {"ANTHROPIC_API_KEY": "k", "GEMINI_API_KEY": "g"}


@pytest.mark.parametrize(
    ("config", "environ", "step", "model", "provider"),
    [
        ("", BOTH, "review", None, "anthropic"),  # sonnet → claude-sonnet-…
        ("", BOTH, "review", "gemini-pro", "openai"),
        ("", BOTH, "refine", "gemini-flash", "openai"),
        ('[steps.review]\nmodel = "gemini-pro"\n', BOTH, "review", None, "openai"),
        ('[steps.review]\nmodel = "gemini-pro"\n', BOTH, "refine", None, "anthropic"),
        ('[steps.review]\nmodel = "gemini-pro"\n', BOTH, "review", "opus", "anthropic"),
        ('[steps.review]\nprovider = "openai"\n', BOTH, "review", None, "openai"),
        ('[steps.review]\nprovider = "offline"\n', BOTH, "review", None, "offline"),
        (
            'name = "offline"\n[steps.review]\nprovider = "auto"\n',
            BOTH,
            "review",
            "gemini-pro",
            "openai",
        ),
        ('name = "offline"\n', BOTH, "review", None, "offline"),
        ("", {"GEMINI_API_KEY": "g"}, "review", None, "offline"),  # Claude model, no its key
        ("", {}, "review", "gemini-pro", "offline"),
        ("", {}, "review", None, "offline"),
    ],
)
def test_each_step_routes_by_its_provider_and_model(
    config: str, environ: dict[str, str], step: str, model: str | None, provider: str
) -> None:
    choice = Providers(parse(GEMINI + config), environ).for_step(step, model)
    assert choice.llm.name == provider


def test_gemini_reviewer_beside_claude_with_both_keys() -> None:
    """The seed's setup: Gemini reviews, Claude does the rest; one instance per provider."""
    providers = Providers(parse(GEMINI + '[steps.review]\nmodel = "gemini-pro"\n'), BOTH)
    review = providers.for_step("review").llm
    assert isinstance(review, OpenAILLM) and "generativelanguage" in review.base_url
    assert providers.for_step("review", "gemini-pro").llm is review
    assert providers.for_step("refine").llm.name == "anthropic"
    assert providers.for_step("implement").llm is providers.for_step("refine").llm


def test_offline_step_says_which_key_it_lacks() -> None:
    reason = Providers(Config(), {"OPENAI_API_KEY": "k"}).for_step("review").reason
    assert reason == (
        "no ANTHROPIC_API_KEY set for claude-sonnet-5-5 (step review): using the offline provider"
    )


def test_a_non_claude_model_without_an_endpoint_is_a_config_error() -> None:
    providers = Providers(Config(), {"ANTHROPIC_API_KEY": "k"})
    with pytest.raises(ConfigError) as caught:
        providers.for_step("review", "gemini-pro")
    assert caught.value.message == (
        "step review uses model gemini-2.5-pro, which is not a Claude model, and no "
        "OpenAI-compatible endpoint is configured ($OPENAI_API_KEY is not set)"
    )
    assert caught.value.hint is not None
    assert "provider.base_url" in caught.value.hint and "(now https://api.openai.com/v1)" in (
        caught.value.hint
    )
    assert '[steps.review] provider = "openai"' in caught.value.hint


def test_an_unknown_step_provider_is_refused_with_the_key() -> None:
    with pytest.raises(ConfigError, match=r"`steps.review.provider` must be one of"):
        parse('[steps.review]\nprovider = "gemini"\n')


def test_routing_builds_only_the_providers_steps_use() -> None:
    """An Anthropic-only run never imports the chat-completions provider (httpx)."""
    code = (
        "import sys; from bot.config.load import Config; from bot.llm.select import Providers; "
        "p = Providers(Config(), {'ANTHROPIC_API_KEY': 'k', 'OPENAI_API_KEY': 'k'}); "
        "[p.for_step(s) for s in ('explore', 'review', 'refine', 'accept', 'implement')]; "
        "p.default(); "
        "loaded = {'bot.llm.openai', 'httpx', 'anthropic'} & set(sys.modules); "
        "sys.exit(sorted(loaded) or 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=".")
    assert run.returncode == 0, run.stderr
