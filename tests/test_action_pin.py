"""The pin of rfd-bot's action in workflows: read, judged (``rfd lint``) and moved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli.main import main
from bot.config import action_pin
from bot.config.action_pin import Release
from bot.lifecycle import workflow_setup

SHA = "0123456789abcdef0123456789abcdef01234567"
NEW = Release("v1.3.0", "5c2b7e9f1d0a4b3c8e6f2a1d9b7c5e3f1a0b2c4d", "https://x")


class Known:
    def __init__(self, tags: dict[str, str]) -> None:
        self.tags = tags

    def commit_of(self, repo: str, tag: str) -> str | None:
        return self.tags.get(tag)

    def latest(self, repo: str) -> Release | None:
        return None


@pytest.mark.parametrize(
    ("line", "ref", "tag"),
    [
        (f"        uses: acme/rfd-bot/.github/actions/rfd@{SHA} # v1.2.0", SHA, "v1.2.0"),
        (f"      - uses: acme/rfd-bot/.github/actions/rfd@{SHA}", SHA, None),
        ("      - uses: acme/rfd-bot/.github/actions/rfd@v1  # ours", "v1", None),
        ("        uses: Some-Org/rfd-bot.fork/.github/actions/rfd@main", "main", None),
    ],
)
def test_pins_are_read_with_the_release_they_stand_for(
    line: str, ref: str, tag: str | None
) -> None:
    (pin,) = action_pin.pins("w.yml", f"steps:\n{line}\n")
    assert (pin.line, pin.ref, pin.tag, pin.pinned) == (2, ref, tag, ref == SHA)


def test_other_actions_are_not_the_bots() -> None:
    text = "uses: actions/checkout@v4\nuses: acme/rfd-bot/.github/actions/other@v1\n"
    assert action_pin.pins("w.yml", text) == []


def test_a_tag_pin_is_advised_with_the_reason_and_the_sha() -> None:
    text = "      - uses: acme/rfd-bot/.github/actions/rfd@v1.2.0\n"
    (advice,) = action_pin.advise(action_pin.pins("w.yml", text), Known({"v1.2.0": SHA}))
    assert "pinned to 'v1.2.0', not to a commit" in advice.message
    assert "a tag can be moved" in advice.message and "unpinned-uses" in advice.message
    assert advice.hint.endswith(f"`uses: acme/rfd-bot/.github/actions/rfd@{SHA} # v1.2.0`")
    (unknown,) = action_pin.advise(action_pin.pins("w.yml", text), Known({}))
    assert "git ls-remote https://github.com/acme/rfd-bot refs/tags/v1.2.0" in unknown.hint
    pinned = f"uses: acme/rfd-bot/.github/actions/rfd@{SHA} # v1.2.0\n"
    assert action_pin.advise(action_pin.pins("w.yml", pinned), Known({})) == []


lines = st.text(alphabet=st.characters(blacklist_characters="\r\n"), max_size=40)


@given(st.lists(lines, max_size=8), st.sampled_from(["\n", "\r\n"]))
def test_repin_changes_the_pin_lines_only(others: list[str], end: str) -> None:
    pin = f"    - uses: acme/rfd-bot/.github/actions/rfd@v1.2.0   # note{end}"
    text = "".join(f"{line}{end}" for line in others) + pin + "".join(others[:1])
    after = action_pin.repin(text, NEW)
    old, new = text.splitlines(keepends=True), after.splitlines(keepends=True)
    assert [a for a, b in zip(old, new, strict=True) if a != b] == [
        a for a in old if action_pin.USES.match(a.rstrip("\r\n"))
    ]
    assert f"rfd@{NEW.sha} # v1.3.0   # note{end}" in after


def test_rfd_lint_warns_about_a_tag_pin_with_the_sha_to_use(
    rfd_repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """rfd-bot installed from git at the tag's commit: lint knows that commit, offline."""

    class Dist:
        def read_text(self, name: str) -> str:
            url = {"url": "https://github.com/acme/rfd-bot", "vcs_info": {"commit_id": SHA}}
            return json.dumps(url)

    monkeypatch.setattr(workflow_setup.metadata, "distribution", lambda name: Dist())
    flows = rfd_repo / ".github/workflows"
    flows.mkdir(parents=True)
    (flows / "rfd.yml").write_text(
        workflow_setup.render("acme/rfd-bot/.github/actions/rfd@v0.1.0", "main")
    )
    assert main(["-C", str(rfd_repo), "lint"]) == 0  # a warning: the set-up still works
    out = capsys.readouterr().out
    first = next(line for line in out.splitlines() if "rfd.yml" in line)
    assert first.startswith(".github/workflows/rfd.yml:60: warning: rfd-bot's action is pinned")
    assert "a tag can be moved to other code by whoever controls acme/rfd-bot" in first
    assert f"@{SHA} # v0.1.0`" in first
    # one warning per job running the bot (implement has three: check, work, publish)
    assert out.count(": warning: rfd-bot's action is pinned to 'v0.1.0'") == 8
    assert "(8 warnings)" in out


class Newest(Known):
    def latest(self, repo: str) -> Release | None:
        return NEW


def test_a_second_pin_finds_everything_on_the_release(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.lifecycle import pin_update
    from bot.site import publish

    flows = git_repo / ".github/workflows"
    flows.mkdir(parents=True)
    action = workflow_setup.Source("acme/rfd-bot", SHA, tag="v1.2.0").action
    (flows / "rfd.yml").write_text(workflow_setup.render(action, "main"))
    site = publish.render(workflow_setup.Source("acme/rfd-bot", SHA), "main")
    (flows / "rfd-site.yml").write_text(site.replace("rfd-bot@", "rfd-bot.git@"))
    first = pin_update.update(git_repo, Newest({}))
    assert [(m.path, m.old) for m in first.moved] == [
        (".github/workflows/rfd-site.yml", "v1.2.0"),
        (".github/workflows/rfd.yml", "v1.2.0"),
    ]
    assert f'acme/rfd-bot.git@{NEW.sha}"' in (flows / "rfd-site.yml").read_text()
    again = pin_update.update(git_repo, Newest({}))
    assert again.moved == [] and len(again.current) == 2
