"""Zero configuration on each dialect (Oxide, Joyent, RFC stages): `rfd init` detects the
layout, the header form and the status words with their evidence; list, status, lint, new, a
state change and accept work in the corpus's own form; the hooks pass an untouched corpus."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from bot.cli.main import main
from hooks import rfd_lint, rfd_state, rfd_status
from tests.conftest import git
from tests.dialect_corpora import build_joyent, build_oxide, build_rfc
from tests.hooks_support import run_hook


class Dialect(NamedTuple):
    build: Callable[[Path], Path]
    rfd_dir: str
    documents: int
    evidence: tuple[str, ...]
    """Lines ``rfd init`` must write (its evidence and the words it maps)."""
    sample: str
    """An RFD to move on, its path, and the words of its state before and after."""
    path: str
    before: str
    after: str
    new_path: str


DIALECTS = {
    "oxide": Dialect(
        build_oxide,
        "rfd",
        32,
        (
            "# Layout: a directory per RFD (NNNN/README.md): 27 README.md, 5 README.adoc.",
            "# Header: YAML front matter in 27 of 32 documents, AsciiDoc attributes in 5 of 32",
            "# Statuses in use: published 8, committed 8, prediscussion 4, discussion 4, "
            "ideation 4, abandoned 4.",
            "# rfd — 32 RFDs live there",
            'prediscussion = "draft"',
            'ideation = "draft"',
            'published = "accepted"',
            'committed = "implemented"',
            'discussion = ["abandoned", "published"]',
            "# 8 documents; Oxide's word for accepted; history: discussion → published 8 times",
            "# 4 documents; Oxide's word for discussion; history: discussion → published 8 times, "
            "discussion → abandoned 4 times, prediscussion → discussion 4 times",
        ),
        "3",
        "rfd/0003/README.md",
        "discussion",
        "published",
        "rfd/0033/README.md",
    ),
    "joyent": Dialect(
        build_joyent,
        "rfd",
        32,
        (
            "# Layout: a directory per RFD (NNNN/README.md): 32 README.md.",
            "# Header: YAML front matter in 32 of 32 documents.",
            "# Statuses in use: draft 11, publish 10, predraft 6, abandoned 5.",
            'predraft = "draft"',
            'draft = "discussion"',
            'publish = "accepted"',
            'predraft = ["draft"]',
        ),
        "2",
        "rfd/0002/README.md",
        "draft",
        "publish",
        "rfd/0033/README.md",
    ),
    "rfc": Dialect(
        build_rfc,
        "text",
        30,
        (
            "# Layout: a file per RFD (NNN-slug.md): 30 files.",
            "# Header: YAML front matter in 30 of 30 documents.",
            "# Statuses in use: released 8, recommended 8, accepted 5, ready-for-release 5, "
            "discontinued 4.",
            "# text — 30 RFDs live there",
            "# no templates of this shape; `rfd new` fills 0000-template.md (the RFC template), "
            "whatever the category",
            'accepted = "accepted"',
            'ready-for-release = "implemented"',
            'released = "implemented"',
            'discontinued = "abandoned"',
            'ready-for-release = ["released"]',
        ),
        "11",
        "text/0011-requests-for-discussion.md",
        "accepted",
        "ready-for-release",
        "text/0000-cold-storage-tier.md",
    ),
}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each corpus built once (their histories take a few seconds), copied per test."""
    base = tmp_path_factory.mktemp("corpora")
    return {name: d.build(base / name) for name, d in DIALECTS.items()}


@pytest.fixture(params=list(DIALECTS))
def corpus(request: pytest.FixtureRequest, pristine: dict[str, Path], tmp_path: Path) -> str:
    name: str = request.param
    shutil.copytree(pristine[name], tmp_path / name)
    return name


def repo_of(tmp_path: Path, name: str) -> Path:
    return tmp_path / name


