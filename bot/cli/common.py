"""What every ``rfd`` command shares: ``--json``, error translation, the workspace, event echo."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bot.cli.output import Output
from bot.core.atomic import OnExists
from bot.core.errors import AlreadyExists, FileNotFound, RfdError
from bot.core.text import plural

if TYPE_CHECKING:
    from bot.config.schema import Config
    from bot.events import Event
    from bot.lifecycle.workspace import Workspace

Handler = Callable[..., int | None]
_T = TypeVar("_T")
_F = TypeVar("_F", bound=Callable[..., Any])


def rfd_command(name: str | None = None, **settings: Any) -> Callable[[Handler], click.Command]:
    """Make ``fn(out, *args, **kwargs) -> exit code`` a click command with ``--json``.

    Every :class:`RfdError` becomes one clear line on stderr (and a JSON error object on
    stdout in ``--json`` mode) and exit code 1.  Unexpected exceptions are not swallowed.
    """

    def decorate(fn: Handler) -> click.Command:
        @functools.wraps(fn)
        def wrapper(*args: Any, json_mode: bool, **kwargs: Any) -> None:
            ctx = click.get_current_context()
            out = Output(json_mode=json_mode)
            ctx.obj = dict(ctx.obj or {}, out=out)
            try:
                code = fn(out, *args, **kwargs)
            except RfdError as err:
                out.error(err)
                ctx.exit(1)
            ctx.exit(code or 0)

        option = click.option(
            "--json", "json_mode", is_flag=True, help="Print the result as JSON (for scripts)."
        )
        decorator = click.command(name, **settings)
        command: click.Command = decorator(option(wrapper))  # type: ignore[no-untyped-call]
        return command

    return decorate


def on_exists_option(choices: Sequence[OnExists], what: str) -> Callable[[_F], _F]:
    """``--on-exists`` limited to ``choices`` (asked on a terminal when omitted)."""
    names = ", ".join(c.value for c in choices)
    return click.option(
        "--on-exists",
        type=click.Choice([c.value for c in choices]),
        help=f"When {what} exists already: {names} (asked on a terminal when omitted).",
    )


def resolve_exists(
    out: Output,
    attempt: Callable[[OnExists | None], _T],
    given: str | None,
    choices: Sequence[OnExists],
) -> _T:
    """Run ``attempt`` with the ``--on-exists`` choice; when it finds something existing
    and none was given, ask on a terminal and run it again — otherwise the error stands
    (scripts and ``--json`` get the error with the flags to pass, nothing changed)."""
    choice = OnExists(given) if given else None
    try:
        return attempt(choice)
    except AlreadyExists as err:
        if choice is not None or out.json_mode or not sys.stdin.isatty():
            raise
        out.line(str(err))
        values = [c.value for c in choices]
        picked = click.prompt("Choose", type=click.Choice(values), default=OnExists.USE.value)
        return attempt(OnExists(picked))


NOT_A_REPOSITORY = "{start} is not inside a repository (no .git or .github/rfd.toml here or above)"
NOT_A_REPOSITORY_HINT = "run rfd in your repository or pass `-C <dir>`; `rfd init` sets one up"


def repo_root(*, required: bool = True) -> Path:
    """The repository to work in: ``-C`` (default cwd), walked up to its top level.

    Outside any repository: FileNotFound, unless not ``required`` (``rfd init`` starts one
    there, ``rfd config show`` shows the user's layers)."""
    ctx = click.get_current_context()
    start = Path((ctx.find_root().obj or {}).get("repo", ".")).resolve()
    for p in (start, *start.parents):
        if (p / ".git").exists() or (p / ".github" / "rfd.toml").exists():
            return p
    if required:
        raise FileNotFound(NOT_A_REPOSITORY.format(start=start), hint=NOT_A_REPOSITORY_HINT)
    return start


def cli_layer(flags: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The command-line configuration layer: ``rfd --set KEY=VALUE``, then a command's own
    flags (``flags``, nested tables such as ``{"steps": {"review": {"model": "opus"}}}``)."""
    from bot.cli.assignments import merge, parse_assignments

    ctx = click.get_current_context()
    layer = parse_assignments(tuple((ctx.find_root().obj or {}).get("set", ())))
    return merge(layer, flags or {})


def configuration(root: Path) -> Config:
    """The configuration a command that reads the corpus works with: the user's layer, the
    repository's file, the environment and ``--set`` (what ``rfd config show`` reports)."""
    from bot.config.load import load

    return load(root, user=True, cli=cli_layer()).config


def model_flag(step: str, model: str | None) -> dict[str, Any]:
    """``--model`` of a step as the configuration key it overrides (``steps.<step>.model``)."""
    return {"steps": {step: {"model": model}}} if model else {}


def workspace(out: Output, *, flags: Mapping[str, Any] | None = None, **options: Any) -> Workspace:
    """Open the workspace with the terminal as a listener on its event bus.

    The configuration is resolved once, command-line layer included (``--set`` and the
    command's ``flags``), so ``rfd config show`` reports the same values the command uses.
    """
    from bot.config.load import load
    from bot.lifecycle.workspace import Workspace

    root = repo_root()
    resolved = load(root, user=True, cli=cli_layer(flags))
    ws = Workspace.open(root, resolved=resolved, **options)
    ws.bus.subscribe("*", TerminalEcho(out), owner="terminal")
    return ws


class TerminalEcho:
    """Prints what happens, as it happens (an informational listener like any plugin)."""

    def __init__(self, out: Output) -> None:
        self.out = out

    def __call__(self, event: Event) -> None:
        text = self.describe(event)
        if text:
            self.out.line(f"  → {text}", style="dim")

    def describe(self, event: Event) -> str | None:
        from bot import events as ev

        match event:
            case ev.StatusChanged(old=old, new=new, old_word=said_old, new_word=said_new):
                return f"status of RFD {event.rfd_id}: {said_old or old} → {said_new or new}"
            case ev.RfdRenumbered(old_id=old, new_path=path):
                return f"RFD {old} renumbered to {event.rfd_id}: {path}"
            case ev.RfdCreated(path=path):
                return f"created {path}"
            case ev.ReviewSaved(path=path, findings=n, provider=who):
                return f"review saved: {path} ({plural(n, 'finding')}, {who})"
            case ev.ReviewsDismissed(paths=paths):
                return f"dismissed: {', '.join(paths) or 'nothing'}"
            case ev.PlanExtracted(phases=phases, method=method):
                return f"plan extracted ({method}): {plural(len(phases), 'phase')}"
            case ev.PhaseCompleted(number=n, label=label, title=title, done=done, total=total):
                return f"phase {label or n} ({title}) done — {done}/{plural(total, 'phase')}"
            case ev.PhaseFailed(number=n, label=label, reason=reason):
                return f"phase {label or n} failed: {reason}"
            case ev.TrackingIssueUpdated(number=n, url=url, created=created, closed=closed):
                verb = "opened" if created else "closed" if closed else "updated"
                return f"tracking issue #{n} {verb}: {url.removeprefix('local:')}"
            case ev.CommentPosted(target=n, url=url):
                return f"comment on #{n}: {url.removeprefix('local:')}"
            case ev.Notice(message=message):
                return message
        return None


def run(group: click.Command, args: list[str]) -> int:
    """Run ``group`` (the ``rfd`` command) on ``args``; its exit code: 0 ok, 1 user error, 2
    usage error (``--json``: a usage error is a JSON document on stdout too)."""
    try:
        code = group.main(args=args, prog_name="rfd", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.UsageError as exc:
        _json_error(args, "usage_error", exc)
        exc.show()
        return 2
    except click.ClickException as exc:
        _json_error(args, "error", exc)
        exc.show()
        return 1
    return code if isinstance(code, int) else 0


def _json_error(args: Sequence[str], kind: str, exc: click.ClickException) -> None:
    """With ``--json``, a usage error is a JSON document on stdout too (scripts parse stdout)."""
    if "--json" not in args:
        return
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "rfd"
    error: dict[str, object] = {
        "type": kind,
        "message": exc.format_message(),
        "path": None,
        "line": None,
        "hint": f"see `{where} --help`",
        "alternatives": [],
    }
    sys.stdout.write(json.dumps({"error": error}, indent=2) + "\n")
