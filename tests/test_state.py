from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.config.load import Config
from bot.core.errors import (
    AlreadyExists,
    FileNotFound,
    InvalidStructure,
    ParseError,
    ValidationError,
)
from bot.forge.local import ForgeFiles, LocalForge
from bot.model.decisions import Decision
from bot.model.ids import RfdId
from bot.model.plan import PlanPhase
from bot.state import RfdState, StateStore

PHASES = (PlanPhase("One", "Do one.", "1"), PlanPhase("Two", "Do two."), PlanPhase("3", "x"))


@pytest.fixture
def store(tmp_path: Path) -> StateStore:
    return StateStore(tmp_path, Config())


def put(store: StateStore, relpath: str, text: str | bytes = "x") -> Path:
    """A hand edit: write straight to disk, bypassing the store."""
    path = store.base / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_dir_is_under_the_configured_state_root(store: StateStore, tmp_path: Path) -> None:
    assert store.dir("045") == tmp_path / "docs/rfd/.state/045"
    assert store.dir(RfdId.parse("D32")) == tmp_path / "docs/rfd/.state/D32"
    assert store.show(store.dir("045") / "plan.json") == "docs/rfd/.state/045/plan.json"


@pytest.mark.parametrize("key", ["", "../x", "a/b", ".state", "-x", "0 45"])
def test_bad_ids_cannot_name_a_directory(store: StateStore, key: str) -> None:
    with pytest.raises(ValidationError, match="cannot name a state directory"):
        store.dir(key)


@pytest.mark.parametrize("relpath", ["", "/etc/passwd", "../045", "a/../../b", "x/.."])
def test_relpaths_stay_inside_the_state_directory(store: StateStore, relpath: str) -> None:
    with pytest.raises(ValidationError, match="not a path inside"):
        store.write_text("045", relpath, "x")


def test_missing_state_reads_as_empty(store: StateStore) -> None:
    state = store.read("045")
    assert state == RfdState("045")
    assert (state.total, state.done, state.next_phase) == (0, 0, None)
    assert store.read_plan("045") is None and store.read_explore("045") is None
    assert store.list_reviews("045") == [] and store.phase_summaries("045") == {}
    assert store.validate("045") == [] and store.phase_progress("045") is None


def test_full_state_is_derived_from_files(store: StateStore) -> None:
    store.write_explore("045", "# Research\n")
    store.decide("045", "add", text="Locked one", status="locked", title="Title")
    store.decide("045", "add", text="Open one")
    store.write_plan("045", PHASES)
    store.write_phase_summary("045", 1, "did one")
    first = store.save_review("045", "# Review\n\nError handling needs work.\n", now=100)
    store.save_review("045", "Impl ok", impl=True, now=200)
    state = store.read(RfdId.parse("045"))
    assert state.exists and state.explore and state.decisions
    assert (state.locked, state.discussing) == (1, 1)
    assert state.plan == PHASES and state.plan_error is None
    assert (state.completed, state.total, state.done, state.next_phase) == ((1,), 3, 1, 2)
    assert [(r.path, r.timestamp, r.headline) for r in state.reviews] == [
        (first, 100, "Error handling needs work.")
    ]
    assert [r.timestamp for r in state.impl_reviews] == [200]
    assert store.phase_progress("045") == (1, 3)


def test_reading_tolerates_hand_edits(store: StateStore) -> None:
    store.write_plan("045", PHASES)
    put(store, "045/reviews/notes.txt")
    put(store, "045/reviews/abc.md")
    put(store, "045/reviews/.1700000000.md.x1y2.tmp")
    put(store, "045/reviews/1700000000.md", "<!-- rfd-bot -->\n---\n- **Blocker**: plan\n")
    (store.base / "045/reviews/1600000000.md").mkdir()
    put(store, "045/phases/two.md")
    put(store, "045/phases/1.md")
    put(store, "045/phases/01.md")
    put(store, "045/phases/7.md")
    put(store, "045/phases/0.md")
    (store.base / "045/impl-reviews").mkdir(parents=True)
    put(store, "045/stray.bin", b"\xff\xfe")
    state = store.read("045")
    assert [(r.timestamp, r.headline) for r in state.reviews] == [(1700000000, "Blocker: plan")]
    assert state.completed == (1,) and state.impl_reviews == ()  # 0.md, 7.md: no such phase
    assert store.phase_summaries("045")[1].name == "1.md"
    assert (state.done, state.next_phase, store.phase_progress("045")) == (1, 2, (1, 3))


