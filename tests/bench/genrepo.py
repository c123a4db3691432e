"""Generate a git repository of N RFDs with 10 state files each (for the hook benchmarks).

    python -m tests.bench.genrepo /tmp/big 2000      # 2,000 RFDs, 20,000 state files

The repository is set up as ``rfd init`` sets one up (``.github/rfd.toml`` with its
defaults, ``.gitattributes``), so every hook reads the configuration as in a real repo.
RFD ``n`` is Implemented, Accepted, Discussion or Draft in turn; every one has the same
ten state files.  :func:`one_rfd_commit` then stages the kind of commit a user makes:
one RFD accepted, with its plan and a review.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.lifecycle.repo_setup import init

STATE = "docs/rfd/.state"
STATUSES = ("Implemented", "Accepted", "Discussion", "Draft")
PHASES = 3


def rfd_text(n: int, status: str, requires: str = "") -> str:
    rid = f"{n:03d}"
    requires = requires or (f"[RFD {n - 1:03d}]" if n > 1 and n % 7 == 0 else "")
    requires = f"- **Requires**: {requires}\n" if requires else ""
    phases = "".join(
        f"### Phase {p}: Part {p} of RFD {rid}\n\nBuild part {p}; test it.\n\n"
        for p in range(1, PHASES + 1)
    )
    return (
        f"# RFD {rid}: Generated design number {n}\n\n"
        f"- **Status**: {status}\n- **Category**: Design\n"
        f"- **Authors**: Bench Author <bench@example.com>\n- **Date**: 2026-01-15\n{requires}\n"
        f"## Summary\n\nGenerated RFD {n}, for the benchmarks.\n\n"
        "## Motivation\n\nHooks must feel instant however many RFDs there are.\n\n"
        "## Design\n\nNothing to design; the text only has to look real.\n\n"
        "## Drawbacks\n\nMore files.\n\n"
        "## Alternatives\n\nNone considered.\n\n"
        "## Non-Goals\n\nRealism.\n\n"
        "## Risks and Open Questions\n\nNone.\n\n"
        f"## Implementation Plan\n\n{phases}"
    )


def plan_text(n: int) -> str:
    phases = [
        {"title": f"Part {p} of RFD {n:03d}", "description": f"Build part {p}."}
        for p in range(1, PHASES + 1)
    ]
    return json.dumps(phases, indent=2) + "\n"


def state_files(n: int) -> dict[str, str]:
    """Ten files: explore, decisions, plan, 3 phases, 2 reviews, 1 impl review, a log."""
    rid = f"{n:03d}"
    files = {
        "explore.md": f"# Exploring RFD {rid}\n\nNotes.\n",
        "decisions.md": f"# Decisions for RFD {rid}: Generated\n\n## Locked\n\n1. Keep it.\n\n"
        "## Under Discussion\n\n## Rejected\n",
        "plan.json": plan_text(n),
        "reviews/1721500000.md": "# Review\n\nLooks fine.\n",
        "reviews/1721586000.md": "# Review\n\nStill fine.\n",
        "impl-reviews/1721600000.md": "# Implementation review\n\nFine.\n",
        "events.log": "created\n",
    }
    files.update({f"phases/{p}.md": f"Phase {p} done.\n" for p in range(1, PHASES + 1)})
    return {f"{STATE}/{rid}/{rel}": text for rel, text in files.items()}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


def make_repo(repo: Path, count: int) -> Path:
    """A repository of ``count`` RFDs and ``10 * count`` state files, all committed."""
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "bench@example.com")
    git(repo, "config", "user.name", "Bench")
    git(repo, "config", "commit.gpgsign", "false")
    # No background `git gc --auto` after committing 22,000 files: it would run during the
    # measurements.  The repository is packed below instead, as a real (cloned) one is.
    git(repo, "config", "gc.auto", "0")
    git(repo, "config", "maintenance.auto", "false")
    init(repo)  # .github/rfd.toml as `rfd init` writes it: every real repository has one
    for n in range(1, count + 1):
        files = {f"docs/rfd/{n:03d}-generated-{n}.md": rfd_text(n, STATUSES[n % 4])}
        files.update(state_files(n))
        for path, text in files.items():
            target = repo / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"{count} RFDs")
    git(repo, "gc", "-q")
    return repo


def one_rfd_commit(repo: Path, count: int) -> list[str]:
    """Stage a new RFD accepted in one go: status change, plan.json, a review; its paths."""
    n = count + 1
    rid = f"{n:03d}"
    rfd = f"docs/rfd/{rid}-generated-{n}.md"
    target = repo / rfd
    target.write_text(rfd_text(n, "Discussion"))
    git(repo, "add", rfd)
    git(repo, "commit", "-q", "-m", f"RFD {rid} in discussion")
    target.write_text(rfd_text(n, "Accepted", requires="[RFD 001], [RFD 004]"))
    files = {
        rfd: target.read_text(),
        f"{STATE}/{rid}/plan.json": plan_text(n),
        f"{STATE}/{rid}/reviews/1721700000.md": "# Review\n\nAccept it.\n",
    }
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    git(repo, "add", *files)
    return sorted(files)


if __name__ == "__main__":
    out = make_repo(Path(sys.argv[1]), int(sys.argv[2]))
    print(f"{out}: {sys.argv[2]} RFDs; staged {one_rfd_commit(out, int(sys.argv[2]))}")
