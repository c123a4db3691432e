"""Plugin discovery, enabling, option validation, and the scoped bus (bot/plugins/manager.py)."""

from __future__ import annotations

import logging
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from bot.config.load import CONFIG_PATH, Config, PluginsSection, Resolved, load
from bot.core.errors import Aborted, ConfigError
from bot.events import EventBus, StatusChanged, StatusChanging, ToolCallIntercept
from bot.plugins import available, installed, load_plugins
from bot.plugins.manager import BUILTIN
from bot.state import StateStore

ROOT = Path(__file__).resolve().parent.parent


def resolved_from(tmp_path: Path, toml: str) -> Resolved:
    (tmp_path / CONFIG_PATH).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / CONFIG_PATH).write_text(textwrap.dedent(toml))
    return load(tmp_path)


def install(site: Path, monkeypatch: pytest.MonkeyPatch, name: str, body: str) -> None:
    """Install a third-party plugin the way pip would: a module plus dist-info entry points."""
    module = f"rfd_{name.replace('-', '_')}_plugin"
    site.mkdir()
    monkeypatch.delitem(sys.modules, module, raising=False)  # a fresh import in every test
    (site / f"{module}.py").write_text(
        "from bot.plugins import PluginInfo, hookimpl\n" + textwrap.dedent(body)
    )
    dist = site / f"{module}-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[rfd_bot]\n{name} = {module}\n")
    monkeypatch.syspath_prepend(str(site))


def test_builtins_are_exactly_the_entry_points_pyproject_declares() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert dict(BUILTIN) == project["project"]["entry-points"]["rfd_bot"]


def test_installed_lists_every_plugin_enabled_or_not() -> None:
    config = Config(plugins=PluginsSection(enabled=("notify",)))
    plugins = {p.name: p for p in installed(config)}
    assert sorted(plugins) == ["event-log", "judge", "notify", "policy"]
    assert [n for n, p in plugins.items() if p.enabled] == ["notify"]
    assert plugins["policy"].info.intercepts == ("*",)
    assert plugins["judge"].info.events == ("result.ready",)


def test_only_enabled_plugins_are_registered_in_the_order_listed(tmp_path: Path) -> None:
    resolved = resolved_from(
        tmp_path,
        """
        [plugins]
        enabled = ["policy", "event_log"]
        [plugins.policy]
        deny_tools_in_steps = { review = ["write_file"] }
        """,
    )
    bus = EventBus()
    store = StateStore(tmp_path, resolved.config)
    loaded = load_plugins(bus, resolved, root=tmp_path, store=store)
    assert [p.name for p in loaded] == ["policy", "event-log"]
    assert [owner for _, owner in bus.listeners()] == ["policy", "event-log"]
    assert loaded[0].options["deny_tools_in_steps"] == {"review": ("write_file",)}
    assert loaded[0].options["protected_steps"] == ("implement",)  # schema default


@pytest.mark.parametrize(
    ("toml", "message", "hint", "line"),
    [
        (
            '[plugins]\nenabled = ["notfy"]\n',
            "unknown plugin `notfy` in `plugins.enabled`",
            "installed plugins: event-log, judge, notify, policy",
            2,
        ),
        (
            "[plugins.slack]\nurl = 'x'\n",
            "unknown plugin `slack` in `plugins.slack`",
            "installed plugins: event-log, judge, notify, policy",
            1,
        ),
        (
            '[plugins]\nenabled = ["notify"]\n[plugins.notify]\ncolour = "red"\n',
            "plugin `notify`: unknown key `plugins.notify.colour`",
            "known keys here: events",
            4,
        ),
        (
            '[plugins]\nenabled = ["notify"]\n[plugins.notify]\nretries = "3"\n',
            "plugin `notify`: `plugins.notify.retries` must be an integer, not a string",
            None,
            4,
        ),
        (
            '[plugins]\nenabled = ["notify"]\n[plugins.notify]\nevents = ["turn.started"]\n',
            "plugin `notify`: `plugins.notify.events[0]` must be one of",
            None,
            4,
        ),
        (
            '[plugins]\nenabled = ["policy"]\n[plugins.policy.deny_tools_in_steps]\nreveiw = []\n',
            "plugin `policy`: unknown key `plugins.policy.deny_tools_in_steps.reveiw`",
            "known keys here: accept, converge",
            4,
        ),
        (
            "[plugins]\nenabled = []\n\n[plugins.notify]  # not enabled: still checked\n"
            'url = "x"\nretries = "3"\n',
            "plugin `notify`: `plugins.notify.retries` must be an integer",
            None,
            6,
        ),
        (
            '[plugins]\nenabled = ["policy"]\nnotify = { retries = 9 }\n',
            "plugin `notify`: `plugins.notify.retries` must be at most 5",
            None,
            3,
        ),
    ],
)
def test_configuration_mistakes_name_the_plugin_the_key_the_file_and_the_line(
    tmp_path: Path, toml: str, message: str, hint: str | None, line: int
) -> None:
    resolved = resolved_from(tmp_path, toml)
    with pytest.raises(ConfigError) as err:
        load_plugins(EventBus(), resolved, root=tmp_path)
    assert message in err.value.message
    assert err.value.path == CONFIG_PATH
    assert err.value.line == line
    if hint:
        assert hint in (err.value.hint or "")


