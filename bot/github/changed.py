"""The RFDs a pull request changes, from its file list (no file is read)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.config.discovery import RfdFile
from bot.config.load import Config
from bot.config.repo_templates import is_template
from bot.forge.base import ChangedFile
from bot.model.ids import split_file_name


@dataclass(frozen=True)
class ChangedRfd:
    file: RfdFile
    status: str
    """GitHub's file status: ``added``, ``modified``, ``removed``, ``renamed``…"""
    blob: str = ""
    """The RFD's content in the PR, as a git blob sha (empty when unknown)."""

    @property
    def removed(self) -> bool:
        return self.status == "removed"


def rfd_dirs(cfg: Config) -> tuple[str, ...]:
    drafts = cfg.rfd.drafts_dir.strip("/")
    extra = (f"{cfg.rfd_dir}/{drafts}",) if drafts not in ("", ".") else ()
    return (cfg.rfd_dir, *extra)


def as_rfd(path: str, cfg: Config) -> RfdFile | None:
    """The RFD at ``path``; None for any other file (the repository's templates included)."""
    folder, _, name = path.rpartition("/")
    parts = split_file_name(name) if folder in rfd_dirs(cfg) else None
    if parts is None or is_template(path[len(cfg.rfd_dir) + 1 :], cfg.rfd.templates):
        return None
    return RfdFile(parts[0], parts[1], path)


def changed_rfds(files: Iterable[ChangedFile], cfg: Config) -> list[ChangedRfd]:
    """RFD files the PR adds, changes or removes, sorted by id."""
    found = []
    for changed in files:
        rfd = as_rfd(changed.path, cfg)
        if rfd is not None:
            found.append(ChangedRfd(rfd, changed.status, changed.blob))
    return sorted(found, key=lambda c: c.file)
