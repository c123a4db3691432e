"""The configuration's schema: frozen dataclasses, one per table of ``.github/rfd.toml``.

The dataclasses *are* the schema: :mod:`bot.config.load` validates data against them,
and each field's docstring is its documentation (:func:`bot.config.keys.schema_keys`, which
the README's configuration table is checked against).  First the sections the AI steps run
with: the provider (``[provider]``), each step's model and budget (``[steps.<step>]``) and
the limits of the implement step (``[implement]``); then the rest, and :class:`Config`
holding them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal


@dataclass(frozen=True)
class ProviderSection:
    """Which LLM provider to use and how to reach it."""

    name: Literal["auto", "anthropic", "openai", "offline"] = "auto"
    """``auto``: per step, ``claude-*`` models go to Anthropic and any other model to the
    OpenAI-compatible endpoint; a provider without its key is offline."""
    base_url: str = "https://api.openai.com/v1"
    """Base URL of the OpenAI-compatible endpoint (Gemini, OpenRouter, Ollama, vLLM...)."""
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the OpenAI-compatible key."""
    timeout_seconds: float = 120.0
    """Timeout of one request."""
    max_retries: int = 2
    """Retries of 408/409/429/5xx answers (the SDK's own retry loop)."""
    context_tokens: int = 180_000
    """Input budget; larger inputs are truncated visibly."""


@dataclass(frozen=True)
class StepSection:
    """Settings of one lifecycle step."""

    model: str = ""
    """Model alias or id; empty means the built-in default of the step."""
    provider: Literal["", "auto", "anthropic", "openai", "offline"] = ""
    """The step's provider (values as ``provider.name``); empty means ``provider.name``."""
    max_tokens: int = 8192
    """Largest reply of one model call."""
    budget_tokens: int = 0
    """Stop the step cleanly past this many tokens (0: no limit)."""
    budget_usd: float = 0.0
    """Stop the step cleanly past this cost in US dollars (0: no limit)."""


@dataclass(frozen=True)
class StepsSection:
    explore: StepSection = StepSection(model="sonnet")
    converge: StepSection = StepSection(model="opus")
    draft: StepSection = StepSection(model="opus")
    review: StepSection = StepSection(model="sonnet")
    refine: StepSection = StepSection(model="opus")
    accept: StepSection = StepSection(model="sonnet")
    implement: StepSection = StepSection(model="opus")


@dataclass(frozen=True)
class ImplementSection:
    allowed_commands: tuple[str, ...] = ("pytest", "python -m pytest", "make test", "ruff")
    """Command prefixes the implement step may run."""
    allowed_paths: tuple[str, ...] = ("**",)
    """Globs the implement step may write."""
    protected_paths: tuple[str, ...] = (".git/**", ".github/workflows/**")
    """Globs the implement step may never write, whatever ``allowed_paths`` says."""
    max_items: int = 30
    """Largest item checklist per phase (amendments are capped at twice the original count)."""
    verify: str = "auto"
    """Command run after each item (through the same runner as the model's commands); an item
    is ``[x]`` only when it passes.  ``auto``: ``pytest`` when the repository has pytest tests,
    ``make test`` when the Makefile has a ``test`` target, ``npm test`` when package.json has a
    test script; ``""``: no check."""
    isolation: Literal["auto", "bwrap", "unshare", "none"] = "auto"
    """How commands are isolated (fresh namespaces, see README "What implement's commands can
    reach"): ``auto`` probes bubblewrap, then ``unshare``; ``none`` runs them unisolated, which
    only a person confirming each command may allow (the bot refuses)."""
    finish_in_last_phase: bool = False
    """The last phase's pull request also marks the RFD Implemented (a bot commit after the
    phase's) and closes the tracking issue when merged; off: ``/rfd done`` on the tracking
    issue opens a pull request of its own for that."""
    network: bool = False
    """Whether commands may reach the network (off: a namespace without interfaces)."""
    toolchain: tuple[str, ...] = ()
    """Host directories commands see read-only besides ``/usr``, ``/bin``, ``/lib*``, ``/etc``
    and the bot's Python (``/opt/hostedtoolcache`` for tools that ``actions/setup-*``
    installed): everything else of the host is hidden."""
    env: tuple[str, ...] = ()
    """Environment variables passed to commands besides the built-in allowlist (PATH, LANG,
    LC_*, TERM, TZ): never a secret, whose value the bot redacts from everything it writes."""
    redacted_env: tuple[str, ...] = ()
    """More environment variables whose values are secrets (redacted in every encoding from
    command output and commits), beyond key-, token- and password-like names."""


@dataclass(frozen=True)
class ResearchSection:
    """What explore may look up outside the repository (seed 000: web pages, package
    registries).  Off by default: nothing leaves the machine unless ``web`` is on."""

    web: bool = False
    """Give explore ``web_fetch`` and ``package_search``."""
    allowed_hosts: tuple[str, ...] = (
        "pypi.org",
        "registry.npmjs.org",
        "crates.io",
        "docs.python.org",
        "docs.rs",
        "developer.mozilla.org",
        "en.wikipedia.org",
    )
    """Hosts the tools may reach (a subdomain of one counts); every redirect is checked too."""
    pypi_url: str = "https://pypi.org"
    """Where ``package_search`` asks PyPI (its JSON API)."""
    npm_url: str = "https://registry.npmjs.org"
    """Where ``package_search`` asks npm (its search API)."""
    crates_url: str = "https://crates.io"
    """Where ``package_search`` asks crates.io (its search API)."""
    max_chars: int = 20_000
    """Longest answer the model is shown (the rest is cut, visibly)."""
    timeout_seconds: float = 15.0
    """Timeout of one request."""


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
Stage = Literal["draft", "discussion", "accepted", "implemented", "abandoned", "superseded"]
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
    statuses: Mapping[str, Stage] = field(default_factory=lambda: MappingProxyType({}))
    """The repository's own status words, each mapped to the stage rfd reasons about
    (``published = "accepted"``); ``rfd init`` detects them. Empty: rfd's own words and
    the dialects it knows (Oxide, Joyent, RFC stages)."""
    transitions: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """The moves between status words the repository's history shows (``discussion =
    ["published", "abandoned"]``): from a word listed here, only the words they lead to;
    ``rfd init`` detects them. A word not listed follows rfd's lifecycle."""

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
