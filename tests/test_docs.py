"""The docs by reader: a short README, the reference in ``bot/docs/`` and ``rfd help``.

Every topic is reachable from the README (a link) and from ``rfd help`` (listed); every
relative link and anchor in the README and the topics leads somewhere; the wheel ships them.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from bot.cli.help import TOPICS
from bot.cli.main import main

CHECKOUT = Path(__file__).resolve().parent.parent
README = CHECKOUT / "README.md"
DOCS = CHECKOUT / "bot" / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_readme_is_read_in_five_minutes() -> None:
    assert len(README.read_bytes()) < 20_000


def test_every_topic_is_a_file_and_every_file_a_topic() -> None:
    assert sorted(TOPICS) == sorted(p.stem for p in DOCS.glob("*.md"))


@pytest.mark.parametrize("topic", TOPICS)
def test_every_topic_is_linked_from_the_readme(topic: str) -> None:
    assert f"bot/docs/{topic}.md" in links(README)


def test_rfd_help_lists_every_topic_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "help")
    assert code == 0
    listed = [line.split()[0] for line in out.splitlines() if line and line[0] != "`"]
    assert listed == list(TOPICS)
    assert "configuration  `.github/rfd.toml` and its layers: every key" in out
    assert out.rstrip().endswith("`rfd help TOPIC` shows one of these")


@pytest.mark.parametrize("argv", [("help", "configuration"), ("help", "configuration", "--raw")])
def test_a_topic_piped_is_its_markdown(
    capsys: pytest.CaptureFixture[str], argv: tuple[str]
) -> None:
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out == (DOCS / "configuration.md").read_text(encoding="utf-8")


def test_a_topic_on_a_terminal_is_rendered(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["help", "configuration"]) == 0
    shown = re.sub(r"\x1b\[[0-9;]*m", "", terminal.getvalue())
    assert "Configuration" in shown and "implement.verify" in shown
    assert "# Configuration" not in shown and "| `implement.verify` |" not in shown
    terminal.seek(0)
    terminal.truncate()
    assert main(["help", "configuration", "--raw"]) == 0
    assert terminal.getvalue().startswith("# Configuration\n")


def test_a_unique_start_names_a_topic(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "help", "config")[1].startswith("# Configuration\n")


def test_an_unknown_topic_says_which_exist(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "help", "confguration")
    assert (code, out) == (1, "")
    assert "error: no help topic 'confguration'" in err
    assert "hint: did you mean 'configuration'?" in err
    assert all(f"  - {topic} — " in err for topic in TOPICS)


def test_help_as_json_is_the_topics_or_the_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    listed = json.loads(run(capsys, "help", "--json")[1])
    assert [t["name"] for t in listed["topics"]] == list(TOPICS)
    shown = json.loads(run(capsys, "help", "security", "--json")[1])
    assert shown == {"topic": "security", "markdown": (DOCS / "security.md").read_text()}


# Links and anchors ------------------------------------------------------------------------


def slug(title: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces → hyphens."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def _inline(path: Path) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").parse(path.read_text(encoding="utf-8"))


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (a repeated one gets ``-1``, ``-2`` …)."""
    tokens = _inline(path)
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            base = slug(tokens[i + 1].content.replace("`", ""))
            name, n = base, 0
            while name in found:
                n += 1
                name = f"{base}-{n}"
            found.add(name)
    return found


def links(path: Path) -> list[str]:
    """Every link and image target of a Markdown file (code spans and blocks hold none)."""
    found = []
    for token in _inline(path):
        for child in token.children or ():
            if child.type == "link_open":
                found.append(str(child.attrs["href"]))
            elif child.type == "image":
                found.append(str(child.attrs["src"]))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto: — not ours to check offline
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        if not dest.exists() or (anchor and anchor not in anchors(dest)):
            broken.append(target)
    assert not broken, f"{page.relative_to(CHECKOUT)}: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pictures_are_the_repository_s_own(page: Path) -> None:
    pictures = [t for t in links(page) if t.endswith((".png", ".svg", ".gif", ".jpg"))]
    assert all((page.parent / p).resolve().parent == CHECKOUT / ".github/images" for p in pictures)


def test_the_wheel_ships_the_reference(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path)],
        cwd=CHECKOUT,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    assert {f"bot/docs/{topic}.md" for topic in TOPICS} <= shipped


def test_the_readme_says_why_each_library_was_chosen() -> None:
    import tomllib

    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["site"]]
    names = {re.split(r"[<>=\[;]", spec)[0] for spec in wanted}
    section = README.read_text().split("## Why these libraries", 1)[1].split("\n## ", 1)[0]
    said = re.sub(r"[-_.]", "-", section.lower())
    assert [n for n in sorted(names) if re.sub(r"[-_.]", "-", n.lower()) not in said] == []
