"""The terminal while a model works: a spinner while waiting, then its text as it streams.

On a terminal (and without ``NO_COLOR`` or ``--json``) each assistant message is
re-rendered as markdown while it grows, in a live region that is cleared when the
message ends; the whole message is then printed once, rendered, through
:meth:`Output.markdown`, so nothing is cropped or printed twice.  Piped or with
``NO_COLOR``, each chunk is written as it comes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.cli.output import Output

if TYPE_CHECKING:
    from rich.live import Live

    from bot.events import EventBus
    from bot.lifecycle.workspace import Workspace

MESSAGE_ENDS = ("turn.cycle_complete", "turn.aborted")
"""Events after which a streamed assistant message is complete (or cut short)."""


class TextStream:
    """Writes the model's text chunks to ``out``; :meth:`end` closes the current message."""

    def __init__(self, out: Output, before: Callable[[], None] | None = None) -> None:
        self._out = out
        self._before = before  # stops the spinner
        self._rendered = out.styled
        self._text = ""
        self._live: Live | None = None

    def write(self, chunk: str) -> None:
        if self._before is not None:
            self._before()
        if not self._rendered:
            self._out.stdout.write(chunk)
            self._out.stdout.flush()
            return
        self._text += chunk
        self._show()

    def end(self, _event: object = None) -> None:
        """The message is complete: print it rendered (on a terminal; else end its line)."""
        text, self._text = self._text, ""
        if self._live is not None:
            self._live.stop()
            self._live = None
        if text.strip():
            self._out.markdown(text)

    def subscribe(self, bus: EventBus) -> None:
        for name in MESSAGE_ENDS:
            bus.subscribe(name, self.end, owner="terminal")

    def _show(self) -> None:
        from rich.markdown import Markdown

        if self._live is None:
            from rich.console import Console
            from rich.live import Live

            console = Console(file=self._out.stdout, highlight=False)
            self._live = Live(
                console=console, transient=True, redirect_stdout=False, redirect_stderr=False
            )
            self._live.start()
        self._live.update(Markdown(self._text))


def spinner_for(ws: Workspace, out: Output) -> Spinner | None:
    """A spinner that runs while any model call of ``ws`` is out (a terminal only)."""
    if not out.stdout.isatty() or out.json_mode:
        return None
    spinner = Spinner(out)
    for name in ("turn.started", "tool_call.complete"):
        ws.bus.subscribe(name, spinner.start, owner="terminal")
    for name in ("turn.cycle_complete", "turn.complete", "turn.aborted"):
        ws.bus.subscribe(name, spinner.stop, owner="terminal")
    return spinner


class Spinner:
    """ "Waiting for the model…" while a request is out; gone as soon as text streams."""

    def __init__(self, out: Output) -> None:
        from rich.console import Console

        self._status = Console(file=out.stdout).status("waiting for the model…")
        self._running = False

    def start(self, _event: object = None) -> None:
        if not self._running:
            self._status.start()
            self._running = True

    def stop(self, _event: object = None) -> None:
        if self._running:
            self._status.stop()
            self._running = False


def stream_for(ws: Workspace, out: Output, spinner: Spinner | None) -> Callable[[str], None]:
    """Streamed text stops the spinner; on a terminal each message ends rendered as markdown."""
    stream = TextStream(out, before=None if spinner is None else spinner.stop)
    stream.subscribe(ws.bus)
    return stream.write
