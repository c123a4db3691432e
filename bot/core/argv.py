"""Which texts of a command-line argument a program could take as a path: the whole word,
the value of ``--option=value`` or ``NAME=value``, the text glued to a short option.
Implement's confinement of commands and the policy plugin read arguments alike.
"""

from __future__ import annotations

from collections.abc import Iterator


def path_words(argument: str) -> Iterator[str]:
    """The texts of ``argument`` that a program could take as a path."""
    if not argument.startswith("-"):
        yield argument
    elif not argument.startswith("--") and "=" not in argument:
        # a value glued to a short option, maybe after flags: -C/, -f/tmp/x.mk, -kC/
        yield from (argument[i:] for i in range(2, len(argument)))
    _, sep, value = argument.partition("=")
    while sep:
        yield value
        _, sep, value = value.partition("=")
