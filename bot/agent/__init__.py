"""Tool-using conversations with a model: the loop, its tools, and the steps built on it.

* :mod:`bot.agent.tools` — tools as records, and which step may use which;
* :mod:`bot.agent.loop` — one conversation over the ``LLM`` protocol, tool calls
  going through interceptors, permission and the event bus;
* :mod:`bot.agent.refine`, :mod:`bot.agent.implement`, :mod:`bot.agent.author` —
  the rule-of-five refinement, the research → plan → items → summary loop, and the
  interactive explore / converge / draft conversations.
"""