def test_broken_files_become_errors_in_the_derived_state(store: StateStore) -> None:
    put(store, "045/plan.json", "[{")
    put(store, "045/decisions.md", "## Ideas\n")
    state = store.read("045")
    assert state.plan is None and isinstance(state.plan_error, ParseError)
    assert state.decisions and isinstance(state.decisions_error, ParseError)
    assert (state.locked, state.total, state.next_phase) == (0, 0, None)
    assert store.phase_progress("045") is None


def test_non_utf8_file_is_a_parse_error_naming_it(store: StateStore) -> None:
    put(store, "045/explore.md", b"\xff\xfe bad")
    with pytest.raises(ParseError, match="not UTF-8") as info:
        store.read_explore("045")
    assert info.value.path == "docs/rfd/.state/045/explore.md"


def test_write_plan_validates_and_leaves_old_file_on_error(store: StateStore) -> None:
    path = store.write_plan("045", PHASES)
    before = path.read_text()
    with pytest.raises(InvalidStructure, match="index 1 needs a non-empty 'title'"):
        store.write_plan("045", [PlanPhase("ok", ""), PlanPhase("  ", "")])
    assert path.read_text() == before
    assert sorted(os.listdir(path.parent)) == ["plan.json"]


def test_write_plan_failure_mid_write_keeps_old_file(
    store: StateStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = store.write_plan("045", PHASES)
    before = path.read_text()

    def boom(*args: object) -> None:
        raise OSError("no space left on device")

    monkeypatch.setattr("os.replace", boom)
    with pytest.raises(OSError, match="no space"):
        store.write_plan("045", PHASES[:1])
    assert path.read_text() == before
    assert os.listdir(path.parent) == ["plan.json"]


def test_save_review_never_overwrites(store: StateStore) -> None:
    paths = [store.save_review("045", f"review {n}", now=1000) for n in range(3)]
    put(store, "045/reviews/1004.md", "hand")
    paths.append(store.save_review("045", "late", now=1004))
    assert [p.name for p in paths] == ["1000.md", "1001.md", "1002.md", "1005.md"]
    assert [p.read_text() for p in paths] == ["review 0", "review 1", "review 2", "late"]


@pytest.mark.parametrize(
    ("selection", "left"),
    [([1], [2, 3]), ([3, 1, 1], [2]), ([], [1, 2, 3]), ("all", [])],
)
def test_dismiss_deletes_only_the_chosen_reviews(
    store: StateStore, selection: list[int] | str, left: list[int]
) -> None:
    for ts in (1, 2, 3):
        store.save_review("045", f"r{ts}", now=ts)
    put(store, "045/reviews/notes.txt")
    removed = store.dismiss("045", selection)  # type: ignore[arg-type]
    assert all(not p.exists() for p in removed)
    assert [r.timestamp for r in store.list_reviews("045")] == left
    assert (store.base / "045/reviews/notes.txt").exists()


@pytest.mark.parametrize(("selection", "message"), [([4], "number 4 \\(valid: 1–3\\)"), ([0], "0")])
def test_dismiss_with_a_bad_number_deletes_nothing(
    store: StateStore, selection: list[int], message: str
) -> None:
    for ts in (1, 2, 3):
        store.save_review("045", f"r{ts}", now=ts)
    with pytest.raises(ValidationError, match=message):
        store.dismiss("045", [1, *selection])
    assert len(store.list_reviews("045")) == 3


def test_dismiss_impl_reviews_and_none_active(store: StateStore) -> None:
    store.save_review("045", "impl", impl=True, now=5)
    assert [p.name for p in store.dismiss("045", "all", impl=True)] == ["5.md"]
    with pytest.raises(ValidationError, match="no active reviews"):
        store.dismiss("045", [1])


@pytest.mark.parametrize("number", [-1, True, 1.0, "3ab", "x1", ""])
def test_a_phase_is_named_by_a_number_or_label(store: StateStore, number: int) -> None:
    with pytest.raises(ValidationError, match="cannot name a phase"):
        store.write_phase_summary("045", number, "x")


@pytest.mark.parametrize(("label", "name"), [(0, "0.md"), ("03A", "3a.md"), ("b", "B.md")])
def test_phase_summaries_are_named_by_label(store: StateStore, label: str, name: str) -> None:
    assert store.write_phase_summary("045", label, "x").name == name


def test_decide_creates_then_updates_decisions(store: StateStore) -> None:
    store.decide("D32", "add", text="First", title="Tracing")
    found = store.decide("D32", "update", number=1, status="locked")
    assert found.locked == (Decision(1, "First"),)
    assert store.read_text("D32", "decisions.md") == (
        "# Decisions for RFD D32: Tracing\n\n## Locked\n\n1. First\n\n"
        "## Under Discussion\n\n## Rejected\n"
    )
    with pytest.raises(ValidationError, match="reason"):
        store.decide("D32", "reject", number=1)
    assert store.read_decisions("D32") == found


def test_move_renames_the_directory_and_retitles_decisions(store: StateStore) -> None:
    store.decide("D32", "add", text="First", title="Tracing")
    store.save_review("D32", "r", now=1)
    moved = store.move("D32", RfdId.parse("045"))
    assert moved == store.dir("045") and not store.dir("D32").exists()
    decisions = store.read_text("045", "decisions.md") or ""
    assert decisions.startswith("# Decisions for RFD 045: Tracing\n")
    assert [r.timestamp for r in store.list_reviews("045")] == [1]


def test_move_without_state_is_a_no_op(store: StateStore) -> None:
    assert store.move("D32", "045") is None


def test_move_refuses_to_merge_and_names_both(store: StateStore) -> None:
    store.write_explore("D32", "draft research")
    store.write_explore("045", "other research")
    with pytest.raises(AlreadyExists) as info:
        store.move("D32", "045")
    message = str(info.value)
    assert "docs/rfd/.state/D32" in message and "docs/rfd/.state/045" in message
    assert store.read_explore("D32") == "draft research"
    assert store.read_explore("045") == "other research"


def test_generic_text_ledger_and_remove_tree(store: StateStore) -> None:
    store.write_text("045", "forge/issue.md", "body")
    store.append_line("045", "events.jsonl", '{"e": 1}')
    store.append_line("045", "events.jsonl", '{"e": 2}')
    assert store.read_text("045", "forge/issue.md") == "body"
    assert store.read_text("045", "events.jsonl") == '{"e": 1}\n{"e": 2}\n'
    assert store.read_text("045", "missing.md") is None
    assert store.remove_tree("045", "forge") and not store.path("045", "forge").exists()
    assert store.remove_tree("045", "events.jsonl") and not store.remove_tree("045", "nope")
    assert store.remove_tree("045") and not store.dir("045").exists()


def test_validate_clean_state_has_no_errors(store: StateStore) -> None:
    store.write_plan("045", PHASES)
    store.write_phase_summary("045", 3, "done")
    store.decide("045", "add", text="x")
    put(store, "045/reviews/notes.txt")
    assert store.validate("045") == []


@pytest.mark.parametrize(
    ("files", "kind", "path", "words"),
    [
        ({"045/plan.json": "[1,"}, ParseError, "045/plan.json", "rfd plan 045"),
        ({"045/plan.json": "[{}]"}, InvalidStructure, "045/plan.json", "fix plan.json by hand"),
        ({"045/decisions.md": "junk\n"}, ParseError, "045/decisions.md", "delete decisions.md"),
        ({"045/explore.md": b"\xff"}, ParseError, "045/explore.md", "fix explore.md by hand"),
        ({"045/phases/2.md": "x"}, FileNotFound, "045/plan.json", "rfd accept 045"),
        (
            {"045/plan.json": "[]", "045/phases/2.md": "x"},
            InvalidStructure,
            "045/phases/2.md",
            "rename it to the label",
        ),
        (
            {"045/plan.json": "[]", "045/phases/0.md": "x"},
            InvalidStructure,
            "045/phases/0.md",
            "delete it if it is stale",
        ),
        ({"045/reviews": "a file"}, InvalidStructure, "045/reviews", "a directory named reviews"),
        ({"045/plan.json/x": "in a dir"}, InvalidStructure, "045/plan.json", "a file named"),
    ],
)
def test_validate_reports_typed_errors_with_alternatives(
    store: StateStore, files: dict[str, str | bytes], kind: type, path: str, words: str
) -> None:
    for relpath, text in files.items():
        put(store, relpath, text)
    errors = store.validate("045")
    assert [type(e) for e in errors] == [kind]
    assert errors[0].path == f"docs/rfd/.state/{path}"
    assert any(words in alternative for alternative in errors[0].alternatives)


def test_validate_state_root_entry_that_is_a_file(store: StateStore) -> None:
    put(store, "045", "not a directory")
    (error,) = store.validate("045")
    assert isinstance(error, InvalidStructure) and "should be a directory" in str(error)
    assert store.read("045") == RfdState("045")


def test_shared_area_serves_the_local_forge(store: StateStore, tmp_path: Path) -> None:
    files: ForgeFiles = store.shared()
    forge = LocalForge(files)
    issue = forge.create_issue("RFD 045: Queue", "<!-- rfd-bot:tracking:045 -->\n- [ ] 1. A")
    assert (tmp_path / "docs/rfd/.state/.forge/issues/1.json").is_file()
    assert forge.writes == ["docs/rfd/.state/.forge/issues/1.md"]
    assert forge.find_issue("<!-- rfd-bot:tracking:045 -->") == issue
    assert files.list("issues") == ["1.json", "1.md"] and files.list("nothing") == []
    assert files.read("issues/9.json") is None
    assert store.read("045") == RfdState("045")  # the area is no RFD


@pytest.mark.parametrize("area", ["forge", "045", ".", "..", ".a/b", ".A"])
def test_shared_areas_are_dot_directories(store: StateStore, area: str) -> None:
    with pytest.raises(ValidationError, match="shared state area"):
        store.shared(area)


@pytest.mark.parametrize(
    ("blocker", "write"),
    [
        ("045/reviews", lambda s: s.save_review("045", "r", now=1)),
        ("045/phases", lambda s: s.write_phase_summary("045", 1, "x")),
        ("045", lambda s: s.write_explore("045", "x")),
        ("045/events.jsonl/x", lambda s: s.append_line("045", "events.jsonl", "x")),
        (".forge/issues", lambda s: s.shared().write("issues/1.json", "{}")),
    ],
)
def test_a_hand_edit_in_the_way_is_a_user_error(
    store: StateStore, blocker: str, write: Callable[[StateStore], object]
) -> None:
    put(store, blocker, "a file where a directory belongs")
    with pytest.raises(InvalidStructure, match="cannot write") as info:
        write(store)
    assert (info.value.path or "").startswith("docs/rfd/.state/")
    assert "rfd status" in (info.value.hint or "")


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({}, None),
        ({"045/plan.json": "[{]"}, None),
        ({"045/plan.json": '{"title": "x"}'}, None),
        ({"045/plan.json": "[{}, {}, {}]"}, (0, 3)),
        (
            {
                "045/plan.json": "[{}, {}, {}]",
                "045/phases/1.md": "a",
                "045/phases/01.md": "b",
                "045/phases/3.md": "c",
                "045/phases/5.md": "d",
                "045/phases/notes.txt": "e",
            },
            (2, 3),
        ),
    ],
)
def test_phase_progress_for_listings(
    store: StateStore, files: dict[str, str], expected: tuple[int, int] | None
) -> None:
    for relpath, text in files.items():
        put(store, relpath, text)
    assert store.phase_progress("045") == expected


def test_validate_knows_phases_by_label(store: StateStore) -> None:
    store.write_plan("045", [PlanPhase("Ground", "", "0"), PlanPhase("Split", "", "3a")])
    put(store, "045/phases/0.md")
    put(store, "045/phases/3A.md")
    put(store, "045/phases/3c.md")
    errors = store.validate("045")
    assert [str(e).splitlines()[0] for e in errors] == [
        f"{store.show(store.path('045', 'phases/3c.md'))}: summarises phase 3c, "
        "but plan.json's phases are 0, 3a"
    ]
    assert store.read("045").completed == (1, 2)
