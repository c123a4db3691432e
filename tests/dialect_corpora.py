"""Corpora in the other RFD dialects, built as real git repositories with their history.

- :func:`build_oxide`: ``rfd/NNNN/README.md`` (some ``README.adoc``, some with diagrams and
  notes beside them), YAML front matter ``state:`` (prediscussion, ideation, discussion,
  published, committed, abandoned), ``discussion:`` PR links, ``labels:``, ``# RFD 12 Title``.
- :func:`build_joyent`: the same layout, the older words (predraft, draft, publish, abandoned).
- :func:`build_rfc`: ``text/NNNN-slug.md`` numbered by pull request, front matter ``stage:``
  (accepted, ready-for-release, released, recommended, discontinued), ``start-date:``,
  ``teams:``, ``prs:`` (a map), a ``0000-template.md`` at the root, no id in the heading.

The front matter is written the way people write it: comments, quoted values, trailing
spaces, lists in both styles, keys in different orders, legacy documents without the newer
keys.  History: each document is added in the state it was proposed in, then the
repository's own advancement commits move some of them on (the moves ``rfd init`` reads).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

TOPICS = (
    "Requests for Discussion",
    "Control plane database",
    "Network boot",
    "Host OS image",
    "Service discovery",
    "Disk encryption",
    "Firmware updates",
    "Rack power budget",
    "Tracing across services",
    "Customer API versioning",
    "Instance migration",
    "Audit logging",
    "Storage replication",
    "Time synchronisation",
    "Console access",
    "Metrics pipeline",
    "Secrets storage",
    "Switch management",
    "Release process",
    "Crash dumps",
    "Quotas and limits",
    "Identity providers",
    "Image formats",
    "Support bundles",
    "VPC routing",
    "Physical disks",
    "Update rollback",
    "Error messages",
    "Silo administration",
    "SSH key management",
    "Rate limiting",
    "Operator console",
)
AUTHORS = (
    "Ada Lovelace <ada@example.com>",
    "Grace Hopper <grace@example.com>",
    "Edsger Dijkstra <ewd@example.com>",
    "Barbara Liskov <liskov@example.com>",
)


class Step(NamedTuple):
    """One RFD's history: the state it was added in, then the states it moved to."""

    number: int
    states: tuple[str, ...]


IDENTITY = (
    "-c",
    "user.name=Corpus Builder",
    "-c",
    "user.email=builder@example.com",
    "-c",
    "commit.gpgsign=false",
)


def git(repo: Path, *args: str, date: str = "") -> str:
    env = dict(os.environ)
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    done = subprocess.run(
        ["git", *IDENTITY, *args], cwd=repo, check=True, capture_output=True, env=env
    )
    return done.stdout.decode()


def slug(title: str) -> str:
    return "-".join(title.lower().split())


# ------------------------------------------------------------------ Oxide and Joyent


OXIDE_PATHS = (
    ("prediscussion",),
    ("ideation",),
    ("discussion",),
    ("discussion", "published"),
    ("discussion", "published", "committed"),
    ("prediscussion", "discussion", "abandoned"),
    ("published",),
    ("committed",),
)
JOYENT_PATHS = (
    ("predraft",),
    ("predraft", "draft"),
    ("draft",),
    ("draft", "publish"),
    ("publish",),
    ("draft", "abandoned"),
)


def _front_matter(number: int, state: str, *, legacy: bool) -> str:
    """Front matter as people write it, varied by number."""
    authors = AUTHORS[number % 4]
    lines = ["---"]
    if number % 3 == 0:
        lines += ["authors:", f"  - {authors}", f"  - {AUTHORS[(number + 1) % 4]}"]
    else:
        lines.append(f"authors: {authors}")
    quoted = {0: f'"{state}"', 1: f"'{state}'"}.get(number % 5, state)
    comment = "   # see the discussion" if number % 4 == 1 else ""
    trailing = "  " if number % 6 == 2 else ""
    lines.append(f"state: {quoted}{comment}{trailing}")
    if not legacy:
        lines.append(f"discussion: https://github.com/acme/rfd/pull/{100 + number}")
        if number % 2:
            lines.append("labels: control-plane, storage")
        else:
            lines += ["labels:", "  - networking", "  - 'api'"]
    lines.append("---")
    return "\n".join(lines) + "\n"


