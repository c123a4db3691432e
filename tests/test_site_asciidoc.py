"""An AsciiDoc RFD as its page shows it: sections, code, tables and links rendered like a
Markdown RFD's, and nothing the document writes ever becomes active on the site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.site import asciidoc
from bot.site.markdown import ADOC_FAILED, LinkContext, Rendered, render_document
from tests.site_checks import active

PATH = "rfd/0012/README.adoc"
PAGES = {"rfd/0011/README.adoc": "0011.html", "rfd/0010/README.md": "0010.html", PATH: "0012.html"}
OXIDE = """\
== Introduction

The host boots from the *service processor* (_SP_); see <<_determinations>> and
<<sled-agent,the agent>>. Earlier: link:../0011/README.adoc[RFD 11],
link:../0010/README.md[], the
https://github.com/oxidecomputer/omicron[omicron repository] and https://example.com/spec.

[[sled-agent]]
=== Sled agent

NOTE: Each sled runs one `sled-agent`.

.The agent's loop
[source,rust]
----
fn poll(&mut self) -> Result<(), Error> {
    let v: Vec<u8> = vec![]; // <script>
}
----

[%header,cols="1,2"]
|===
|Component |Owner

|Nexus |control plane
|Propolis |hypervisor \\| VMM
|===

* first
** nested
* second

== Determinations

. We will do the simple thing first.
. Then the rest.

