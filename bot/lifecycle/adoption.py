"""Taking on an existing RFD repository as it is: ``rfd init``'s detection and ``rfd adopt``.

The edge around the decisions made on plain data (:mod:`bot.config.conventions`,
:mod:`bot.config.dialect`, :mod:`bot.model.process_detect`): it walks the repository, finds
the RFD directory, reads the RFDs and their history, and renders ``.github/rfd.toml`` with
the conventions, status words and rules found, each with its evidence.

- ``rfd init`` (:func:`detected_config`): the layout and dialect, the repository's own status
  words (``[statuses]``) and the moves its history shows (``[transitions]``), read as the
  site's feed reads them (:mod:`bot.model.status_moves`: the documents before and after each
  commit, parsed, so a status line in an example is no move), and which drafts were added when.
- ``rfd adopt`` (:func:`adopt`) records the adoption baseline (each RFD's status and lint
  findings now, and the commit: what the hooks never gate nor report again, see
  :mod:`bot.model.baseline`) and, when the configuration has no ``[process]`` table yet,
  appends the rules the history shows.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from bot.config import conventions, dialect
from bot.config.conventions import Convention, Corpus
from bot.config.load import CONFIG_PATH, Config
from bot.config.repo_templates import is_template
from bot.core.errors import RfdError, UnreadableCorpus
from bot.core.git_log import git_output, read_blobs
from bot.core.text import plural
from bot.lifecycle import lint_corpus
from bot.model import baseline, plan, status_moves
from bot.model.document import Document, parse
from bot.model.ids import DOCUMENT_NAMES, split_file_name, split_path
from bot.model.process_detect import History, RfdFacts, Setting, detect, render
from bot.model.status import Status, use
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
    texts = read_blobs(root, [blob for blob, _ in added])
    statuses = []
    for blob, path in added:
        try:
            statuses.append(parse(texts.get(blob, ""), path).status)
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
    """``(blob, path)`` of each RFD document the history added."""
    out = _git(
        root,
        "log",
        "-M",
        "--diff-filter=A",
        "--format=",
        "--raw",
        "--no-abbrev",
        "--",
        dirs[0],
        ok=(0, 128),
    )
    for line in out.splitlines():
        meta, _, path = line.partition("\t")  # ":<mode> <mode> <blob> <blob> A"
        fields = meta.split()
        if len(fields) == 5 and _rfd(path, dirs):
            yield fields[3], path


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


def _git(root: Path, *args: str, ok: tuple[int, ...] = (0,)) -> str:
    proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
    if proc.returncode not in ok:
        raise RfdError(
            f"git {args[0]} failed: {proc.stderr.strip()}",
            hint="run rfd adopt at the root of a git repository",
        )
    return proc.stdout if proc.returncode == 0 else ""


MAX_DEPTH = 4
SKIPPED_DIRS = frozenset({"node_modules", "venv", "target", "build", "dist", "vendor"})

HEADER = """\
# rfd-bot configuration, detected by `rfd init` from the RFDs already in this repository:
# each setting says above it what it was detected from. Change any of them; every key,
# its default and meaning: `rfd help configuration`. Unknown keys and bad values are errors.
"""

LABELS = """
[labels]
review = "rfd:review"     # PR label: AI review of the changed RFDs
accept = "rfd:accept"     # PR label: accept (promote) the changed RFDs
"""


def find_rfd_dir(root: Path) -> tuple[str, int] | None:
    """The directory holding the most published RFD files (``NNN-slug.md``, templates not
    counted) and how many, None when the repository has none."""
    counts: Counter[str] = Counter()
    for folder, names in _walk(root):
        shapes = conventions.TEMPLATE_SHAPES
        found = [
            n for n in names if _is_published_name(n) and not any(is_template(n, s) for s in shapes)
        ]
        if found:
            counts[folder] += len(found)
        parent, _, base = folder.rpartition("/")
        if base.isdigit() and any(n in DOCUMENT_NAMES for n in names):
            counts[parent or "."] += 1  # a directory per RFD: rfd/0001/README.md
    if not counts:
        return None
    return counts.most_common(1)[0]


def _is_published_name(name: str) -> bool:
    parts = split_file_name(name)
    return parts is not None and not parts[0].draft


def _walk(root: Path) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for current, dirs, names in os.walk(root):
        relative = Path(current).relative_to(root).as_posix()
        depth = 0 if relative == "." else relative.count("/") + 1
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS]
        if depth >= MAX_DEPTH:
            dirs[:] = []
        out.append((relative, names))
    return out


def gather(root: Path, rfd_dir: str) -> Corpus:
    """The RFD directory's Markdown files (state directory and hidden folders left out),
    the RFDs among them, and the drafts its history added."""
    base = root / rfd_dir
    files = tuple(
        (f"{folder}/{name}".removeprefix("./"), _read(base / folder / name))
        for folder, names in _walk(base)
        for name in sorted(names)
        if name.endswith((".md", ".adoc"))
    )
    shape = conventions.detect_templates(files)
    documents = tuple(
        doc for path, text in files if not is_template(path, shape) for doc in _parsed(path, text)
    )
    return Corpus(files, documents, _drafts_added(root, rfd_dir))


def candidates(corpus: Corpus) -> list[tuple[str, str]]:
    """The files that look like RFDs by their path (numbered, templates left out)."""
    shape = conventions.detect_templates(corpus.files)
    return [
        (path, text)
        for path, text in corpus.files
        if split_path(path) is not None and not is_template(path, shape)
    ]


def unreadable(corpus: Corpus, rfd_dir: str) -> list[str]:
    """``path: why`` for each RFD-looking file that does not parse (paths from the root)."""
    problems = []
    for path, text in sorted(candidates(corpus)):
        try:
            parse(text, path)
        except RfdError as err:
            line = f":{err.line}" if err.line else ""
            problems.append(f"{rfd_dir}/{path}{line}: {err.message}")
    return problems


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""  # lint reports unreadable files; detection just does not count them


def _parsed(path: str, text: str) -> list[Document]:
    if split_path(path) is None:
        return []
    try:
        return [parse(text, path)]
    except RfdError:
        return []


def _drafts_added(root: Path, rfd_dir: str) -> tuple[tuple[int, int], ...] | None:
    """Each draft number the history added, oldest first, with the highest draft number
    present just before; None outside git or without history."""
    command = ["git", "log", "--reverse", "--no-renames", "--format=@%h", "--name-status"]
    try:
        done = subprocess.run(
            [*command, "--", rfd_dir], cwd=root, capture_output=True, text=True, check=False
        )
    except OSError:
        return None
    if done.returncode != 0:
        return None
    present: set[int] = set()
    added: list[tuple[int, int]] = []
    before = 0  # the highest draft number present before the commit being read
    for line in done.stdout.splitlines():
        if line.startswith("@"):
            before = max(present, default=0)
            continue
        kind, _, path = line.partition("\t")
        parts = split_file_name(path.rpartition("/")[2])
        if parts is None or not parts[0].draft:
            continue
        number = parts[0].number
        if kind == "A" and number not in present:
            added.append((number, before))
            present.add(number)
        elif kind == "D":
            present.discard(number)
    return tuple(added) or None


def render_config(rfd_dir: str, published: int, found: list[Convention], statuses: str) -> str:
    """The configuration file: each detected setting under a comment giving its evidence."""
    lines = [HEADER.rstrip("\n"), f"# Statuses in use: {statuses or 'none'}.", "", "[rfd]"]
    lines += [
        f"# {rfd_dir} — {plural(published, 'RFD')} live there",
        _pair("dir", rfd_dir),
    ]
    table = "rfd"
    for convention in found:
        section, _, key = convention.key.partition(".")
        if section != table:
            lines += ["", f"[{section}]"]
            table = section
        lines += [f"# {convention.evidence}", _pair(key, convention.value)]
    return "\n".join(lines) + "\n" + LABELS


def _pair(key: str, value: str | int | tuple[str, ...]) -> str:
    if isinstance(value, tuple):
        return f"{key} = [{', '.join(map(_string, value))}]"
    return f"{key} = {value if isinstance(value, int) else _string(value)}"


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, for what JSON emits)."""
    return json.dumps(text, ensure_ascii=False)


