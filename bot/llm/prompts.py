"""Prompt templates: one Jinja2 file per step, overridable per repository or per user.

Lookup order for ``<name>.md.j2``: the user config dir (``$RFD_CONFIG_HOME/prompts/``,
else ``$XDG_CONFIG_HOME/rfd/prompts/``) → ``<repo>/.rfd/prompts/`` → the package default:
the person's own prompts win over the repository's, as seed 000 orders them.  An override
may ``{% extends "default/<name>.md.j2" %}`` and replace one block.  An override that
does not render (a syntax error, an undefined variable, no step layout) is reported as a
warning naming its file and line, and the built-in prompt is used instead.  Each step
template extends ``_step.md.j2`` and fills its two blocks, ``system`` and ``task``;
documents are wrapped by :meth:`Prompts.document` (``_document.md.j2``).

The environment is sandboxed with ``StrictUndefined``: a missing variable is an
error naming the template, the line and the variable.  Every value printed by a
template passes through :func:`bot.core.sanitize.for_prompt` (hidden text stripped,
data delimiters neutralised), so text from PRs and RFDs enters prompts as data.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot.core.errors import FileNotFound, ParseError, ValidationError
from bot.core.sanitize import SEPARATOR, for_prompt, sanitize

if TYPE_CHECKING:
    from jinja2 import Template
    from jinja2.sandbox import SandboxedEnvironment

__all__ = ["STEPS", "Prompts", "Rendered", "sanitize", "search_path"]

_T = TypeVar("_T")
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


BROKEN = "{error}; using the built-in {name} prompt instead"


def search_path(repo_root: Path | None, environ: Mapping[str, str]) -> tuple[Path, ...]:
    """Override directories, the first that has a template wins: the user's, then the
    repository's (the package default is always last)."""
    if environ.get("RFD_CONFIG_HOME"):
        user = Path(environ["RFD_CONFIG_HOME"]) / "prompts"
    else:
        base = environ.get("XDG_CONFIG_HOME") or str(Path(environ.get("HOME", "~")) / ".config")
        user = Path(base).expanduser() / "rfd" / "prompts"
    return (user, *([repo_root / REPO_DIR] if repo_root is not None else []))


class Prompts:
    """Renders step prompts through the override chain."""

    def __init__(
        self,
        repo_root: Path | None,
        environ: Mapping[str, str] | None = None,
        *,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        """``warn``: told when a broken override is replaced by the built-in prompt."""
        self.dirs = search_path(repo_root, os.environ if environ is None else environ)
        self.warn = warn or (lambda message: None)
        self._env: SandboxedEnvironment | None = None
        self._builtin: SandboxedEnvironment | None = None

    def render(self, name: str, **context: Any) -> Rendered:
        """The ``system`` and ``task`` blocks of template ``name`` with ``context``."""
        return self._fallback(name, lambda env: self._render(env, name, context))

    def document(self, label: str, text: str, **context: Any) -> str:
        """``text`` (an RFD, a review, a diff…) wrapped as data, not instructions."""

        def wrap(env: SandboxedEnvironment) -> str:
            template = self._template(DOCUMENT, env)
            return self._call(template, lambda: template.render(label=label, text=text, **context))

        return self._fallback(DOCUMENT, wrap)

    def source(self, name: str) -> Path:
        """The file ``name`` is read from (first match of the override chain)."""
        return Path(self._template(name).filename or name)

    def _fallback(self, name: str, make: Callable[[SandboxedEnvironment], _T]) -> _T:
        """``make`` on the override chain; on an error in an override, on the package."""
        try:
            return make(self._environment())
        except (ParseError, ValidationError) as exc:
            if not self._in_override(exc.path):
                raise
            self.warn(BROKEN.format(error=exc, name=name))
            if self._builtin is None:
                self._builtin = _make_environment(())
            return make(self._builtin)

    def _in_override(self, path: str | None) -> bool:
        if not path:
            return False
        found = Path(path).resolve()
        return any(found.is_relative_to(d.resolve()) for d in self.dirs)

    def _render(self, env: SandboxedEnvironment, name: str, context: Any) -> Rendered:
        template = self._template(name, env)
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

    def _template(self, name: str, env: SandboxedEnvironment | None = None) -> Template:
        from jinja2 import TemplateNotFound, TemplateSyntaxError

        try:
            return (env or self._environment()).get_template(name + SUFFIX)
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
