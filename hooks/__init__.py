"""pre-commit hooks: ``rfd-lint``, ``rfd-status``, ``rfd-state`` and ``rfd-sync``.

Each hook is one module with ``main(argv=None) -> int`` (a console script and an
entry in ``.pre-commit-hooks.yaml``).  They must feel instant, so they read only
the files of the commit, talk to git through :mod:`hooks._git` and
import nothing heavy: no LLM SDK, no GitHub client, no GitPython, no click or rich.
"""