def test_a_third_party_plugin_is_found_through_its_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(
        tmp_path / "site",
        monkeypatch,
        "shout",
        """
        @hookimpl
        def rfd_plugin_info():
            return PluginInfo(name="shout", description="Shouts", events=("status.changed",))

        @hookimpl
        def rfd_register(bus, options, context):
            heard = context.root / "heard"
            bus.subscribe("status.changed", lambda ev: heard.write_text(ev.new))
        """,
    )
    assert "shout" in available()
    bus = EventBus()
    config = Config(plugins=PluginsSection(enabled=("shout",)))
    (plugin,) = load_plugins(bus, Resolved(config, {}), root=tmp_path)
    assert plugin.source == "rfd_shout_plugin 1.0"
    bus.emit(StatusChanged(old="Draft", new="Discussion", path="x.md"))
    assert bus.drain(10) == 0  # not inline: its listener runs on the bus's worker
    assert (tmp_path / "heard").read_text() == "Discussion"


@pytest.mark.parametrize(
    ("events", "subscribes"),
    [
        ((), "status.changed"),
        (("status.changed",), "phase.completed"),
        (("*",), "tool_call.intercept"),
    ],
)
def test_a_plugin_gets_only_the_events_it_declared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, events: tuple[str, ...], subscribes: str
) -> None:
    install(
        tmp_path / "site",
        monkeypatch,
        "greedy",
        f"""
        @hookimpl
        def rfd_plugin_info():
            return PluginInfo(name="greedy", description="Wants more", events={events!r})

        @hookimpl
        def rfd_register(bus, options, context):
            bus.subscribe({subscribes!r}, print)
        """,
    )
    config = Config(plugins=PluginsSection(enabled=("greedy",)))
    with pytest.raises(ConfigError, match=f"`greedy` subscribes to `{subscribes}` without"):
        load_plugins(EventBus(), Resolved(config, {}), root=tmp_path)


@pytest.mark.parametrize("event", ["result.ready", "status.changing", "tracking.due"])
def test_an_interceptable_event_must_be_declared_in_intercepts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, event: str
) -> None:
    install(
        tmp_path / "site",
        monkeypatch,
        "sneaky",
        f"""
        @hookimpl
        def rfd_plugin_info():
            return PluginInfo(name="sneaky", description="x", events=({event!r},))

        @hookimpl
        def rfd_register(bus, options, context):
            bus.subscribe({event!r}, lambda ev: None)
        """,
    )
    config = Config(plugins=PluginsSection(enabled=("sneaky",)))
    with pytest.raises(
        ConfigError, match=f"`sneaky` intercepts `{event}` without declaring"
    ) as err:
        load_plugins(EventBus(), Resolved(config, {}), root=tmp_path)
    assert "intercepts" in (err.value.hint or "")


def test_a_declared_interceptable_event_is_delivered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(
        tmp_path / "site",
        monkeypatch,
        "gate",
        """
        from bot.core.errors import Aborted

        @hookimpl
        def rfd_plugin_info():
            return PluginInfo(name="gate", description="x", events=("status.changing",),
                              intercepts=("status.changing", "write_file"))

        @hookimpl
        def rfd_register(bus, options, context):
            def veto(ev):
                raise Aborted("frozen")
            bus.subscribe("status.changing", veto)
        """,
    )
    bus = EventBus()
    config = Config(plugins=PluginsSection(enabled=("gate",)))
    (plugin,) = load_plugins(bus, Resolved(config, {}), root=tmp_path)
    assert plugin.info.tools == frozenset({"write_file"})
    with pytest.raises(Aborted, match="frozen"):
        bus.intercept(StatusChanging(old="Draft", new="Discussion"))


def test_intercepts_naming_no_interceptable_event_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(
        tmp_path / "site",
        monkeypatch,
        "odd",
        """
        @hookimpl
        def rfd_plugin_info():
            return PluginInfo(name="odd", description="x", intercepts=("status.changed",))

        @hookimpl
        def rfd_register(bus, options, context):
            pass
        """,
    )
    config = Config(plugins=PluginsSection(enabled=("odd",)))
    with pytest.raises(ConfigError, match=r"no interceptable event: status\.changed"):
        load_plugins(EventBus(), Resolved(config, {}), root=tmp_path)


