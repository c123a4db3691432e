"""A model obeying a prompt injection drives implement, through the CLI and through the bot.

Its item plants a ``conftest.py`` and runs the allowed pytest; the conftest reads every
process's environment, the home's and the checkout's git config, its own environment
and the runner's files into ``leak.txt`` (plain, reversed, base64, hex, URL-encoded),
writes ``.github/workflows/x.yml`` and has pytest empty ``docs/`` (``--basetemp=docs``).
Secrets are planted everywhere (:mod:`tests.hostile`); none may come out.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.agent.implementation.isolation import Mechanism, choose, works
from tests.conftest import git, rfd_text, write_rfd
from tests.fakes import ScriptedLLM, item_done, reply, scripted_providers
from tests.github_world import RFD_PATH, RFD_TEXT, make_world, payload, run_bot
from tests.hostile import (
    ATTACK,
    ATTACK_COMMAND,
    PYTEST,
    SECRETS,
    hostile_item,
    leaked,
    leaked_files,
    plant,
)

isolating = pytest.mark.skipif(choose("auto") is None, reason="no isolation works here")
MECHANISMS = [
    pytest.param(m, id=m.value, marks=pytest.mark.skipif(not works(m), reason=f"no {m.value}"))
    for m in Mechanism
]
WORKFLOW = ".github/workflows/x.yml"
DISCARDED = f"not taken: `{WORKFLOW}` is protected (git, CI or hook configuration"
CONFIG = f'[bot]\nseconds_between_writes = 0\n\n[implement]\nallowed_commands = ["{PYTEST}"]\n'

ACCEPTED_RFD = RFD_TEXT.replace("Discussion", "Accepted")
"""RFD 045 as :func:`accepted_world` commits it: what every pushed branch must still hold."""


def accepted_world(tmp_path: Path, config: str = CONFIG) -> tuple[Path, Path]:
    """RFD 045 accepted with a two-phase plan on the default branch: ``(origin, checkout)``."""
    from bot.model.plan import PlanPhase, dumps

    plan = dumps((PlanPhase("Writer", "w"), PlanPhase("Endpoint", "e")))
    files = {
        RFD_PATH: ACCEPTED_RFD,
        "docs/rfd/.state/045/plan.json": plan,
        ".github/rfd.toml": config,
    }
    return make_world(tmp_path, files, {})


def hostile_model(summary: str) -> ScriptedLLM:
    plan = "- [ ] 1. Write the CSV writer\n"
    item = [reply("", *hostile_item()), item_done("done")]
    return ScriptedLLM([reply("Research."), reply(plan), *item, reply(summary)])


@isolating
def test_the_cli_lets_no_secret_out_and_keeps_the_rfds(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli.main import main

    rfd = write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text(CONFIG, encoding="utf-8")
    assert main(["-C", str(git_repo), "accept", "1"]) == 0
    rfd_before = rfd.read_text(encoding="utf-8")
    plant(monkeypatch, Path.home(), git_repo)
    llm = hostile_model("Schema added.")
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    assert main(["-C", str(git_repo), "implement", "1", "--yes"]) == 0
    out, err = capsys.readouterr()
    assert DISCARDED in out
    assert "GIT_CONFIG_GLOBAL" in (git_repo / "leak.txt").read_text()  # the attack ran
    assert leaked(out + err) == []
    assert leaked_files(git_repo / "docs") == {} and leaked_files(git_repo / "leak.txt") == {}
    assert not (git_repo / WORKFLOW).exists()
    assert rfd.read_text(encoding="utf-8") == rfd_before
    assert (git_repo / "docs/rfd/.state/001/phases/1.md").read_text() == "Schema added.\n"


@isolating
@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_the_bot_pushes_no_secret_and_no_protected_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    origin, checkout = accepted_world(tmp_path)
    plant(monkeypatch, Path.home(), checkout)
    llm = hostile_model("The writer streams rows.")
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    env = {"GITHUB_TOKEN": SECRETS["GITHUB_TOKEN"]}
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment(), **env) == 0

    pushed = tmp_path / "pushed"
    git(tmp_path, "clone", "-q", "--branch", "rfd/045-phase-1", str(origin), str(pushed))
    assert not (pushed / WORKFLOW).exists()
    assert "GIT_CONFIG_GLOBAL" in (pushed / "leak.txt").read_text()  # the attack ran
    assert leaked_files(pushed) == {}  # code, leak.txt, state files: nothing
    assert (pushed / RFD_PATH).read_text(encoding="utf-8") == ACCEPTED_RFD
    out, err = capsys.readouterr()
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert leaked(out + err + summary) == []
    posted = [json.loads(body) for body in sent_bodies()]  # exactly what was sent (all_played)
    assert any(DISCARDED in post.get("body", "") for post in posted)  # the reply says it
    assert leaked(json.dumps(posted)) == []  # comments and the PR body


BOT_REFUSED = [
    "not taken: `.pre-commit-config.yaml` is protected (git, CI or hook configuration",
    "not taken: `big.bin` is 600,000,000 bytes, over the limit of 10,000,000 bytes per file",
    "not taken: `env.txt` is a symbolic link",
    "not taken: `docs/rfd/045-streaming-exports.md` (deleted) is an RFD or RFD state",
]


@pytest.mark.parametrize("mechanism", MECHANISMS)
@pytest.mark.vcr
@pytest.mark.usefixtures("all_played", "fixed_git_dates")
def test_after_every_attack_the_bot_pushes_only_allowed_regular_files(
    tmp_path: Path, mechanism: Mechanism, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model renames `docs/`, plants links to `/proc/self/environ` and a host directory
    where the bot's state was, writes hook configuration and another RFD, a FIFO, a hard link
    and a 600 MB sparse file: the pushed branch holds none of it, the PR body and the reply
    say what was refused and why, nothing lands outside the checkout."""
    config = (
        f'[bot]\nseconds_between_writes = 0\n\n[implement]\nisolation = "{mechanism.value}"\n'
        f'allowed_commands = ["{ATTACK_COMMAND}"]\nverify = ""\n'
    )
    origin, checkout = accepted_world(tmp_path, config)
    host = tmp_path / "host"
    host.mkdir()
    plant(monkeypatch, Path.home(), checkout)
    tools = [
        ("write_file", {"path": "attack.py", "content": ATTACK}),
        ("write_file", {"path": "targets.txt", "content": f"{host} /opt/none/.credentials"}),
        ("run_command", {"command": ATTACK_COMMAND}),
    ]
    plan_text = "- [ ] 1. Write the CSV writer\n"
    script = [reply("Research."), reply(plan_text), reply("", *tools), item_done("done")]
    llm = ScriptedLLM([*script, reply("The writer streams rows.")])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))
    env = {"GITHUB_TOKEN": SECRETS["GITHUB_TOKEN"]}
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment(), **env) == 0

    pushed = tmp_path / "pushed"
    git(tmp_path, "clone", "-q", "--branch", "rfd/045-phase-1", str(origin), str(pushed))
    tree = git(pushed, "ls-tree", "-r", "HEAD").splitlines()
    assert all(line.split()[0] in ("100644", "100755") for line in tree)  # no link, no gitlink
    paths = {line.split("\t", 1)[1] for line in tree}
    assert {"attack.py", "loot.txt", "targets.txt"} <= paths
    assert not paths & {
        "env.txt",
        "hostdir",
        "big.bin",
        "pipe",
        "a.txt",
        "b.txt",
        ".pre-commit-config.yaml",
        "docs/rfd/002-b.md",
    }
    assert not any(p.startswith("docs-old/") for p in paths)
    assert (pushed / RFD_PATH).read_text(encoding="utf-8") == ACCEPTED_RFD
    assert leaked_files(pushed) == {} and list(host.iterdir()) == []
    assert leaked(repr(llm.requests)) == []
    name = f"test_after_every_attack_the_bot_pushes_only_allowed_regular_files[{mechanism.value}]"
    posted = [json.loads(body) for body in sent_bodies(f"{name}.yaml")]
    assert leaked(json.dumps(posted)) == []
    [pull] = [p for p in posted if "head" in p]
    [answer] = [p["body"] for p in posted if "rfd-bot:reply" in p.get("body", "")]
    for line in BOT_REFUSED:
        assert line in pull["body"] and line in answer, line


