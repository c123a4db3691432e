"""``rfd adopt``: take on an existing RFD repository as it is.

It records the adoption baseline (each RFD's status now, its lint findings now, and the
commit: what the hooks never gate nor report again, see :mod:`bot.model.baseline`) and,
when ``.github/rfd.toml`` has no ``[process]`` table yet, appends the rules the history
shows (:mod:`bot.model.process_detect`), each with its evidence.  History is read with two
``git log`` and one ``git cat-file``.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from bot.config.load import CONFIG_PATH, Config
from bot.config.repo_templates import is_template
from bot.core.errors import RfdError
from bot.lifecycle import lint_corpus
from bot.model import baseline, plan
from bot.model.document import Document, parse
from bot.model.ids import DOCUMENT_NAMES, split_path
from bot.model.process_detect import History, RfdFacts, Setting, detect, render
from bot.model.status import Status
from bot.state import StateStore

PROCESS_KEPT = "kept the [process] table of {config}; these are what the history shows:"


class AdoptOutcome(NamedTuple):
    baseline: Path
    rfds: int
    settings: list[Setting]
    config_written: bool
    findings: int = 0
    """The lint findings (and RFDs that do not parse) recorded: not reported again."""


def adopt(root: Path, cfg: Config, *, write_config: bool = True) -> AdoptOutcome:
    linted = lint_corpus.lint_corpus(root, cfg)
    docs = linted.docs
    store = StateStore(root, cfg)
    head = _git(root, "rev-parse", "--verify", "-q", "HEAD", ok=(0, 1)).strip()
    keys = [(_key(d), d.status) for d in docs]
    found = lint_corpus.keys(linted)
    path = store.write_root_file(baseline.FILE, baseline.record(head, keys, found))
    settings = detect([_facts(d, docs, store) for d in docs], read_history(root, cfg))
    written = write_config and _write_process(root, settings)
    return AdoptOutcome(path, len(docs), settings, written, len(set(found)))


def _key(doc: Document) -> str:
    """The id as the file name writes it (``045``, ``D05``; ``0001`` for ``0001/README.md``)."""
    parent, _, name = doc.path.rpartition("/")
    return parent.rpartition("/")[2] if name in DOCUMENT_NAMES else name.partition("-")[0]


def _facts(doc: Document, docs: list[Document], store: StateStore) -> RfdFacts:
    rid = _key(doc)
    try:
        has_plan = store.read_plan(rid) is not None or bool(plan.extract(doc).phases)
    except RfdError:
        has_plan = True  # a broken plan.json is a plan someone meant: rfd lint reports it
    statuses = {d.rfd_id: d.status for d in docs if d.rfd_id is not None}
    behind = doc.status in (Status.ACCEPTED, Status.IMPLEMENTED) and any(
        (statuses.get(t) or Status.DRAFT).rank < min(doc.status.rank, Status.ACCEPTED.rank)
        for t in doc.links("Extends")
    )
    return RfdFacts(doc.status, has_plan, bool(store.phase_files(rid)), behind)


def _write_process(root: Path, settings: list[Setting]) -> bool:
    """Append ``[process]`` to the configuration unless it has one (never rewrites it)."""
    from bot.core.atomic import atomic_write

    path = root / CONFIG_PATH
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if any(line.strip().startswith("[process]") for line in text.splitlines()):
        return False
    atomic_write(path, (text.rstrip("\n") + "\n\n" if text.strip() else "") + render(settings))
    return True


def read_history(root: Path, cfg: Config) -> History:
    """What the git history says: each RFD's status when added, published RFDs deleted."""
    dirs = (cfg.rfd_dir, f"{cfg.rfd_dir}/{cfg.rfd.drafts_dir.strip('/')}", cfg.rfd.templates)
    added = list(_added(root, dirs))
    blobs = _cat(root, [f"{sha}:{path}" for sha, path in added])
    statuses = []
    for (_, path), text in zip(added, blobs, strict=True):
        try:
            statuses.append(parse(text, path).status)
        except RfdError:
            continue  # an RFD that did not parse then tells nothing of the process
    deleted = _git(
        root,
        "log",
        "-M",
        "--diff-filter=D",
        "--format=",
        "--name-only",
        "--",
        cfg.rfd_dir,
        ok=(0, 128),
    )
    gone = sorted(
        {p for p in deleted.splitlines() if _published(p, dirs) and not (root / p).exists()}
    )
    return History(statuses, gone)


Dirs = tuple[str, str, str]
"""The RFD directory, the drafts directory and the templates' pattern."""


def _added(root: Path, dirs: Dirs) -> Iterator[tuple[str, str]]:
    out = _git(
        root,
        "log",
        "-M",
        "--diff-filter=A",
        "--format=%x00%H",
        "--name-only",
        "--",
        dirs[0],
        ok=(0, 128),
    )
    for block in out.split("\0")[1:]:
        sha, _, names = block.partition("\n")
        for name in names.split():
            if _rfd(name, dirs):
                yield sha, name


def _rfd(path: str, dirs: Dirs) -> bool:
    parent, _, name = path.rpartition("/")
    in_folder = name in DOCUMENT_NAMES and parent.rpartition("/")[0] == dirs[0]
    if parent not in dirs[:2] and not in_folder:
        return False
    if is_template(path[len(dirs[0]) + 1 :], dirs[2]):
        return False
    return split_path(path) is not None


def _published(path: str, dirs: Dirs) -> bool:
    split = split_path(path)
    return _rfd(path, dirs) and split is not None and not split[0].draft


def _cat(root: Path, specs: list[str]) -> list[str]:
    """The texts of ``rev:path`` blobs, with one ``git cat-file --batch``."""
    if not specs:
        return []
    proc = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=root,
        check=False,
        input="\n".join(specs).encode() + b"\n",
        capture_output=True,
    )
    data, texts, pos = proc.stdout, [], 0
    for _ in specs:
        end = data.index(b"\n", pos)
        header = data[pos:end].split()
        size = int(header[2]) if len(header) == 3 else 0
        texts.append(data[end + 1 : end + 1 + size].decode("utf-8", "replace"))
        pos = end + 1 + size + (1 if size or len(header) == 3 else 0)
    return texts


def _git(root: Path, *args: str, ok: tuple[int, ...] = (0,)) -> str:
    proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
    if proc.returncode not in ok:
        raise RfdError(
            f"git {args[0]} failed: {proc.stderr.strip()}",
            hint="run rfd adopt at the root of a git repository",
        )
    return proc.stdout if proc.returncode == 0 else ""
