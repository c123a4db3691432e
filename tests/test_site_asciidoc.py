"""An AsciiDoc RFD as its page shows it: sections, code, tables and links rendered like a
Markdown RFD's, and nothing the document writes ever becomes active on the site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.site import asciidoc
from bot.site.markdown import ADOC_FAILED, LinkContext, Rendered, render_document
from tests.conftest import git
from tests.dialect_corpora import _asciidoc, _markdown
from tests.site_checks import Links, active, assert_links_resolve

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


NUMBERS = {11: "0011.html", 10: "0010.html", 12: "0012.html"}


def page(text: str, *, repository: bool = True) -> Rendered:
    blob = (lambda p: f"https://github.com/o/r/blob/HEAD/{p}") if repository else (lambda p: None)
    return render_document(PATH, text, LinkContext(PATH, PAGES, blob, NUMBERS))


def test_sections_are_headings_with_anchors_and_a_table_of_contents() -> None:
    found = page(OXIDE)
    assert '<h2 id="introduction">Introduction</h2>\n<p>The host boots' in found.html
    assert '<h3 id="sled-agent">Sled agent</h3>\n<blockquote>' in found.html
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
    "anchor ids": 'A [[x" onclick="alert(1)]] [#a"onclick="b]#c# anchor:javascript:alert(1)[]\n',
    "block anchor": '[#x"onclick="alert(1)]\n----\ncode\n----\n',
    "bibliography id": '* [[[x"onmouseover="alert(1), <script>y</script>]]] entry\n',
    "rfd reference": '<<rfd1" onmouseover="alert(1)>> <<rfd1,<img src=x onerror=y>>>\n',
    "forged anchor": "link:rfd-site-anchor:x[y] https://a.example[b](rfd-site-rfd:1)\n",
    "footnote html": 'X.footnote:[<script>alert(1)</script>] footnote:x"y[<b>z</b>]\n',
    "callout html": '----\nx <1>\n----\n<1> <img src=x onerror=alert(1)>\n<2> [[a"b]]\n',
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


CROSS = """\
== Background

The control plane <<rfd11>> schedules instances (<<rfd-10,the Markdown one>>); xref:rfd11[]
again, xref:../0011/README.adoc[RFD 11 by its file] and <<../0011/README.adoc#,by its file too>>.
Oxide's own copy: https://rfd.shared.oxide.computer/rfd/0011[RFD 11 on rfd.shared].
Not in this repository: <<rfd48>> (it has an entry below), <<rfd_99>> and
link:../0099/README.adoc[RFD 99].

