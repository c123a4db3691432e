"""rfd-status: status changes between HEAD and the index (or across a pushed range)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hooks.rfd_status import main
from tests.conftest import git
from tests.hooks_support import STATE, Files, commit, plan_json, rfd, run_hook, staged, write

A = "docs/rfd/001-alpha.md"
B = "docs/rfd/002-beta.md"
C = "docs/rfd/003-gamma.md"
PLAN = f"{STATE}/001/plan.json"


def phase(n: int | str) -> dict[str, str]:
    return {f"{STATE}/001/phases/{n}.md": f"Phase {n} done.\n"}


LABELLED_PLAN = (
    "### Phase 0: Groundwork\n\nLay it.\n\n### Phase 3a: Split\n\nSplit it.\n\n"
    "### Phase 3b (optional): Polish\n\nShine it.\n\n### Phase 4: Ship (deferred)\n\nLater.\n"
)


def labelled(status: str) -> str:
    return rfd(status=status, phases=0).replace("Nothing planned yet.", LABELLED_PLAN)


# (case id, committed before, staged, expected exit code, what the output must say)
CASES: list[tuple[str, Files, Files, int, tuple[str, ...]]] = [
    ("new draft", {}, {A: rfd()}, 0, ("new RFD (Draft)",)),
    ("new in discussion", {}, {A: rfd(status="Discussion")}, 0, ()),
    ("draft to discussion", {A: rfd()}, {A: rfd(status="Discussion")}, 0, ("Draft → Discussion",)),
    (
        "accept with an extractable plan",
        {A: rfd(status="Discussion")},
        {A: rfd(status="Accepted")},
        0,
        ("Discussion → Accepted",),
    ),
    (
        "accept with plan.json",
        {A: rfd(status="Discussion", phases=0)},
        {A: rfd(status="Accepted", phases=0), PLAN: plan_json()},
        0,
        (),
    ),
    (
        "accept with accepted requirement",
        {A: rfd(status="Discussion", requires="[RFD 002]"), B: rfd("002", "Accepted", title="B")},
        {A: rfd(status="Accepted", requires="[RFD 002]")},
        0,
        (),
    ),
    (
        "implemented with every phase",
        {A: rfd(status="Accepted"), PLAN: plan_json()},
        {A: rfd(status="Implemented"), **phase(1), **phase(2)},
        0,
        ("Accepted → Implemented",),
    ),
    ("abandon", {A: rfd(status="Discussion")}, {A: rfd(status="Abandoned")}, 0, ()),
    ("supersede", {A: rfd(status="Implemented")}, {A: rfd(status="Superseded")}, 0, ()),
    (
        "edit without status change",
        {A: rfd(status="Accepted", phases=0)},
        {A: rfd(status="Accepted", phases=0, title="Alpha, better")},
        0,
        ("unchanged",),
    ),
    ("not an RFD", {}, {"docs/rfd/README.md": "# RFDs\n\n- **Status**: Nonsense\n"}, 0, ()),
    (
        "draft to implemented, phases not done",
        {A: rfd()},
        {A: rfd(status="Implemented")},
        1,
        (f"{A}:3: cannot move to Implemented: 2 of 2 phases not done",),
    ),
    (
        "draft to accepted in one commit (what `rfd accept` on a draft leaves)",
        {A: rfd()},
        {A: rfd(status="Accepted"), PLAN: plan_json()},
        0,
        ("Draft → Accepted",),
    ),
    (
        "accept, phases and done in one commit",
        {A: rfd(status="Discussion")},
        {A: rfd(status="Implemented"), PLAN: plan_json(), **phase(1), **phase(2)},
        0,
        ("Discussion → Implemented",),
    ),
    (
        "new RFD born accepted where the process allows it",
        {".github/rfd.toml": '[process]\nnew_statuses = ["Draft", "Accepted"]\n'},
        {A: rfd(status="Accepted")},
        0,
        ("new RFD (Accepted)",),
    ),
    (
        "implemented without phases where the process allows it",
        {
            ".github/rfd.toml": "[process]\nimplemented_needs_phases = false\n",
            A: rfd(status="Accepted", phases=0),
        },
        {A: rfd(status="Implemented", phases=0)},
        0,
        (),
    ),
    (
        "accepted without a plan where the process allows it",
        {
            ".github/rfd.toml": "[process]\naccepted_needs_plan = false\n",
            A: rfd(status="Discussion", phases=0),
        },
        {A: rfd(status="Accepted", phases=0)},
        0,
        (),
    ),
    (
        "extends gates like requires",
        {A: rfd(status="Discussion", extends="[RFD 002]"), B: rfd("002", "Discussion", title="B")},
        {A: rfd(status="Accepted", extends="[RFD 002]")},
        1,
        ("cannot move to Accepted: 1 required RFD not Accepted yet", "RFD 002 is Discussion"),
    ),
    (
        "extends does not gate where the process says so",
        {
            ".github/rfd.toml": "[process]\nextends_gates = false\n",
            A: rfd(status="Discussion", extends="[RFD 002]"),
            B: rfd("002", "Discussion", title="B"),
        },
        {A: rfd(status="Accepted", extends="[RFD 002]")},
        0,
        (),
    ),
    (
        "implemented back to discussion",
        {A: rfd(status="Implemented")},
        {A: rfd(status="Discussion")},
        1,
        ("from Implemented the next step is: Superseded",),
    ),
    (
        "abandoned is final",
        {A: rfd(status="Abandoned")},
        {A: rfd(status="Discussion")},
        1,
        ("Abandoned is final",),
    ),
    (
        "new RFD born accepted",
        {},
        {A: rfd(status="Accepted")},
        1,
        ("a new RFD cannot start as Accepted", "add it as Draft", "[process] new_statuses"),
    ),
    (
        "accept without a plan",
        {A: rfd(status="Discussion", phases=0)},
        {A: rfd(status="Accepted", phases=0)},
        1,
        ("cannot move to Accepted: no plan", "### Phase 1: Title"),
    ),
    (
        "accept with a broken plan.json",
        {A: rfd(status="Discussion")},
        {A: rfd(status="Accepted"), PLAN: '[{"title": 1}'},
        1,
        (f"{PLAN}:",),
    ),
    (
        "accept with a plan.json off the schema",
        {A: rfd(status="Discussion")},
        {
            A: rfd(status="Accepted"),
            PLAN: '[\n  {"title": "A", "description": ""},\n  {"title": 2}\n]',
        },
        1,
        (
            f"{PLAN}:3: phase at index 1: 'title' must be a string",
            'hint: each phase is {"title": "…", "description": "…"}',
        ),
    ),
    (
        "accept with a plan.json object",
        {A: rfd(status="Discussion")},
        {A: rfd(status="Accepted"), PLAN: '{"phases": []}'},
        1,
        (f"{PLAN}:1: plan must be a JSON array, not an object", "`rfd accept`"),
    ),
    (
        "accept with a draft requirement",
        {A: rfd(status="Discussion", requires="[RFD 002]"), B: rfd("002", title="B")},
        {A: rfd(status="Accepted", requires="[RFD 002]")},
        1,
        ("RFD 002 is Draft (needs Accepted)",),
    ),
    (
        "accept with a missing requirement",
        {A: rfd(status="Discussion", requires="RFD 007")},
        {A: rfd(status="Accepted", requires="RFD 007")},
        1,
        ("RFD 007 does not exist",),
    ),
    (
        "implemented with a phase missing",
        {A: rfd(status="Accepted"), PLAN: plan_json()},
        {A: rfd(status="Implemented"), **phase(1)},
        1,
        ("1 of 2 phases not done", f"phase 2: Step 2 (no {STATE}/001/phases/2.md)"),
    ),
    (
        "implemented, phases only in the document",
        {A: rfd(status="Accepted", phases=3)},
        {A: rfd(status="Implemented", phases=3), **phase(1)},
        1,
        ("2 of 3 phases not done",),
    ),
    (
        "zero-padded summaries count",
        {A: rfd(status="Accepted"), PLAN: plan_json()},
        {A: rfd(status="Implemented"), **phase("01"), **phase("02")},
        0,
        (),
    ),
    (
        "labelled phases, optional and deferred ones left",
        {A: labelled("Accepted")},
        {A: labelled("Implemented"), **phase(0), **phase("3a")},
        0,
        ("Accepted → Implemented",),
    ),
    (
        "labelled phase missing, named by its label",
        {A: labelled("Accepted")},
        {A: labelled("Implemented"), **phase(0), **phase(9)},
        1,
        ("1 of 4 phases not done", f"phase 3a: Split (no {STATE}/001/phases/3a.md)"),
    ),
    (
        "accept with an empty plan.json",
        {A: rfd(status="Discussion")},
        {A: rfd(status="Accepted"), PLAN: "[]"},
        1,
        (f"cannot move to Accepted: {PLAN} is an empty plan", "rfd plan 001"),
    ),
    (
        "implemented with an empty plan.json",
        {A: rfd(status="Accepted"), PLAN: "[]"},
        {A: rfd(status="Implemented")},
        1,
        (f"cannot move to Implemented: {PLAN} is an empty",),
    ),
]


@pytest.mark.parametrize(
    ("before", "after", "code", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_staged_changes(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    before: Files,
    after: Files,
    code: int,
    expected: tuple[str, ...],
) -> None:
    if before:
        commit(git_repo, before)
    write(git_repo, after)
    got, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert got == code, out
    for text in expected:
        assert text in out


def test_renamed_draft_is_a_promotion_not_a_new_rfd(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {"docs/rfd/D32-tracing.md": rfd("D32", title="Tracing")})
    git(git_repo, "mv", "docs/rfd/D32-tracing.md", "docs/rfd/045-tracing.md")
    write(git_repo, {"docs/rfd/045-tracing.md": rfd("045", "Discussion", title="Tracing")})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 0, out
    assert "Draft → Discussion (renamed from docs/rfd/D32-tracing.md)" in out
    assert "new RFD" not in out


def test_rewritten_draft_is_paired_with_its_published_file(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Too different for git's rename detection: the slug pairs them; the jump is judged by
    the gates of where it ends."""
    commit(git_repo, {"docs/rfd/drafts/D3-x.md": "# RFD D3: X\n\n- **Status**: Draft\n"})
    new = rfd("046", "Accepted", title="X", phases=3, extra="Much more text.\n\n" * 20)
    write(git_repo, {"docs/rfd/drafts/D3-x.md": None, "docs/rfd/046-x.md": new})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 0, out  # what `rfd accept` on a draft leaves: published and accepted
    assert "Draft → Accepted (renamed from docs/rfd/drafts/D3-x.md)" in out


