"""What every hook shares: where RFDs and their state live, and how problems are printed.

The hooks are handed repository-relative paths by pre-commit (every file with
``--all-files``); they keep those under the configured RFD directory
(``.github/rfd.toml`` ``[rfd] dir``), so one ``.pre-commit-hooks.yaml`` serves any layout.
This module imports next to nothing: a commit that touches no RFD costs a hook little
more than the interpreter.
"""

from __future__ import annotations

import os
import sys
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from bot.config.load import Config, ConsensusSection
    from bot.core.errors import RfdError
    from bot.model.ids import RfdId
    from bot.model.lint_codes import LintSettings
    from bot.model.process import Process
    from hooks._files import Root


class HookArgs:
    """A hook's command line (a plain class: a NamedTuple costs ≈ 0.3 ms to define)."""

    __slots__ = ("filenames", "from_ref", "to_ref")

    def __init__(self, filenames: list[str], from_ref: str, to_ref: str) -> None:
        self.filenames, self.from_ref, self.to_ref = filenames, from_ref, to_ref


def hook_args(prog: str, doc: str, argv: Sequence[str] | None, files: str) -> HookArgs:
    """The command line every hook takes: the file names pre-commit passes (``files`` says
    what the hook does with them) and, on pre-push, the pushed range (from pre-commit's
    ``PRE_COMMIT_FROM_REF``/``PRE_COMMIT_TO_REF`` unless given).  File names are never
    options: a ``--`` goes before the first of them (:func:`split_options`).

    pre-commit passes file names only, and those need no parser: argparse (with the
    ``gettext`` and ``locale`` it imports, ≈ 4 ms of a hook's start) is loaded only for a
    command line with options (``--help``, ``--to-ref``, a mistyped one)."""
    options, names = split_options(sys.argv[1:] if argv is None else list(argv), VALUED)
    if not options:
        environ = os.environ
        refs = environ.get("PRE_COMMIT_FROM_REF", ""), environ.get("PRE_COMMIT_TO_REF", "")
        return HookArgs(names, *refs)
    import argparse

    # add_argument makes a formatter to check each argument; argparse's own asks the terminal
    # its width through shutil (which imports bz2, lzma, zlib): one of a given width checks
    # the same, and argparse's is back before any help or error is printed
    unsized = partial(argparse.HelpFormatter, width=78)
    parser = argparse.ArgumentParser(
        prog, description=doc.splitlines()[0], allow_abbrev=False, formatter_class=unsized
    )
    parser.add_argument("filenames", nargs="*", help=files)
    parser.add_argument("--from-ref", default=os.environ.get("PRE_COMMIT_FROM_REF", ""))
    parser.add_argument("--to-ref", default=os.environ.get("PRE_COMMIT_TO_REF", ""))
    parser.formatter_class = argparse.HelpFormatter
    parsed = parser.parse_args([*options, "--", *names])
    return HookArgs(parsed.filenames, parsed.from_ref, parsed.to_ref)


VALUED = frozenset({"--from-ref", "--to-ref"})
"""The hooks' options that take their value as the next word."""


def split_options(argv: Sequence[str], valued: frozenset[str]) -> tuple[list[str], list[str]]:
    """``(options, file names)`` of a hook's command line: options end at ``--``, at the
    first word that is no option, or at the first word naming a path that exists (a file
    called ``--to-ref=:/init.md`` is a file); everything after is a file name."""
    n = 0
    while n < len(argv):
        word = argv[n]
        if word == "--":
            return list(argv[:n]), list(argv[n + 1 :])
        if not word.startswith("-") or os.path.lexists(word):
            break
        n += 2 if word in valued else 1
    n = min(n, len(argv))
    return list(argv[:n]), list(argv[n:])


TEMPLATES = "000-*-template.md"
"""``bot.config.load.RfdSection.templates`` (the default layout's test keeps the two equal)."""


class Layout(NamedTuple):
    """The configured directories, as repository-relative posix paths."""

    rfd_dir: str
    drafts_dir: str
    state_root: str
    templates: str = TEMPLATES
    """The repository's own templates (a glob relative to ``rfd_dir``): never RFDs."""
    consensus: ConsensusSection | None = None
    """The sign-offs acceptance needs (None without a ``[consensus]`` table)."""
    bot_login: str = "github-actions[bot]"
    """The account the bot writes as (``[bot] login``): its comments prove its commits."""

    @classmethod
    def of(cls, cfg: Config) -> Layout:
        drafts = f"{cfg.rfd_dir}/{cfg.rfd.drafts_dir.strip('/')}"
        consensus = cfg.consensus if cfg.consensus.enabled else None
        return cls(cfg.rfd_dir, drafts, cfg.state_root, cfg.rfd.templates, consensus, cfg.bot.login)

    def rfd_id(self, path: str) -> RfdId | None:
        """The id of the RFD file at ``path``, None when it is not an RFD file."""
        path = normalize(path)
        parent, _, name = path.rpartition("/")
        in_folder = parent.rpartition("/")[0] == self.rfd_dir and name.startswith(("README", "in"))
        if parent not in (self.rfd_dir, self.drafts_dir) and not in_folder:
            return None  # nor rfd/0001/README.md (a directory per RFD)
        from bot.config.repo_templates import is_template
        from bot.model.ids import split_path

        if is_template(path[len(self.rfd_dir) + 1 :], self.templates):
            return None

        split = split_path(path)
        return split[0] if split else None

    def state_file(self, path: str) -> tuple[str, str] | None:
        """``(state key, path inside the RFD's state dir)`` for a file under the state root."""
        prefix = self.state_root + "/"
        path = normalize(path)
        if not path.startswith(prefix):
            return None
        key, _, rel = path[len(prefix) :].partition("/")
        if not rel or key.startswith("."):
            return None  # a file of the state root itself, or a shared area such as .forge/
        return key, rel

    def state_path(self, rfd_id: RfdId | str, rel: str) -> str:
        return f"{self.state_root}/{rfd_id}/{rel}"

    def holds(self, path: str) -> bool:
        """Does ``path`` lie under the RFD directory (drafts and state included)?"""
        return self.rfd_dir in ("", ".") or normalize(path).startswith(self.rfd_dir + "/")


