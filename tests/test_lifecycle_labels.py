"""Lifecycle labels: the RFD's status as a label, separate from the trigger labels."""

from __future__ import annotations

from bot.model.status import Status, label_changes, label_of, label_style, status_of


def test_each_status_has_its_label_and_back() -> None:
    for status in Status:
        assert status_of(label_of(status)) is status
    assert label_of(Status.DISCUSSION) == "rfd: discussion"
    assert status_of("rfd:review") is None and status_of("bug") is None


def test_changes_swap_the_old_status_label_and_leave_other_labels_alone() -> None:
    todo = label_changes(["rfd: discussion", "rfd:accept", "bug"], [Status.ACCEPTED])
    assert (todo.add, todo.remove) == (("rfd: accepted",), ("rfd: discussion",))
    assert not label_changes(["rfd: accepted", "bug"], [Status.ACCEPTED])


def test_only_lifecycle_labels_get_a_style() -> None:
    found = label_style("rfd: abandoned")
    assert found is not None and found[1] == "RFD status, kept by rfd-bot: Abandoned"
    assert label_style("rfd:review") is None


def test_labels_speak_the_repositorys_words_and_replace_rfds_own() -> None:
    from bot.model.status import Status, label_changes, label_of, status_of, use

    use({"discussion": "discussion", "published": "accepted", "committed": "implemented"})
    assert label_of(Status.ACCEPTED) == "rfd: published"
    assert status_of("rfd: published") is Status.ACCEPTED
    assert status_of("rfd: accepted") is Status.ACCEPTED  # rfd's own name, from before
    moved = label_changes(["rfd: accepted", "bug"], [Status.IMPLEMENTED])
    assert (moved.add, moved.remove) == (("rfd: committed",), ("rfd: accepted",))
