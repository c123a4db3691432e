"""Prompt templates: one Jinja2 file per step, overridable per repository or per user.

Lookup order for ``<name>.md.j2``: ``<repo>/.rfd/prompts/`` → the user config dir
(``$RFD_CONFIG_HOME/prompts/``, else ``$XDG_CONFIG_HOME/rfd/prompts/``) → the
package default.  An override may ``{% extends "default/<name>.md.j2" %}`` and
replace one block.  Each step template extends ``_step.md.j2`` and fills its two
blocks, ``system`` and ``task``; documents are wrapped by :meth:`Prompts.document`
(``_document.md.j2``).

The environment is sandboxed with ``StrictUndefined``: a missing variable is an
error naming the template, the line and the variable.  Every value printed by a
template passes through :func:`bot.core.sanitize.for_prompt` (hidden text stripped,
data delimiters neutralised), so text from PRs and RFDs enters prompts as data.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.core.errors import FileNotFound, ParseError, ValidationError
from bot.core.sanitize import SEPARATOR, for_prompt, sanitize

if TYPE_CHECKING:
    from jinja2 import Template
    from jinja2.sandbox import SandboxedEnvironment

__all__ = ["STEPS", "Prompts", "Rendered", "sanitize", "search_path"]

SUFFIX = ".md.j2"
REPO_DIR = ".rfd/prompts"
DOCUMENT = "_document"
LAYOUT = "_step.md.j2"
"""Every step template extends this layout: block ``system``, the separator, block ``task``."""
STEPS = (
    "review",
    "review_impl",
    "refine_pass1",
    "refine_pass",
    "refine_impl",
    "accept_plan",
    "explore",
    "converge",
    "draft",
    "implement_research",
    "implement_plan",
    "implement_item",
    "implement_summary",
)


@dataclass(frozen=True)
class Rendered:
    """A step's prompt: the system prompt and the task (the last user message)."""

    system: str
    task: str


def search_path(repo_root: Path | None, environ: Mapping[str, str]) -> tuple[Path, ...]:
    """Override directories, most specific first (the package default is always last)."""
    dirs = [repo_root / REPO_DIR] if repo_root is not None else []
    if environ.get("RFD_CONFIG_HOME"):
        dirs.append(Path(environ["RFD_CONFIG_HOME"]) / "prompts")
    else:
        base = environ.get("XDG_CONFIG_HOME") or str(Path(environ.get("HOME", "~")) / ".config")
        dirs.append(Path(base).expanduser() / "rfd" / "prompts")
    return tuple(dirs)


class Prompts:
    """Renders step prompts through the override chain."""

    def __init__(self, repo_root: Path | None, environ: Mapping[str, str] | None = None) -> None:
        self.dirs = search_path(repo_root, os.environ if environ is None else environ)
        self._env: SandboxedEnvironment | None = None

    def render(self, name: str, **context: Any) -> Rendered:
        """The ``system`` and ``task`` blocks of template ``name`` with ``context``."""
        template = self._template(name)
        text = self._call(template, lambda: template.render(**context))
        system, found, task = text.partition(SEPARATOR)
        if not found:
            raise ParseError(
                "prompt template does not extend the step layout",
                path=template.filename,
                hint=f'start it with {{% extends "default/{name}{SUFFIX}" %}} '
                f'or {{% extends "{LAYOUT}" %}}',
            )
        return Rendered(system=system.strip() + "\n", task=task.strip() + "\n")

    def document(self, label: str, text: str, **context: Any) -> str:
        """``text`` (an RFD, a review, a diff…) wrapped as data, not instructions."""
        template = self._template(DOCUMENT)
        return self._call(template, lambda: template.render(label=label, text=text, **context))

    def source(self, name: str) -> Path:
        """The file ``name`` is read from (first match of the override chain)."""
        return Path(self._template(name).filename or name)

    def _call(self, template: Template, render: Any) -> str:
        from jinja2 import TemplateError, UndefinedError

        try:
            return str(render())
        except UndefinedError as exc:
            path, line = _template_frame(exc) or (template.filename, None)
            raise ValidationError(
                f"prompt template uses an undefined variable: {exc.message}",
                path=path,
                line=line,
                hint="pass the variable, or guard it with `is defined` in the override",
            ) from None
        except TemplateError as exc:
            raise _template_error(exc, template.filename) from None

    def _template(self, name: str) -> Template:
        from jinja2 import TemplateNotFound, TemplateSyntaxError

        try:
            return self._environment().get_template(name + SUFFIX)
        except TemplateSyntaxError as exc:
            raise _template_error(exc, exc.filename or exc.name) from None
        except TemplateNotFound:
            raise FileNotFound(
                f"no prompt template named {name!r}", alternatives=tuple(s for s in STEPS)
            ) from None

    def _environment(self) -> SandboxedEnvironment:
        if self._env is None:
            self._env = _make_environment(self.dirs)
        return self._env


def _make_environment(dirs: tuple[Path, ...]) -> SandboxedEnvironment:
    from jinja2 import ChoiceLoader, FileSystemLoader, PackageLoader, PrefixLoader, StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    package = PackageLoader("bot", "prompts")
    loaders = [FileSystemLoader(str(d)) for d in dirs if d.is_dir()]
    loader = ChoiceLoader([*loaders, PrefixLoader({"default": package}), package])
    return SandboxedEnvironment(
        loader=loader,
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=for_prompt,
    )


def _template_error(exc: Exception, path: str | None) -> ParseError:
    line = getattr(exc, "lineno", None)
    message = getattr(exc, "message", None) or str(exc)
    return ParseError(f"broken prompt template: {message}", path=path, line=line)


def _template_frame(exc: BaseException) -> tuple[str, int] | None:
    """The innermost template file and line in ``exc``'s traceback (Jinja rewrites frames)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(SUFFIX)]
    return (frames[-1].filename, frames[-1].lineno or 0) if frames else None