[WARNING]
====
Do not reboot a sled while it updates.
====
"""


def page(text: str, *, repository: bool = True) -> Rendered:
    blob = (lambda p: f"https://github.com/o/r/blob/HEAD/{p}") if repository else (lambda p: None)
    return render_document(PATH, text, LinkContext(PATH, PAGES, blob))


def test_sections_are_headings_with_anchors_and_a_table_of_contents() -> None:
    found = page(OXIDE)
    assert '<h2 id="introduction">Introduction</h2>' in found.html
    assert '<h3 id="sled-agent">Sled agent</h3>' in found.html
    assert found.toc == (
        (2, "introduction", "Introduction"),
        (3, "sled-agent", "Sled agent"),
        (2, "determinations", "Determinations"),
    )


def test_cross_references_land_on_their_heading() -> None:
    html = page(OXIDE).html
    assert '<a href="#determinations">Determinations</a>' in html  # AsciiDoc's own _id
    assert '<a href="#sled-agent">the agent</a>' in html  # an explicit [[anchor]]


def test_links_to_other_rfds_go_to_their_pages_others_out() -> None:
    html = page(OXIDE).html
    assert '<a href="0011.html">RFD 11</a>' in html
    assert '<a href="0010.html">../0010/README.md</a>' in html
    assert '<a href="https://github.com/oxidecomputer/omicron">omicron repository</a>' in html
    assert '<a href="https://example.com/spec">https://example.com/spec</a>' in html


def test_source_blocks_are_highlighted_under_their_title() -> None:
    html = page(OXIDE).html
    assert "<p><em>The agent's loop</em></p>" in html
    assert '<span class="k">fn</span>' in html
    assert "// &lt;script&gt;" in html


def test_tables_lists_admonitions_and_formatting() -> None:
    html = page(OXIDE).html
    assert "<th>Component</th>\n<th>Owner</th>" in html
    assert "<td>Propolis</td>\n<td>hypervisor | VMM</td>" in html
    assert "<li>first\n<ul>\n<li>nested</li>" in html
    assert "<ol>\n<li>We will do the simple thing first.</li>" in html
    assert "<strong>Note:</strong> Each sled runs one <code>sled-agent</code>." in html
    assert "<strong>Warning:</strong>" in html and "<blockquote>" in html
    assert "<strong>service processor</strong> (<em>SP</em>)" in html


HOSTILE = {
    "passthrough block": "++++\n<script>alert(1)</script>\n++++\n",
    "pass macro": "Hi pass:[<img src=x onerror=alert(1)>] there.\n",
    "triple plus": "Hi +++<iframe src=//evil.example></iframe>+++ there.\n",
    "raw html": "<script>alert(1)</script>\n\n<svg onload=alert(1)>\n",
    "javascript link macro": "link:javascript:alert(1)[click me]\n",
    "javascript url text": "Go javascript:alert(1)[click me] now.\n",
    "data link": "link:data:text/html;base64,PHNjcmlwdD4=[click me]\n",
    "quote in link text": 'https://example.com/a[x" onmouseover="alert(1)]\n',
    "quote in target": 'link:https://example.com/a"onmouseover="alert(1)[x]\n',
    "anchor with attributes": '[[x" onclick="alert(1)]]\n== H\n\n<<x" onclick="alert(1),y>>\n',
    "role attribute": '[.x,onclick="alert(1)"]\nText.\n',
    "image macro": "image::javascript:alert(1)[logo]\n\nimage:https://cdn.example/a.png[a]\n",
    "attribute injection": ":x: <script>alert(1)</script>\n\nValue {x}.\n",
    "admonition html": "[NOTE]\n====\n<b onmouseover=alert(1)>x</b>\n====\n",
    "table html": "|===\n|<script>x</script> |<img src=x onerror=y>\n|===\n",
    "heading html": "== <img src=x onerror=alert(1)> Title\n",
    "unclosed block": "----\n<script>alert(1)</script>\n",
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_nothing_an_asciidoc_document_writes_becomes_active(text: str) -> None:
    html = page(text).html
    assert active(html) == [], html
    assert ADOC_FAILED not in html


def test_passthroughs_are_shown_as_their_text() -> None:
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page(HOSTILE["passthrough block"]).html
    assert "&lt;img src=x onerror=alert(1)&gt;" in page(HOSTILE["pass macro"]).html


def test_a_javascript_link_is_its_text() -> None:
    html = page(HOSTILE["javascript link macro"]).html
    assert "click me" in html and "<a " not in html


def test_an_image_is_a_link_never_a_request() -> None:
    html = page(HOSTILE["image macro"]).html
    assert '<a href="https://cdn.example/a.png">[image: a]</a>' in html
    assert "javascript" not in html.replace("[image: javascript", "")


def test_include_reads_no_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("THE-SECRET-VALUE\n", encoding="utf-8")
    for target in (str(secret), "../../../etc/passwd", "secret.txt"):
        html = page(f"Before.\n\ninclude::{target}[]\n\nAfter.\n").html
        assert "THE-SECRET-VALUE" not in html and "root:" not in html
        assert "is not shown on the site" in html and "After." in html


def test_conditionals_and_system_attributes_run_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = (
        f"ifeval::[open({str(marker)!r}, 'w').write('x') > 0]\nshown\nendif::[]\n\n"
        f"{{eval:open({str(marker)!r}, 'w')}} {{sys:touch {marker}}}\n\nsys::[touch {marker}]\n"
    )
    html = page(text).html
    assert not marker.exists()
    assert "shown" in html and "ifeval" not in html


def test_a_document_the_translation_trips_on_is_shown_as_text_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(text: str, slug: object) -> str:
        raise RecursionError("too deep")

    monkeypatch.setattr(asciidoc, "to_markdown", broken)
    html = page("== Design\n\n<script>x</script>\n").html
    assert ADOC_FAILED in html
    assert re.search(r"<pre[^>]*><code>== Design\n&lt;script&gt;", html.replace("\n\n", "\n"))
    assert active(html) == []


def test_a_markdown_document_is_not_translated() -> None:
    found = render_document("rfd/0010/README.md", "## Design\n\n*x*\n", LinkContext("a", {}, str))
    assert '<h2 id="design">Design</h2>' in found.html and "<em>x</em>" in found.html


def test_the_realistic_document_has_nothing_active_and_the_check_would_see_it() -> None:
    assert active(page(OXIDE).html) == []
    assert active('<p><img src="x"><a href="javascript:x" onclick="y">z</a></p>') == [
        "<img>",
        "<img src>",
        "<a href=javascript:x>",
        "<a onclick>",
    ]
