"""The local forge: what the bot would post on GitHub, kept as files in the state directory.

Issues (tracking issues, PR stand-ins) are JSON records with a readable markdown twin,
``<state root>/.forge/issues/<N>.json`` and ``<N>.md``.  Nothing leaves the machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bot.core.errors import ForgeError, ForgeGone
from bot.forge.base import Comment, Issue, carries


class ForgeFiles(Protocol):
    """Where the local forge keeps its files (the state store provides this)."""

    def read(self, relpath: str) -> str | None: ...

    def write(self, relpath: str, text: str) -> str:
        """Write atomically; return the path shown to the user."""

    def list(self, reldir: str) -> list[str]: ...

    def path(self, relpath: str) -> Path: ...

    def show(self, path: Path) -> str:
        """``path`` as the user knows it (relative to the repository)."""


@dataclass
class LocalForge:
    files: ForgeFiles
    name: str = "local"
    discussion: str = ""
    writes: list[str] = field(default_factory=list)

    # -- issues ---------------------------------------------------------------------
    def find_issue(self, marker: str) -> Issue | None:
        for number in self._numbers():
            record = self._load(number)
            if carries(record["body"], marker):
                return self._issue(record)
        return None

    def get_issue(self, number: int) -> Issue:
        return self._issue(self._load(number))

    def create_issue(self, title: str, body: str, labels: tuple[str, ...] = ()) -> Issue:
        number = max(self._numbers(), default=0) + 1
        record = {
            "number": number,
            "title": title,
            "body": body,
            "state": "open",
            "labels": list(labels),
            "comments": [],
        }
        self._save(record)
        return self._issue(record)

    def edit_issue(
        self,
        number: int,
        *,
        title: str | None = None,
        body: str | None = None,
        state: str | None = None,
        state_reason: str | None = None,
    ) -> Issue:
        record = self._load(number)
        fields = {"title": title, "body": body, "state": state, "state_reason": state_reason}
        for key, value in fields.items():
            if value is not None:
                record[key] = value
        self._save(record)
        return self._issue(record)

    # -- comments -------------------------------------------------------------------
    def find_comment(self, number: int, marker: str) -> Comment | None:
        for c in self._load(number)["comments"]:
            if carries(c["body"], marker):
                return self._comment(number, c)
        return None

    def create_comment(self, number: int, body: str) -> Comment:
        record = self._load(number)
        cid = number * 1000 + len(record["comments"]) + 1
        record["comments"].append({"id": cid, "body": body})
        self._save(record)
        return self._comment(number, record["comments"][-1])

    def edit_comment(self, number: int, comment_id: int, body: str) -> Comment:
        record = self._load(number)
        for c in record["comments"]:
            if c["id"] == comment_id:
                c["body"] = body
                self._save(record)
                return self._comment(number, c)
        raise ForgeGone(f"no comment {comment_id} on local issue #{number}")

    def file_url(self, path: str) -> str:
        return path  # read next to the repository: the path is the link

    # -- labels ---------------------------------------------------------------------
    def add_labels(self, number: int, labels: tuple[str, ...]) -> None:
        record = self._load(number)
        record["labels"] = sorted(set(record["labels"]) | set(labels))
        self._save(record)

    def remove_label(self, number: int, label: str) -> None:
        record = self._load(number)
        record["labels"] = [x for x in record["labels"] if x != label]
        self._save(record)

    # -- storage --------------------------------------------------------------------
    def path(self, number: int) -> str:
        return f"issues/{number}.md"

    def _numbers(self) -> list[int]:
        names = self.files.list("issues")
        return sorted(int(n[:-5]) for n in names if n.endswith(".json") and n[:-5].isdigit())

    def _load(self, number: int) -> dict[str, Any]:
        text = self.files.read(f"issues/{number}.json")
        if text is None:
            raise ForgeError(f"local issue #{number} does not exist")
        data: dict[str, Any] = json.loads(text)
        return data

    def _save(self, record: dict[str, Any]) -> None:
        n = record["number"]
        self.files.write(f"issues/{n}.json", json.dumps(record, indent=2) + "\n")
        shown = self.files.write(self.path(n), _markdown(record))
        self.writes.append(shown)

    def _issue(self, r: dict[str, Any]) -> Issue:
        url = f"local:{self._shown(r['number'])}"
        return Issue(r["number"], r["title"], r["body"], r["state"], url, tuple(r["labels"]))

    def _comment(self, number: int, c: dict[str, Any]) -> Comment:
        url = f"local:{self._shown(number)}#comment-{c['id']}"
        return Comment(c["id"], c["body"], url, "rfd-bot")

    def _shown(self, number: int) -> str:
        return self.files.show(self.files.path(self.path(number)))


def _markdown(r: dict[str, Any]) -> str:
    head = f"# #{r['number']} {r['title']} ({r['state']})\n"
    labels = f"\nLabels: {', '.join(r['labels'])}\n" if r["labels"] else ""
    comments = "".join(f"\n---\n\n**Comment {c['id']}**\n\n{c['body']}\n" for c in r["comments"])
    return f"{head}{labels}\n{r['body']}\n{comments}"
