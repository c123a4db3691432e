"""Refresh the webhook fixtures from GitHub's documented payloads.

    cd /tmp && npm pack @octokit/webhooks-examples && tar xzf octokit-webhooks-examples-*.tgz
    python tests/data/webhooks/refresh.py /tmp/package/api.github.com/index.json

Each fixture is a real example payload with the few fields a scenario needs
adjusted: the default branch is ``main``, PR #2 changes an RFD, the label is ours,
and the PR comment carries ``issue.pull_request`` (none of the examples is on a PR).
Tests change the rest (comment body, sender) per case.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = "Codertocat/Hello-World"
HEAD = "rfd-045-streaming-exports"


def first(examples: dict[str, list[dict[str, Any]]], name: str, action: str | None) -> Any:
    found = next(e for e in examples[name] if e.get("action") == action)
    payload = copy.deepcopy(found)
    payload["repository"]["default_branch"] = "main"
    payload["repository"]["master_branch"] = "main"
    return payload


def pull_request(examples: dict[str, list[dict[str, Any]]], action: str) -> Any:
    payload = first(examples, "pull_request", action)
    pr = payload["pull_request"]
    pr["title"] = "RFD 045: Streaming exports"
    pr["head"]["ref"], pr["head"]["label"] = HEAD, f"Codertocat:{HEAD}"
    pr["base"]["ref"], pr["base"]["label"] = "main", "Codertocat:main"
    for side in ("head", "base"):
        pr[side]["repo"]["default_branch"] = "main"
    pr["labels"] = []
    return payload


def labeled(examples: dict[str, list[dict[str, Any]]], name: str) -> Any:
    payload = pull_request(examples, "labeled")
    payload["label"].update(
        name=name,
        url=f"https://api.github.com/repos/{REPO}/labels/{name}",
        default=False,
        description="rfd-bot",
        color="0e8a16",
    )
    payload["pull_request"]["labels"] = [payload["label"]]
    return payload


def pr_comment(examples: dict[str, list[dict[str, Any]]]) -> Any:
    payload = first(examples, "issue_comment", "created")
    issue = payload["issue"]
    issue.update(
        number=2,
        title="RFD 045: Streaming exports",
        html_url=f"https://github.com/{REPO}/pull/2",
        url=f"https://api.github.com/repos/{REPO}/issues/2",
    )
    issue["pull_request"] = {
        "url": f"https://api.github.com/repos/{REPO}/pulls/2",
        "html_url": f"https://github.com/{REPO}/pull/2",
        "diff_url": f"https://github.com/{REPO}/pull/2.diff",
        "patch_url": f"https://github.com/{REPO}/pull/2.patch",
        "merged_at": None,
    }
    payload["comment"]["body"] = "/rfd status"
    payload["comment"]["issue_url"] = issue["url"]
    return payload


def issue_comment(examples: dict[str, list[dict[str, Any]]]) -> Any:
    payload = first(examples, "issue_comment", "created")
    payload["issue"].update(
        number=12,
        title="RFD 045: Streaming exports",
        url=f"https://api.github.com/repos/{REPO}/issues/12",
        html_url=f"https://github.com/{REPO}/issues/12",
    )
    payload["comment"]["body"] = "/rfd status"
    return payload


def push(examples: dict[str, list[dict[str, Any]]]) -> Any:
    payload = next(copy.deepcopy(e) for e in examples["push"] if e["ref"] == "refs/heads/master")
    payload["ref"] = "refs/heads/main"
    payload["repository"]["default_branch"] = "main"
    payload["repository"]["master_branch"] = "main"
    return payload


def main(argv: list[str]) -> int:
    source = Path(argv[1] if len(argv) > 1 else "package/api.github.com/index.json")
    examples = {e["name"]: e["examples"] for e in json.loads(source.read_text(encoding="utf-8"))}
    fixtures = {
        "pull_request.opened": pull_request(examples, "opened"),
        "pull_request.synchronize": pull_request(examples, "synchronize"),
        "pull_request.reopened": pull_request(examples, "reopened"),
        "pull_request.labeled.review": labeled(examples, "rfd:review"),
        "pull_request.labeled.accept": labeled(examples, "rfd:accept"),
        "issue_comment.created.pr": pr_comment(examples),
        "issue_comment.created.issue": issue_comment(examples),
        "push": push(examples),
        "workflow_dispatch": first(examples, "workflow_dispatch", None),
    }
    for name, payload in fixtures.items():
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(fixtures)} fixtures to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
