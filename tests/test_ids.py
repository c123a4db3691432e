from __future__ import annotations

import pytest

from bot.core.errors import ValidationError
from bot.model.ids import RfdId, slugify, split_file_name, split_path


@pytest.mark.parametrize(
    ("text", "draft", "number", "shown"),
    [
        ("045", False, 45, "045"),
        ("45", False, 45, "045"),
        ("1", False, 1, "001"),
        ("1234", False, 1234, "1234"),
        ("D32", True, 32, "D32"),
        ("d32", True, 32, "D32"),
        ("D032", True, 32, "D032"),  # the padding it was written with is kept
        ("RFD 045", False, 45, "045"),
        ("rfd d7", True, 7, "D7"),
        ("  RFD-12 ", False, 12, "012"),
    ],
)
def test_parse_accepts_what_users_type(text: str, draft: bool, number: int, shown: str) -> None:
    rfd_id = RfdId.parse(text)
    assert (rfd_id.draft, rfd_id.number) == (draft, number)
    assert str(rfd_id) == shown
    assert rfd_id.state_key == shown


@pytest.mark.parametrize("text", ["", "abc", "D", "045x", "X45", "4 5", "١٢", "RFD"])
def test_parse_rejects_junk_with_a_hint(text: str) -> None:
    with pytest.raises(ValidationError) as err:
        RfdId.parse(text)
    assert "not an RFD id" in str(err.value)
    assert "D32" in str(err.value)


def test_published_sort_before_drafts_and_by_number() -> None:
    ids = [RfdId.parse(t) for t in ("D2", "010", "D1", "002")]
    assert [str(i) for i in sorted(ids)] == ["002", "010", "D1", "D2"]


def test_label_and_file_name() -> None:
    assert RfdId.parse("7").label == "RFD 007"
    assert RfdId.parse("d7").file_name("my-idea") == "D7-my-idea.md"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("045-layered-stack.md", ("045", "layered-stack")),
        ("D32-tracing.md", ("D32", "tracing")),
        ("d3-x.md", ("D3", "x")),
        ("007.md", ("007", "")),
        ("45-short-ids.md", ("45", "short-ids")),  # the file's own padding, not 045
        ("README.md", None),
        ("045-notes.txt", None),
        ("template.md", None),
    ],
)
def test_split_file_name(name: str, expected: tuple[str, str] | None) -> None:
    result = split_file_name(name)
    if expected is None:
        assert result is None
    else:
        assert result is not None
        assert (str(result[0]), result[1]) == expected


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Layered Interrupt Handler Stack", "layered-interrupt-handler-stack"),
        ("  C++ & Rust: FFI!  ", "c-rust-ffi"),
        ("Café résumé", "cafe-resume"),
        ("Straße über Ærø", "strasse-uber-aero"),
        ("--Naïve   déjà_vu--", "naive-deja-vu"),
        ("a" * 70, "a" * 50),
        ("Words " * 10, "words-words-words-words-words-words-words-words"),  # 47: whole words
        ("x" * 49 + " y", "x" * 49),  # "-y" would pass 50
    ],
)
def test_slugify(title: str, slug: str) -> None:
    assert slugify(title) == slug


@pytest.mark.parametrize("title", ["???", "日本語", "  —  "])
def test_slugify_refuses_a_title_with_nothing_usable(title: str) -> None:
    with pytest.raises(ValidationError, match="no letters or digits"):
        slugify(title)


@pytest.mark.parametrize(
    ("path", "shown"),
    [("rfd/57/README.adoc", "57"), ("rfd/0057/README.adoc", "0057"), ("rfd/7/README.md", "7")],
)
def test_a_directorys_id_keeps_the_directorys_digits(path: str, shown: str) -> None:
    """Oxide's ``rfd/57/`` is RFD 57 (its pages, state directory and messages say so), and
    the id a user types (057) still finds it."""
    found = split_path(path)
    assert found is not None
    assert (str(found[0]), found[0].state_key) == (shown, shown)
    assert found[0] == RfdId.parse(f"{found[0].number:03d}")