A [[sled]]sled is one server; a [#hot]#hot spare# waits, and anchor:quiet[the quiet one] sleeps.
Every <<sled>> runs an agent; see <<hot,the spare>> and <<quiet>>.

The SP boots first.footnote:[It runs Hubris, not Linux.] Each sled reports its
power draw.footnote:power[Measured at the rectifier, every 5 s.] So does the
rack.footnote:power[]

[[agent-loop]]
[source,rust]
----
fn poll(&mut self) {
    self.tick(); // <1>
    self.report(); // <.>
}
----
<1> One tick per second.
<2> The report goes to *Nexus*.

Back to <<agent-loop,the loop>>.

[bibliography]
== References

* [[[rfd48, RFD 48]]] https://rfd.shared.oxide.computer/rfd/0048[RFD 48 Control Plane Architecture]
* [[[prag]]] Andy Hunt & Dave Thomas. The Pragmatic Programmer.
"""


def dangling(html: str) -> list[str]:
    """The ``#anchor`` links of ``html`` that no element of it carries as its id."""
    found = Links()
    found.feed(html)
    return [v for _, v in found.links if v.startswith("#") and v[1:] not in found.ids]


def test_references_to_rfds_of_the_corpus_go_to_their_pages() -> None:
    html = page(CROSS).html
    assert '<a href="0011.html">RFD 11</a> schedules' in html  # Oxide's <<rfd11>>
    assert '<a href="0010.html">the Markdown one</a>' in html  # <<rfd-10,…>>, a README.md
    assert '<a href="0011.html">RFD 11</a>\nagain' in html  # xref:rfd11[]
    assert '<a href="0011.html">RFD 11 by its file</a>' in html
    assert '<a href="0011.html">by its file too</a>' in html


def test_external_links_stay_external_and_a_missing_rfd_is_not_a_link_to_nowhere() -> None:
    html = page(CROSS).html
    assert '<a href="https://rfd.shared.oxide.computer/rfd/0011">RFD 11 on rfd.shared</a>' in html
    assert '<a href="#rfd48">RFD 48</a> (it has an entry below)' in html  # its bibliography entry
    entry = '<span id="rfd48"></span>[RFD 48] <a href="https://rfd.shared.oxide.computer/rfd/0048">'
    assert entry in html
    assert "<span>RFD 99</span> and" in html  # no such RFD, no entry: its text
    assert '<a href="https://github.com/o/r/blob/HEAD/rfd/0099/README.adoc">RFD 99</a>' in html
    without = page(CROSS, repository=False).html
    assert "<span>RFD 99</span>." in without  # as a Markdown RFD's link to a missing file
    assert dangling(html) == []


def test_anchors_in_the_text_can_be_navigated_to() -> None:
    html = page(CROSS).html
    assert 'A <span id="sled"></span>sled is one server' in html
    assert 'a <span id="hot"></span>hot spare waits' in html
    assert 'and <span id="quiet"></span> sleeps' in html
    assert '<a href="#sled">sled</a> runs an agent' in html
    assert '<a href="#hot">the spare</a> and <a href="#quiet">quiet</a>' in html
    assert '<p><span id="agent-loop"></span></p>\n<pre class="highlight"' in html  # a block's
    assert '<a href="#agent-loop">the loop</a>' in html
    assert '<span id="prag"></span>[prag] Andy Hunt &amp; Dave Thomas.' in html
    assert dangling(html) == []


def test_footnotes_are_numbered_with_their_notes_at_the_end() -> None:
    html = page(CROSS).html
    assert 'first.<span id="_footnoteref_1"></span><a href="#_footnotedef_1">[1]</a>' in html
    assert 'draw.<span id="_footnoteref_2"></span><a href="#_footnotedef_2">[2]</a>' in html
    assert 'rack.<a href="#_footnotedef_2">[2]</a></p>' in html  # the named note again
    notes = html[html.rindex("<hr />") :]
    assert notes == (
        "<hr />\n<ol>\n"
        '<li><span id="_footnotedef_1"></span>It runs Hubris, not Linux. '
        '<a href="#_footnoteref_1">↩</a></li>\n'
        '<li><span id="_footnotedef_2"></span>Measured at the rectifier, every 5 s. '
        '<a href="#_footnoteref_2">↩</a></li>\n</ol>\n'
    )
    assert "footnote:" not in html and dangling(html) == []


def test_callouts_keep_their_markers_in_the_code_and_are_listed_under_it() -> None:
    html = page(CROSS).html
    code = html[html.index("<pre") : html.index("</pre>")]
    assert '<span class="c1">// &lt;1&gt;</span>' in code
    assert '<span class="c1">// &lt;2&gt;</span>' in code  # <.> numbered as AsciiDoc does
    listed = "<ol>\n<li>One tick per second.</li>\n<li>The report goes to <strong>Nexus</strong>."
    assert f"</pre>\n{listed}" in html.replace("</code></pre>\n\n", "</pre>\n")


def test_a_markdown_document_cannot_use_the_translations_anchors_or_rfd_numbers() -> None:
    text = "See [RFD 11](rfd-site-rfd:11) and [x](rfd-site-anchor:y).\n"
    html = render_document("rfd/0010/README.md", text, LinkContext("x", PAGES, str, NUMBERS)).html
    assert "<span>RFD 11</span>" in html and "0011.html" not in html and 'id="y"' not in html


def test_ids_an_asciidoc_document_gives_are_always_plain_words() -> None:
    last = sorted(HOSTILE, key=lambda name: name == "unclosed block")  # it takes the rest
    text = CROSS + "[#x]#y# anchor:café[] [[Ωmega]]\n\n" + "\n".join(HOSTILE[n] for n in last)
    ids = re.findall(r'\bid="([^"]*)"', page(text).html)
    assert "café" in ids and "Ωmega" in ids
    assert all(asciidoc.ID.fullmatch(i) for i in ids), ids


def test_an_anchor_whose_id_is_no_word_is_shown_as_written() -> None:
    html = page(HOSTILE["anchor ids"]).html
    assert "[[x&quot; onclick=&quot;alert(1)]] [#a&quot;onclick=&quot;b]#c#" in html
    assert "anchor:javascript:alert(1)[]" in html and " id=" not in html


def test_rfd_site_links_an_oxide_asciidoc_rfd_to_its_neighbours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through ``rfd site`` on an Oxide corpus: the references land on the other RFDs' pages,
    the anchors and notes are on the page, and every link of the site resolves."""
    root = tmp_path / "repo"
    inside = "\n".join(line for line in CROSS.split("\n") if "https://" not in line)
    head = ":state: discussion\n:authors: Ada Lovelace <ada@example.com>\n\n= RFD 12 Sleds\n\n"
    for number, name, text in (
        (10, "README.md", _markdown(10, "published")),
        (11, "README.adoc", _asciidoc(11, "published")),
        (12, "README.adoc", head + inside),
    ):
        (root / f"rfd/{number:04d}").mkdir(parents=True)
        (root / f"rfd/{number:04d}/{name}").write_text(text, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "RFDs")
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme/rfd")
    assert main(["-C", str(root), "init"]) == 0
    assert main(["-C", str(root), "site", "--no-search", "--out", "_site"]) == 0
    html = (root / "_site/rfd/0012.html").read_text(encoding="utf-8")
    assert '<a href="0011.html">RFD 11</a> schedules' in html
    assert '<a href="0010.html">the Markdown one</a>' in html
    assert "<span>RFD 48</span> (it has an entry below)" in html  # no RFD 48, no entry left
    assert '<a href="#hot">the spare</a>' in html and '<span id="hot"></span>' in html
    assert '<li><span id="_footnotedef_2"></span>Measured at the rectifier' in html
    body = html[html.index('<div class="doc">') + len('<div class="doc">') :]
    assert active(body[: body.index("</article>")]) == []
    assert_links_resolve(root / "_site", "https://github.com/acme/rfd/")
