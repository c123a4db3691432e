"""Every lint rule's stable code, what it means and its default severity.

One table for ``rfd lint``, the rfd-lint hook, the configuration (``[lint.severity]``
accepts these codes only) and the README (a test keeps its table equal to this one).
Imports nothing: the hooks read it on every commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

OFF, WARNING, ERROR = "off", "warning", "error"
SEVERITIES = (OFF, WARNING, ERROR)


class Rule(NamedTuple):
    meaning: str
    default: str
    """``error`` or ``warning`` (``[lint.severity]`` may set ``off``, ``warning``, ``error``)."""


RULES: dict[str, Rule] = {
    "RFD000": Rule(
        "the file cannot be read as an RFD (no `# RFD` heading, empty, not UTF-8)",
        ERROR,
    ),
    "RFD001": Rule(
        "a required header field (Status, Category, Authors, Date) is missing or empty",
        ERROR,
    ),
    "RFD002": Rule(
        "the status is not one of Draft, Discussion, Accepted, Implemented, Abandoned, Superseded",
        ERROR,
    ),
    "RFD003": Rule(
        "the heading's id disagrees with the file name (the file name is the identity)",
        ERROR,
    ),
    "RFD004": Rule("the Date is not a real YYYY-MM-DD date", ERROR),
    "RFD005": Rule("the Category is not Design, Decision, Guide or Process", ERROR),
    "RFD006": Rule(
        "a section that `[lint.required_sections]` requires for the category is missing",
        ERROR,
    ),
    "RFD007": Rule(
        "a required section is empty or still the template's placeholder (a warning while Draft)",
        ERROR,
    ),
    "RFD008": Rule(
        "Requires/Extends/Supersedes/Superseded by names an RFD that does not exist",
        ERROR,
    ),
    "RFD009": Rule(
        "a published RFD's header links to a draft, back-links (`Required by`) included "
        "(drafts are renumbered when promoted)",
        ERROR,
    ),
    "RFD010": Rule("a header field is given twice (only the first counts)", ERROR),
    "RFD011": Rule("the status is Superseded but no `Superseded by` RFD is given", ERROR),
    "RFD012": Rule(
        "Requires and Extends form a cycle (no RFD of it can ever be accepted first)",
        ERROR,
    ),
    "RFD013": Rule(
        "the status word is not written exactly (`accepted` for `Accepted`): scripts miss it",
        ERROR,
    ),
    "RFD014": Rule(
        "a back-link (`Required by`, `Extended by`) names an RFD that does not link back",
        ERROR,
    ),
    "RFD015": Rule(
        "a reference-link definition (`[RFD 045]: 045-x.md`) points to no file or directory "
        "(`../../crates/foo` is fine when that folder exists); in AsciiDoc, a `<<…>>`, `xref:` "
        "or `link:` to no file, or `<<rfd99>>` naming no RFD (an anchor or bibliography entry "
        "`[[[rfd99]]]` of the page is no RFD)",
        ERROR,
    ),
    "RFD016": Rule("a published RFD was deleted (abandon or supersede it instead)", ERROR),
    "RFD017": Rule("a published RFD's text mentions a draft id", WARNING),
    "RFD018": Rule(
        "a second `#` title, or a `##` section given twice (only the first counts)", ERROR
    ),
}


class LintSettings(NamedTuple):
    """``[lint]`` of the configuration, as the lint rules use it."""

    severity: Mapping[str, str] = MappingProxyType({})
    """Rule code → ``off``/``warning``/``error``; a code not named keeps its default."""
    required_sections: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    """Category (lower case) → the ``##`` sections its RFDs must have."""

    @classmethod
    def of(cls, section: object) -> LintSettings:
        """From :class:`bot.config.schema.LintSection` (``cfg.lint``)."""
        return cls.from_table({key: getattr(section, key) for key in cls._fields})

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> LintSettings:
        """From ``[lint]`` as TOML data, or as :class:`bot.config.schema.LintSection` fields."""
        sections = table.get("required_sections", {})
        return cls(
            dict(table.get("severity", {})),
            {name.casefold(): tuple(titles) for name, titles in sections.items()},
        )
