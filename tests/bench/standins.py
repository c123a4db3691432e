"""In-process HTTP stand-ins for GitHub's REST API and the model, for both sides of the
review-event benchmark (``test_github_bench.py``): the bot and pr-agent.

One PR (``Codertocat/Hello-World`` #1) adding the example RFD.  The model answers every chat
completion (pr-agent's OpenAI-compatible call) with a small review in the YAML shape
pr-agent's ``/review`` prompt asks for, and every Anthropic Messages API call
(``POST /v1/messages``, the bot's) with a message whose text is the bot's structured review
of the same RFD, as the API sends it (usage with the cache fields, the rate-limit and
request-id headers).  Every request is recorded (method, path, body) so a bench can check
what was posted.
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from tests.github_world import BRANCH, REPO, RFD_PATH, RFD_TEXT

HEAD_SHA, BASE_SHA = "a" * 40, "b" * 40
USER = {"login": "Codertocat", "id": 21031067, "type": "User"}

REVIEW_YAML = """\
```yaml
review:
  estimated_effort_to_review_[1-5]: |
    1, a single new design document
  score: 85
  relevant_tests: |
    No
  security_concerns: |
    No
  key_issues_to_review:
    - relevant_file: |
        docs/rfd/045-streaming-exports.md
      issue_header: |
        Open question
      issue_content: |
        The back-pressure behaviour when a consumer stalls is not specified.
      start_line: 20
      end_line: 24
```
"""


@dataclass
class Recorded:
    """Requests the stand-ins received: ``(method, path, body)``."""

    requests: list[tuple[str, str, str]] = field(default_factory=list)

    def posted(self, path_end: str) -> list[str]:
        return [b for m, p, b in self.requests if m in ("POST", "PATCH") and p.endswith(path_end)]


def _patch() -> str:
    lines = RFD_TEXT.splitlines()
    return f"@@ -0,0 +1,{len(lines)} @@\n" + "\n".join(f"+{line}" for line in lines)


def _pr(base: str) -> dict[str, Any]:
    repo = _repo(base)
    return {
        "url": f"{base}/repos/{REPO}/pulls/1",
        "id": 1,
        "number": 1,
        "state": "open",
        "html_url": f"{base}/{REPO}/pull/1",
        "title": "RFD 045: streaming exports",
        "body": "Proposes streaming exports.",
        "user": USER,
        "labels": [],
        "created_at": "2026-11-22T02:00:00Z",
        "updated_at": "2026-11-22T02:00:00Z",
        "head": {"ref": BRANCH, "sha": HEAD_SHA, "repo": repo, "user": USER, "label": BRANCH},
        "base": {"ref": "main", "sha": BASE_SHA, "repo": repo, "user": USER, "label": "main"},
        "issue_url": f"{base}/repos/{REPO}/issues/1",
        "commits": 1,
        "additions": 66,
        "deletions": 0,
        "changed_files": 1,
        "merged": False,
        "draft": False,
    }


def _repo(base: str) -> dict[str, Any]:
    return {
        "id": 1296269,
        "name": "Hello-World",
        "full_name": REPO,
        "owner": USER,
        "url": f"{base}/repos/{REPO}",
        "html_url": f"{base}/{REPO}",
        "default_branch": "main",
        "private": False,
    }


def _contents(base: str) -> dict[str, Any]:
    data = base64.b64encode(RFD_TEXT.encode()).decode()
    return {
        "type": "file",
        "encoding": "base64",
        "name": RFD_PATH.rsplit("/", 1)[-1],
        "path": RFD_PATH,
        "sha": "c" * 40,
        "size": len(RFD_TEXT),
        "content": data,
        "url": f"{base}/repos/{REPO}/contents/{RFD_PATH}",
    }


def _body_of(sent: str) -> str:
    """The ``body`` of a JSON request (a comment's text), as GitHub echoes it back."""
    try:
        data = json.loads(sent) if sent else {}
    except ValueError:
        return ""
    return str(data.get("body", "")) if isinstance(data, dict) else ""


def _github(method: str, path: str, query: str, base: str, sent: str = "") -> tuple[int, Any]:
    """Status and JSON body for one GitHub REST request (``sent``: the request's body)."""
    repo = f"/repos/{REPO}"
    commit = {
        "sha": HEAD_SHA,
        "url": f"{base}{repo}/commits/{HEAD_SHA}",
        "commit": {
            "message": "pr",
            "author": {"name": "Codertocat", "date": "2026-11-22T02:00:00Z"},
        },
    }
    comment = {
        "id": 7,
        "body": _body_of(sent),
        "user": USER,
        "url": f"{base}{repo}/issues/comments/7",
        "html_url": f"{base}/{REPO}/pull/1#issuecomment-7",
    }
    if method == "GET":
        reads: dict[str, Any] = {
            repo: _repo(base),
            f"{repo}/pulls/1": _pr(base),
            f"{repo}/pulls/1/files": [
                {
                    "sha": "c" * 40,
                    "filename": RFD_PATH,
                    "status": "added",
                    "additions": 66,
                    "deletions": 0,
                    "changes": 66,
                    "patch": _patch(),
                }
            ],
            f"{repo}/pulls/1/commits": [commit],
            f"{repo}/commits/{HEAD_SHA}": commit,
            f"{repo}/issues/1/comments": [],
            f"{repo}/pulls/1/comments": [],
            f"{repo}/issues/1/labels": [],
            f"{repo}/languages": {"Markdown": 2000},
            "/user": USER,
            f"{repo}/collaborators/{USER['login']}/permission": {
                "permission": "admin",
                "role_name": "admin",
                "user": USER,
            },
        }
        if path in reads:
            return 200, reads[path]
        if path == f"{repo}/contents/{RFD_PATH}" and BASE_SHA not in query:
            return 200, _contents(base)  # the PR's version; the base has none (a new file)
    if method == "POST" and path.endswith("/comments"):
        return 201, comment
    if method == "PATCH" and "/comments/" in path:
        return 200, comment
    if method in ("POST", "PUT", "PATCH"):
        return 200, []
    if method == "DELETE":
        return 204, None
    return 404, {"message": "Not Found"}


REVIEW_JSON = {
    "submit_review": {
        "summary": (
            "Streaming the rows fixes the memory exhaustion the motivation measures, and the "
            "plan cuts the work sensibly. Two gaps stand before acceptance: what a client sees "
            "when the export fails after the first byte, and whether proxies buffer the stream."
        ),
        "findings": [
            {
                "severity": "major",
                "section": "Drawbacks",
                "line": 22,
                "message": (
                    "An error after the first byte cannot change the status code, so a client "
                    "cannot tell a truncated export from a complete one. End the stream with a "
                    "trailer or a final marker row, and say how clients check it."
                ),
            },
            {
                "severity": "minor",
                "section": "Risks and Open Questions",
                "message": (
                    "Proxy buffering decides whether streaming helps at all: test the deployed "
                    "proxies and set `X-Accel-Buffering: no` where they honour it."
                ),
            },
        ],
        "questions": ["Is a timeout per chunk or for the whole export?"],
    }
}
"""The bot's review: its answer schema's ``submit_review`` (``bot/prompts``), findings on the
example RFD's sections."""


def _message(model: str) -> dict[str, Any]:
    """A Messages API answer carrying the structured review as its text block."""
    return {
        "model": model,
        "id": "msg_01StandInReview0000000000",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "text", "text": json.dumps(REVIEW_JSON)}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 42,
            "cache_creation_input_tokens": 2085,
            "cache_read_input_tokens": 0,
            "cache_creation": {"ephemeral_5m_input_tokens": 2085, "ephemeral_1h_input_tokens": 0},
            "output_tokens": 412,
            "service_tier": "standard",
        },
    }


