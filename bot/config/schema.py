"""The configuration's schema: frozen dataclasses, one per table of ``.github/rfd.toml``.

The dataclasses *are* the schema: :mod:`bot.config.check` validates data against them,
and each field's docstring is its documentation (:func:`bot.config.keys.schema_keys`, which
the README's configuration table is checked against). The sections the AI steps run with
(provider, steps, implement) are in :mod:`bot.config.schema_ai`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from bot.config.schema_ai import (
    ImplementSection,
    ProviderSection,
    ResearchSection,
    StepsSection,
)


@dataclass(frozen=True)
class RfdSection:
    """Where RFDs live."""

    dir: str = "docs/rfd"
    """Directory of the RFD files, relative to the repository root."""
    drafts_dir: str = "drafts"
    """Sub-directory (of ``dir``) that may hold drafts; drafts beside published RFDs work too."""
    state_dir: str = ".state"
    """Sub-directory (of ``dir``) holding the workflow state of each RFD."""
    main_branch: str = "main"
    """The branch that accepted RFDs and phase summaries land on."""
    templates: str = "000-*-template.md"
    """The repository's own templates, a glob relative to ``dir`` (``*`` is the category,
    e.g. ``templates/*.md``): never RFDs, and what ``rfd new`` fills."""


@dataclass(frozen=True)
class ConventionsSection:
    """How the repository writes RFDs; ``rfd init`` detects them in an existing corpus."""

    id_digits: int = 3
    """Digits of a new published id (``045``: 3)."""
    draft_digits: int = 1
    """Digits of a new draft id (``D5``: 1, ``D05``: 2)."""
    draft_numbers: Literal["max+1", "first-free"] = "max+1"
    """A new draft's number: one more than any used (``max+1``) or the lowest free one."""
    link_style: Literal["inline", "reference"] = "inline"
    """Links rfd writes: ``[RFD 045](045-x.md)`` or ``[RFD 045]`` plus a definition line."""
    back_links: tuple[str, ...] = ()
    """Back-link fields the repository keeps (``Required by``, ``Extended by``)."""
    abandon_notice: str = ""
    """How an abandoned RFD says so: empty for an ``Abandoned`` header field, else a block
    put under the header with ``{reason}`` filled in."""
    tracking_issue: Literal["header", "state"] = "header"
    """Where the tracking issue is recorded: a ``Tracking Issue`` header field (GitHub
    issues only) or the state directory alone."""


@dataclass(frozen=True)
class LabelsSection:
    """Pull-request labels the GitHub bot reacts to."""

    review: str = "rfd:review"
    """Apply to a PR to get an AI review of every RFD it changes."""
    accept: str = "rfd:accept"
    """Apply to a PR to accept (promote) the RFDs it changes."""


@dataclass(frozen=True)
class ReviewSection:
    """How the GitHub bot posts a review."""

    inline: bool = False
    """Also submit one pull-request review whose comments sit on the RFD's lines (the
    blocker and major findings on lines of the PR's diff)."""


@dataclass(frozen=True)
class AcceptSection:
    allow_author: bool = False
    """May the RFD's own author accept it (label or ``/rfd accept``)?"""
    min_permission: Literal["write", "maintain", "admin"] = "write"
    """Least repository permission needed to run mutating commands."""


@dataclass(frozen=True)
class ConsensusSection:
    """Human sign-off before acceptance; an empty ``reviewers`` (no table) turns it off."""

    reviewers: tuple[str, ...] = ()
    """Who signs off: GitHub logins (``alice``) or teams (``@octo-org/architects``)."""
    approvals: int | Literal["all"] = "all"
    """Approvals the accept gate needs: a number, or ``all`` (every listed login)."""
    fcp_days: int = 0
    """Days of the final comment period ``/rfd fcp`` starts (0: no final comment period)."""
    count_older: bool = True
    """Do approvals of an older revision of the RFD count (they are shown as older anyway)?"""
    fcp_accepts: bool = False
    """When the final comment period ends, does the scheduled run apply the accept label
    (besides saying that the RFD may be accepted)?"""

    @property
    def enabled(self) -> bool:
        return bool(self.reviewers)


ACTIONS_BOT_LOGIN = "github-actions[bot]"
"""Who writes with the Actions ``GITHUB_TOKEN`` (``GET /user`` answers 403 with it)."""


@dataclass(frozen=True)
class BotSection:
    login: str = ACTIONS_BOT_LOGIN
    """The account the bot's token writes as: only its marked comments and issues are the bot's."""
    allowed_bots: tuple[str, ...] = ()
    """Bot accounts (``name[bot]``) whose commands are honoured."""
    seconds_between_writes: float = 1.0
    """Pause between GitHub writes past the first ``write_burst`` (secondary rate limits)."""
    write_burst: int = 4
    """Writes of one run sent without pausing (one event makes about 3–4)."""


Severity = Literal["off", "warning", "error"]
StatusWord = Literal["Draft", "Discussion", "Accepted", "Implemented", "Abandoned", "Superseded"]


@dataclass(frozen=True)
class LintSection:
    """What ``rfd lint`` and the rfd-lint hook require of an RFD."""

    severity: Mapping[str, Severity] = field(default_factory=lambda: MappingProxyType({}))
    """Severity per rule code (``RFD012 = "warning"``): ``off``, ``warning`` or ``error``."""
    required_sections: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    """``##`` sections RFDs of a category must have (``design = ["Summary"]``); default: none."""


@dataclass(frozen=True)
class ProcessSection:
    """The rules of the RFD process that rfd's commands and hooks enforce."""

    implemented_needs_phases: bool = True
    """Implemented needs every phase of the plan recorded (``phases/<label>.md``)."""
    accepted_needs_plan: bool = True
    """Accepted needs a plan (``plan.json`` or an Implementation Plan to extract one from)."""
    new_statuses: tuple[StatusWord, ...] = ("Draft", "Discussion")
    """The statuses a new RFD may be added with (add ``Accepted`` when a PR is the discussion)."""
    extends_gates: bool = True
    """The RFDs in ``Extends`` gate acceptance and implementation as those in ``Requires`` do."""
    delete_published: bool = False
    """A published (numbered) RFD may be deleted; otherwise abandon or supersede it."""


@dataclass(frozen=True)
class PluginsSection:
    enabled: tuple[str, ...] = ()
    """Plugins to enable, by name (see ``rfd plugins``)."""
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    """``[plugins.<name>]`` tables, validated by each plugin's own JSON Schema."""


@dataclass(frozen=True)
class SiteSection:
    url: str = ""
    """Where ``rfd site`` is published (``https://owner.github.io/repo/``): the status comment
    and the tracking issue link to each RFD's page there; empty, they don't."""


@dataclass(frozen=True)
class Config:
    rfd: RfdSection = RfdSection()
    conventions: ConventionsSection = ConventionsSection()
    labels: LabelsSection = LabelsSection()
    review: ReviewSection = ReviewSection()
    provider: ProviderSection = ProviderSection()
    models: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType(
            {
                "haiku": "claude-haiku-4-5",
                "sonnet": "claude-sonnet-5-5",
                "opus": "claude-opus-5-5",
                "gemini-pro": "gemini-2.5-pro",
                "gemini-flash": "gemini-2.5-flash",
            }
        )
    )
    """Model aliases → model ids."""
    steps: StepsSection = StepsSection()
    accept: AcceptSection = AcceptSection()
    bot: BotSection = BotSection()
    implement: ImplementSection = ImplementSection()
    research: ResearchSection = ResearchSection()
    lint: LintSection = LintSection()
    process: ProcessSection = ProcessSection()
    plugins: PluginsSection = PluginsSection()
    consensus: ConsensusSection = ConsensusSection()
    site: SiteSection = SiteSection()

    def model_for(self, step: str, override: str | None = None) -> str:
        """The model id for ``step``: ``override`` or the step's setting, aliases resolved.

        An empty setting (a ``[steps.<step>]`` table that sets only a budget) is the step's
        built-in default, not an empty model id."""
        name = override or getattr(self.steps, step).model or getattr(StepsSection(), step).model
        return self.models.get(name, name)

    @property
    def rfd_dir(self) -> str:
        return self.rfd.dir.rstrip("/")

    @property
    def state_root(self) -> str:
        return f"{self.rfd_dir}/{self.rfd.state_dir}"


@dataclass(frozen=True)
class Resolved:
    """A validated configuration plus where each set value came from."""

    config: Config
    sources: Mapping[str, str]
    """Dotted key → layer name (``default``, ``user``, ``repo``, ``env``, ``cli``)."""
    files: Mapping[str, str] = field(default_factory=dict)
    """Layer name → the file (or ``environment``, ``command line``) it was read from."""