def detected_config(root: Path) -> str | None:
    """The configuration ``rfd init`` writes for a repository with RFDs (None without);
    UnreadableCorpus, writing nothing, when most of the RFDs it found cannot be read."""
    where = find_rfd_dir(root)
    if where is None:
        return None
    rfd_dir, published = where
    own = _own_words(root)  # a [statuses] table written by hand before running init again
    use(own)
    corpus = gather(root, rfd_dir)
    documents = candidates(corpus)
    use({**_stages(dialect.detect(documents)), **own})  # history read in the corpus's words
    moves = status_changes(root, rfd_dir)
    use(own)
    found_dialect = dialect.detect(documents, moves)
    if found_dialect.own_words:
        use(_stages(found_dialect))
        corpus = gather(root, rfd_dir)  # read again, in the repository's words
    try:
        _check_readable(rfd_dir, corpus, found_dialect)
        found = _rfc_template(root, rfd_dir, found_dialect, conventions.detect(corpus))
        text = render_config(rfd_dir, published, found, conventions.statuses_in_use(corpus))
    finally:
        use({})
    return _with_dialect(text, found_dialect)


RFC_TEMPLATE_EVIDENCE = (
    "no templates of this shape; `rfd new` fills {path} (the RFC template), whatever the category"
    " — a proposal 0000-slug.md, numbered when it is accepted"
)