def test_pre_push_checks_each_pushed_commit(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Draft → Discussion → Accepted in two commits is legal although Draft → Accepted is not."""
    base = commit(git_repo, {A: rfd()})
    commit(git_repo, {A: rfd(status="Discussion")})
    head = commit(git_repo, {A: rfd(status="Accepted")})
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", head)
    code, out = run_hook(main, git_repo, [A], monkeypatch, capsys)
    assert code == 0, out
    assert "Draft → Discussion" in out and "Discussion → Accepted" in out

    bad = commit(git_repo, {A: rfd(status="Draft")}, "Back to the drawing board")
    fine = commit(git_repo, {A: rfd(status="Draft", title="Alpha, again")}, "Retitle")
    monkeypatch.setenv("PRE_COMMIT_TO_REF", fine)
    code, out = run_hook(main, git_repo, [A], monkeypatch, capsys)
    assert code == 1
    short = git(git_repo, "rev-parse", "--short", bad).strip()
    blamed = f'in commit {short} "Back to the drawing board"'
    assert f"{A}:3: cannot move from Accepted to Draft\n  {blamed}\n" in out
    assert out.count("in commit") == 1  # the later, legal commit is not blamed


def test_pre_push_of_a_new_branch_checks_from_the_root(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    head = commit(git_repo, {A: rfd(status="Implemented")})
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", "0" * 40)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", head)
    code, out = run_hook(main, git_repo, [], monkeypatch, capsys)
    assert code == 1
    assert "a new RFD cannot start as Implemented" in out


def test_all_files_passes_a_repository_whose_statuses_hold(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(
        git_repo,
        {
            A: rfd(status="Implemented"),
            PLAN: plan_json(),
            **phase(1),
            **phase(2),
            B: rfd("002", "Accepted", requires="RFD 001"),
            C: rfd("003"),
        },
    )
    files = git(git_repo, "ls-files").split()
    assert run_hook(main, git_repo, files, monkeypatch, capsys) == (0, "")


SEEN_AT = "is {}, but its gate does not hold: "

# (case id, committed files, what `pre-commit run --all-files` must report)
HELD: list[tuple[str, Files, tuple[str, ...]]] = [
    (
        "accepted without a plan",
        {A: rfd(status="Accepted", phases=0)},
        (
            f"{A}:3: {SEEN_AT.format('Accepted')}no plan",
            "### Phase 1: Title",
            "set its Status back to Discussion",
        ),
    ),
    (
        "accepted with an empty plan.json",
        {A: rfd(status="Accepted"), PLAN: "[]"},
        (f"{A}:3: {SEEN_AT.format('Accepted')}{PLAN} is an empty plan",),
    ),
    (
        "accepted with a plan.json off the schema",
        {A: rfd(status="Accepted"), PLAN: "{}"},
        (f"{PLAN}:1: plan must be a JSON array, not an object",),
    ),
    (
        "accepted requiring a draft",
        {A: rfd(status="Accepted", requires="RFD 002"), B: rfd("002", title="B")},
        (
            f"{A}:3: {SEEN_AT.format('Accepted')}1 required RFD not Accepted yet",
            "RFD 002 is Draft (needs Accepted)",
        ),
    ),
    (
        "implemented with a phase missing",
        {A: rfd(status="Implemented"), PLAN: plan_json(), **phase(1)},
        (
            f"{A}:3: {SEEN_AT.format('Implemented')}1 of 2 phases not done",
            f"phase 2: Step 2 (no {STATE}/001/phases/2.md)",
            "set its Status back to Accepted",
        ),
    ),
    (
        "implemented requiring an accepted RFD",
        {
            A: rfd(status="Implemented", requires="RFD 002", phases=0),
            PLAN: plan_json(1),
            **phase(1),
            B: rfd("002", "Accepted", title="B"),
        },
        (f"{A}:3: {SEEN_AT.format('Implemented')}1 required RFD not Implemented yet",),
    ),
]


@pytest.mark.parametrize(("files", "expected"), [c[1:] for c in HELD], ids=[c[0] for c in HELD])
def test_all_files_checks_the_gates_of_current_statuses(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: Files,
    expected: tuple[str, ...],
) -> None:
    """`pre-commit run --all-files` with nothing staged: the repository as it is."""
    commit(git_repo, {**files, C: rfd("003")})
    code, out = run_hook(main, git_repo, git(git_repo, "ls-files").split(), monkeypatch, capsys)
    assert code == 1, out
    for text in expected:
        assert text in out
    assert C not in out


BASELINE = f"{STATE}/baseline.json"


def test_statuses_reached_before_adoption_are_not_gated_again(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The baseline (`rfd adopt`) grandfathers each RFD's status at adoption, not later ones."""
    legacy = {A: rfd(status="Implemented", phases=0), B: rfd("002", "Accepted", phases=0)}
    baseline = '{"commit": "abc", "statuses": {"001": "Implemented", "002": "Discussion"}}'
    commit(git_repo, {**legacy, BASELINE: baseline})
    code, out = run_hook(main, git_repo, git(git_repo, "ls-files").split(), monkeypatch, capsys)
    assert code == 1
    assert A not in out  # Implemented at adoption: history
    assert f"{B}:3: is Accepted, but its gate does not hold: no plan" in out  # accepted since


def test_a_broken_baseline_is_reported_with_its_path(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {A: rfd(status="Accepted", phases=0), BASELINE: '{"statuses": []}'})
    code, out = run_hook(main, git_repo, [A], monkeypatch, capsys)
    assert code == 1
    assert f"{BASELINE}: is not an adoption baseline" in out


def test_named_paths_with_nothing_staged_are_checked_as_they_are(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {A: rfd(status="Accepted", phases=0), B: rfd("002", "Accepted", phases=0)})
    code, out = run_hook(main, git_repo, [B], monkeypatch, capsys)
    assert code == 1
    assert f"{B}:3: is Accepted, but its gate does not hold: no plan" in out
    assert A not in out


def test_a_commit_checks_only_what_it_stages(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Staged RFDs keep their transition checks; unchanged ones are not looked at, however
    broken (pre-commit passes only the staged files on a commit)."""
    commit(git_repo, {A: rfd(status="Accepted", phases=0), B: rfd("002", "Discussion")})
    write(git_repo, {B: rfd("002", "Accepted"), C: rfd("003")})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 0, out
    assert f"{B}: Discussion → Accepted" in out and A not in out
    write(git_repo, {A: rfd(status="Accepted", phases=0, title="Alpha renamed")})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 0, out  # status unchanged by the commit: no gate to pass
    assert f"{A}: status Accepted, unchanged" in out and "no plan" not in out


def test_filenames_limit_what_is_checked(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """pre-commit's own `exclude` works: a file it does not pass is not checked."""
    commit(git_repo, {A: rfd()})
    write(git_repo, {A: rfd(status="Implemented"), B: rfd("002")})
    code, out = run_hook(main, git_repo, [B], monkeypatch, capsys)
    assert code == 0, out


def test_configured_directory(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {".github/rfd.toml": '[rfd]\ndir = "design"\n', "design/001-a.md": rfd()})
    write(
        git_repo,
        {
            "design/001-a.md": rfd(status="Implemented"),
            "docs/rfd/001-alpha.md": rfd(status="Implemented"),
        },
    )
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1
    assert "design/001-a.md:3: cannot move to Implemented" in out
    assert "docs/rfd" not in out


def test_broken_config_is_reported(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(git_repo, {".github/rfd.toml": "[rfd]\ndirr = 'x'\n"})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1
    assert ".github/rfd.toml:2: unknown key `rfd.dirr`" in out


def test_the_staged_version_counts_not_the_working_tree(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {A: rfd(status="Discussion", requires="[RFD 002]"), B: rfd("002")})
    write(git_repo, {B: rfd("002", "Discussion")})
    write(git_repo, {B: rfd("002", "Abandoned")})  # what is staged
    write(git_repo, {A: rfd(status="Accepted", requires="[RFD 002]")})
    (git_repo / A).write_text(rfd(status="Discussion"))  # not staged: not committed
    (git_repo / B).write_text(rfd("002", "Accepted"))
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1, out
    assert f"{A}: Discussion → Accepted" in out
    assert "RFD 002 is Abandoned" in out


D = "docs/rfd/004-d.md"
STATE_A = f"{STATE}/001/explore.md"


DELETIONS_ALLOWED = {".github/rfd.toml": "[process]\ndelete_published = true\n"}

REMOVALS: list[tuple[str, Files, Files, int, tuple[str, ...]]] = [
    (
        "a published RFD deleted",
        {A: rfd()},
        {A: None},
        1,
        (f"{A}: RFD016 published RFD 001 is deleted", "rfd abandon 001"),
    ),
    (
        "a published RFD deleted where RFD016 is a warning",
        {A: rfd(), ".github/rfd.toml": '[lint.severity]\nRFD016 = "warning"\n'},
        {A: None},
        0,
        ("RFD016 published RFD 001 is deleted",),
    ),
    (
        "a draft deleted",
        {"docs/rfd/drafts/D4-x.md": rfd("D4")},
        {"docs/rfd/drafts/D4-x.md": None},
        0,
        (),
    ),
    (
        "state left behind",
        {A: rfd(), STATE_A: "notes\n"},
        {A: None},
        1,
        (
            f"{STATE}/001/: state of RFD 001, whose file this commit deletes",
            f"git rm -r {STATE}/001",
        ),
    ),
    ("state removed too", {A: rfd(), STATE_A: "notes\n"}, {A: None, STATE_A: None}, 0, ()),
    (
        "still required",
        {A: rfd(), B: rfd("002", title="B", requires="[RFD 001]")},
        {A: None},
        1,
        (f"{B}:7: Requires RFD 001, which this commit deletes", "rfd abandon 001"),
    ),
    (
        "still extended, zero-padded elsewhere",
        {A: rfd(), C: rfd("003", title="C").replace("- **Date**", "- **Extends**: 1\n- **Date**")},
        {A: None},
        1,
        (f"{C}:6: Extends RFD 001, which this commit deletes",),
    ),
    (
        "only mentioned in prose",
        {A: rfd(), B: rfd("002", title="B", extra="See RFD 001.\n\n")},
        {A: None},
        0,
        (),
    ),
    (
        "required by an RFD deleted with it",
        {A: rfd(), B: rfd("002", title="B", requires="RFD 001")},
        {A: None, B: None},
        0,
        (),
    ),
    (
        "other ids are no match",
        {A: rfd(), B: rfd("002", title="B", requires="RFD 010, D1")},
        {A: None},
        0,
        (),
    ),
]


@pytest.mark.parametrize(
    ("before", "removal", "code", "expected"),
    [case[1:] for case in REMOVALS],
    ids=[case[0] for case in REMOVALS],
)
def test_removed_rfds(
    request: pytest.FixtureRequest,
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    before: Files,
    removal: Files,
    code: int,
    expected: tuple[str, ...],
) -> None:
    """pre-commit passes no deleted file: the hook finds removals itself."""
    if not request.node.callspec.id.startswith("a published RFD deleted"):
        before = {**before, **DELETIONS_ALLOWED}  # the state and links checks, on their own
    commit(git_repo, before)
    write(git_repo, {**removal, "notes.md": "unrelated\n"})
    got, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert got == code, out
    for text in expected:
        assert text in out


def test_renumbered_rfd_must_take_its_state_along(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    commit(git_repo, {A: rfd(), STATE_A: "notes\n"})
    git(git_repo, "mv", A, "docs/rfd/004-alpha.md")
    write(git_repo, {"docs/rfd/004-alpha.md": rfd("004")})
    code, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert code == 1
    assert f"{STATE}/001/: state of RFD 001, whose file this commit renames" in out
    assert f"git mv {STATE}/001 {STATE}/004/" in out
    git(git_repo, "mv", f"{STATE}/001", f"{STATE}/004")
    assert run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)[0] == 0


def test_pre_push_names_the_commit_that_deleted_a_required_rfd(
    git_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = commit(git_repo, {A: rfd(), B: rfd("002", title="B", requires="[RFD 001]")})
    head = commit(git_repo, {A: None}, "Drop alpha")
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", head)
    code, out = run_hook(main, git_repo, [], monkeypatch, capsys)
    assert code == 1
    short = git(git_repo, "rev-parse", "--short", head).strip()
    assert (
        f'{B}:7: Requires RFD 001, which this commit deletes\n  in commit {short} "Drop alpha"'
        in out
    )


@pytest.mark.parametrize("perl", [True, False])
def test_both_regex_flavours_find_the_same_referrers(git_repo: Path, perl: bool) -> None:
    """git without PCRE falls back to extended regexes: they must find the same files."""
    from bot.model.ids import RfdId
    from hooks._common import DEFAULT_LAYOUT
    from hooks._deletions import _pattern
    from hooks._git import BlobReader
    from hooks._tree import INDEX, Tree

    commit(
        git_repo,
        {
            B: rfd("002", title="B", requires="[RFD 001](001-alpha.md), [RFD D7]"),
            C: rfd("003", title="C", requires="RFD 010, RFD D70", extra="Requires RFD 001.\n\n"),
            D: rfd("004", title="D").replace("- **Date**", "- **Extends**: 1\n- **Date**"),
        },
    )
    ids = [RfdId.parse("001"), RfdId.parse("D7")]
    with BlobReader(git_repo) as reader:
        tree = Tree(git_repo, INDEX, reader)
        found = tree.grep([_pattern(i, perl=perl) for i in ids], DEFAULT_LAYOUT, perl=perl)
    # 003 mentions RFD 001 after the word "Requires" in prose: a candidate, parsed, no match
    assert found == [B, C, D]


SIGN_OFF = '[consensus]\nreviewers = ["bob", "carol"]\napprovals = 1\n'
APPROVED = (
    '{"approvals": [{"login": "bob", "revision": "0", "at": 0, "reviewer": "bob"}],'
    ' "concerns": [], "fcp": null}'
)


@pytest.mark.parametrize(
    ("ledger", "code", "expected"),
    [
        (
            {},
            1,
            f"{A}:3: cannot move to Accepted: the sign-offs are not in (approvals: 0 of 1, "
            "waiting on bob, carol",
        ),
        ({f"{STATE}/001/consensus.json": APPROVED}, 0, "Discussion → Accepted"),
    ],
    ids=["without the approvals", "approved"],
)
def test_accepting_needs_the_sign_offs_consensus_asks_for(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    ledger: Files,
    code: int,
    expected: str,
) -> None:
    commit(git_repo, {".github/rfd.toml": SIGN_OFF, A: rfd(status="Discussion"), **ledger})
    write(git_repo, {A: rfd(status="Accepted")})
    got, out = run_hook(main, git_repo, staged(git_repo), monkeypatch, capsys)
    assert got == code, out
    assert expected in out


@pytest.mark.parametrize(
    "name",
    ["--to-ref=:/init.md", "--to-ref", "-h", "--from-ref=HEAD\n--to-ref=:/init.md", "--"],
    ids=["option with a value", "option", "help", "with a newline", "end of options"],
)
def test_a_file_named_like_an_option_is_checked_as_a_file(
    git_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    """`pre-commit run --all-files` passes every file name: one shaped like an option (here
    one that would point the check at the commit "init.md", where A was still in
    Discussion) is a file like any other, and A's missing sign-offs are still reported."""
    commit(git_repo, {".github/rfd.toml": SIGN_OFF, A: rfd(status="Discussion")}, "init.md")
    commit(git_repo, {A: rfd(status="Accepted"), name: "notes\n"})
    files = sorted(git(git_repo, "ls-files", "-z").split("\0")[:-1])
    assert files[0].startswith("-")  # what pre-commit passes first
    code, out = run_hook(main, git_repo, files, monkeypatch, capsys)
    assert code == 1, out
    assert f"{A}:3: {SEEN_AT.format('Accepted')}the sign-offs are not in" in out
