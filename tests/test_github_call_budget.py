"""REST calls per event, counted from the cassettes (each test asserts all were made).

``python tests/test_github_call_budget.py`` prints the table reported in the README.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"
BOT_MODULES = ("test_github_status_comment", "test_github_review_label", "test_github_slash",
               "test_github_accept_label", "test_github_push", "test_github_reconcile")  # fmt: skip
BUDGETS = {
    "test_github_review_label/test_review_is_committed_posted_and_label_removed": 8,
    "test_github_slash/test_status": 4,
}


def calls(name: str) -> tuple[int, int]:
    """``(requests, writes)`` of one cassette."""
    text = (CASSETTES / f"{name}.yaml").read_text(encoding="utf-8")
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    methods = [item["request"]["method"] for item in data["interactions"]]
    return len(methods), sum(1 for m in methods if m != "GET")


def scenarios() -> list[str]:
    return sorted(
        f"{module}/{path.stem}" for module in BOT_MODULES
        for path in (CASSETTES / module).glob("*.yaml")
    )  # fmt: skip


@pytest.mark.parametrize(("name", "budget"), sorted(BUDGETS.items()))
def test_budget(name: str, budget: int) -> None:
    assert calls(name)[0] <= budget


@pytest.mark.parametrize(
    "name", [s for s in scenarios() if "redelivered" in s or "second_run" in s]
)
def test_redelivery_writes_nothing(name: str) -> None:
    assert calls(name)[1] == 0


def table() -> str:
    rows = ["| scenario | REST calls | writes |", "|---|---|---|"]
    for name in scenarios():
        total, writes = calls(name)
        rows.append(f"| {name.split('/', 1)[1].removeprefix('test_')} ({name.split('/')[0][12:]})"
                    f" | {total} | {writes} |")  # fmt: skip
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
    sys.exit(0)
