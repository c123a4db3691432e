"""The records tools are made of: the step vocabulary, a tool, and what a tool may reach."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.agent.toolbox.sandbox import Sandbox
from bot.config.load import Config


class Step(enum.Enum):
    """A conversation the agent runs; each has its own tool set and prompt."""

    EXPLORE = "explore"
    CONVERGE = "converge"
    DRAFT = "draft"
    REVIEW = "review"
    REFINE = "refine"
    RESEARCH = "research"
    PLAN = "plan"
    IMPLEMENT = "implement"
    SUMMARY = "summary"

    @property
    def config_key(self) -> str:
        """The ``steps.<key>`` section of the configuration that sets model and budget."""
        return "implement" if self in _IMPLEMENT_PARTS else self.value


_IMPLEMENT_PARTS = frozenset({Step.RESEARCH, Step.PLAN, Step.SUMMARY})


class Store(Protocol):
    """What the tools and loops need of ``bot.state.StateStore``."""

    def path(self, rfd_id: Any, relpath: str) -> Any: ...
    def read_text(self, rfd_id: Any, relpath: str) -> str | None: ...
    def write_text(self, rfd_id: Any, relpath: str, text: str) -> Any: ...
    def remove_tree(self, rfd_id: Any, relpath: str) -> Any: ...
    def append_line(self, rfd_id: Any, relpath: str, line: str) -> Any: ...
    def write_explore(self, rfd_id: Any, text: str) -> Any: ...
    def decide(self, rfd_id: Any, action: str, **kwargs: Any) -> Any: ...
    def read_plan(self, rfd_id: Any) -> Any: ...
    def phase_summaries(self, rfd_id: Any) -> Mapping[int, Any]: ...
    def phase_files(self, rfd_id: Any) -> Mapping[str, Any]: ...
    def hold(self, rfd_id: Any, relpath: str, what: str) -> AbstractContextManager[None]: ...


Targets = Callable[["ToolContext", Mapping[str, Any]], tuple[str, ...]]


@dataclass(frozen=True)
class ToolContext:
    """Everything a tool handler may touch: the repository and this RFD's state."""

    sandbox: Sandbox
    config: Config
    store: Store | None = None
    rfd_id: Any = None
    """The ``RfdId`` whose state the RFD tools write."""
    rfd_path: str | None = None
    """The RFD file, relative to the repository root."""
    rfd_title: str = ""
    command_timeout: float = 300.0
    originals: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    """Each file the write tools changed, as it was before their first change (for diffs)."""

    @classmethod
    def for_repo(cls, root: Any, config: Config, **kwargs: Any) -> ToolContext:
        impl = config.implement
        sandbox = Sandbox(root, impl.allowed_paths, impl.protected_paths)
        return cls(sandbox=sandbox, config=config, **kwargs)


Handler = Callable[[ToolContext, Mapping[str, Any]], str]


@dataclass(frozen=True)
class Tool:
    """A tool the model may call: its schema, whether it writes, and its handler."""

    name: str
    description: str
    input_schema: Mapping[str, Any]
    handler: Handler
    writes: bool = False
    preview: Handler | None = None
    """Shows the change before it is made (a unified diff for writes), for ask mode."""
    confined: bool = False
    """Bounded by configuration (paths, command allow-list): may run without a person."""
    targets: Targets | None = None
    """The repository paths the tool writes by the workflow rather than by argument."""
    isolated: bool = False
    """Runs model-chosen code: without a person only where
    :mod:`bot.agent.implementation.isolation` works."""


def schema(
    required: Mapping[str, Any], optional: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A JSON Schema object; each property is a type name ("string"...) or a full schema."""
    merged = {**required, **(optional or {})}
    props = {k: {"type": v} if isinstance(v, str) else dict(v) for k, v in merged.items()}
    return {"type": "object", "properties": props, "required": list(required)}
