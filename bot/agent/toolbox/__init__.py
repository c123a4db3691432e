"""The tools a model is given, and the rules every tool call goes through.

* :mod:`.base` — what a tool is (records, the step vocabulary, what a tool may reach);
* :mod:`.catalog` — which tools each step gets, and how a call's arguments are checked;
* :mod:`.calls` — one tool call in the order plugins rely on, and what the person is told;
* :mod:`.permission` — ask mode: a write shown and confirmed (at a terminal, for the CLI);
* :mod:`.sandbox` — confinement of every path, and reading what a model may have written;
* :mod:`.files`, :mod:`.commands`, :mod:`.research`, :mod:`.rfd` — the tools themselves.
"""
