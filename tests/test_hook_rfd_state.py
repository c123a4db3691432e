"""rfd-state: the state files being committed are valid and hold no secrets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hooks.rfd_state import main
from tests.conftest import git
from tests.hooks_support import STATE, Files, commit, plan_json, rfd, run_hook, staged, write

A = "docs/rfd/001-alpha.md"
S = f"{STATE}/001"
DECISIONS = """# Decisions for RFD 001: Alpha

## Locked

1. Flat event structs.

## Under Discussion

2. Verbosity API shape.

## Rejected

- ~~3. Enum hierarchy.~~ Spans carry the namespace.
"""

LABELLED = (
    '[{"title": "Groundwork", "description": "", "label": "0"},'
    ' {"title": "Split", "description": "", "label": "3a"}]'
)

BAD_TITLE = """[
  {
    "title": "Step 1",
    "description": "Do step 1."
  },
  {
    "title": 2,
    "description": "Do step 2."
  }
]
"""

# (case id, staged state files, expected exit code, what the output must say)
CASES: list[tuple[str, Files, int, tuple[str, ...]]] = [
    ("valid plan", {f"{S}/plan.json": plan_json()}, 0, ()),
    ("valid decisions", {f"{S}/decisions.md": DECISIONS}, 0, ()),
    ("phase of the plan", {f"{S}/plan.json": plan_json(), f"{S}/phases/2.md": "done\n"}, 0, ()),
    (
        "reviews by timestamp",
        {f"{S}/reviews/1721500000.md": "ok\n", f"{S}/impl-reviews/1721586000.md": "ok\n"},
        0,
        (),
    ),
    (
        "free-form files",
        {f"{S}/explore.md": "Risk-free sk- prefixes are fine.\n", f"{S}/events.log": "x\n"},
        0,
        (),
    ),
    ("files outside the state root", {"docs/rfd/.state.md": "x\n", "notes/plan.json": "{"}, 0, ()),
    (
        "shared areas of the state root",
        {f"{STATE}/.forge/issues/1.json": "{}", f"{STATE}/README.md": "x\n"},
        0,
        (),
    ),
    ("plan is not JSON", {f"{S}/plan.json": '[{"title": "x",'}, 1, (f"{S}/plan.json:1:",)),
    (
        "plan breaks the schema",
        {f"{S}/plan.json": '[{"name": "x"}]'},
        1,
        (f"{S}/plan.json:1: phase at index 0 has unknown key 'name'",),
    ),
    (
        "plan is an object",
        {f"{S}/plan.json": '\n{"title": "A", "description": ""}\n'},
        1,
        (
            f"{S}/plan.json:2: plan must be a JSON array, not an object",
            'hint: each phase is {"title": "…", "description": "…"}',
            "`rfd accept`",
        ),
    ),
    (
        "title of phase 2 not a string",
        {f"{S}/plan.json": BAD_TITLE},
        1,
        (f"{S}/plan.json:7: phase at index 1: 'title' must be a string", "hint: each phase is"),
    ),
    (
        "phase 2 not an object",
        {f"{S}/plan.json": '[\n  {"title": "A", "description": ""},\n  "B"\n]'},
        1,
        (f"{S}/plan.json:3: phase at index 1 must be an object, not a string",),
    ),
    (
        "phase 1 without description",
        {f"{S}/plan.json": '[\n  {\n    "title": "A"\n  }\n]'},
        1,
        (f"{S}/plan.json:2: phase at index 0 needs a 'description'",),
    ),
    (
        "decisions without structure",
        {f"{S}/decisions.md": "just some notes\n"},
        1,
        (f"{S}/decisions.md",),
    ),
    (
        "phase beyond the plan",
        {f"{S}/plan.json": plan_json(), f"{S}/phases/3.md": "x\n"},
        1,
        (f"{S}/phases/3.md:1: phase summary '3.md' for no phase: the plan's phases are 1, 2",),
    ),
    ("phase without a plan", {f"{S}/phases/1.md": "x\n"}, 1, ("no valid", "plan.json")),
    ("zero-padded phase", {f"{S}/plan.json": plan_json(), f"{S}/phases/02.md": "x\n"}, 0, ()),
    ("phase by label", {f"{S}/plan.json": LABELLED, f"{S}/phases/3a.md": "x\n"}, 0, ()),
    (
        "label the plan lacks",
        {f"{S}/plan.json": LABELLED, f"{S}/phases/3c.md": "x\n"},
        1,
        ("'3c.md' for no phase: the plan's phases are 0, 3a", "phases/0.md … phases/3a.md"),
    ),
    (
        "phase of an empty plan",
        {f"{S}/plan.json": "[]", f"{S}/phases/1.md": "x\n"},
        1,
        ("for no phase: the plan is empty",),
    ),
    (
        "phase not numbered",
        {f"{S}/plan.json": plan_json(), f"{S}/phases/first.md": "x\n"},
        1,
        ("'first.md' for no phase",),
    ),
    (
        "review not by timestamp",
        {f"{S}/reviews/latest.md": "x\n"},
        1,
        ("'latest.md' is not named by its unix timestamp", "reviews/1721500000.md"),
    ),
    (
        "state of a missing RFD",
        {f"{STATE}/009/explore.md": "x\n", f"{STATE}/009/decisions.md": "y\n"},
        1,
        (f"{STATE}/009/: state for RFD 009, which has no file in docs/rfd",),
    ),
    (
        "state dir not an id",
        {f"{STATE}/alpha/explore.md": "x\n"},
        1,
        ("is not named after an RFD id",),
    ),
    (
        "state dir not canonical",
        {f"{STATE}/1/explore.md": "x\n"},
        1,
        (f"should be named {STATE}/001/",),
    ),
]


@pytest.mark.parametrize(
    ("files", "code", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_state_files(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: Files,
    code: int,
    expected: tuple[str, ...],
) -> None:
    commit(git_repo, {A: rfd(status="Accepted")})
    write(git_repo, files)
    got, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert got == code, out
    for text in expected:
        assert text in out


SECRETS = [
    ("an Anthropic API key", "sk-ant-api03-" + "Q" * 40),
    ("an OpenAI-style API key", "sk-proj-" + "a1B2" * 10),
    ("an OpenAI-style API key", "sk-" + "x" * 48),
    ("a GitHub token", "ghp_" + "A1b2" * 9),
    ("a GitHub token", "ghs_" + "Z9" * 18),
    ("a GitHub fine-grained token", "github_pat_11ABCDEFG0123456789_" + "k" * 40),
    ("an AWS access key id", "AKIA" + "IOSFODNN7EXAMPLE"),
    ("a private key", "-----BEGIN OPENSSH PRIVATE KEY-----"),
    ("a private key", "-----BEGIN RSA PRIVATE KEY-----"),
]


@pytest.mark.parametrize(("kind", "secret"), SECRETS)
def test_secrets_are_reported_without_echoing_them(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    secret: str,
) -> None:
    commit(git_repo, {A: rfd()})
    write(git_repo, {f"{S}/explore.md": f"# Notes\n\nthe key: {secret}\n"})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1
    assert f"{S}/explore.md:3: looks like {kind}" in out
    assert secret not in out
    assert secret[6:20] not in out


HEX40 = "9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THs"

# (case id, a line of a state file holding a secret without a vendor prefix, what is said)
UNPREFIXED = [
    ("exported token", f"export GITHUB_TOKEN={HEX40}", "a secret given to GITHUB_TOKEN"),
    ("yaml api key", 'api_key: "a8f5f167f44f4964e6c998dee827110c"', "a secret given to api_key"),
    ("json api key", '{"apiKey": "a8f5f167f44f4964e6c998dee827110c"}', "a secret given to apiKey"),
    ("bearer jwt", f"Authorization: Bearer {JWT}", "a JSON Web Token"),
    (
        "bearer opaque",
        "curl -H 'Authorization: Bearer 4f2a9c1e7b3d8f6a0e5c9b2d7a1f3e8c'",
        "a secret given to Authorization",
    ),
    ("bare bearer", "sent Bearer 4f2a9c1e7b3d8f6a0e5c9b2d7a1f3e8c to the API", "a bearer token"),
    (
        "aws secret",
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9a8b7c6d",
        "a secret given to AWS_SECRET_ACCESS_KEY",
    ),
    ("client secret", "client_secret = 3d5f7a9b1c2e4f6a8b0c", "a secret given to client_secret"),
    ("password", "db password: hunter2hunter2hunter2x9", "a secret given to password"),
    ("pem key", "-----BEGIN EC PRIVATE KEY-----", "a private key"),
]

# lines a user writes in phase summaries and notes that hold no secret
NOT_SECRETS = [
    f"Implemented in commit {HEX40}.",
    f"key decisions landed in {HEX40[:12]} and {HEX40}",
    "token: <your token>",
    "token: ${{ secrets.GITHUB_TOKEN }}",
    "GITHUB_TOKEN=$GITHUB_TOKEN",
    "api_key: xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "password: ***",
    "token: REDACTED",
    "api_key: your-api-key-goes-here-123",
    "secret: docs/rfd/.state/001/phases/1.md",
    "The token refresh is handled by the forge adapter since 2026.",
    "tokenizer: bert-base-uncased-v1234567",
    "Bearer tokens are refreshed every hour.",
]


@pytest.mark.parametrize(
    ("line", "kind"), [c[1:] for c in UNPREFIXED], ids=[c[0] for c in UNPREFIXED]
)
def test_secrets_without_a_vendor_prefix_are_reported_without_echoing_them(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    line: str,
    kind: str,
) -> None:
    commit(git_repo, {A: rfd()})
    write(git_repo, {f"{S}/phases/notes.md": f"# Phase 1\n\nRan it with\n\n    {line}\n"})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1, out
    assert f"{S}/phases/notes.md:5: looks like {kind}" in out
    assert "for no phase" not in out  # format errors are not reported next to a secret
    for value in re.findall(r"[A-Za-z0-9/+]{16,}", line):
        assert value not in out and value[4:14] not in out


@pytest.mark.parametrize("line", NOT_SECRETS)
def test_placeholders_and_commit_ids_are_not_secrets(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    commit(git_repo, {A: rfd(status="Accepted"), f"{S}/plan.json": plan_json()})
    write(git_repo, {f"{S}/phases/1.md": f"# Phase 1: Step 1\n\n{line}\n"})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert (code, out) == (0, "")


def test_all_files_checks_every_state_file_and_skips_the_rest(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(
        git_repo,
        {
            A: rfd(),
            f"{S}/plan.json": plan_json(),
            f"{S}/phases/1.md": "x\n",
            f"{S}/phases/5.md": "x\n",
            "src/app.py": "print('hi')\n",
        },
    )
    files = git(git_repo, "ls-files").split()
    code, out = run_hook(main, git_repo, files, monkeypatch, capsys)
    assert code == 1
    assert out.count("for no phase") == 1
    assert "phases/5.md" in out


def test_renumbered_rfd_needs_its_state_moved(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {"docs/rfd/D32-x.md": rfd("D32"), f"{STATE}/D32/explore.md": "x\n"})
    git(git_repo, "mv", "docs/rfd/D32-x.md", "docs/rfd/045-x.md")
    write(git_repo, {f"{STATE}/D32/decisions.md": DECISIONS.replace("001", "D32")})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1
    assert out.count("state for RFD D32") == 1
    assert f"git mv {STATE}/D32/ {STATE}/<new id>/" in out


def test_drafts_directory_owns_state_too(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {"docs/rfd/drafts/D7-y.md": rfd("D7")})
    write(git_repo, {f"{STATE}/D7/explore.md": "notes\n"})
    assert run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys) == (0, "")


def test_configured_state_directory(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = '[rfd]\ndir = "rfds"\nstate_dir = "_state"\n'
    commit(git_repo, {".github/rfd.toml": toml, "rfds/001-a.md": rfd()})
    write(git_repo, {"rfds/_state/001/plan.json": "nope", f"{S}/plan.json": "nope"})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1
    assert "rfds/_state/001/plan.json" in out
    assert STATE not in out


def test_a_secret_is_never_echoed_by_a_format_error(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = "sk-ant-api03-" + "Q" * 90
    commit(git_repo, {"docs/rfd/001-a.md": rfd(status="Accepted")})
    plan = f'[{{"title": "x", "description": "y", "{secret}": 1}}]\n'
    write(git_repo, {f"{STATE}/001/plan.json": plan})
    got, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert got == 1 and "looks like" in out
    assert secret not in out and secret[:20] not in out


def test_pre_push_names_the_commit_of_each_problem(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = commit(git_repo, {A: rfd()})
    bad = commit(git_repo, {f"{S}/plan.json": '[{"name": "x"}]'}, "Plan by hand")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", bad)
    code, out = run_hook(main, git_repo, [f"{S}/plan.json"], monkeypatch, capsys)
    assert code == 1
    short = git(git_repo, "rev-parse", "--short", bad).strip()
    assert f"{S}/plan.json:1: phase at index 0" in out
    assert f'\n  in commit {short} "Plan by hand"\n' in out