def _rfc_template(
    root: Path, rfd_dir: str, found: dialect.Dialect, detected: list[Convention]
) -> list[Convention]:
    """The conventions, the templates' evidence naming the RFC template ``rfd new`` fills
    (``0000-template.md`` at the root or beside the RFCs) when no ``[rfd] templates`` file
    was found: never "no template files found" above a template the team uses."""
    from bot.lifecycle.drafting import RFC_TEMPLATES

    if found.layout != "flat" or found.form == "list":
        return detected  # rfd new reads the RFC template only in an RFC-style corpus
    where = ((d, n) for d in ("", f"{rfd_dir}/") for n in RFC_TEMPLATES)
    path = next((d + n for d, n in where if (root / d / n).is_file()), None)
    return [
        dataclasses.replace(c, evidence=RFC_TEMPLATE_EVIDENCE.format(path=path))
        if c.key == "rfd.templates" and path is not None and c.evidence.startswith("no ")
        else c
        for c in detected
    ]


def _stages(found: dialect.Dialect) -> dict[str, str]:
    """The words of a dialect that have a stage, word → stage."""
    return {w.word: w.stage.value for w in found.words if w.stage is not None}


def _own_words(root: Path) -> dict[str, str]:
    """The ``[statuses]`` of an existing configuration (empty without one, or a broken one:
    rfd init reports that elsewhere)."""
    from bot.config.load import CONFIG_PATH, load_config
    from bot.core.errors import ConfigError

    if not (root / CONFIG_PATH).is_file():
        return {}
    try:
        return {word: stage for word, stage in load_config(root).statuses.items()}
    except ConfigError:
        return {}


CANNOT_READ = "rfd cannot read the RFDs it found in {rfd_dir}/: {read} of {found} parse"
CANNOT_READ_HINT = (
    "nothing was written. Below is what rfd could not handle; fix those documents, or map "
    "unknown status words in a [statuses] table of .github/rfd.toml, then run rfd init again"
)


def _check_readable(rfd_dir: str, corpus: Corpus, found: dialect.Dialect) -> None:
    """UnreadableCorpus unless at least half of the RFD-looking documents parse."""
    total = len(candidates(corpus))
    if total and len(corpus.documents) * 2 >= total and not found.unmapped:
        return
    problems = unreadable(corpus, rfd_dir)
    if found.unmapped:
        problems.insert(0, f"status words with no known meaning: {', '.join(found.unmapped)}")
    message = CANNOT_READ.format(rfd_dir=rfd_dir, read=len(corpus.documents), found=total)
    shown = tuple(problems[:MAX_SHOWN]) + (
        (f"… and {len(problems) - MAX_SHOWN} more",) if len(problems) > MAX_SHOWN else ()
    )
    raise UnreadableCorpus(message, hint=CANNOT_READ_HINT, alternatives=shown)


MAX_SHOWN = 12


def _with_dialect(text: str, found: dialect.Dialect) -> str:
    """The configuration with the dialect's evidence in its header and, for a corpus with
    its own status words, its ``[statuses]`` table."""
    head, _, rest = text.partition("\n# Statuses in use:")
    lines = [head, f"# Layout: {found.layout_evidence}.", f"# Header: {found.form_evidence}."]
    text = "\n".join(lines) + "\n# Statuses in use:" + rest
    if found.own_words:
        text = text.rstrip("\n") + "\n" + "\n".join(dialect.render_statuses(found)) + "\n"
    return text


def status_changes(root: Path, rfd_dir: str) -> Counter[tuple[str, str]]:
    """How often the history moved an RFD's status from one word to another (case-folded),
    as :mod:`bot.model.status_moves` reads it: the documents before and after each commit
    are parsed, so a status line in a code block or an example, or a nested key, moves
    nothing."""
    log = git_output(root, *status_moves.log_args(rfd_dir))
    found = status_moves.read_moves(log, lambda blobs: read_blobs(root, blobs))
    return Counter((m.old.casefold(), m.new.casefold()) for m in _newest_first(found))


def _newest_first(found: list[status_moves.Move]) -> list[status_moves.Move]:
    """The moves by commit, newest first (as ``git log`` lists them): moves made as often
    are shown in that order in the evidence."""
    commits: dict[str, list[status_moves.Move]] = {}
    for move in found:
        commits.setdefault(move.edit.commit.sha, []).append(move)
    return [move for moves in reversed(commits.values()) for move in moves]
