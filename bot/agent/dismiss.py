"""The question after a refinement: which reviews did it resolve (seed 000)?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.agent.permission import Prompter
from bot.core.errors import ValidationError

QUESTION = "Dismiss resolved reviews? [numbers, 'all', or enter to skip]: "
Selection = Sequence[int] | Literal["all"]


def parse_selection(answer: str, count: int) -> Selection:
    """``"1, 3"`` → ``[1, 3]`` (1-based), ``"all"`` → ``"all"``, empty → ``[]``."""
    words = answer.replace(",", " ").split()
    if [w.lower() for w in words] == ["all"]:
        return "all"
    numbers: list[int] = []
    for word in words:
        if not word.isdigit() or not 1 <= int(word) <= count:
            raise ValidationError(f"`{word}` is not a review number between 1 and {count}")
        if int(word) not in numbers:
            numbers.append(int(word))
    return numbers


def ask_dismiss(prompter: Prompter, headlines: Sequence[str]) -> Selection:
    """List the active reviews and ask which to dismiss; asks again after a bad answer."""
    if not headlines:
        return []
    listing = "\n".join(f"  {n}. {h}" for n, h in enumerate(headlines, start=1))
    prompt = f"Active reviews:\n{listing}\n\n{QUESTION}"
    for _ in range(3):
        answer = prompter.ask(prompt)
        if answer is None:
            return []
        try:
            return parse_selection(answer, len(headlines))
        except ValidationError as exc:
            prompt = f"{exc.message}\n{QUESTION}"
    return []