def adopt(repo: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """`rfd init`, committed; what it printed."""
    assert main(["-C", str(repo), "init"]) == 0
    said = capsys.readouterr().out
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "Adopt rfd-bot")
    return said


def rfd_json(repo: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object]:
    capsys.readouterr()
    code = main(["-C", str(repo), *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def hooks(
    repo: Path,
    files: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str]:
    code, out = 0, ""
    for hook in (rfd_lint.main, rfd_status.main, rfd_state.main):
        got, said = run_hook(hook, repo, files, monkeypatch, capsys)
        code, out = max(code, got), out + said
    return code, out


def test_init_detects_layout_header_and_words_with_evidence(
    corpus: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The evidence is in the corpus's own words: its status words as its files write them
    (never rfd's ``Accepted`` for Oxide's ``published``), and no "published RFDs" count in
    a dialect where ``published`` is one state among others."""
    repo, dialect = repo_of(tmp_path, corpus), DIALECTS[corpus]
    said = adopt(repo, capsys)
    assert f"from the conventions of the RFDs in {dialect.rfd_dir}/" in said
    config = (repo / ".github/rfd.toml").read_text(encoding="utf-8")
    for line in dialect.evidence:
        assert line in config, line
    assert f'dir = "{dialect.rfd_dir}"' in config
    assert "id_digits = 4" in config
    assert not (repo / "docs/rfd").exists()  # no second system beside the real one


def test_list_status_and_lint_speak_the_repositorys_words(
    corpus: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, dialect = repo_of(tmp_path, corpus), DIALECTS[corpus]
    adopt(repo, capsys)
    code, listed = rfd_json(repo, capsys, "list")
    assert isinstance(listed, dict)
    assert (code, len(listed["rfds"]), listed["errors"]) == (0, dialect.documents, [])
    row = next(r for r in listed["rfds"] if r["path"] == dialect.path)
    assert row["status"] == dialect.before
    assert {r["path"].partition("/")[0] for r in listed["rfds"]} == {dialect.rfd_dir}
    assert main(["-C", str(repo), "status", dialect.sample]) == 0
    shown = capsys.readouterr().out
    assert dialect.path in shown
    status_line = next(line for line in shown.splitlines() if line.startswith("Status:"))
    assert status_line.split()[1] == dialect.before  # `discussion`, as the file writes it
    code, linted = rfd_json(repo, capsys, "lint")
    assert isinstance(linted, dict)
    assert (code, linted["findings"]) == (0, [])
    files = git(repo, "ls-files").split()
    assert hooks(repo, files, monkeypatch, capsys) == (0, "")


def test_status_alone_lists_what_is_in_flight_in_the_repositorys_words(
    corpus: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rfd status` with no id: the RFDs being worked on, each in its own word with its next
    step; those published or committed before the bot (no plan) are not work in flight."""
    repo, dialect = repo_of(tmp_path, corpus), DIALECTS[corpus]
    adopt(repo, capsys)
    code, listed = rfd_json(repo, capsys, "list")
    assert code == 0 and isinstance(listed, dict)
    talked = [r for r in listed["rfds"] if r["stage"] in ("Draft", "Discussion")]
    assert main(["-C", str(repo), "status"]) == 0
    shown = capsys.readouterr().out.splitlines()
    if not talked:  # an RFC repository: every RFC accepted, shipped or dropped already
        assert shown[0].startswith(f"no RFD in flight ({dialect.documents} RFDs: none is")
        return
    assert len(shown) == 2 * len(talked)  # nothing accepted before the bot
    for row, (head, step) in zip(talked, zip(shown[::2], shown[1::2], strict=True), strict=True):
        assert head.split()[:2] == [row["id"], row["status"]]  # `ideation`, as the file says
        assert step.lstrip().startswith("next: `rfd ")


def test_a_state_change_is_one_line_in_the_corpuss_form_and_the_hooks_pass_it(
    corpus: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, dialect = repo_of(tmp_path, corpus), DIALECTS[corpus]
    adopt(repo, capsys)
    assert main(["-C", str(repo), "promote", dialect.sample]) == 0
    assert f"{dialect.before} → {dialect.after}" in capsys.readouterr().out
    assert git(repo, "diff", "--numstat").split() == ["1", "1", dialect.path]
    diff = git(repo, "diff", "-U0").splitlines()
    removed = [line for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line for line in diff if line.startswith("+") and not line.startswith("+++")]
    assert dialect.before in removed[0] and added[0] == removed[0].replace(
        dialect.before, dialect.after, 1
    ).replace("-", "+", 1)
    git(repo, "add", "-A")
    assert hooks(repo, [dialect.path], monkeypatch, capsys)[0] == 0


def test_new_writes_the_corpuss_layout_and_header(
    corpus: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, dialect = repo_of(tmp_path, corpus), DIALECTS[corpus]
    adopt(repo, capsys)
    assert main(["-C", str(repo), "new", "design", "Cold storage tier"]) == 0
    text = (repo / dialect.new_path).read_text(encoding="utf-8")
    assert text.startswith("---\n")
    assert "- **Status**" not in text
    if corpus == "rfc":  # the repository's template, its stage and today's start date
        assert "stage: accepted\n" in text and "# Cold storage tier\n" in text
        assert "created proposal cold-storage-tier" in capsys.readouterr().out
    else:
        first = {"oxide": "prediscussion", "joyent": "predraft"}[corpus]
        assert f"state: {first}\n" in text and "# RFD 33 Cold storage tier\n" in text
    assert main(["-C", str(repo), "lint"]) == 0
    git(repo, "add", "-A")
    assert hooks(repo, [dialect.new_path], monkeypatch, capsys)[0] == 0


PLAN = (
    "\n## Implementation Plan\n\n### Phase 1: Build it\n\nBuild.\n\n### Phase 2: Ship it\n\nShip.\n"
)


@pytest.mark.parametrize("corpus", ["oxide", "joyent"], indirect=True)
def test_accept_extracts_the_plan_and_writes_the_repositorys_word(
    corpus: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, dialect = repo_of(tmp_path, corpus), DIALECTS[corpus]
    adopt(repo, capsys)
    with (repo / dialect.path).open("a", encoding="utf-8") as handle:
        handle.write(PLAN)
    assert main(["-C", str(repo), "accept", dialect.sample]) == 0
    out = capsys.readouterr().out
    assert f"{dialect.before} → {dialect.after}" in out and "2 phases" in out
    assert f"state: {dialect.after}" in (repo / dialect.path).read_text(encoding="utf-8")
    assert (
        repo / dialect.rfd_dir / ".state" / f"{int(dialect.sample):04d}" / "plan.json"
    ).is_file()
    git(repo, "add", "-A")
    assert (
        hooks(repo, git(repo, "diff", "--cached", "--name-only").split(), monkeypatch, capsys)[0]
        == 0
    )


def test_a_move_history_never_shows_is_refused_with_the_ones_it_allows(
    tmp_path: Path, pristine: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    assert main(["-C", str(repo), "abandon", "4", "--reason", "replaced"]) == 1
    err = capsys.readouterr().err
    assert "cannot move from published to abandoned" in err
    assert "from published the history shows: committed" in err
    assert git(repo, "status", "--porcelain") == ""


def unreadable_corpus(root: Path) -> Path:
    """Numbered directories whose front matter rfd cannot read (broken YAML, unknown words)."""
    for n in range(1, 9):
        folder = root / "rfd" / f"{n:04d}"
        folder.mkdir(parents=True)
        head = "---\nstate: [draft\n---\n" if n % 2 else f"---\nstate: pondering-{n}\n---\n"
        (folder / "README.md").write_text(f"{head}\n# RFD {n} Something\n", encoding="utf-8")
    git(root, "init", "-q")
    return root


def test_init_refuses_a_corpus_it_cannot_read_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = unreadable_corpus(tmp_path / "team")
    assert main(["-C", str(repo), "init"]) == 1
    captured = capsys.readouterr()
    assert "ready for RFDs" not in captured.out
    assert "rfd cannot read the RFDs it found in rfd/: 0 of 8 parse" in captured.err
    assert "rfd/0001/README.md:3: front matter: expected ',' or ']'" in captured.err
    assert "rfd/0002/README.md:2: unknown status 'pondering-2'" in captured.err
    assert "status words with no known meaning: pondering-2" in captured.err
    assert "nothing was written" in captured.err
    assert not (repo / ".github").exists() and not (repo / "rfd/.state").exists()
    assert not (repo / ".gitattributes").exists() and not (repo / "docs").exists()


def test_iter_rfds_reads_every_dialect_through_one_api(
    tmp_path: Path, pristine: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.config.corpus import iter_rfds
    from bot.config.load import load_config
    from bot.core.errors import RfdError
    from bot.model.status import Status

    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    (repo / "rfd/0009/README.md").write_text("---\nstate: [x\n---\n", encoding="utf-8")
    errors: list[RfdError] = []
    found = {str(r.rfd_id): r for r in iter_rfds(repo, load_config(repo), errors)}
    assert len(found) == 31 and [e.path for e in errors] == ["rfd/0009/README.md"]
    third = found["0003"]
    assert (third.title, third.status, third.stage) == (
        "Network boot",
        "discussion",
        Status.DISCUSSION,
    )
    assert third.paths == ("rfd/0003/README.md", "rfd/0003/diagram.svg")
    assert third.authors == (
        "Barbara Liskov <liskov@example.com>",
        "Ada Lovelace <ada@example.com>",
    )
    assert found["0001"].path == "rfd/0001/README.adoc" and found["0001"].status == "prediscussion"


def test_iter_rfds_reads_the_flat_format_too(tmp_path: Path) -> None:
    from bot.config.corpus import iter_rfds
    from bot.config.load import load_config
    from tests.adopt_repo import RFD_COUNT, build_adopt_repo

    repo = build_adopt_repo(tmp_path / "flat")
    assert main(["-C", str(repo), "init"]) == 0
    rfds = list(iter_rfds(repo, load_config(repo)))
    assert len(rfds) == RFD_COUNT
    assert all(r.paths == (r.path,) and r.status == r.stage.value for r in rfds)
    assert any(key == "Requires" for r in rfds for key, _ in r.links)


def test_init_reads_a_corpus_once_its_unknown_words_are_mapped_by_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = unreadable_corpus(tmp_path / "team")
    for n in range(1, 9, 2):  # the broken YAML fixed; the unknown words stay
        (repo / f"rfd/{n:04d}/README.md").write_text(
            f"---\nstate: pondering-{n + 1}\n---\n\n# RFD {n} Something\n", encoding="utf-8"
        )
    assert main(["-C", str(repo), "init"]) == 1
    table = "".join(f'pondering-{n} = "discussion"\n' for n in range(2, 10, 2))
    (repo / ".github").mkdir()
    (repo / ".github/rfd.toml").write_text(
        f'[rfd]\ndir = "rfd"\n\n[statuses]\n{table}', encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["-C", str(repo), "init"]) == 0
    assert "ready for RFDs" in capsys.readouterr().out
    assert main(["-C", str(repo), "list"]) == 0
    assert "0001  pondering-2" in capsys.readouterr().out


def test_phases_done_and_supersede_on_an_oxide_rfd(
    tmp_path: Path,
    pristine: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    path = repo / "rfd/0003/README.md"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(PLAN)
    summary = tmp_path / "summary.md"
    summary.write_text("Done.\n", encoding="utf-8")
    assert main(["-C", str(repo), "accept", "3"]) == 0
    for label in ("1", "2"):
        assert main(["-C", str(repo), "phase", "3", "done", label, "--summary", str(summary)]) == 0
    assert main(["-C", str(repo), "done", "3"]) == 0
    assert "published → committed" in capsys.readouterr().out
    assert "state: committed\n" in path.read_text(encoding="utf-8")
    git(repo, "add", "-A")
    assert (
        hooks(repo, git(repo, "diff", "--cached", "--name-only").split(), monkeypatch, capsys)[0]
        == 0
    )
    git(repo, "commit", "-qm", "RFD 3 committed")
    # no move from committed in the history: rfd's lifecycle decides (Implemented → Superseded)
    assert main(["-C", str(repo), "supersede", "3", "12"]) == 0
    text = path.read_text(encoding="utf-8")
    assert "state: superseded\n" in text
    assert 'superseded-by: "[RFD 0012](../0012/README.md)"\n' in text
    git(repo, "add", "-A")
    assert hooks(repo, ["rfd/0003/README.md", "rfd/0012/README.md"], monkeypatch, capsys)[0] == 0


MIGRATION = Path(__file__).parent / "data" / "asciidoc" / "instance-migration.adoc"
"""An Oxide-style AsciiDoc RFD in discussion: anchors, a source block holding `== `, a
commented-out older plan, and an Implementation Plan of three `=== Phase` blocks."""


def test_accept_of_an_asciidoc_rfd_extracts_its_plan_and_writes_its_state_attribute(
    tmp_path: Path,
    pristine: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    path = repo / "rfd/0001/README.adoc"
    path.write_text(MIGRATION.read_text(encoding="utf-8"), encoding="utf-8")
    git(repo, "commit", "-qam", "RFD 1: instance migration, in discussion")

    assert main(["-C", str(repo), "accept", "1"]) == 0
    out = capsys.readouterr().out
    assert "discussion → published" in out and "3 phases" in out
    assert git(repo, "diff", "--numstat", "--", "rfd/0001").split() == [
        "1",
        "1",
        "rfd/0001/README.adoc",
    ]
    diff = git(repo, "diff", "-U0", "--", "rfd/0001").splitlines()
    assert [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")] == [
        "-:state: discussion",
        "+:state: published",
    ]
    plan_json = json.loads((repo / "rfd/.state/0001/plan.json").read_text(encoding="utf-8"))
    assert [(p["label"], p["title"]) for p in plan_json] == [
        ("1", "Migration protocol"),
        ("2", "Dirty page tracking (optional)"),
        ("3", "Cut over"),
    ]
    assert plan_json[0]["description"].startswith("* [ ] Define the wire format\n")
    issue = (repo / "rfd/.state/.forge/issues/1.md").read_text(encoding="utf-8")
    assert "- [ ] 1. Migration protocol\n- [ ] 2. Dirty page tracking (optional)\n" in issue
    assert "- [ ] 3. Cut over\n" in issue

    code, status = rfd_json(repo, capsys, "status", "1")
    assert code == 0 and isinstance(status, dict)
    assert [(p["label"], p["optional"], p["done"]) for p in status["phases"]] == [
        ("1", False, False),
        ("2", True, False),
        ("3", False, False),
    ]
    implement = status["actions"][0]
    assert implement["command"] == "rfd implement 0001"
    assert implement["description"].startswith("Implement phase 1: Migration protocol")
    summary = tmp_path / "summary.md"
    summary.write_text("The wire format and the state machine.\n", encoding="utf-8")
    assert main(["-C", str(repo), "phase", "1", "done", "1", "--summary", str(summary)]) == 0
    issue = (repo / "rfd/.state/.forge/issues/1.md").read_text(encoding="utf-8")
    assert "- [x] 1. Migration protocol" in issue and "- [ ] 3. Cut over\n" in issue
    git(repo, "add", "-A")
    staged = git(repo, "diff", "--cached", "--name-only").split()
    assert hooks(repo, staged, monkeypatch, capsys)[0] == 0


def test_accept_refuses_an_asciidoc_plan_whose_phase_title_asciidoc_reads_as_text(
    tmp_path: Path, pristine: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    path = repo / "rfd/0001/README.adoc"
    glued = MIGRATION.read_text(encoding="utf-8").replace(
        "protocol.\n\n[discrete]", "protocol.\n=== Phase 4: Clean up\n\n[discrete]"
    )
    path.write_text(glued, encoding="utf-8")
    git(repo, "commit", "-qam", "RFD 1: instance migration, in discussion")

    assert main(["-C", str(repo), "accept", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "error: rfd/0001/README.adoc:75: no plan to extract: line 75: `=== Phase 4: Clean up` "
        "is not a section title: AsciiDoc reads it as the text of the paragraph or list item "
        "above it, so the phase would be lost; put a blank line above it"
    )
    assert "write `=== Phase 1: Title` blocks with a description under " in err
    assert git(repo, "status", "--porcelain") == ""  # nothing was promoted


def test_accept_without_a_plan_where_the_history_accepts_rfds_without_one(
    tmp_path: Path,
    pristine: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Oxide's published RFDs rarely plan phases, and `rfd init` writes
    ``accepted_needs_plan = false`` from that history: `rfd accept` on a discussion RFD with no
    Implementation Plan publishes it (instead of refusing for want of a plan), says so, and
    the next step is `rfd done`, not a phase."""
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    assert "accepted_needs_plan = false" in (repo / ".github/rfd.toml").read_text()

    assert main(["-C", str(repo), "accept", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].strip() == (
        "→ RFD 0003 has no Implementation Plan section: accepted without a plan "
        "([process] accepted_needs_plan = false)"
    )
    assert "→ status of RFD 0003: discussion → published" in out[1]
    assert out[-1] == "✓ RFD 0003: next, `rfd done 0003` — Promote to Implemented"
    assert "state: published\n" in (repo / "rfd/0003/README.md").read_text()
    code, status = rfd_json(repo, capsys, "status", "3")
    assert code == 0 and isinstance(status, dict)
    assert ["Phases", "none planned (accepted without an Implementation Plan)"] in status["lines"]
    git(repo, "add", "-A")
    staged = git(repo, "diff", "--cached", "--name-only").split()
    assert hooks(repo, staged, monkeypatch, capsys)[0] == 0
    assert main(["-C", str(repo), "done", "3"]) == 0
    assert "state: committed\n" in (repo / "rfd/0003/README.md").read_text()


def test_accept_still_needs_a_plan_where_the_process_asks_for_one(
    tmp_path: Path, pristine: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    config = repo / ".github/rfd.toml"
    config.write_text(
        config.read_text().replace("accepted_needs_plan = false", "accepted_needs_plan = true")
    )
    assert main(["-C", str(repo), "accept", "3"]) == 1
    err = capsys.readouterr().err
    assert "rfd/0003/README.md" in err and "no plan to extract" in err
    assert "state: discussion\n" in (repo / "rfd/0003/README.md").read_text()


def test_status_of_an_oxide_prediscussion_rfd_counts_its_own_sections_and_keeps_its_number(
    tmp_path: Path, pristine: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """An Oxide RFD in prediscussion already has its number: `rfd status` offers to open it
    for discussion in Oxide's word (not to "take a number"), and counts the sections the RFD
    has (its team's template), not the eight of rfd's built-in design template."""
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    code, status = rfd_json(repo, capsys, "status", "9")
    assert code == 0 and isinstance(status, dict)
    assert ["Sections", "2/2 drafted (Background, Determinations)"] in status["lines"]
    promote = next(a for a in status["actions"] if a["command"] == "rfd promote 0009")
    assert promote["description"] == "Open it for discussion: status discussion"
    assert main(["-C", str(repo), "promote", "9"]) == 0
    assert "prediscussion → discussion" in capsys.readouterr().out
    assert (repo / "rfd/0009/README.md").is_file()  # the number and directory stay


OXIDE_ADOC = """:showtitle:
:toc: left
:numbered:
:state: {state}
:discussion: https://github.com/oxidecomputer/rfd/pull/{pr}
:authors: Bryan Cantrill <bryan@oxide.example>
:labels: hardware, power

= RFD {n} {title}
{{authors}}

{body}"""


def test_new_on_an_asciidoc_corpus_follows_its_rfds_not_the_newest_stub(
    git_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The new README.adoc keeps the team's attributes in their order, leaves the per-RFD
    ones (`:discussion:`, `:labels:`) empty to fill, keeps the `{authors}` line under the
    title, and takes its sections from the newest RFD past prediscussion — not from a stub
    someone just started."""
    rfds = {
        "rfd/0001/README.adoc": OXIDE_ADOC.format(
            state="published",
            pr=2,
            n=1,
            title="Rack power budget",
            body="== Background\n\nA rack has 15 kW.\n\n== Determinations\n\nCap it.\n",
        ),
        "rfd/0002/README.adoc": OXIDE_ADOC.format(
            state="prediscussion", pr=3, n=2, title="Audit logging", body="== Idea\n\nLater.\n"
        ),
    }
    for path, text in rfds.items():
        (git_repo / path).parent.mkdir(parents=True)
        (git_repo / path).write_text(text, encoding="utf-8")
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "RFDs")
    adopt(git_repo, capsys)
    assert (
        main(["-C", str(git_repo), "new", "design", "Switch management", "--authors", "Ada <a@x>"])
        == 0
    )
    assert (git_repo / "rfd/0003/README.adoc").read_text(encoding="utf-8") == (
        ":showtitle:\n:toc: left\n:numbered:\n:state: prediscussion\n:discussion:\n"
        ":authors: Ada <a@x>\n:labels:\n\n= RFD 3 Switch management\n{authors}\n\n"
        "== Background\n\n== Determinations\n"
    )


def test_offline_review_asks_for_no_plan_where_the_process_needs_none(
    tmp_path: Path, pristine: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """On Oxide's history (``accepted_needs_plan = false``) a discussion RFD without an
    Implementation Plan gets no "major" finding for it — accept would not ask for one — the
    summary does not claim a plan, and the next step is not to refine findings that are not
    there."""
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    assert main(["-C", str(repo), "review", "3"]) == 0
    out = capsys.readouterr().out
    assert "Implementation Plan: there is no" not in out
    assert "it plans no phases (the repository accepts RFDs without an Implementation Plan)" in out
    assert "plan has described phases" not in out
    assert out.splitlines()[-1] == (
        "✓ RFD 0003: 1 active review — nothing to work in: `rfd status 0003` says what comes next"
    )


def test_a_two_digit_oxide_directory_keeps_its_number_everywhere(
    git_repo: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``rfd/57/README.adoc`` (a number picked by hand) is RFD 57 in `rfd list`, `rfd status`,
    its review's state directory and the site's page — never "057", a name no file has — and
    the rfd-state hook accepts ``rfd/.state/57/``."""
    rfds = {
        "rfd/0001/README.adoc": OXIDE_ADOC.format(
            state="published", pr=2, n=1, title="Rack power", body="== Background\n\nWhy.\n"
        ),
        "rfd/57/README.adoc": OXIDE_ADOC.format(
            state="discussion", pr=9, n=57, title="Audit logging", body="== Background\n\nWho.\n"
        ),
    }
    for path, text in rfds.items():
        (git_repo / path).parent.mkdir(parents=True)
        (git_repo / path).write_text(text, encoding="utf-8")
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "RFDs")
    adopt(git_repo, capsys)
    assert main(["-C", str(git_repo), "list"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == [
        "57",
        "discussion",
        "Audit",
        "logging",
    ]
    assert main(["-C", str(git_repo), "status", "57"]) == 0
    assert capsys.readouterr().out.startswith("RFD 57: Audit logging\nrfd/57/README.adoc\n")
    assert main(["-C", str(git_repo), "review", "57"]) == 0
    reviews = [p.relative_to(git_repo).as_posix() for p in (git_repo / "rfd/.state").rglob("*.md")]
    assert len(reviews) == 1 and reviews[0].startswith("rfd/.state/57/reviews/")
    git(git_repo, "add", "-A")
    assert hooks(git_repo, reviews, monkeypatch, capsys) == (0, "")
    assert main(["-C", str(git_repo), "site", "--out", "_site"]) == 0
    assert (git_repo / "_site/rfd/57.html").is_file()


CITING = """== Background

Power comes first (<<rfd1>>, xref:../0001/README.adoc[RFD 1], <<rfd-1,RFD 1>>).
Logging was weighed in <<rfd99>>.
See xref:../0099/README.adoc[] and link:../0099/README.adoc[RFD 99] too.
The vendor's note <<rfd48>> is cited below; <<background>> is this page.
Written as code, `<<rfd77>>` is no reference.

----
<<rfd66>> in a listing is no reference either.
----

[bibliography]
== References

* [[[rfd48, Vendor RFD 48]]] A vendor's own numbering. https://vendor.example/rfd48
"""


def test_lint_flags_asciidoc_references_to_rfds_that_do_not_exist(
    git_repo: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RFD015, the rule for Markdown links that lead nowhere, also for AsciiDoc: Oxide's
    ``<<rfd99>>``, ``xref:`` and ``link:`` to an RFD that does not exist, each on its line —
    and not ``<<rfd48>>`` when the page's bibliography has an entry ``rfd48``, nor code."""
    rfds = {
        "rfd/0001/README.adoc": OXIDE_ADOC.format(
            state="published", pr=2, n=1, title="Rack power", body="== Background\n\nWhy.\n"
        ),
        "rfd/0002/README.adoc": OXIDE_ADOC.format(
            state="discussion", pr=3, n=2, title="Audit logging", body="== Background\n"
        ),
    }
    for path, text in rfds.items():
        (git_repo / path).parent.mkdir(parents=True)
        (git_repo / path).write_text(text, encoding="utf-8")
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "RFDs")
    adopt(git_repo, capsys)
    cited = OXIDE_ADOC.format(state="discussion", pr=3, n=2, title="Audit logging", body=CITING)
    (git_repo / "rfd/0002/README.adoc").write_text(cited, encoding="utf-8")
    code, linted = rfd_json(git_repo, capsys, "lint")
    assert code == 1 and isinstance(linted, dict)
    assert [(f["code"], f["line"], f["message"]) for f in linted["findings"]] == [
        ("RFD015", 15, "reference <<rfd99>> names RFD 99, which does not exist"),
        (
            "RFD015",
            16,
            "reference xref:../0099/README.adoc[] points to ../0099/README.adoc, "
            "which does not exist",
        ),
        (
            "RFD015",
            16,
            "reference link:../0099/README.adoc[] points to ../0099/README.adoc, "
            "which does not exist",
        ),
    ]
    said = run_hook(rfd_lint.main, git_repo, ["rfd/0002/README.adoc"], monkeypatch, capsys)
    assert said[0] == 1
    assert "rfd/0002/README.adoc:15: RFD015 error: reference <<rfd99>> names RFD 99" in said[1]


def test_a_refused_move_is_said_in_the_repositorys_words(
    tmp_path: Path, pristine: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """`rfd abandon` on an Oxide RFD that is committed names Oxide's words, the move and the
    ones allowed — not rfd's Implemented/Abandoned."""
    repo = shutil.copytree(pristine["oxide"], tmp_path / "oxide")
    adopt(repo, capsys)
    assert main(["-C", str(repo), "abandon", "13", "--reason", "no longer needed"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "error: rfd/0013/README.md: cannot move from committed to abandoned",
        "  hint: from committed the next step is: superseded",
    ]
