"""Write the hand-made GitHub cassettes under ``cassettes/`` from the scenario modules.

    /work/venv/bin/python tests/data/cassettes/build.py

Each scenario module has ``CASSETTES: dict[str, list[interaction]]`` keyed by
``<test module>/<test name>``.  The output is committed; ``test_cassettes_openapi``
checks every exchange against GitHub's OpenAPI description.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2] / "cassettes"
MODULES = (
    "scenarios_forge",
    "scenarios_bot",
    "scenarios_edges",
    "scenarios_inline",
    "scenarios_phase_prs",
    "scenarios_run",
    "scenarios_consensus",
    "scenarios_finish",
    "scenarios_lifecycle",
    "scenarios_cosmetics",
    "scenarios_reviews",
)


def main() -> int:
    sys.path.insert(0, str(HERE))
    count = 0
    for name in MODULES:
        module = importlib.import_module(name)
        for key, interactions in module.CASSETTES.items():
            out = ROOT / f"{key}.yaml"
            out.parent.mkdir(parents=True, exist_ok=True)
            doc = {"interactions": interactions, "version": 1}
            out.write_text(yaml.safe_dump(doc, sort_keys=False, width=100), encoding="utf-8")
            count += 1
    print(f"wrote {count} cassettes under {ROOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
