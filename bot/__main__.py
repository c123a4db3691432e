"""``python -m bot``: handle the GitHub Actions event of this job (same as ``rfd bot``)."""

from __future__ import annotations

import logging
import os
import sys

from bot.core.errors import RfdError
from bot.github.router import main as route
from bot.github.run import annotation


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        return route(os.environ)
    except RfdError as err:  # before a route exists: no event, no token...
        print(annotation("error", str(err), file=err.path, line=err.line))
        return 1


if __name__ == "__main__":
    sys.exit(main())
