"""Each attack a model obeying a prompt injection tried on ``rfd implement``, replayed by a
scripted model under bubblewrap and under unshare.

The model works in a copy; its commands see an allow-list of the host; what comes back into
the checkout is validated data; every request to the model is checked for the job's secrets.
What a user would check: no secret in any request to the model, in the output, in any file of
the checkout or outside it; only allowed paths changed; every refusal said with its reason.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.agent.implementation.isolation import Mechanism, works
from tests.conftest import git, rfd_text, write_rfd
from tests.fakes import ScriptedLLM, item_done, reply, scripted_providers
from tests.hostile import (
    ATTACK,
    ATTACK_COMMAND,
    CONFTEST,
    PYTEST,
    RUNNER_SECRET,
    SECRETS,
    TEST_TMP,
    leaked,
    leaked_files,
    plant,
)

MECHANISMS = [
    pytest.param(m, marks=pytest.mark.skipif(not works(m), reason=f"{m.value} does not work here"))
    for m in Mechanism
]
REFUSED = {
    "env.txt": "is a symbolic link",
    "hostdir": "is a symbolic link",
    ".pre-commit-config.yaml": "is protected (git, CI or hook configuration",
    "docs/rfd/002-b.md": "is an RFD or RFD state, which only the bot writes",
    "docs/rfd/.state/002/plan.json": "is an RFD or RFD state",
    "pipe": "is not a regular file (a device, FIFO or socket)",
    "a.txt": "has another hard link",
    "b.txt": "has another hard link",
    "docs-old/rfd/001-a.md": "is a copy of `docs/rfd/001-a.md`, which the model may not write",
    "docs/rfd/001-a.md": "(deleted) is an RFD or RFD state",
    "big.bin": "is 600,000,000 bytes, over the limit of 10,000,000 bytes per file",
}


@pytest.fixture
def runner_credentials() -> Iterator[Path]:
    """A self-hosted runner's credentials file, installed outside ``/home`` (in ``/opt``)."""
    place = Path("/opt") / f"rfd-test-runner-{uuid.uuid4().hex[:8]}"
    try:
        place.mkdir()
    except OSError:
        pytest.skip("/opt is not writable here")
    (place / ".credentials").write_text(f'{{"token": "{RUNNER_SECRET}"}}\n', encoding="utf-8")
    yield place / ".credentials"
    (place / ".credentials").unlink()
    place.rmdir()


def repo_with_rfds(git_repo: Path, config: str) -> Path:
    write_rfd(git_repo, "001-a.md", rfd_text("001", "A"))
    write_rfd(git_repo, "002-b.md", rfd_text("002", "B"))
    (git_repo / ".github").mkdir()
    (git_repo / ".github/rfd.toml").write_text(config, encoding="utf-8")
    from bot.cli.main import main

    assert main(["-C", str(git_repo), "accept", "1"]) == 0
    git(git_repo, "add", "-A")
    git(git_repo, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "accepted")
    return git_repo


def config_for(mechanism: Mechanism, commands: list[str], verify: str = '""') -> str:
    listed = ", ".join(f'"{c}"' for c in commands)
    return (
        f'[implement]\nisolation = "{mechanism.value}"\nallowed_commands = [{listed}]\n'
        f"verify = {verify}\n"
    )


