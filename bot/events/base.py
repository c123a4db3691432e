"""The base of every event: a dotted name, a timestamp, and a payload as JSON-ready data."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event: a dotted ``name``, a timestamp, and a typed payload."""

    name: ClassVar[str] = "event"
    interceptable: ClassVar[bool] = False
    rfd_id: str = ""
    at: float = field(default_factory=time.time)

    def payload(self) -> dict[str, Any]:
        """The event as JSON-ready data (for logs and webhooks); hooks are left out."""
        out: dict[str, Any] = {"event": self.name}
        for f in fields(self):
            if f.metadata.get("payload", True):
                out[f.name] = _jsonable(getattr(self, f.name))
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "value") and hasattr(value, "name"):  # enums
        return value.value
    return str(value)
