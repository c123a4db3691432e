"""The values of the secrets the process holds are found in any encoding, and redacted."""

from __future__ import annotations

import base64
import codecs
import urllib.parse

import pytest

from bot.core.redact import held, redact, secret_names
from tests.hostile import SECRETS, leaked

TOKEN = SECRETS["GITHUB_TOKEN"]


def test_secret_names_go_beyond_keys_and_tokens() -> None:
    environ = {**SECRETS, "PATH": "/usr/bin", "PWD": "/work", "HOME": "/root", "ODD": "x" * 20}
    assert secret_names(environ, ["ODD"]) == {*SECRETS, "ODD"}


ENCODED = [
    TOKEN,
    TOKEN[::-1],
    TOKEN.encode().hex(),
    TOKEN.encode().hex().upper(),
    urllib.parse.quote(SECRETS["DATABASE_URL"], safe=""),
    base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode(),  # git's extraheader
    base64.b64encode(f"a{TOKEN}".encode()).decode(),
    base64.b64encode(f"ab{TOKEN}".encode()).decode(),
    base64.urlsafe_b64encode(f"abc{SECRETS['ANTHROPIC_API_KEY']}".encode()).decode(),
    base64.b32encode(f"to:{TOKEN}".encode()).decode(),
    base64.b32encode(TOKEN.encode()).decode().lower(),
    base64.b85encode(f"k={TOKEN}".encode()).decode(),
    base64.a85encode(f"q{SECRETS['ANTHROPIC_API_KEY']}".encode()).decode(),
    codecs.encode(TOKEN, "rot13"),
    TOKEN.upper(),
    " ".join(TOKEN),
    "-".join(TOKEN),
    "\n".join(TOKEN[i : i + 6] for i in range(0, len(TOKEN), 6)),
    "\n> ".join(SECRETS["MYSQL_PWD"][i : i + 4] for i in range(0, 20, 4)),
]


@pytest.mark.parametrize("form", ENCODED)
def test_every_encoding_of_a_held_value_is_redacted(form: str) -> None:
    text = f"before {form} after"
    assert leaked(text)  # the test's own decoder sees the secret
    redacted = redact(text, held(SECRETS))
    assert leaked(redacted) == []
    assert redacted.startswith("before ") and redacted.endswith(" after")


def test_the_process_environment_is_what_redact_holds_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MYSQL_PWD", SECRETS["MYSQL_PWD"])
    assert redact(f"pwd {SECRETS['MYSQL_PWD'][::-1]}!") == "pwd [redacted]!"


def test_short_values_are_no_secret() -> None:
    assert not held({"API_KEY": "abc"})
    assert redact("abc abc", held({"API_KEY": "abc"})) == "abc abc"


def test_names_that_merely_contain_a_secret_word_are_not_secrets() -> None:
    environ = {"GIT_AUTHOR_NAME": "Jane Developer", "GIT_AUTHOR_EMAIL": "jane@example.com"}
    assert secret_names(environ) == set()


def test_ordinary_prose_with_separators_is_left_alone() -> None:
    text = "Split the writer - it streams rows; each row, then a flush.\n> quoted line"
    assert redact(text, held(SECRETS)) == text
