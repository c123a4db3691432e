"""One implement item: a fresh conversation, the model's verdict, and the repository's own
check (``implement.verify``), run after each item.

An item is done only when both say so: the model ends it with ``submit_item_result``
``done`` (:mod:`bot.agent.implementation.item_result`) and ``implement.verify`` passes.
Anything else — a ``failed`` verdict, no verdict, an answer cut off at ``max_tokens``, a
failing check, a provider error — is a failure: the item is tried once more with the
failure (and the check's output) in view, then marked ``[!] … [Failed: reason]``.

The check's command comes from the configuration (a person's choice, not the model's),
so it is not held to ``implement.allowed_commands``; but it runs the tests the model
wrote, so it goes through the same door as the model's commands
(:func:`bot.agent.toolbox.commands.execute`): isolated, or — where nothing isolates —
only when a person confirms it.  ``auto`` picks the usual test command of the
repository (:func:`detect`); ``""`` turns the check off.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.agent.conversation.loop import LoopResult, Stop, answered, run
from bot.agent.conversation.session import Rendered, Session
from bot.agent.implementation import item_result
from bot.agent.implementation.isolation import choose
from bot.agent.implementation.phase_work import PhaseWork
from bot.agent.toolbox.base import Step, ToolContext
from bot.agent.toolbox.commands import UNISOLATED, execute, split
from bot.agent.toolbox.files import recorded_diff
from bot.agent.toolbox.permission import Choice, Mode
from bot.core.errors import ConfigError, ProviderError, ValidationError
from bot.events import ResultReady
from bot.llm.guard import Meter
from bot.model import checklist

STOPS = {Stop.MAX_TURNS: "ran out of turns before finishing", Stop.EMPTY: "empty answers"}
REPORTED = "the model reports it failed: {reason}"
NO_REASON = "no reason given"
CHECK = "implement.verify"
"""What the person is asked about when the check cannot run isolated."""


@dataclass(frozen=True)
class Outcome:
    """How an item ended: its status, the one-line reason of a failure, what to save."""

    status: checklist.ItemStatus
    reason: str
    text: str


@dataclass(frozen=True)
class Task:
    """The item to do, and what its conversation sees."""

    work: PhaseWork
    research: str
    items: str
    item: checklist.Item
    verify: str
    """The check to run after it (``""``: none)."""


def attempt(session: Session, meter: Meter, task: Task) -> Outcome:
    """Run one item, retrying once with the failure in view."""
    reason, detail, text = "", "", ""
    originals: dict[str, str] = {}  # what the item's writes replaced, over both attempts
    for _ in range(2):
        prompt = _prompt(session, task, detail)
        docs = task.work.documents(session, ("research", task.research), ("plan", task.items))
        conversation = session.conversation(Step.IMPLEMENT, prompt.system, meter)
        conversation.calls.ctx.originals.update(originals)
        originals = conversation.calls.ctx.originals
        try:
            result = run(conversation, session.opening(prompt, docs))
            if result.stop is Stop.END and not result.cut_off:
                diff = recorded_diff(conversation.calls.ctx, originals)
                result = answered(conversation, result, _ready(session, task, result, diff))
        except (ProviderError, TimeoutError) as exc:
            reason = detail = str(exc)
            continue
        text = _text(result)
        reason, detail = _judged(session, task, result)
        if not reason:
            return Outcome(checklist.ItemStatus.DONE, "", text)
    reason = item_result.one_line(reason)  # it lands in the checklist line
    saved = f"Failed: {reason}\n\n{text}" if text else f"Failed: {reason}"
    return Outcome(checklist.ItemStatus.FAILED, reason, saved)


def _prompt(session: Session, task: Task, failure: str) -> Rendered:
    count = len(checklist.parse(task.items).items)
    return session.prompt(
        "implement_item",
        item_number=task.item.number,
        item_count=count,
        item_label=task.item.label,
        previous_failure=failure,
        verify_command=task.verify,
        **task.work.variables(),
    )


def _judged(session: Session, task: Task, result: LoopResult) -> tuple[str, str]:
    """``("", "")`` when the item is done; else the one-line reason and what the retry sees."""
    if result.stop is not Stop.END:
        return STOPS[result.stop], STOPS[result.stop]
    if result.cut_off:
        return item_result.CUT_OFF, item_result.CUT_OFF
    claim = item_result.claim(result.messages)
    if claim is None:
        return item_result.NO_RESULT, item_result.NO_RESULT
    if not claim.done:
        reason = REPORTED.format(reason=claim.reason or NO_REASON)
        return reason, reason
    if not task.verify:
        return "", ""
    verdict = verify(session.tool_context(), task.verify, _confirm(session))
    if verdict.passed:
        return "", ""
    return verdict.reason, f"{verdict.reason}; the end of its output:\n{verdict.detail}"


def _confirm(session: Session) -> Confirm | None:
    """The person who may let the check run where nothing isolates (never with nobody to
    ask, as for the model's commands)."""
    prompter = session.prompter
    if prompter is None or session.mode is Mode.CONFINED:
        return None

    def ask(line: str) -> bool:
        preview = f"{UNISOLATED}\n$ {line}"
        answer = prompter.approve(CHECK, {"command": line}, preview)
        return answer.choice is Choice.YES

    return ask


def _text(result: LoopResult) -> str:
    """What the item saves: the model's final message and its result's summary."""
    claim = item_result.claim(result.messages)
    summary = claim.summary.strip() if claim else ""
    parts = [result.text.strip(), summary if summary not in result.text else ""]
    return "\n\n".join(p for p in parts if p)


def _ready(session: Session, task: Task, result: LoopResult, diff: str) -> ResultReady:
    work = task.work
    return ResultReady(
        rfd_id=session.event_id,
        step=Step.IMPLEMENT.value,
        item=task.item.label,
        result=_text(result),
        phase=f"{work.title}\n\n{work.description}",
        document=work.rfd_text,
        diff=diff,
    )


AUTO = "auto"
PYTEST, MAKE, NPM = "pytest -q", "make test", "npm test"
OUTPUT_TAIL = 3_000
"""How much of a failing check's output the retry sees (its end: where the failures are)."""
NPM_DEFAULT = "no test specified"
"""What ``npm init`` writes as the test script: not a test suite."""
_MAKE_TARGET = re.compile(r"^test\s*:(?!=)", re.MULTILINE)
_PYTEST_CONFIG = (
    ("pytest.ini", ""),
    ("pyproject.toml", "[tool.pytest"),
    ("setup.cfg", "[tool:pytest]"),
    ("tox.ini", "[pytest]"),
)
_TEST_GLOBS = ("test_*.py", "*_test.py")
NOT_INSTALLED = (
    "implement.verify: {error}; set implement.verify to the command that runs this "
    'repository\'s tests, or to "" to check items without it'
)
FAILED = "`{command}` failed (exit code {code})"
Confirm = Callable[[str], bool]
"""Asks a person whether a command line may run unisolated (True: yes)."""


@dataclass(frozen=True)
class Verdict:
    """The check's answer on one item: ``reason`` is one line, ``detail`` the output's end."""

    passed: bool
    reason: str = ""
    detail: str = ""


def command_for(root: Path, configured: str) -> str:
    """The verify command: the configured one, or (``auto``) the repository's usual one."""
    return detect(root) if configured.strip() == AUTO else configured.strip()


def detect(root: Path) -> str:
    """``pytest -q``, ``make test`` or ``npm test`` when the repository has such tests; ``""``."""
    if _has_pytest(root):
        return PYTEST
    if _make_target(root / "Makefile"):
        return MAKE
    if _npm_script(root / "package.json"):
        return NPM
    return ""


def _has_pytest(root: Path) -> bool:
    if (root / "conftest.py").is_file():
        return True
    for name, marker in _PYTEST_CONFIG:
        text = _read(root / name)
        if text is not None and marker in text:
            return True
    folders = [root / "tests", root / "test"]
    return any(next(d.rglob(g), None) for d in folders if d.is_dir() for g in _TEST_GLOBS)


def _make_target(path: Path) -> bool:
    text = _read(path)
    return text is not None and _MAKE_TARGET.search(text) is not None


def _npm_script(path: Path) -> bool:
    text = _read(path)
    try:
        scripts = json.loads(text or "{}").get("scripts") or {}
    except (ValueError, AttributeError):
        return False
    test = scripts.get("test") if isinstance(scripts, dict) else None
    return isinstance(test, str) and bool(test.strip()) and NPM_DEFAULT not in test


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
    except OSError:
        return None


def verify(ctx: ToolContext, command: str, confirm: Confirm | None = None) -> Verdict:
    """Run ``command`` in the repository, isolated as the model's commands are; where nothing
    isolates only when ``confirm`` (a person) says yes, else PermissionDenied.  ConfigError
    when it cannot start at all."""
    argv = split(command)
    unisolated = choose(ctx.config.implement.isolation) is None
    confirmed = unisolated and confirm is not None and confirm(shlex.join(argv))
    try:
        done = execute(ctx, argv, unisolated_confirmed=confirmed)
    except ValidationError as exc:
        if "not installed" in exc.message:
            raise ConfigError(NOT_INSTALLED.format(error=exc.message)) from exc
        return Verdict(False, f"`{shlex.join(argv)}` {exc.message}")
    if done.returncode == 0:
        return Verdict(True)
    reason = FAILED.format(command=shlex.join(argv), code=done.returncode)
    return Verdict(False, reason, done.output[-OUTPUT_TAIL:])
