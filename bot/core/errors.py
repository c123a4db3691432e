"""One small error hierarchy.

Domain code raises :class:`RfdError` subclasses carrying a message a user can act
on: the file, the line, what went wrong and what to do.  Each entry point (CLI,
bot, hook) translates them exactly once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import PurePath  # a hook never imports pathlib (≈ 5 ms)


class RfdError(Exception):
    """Base class of every error a user can act on."""

    kind = "error"

    def __init__(
        self,
        message: str,
        *,
        path: str | PurePath | None = None,
        line: int | None = None,
        hint: str | None = None,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        self.hint = hint
        self.alternatives = alternatives

    @property
    def location(self) -> str:
        """``path:line`` (or just ``path``), empty when unknown."""
        if self.path is None:
            return ""
        return f"{self.path}:{self.line}" if self.line is not None else self.path

    def __str__(self) -> str:
        head = f"{self.location}: {self.message}" if self.location else self.message
        lines = [head]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        lines.extend(f"  - {alt}" for alt in self.alternatives)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        return {
            "type": self.kind,
            "message": self.message,
            "path": self.path,
            "line": self.line,
            "hint": self.hint,
            "alternatives": list(self.alternatives),
        }


class FileNotFound(RfdError):
    """A file or RFD that was asked for does not exist."""

    kind = "file_not_found"


class InvalidStructure(RfdError):
    """A file exists and parses but lacks something required (a heading, a section...)."""

    kind = "invalid_structure"


class ParseError(RfdError):
    """A file cannot be read or parsed (bad JSON, non-UTF-8, unknown status...)."""

    kind = "parse_error"


class ConfigError(RfdError):
    """The configuration file has an unknown key or a bad value."""

    kind = "config_error"

    def __init__(self, message: str, *, key: str | None = None, **where: Any) -> None:
        super().__init__(message, **where)
        self.key = key
        """The dotted key at fault (its line is looked up where the file's text is known)."""


class UnreadableCorpus(RfdError):
    """``rfd init`` found RFD-looking documents it cannot read: it writes nothing."""

    kind = "unreadable_corpus"


class AmbiguousId(RfdError):
    """An RFD id matches several files."""

    kind = "ambiguous_id"


class TransitionError(RfdError):
    """A status change that the lifecycle does not allow."""

    kind = "transition_error"


class GateError(RfdError):
    """A legal status change whose preconditions are not met."""

    kind = "gate_error"


class AlreadyExists(RfdError):
    """Something to be created exists already (see ``OnExists``)."""

    kind = "already_exists"


class ValidationError(RfdError):
    """A parameter to an operation is missing or invalid."""

    kind = "validation_error"


class ProviderError(RfdError):
    """An LLM provider failed in a way retries did not fix."""

    kind = "provider_error"


class BudgetExceeded(RfdError):
    """A step went over its token or cost budget and was stopped cleanly."""

    kind = "budget_exceeded"


class ForgeError(RfdError):
    """The forge (GitHub, local) refused or failed an operation."""

    kind = "forge_error"


class ForgeGone(ForgeError):
    """What the forge was asked about is not there (any more): a deleted comment, say."""

    kind = "forge_gone"


class ForgeUnreachable(ForgeError):
    """The forge could not be reached at all (network down, DNS, timeout)."""

    kind = "forge_unreachable"


class PermissionDenied(RfdError):
    """The actor may not run this command."""

    kind = "permission_denied"


class Aborted(RfdError):
    """An interceptor or the user aborted an operation."""

    kind = "aborted"


class Interrupted(RfdError):
    """A step stopped early (timeout, Ctrl-C, budget); what it had produced is saved."""

    kind = "interrupted"


class PluginFailed(RfdError):
    """A plugin's interceptor raised something other than :class:`Aborted`: the step stops
    (what it produced is kept) and the error names the plugin."""

    kind = "plugin_failed"


class LeftPrompt(KeyboardInterrupt):
    """The person left an interactive prompt: Ctrl-C, Ctrl-D or a closed terminal.

    A ``KeyboardInterrupt`` so that it travels like Ctrl-C does (no tool call or plugin
    takes it for its own error) up to the step, which saves what it has and says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
