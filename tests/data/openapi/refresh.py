"""Refresh ``subset.json``: the GitHub REST operations rfd-bot uses, from @octokit/openapi.

    cd /tmp && npm pack @octokit/openapi && tar xzf octokit-openapi-*.tgz
    python tests/data/openapi/refresh.py /tmp/package/generated/api.github.com.json

Only the listed operations are kept, with every ``#/components/...`` they reach
(schemas, parameters, responses, headers, examples), so the subset validates on
its own.  Re-run it when GitHub's description changes, then run the cassette test.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OPERATIONS: tuple[tuple[str, str], ...] = (
    ("get", "/repos/{owner}/{repo}/issues"),
    ("post", "/repos/{owner}/{repo}/issues"),
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}"),
    ("patch", "/repos/{owner}/{repo}/issues/{issue_number}"),
    ("get", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),
    ("post", "/repos/{owner}/{repo}/issues/{issue_number}/comments"),
    ("patch", "/repos/{owner}/{repo}/issues/comments/{comment_id}"),
    ("get", "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions"),
    ("post", "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions"),
    ("post", "/repos/{owner}/{repo}/issues/{issue_number}/labels"),
    ("delete", "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}"),
    ("patch", "/repos/{owner}/{repo}/labels/{name}"),
    ("get", "/repos/{owner}/{repo}/collaborators"),
    ("get", "/repos/{owner}/{repo}/collaborators/{username}/permission"),
    ("get", "/repos/{owner}/{repo}/pulls"),
    ("post", "/repos/{owner}/{repo}/pulls"),
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}"),
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}/commits"),
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}/files"),
    ("get", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"),
    ("post", "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"),
    ("get", "/repos/{owner}/{repo}/contents/{path}"),
    ("post", "/repos/{owner}/{repo}/labels"),
    ("get", "/repos/{owner}/{repo}/labels/{name}"),
    ("get", "/repos/{owner}/{repo}/releases/latest"),
    ("get", "/repos/{owner}/{repo}/git/ref/{ref}"),
    ("get", "/repos/{owner}/{repo}/git/tags/{tag_sha}"),
    ("get", "/orgs/{org}/teams/{team_slug}/memberships/{username}"),
    ("get", "/repos/{owner}/{repo}/activity"),
    ("get", "/repos/{owner}/{repo}/actions/runs/{run_id}"),
)

HERE = Path(__file__).resolve().parent


def refs(node: Any) -> Iterator[str]:
    """Every ``$ref`` string inside ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def lookup(spec: dict[str, Any], ref: str) -> Any:
    node: Any = spec
    for part in ref.removeprefix("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def subset(spec: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for method, path in OPERATIONS:
        paths.setdefault(path, {})[method] = spec["paths"][path][method]
    components: dict[str, dict[str, Any]] = {}
    todo = list(refs(paths))
    while todo:
        ref = todo.pop()
        _, _, kind, name = ref.split("/", 3)
        if name in components.setdefault(kind, {}):
            continue
        node = lookup(spec, ref)
        components[kind][name] = node
        todo.extend(refs(node))
    ordered = {kind: dict(sorted(items.items())) for kind, items in sorted(components.items())}
    return {
        "openapi": spec["openapi"],
        "info": {**spec["info"], "x-subset-of": "@octokit/openapi api.github.com.json"},
        "paths": paths,
        "components": ordered,
    }


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else Path("package/generated/api.github.com.json")
    spec = json.loads(source.read_text(encoding="utf-8"))
    out = HERE / "subset.json"
    out.write_text(json.dumps(subset(spec), indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(OPERATIONS)} operations)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