def test_an_interceptor_sees_only_the_tools_it_declared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(
        tmp_path / "site",
        monkeypatch,
        "no-shell",
        """
        from bot.core.errors import Aborted

        @hookimpl
        def rfd_plugin_info():
            return PluginInfo(name="no-shell", description="x", events=("tool_call.intercept",),
                              intercepts=("run_command",))

        @hookimpl
        def rfd_register(bus, options, context):
            def veto(ev):
                raise Aborted(f"{ev.tool} refused")
            bus.subscribe("tool_call.intercept", veto)
        """,
    )
    bus = EventBus()
    config = Config(plugins=PluginsSection(enabled=("no-shell",)))
    load_plugins(bus, Resolved(config, {}), root=tmp_path)
    bus.intercept(_call("write_file"))  # not declared: never reaches the plugin
    with pytest.raises(Aborted, match="run_command refused"):
        bus.intercept(_call("run_command"))


def test_an_observer_of_every_event_can_neither_change_nor_stop_a_tool_call(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = Config(plugins=PluginsSection(enabled=("event-log",)))
    (tmp_path / "docs/rfd").mkdir(parents=True)
    (tmp_path / "docs/rfd/.state").write_text("a file where the state directory should be")
    bus = EventBus()
    load_plugins(bus, Resolved(config, {}), root=tmp_path, store=StateStore(tmp_path, config))
    with caplog.at_level(logging.WARNING):
        event = bus.intercept(_call("write_file"))
    assert event.tool == "write_file"
    assert "event-log failed on tool_call.intercept" in caplog.text


def test_a_disabled_plugin_is_checked_but_not_registered(tmp_path: Path) -> None:
    resolved = resolved_from(tmp_path, '[plugins.notify]\nurl = "https://example.com/h"\n')
    bus = EventBus()
    assert load_plugins(bus, resolved, root=tmp_path) == ()
    assert bus.listeners() == []


def test_a_mistake_in_the_user_config_names_that_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "home-config"
    user.mkdir()
    monkeypatch.setenv("RFD_CONFIG_HOME", str(user))
    (user / "config.toml").write_text('# mine\n[plugins.judge]\nmodel = "haiku"\nsteps = ["x"]\n')
    repo = tmp_path / "repo"
    repo.mkdir()
    with pytest.raises(ConfigError) as err:
        load_plugins(EventBus(), load(repo, user=True), root=repo)
    assert err.value.location == f"{user / 'config.toml'}:4"
    assert "`plugins.judge.steps[0]` must be one of" in err.value.message


def _call(tool: str) -> ToolCallIntercept:
    return ToolCallIntercept(rfd_id="045", step="implement", tool=tool, arguments={})


def test_a_broken_plugin_is_listed_with_the_reason_and_fails_only_when_enabled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path / "site", monkeypatch, "broken", "import does_not_exist\n")
    listed = {p.name: p for p in installed(Config())}
    assert "No module named 'does_not_exist'" in (listed["broken"].error or "")
    assert listed["notify"].error is None
    config = Config(plugins=PluginsSection(enabled=("broken",)))
    with pytest.raises(ConfigError, match="plugin `broken` could not be loaded"):
        load_plugins(EventBus(), Resolved(config, {}), root=tmp_path)


def test_with_nothing_enabled_nothing_is_scanned_or_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.plugins.manager.available", lambda: pytest.fail("scanned"))
    assert load_plugins(EventBus(), Resolved(Config(), {}), root=tmp_path) == ()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "@hookimpl\ndef rfd_registr(bus, options, context):\n    pass\n",
            "plugin `typo` is not a valid rfd-bot plugin",
        ),
        (
            "@hookimpl\ndef rfd_plugin_info():\n"
            "    return PluginInfo(name='typo', description='x')\n"
            "@hookimpl\ndef rfd_register(bus, options, context):\n"
            "    raise KeyError('token')\n",
            "plugin `typo` failed to start: 'token'",
        ),
        (
            "@hookimpl\ndef rfd_plugin_info():\n"
            "    return PluginInfo(name='typo', description='x', events=('status.chnaged',))\n",
            "plugin `typo` declares unknown events: status.chnaged",
        ),
    ],
)
def test_a_faulty_plugin_is_a_config_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, message: str
) -> None:
    install(tmp_path / "site", monkeypatch, "typo", body)
    config = Config(plugins=PluginsSection(enabled=("typo",)))
    with pytest.raises(ConfigError, match=message):
        load_plugins(EventBus(), Resolved(config, {}), root=tmp_path)


def test_a_mistake_in_any_plugin_leaves_the_bus_untouched(tmp_path: Path) -> None:
    options = {"notify": {"url": "https://example.com/hook", "retries": 99}}
    config = Config(plugins=PluginsSection(enabled=("policy", "notify"), options=options))
    bus = EventBus()
    with pytest.raises(ConfigError, match="must be at most 5"):
        load_plugins(bus, Resolved(config, {}), root=tmp_path)
    assert bus.listeners() == []
