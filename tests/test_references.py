from __future__ import annotations

import pytest

from bot.model.document import replace_id_references
from bot.model.ids import RfdId


@pytest.mark.parametrize(
    ("old", "new", "before", "after"),
    [
        ("D32", "046", "See [RFD D32].", "See [RFD 046]."),
        ("D32", "046", "RFD D32 and D32.", "RFD 046 and 046."),
        ("D32", "046", "[RFD D32]: D32-tracing.md", "[RFD 046]: 046-tracing.md"),
        ("D32", "046", "[x](../drafts/D32-tracing.md)", "[x](../drafts/046-tracing.md)"),
        (
            "D32",
            "046",
            "- **Requires**: [RFD 001], [RFD D32]",
            "- **Requires**: [RFD 001], [RFD 046]",
        ),
        ("D3", "046", "D32 D3x ID3 D3-x.md", "D32 D3x ID3 046-x.md"),
        ("D32", "046", "D320 and XD32 unchanged", "D320 and XD32 unchanged"),
        ("045", "050", "RFD 045, RFD 45, 045-a.md", "RFD 050, RFD 050, 050-a.md"),
        ("045", "050", "version 045 and RFD 0450", "version 045 and RFD 0450"),
        ("D5", "D6", "[RFD D5] and RFD D05", "[RFD D6] and RFD D6"),
    ],
)
def test_rewrites(old: str, new: str, before: str, after: str) -> None:
    assert replace_id_references(before, RfdId.parse(old), RfdId.parse(new)) == after


def test_code_blocks_are_examples_and_stay() -> None:
    text = "RFD D32\r\n```\r\n$ rfd status D32\r\n```\r\n<!-- RFD D32 -->\r\n"
    new = replace_id_references(text, RfdId.parse("D32"), RfdId.parse("7"))
    assert new == "RFD 007\r\n```\r\n$ rfd status D32\r\n```\r\n<!-- RFD 007 -->\r\n"
