from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bot.forge.base import Comment, marker, upsert_comment
from bot.forge.local import LocalForge


@dataclass
class MemoryFiles:
    data: dict[str, str] = field(default_factory=dict)

    def read(self, relpath: str) -> str | None:
        return self.data.get(relpath)

    def write(self, relpath: str, text: str) -> str:
        self.data[relpath] = text
        return relpath

    def path(self, relpath: str) -> Path:
        return Path(".forge") / relpath

    def show(self, path: Path) -> str:
        return path.as_posix()

    def list(self, reldir: str) -> list[str]:
        return sorted(k.split("/", 1)[1] for k in self.data if k.startswith(reldir + "/"))


def test_issues_are_found_by_marker_and_edited() -> None:
    forge = LocalForge(MemoryFiles())
    mark = marker("tracking", "045")
    created = forge.create_issue("RFD 045: Queue", f"{mark}\n- [ ] 1. A")
    assert created.number == 1
    assert forge.find_issue(mark) == created
    assert forge.find_issue(marker("tracking", "046")) is None
    closed = forge.edit_issue(1, state="closed")
    assert closed.state == "closed" and closed.body == created.body
    assert "RFD 045: Queue (closed)" in forge.files.read("issues/1.md")  # type: ignore[operator]


def test_upsert_comment_is_idempotent() -> None:
    forge = LocalForge(MemoryFiles())
    forge.create_issue("PR", "")
    mark = marker("status", 1)
    first, created = upsert_comment(forge, 1, mark, "status: 1 review")
    again, created_again = upsert_comment(forge, 1, mark, "status: 1 review")
    edited, _ = upsert_comment(forge, 1, mark, "status: 2 reviews")
    assert created and not created_again
    assert again.id == first.id == edited.id
    assert len(forge._load(1)["comments"]) == 1
    assert edited.body.endswith("status: 2 reviews")


def test_labels() -> None:
    forge = LocalForge(MemoryFiles())
    forge.create_issue("PR", "", labels=("a",))
    forge.add_labels(1, ("rfd:review", "a"))
    forge.remove_label(1, "a")
    assert forge.get_issue(1).labels == ("rfd:review",)


def test_a_marker_counts_only_where_the_bot_puts_it() -> None:
    """A review quoting the status marker is not the status comment: it is never overwritten."""
    forge = LocalForge(MemoryFiles())
    forge.create_issue("PR", "")
    status = marker("status", 1)
    review = forge.create_comment(1, f"{marker('review', '045:abc')}\nSee {status} here\n{status}")
    posted, created = upsert_comment(forge, 1, status, "| RFD | status |")
    assert created and posted.id != review.id
    assert forge._load(1)["comments"][0]["body"] == review.body
    assert forge.find_issue(marker("tracking", "045")) is None
    forge.create_issue(
        "RFD 046: Beta <!-- rfd-bot:tracking:045 -->", "x <!-- rfd-bot:tracking:045 -->"
    )
    assert forge.find_issue(marker("tracking", "045")) is None


class Vanishing(LocalForge):
    """Someone deletes the comment between the bot reading it and editing it."""

    def edit_comment(self, number: int, comment_id: int, body: str) -> Comment:
        record = self._load(number)
        record["comments"] = [c for c in record["comments"] if c["id"] != comment_id]
        self._save(record)
        return super().edit_comment(number, comment_id, body)


def test_a_comment_deleted_before_its_edit_is_written_anew() -> None:
    forge = Vanishing(MemoryFiles())
    forge.create_issue("PR", "")
    mark = marker("status", 1)
    upsert_comment(forge, 1, mark, "status: 1 review")
    again, created = upsert_comment(forge, 1, mark, "status: 2 reviews")
    assert created and [c["body"] for c in forge._load(1)["comments"]] == [again.body]
    assert again.body.endswith("status: 2 reviews")
