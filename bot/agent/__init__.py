"""Tool-using conversations with a model: the loop, its tools, and the steps built on it.

* :mod:`bot.agent.conversation` — one conversation over the ``LLM`` protocol, tool calls
  going through interceptors, permission and the event bus;
* :mod:`bot.agent.toolbox` — the tools, and which step may use which;
* :mod:`bot.agent.authoring` — explore / converge / draft and the rule-of-five refinement;
* :mod:`bot.agent.implementation` — research → plan → items → summary, in an isolated copy;
* :mod:`bot.agent.steps` — the steps as the CLI calls them.
"""
