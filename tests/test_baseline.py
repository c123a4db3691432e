"""The adoption baseline: what it records, and how a broken one is reported."""

from __future__ import annotations

import pytest

from bot.core.errors import ParseError
from bot.model import baseline
from bot.model.ids import RfdId
from bot.model.status import Status

PATH = "docs/rfd/.state/baseline.json"


def test_statuses_keep_the_file_names_padding_and_round_trip() -> None:
    text = baseline.record(
        "abc123", [("045", Status.ACCEPTED), ("D05", Status.DRAFT), ("002", Status.IMPLEMENTED)]
    )
    assert text.index('"002"') < text.index('"045"') < text.index('"D05"')
    found = baseline.loads(text, PATH)
    assert found.commit == "abc123"
    assert found.grandfathers(RfdId.parse("45"), Status.ACCEPTED)
    assert not found.grandfathers(RfdId.parse("45"), Status.IMPLEMENTED)  # reached later
    assert not found.grandfathers(RfdId.parse("46"), Status.ACCEPTED)
    assert not baseline.NONE.grandfathers(RfdId.parse("45"), Status.ACCEPTED)


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("{", "is not JSON", 1),
        ('{"statuses": []}', "is not an adoption baseline", None),
        ('{"commit": "x", "statuses": {"045": "Approved"}}', "bad entry '045': 'Approved'", None),
        ('{"commit": "x", "statuses": {"x": "Draft"}}', "bad entry 'x': 'Draft'", None),
    ],
)
def test_a_broken_baseline_names_the_file_and_what_to_do(
    text: str, message: str, line: int | None
) -> None:
    with pytest.raises(ParseError) as raised:
        baseline.loads(text, PATH)
    assert (raised.value.path, raised.value.line) == (PATH, line)
    assert message in raised.value.message
    assert "rfd adopt" in (raised.value.hint or "")


def test_findings_round_trip_known_by_file_code_and_message() -> None:
    cycle = ("docs/rfd/021-x.md", "RFD012", "Requires RFD 022 leads back to this RFD")
    text = baseline.record("abc", [("021", Status.DISCUSSION)], [cycle, cycle])
    assert text.count('"RFD012"') == 1  # recorded once
    found = baseline.loads(text, PATH)
    assert found.had(*cycle)
    assert not found.had("docs/rfd/022-x.md", "RFD012", cycle[2])  # another file: new
    assert not found.had(cycle[0], "RFD015", cycle[2])
    assert not baseline.NONE.had(*cycle)


def test_a_baseline_written_before_findings_were_recorded_still_reads() -> None:
    found = baseline.loads('{"commit": "x", "statuses": {"045": "Accepted"}}', PATH)
    assert found.findings == frozenset()


@pytest.mark.parametrize(
    ("findings", "message"),
    [
        ('[{"path": "a.md"}]', "bad finding"),
        ('"RFD012"', "'findings' is not a list"),
        ('[{"path": "a.md", "code": 12, "message": "m"}]', "bad finding"),
    ],
)
def test_a_broken_findings_list_names_the_file(findings: str, message: str) -> None:
    text = f'{{"commit": "x", "statuses": {{}}, "findings": {findings}}}'
    with pytest.raises(ParseError) as raised:
        baseline.loads(text, PATH)
    assert raised.value.path == PATH and message in raised.value.message
    assert "rfd adopt" in (raised.value.hint or "")
