"""Building blocks for hand-written GitHub cassettes.

Response bodies start from the examples in GitHub's own OpenAPI description
(``tests/data/openapi/subset.json``), moved to our test repository and adjusted
per scenario; headers are the ones GitHub sends that matter (content type,
rate limits, request id, etag).  ``build.py`` writes the cassettes from these.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

API = "https://api.github.com"
REPO = "Codertocat/Hello-World"
SUBSET = Path(__file__).resolve().parents[1] / "openapi" / "subset.json"
REASONS = {
    200: "OK",
    201: "Created",
    204: "No Content",
    403: "Forbidden",
    404: "Not Found",
    422: "Unprocessable Entity",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}

UNNUMBERED = "<numbered by build.py>"
"""The request id and rate-limit counters of a response until ``build.py`` numbers them by
the exchange's place in its cassette (so one cassette's numbers never depend on another)."""
NUMBERED = ("X-GitHub-Request-Id", "X-RateLimit-Remaining", "X-RateLimit-Used")


@cache
def _examples() -> dict[str, Any]:
    spec = json.loads(SUBSET.read_text(encoding="utf-8"))
    return spec["components"]["examples"]


def example(name: str, **changes: Any) -> Any:
    """An OpenAPI example, moved to ``REPO``, with top-level ``changes`` applied."""
    text = json.dumps(_examples()[name]["value"]).replace("octocat/Hello-World", REPO)
    value = json.loads(text)
    if isinstance(value, dict):
        value.update(copy.deepcopy(changes))
    return value


def user(login: str, uid: int = 1, kind: str = "User") -> dict[str, Any]:
    base = example("issue-comment")["user"]
    text = json.dumps(base).replace('"octocat"', json.dumps(login)).replace("/octocat", f"/{login}")
    out = json.loads(text)
    out.update(id=uid, type=kind, avatar_url=f"https://avatars.githubusercontent.com/u/{uid}?v=4")
    out["node_id"] = base64.b64encode(f"04:User{uid}".encode()).decode()
    return out


BOT = user("github-actions[bot]", 41898282, "Bot")


def label(name: str, lid: int = 208045946) -> dict[str, Any]:
    lab = example("label-items")[0]
    lab.update(id=lid, name=name, url=f"{API}/repos/{REPO}/labels/{name.replace(':', '%3A')}")
    return lab


def issue(
    number: int,
    title: str,
    body: str,
    *,
    state: str = "open",
    labels: tuple[str, ...] = (),
    author: dict[str, Any] | None = None,
    pr: bool = False,
) -> dict[str, Any]:
    out = example("issue")
    text = json.dumps(out).replace("/1347", f"/{number}")
    out = json.loads(text)
    out.update(
        number=number,
        id=2000 + number,
        title=title,
        body=body,
        state=state,
        labels=[label(n) for n in labels],
        user=author or BOT,
    )
    out["assignee"], out["assignees"], out["milestone"] = None, [], None
    if not pr:
        out.pop("pull_request", None)
    if state == "closed":
        out["state_reason"] = "completed"
    return out


def comment(cid: int, number: int, body: str, author: dict[str, Any] = BOT) -> dict[str, Any]:
    out = example("issue-comment")
    out.update(
        id=cid,
        body=body,
        user=author,
        url=f"{API}/repos/{REPO}/issues/comments/{cid}",
        html_url=f"https://github.com/{REPO}/pull/{number}#issuecomment-{cid}",
        issue_url=f"{API}/repos/{REPO}/issues/{number}",
    )
    return out


def content_file(path: str, text: str, ref: str) -> dict[str, Any]:
    raw = text.encode()
    encoded = base64.encodebytes(raw).decode()
    sha = hashlib.sha1(b"blob %d\0" % len(raw) + raw).hexdigest()
    out = example("content-file-response-if-content-is-a-file")
    url = f"{API}/repos/{REPO}/contents/{path}?ref={ref}"
    out.update(
        path=path,
        name=path.rsplit("/", 1)[-1],
        size=len(raw),
        content=encoded,
        sha=sha,
        url=url,
        git_url=f"{API}/repos/{REPO}/git/blobs/{sha}",
        html_url=f"https://github.com/{REPO}/blob/{ref}/{path}",
        download_url=f"https://raw.githubusercontent.com/{REPO}/{ref}/{path}",
    )
    out["_links"] = {"self": url, "git": out["git_url"], "html": out["html_url"]}
    return out


def commit_item(sha: str, author: dict[str, Any], email: str, name: str) -> dict[str, Any]:
    """One entry of a PR's commit list: the git author ``name <email>``, GitHub's ``author``."""
    out = example("commit-items")[0]
    text = json.dumps(out).replace("6dcb09b5b57875f334f61aebed695e2e4193db5e", sha)
    out = json.loads(text)
    out["node_id"] = base64.b64encode(f"04:Commit{sha}".encode()).decode()
    out["commit"]["author"].update(name=name, email=email)
    out["commit"]["committer"].update(name=name, email=email)
    out.update(author=author, committer=author)
    return out


def diff_entry(
    path: str, status: str = "added", sha: str = "0" * 40, patch: str | None = None
) -> dict[str, Any]:
    """A changed file of ``GET /pulls/{n}/files`` (``patch``: its hunks, else the example's)."""
    out = example("diff-entry-items")[0]
    if patch is not None:
        lines = patch.splitlines()
        out.update(
            patch=patch,
            additions=sum(1 for line in lines if line.startswith("+")),
            deletions=sum(1 for line in lines if line.startswith("-")),
        )
        out["changes"] = out["additions"] + out["deletions"]
    out.update(
        filename=path,
        status=status,
        sha=sha,
        blob_url=f"https://github.com/{REPO}/blob/{sha}/{path}",
        raw_url=f"https://github.com/{REPO}/raw/{sha}/{path}",
        contents_url=f"{API}/repos/{REPO}/contents/{path}?ref={sha}",
    )
    return out


def permission(login: str, role: str, legacy: str | None = None) -> dict[str, Any]:
    """The permission API's answer; ``legacy`` is the base level of a custom ``role``."""
    out = example("repository-collaborator-permission-response-if-user-has-admin-permissions")
    legacy = legacy or {"maintain": "write", "triage": "read"}.get(role, role)
    out.update(permission=legacy, role_name=role, user=user(login, 3000 + len(login)))
    out["user"]["role_name"] = role
    out["user"]["permissions"] = {
        "admin": role == "admin",
        "maintain": role in ("admin", "maintain"),
        "push": legacy in ("admin", "write"),
        "triage": role != "read",
        "pull": True,
    }
    return out


def collaborator(login: str, role: str) -> dict[str, Any]:
    """One item of ``GET /collaborators``: the OpenAPI example as ``login`` with ``role``."""
    out = example("collaborator-items")[0]
    out.update(user(login, 3000 + len(login)))
    out.update(role_name=role)
    out["permissions"] = {
        "admin": role == "admin",
        "maintain": role in ("admin", "maintain"),
        "push": role in ("admin", "maintain", "write"),
        "triage": role != "read",
        "pull": True,
    }
    return out


def pull_review(rid: int, number: int, body: str, commit: str) -> dict[str, Any]:
    """A review the bot submitted (``event: COMMENT``) on PR ``number``."""
    text = json.dumps(example("pull-request-review"))
    for old, new in (
        ("/pull/12", f"/pull/{number}"),
        ("/pulls/12", f"/pulls/{number}"),
        ("pullrequestreview-80", f"pullrequestreview-{rid}"),
    ):
        text = text.replace(old, new)
    out = json.loads(text)
    out.update(
        id=rid,
        body=body,
        state="COMMENTED",
        commit_id=commit,
        user=BOT,
        author_association="NONE",
        submitted_at="2026-11-22T02:00:00Z",
    )
    out["node_id"] = base64.b64encode(f"017:PullRequestReview{rid}".encode()).decode()
    return out


def reaction(content: str, rid: int = 1) -> dict[str, Any]:
    return example("reaction", id=rid, content=content, user=BOT)


def workflow_run(run_id: int, status: str, conclusion: str | None = None) -> dict[str, Any]:
    """GitHub's answer to ``GET /actions/runs/{run_id}``: run ``run_id`` of rfd-bot's workflow."""
    text = json.dumps(_examples()["workflow-run"]["value"])
    text = text.replace("octo-org/octo-repo", REPO).replace("30433642", str(run_id))
    run = json.loads(text)
    run.update(
        name="rfd-bot",
        path=".github/workflows/rfd.yml",
        event="issue_comment",
        status=status,
        conclusion=conclusion,
        created_at="2026-11-22T00:40:00Z",
        updated_at="2026-11-22T01:00:00Z",
    )
    return run


def error(message: str, doc: str, status: int) -> dict[str, Any]:
    return {"message": message, "documentation_url": doc, "status": str(status)}


NOT_FOUND = error("Not Found", "https://docs.github.com/rest", 404)


# ------------------------------------------------------------------ interactions


def headers(
    status: int, body: str, *, write: bool, extra: dict[str, str] | None = None
) -> dict[str, list[str]]:
    out = {
        "Content-Type": ["application/json; charset=utf-8"],
        "Date": ["Sun, 22 Nov 2026 02:00:00 GMT"],
        "Server": ["github.com"],
        "X-GitHub-Api-Version-Selected": ["2022-11-28"],
        "X-GitHub-Media-Type": ["github.v3; format=json"],
        "X-GitHub-Request-Id": [UNNUMBERED],
        "X-RateLimit-Limit": ["1000"],
        "X-RateLimit-Remaining": [UNNUMBERED],
        "X-RateLimit-Reset": ["1795831200"],
        "X-RateLimit-Resource": ["core"],
        "X-RateLimit-Used": [UNNUMBERED],
    }
    if not write and status == 200:
        out["ETag"] = [f'W/"{hashlib.sha256(body.encode()).hexdigest()}"']
        out["Cache-Control"] = ["private, max-age=60, s-maxage=60"]
    if status == 204:
        del out["Content-Type"]
    for key, value in (extra or {}).items():
        out[key] = [value]
    return out


def call(
    method: str,
    path: str,
    *,
    query: str = "",
    body: Any = None,
    status: int = 200,
    reply: Any = None,
    extra: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One interaction as vcrpy stores it."""
    uri = f"{API}/repos/{REPO}{path}" if not path.startswith("http") else path
    text = "" if reply is None else json.dumps(reply, separators=(",", ":"))
    req_headers = {"Accept": ["application/vnd.github+json"], "Authorization": ["REDACTED"]}
    if body is not None:
        req_headers["Content-Type"] = ["application/json"]
    return {
        "request": {
            "body": None if body is None else json.dumps(body),
            "headers": req_headers,
            "method": method,
            "uri": uri + (f"?{query}" if query else ""),
        },
        "response": {
            "body": {"string": text},
            "headers": headers(status, text, write=method != "GET", extra=extra),
            "status": {"code": status, "message": REASONS[status]},
        },
    }


def pull(
    number: int, head_ref: str, head_sha: str, *, author: str = "Codertocat", head_repo: str = REPO
) -> dict[str, Any]:
    """``GET /pulls/{n}``: the OpenAPI example, moved to ``REPO`` and this branch."""
    out = example("pull-request")
    text = json.dumps(out).replace("/1347", f"/{number}")
    out = json.loads(text)
    out.update(
        number=number,
        title="RFD 045: Streaming exports",
        user=user(author),
        labels=[],
        milestone=None,
        assignee=None,
        assignees=[],
        requested_reviewers=[],
        requested_teams=[],
    )
    out["head"].update(ref=head_ref, sha=head_sha, label=f"{head_repo.split('/')[0]}:{head_ref}")
    out["head"]["repo"]["full_name"] = head_repo
    out["base"].update(ref="main", label=f"{REPO.split('/')[0]}:main")
    out["base"]["repo"]["full_name"] = REPO
    return out


def pull_item(
    number: int,
    head_ref: str,
    head_sha: str,
    *,
    labels: tuple[str, ...] = (),
    updated_at: str = "2026-11-21T09:30:00Z",
) -> dict[str, Any]:
    """One item of ``GET /pulls``: the OpenAPI example, moved to ``REPO`` and this branch."""
    out = example("pull-request-simple-items")[0]
    out = json.loads(json.dumps(out).replace("/1347", f"/{number}"))
    out.update(
        number=number,
        id=3000 + number,
        title="RFD 045: Streaming exports",
        user=user("Codertocat"),
        labels=[label(n) for n in labels],
        milestone=None,
        assignee=None,
        assignees=[],
        requested_reviewers=[],
        requested_teams=[],
        updated_at=updated_at,
    )
    out["head"].update(ref=head_ref, sha=head_sha, label=f"{REPO.split('/')[0]}:{head_ref}")
    out["head"]["repo"]["full_name"] = REPO
    out["base"].update(ref="main", label=f"{REPO.split('/')[0]}:main")
    out["base"]["repo"]["full_name"] = REPO
    return out


COLLABORATORS = call(
    "GET",
    "/collaborators",
    query="permission=push&per_page=100",
    reply=[
        collaborator("Codertocat", "admin"),
        collaborator("hubot", "write"),
        collaborator("mona", "maintain"),
    ],
)
"""Who may act on the repository (write access or more), read once by a run that writes the
status comment: its Who may line and a concern's maintainers name them."""