def bad_names(paths: Iterable[str], layout: Layout) -> list[RfdError]:
    """An error for each path under the RFD directory whose name holds a control character
    (a newline would otherwise make it no RFD file at all, and skip its checks)."""
    from hooks._files import control_in_name

    found = (control_in_name(p) for p in dict.fromkeys(paths) if layout.holds(p))
    return [err for err in found if err is not None]


def normalize(path: str) -> str:
    """pre-commit's paths are relative already; tolerate ``./`` and backslashes."""
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


CONFIG_PATH = ".github/rfd.toml"
"""``bot.config.load.CONFIG_PATH`` (a test keeps the two equal)."""
DEFAULT_LAYOUT = Layout("docs/rfd", "docs/rfd/drafts", "docs/rfd/.state", TEMPLATES)
"""``Layout.of(Config())`` (a test keeps the two equal)."""


def load_layout(root: Root) -> Layout:
    """The layout configured for ``root`` (ConfigError for a broken ``.github/rfd.toml``)."""
    return load_settings(root).layout


class Settings:
    """What the hooks read of the configuration; ``process`` and ``lint`` are built on first
    use, so a commit without RFDs does not import them."""

    def __init__(self, layout: Layout, table: Mapping[str, Any] | None, cfg: Config | None):
        self.layout = layout
        self._table, self._cfg = table, cfg

    def _section(self, name: str, fields: tuple[str, ...]) -> Mapping[str, Any]:
        if self._cfg is not None:
            section = getattr(self._cfg, name)
            return {key: getattr(section, key) for key in fields}
        return (self._table or {}).get(name, {})  # type: ignore[no-any-return]

    @property
    def process(self) -> Process:
        from bot.model.process import Process

        return Process.from_table(self._section("process", Process._fields))

    @property
    def lint(self) -> LintSettings:
        from bot.model.lint_codes import LintSettings

        return LintSettings.from_table(self._section("lint", LintSettings._fields))


def load_settings(root: Root) -> Settings:
    """The settings configured for ``root`` (ConfigError for a broken ``.github/rfd.toml``).

    The file is read by :mod:`hooks._config`; the configuration module (~30 ms of
    dataclass building at import) is loaded only for a file that reader cannot vouch for.
    """
    from hooks._config import rfd_of, vouched

    table = vouched(root, CONFIG_PATH)
    rfd = rfd_of(table)
    if rfd is None or table is None:
        from pathlib import Path

        from bot.config.load import load_config

        return settings_of(load_config(Path(root)))
    rfd_dir = rfd.get("dir", DEFAULT_LAYOUT.rfd_dir).rstrip("/")
    drafts = rfd.get("drafts_dir", "drafts").strip("/")
    state_root = f"{rfd_dir}/{rfd.get('state_dir', '.state')}"
    layout = Layout(rfd_dir, f"{rfd_dir}/{drafts}", state_root, rfd.get("templates", TEMPLATES))
    if table.get("statuses") or table.get("transitions") or "bot.model.status" in sys.modules:
        from bot.model.status import use  # (or forget another repository's words)

        use(table.get("statuses", {}), table.get("transitions", {}))
    return Settings(layout, table, None)


def settings_of(cfg: Config) -> Settings:
    """The hooks' settings of a configuration :mod:`bot.config.load` loaded."""
    return Settings(Layout.of(cfg), None, cfg)


class Report:
    """Prints each problem as ``path:line: message`` plus its hint, and counts them."""

    def __init__(self) -> None:
        self.problems = 0
        self.where: Callable[[], str] | None = None
        """Where the problems being reported come from (on pre-push: which commit), asked
        for only when there is a problem; printed under each one's first line."""

    def error(self, err: RfdError) -> None:
        self.problem(str(err))

    def problem(self, text: str) -> None:
        """A problem already worded as ``path:line: message`` (and ``  hint: ...``)."""
        self.problems += 1
        where = self.where() if self.where is not None else ""
        if where:
            first, newline, rest = text.partition("\n")
            text = f"{first}\n  {where}{newline}{rest}"
        print(text, file=sys.stdout)

    def note(self, text: str) -> None:
        """Informational output (pre-commit shows it with ``--verbose``)."""
        print(text, file=sys.stdout)

    @property
    def code(self) -> int:
        return 1 if self.problems else 0


def pushed_in(root: Root, from_ref: str, to_ref: str, path: str) -> Callable[[], str] | None:
    """On pre-push (``to_ref`` set), what names the pushed commit that last changed ``path``
    (``Report.where``); git is asked only if a problem is reported.  None otherwise."""
    if not to_ref:
        return None

    def where() -> str:
        from hooks._git import last_commit

        return last_commit(root, from_ref, to_ref, path)

    return where


def decode(data: bytes, path: str) -> str:
    from bot.core.errors import ParseError

    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError("is not UTF-8 text", path=path, hint="save it as UTF-8") from exc