MESSAGES_HEADERS = {
    "request-id": "req_01StandIn000000000000000",
    "anthropic-ratelimit-requests-limit": "4000",
    "anthropic-ratelimit-requests-remaining": "3999",
    "anthropic-ratelimit-requests-reset": "2026-11-22T02:31:06Z",
}


def _completion() -> dict[str, Any]:
    return {
        "id": "chatcmpl-standin",
        "object": "chat.completion",
        "created": 1795831200,
        "model": "gpt-4o",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": REVIEW_YAML},
            }
        ],
        "usage": {"prompt_tokens": 1800, "completion_tokens": 120, "total_tokens": 1920},
    }


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the bench prints numbers, not a request log."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        url = urlsplit(self.path)
        path = url.path
        self.server.recorded.requests.append((self.command, path, body))
        base = f"http://127.0.0.1:{self.server.server_port}"
        headers: dict[str, str] = {}
        if path.endswith("/chat/completions"):
            status, answer = 200, _completion()
        elif path == "/v1/messages":
            model = json.loads(body).get("model", "claude-sonnet-5-5")
            status, answer, headers = 200, _message(model), MESSAGES_HEADERS
        else:
            status, answer = _github(self.command, path, url.query, base, body)
        data = b"" if answer is None else json.dumps(answer).encode()
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer


class _Server(ThreadingHTTPServer):
    recorded: Recorded


@contextmanager
def standins() -> Iterator[tuple[str, Recorded]]:
    """``(base_url, recorded)`` of a GitHub + model stand-in served from a thread."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.recorded = Recorded()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", server.recorded
    finally:
        server.shutdown()
        server.server_close()
