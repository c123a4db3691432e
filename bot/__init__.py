"""rfd-bot: run design documents (RFDs) through their whole life, with AI in the loop.

The package is split into a pure core (documents, statuses, plans, checklists,
decisions, prompts, rendering) and thin edges passed in as protocols (the state
directory on disk, git, the forge, the LLM).  Importing ``bot`` imports nothing
heavy: hooks depend on that.
"""

__version__ = "0.1.0"
