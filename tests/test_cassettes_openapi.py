"""Every GitHub exchange in ``cassettes/`` matches GitHub's OpenAPI description.

The description is the subset of ``@octokit/openapi`` for the operations the bot
uses (``tests/data/openapi/subset.json``, refreshed by ``refresh.py`` beside it).
OpenAPI 3.0 schemas use ``nullable``, which plain JSON Schema rejects, so this uses
openapi-schema-validator's ``OAS30Validator`` with a ``referencing`` registry.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SUBSET = ROOT / "tests" / "data" / "openapi" / "subset.json"
BASE = "urn:github-openapi-subset"
KNOWN_DRIFT = {
    # A reaction to a comment deleted meanwhile: GitHub answers 404 with its usual error body,
    # although the description lists only 200, 201 and 422 for this operation.
    ("POST", "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", "404"),
    # A token without the right to edit labels: GitHub answers 403 "Resource not accessible
    # by integration" with its usual error body, although the description lists only 200.
    ("PATCH", "/repos/{owner}/{repo}/labels/{name}", "403"),
    # The same when creating one (`rfd init --github` with a token that may only read).
    ("POST", "/repos/{owner}/{repo}/labels", "403"),
    # A workflow run GitHub no longer knows (deleted, or past its retention): GitHub answers
    # 404 with its usual error body, although the description lists only 200.
    ("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}", "404"),
}
BASIC_ERROR = "#/components/schemas/basic-error"


@cache
def spec() -> dict[str, Any]:
    return json.loads(SUBSET.read_text(encoding="utf-8"))


@cache
def templates() -> list[tuple[re.Pattern[str], str]]:
    out = []
    for path in spec()["paths"]:
        pattern = re.sub(r"\\\{(?:path|ref)\\\}", ".+", re.escape(path))  # `tags/v1.2.0`
        pattern = re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", pattern)
        out.append((re.compile(f"^{pattern}$"), path))
    return out


def operation(method: str, uri: str) -> str:
    path = urlsplit(uri).path
    for pattern, template in templates():
        if pattern.match(path) and method.lower() in spec()["paths"][template]:
            return template
    raise AssertionError(f"{method} {path} is not an operation of the subset: add it")


def pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def lookup(ref: str) -> Any:
    node: Any = spec()
    for part in ref.removeprefix("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def validate(ref: str, instance: Any) -> None:
    from openapi_schema_validator import OAS30Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT4

    registry = Registry().with_resource(
        BASE, Resource.from_contents(spec(), default_specification=DRAFT4)
    )
    OAS30Validator({"$ref": BASE + ref}, registry=registry).validate(instance)


def response_schema(template: str, method: str, status: int) -> str | None:
    responses = spec()["paths"][template][method.lower()]["responses"]
    assert str(status) in responses, f"{method} {template} does not document {status}"
    ref = pointer("paths", template, method.lower(), "responses", str(status))
    node = responses[str(status)]
    if "$ref" in node:
        ref, node = node["$ref"], lookup(node["$ref"])
    if "content" not in node:
        return None
    return ref + "/content/application~1json/schema"


def exchanges() -> list[Any]:
    out = []
    for path in sorted((ROOT / "cassettes").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        for n, item in enumerate(data["interactions"]):
            if urlsplit(item["request"]["uri"]).hostname == "api.github.com":
                name = f"{path.relative_to(ROOT / 'cassettes')}#{n}"
                out.append(pytest.param(item, id=name))
    return out


@pytest.mark.parametrize("item", exchanges())
def test_exchange_matches_openapi(item: dict[str, Any]) -> None:
    request, response = item["request"], item["response"]
    method, status = request["method"], response["status"]["code"]
    template = operation(method, request["uri"])
    if request["body"] and (method, template, "request") not in KNOWN_DRIFT:
        body_ref = pointer("paths", template, method.lower(), "requestBody")
        validate(body_ref + "/content/application~1json/schema", json.loads(request["body"]))
    if status >= 500:  # outages are not described; only their shape matters to the client
        return
    if (method, template, str(status)) in KNOWN_DRIFT:
        validate(BASIC_ERROR, json.loads(response["body"]["string"]))
        return
    schema = response_schema(template, method, status)
    text = response["body"]["string"]
    if schema is not None and text:
        validate(schema, json.loads(text))


def test_no_secret_in_cassettes() -> None:
    for path in (ROOT / "cassettes").rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"gh[pousr]_[A-Za-z0-9]{20,}|sk-ant-", text), path
        for item in yaml.safe_load(text)["interactions"]:
            auth = item["request"]["headers"].get("Authorization", ["REDACTED"])
            assert auth == ["REDACTED"], path