def _markdown(number: int, state: str) -> str:
    legacy = number < 4
    title = TOPICS[(number - 1) % len(TOPICS)]
    separator = ":" if number == 2 else ""  # one old document wrote a colon
    return (
        _front_matter(number, state, legacy=legacy)
        + f"\n# RFD {number}{separator} {title}\n\n## Background\n\nWhy {title.lower()} matters.\n"
        + "\n## Determinations\n\n- We will do the simple thing first.\n"
        + (f"\nSee [RFD {number - 1}](../{number - 1:04d}/README.md).\n" if number > 4 else "")
    )


def _asciidoc(number: int, state: str) -> str:
    """An RFD as Oxide writes them in AsciiDoc: attributes above the title, numbered sections,
    admonitions, a Rust listing, a table, cross references and a link to the RFD before it."""
    title = TOPICS[(number - 1) % len(TOPICS)]
    before = number - 1
    neighbour = f"../{before:04d}/README.{'adoc' if before in OXIDE_ADOC else 'md'}"
    see = f"See link:{neighbour}[RFD {before}] for what came before.\n\n" if number > 4 else ""
    return (
        f":showtitle:\n:toc: left\n:numbered:\n:icons: font\n:state: {state}\n"
        f":discussion: https://github.com/acme/rfd/pull/{100 + number}\n"
        f":authors: {AUTHORS[number % 4]}\n\n= RFD {number} {title}\n{AUTHORS[number % 4]}\n\n"
        f"== Background\n\nWhy {title.lower()} matters.\n\n{see}"
        "NOTE: The *control plane* owns this; see <<_determinations>> and <<sled-agent>>.\n\n"
        "[[sled-agent]]\n=== Sled agent\n\n"
        ".The agent's loop\n[source,rust]\n----\nfn poll(&mut self) -> Result<(), Error> {\n"
        "    self.tick() // <1>\n}\n----\n<1> One tick per second.\n\n"
        '[%header,cols="1,2"]\n|===\n|Component |Owner\n\n|Nexus |control plane\n'
        "|Propolis |hypervisor\n|===\n\n"
        "== Determinations\n\n. We will do the simple thing first.\n"
        ". Revisit after link:../../README.md[the index] is measured.\n\n"
        "[WARNING]\n====\nDo not _reboot_ a sled while it updates.\n====\n"
    )


def _rfd_dir_writer(paths: Sequence[tuple[str, ...]], adoc_every: int) -> list[Step]:
    return [Step(n, paths[(n - 1) % len(paths)]) for n in range(1, len(TOPICS) + 1)]


def _write_dir_rfd(repo: Path, number: int, state: str, *, adoc: bool) -> str:
    folder = repo / "rfd" / f"{number:04d}"
    folder.mkdir(parents=True, exist_ok=True)
    name = "README.adoc" if adoc else "README.md"
    text = _asciidoc(number, state) if adoc else _markdown(number, state)
    (folder / name).write_text(text, encoding="utf-8")
    return f"rfd/{number:04d}/{name}"


def _advance(repo: Path, path: str, old: str, new: str) -> None:
    """The repository's own advancement commit: the state word changed in place."""
    file = repo / path
    lines = file.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if line.startswith(("state:", ":state:", "stage:")) and old in line:
            lines[i] = line.replace(old, new, 1)
            break
    else:
        raise AssertionError(f"{path}: no {old}")
    file.write_text("\n".join(lines), encoding="utf-8")


def _grow(repo: Path, steps: list[Step], write: Callable[[int, str], str], label: str) -> None:
    """Add every document in its first state (in batches), then advance them commit by commit."""
    git(repo, "init", "-q", "-b", "main")
    paths = {}
    for batch in range(0, len(steps), 8):
        for step in steps[batch : batch + 8]:
            paths[step.number] = write(step.number, step.states[0])
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"{label}s {batch + 1}-{batch + 8}", date=_date(batch))
    for round_ in (1, 2):
        for i, step in enumerate(steps):
            if len(step.states) > round_:
                _advance(repo, paths[step.number], step.states[round_ - 1], step.states[round_])
                git(
                    repo,
                    "commit",
                    "-qam",
                    f"{label} {step.number}: {step.states[round_]}",
                    date=_date(40 + i + 40 * round_),
                )


def _date(day: int) -> str:
    return f"{2024 + day // 336}-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T10:00:00+00:00"


OXIDE_ADOC = frozenset({1, 8, 15, 22, 29})
"""The RFDs written in AsciiDoc (RFD 1, as Oxide's own, among them)."""
EXTRA_FILES = {3: ("diagram.svg", "<svg/>\n"), 10: ("notes.md", "# Notes\n\nNot an RFD.\n")}