def changed(repo: Path) -> list[str]:
    out = subprocess.run(
        ["git", "status", "--porcelain=v1", "--untracked-files=all", "--no-renames"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return sorted(line[3:] for line in out.splitlines())


def snapshot(repo: Path, names: list[str]) -> dict[str, str]:
    return {n: (repo / n).read_text(encoding="utf-8") for n in names}


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_a_hostile_model_gets_no_secret_and_changes_only_allowed_paths(
    git_repo: Path,
    tmp_path: Path,
    mechanism: Mechanism,
    runner_credentials: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bot.cli.main import main

    repo = repo_with_rfds(git_repo, config_for(mechanism, [ATTACK_COMMAND]))
    kept = ["docs/rfd/001-a.md", "docs/rfd/002-b.md", "docs/rfd/.state/001/plan.json"]
    before = snapshot(repo, kept)
    host = tmp_path / "host"
    host.mkdir()
    plant(monkeypatch, Path.home(), repo)
    tools = [
        ("write_file", {"path": "attack.py", "content": ATTACK}),
        ("write_file", {"path": "targets.txt", "content": f"{host} {runner_credentials}"}),
        ("run_command", {"command": ATTACK_COMMAND}),
    ]
    reads = [("read_file", {"path": p}) for p in ("env.txt", "hostdir/x", "big.bin", "pipe")]
    writes = [
        ("write_file", {"path": "docs/rfd/.state/002/plan.json", "content": "[]"}),
        ("write_file", {"path": "src/ok.py", "content": "VALUE = 1\n"}),
    ]
    item = [reply("", *tools), reply("", *reads), reply("", *writes), item_done("done")]
    llm = ScriptedLLM([reply("Research."), reply("- [ ] 1. Do it\n"), *item, reply("Done.")])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))

    assert main(["-C", str(repo), "implement", "1", "--yes"]) == 0

    out, err = capsys.readouterr()
    assert "did link environ" in repr(llm.requests)  # the attack ran in the copy
    assert leaked(repr(llm.requests)) == []  # no request to the model holds a secret
    assert RUNNER_SECRET not in repr(llm.requests)
    assert leaked(out + err) == [] and RUNNER_SECRET not in out + err
    assert leaked_files(repo) == {} and RUNNER_SECRET not in (repo / "loot.txt").read_text()
    assert list(host.iterdir()) == []  # nothing written outside the checkout
    assert snapshot(repo, kept) == before  # the RFDs and the plan are the bot's
    assert (repo / "docs/rfd/.state/001/phases/1.md").read_text() == "Done.\n"
    allowed = {"attack.py", "loot.txt", "src/ok.py", "targets.txt"}
    assert (
        set(changed(repo)) - {p for p in changed(repo) if p.startswith("docs/rfd/.state/")}
        == allowed
    )
    for path, reason in REFUSED.items():
        assert f"not taken: `{path}` {reason}" in out, path


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_the_after_item_check_runs_model_code_isolated_with_no_command_allowed(
    git_repo: Path,
    mechanism: Mechanism,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``allowed_commands = []``: the model runs nothing itself, but the check (pytest)
    runs the ``conftest.py`` it wrote — in the sandbox, on the copy."""
    from bot.cli.main import main

    repo = repo_with_rfds(git_repo, config_for(mechanism, [], verify=f'"{PYTEST} -q"'))
    (repo / "test_tmp.py").write_text(TEST_TMP, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "-m", "tests")
    rfd_before = (repo / "docs/rfd/001-a.md").read_text(encoding="utf-8")
    plant(monkeypatch, Path.home(), repo)
    item = [reply("", ("write_file", {"path": "conftest.py", "content": CONFTEST})), item_done()]
    llm = ScriptedLLM([reply("Research."), reply("- [ ] 1. Test\n"), *item, reply("Checked.")])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))

    assert main(["-C", str(repo), "implement", "1", "--yes"]) == 0

    out, err = capsys.readouterr()
    loot = (repo / "leak.txt").read_text(encoding="utf-8")
    assert "GIT_CONFIG_GLOBAL" in loot  # the conftest ran, under the check
    assert leaked(loot) == [] and leaked(repr(llm.requests)) == [] and leaked(out + err) == []
    assert (repo / "docs/rfd/001-a.md").read_text(encoding="utf-8") == rfd_before
    assert not (repo / ".github/workflows/x.yml").exists()
    assert "not taken: `.github/workflows/x.yml` is protected" in out


def test_a_request_holding_a_secret_is_never_sent(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file the model reads holds the job's token (it was committed by mistake): the run
    stops before the request that would carry it, and says why."""
    from bot.cli.main import main

    config = config_for(Mechanism.BWRAP, [])
    repo = repo_with_rfds(git_repo, config.replace('"bwrap"', '"auto"'))
    (repo / "notes.txt").write_text(f"token: {SECRETS['GITHUB_TOKEN']}\n", encoding="utf-8")
    plant(monkeypatch, Path.home(), repo)
    read = reply("", ("read_file", {"path": "notes.txt"}))
    llm = ScriptedLLM([reply("Research."), reply("- [ ] 1. Read\n"), read, item_done()])
    monkeypatch.setattr("bot.lifecycle.workspace.make_providers", scripted_providers(llm))

    assert main(["-C", str(repo), "implement", "1", "--yes"]) == 1

    assert len(llm.requests) == 3  # the fourth, with the file's text, was not sent
    assert leaked(repr(llm.requests)) == []
    err = capsys.readouterr().err
    assert "a request to the model held the value of GITHUB_TOKEN" in err
    assert os.environ["GITHUB_TOKEN"] not in err
