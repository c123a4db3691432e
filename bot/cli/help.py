"""``rfd help [TOPIC]``: the reference shipped in the package (``bot/docs/<topic>.md``).

The README links to the same files; this command shows them where the tool is installed, in
the version installed. It reads Markdown files and nothing else: no configuration, no
repository, no provider, forge or plugin.
"""

from __future__ import annotations

import difflib
from importlib.resources import files

import click

from bot.cli.common import rfd_command
from bot.cli.output import Output
from bot.core.errors import FileNotFound

TOPICS = (
    "commands",
    "configuration",
    "documents",
    "dialects",
    "bot",
    "security",
    "ai",
    "hooks",
    "plugins",
    "site",
    "performance",
    "development",
)
"""The reference's topics, in the order a reader meets them (one file each in ``bot/docs/``)."""

NO_TOPIC = "no help topic {name!r}"
PICK_ONE = "`rfd help TOPIC` shows one of these"


@rfd_command("help")
@click.argument("topic", required=False)
@click.option("--raw", is_flag=True, help="Print the topic's Markdown as it is (as when piped).")
def help_cmd(out: Output, topic: str | None, raw: bool) -> int:
    """Show the reference: the list of topics, or the one named (commands, configuration …)."""
    if topic is None:
        out.data({"topics": [{"name": t, "summary": summary(t)} for t in TOPICS]})
        width = max(map(len, TOPICS))
        for name in TOPICS:
            out.line(f"{name:<{width}}  {summary(name)}")
        out.line()
        out.line(PICK_ONE)
        return 0
    name = resolve(topic)
    text = page(name)
    out.data({"topic": name, "markdown": text})
    if raw and not out.json_mode:
        out.stdout.write(text)
    else:
        out.markdown(text)
    return 0


def page(name: str) -> str:
    """The Markdown of topic ``name``."""
    return files("bot").joinpath("docs", f"{name}.md").read_text(encoding="utf-8")


def summary(name: str) -> str:
    """The topic's first paragraph after its title, on one line."""
    paragraphs = page(name).split("\n\n")
    return " ".join(paragraphs[1].split())


def resolve(asked: str) -> str:
    """The topic ``asked`` names: itself, or the one topic it starts (``config``); else an
    error listing the topics, the closest first."""
    wanted = asked.strip().lower()
    if wanted in TOPICS:
        return wanted
    started = [t for t in TOPICS if t.startswith(wanted)] if wanted else []
    if len(started) == 1:
        return started[0]
    close = difflib.get_close_matches(wanted, TOPICS, n=3, cutoff=0.5) or started
    hint = f"did you mean {' or '.join(map(repr, close))}?" if close else PICK_ONE
    raise FileNotFound(
        NO_TOPIC.format(name=asked),
        hint=hint,
        alternatives=tuple(f"{t} — {summary(t)}" for t in TOPICS),
    )