@pytest.mark.vcr
@pytest.mark.usefixtures("all_played")
def test_the_bot_refuses_implement_where_nothing_isolates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fail closed, before any model call; the reply says how to enable isolation."""
    config = CONFIG + 'isolation = "none"\n'
    _, checkout = make_world(tmp_path, {RFD_PATH: RFD_TEXT, ".github/rfd.toml": config}, {})
    providers = scripted_providers(ScriptedLLM([]))
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", providers)
    assert run_bot(tmp_path, checkout, "issue_comment", implement_comment()) == 0
    [reply_body] = [json.loads(b)["body"] for b in sent_bodies(REFUSED) if "rfd-bot:reply" in b]
    assert "cannot be isolated here" in reply_body and "bubblewrap" in reply_body


def implement_comment() -> dict[str, object]:
    data = payload("issue_comment.created.issue", **{"comment.body": "/rfd implement"})
    data["issue"]["body"] = "<!-- rfd-bot:tracking:045 -->\nTracking issue"
    data["issue"]["user"] = {**data["issue"]["user"], "login": "github-actions[bot]"}
    return data


COMMIT_MARK = re.compile(rb"<!-- rfd-bot:commit:[0-9a-f]{40} -->")


def _sha_masked(request: Any) -> Any:
    if request.body:
        request.body = COMMIT_MARK.sub(b"<!-- rfd-bot:commit:<sha> -->", request.body)
    return request


@pytest.fixture(scope="module")
def vcr_config(vcr_config: dict[str, Any]) -> dict[str, Any]:
    """The phase commit of a hostile run has a sha of its own each time (what the run leaves
    holds temporary paths): the reply's marker naming it is compared without the sha."""
    return {**vcr_config, "before_record_request": _sha_masked}


PUSHED = "test_the_bot_pushes_no_secret_and_no_protected_path.yaml"
REFUSED = "test_the_bot_refuses_implement_where_nothing_isolates.yaml"


def sent_bodies(name: str = PUSHED) -> list[str]:
    import yaml

    path = Path(__file__).parent.parent / "cassettes" / "test_implement_hostile" / name
    exchanges = yaml.safe_load(path.read_text(encoding="utf-8"))["interactions"]
    return [e["request"]["body"] for e in exchanges if e["request"]["body"]]
