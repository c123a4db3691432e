"""``rfd lint``: every rule of :mod:`bot.lifecycle.lint` over the RFDs (templates are not RFDs),
plus each RFD's state files and the pin of rfd-bot's action in the workflows; the exit code
counts errors only."""

from __future__ import annotations

from pathlib import Path

import click

from bot.cli.common import configuration, repo_root, rfd_command
from bot.cli.output import Output
from bot.config import discovery
from bot.config.action_pin import Advice
from bot.core.errors import FileNotFound, RfdError
from bot.core.text import plural
from bot.lifecycle.lint import Finding, Severity, from_error
from bot.lifecycle.lint_cache import LintCache
from bot.lifecycle.lint_corpus import lint_docs, read_baseline
from bot.model.baseline import Baseline
from bot.state import StateStore

TALLY = "{errors}, {warnings}: errors fail the check, warnings are reported only"
NOT_AN_RFD_HINT = "give RFD files ({dir}/NNN-slug.md), or no path to lint them all"


@rfd_command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--no-cache",
    is_flag=True,
    help="Check every file afresh: neither read nor write what the last run kept in .git/rfd-bot/.",
)
def lint(out: Output, paths: tuple[Path, ...], no_cache: bool) -> int:
    """Check RFD headers and structure (all RFDs, or the files given)."""
    root = repo_root()
    cfg = configuration(root)
    cache = LintCache(None) if no_cache else LintCache.open(root, cfg)
    scanned = discovery.scan(root, cfg)  # templates are not RFDs
    docs, errors = discovery.load_all(root, cfg, scanned)
    wanted = {(p if p.is_absolute() else Path.cwd() / p).resolve().as_posix() for p in paths}
    unknown = _unknown(root, wanted, [d.path for d in docs] + [e.path for e in errors if e.path])
    if unknown:
        raise FileNotFound(
            f"not an RFD under {cfg.rfd_dir}/: {', '.join(unknown)}",
            hint=NOT_AN_RFD_HINT.format(dir=cfg.rfd_dir),
        )

    def chosen(path: str | None) -> bool:
        return not wanted or (root / (path or "")).resolve().as_posix() in wanted

    before = read_baseline(root, cfg)
    found = lint_docs(root, cfg, docs, chosen, scanned, cache)
    findings = [f for f in found if not before.had(f.path, f.code, f.message)]
    unreadable = [e for e in errors if chosen(e.path)]
    problems = [e for e in unreadable if not _had(before, e)]
    old = len(found) - len(findings) + len(unreadable) - len(problems)
    store = StateStore(root, cfg)
    run = cache.state_errors
    problems += [
        e for doc in docs if chosen(doc.path) for e in store.validate(str(doc.rfd_id), run)
    ]
    cache.save()
    if not wanted:  # every RFD: the state directories no RFD owns too
        from bot.state.store import orphans

        owned = {store.key(str(f.rfd_id)) for f in scanned}
        problems += orphans(store, store.base, owned)
    pins = _pins(root) if not wanted else []
    out.data(
        {
            "findings": [_finding(f) for f in findings],
            "errors": [e.to_dict() for e in problems],
            "grandfathered": old,
            "workflows": [_pin(a) for a in pins],
        }
    )
    for advice in pins:
        where = f"{advice.pin.path}:{advice.pin.line}"
        out.line(f"{where}: warning: {advice.message} — {advice.hint}")
    for finding in findings:
        hint = f" — {finding.hint}" if finding.hint else ""
        where = f"{finding.path}:{finding.line or 1}"
        out.line(f"{where}: {finding.code} {finding.severity.value}: {finding.message}{hint}")
    for err in problems:  # files that do not parse, bad state files: errors
        out.line(str(err).replace(f"{err.location}: ", f"{err.location}: error: ", 1))
    failing = [f for f in findings if f.severity is Severity.ERROR]
    if not failing and not problems:
        checked = len([d for d in docs if chosen(d.path)])
        warnings = len(findings) + len(pins)
        warned = f" ({plural(warnings, 'warning')})" if warnings else ""
        out.success(f"{plural(checked, 'RFD')} checked, no errors{warned}{_grandfathered(old)}")
    else:
        wrong, noted = len(failing) + len(problems), len(findings) - len(failing) + len(pins)
        tally = TALLY.format(errors=plural(wrong, "error"), warnings=plural(noted, "warning"))
        out.line(tally + _grandfathered(old))
    return 1 if failing or problems else 0


def _unknown(root: Path, wanted: set[str], known: list[str]) -> list[str]:
    """The paths asked for that are no RFD (resolving every RFD's path only when asked)."""
    if not wanted:
        return []
    resolved = {(root / path).resolve().as_posix() for path in known}
    return sorted(w for w in wanted if w not in resolved)


def _had(before: Baseline, err: RfdError) -> bool:
    """Whether an RFD that does not parse did not parse at adoption either (same reason)."""
    if not err.path:
        return False
    found = from_error(err, err.path)
    return before.had(found.path, found.code, found.message)


def _grandfathered(count: int) -> str:
    return f"; {plural(count, 'finding')} from before adoption not reported" if count else ""


def _finding(f: Finding) -> dict[str, object]:
    return {
        "path": f.path,
        "line": f.line,
        "code": f.code,
        "message": f.message,
        "hint": f.hint,
        "severity": f.severity.value,
    }


def _pins(root: Path) -> list[Advice]:
    """The workflows' ``uses:`` of rfd-bot's action that are not pinned to a commit, each
    with the commit to use when the installed release knows it (offline: lint never asks
    GitHub; ``rfd init --github`` and ``rfd pin`` do, with a token)."""
    from bot import __version__
    from bot.config import action_pin
    from bot.lifecycle.pin_update import workflow_files

    found = []
    for path in workflow_files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        found += action_pin.pins(path.relative_to(root).as_posix(), text)
    if all(pin.pinned or not pin.uses for pin in found):
        return []  # no advice to give: the installed release's record is not read (≈ 20 ms)
    from bot.lifecycle.workflow_setup import InstalledReleases

    return action_pin.advise(found, InstalledReleases(__version__))


def _pin(advice: Advice) -> dict[str, object]:
    return {
        "path": advice.pin.path,
        "line": advice.pin.line,
        "ref": advice.pin.ref,
        "message": advice.message,
        "hint": advice.hint,
        "severity": "warning",
    }
