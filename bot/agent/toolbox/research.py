"""Explore's look outside the repository: ``web_fetch`` and ``package_search``.

Seed 000 gives the research step the web and a package search.  Here both are off
unless ``research.web`` is on, and each request — the first and every redirect — must
go to a host of ``research.allowed_hosts`` (or a subdomain of one) over http(s).  A
request carries nothing of the user's: a fresh client that ignores the environment
(no proxy settings, no ``.netrc`` credentials), no cookies, only a User-Agent.  Answers
reach the model as text, cut at ``research.max_chars``, wrapped as data like any
document; HTML is reduced to its text.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urljoin, urlsplit

from bot.agent.toolbox.base import Tool, ToolContext, schema
from bot.core.errors import PermissionDenied, ProviderError, ValidationError

if TYPE_CHECKING:
    import httpx

    from bot.config.schema import ResearchSection

USER_AGENT = "rfd-bot research (explore step)"
MAX_REDIRECTS = 3
REGISTRIES = ("pypi", "npm", "crates")
NOT_ALLOWED = (
    "{host!r} is not in research.allowed_hosts; add it to .github/rfd.toml to let explore read it"
)
_TAGS = re.compile(r"<(script|style)\b.*?</\1\s*>|<[^>]+>", re.DOTALL | re.IGNORECASE)
_BLANKS = re.compile(r"\n\s*\n\s*(\n\s*)+")


def allowed(url: str, hosts: tuple[str, ...]) -> str:
    """``url`` when its scheme is http(s) and its host is allowed; PermissionDenied else."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValidationError(f"not an http(s) URL: {url!r}")
    host = parts.hostname.lower()
    if not any(host == h or host.endswith("." + h) for h in (h.lower() for h in hosts)):
        raise PermissionDenied(NOT_ALLOWED.format(host=host))
    return url


def fetch(section: ResearchSection, url: str) -> tuple[str, str]:
    """(content type, body) of ``url``, following at most ``MAX_REDIRECTS`` allowed hops."""
    import httpx

    headers = {"User-Agent": USER_AGENT, "Accept": "text/html, application/json, text/*"}
    with httpx.Client(
        timeout=section.timeout_seconds, trust_env=False, follow_redirects=False, headers=headers
    ) as client:
        for _ in range(MAX_REDIRECTS + 1):
            response = _get(client, allowed(url, section.allowed_hosts))
            if not response.is_redirect:
                return _answer(response, url)
            url = urljoin(url, response.headers.get("location", ""))
    raise ProviderError(f"more than {MAX_REDIRECTS} redirects from {url}")


def _get(client: httpx.Client, url: str) -> httpx.Response:
    import httpx

    try:
        return client.get(url)
    except httpx.HTTPError as exc:
        raise ProviderError(f"could not fetch {url}: {exc}") from None


def _answer(response: httpx.Response, url: str) -> tuple[str, str]:
    if response.status_code >= 400:
        raise ProviderError(f"{url} answered HTTP {response.status_code}")
    return response.headers.get("content-type", ""), response.text


def as_text(content_type: str, body: str, limit: int) -> str:
    """What the model reads: HTML reduced to its text, everything cut at ``limit``."""
    if "html" in content_type:
        body = _BLANKS.sub("\n\n", html.unescape(_TAGS.sub("", body))).strip()
    if len(body) <= limit:
        return body
    return body[:limit] + f"\n[cut: {len(body) - limit} more characters]"


def search_url(section: ResearchSection, registry: str, query: str) -> str:
    """The registry API URL for ``query`` (PyPI has no search API: its project page)."""
    term = quote(query.strip(), safe="")
    if registry == "pypi":
        return f"{section.pypi_url.rstrip('/')}/pypi/{term}/json"
    if registry == "npm":
        return f"{section.npm_url.rstrip('/')}/-/v1/search?text={term}&size=10"
    return f"{section.crates_url.rstrip('/')}/api/v1/crates?q={term}&per_page=10"


def packages(registry: str, body: str) -> str:
    """The registry's answer as lines of ``name version — summary``."""
    data = json.loads(body)
    if registry == "pypi":
        info = data.get("info", {})
        rows = [(info.get("name"), info.get("version"), info.get("summary"))]
    elif registry == "npm":
        found = [o.get("package", {}) for o in data.get("objects", [])]
        rows = [(p.get("name"), p.get("version"), p.get("description")) for p in found]
    else:
        rows = [
            (c.get("name"), c.get("max_version"), c.get("description"))
            for c in data.get("crates", [])
        ]
    lines = [f"- {n} {v or ''} — {(d or '').strip()}" for n, v, d in rows if n]
    return "\n".join(lines) or "no package found"


def _web_fetch(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    section = _section(ctx)
    kind, body = fetch(section, args["url"])
    return as_text(kind, body, section.max_chars)


def _package_search(ctx: ToolContext, args: Mapping[str, Any]) -> str:
    section = _section(ctx)
    registry = args["registry"]
    _, body = fetch(section, search_url(section, registry, args["query"]))
    try:
        return as_text("", packages(registry, body), section.max_chars)
    except (ValueError, AttributeError):
        raise ProviderError(f"{registry} answered something that is not its JSON API") from None


def _section(ctx: ToolContext) -> ResearchSection:
    section = ctx.config.research
    if not section.web:
        raise PermissionDenied("research.web is off: explore may not look outside the repository")
    return section


WEB_FETCH = Tool(
    "web_fetch",
    "Read a web page (its text) or a JSON document by URL; only allow-listed hosts answer.",
    schema({"url": "string"}),
    _web_fetch,
)
PACKAGE_SEARCH = Tool(
    "package_search",
    "Look up packages: `pypi` by exact project name, `npm` and `crates` by search terms.",
    schema({"registry": {"type": "string", "enum": list(REGISTRIES)}, "query": "string"}),
    _package_search,
)
RESEARCH_TOOLS = (WEB_FETCH, PACKAGE_SEARCH)
