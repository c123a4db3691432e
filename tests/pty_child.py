"""Run ``rfd`` in a child process with a scripted model (for the pseudo-terminal tests).

``python -m tests.pty_child SCRIPT.json rfd-args…``: SCRIPT holds the model's replies,
each ``{"text": …, "calls": [[tool, arguments], …]}``; ``RFD_TEST_PLUGIN=name=module``
installs one more plugin.  Everything else is the real
``rfd``: click's prompts, the terminal prompter, the step, the state directory.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from bot.llm.base import Message
from tests.fakes import ScriptedLLM, reply, scripted_providers


def main(argv: list[str]) -> int:
    script = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    replies = [reply(r.get("text", ""), *[(n, a) for n, a in r.get("calls", [])]) for r in script]
    llm = ScriptedLLM(replies)

    import bot.lifecycle.workspace
    import bot.plugins.manager
    from bot.cli.main import main as rfd

    if plugin := os.environ.get("RFD_TEST_PLUGIN"):  # NAME=module: as if installed
        name, module = plugin.split("=")
        bot.plugins.manager.BUILTIN = {**bot.plugins.manager.BUILTIN, name: module}

    bot.lifecycle.workspace.make_providers = scripted_providers(llm)  # type: ignore[assignment]
    try:
        return rfd(argv[1:])
    finally:  # what the model was sent, for the test to read
        sent = [[_text(m) for m in request.messages] for request in llm.requests]
        Path(argv[0] + ".sent").write_text(json.dumps(sent), encoding="utf-8")


def _text(message: Message) -> str:
    return "\n".join([message.text, *(r.content for r in message.tool_results)])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
