"""The implementation plan of an AsciiDoc RFD: its sections (``bot.model.asciidoc``), the
phases extracted from them (``bot.model.plan``) and the offline review's findings on them,
on RFDs written the way Oxide writes them (attributes, anchors, source blocks holding
``== `` lines, admonitions, checklists, comments)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.lifecycle import review
from bot.model import asciidoc, document, plan, reviews
from bot.model.markdown import split_lines
from bot.model.plan import PlanPhase

MIGRATION = (Path(__file__).parent / "data" / "asciidoc" / "instance-migration.adoc").read_text(
    encoding="utf-8"
)
"""A discussion RFD whose plan has three phases among blocks that look like more."""

HEADER = ":showtitle:\n:toc: left\n:state: discussion\n:authors: Ada <ada@example.com>\n\n"


def adoc(body: str) -> document.Document:
    return document.parse(f"{HEADER}= RFD 7 Switch management\n\n{body}", "rfd/0007/README.adoc")


def test_the_sections_of_an_oxide_rfd_skip_blocks_comments_and_discrete_titles() -> None:
    doc = document.parse(MIGRATION, "rfd/0001/README.adoc")
    assert [(s.title, s.level, s.line) for s in doc.sections] == [
        ("Background", 2, 15),
        ("Determinations", 2, 23),
        ("Implementation Plan", 2, 42),
        ("Phase 1: Migration protocol", 3, 47),
        ("Phase 2 (optional): Dirty page tracking", 3, 60),
        ("Phase 3 -- Cut over", 3, 72),
        ("Open Questions", 2, 84),
    ]
    # the anchor above a title belongs to that title, not to the section before it
    assert doc.section_body("Background") == (
        "\nLive migration moves a running instance from one sled to another without the guest\n"
        "noticing more than a pause of a few hundred milliseconds.\n\n"
        "NOTE: Storage migration is out of scope; <<determinations>> says why.\n\n"
    )


def test_the_plan_of_an_oxide_rfd_is_its_three_phase_titles_with_their_items() -> None:
    result = plan.extract(document.parse(MIGRATION, "rfd/0001/README.adoc"))
    assert result.problem is None
    assert result.phases == (
        PlanPhase(
            "Migration protocol",
            "* [ ] Define the wire format\n* [x] Sketch the state machine\n"
            "* [*] Review it with the hypervisor team\n\n[source,rust]\n----\n"
            "=== Phase 8: not a phase, inside a listing block\n"
            "enum MigrationState { Sync, Pause, Finish }\n----",
            "1",
        ),
        PlanPhase(
            "Dirty page tracking (optional)",
            ". Track dirty pages in the VMM\n.. One bitmap per vCPU\n"
            ". Expose the counters to Nexus\n\n[WARNING]\n====\n"
            "=== Phase 7: not a phase, inside an example block\n"
            "Only on hosts with the new firmware.\n====",
            "2",
        ),
        PlanPhase(
            "Cut over",
            "Switch the control plane to the new protocol.\n\n[discrete]\n"
            "=== Phase 6: a discrete heading is no phase\n\n"
            "|===\n| Step | Owner\n| == not a section | Nexus\n|===",
            "3",
        ),
    )


def test_the_same_plan_in_markdown_and_in_asciidoc_gives_the_same_phases() -> None:
    markdown = document.parse(
        "# RFD 045: Switch management\n\n- **Status**: Discussion\n\n## Implementation Plan\n\n"
        "### Phase 0: Groundwork\n\nThe crate.\n\n### Phase 3a — Read\n\nReaders.\n\n"
        "### Phase 4 (deferred): Write\n\nWriters.\n",
        "docs/rfd/045-switch-management.md",
    )
    ascii_doc = adoc(
        "== Implementation Plan\n\n[[p0]]\n=== Phase 0: Groundwork\n\nThe crate.\n\n"
        "=== Phase 3a — Read\n\nReaders.\n\n=== Phase 4 (deferred): Write\n\nWriters.\n"
    )
    assert plan.dumps(plan.extract(ascii_doc).phases) == plan.dumps(plan.extract(markdown).phases)
    assert [p.label for p in plan.extract(ascii_doc).phases] == ["0", "3a", "4"]


def test_a_numbered_list_of_strong_titles_is_a_plan_in_asciidoc_too() -> None:
    doc = adoc(
        "== Implementation Plan\n\nWe go in three steps.\n\n"
        ". *Widen the parser* so that it reads both forms.\n+\nBoth are kept for a release.\n"
        ".. Nested items stay with their phase\n"
        ". **Switch the writers** -- every caller moves.\n"
        "\n[source,text]\n----\n. *Not a phase* in a listing\n----\n"
        ". *Drop the old form*: once nobody writes it.\n\n== Alternatives\n\n. *Not this one*\n"
    )
    assert [(p.label, p.title, p.description) for p in plan.extract(doc).phases] == [
        (
            "1",
            "Widen the parser",
            "so that it reads both forms.\n+\nBoth are kept for a release.\n"
            ".. Nested items stay with their phase",
        ),
        ("2", "Switch the writers", "every caller moves."),
        ("3", "Drop the old form", "once nobody writes it."),
    ]
    explicit = adoc("== Implementation Plan\n\n3. *Later* work.\n4. *Last* work.\n")
    assert [p.label for p in plan.extract(explicit).phases] == ["3", "4"]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("== Background\n\nNo plan.\n", "there is no `== Implementation Plan` section"),
        (
            "== Implementation Plan\n\n// One `=== Phase N: Title` per phase.\n"
            "////\nTODO\n////\n_(Describe the phases.)_\n",
            "the Implementation Plan section still holds the template placeholder",
        ),
        (
            "== Implementation Plan\n\n### Phase 1: Markdown heading\n\nText.\n",
            "the Implementation Plan section has no phase headings; write one heading per "
            "phase, e.g. `=== Phase 1: Title`, or a numbered list of phases, e.g. "
            "`. *Title* what it does`",
        ),
        (
            "== Implementation Plan\n\n----\n=== Phase 1: In a listing\n----\n"
            ". Widen the parser\n. Switch the writers\n",
            "has no phase headings",
        ),
    ],
)
def test_a_missing_or_unreadable_plan_says_what_to_write_in_asciidoc(
    body: str, problem: str
) -> None:
    result = plan.extract(adoc(body))
    assert result.phases == ()
    assert result.problem is not None and problem in result.problem


def test_a_phase_title_glued_to_the_text_above_is_named_with_its_line() -> None:
    doc = adoc(
        "== Implementation Plan\n\n=== Phase 1: Schema\n\n* [ ] Add the table\n"
        "=== Phase 2: Backfill\n\nCopy the rows.\n"
    )
    assert split_lines(doc.text)[12] == "=== Phase 2: Backfill\n"  # line 13
    assert plan.extract(doc) == plan.PlanResult(
        (),
        "line 13: `=== Phase 2: Backfill` is not a section title: AsciiDoc reads it as the "
        "text of the paragraph or list item above it, so the phase would be lost; put a blank "
        "line above it",
        13,
    )


def test_the_offline_review_lints_an_asciidoc_plan_with_lines() -> None:
    missing = adoc(
        "== Implementation Plan\n\n=== Phase 1: Schema\n\n[[phase-2]]\n=== Phase 2: Backfill\n"
    )
    posted = reviews.render(
        review.design_review(missing, file=None, known={}, backlinks={}),
        rfd_id="0007",
        title="Switch management",
    )
    findings = [line for line in posted.splitlines() if line.startswith("- **")]
    assert findings == [
        "- **minor** · Implementation Plan (line 10): Phase 1 (Schema) has no description: "
        "say what it delivers",
        "- **minor** · Implementation Plan (line 13): Phase 2 (Backfill) has no description: "
        "say what it delivers",
    ]
    markdown = document.parse(
        "# RFD 045: Switch management\n\n- **Status**: Discussion\n\n## Implementation Plan\n\n"
        "### Phase 1: Schema\n\n### Phase 2: Backfill\n",
        "docs/rfd/045-switch-management.md",
    )
    posted = reviews.render(
        review.design_review(markdown, file=None, known={}, backlinks={}),
        rfd_id="045",
        title="Switch management",
    )
    assert [line for line in posted.splitlines() if "has no description" in line] == [
        line.replace("line 10", "line 7").replace("line 13", "line 9") for line in findings
    ]
    glued = adoc("== Implementation Plan\n\nFirst the schema.\n=== Phase 1: Schema\n\nDo.\n")
    posted = reviews.render(
        review.design_review(glued, file=None, known={}, backlinks={}),
        rfd_id="0007",
        title="Switch management",
    )
    assert "- **major** · Implementation Plan (line 11): line 11: `=== Phase 1: Schema` is " in (
        posted
    )


def test_todo_in_a_listing_block_is_code_not_a_finding() -> None:
    doc = adoc(
        "== Implementation Plan\n\n=== Phase 1: Schema\n\nAdd it.\n\n"
        "[source,rust]\n----\n// TODO: in the code sample\n----\n\nTODO: settle the name.\n"
    )
    found = review.design_review(doc, file=None, known={}, backlinks={}).findings
    assert [(f.line, f.message) for f in found] == [
        (19, "TODO left in the text: “TODO: settle the name.”")
    ]


@pytest.mark.parametrize(
    ("text", "titles"),
    [
        ("== A\n\n----\n== B\n----\n", ["A"]),  # listing
        ("== A\n\n....\n== B\n....\n", ["A"]),  # literal
        ("== A\n\n****\n== B\n****\n", ["A"]),  # sidebar
        ("== A\n\n|===\n| == B\n|===\n", ["A"]),  # table
        ("== A\n\n```yaml\n== B\n```\n", ["A"]),  # a fence
        ("== A\n\n// == B\n////\n== C\n////\n\n== D\n", ["A", "D"]),  # comments
        ("== A\n\n------\n----\n== B\n------\n\n== C\n", ["A", "C"]),  # longer delimiter
        ("== A\n\n[float]\n== B\n\n[discrete#x]\n=== C\n\n=== D\n", ["A", "D"]),
        ("== A\ntext\n== B\n\n[[c]]\n[.lead]\n== C\n", ["A", "C"]),  # B is paragraph text
        (":state: discussion\n= RFD 1 T\n:toc: left\n== A\n", ["RFD 1 T", "A"]),  # entries
    ],
)
def test_what_is_a_section_title_in_asciidoc(text: str, titles: list[str]) -> None:
    lines = split_lines(text)
    found = asciidoc.headings(lines, list(asciidoc.iter_kinds(lines)))
    assert [h.title for h in found] == titles
