"""Fetch uv for the action's install step: this runner's wheel from uv-requirements.txt.

    python -I fetch_uv.py REQUIREMENTS DIRECTORY

Picks the line whose marker names this platform, downloads that exact file with curl (the
runner's own trust store), checks it against the line's sha256 and writes the wheel's ``uv``
executable into DIRECTORY.  What pip did for this, without pip's own start-up (≈ 1 s of a
5 s step).  Standard library only: it runs on the interpreter setup-python installed.
"""

from __future__ import annotations

import hashlib
import platform
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

LINE = re.compile(
    r"""^uv\ @\ (?P<url>https://files\.pythonhosted\.org/\S+\.whl)
        \ ;\ sys_platform\ ==\ "(?P<system>[a-z]+)"\ and\ platform_machine\ ==\ "(?P<machine>\w+)"
        \s+--hash=sha256:(?P<sha256>[0-9a-f]{64})$""",
    re.VERBOSE,
)
UNPINNED = "::error::{file} pins uv for Linux and macOS on x86-64 and arm64, not {platform}"
MISMATCH = "::error::{url} does not match its sha256 in {file}: not installed"
UNREACHABLE = "::error::cannot download {url} (curl exit code {code}): re-run the job"
EXECUTABLE = re.compile(r"^uv-[^/]+\.data/scripts/uv$")


def pinned(requirements: Path, system: str, machine: str) -> tuple[str, str] | None:
    """``(url, sha256)`` of the wheel pinned for ``system``/``machine``, None if none is."""
    text = requirements.read_text(encoding="utf-8").replace("\\\n", " ")
    for line in text.splitlines():
        found = LINE.match(line.strip())
        if found and (found["system"], found["machine"]) == (system, machine):
            return found["url"], found["sha256"]
    return None


def unpack(wheel: Path, directory: Path) -> Path:
    """Write the wheel's ``uv`` executable into ``directory``; its path."""
    with zipfile.ZipFile(wheel) as archive:
        (member,) = [n for n in archive.namelist() if EXECUTABLE.match(n)]
        directory.mkdir(parents=True, exist_ok=True)
        target = directory / "uv"
        with archive.open(member) as source, target.open("wb") as out:
            while chunk := source.read(1 << 20):
                out.write(chunk)
    target.chmod(0o755)
    return target


def main(argv: list[str]) -> int:
    requirements, directory = Path(argv[0]), Path(argv[1])
    pin = pinned(requirements, sys.platform, platform.machine())
    if pin is None:
        where = f"{platform.system()} {platform.machine()}"
        print(UNPINNED.format(file=requirements.name, platform=where))
        return 1
    url, sha256 = pin
    with tempfile.TemporaryDirectory() as tmp:
        wheel = Path(tmp) / "uv.whl"
        curl = ["curl", "--fail", "--silent", "--show-error", "--location", "--retry", "3"]
        https = ["--proto", "=https", "--proto-redir", "=https"]
        done = subprocess.run([*curl, *https, "--output", str(wheel), url], check=False)
        if done.returncode:
            print(UNREACHABLE.format(url=url, code=done.returncode))
            return 1
        if hashlib.sha256(wheel.read_bytes()).hexdigest() != sha256:
            print(MISMATCH.format(url=url, file=requirements.name))
            return 1
        unpack(wheel, directory)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
