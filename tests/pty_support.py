"""Drive ``rfd`` through a real pseudo-terminal: keys in, screen text out.

The child is a session leader with the pty as its controlling terminal, so Ctrl-C
(``\\x03``) reaches it as SIGINT from the line discipline and Ctrl-D (``\\x04``) as the
end of input, exactly as at a person's keyboard.
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CTRL_C = b"\x03"
CTRL_D = b"\x04"
WAIT = 180.0
"""Seconds to wait for expected output before failing (a deadline, not a sleep): generous, as a
loaded 2-core CI machine can starve the child for a minute; a passing run never waits for it."""


class Terminal:
    """``rfd argv…`` running on a pty with the model playing ``replies``."""

    def __init__(
        self,
        repo: Path,
        replies: Sequence[Mapping[str, Any]],
        *argv: str,
        env: Mapping[str, str] | None = None,
    ) -> None:
        script = repo.parent / f"script-{os.getpid()}-{time.monotonic_ns()}.json"
        script.write_text(json.dumps(list(replies)), encoding="utf-8")
        self.sent_file = Path(f"{script}.sent")
        args = [sys.executable, "-m", "tests.pty_child", str(script), "-C", str(repo), *argv]
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "TERM": "dumb",
            "COLUMNS": "100",
            **(env or {}),
        }
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes rfd
            os.chdir(ROOT)
            os.execve(sys.executable, args, env)
        self.screen = ""
        self.code: int | None = None

    def expect(self, text: str) -> str:
        """Read until ``text`` has appeared on the screen; the screen so far."""
        deadline = time.monotonic() + WAIT
        while text not in self.screen:
            if not self._read(deadline - time.monotonic()):
                raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen}")
        return self.screen

    def send(self, keys: bytes | str) -> None:
        os.write(self.fd, keys.encode() if isinstance(keys, str) else keys)

    def interrupt(self, answer: str) -> str:
        """Press Ctrl-C until ``answer`` appears, as a person would press it again.

        A key sent the instant a prompt is printed can reach the terminal before the prompt
        reads it, while the line editor is still setting the terminal up, and be dropped
        there; a second press (only when the first left no answer) is what a user does."""
        for _ in range(5):
            self.send(CTRL_C)
            deadline = time.monotonic() + 5.0
            while answer not in self.screen and self._read(deadline - time.monotonic()):
                pass
            if answer in self.screen:
                return self.screen
        raise AssertionError(f"{answer!r} never appeared after Ctrl-C; the screen:\n{self.screen}")

    def wait(self) -> int:
        """Read to the end and return the exit code."""
        deadline = time.monotonic() + WAIT
        while self._read(deadline - time.monotonic()):
            pass
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        while pid == 0 and time.monotonic() < deadline:  # the terminal closes before the exit
            time.sleep(0.01)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:  # still running after the deadline: stop it and show why
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            raise AssertionError(f"rfd did not finish; the screen:\n{self.screen}")
        self.code = os.waitstatus_to_exitcode(status)
        os.close(self.fd)
        return self.code

    def sent(self) -> list[list[str]]:
        """The texts of the messages of each request the model got (after :meth:`wait`)."""
        texts: list[list[str]] = json.loads(self.sent_file.read_text(encoding="utf-8"))
        return texts

    def _read(self, timeout: float) -> bool:
        if timeout <= 0:
            return False
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not chunk:
            return False
        self.screen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        return True