def build_oxide(dest: Path, paths: Sequence[tuple[str, ...]] = OXIDE_PATHS) -> Path:
    """An Oxide-style RFD repository: 32 RFDs, a directory each, state in front matter."""
    dest.mkdir(parents=True)
    (dest / "README.md").write_text("# RFDs\n\nRequests for Discussion.\n", encoding="utf-8")
    steps = _rfd_dir_writer(paths, 7)

    def write(number: int, state: str) -> str:
        path = _write_dir_rfd(dest, number, state, adoc=number in OXIDE_ADOC)
        if number in EXTRA_FILES:
            name, text = EXTRA_FILES[number]
            (dest / "rfd" / f"{number:04d}" / name).write_text(text, encoding="utf-8")
        return path

    _grow(dest, steps, write, "RFD")
    return dest


def build_joyent(dest: Path) -> Path:
    """A Joyent-style repository: the same layout, the older words, Markdown only."""
    dest.mkdir(parents=True)
    steps = _rfd_dir_writer(JOYENT_PATHS, 0)
    _grow(dest, steps, lambda n, s: _write_dir_rfd(dest, n, s, adoc=False), "RFD")
    return dest


# ------------------------------------------------------------------ RFC stages


RFC_PATHS = (
    ("accepted",),
    ("accepted", "ready-for-release"),
    ("accepted", "ready-for-release", "released"),
    ("released",),
    ("recommended",),
    ("accepted", "discontinued"),
    ("released", "recommended"),
)
RFC_TEMPLATE = """---
stage: accepted
start-date: # In format YYYY-MM-DDT00:00:00.000Z
release-date: # In format YYYY-MM-DDT00:00:00.000Z
release-versions:
teams: # delete teams that aren't relevant
  - cli
  - data
  - framework
  - learning
prs:
  accepted: # Fill this in with the URL for the Proposal RFC PR
project-link:
---

<!---
Directions for above:

stage: Leave as is
start-date: Fill in with today's date, 2032-12-01T00:00:00.000Z
-->

# <RFC title>

## Summary

> One paragraph explanation of the feature.

## Motivation

## Detailed design

## How we teach this

## Drawbacks

## Alternatives

## Unresolved questions
"""


def rfc_number(index: int) -> int:
    """RFCs are numbered by their pull request: sparse, four digits."""
    return 11 + index * 27


def _rfc(number: int, stage: str, index: int) -> str:
    title = TOPICS[index % len(TOPICS)]
    teams = "  - framework\n  - cli\n" if index % 2 else "  - learning\n"
    released = "release-date: 2024-06-01T00:00:00.000Z\n" if index % 3 == 0 else "release-date:\n"
    versions = "release-versions:\n  ember-source: v5.1.0\n" if index % 3 == 0 else ""
    quoted = f'"{stage}"' if index % 4 == 1 else stage
    return (
        f"---\nstage: {quoted}\nstart-date: 2023-0{1 + index % 9}-15T00:00:00.000Z\n{released}"
        f"{versions}teams: # delete teams that aren't relevant\n{teams}"
        f"prs:\n  accepted: https://github.com/acme/rfcs/pull/{number} \n"
        f"project-link:\n---\n\n"
        + ("<!---\nDirections for above: leave stage as is\n-->\n\n" if index % 2 else "")
        + f"# {title}\n\n## Summary\n\n{title} for everyone.\n\n## Motivation\n\nUsers ask.\n\n"
        f"## Detailed design\n\nThe design.\n"
    )


def build_rfc(dest: Path) -> Path:
    """An RFC-stage repository: 30 RFCs in ``text/``, numbered by pull request."""
    dest.mkdir(parents=True)
    (dest / "0000-template.md").write_text(RFC_TEMPLATE, encoding="utf-8")
    (dest / "text").mkdir()
    steps = [Step(rfc_number(i), RFC_PATHS[i % len(RFC_PATHS)]) for i in range(30)]
    index = {step.number: i for i, step in enumerate(steps)}

    def write(number: int, stage: str) -> str:
        path = f"text/{number:04d}-{slug(TOPICS[index[number] % len(TOPICS)])}.md"
        (dest / path).write_text(_rfc(number, stage, index[number]), encoding="utf-8")
        return path

    _grow(dest, steps, write, "RFC")
    return dest
